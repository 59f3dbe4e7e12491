/**
 * Compile Move source offline and publish it in one step (the original's helper-package
 * workflow): the sources compile against stubs of every package the environment holds
 * (framework and others), then the modules are published with a real `Publish`.
 */
import { canonicalAddress } from '@smi/bytecode';
import type { BytecodeDependency } from '@smi/move-compiler';
import type { ExecuteOptions, SimulationEnvironment } from './environment.js';
import { SimulationEnvironmentError } from './errors.js';
import { moveCompilerImportFailed } from './move-compiler.js';
import { type PublishOutcome, publishModules } from './packages.js';

/** What {@link compileAndPublish} takes. */
export interface CompileAndPublishOptions extends ExecuteOptions {
  /** The package's files: `Move.toml` (optional: a default one is written) and `sources/*.move`. */
  files: Record<string, string>;
  /** Package name for the default `Move.toml` (default `helper`). */
  packageName?: string;
  /** Packages (by storage id) to offer the compiler besides the framework (default: every loaded package whose dependencies are loaded, {@link compilablePackages}). */
  dependencies?: readonly string[];
  /** Named addresses the sources may call packages by (original id → name, e.g. `target_pkg`). */
  addressNames?: Readonly<Record<string, string>>;
}

/** Outcome of {@link compileAndPublish}. */
export interface CompileAndPublishOutcome extends PublishOutcome {
  /** Module names, in publish order. */
  modules: { name: string; size: number }[];
  warnings?: string;
}

const FRAMEWORK_NAMES = new Map<string, string>([
  [canonicalAddress('0x1'), 'MoveStdlib'],
  [canonicalAddress('0x2'), 'Sui'],
  [canonicalAddress('0x3'), 'SuiSystem'],
  [canonicalAddress('0xb'), 'Bridge'],
  [canonicalAddress('0xdee9'), 'DeepBook'],
]);

/** A package name for the compiler: the framework's own, else `pkg_<first 8 hex digits>`. */
function nameOf(originalId: string): string {
  return FRAMEWORK_NAMES.get(originalId) ?? `pkg_${originalId.slice(2, 10)}`;
}

/**
 * Storage ids of the loaded packages whose dependencies are all loaded, transitively: the
 * packages a build can be offered (a corpus package whose dependencies are missing would
 * make the compiler refuse the whole build, whatever the sources use).
 */
export function compilablePackages(env: SimulationEnvironment): string[] {
  const loaded = env.vm.packageIds().flatMap((id) => {
    const p = env.vm.packageById(id);
    if (p === undefined) return [];
    const refs = new Set<string>();
    for (const { module } of p.modules) for (const h of module.moduleHandles) refs.add(module.addressIdentifiers[h.address]);
    refs.delete(p.originalId);
    return [{ id, originalId: p.originalId, refs }];
  });
  let kept = loaded;
  for (;;) {
    const originals = new Set(kept.map((p) => p.originalId));
    const next = kept.filter((p) => [...p.refs].every((r) => originals.has(r)));
    if (next.length === kept.length) return kept.map((p) => p.id);
    kept = next;
  }
}

/**
 * Compile `files` offline and publish the result; the sender gets the `UpgradeCap`.
 * @throws {SimulationEnvironmentError} `COMPILATION_ERROR` (with the diagnostics) when the sources do not
 *   compile; `COMPILER_NOT_INSTALLED` when `@smi/move-compiler`, an optional peer
 *   dependency, is not installed.
 */
export async function compileAndPublish(env: SimulationEnvironment, options: CompileAndPublishOptions): Promise<CompileAndPublishOutcome> {
  const { compileMovePackage, MoveCompileError } = await import('@smi/move-compiler').catch(moveCompilerImportFailed);
  const name = options.packageName ?? 'helper';
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new SimulationEnvironmentError('INVALID_REQUEST', `bad package name "${name}"`);
  const files = { ...options.files };
  files['Move.toml'] ??= `[package]\nname = "${name}"\nedition = "2024"\n\n[addresses]\n${name} = "0x0"\n`;
  // Offer the newest version of every package (or those asked for).
  const wanted = options.dependencies?.map((d) => canonicalAddress(d));
  const byOriginal = new Map<string, BytecodeDependency>();
  const names = new Map(Object.entries(options.addressNames ?? {}).map(([id, n]) => [canonicalAddress(id), n]));
  for (const id of wanted ?? compilablePackages(env)) {
    const p = env.vm.packageById(id);
    if (p === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `package ${id} is not loaded`, { address: id });
    const prev = byOriginal.get(p.originalId);
    if (prev !== undefined && (env.vm.packageById(prev.publishedAt ?? '')?.version ?? 0) >= (p.version ?? 0)) continue;
    const addressName = names.get(p.originalId);
    byOriginal.set(p.originalId, {
      name: addressName ?? nameOf(p.originalId),
      address: p.originalId,
      modules: p.modules.map((m) => m.module),
      publishedAt: p.id,
      ...(addressName ? { addressName } : {}),
    });
  }
  for (const id of ['0x1', '0x2'].map((a) => canonicalAddress(a))) {
    if (!byOriginal.has(id)) {
      const p = env.vm.packageById(id);
      if (p === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `framework package ${id} is not loaded`, { address: id });
      byOriginal.set(id, { name: nameOf(id), address: id, modules: p.modules.map((m) => m.module) });
    }
  }
  let out;
  try {
    out = await compileMovePackage({ files, dependencies: [...byOriginal.values()], silenceWarnings: false });
  } catch (e) {
    if (e instanceof MoveCompileError) {
      throw new SimulationEnvironmentError('COMPILATION_ERROR', e.message, { diagnostics: e.diagnostics });
    }
    throw e;
  }
  const published = publishModules(
    env,
    out.modules.map((m) => m.bytes),
    options,
  );
  return {
    ...published,
    modules: out.modules.map((m) => ({ name: m.name, size: m.bytes.length })),
    ...(out.warnings ? { warnings: out.warnings } : {}),
  };
}

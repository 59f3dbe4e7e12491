/**
 * Compile one package of a resolved graph (see `workspace.ts`): its source dependencies are
 * served from their sources at their addresses, its bytecode dependencies as stubs.
 */
import { canonicalAddress } from '@smi/bytecode';
import type { BytecodeDependency, SourceDependency } from './dependencies.js';
import { MoveCompileError } from './errors.js';
import { compileMovePackage, type MoveCompileOutput } from './compile.js';
import { type GraphPackage, packageAddress } from './workspace.js';

/** `true` when `address` is the one the package's manifest declares for its own named address. */
function isDeclaredAt(node: GraphPackage, address: string): boolean {
  const own = packageAddress(node.pkg);
  return own.declared && own.address === canonicalAddress(address);
}

/** What {@link compileGraphPackage} needs besides the graph. */
export interface GraphCompileContext {
  /** The framework and any other bytecode package the sources may name (corpus packages). */
  bytecode: readonly BytecodeDependency[];
  /** The bytecode package in a directory a manifest or `--dep` points at, under the dependency's name. */
  loadBytecode(dir: string, name: string): BytecodeDependency;
  /** The address of a source package of the graph. */
  addressOf(node: GraphPackage): string;
  /** Place the output here instead of 0x0. */
  address?: string;
  /** Compile the package's own named address as 0x0 whatever its manifest declares (see `MoveCompileInput.zeroRoot`). */
  zeroRoot?: boolean;
  silenceWarnings?: boolean;
}

/** Compile `target` against its dependencies in `graph`. */
export async function compileGraphPackage(graph: readonly GraphPackage[], target: GraphPackage, ctx: GraphCompileContext): Promise<MoveCompileOutput> {
  const byDir = new Map(graph.map((g) => [g.pkg.dir, g]));
  const sources = new Map<string, GraphPackage>();
  const bytecode = new Map<string, BytecodeDependency>();
  const bindingsOf = (node: GraphPackage): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [key, r] of node.dependencies) {
      if (r.$kind === 'missing') throw new MoveCompileError('DEPENDENCY_ERROR', r.why);
      if (r.$kind === 'source') {
        const dep = byDir.get(r.dir);
        if (!dep) throw new MoveCompileError('DEPENDENCY_ERROR', `${node.pkg.name}: dependency ${key} (${r.dir}) is not in the graph`);
        out[key] = dep.pkg.name;
        if (!sources.has(r.dir)) {
          sources.set(r.dir, dep);
          bindingsOf(dep);
        }
      } else if (r.$kind === 'bytecode') {
        const dep = bytecode.get(r.dir) ?? ctx.loadBytecode(r.dir, key);
        bytecode.set(r.dir, dep);
        out[key] = dep.name;
      }
    }
    return out;
  };
  const rootBindings = bindingsOf(target);
  const sourceDependencies: SourceDependency[] = [...sources.values()].map((node) => {
    const address = ctx.addressOf(node);
    // A published package links against the version its Published.toml names (a legacy
    // manifest: its `published-at`, beside the original id its named address declares).
    const published = node.pkg.published;
    const legacy = node.pkg.manifest.publishedAt;
    const publishedAt =
      published?.publishedAt !== undefined && canonicalAddress(address) === published.originalId
        ? published.publishedAt
        : published === undefined && legacy !== undefined && /^0x[0-9a-fA-F]+$/.test(legacy) && isDeclaredAt(node, address)
          ? canonicalAddress(legacy)
          : undefined;
    return { files: node.pkg.files, address, bindings: bindingsOf(node), ...(publishedAt !== undefined ? { publishedAt } : {}) };
  });
  // A package given as source is compiled from its source, not served from bytecode at the same address.
  const fromSource = new Set(sourceDependencies.map((s) => canonicalAddress(s.address)));
  const all = new Map<string, BytecodeDependency>();
  for (const b of [...ctx.bytecode, ...bytecode.values()]) {
    const at = canonicalAddress(b.address);
    if (!fromSource.has(at) && !all.has(at)) all.set(at, b);
  }
  return compileMovePackage({
    files: target.pkg.files,
    dependencies: [...all.values()],
    sourceDependencies,
    bindings: rootBindings,
    ...(ctx.address !== undefined ? { address: ctx.address } : {}),
    ...(ctx.zeroRoot ? { zeroRoot: true } : {}),
    silenceWarnings: ctx.silenceWarnings,
  });
}

/**
 * Where the data a simulation needs is found, on a machine with or without the fixtures. The
 * framework (0x1, 0x2, 0x3, and 0xb/0xdee9 where present) is looked up in this order:
 *
 * 1. `--framework DIR`, else `SMI_FRAMEWORK`: a folder of framework bundles (`move-stdlib`,
 *    `sui-framework`, …) or of packages in the sui-packages layout holding 0x1 and 0x2;
 * 2. the target corpus's own framework packages (a corpus that holds 0x1 and 0x2);
 * 3. the fixtures (`SMI_FIXTURES`, `<root>/fixtures/framework`);
 * 4. the user cache (`$XDG_CACHE_HOME/smi`, else `~/.cache/smi`), where `smi fetch framework`
 *    writes it.
 *
 * Protocol configs come from the fixtures, else the cache. Nothing found: one error that says
 * how to get it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalAddress, findPackageDirs, loadBundleFile, loadPackageDir, type MovePackage, SYSTEM_PACKAGES } from '@smi/bytecode';
import { availableProtocolVersions, loadProtocolConfig, type ProtocolConfig } from '@smi/move-vm';
import { SimulationEnvironmentError } from '../errors.js';
import { FRAMEWORK_BUNDLES } from '../framework.js';

/** The environment variables the lookup reads. */
export type DataEnv = Readonly<Record<string, string | undefined>>;

/** The user cache of SMI: `$XDG_CACHE_HOME/smi`, else `~/.cache/smi`. */
export function smiCacheDir(env: DataEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '' && path.isAbsolute(xdg)) return path.join(xdg, 'smi');
  return path.join(env.HOME ?? os.homedir(), '.cache', 'smi');
}

const HOW_TO_GET =
  'get it with `smi fetch framework` (needs the network; writes the user cache), or pass --framework DIR (a folder of packages holding 0x1, 0x2 and 0x3 in the sui-packages layout, or of framework bundles), or set SMI_FIXTURES to the fixtures';

const CORE = ['0x1', '0x2'].map((a) => canonicalAddress(a));

/**
 * The framework packages of a folder: framework bundles (`move-stdlib`, `sui-framework`, …),
 * or packages in the sui-packages layout (only the system ones are taken).
 */
export function loadFrameworkFolder(dir: string, closureOf?: readonly string[]): MovePackage[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SimulationEnvironmentError('FRAMEWORK_NOT_FOUND', `framework folder ${dir} not found; ${HOW_TO_GET}`, { path: dir });
  // Each system package of the folder, loaded when first asked for.
  const files = new Map<string, () => MovePackage>();
  if (FRAMEWORK_BUNDLES.some(([f]) => existsSync(path.join(dir, f)))) {
    for (const [id, names] of SYSTEM_PACKAGES) {
      const file = path.join(dir, names.directory);
      if (existsSync(file)) files.set(id, () => loadBundleFile(file));
    }
  } else {
    for (const d of findPackageDirs(dir, 2)) {
      const name = path.basename(d);
      let id: string | undefined;
      try {
        id = canonicalAddress(name);
      } catch {
        id = undefined;
      }
      // A folder named by its id is known without reading it; any other is read to know.
      if (id !== undefined) {
        if (SYSTEM_PACKAGES.has(id)) files.set(id, () => loadPackageDir(d));
      } else {
        const p = loadPackageDir(d);
        if (SYSTEM_PACKAGES.has(p.id)) files.set(p.id, () => p);
      }
    }
  }
  const missing = CORE.filter((id) => !files.has(id));
  if (missing.length > 0) throw new SimulationEnvironmentError('FRAMEWORK_NOT_FOUND', `${dir} holds no framework: ${missing.map(short).join(' and ')} missing; ${HOW_TO_GET}`, { path: dir });
  return loadClosure(files, closureOf);
}

/**
 * The packages of `available`: all of them, or those of `closureOf` and, transitively, the
 * system packages their modules name (a call into 0x1 needs only 0x1; one into 0x3, 0x1 to 0x3).
 */
function loadClosure(available: ReadonlyMap<string, () => MovePackage>, closureOf?: readonly string[]): MovePackage[] {
  if (closureOf === undefined) return [...available.values()].map((load) => load());
  const out = new Map<string, MovePackage>();
  const queue = closureOf.map((id) => canonicalAddress(id));
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const load = available.get(id);
    if (out.has(id) || load === undefined) continue;
    const p = load();
    out.set(id, p);
    for (const m of p.modules) for (const a of m.module.addressIdentifiers) if (!out.has(a) && available.has(a)) queue.push(a);
  }
  return [...out.values()];
}

function short(id: string): string {
  return `0x${id.slice(2).replace(/^0+(?=.)/, '')}`;
}

/** Where the framework was found. */
export type FrameworkOrigin = 'flag' | 'env' | 'corpus' | 'fixtures' | 'cache';

/** A framework found. */
export interface LocatedFramework {
  packages: MovePackage[];
  origin: FrameworkOrigin;
  /** The folder (for `corpus`: the folder of its 0x2). */
  path: string;
  /** The protocol version a cached framework was fetched for. */
  protocolVersion?: number;
}

/** Options of {@link locateFramework}. */
export interface LocateFrameworkOptions {
  /** `--framework DIR` (resolved). */
  framework?: string;
  /** The packages of the target corpus (its own 0x1/0x2 win over the fixtures'). */
  corpus?: readonly MovePackage[];
  /** The fixtures root (`SMI_FIXTURES` resolved; default: none). */
  fixtures?: string;
  /** The cache (default {@link smiCacheDir}). */
  cacheDir?: string;
  /** Environment (default `process.env`): `SMI_FRAMEWORK`, `XDG_CACHE_HOME`, `HOME`. */
  env?: DataEnv;
  /** From the cache, the framework of this protocol version (else the highest at or below it; default: the highest). */
  protocolVersion?: number;
  /**
   * Only these system packages and those they name, transitively (what a call into one of
   * them needs): the others are not read. Default: every one.
   */
  closureOf?: readonly string[];
}

/** Protocol versions with a framework in the cache, ascending. */
export function cachedFrameworkVersions(cacheDir: string): number[] {
  const dir = path.join(cacheDir, 'framework');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((v) => /^[0-9]+$/.test(v) && CORE.every((id) => existsSync(path.join(dir, v, id, 'metadata.json'))))
    .map(Number)
    .sort((a, b) => a - b);
}

/** Find the framework (see the module comment for the order). */
export function locateFramework(options: LocateFrameworkOptions = {}): LocatedFramework {
  const env = options.env ?? process.env;
  const closure = options.closureOf;
  if (options.framework !== undefined) return { packages: loadFrameworkFolder(options.framework, closure), origin: 'flag', path: options.framework };
  const fromEnv = env.SMI_FRAMEWORK;
  if (fromEnv !== undefined && fromEnv !== '') return { packages: loadFrameworkFolder(fromEnv, closure), origin: 'env', path: fromEnv };
  const own = (options.corpus ?? []).filter((p) => SYSTEM_PACKAGES.has(p.id));
  if (CORE.every((id) => own.some((p) => p.id === id))) {
    const two = own.find((p) => p.id === CORE[1]);
    const where = two?.source.$kind === 'Directory' ? path.dirname(two.source.path) : 'the corpus';
    return { packages: own, origin: 'corpus', path: where };
  }
  const looked: string[] = [];
  if (options.fixtures !== undefined) {
    const dir = path.join(options.fixtures, 'fixtures', 'framework');
    looked.push(`${dir} (SMI_FIXTURES)`);
    if (existsSync(dir)) return { packages: loadFrameworkFolder(dir, closure), origin: 'fixtures', path: dir };
  }
  const cacheDir = options.cacheDir ?? smiCacheDir(env);
  const versions = cachedFrameworkVersions(cacheDir);
  const wanted = options.protocolVersion;
  const pick = wanted === undefined ? versions.at(-1) : versions.filter((v) => v <= wanted).at(-1);
  looked.push(`${path.join(cacheDir, 'framework')} (the cache${versions.length > 0 ? `: protocol ${versions.join(', ')}` : ''})`);
  if (pick !== undefined) {
    const dir = path.join(cacheDir, 'framework', String(pick));
    return { packages: loadFrameworkFolder(dir, closure), origin: 'cache', path: dir, protocolVersion: pick };
  }
  throw new SimulationEnvironmentError('FRAMEWORK_NOT_FOUND', `no Sui framework found (looked in --framework, SMI_FRAMEWORK, the corpus, ${looked.join(', ')}); ${HOW_TO_GET}`, {
    looked: looked.join('; '),
  });
}

/** Protocol versions with a config under `root` (none when it has no snapshots). */
function versionsUnder(root: string): number[] {
  try {
    return availableProtocolVersions(root);
  } catch {
    return [];
  }
}

/**
 * The protocol config of `version` (default: the highest available): from the fixtures, else
 * the cache. Not found: PROTOCOL_CONFIG_NOT_FOUND, saying how to get it.
 */
export function locateProtocolConfig(version: number | undefined, options: { fixtures?: string; cacheDir?: string; env?: DataEnv } = {}): ProtocolConfig {
  const roots = [...(options.fixtures !== undefined ? [options.fixtures] : []), options.cacheDir ?? smiCacheDir(options.env ?? process.env)];
  const available = new Set<number>();
  for (const root of roots) {
    const versions = versionsUnder(root);
    for (const v of versions) available.add(v);
    if (versions.length > 0 && (version === undefined || versions.includes(version))) return loadProtocolConfig(root, version);
  }
  const have = [...available].sort((a, b) => a - b);
  throw new SimulationEnvironmentError(
    'PROTOCOL_CONFIG_NOT_FOUND',
    `no protocol config ${version ?? ''}`.trimEnd() +
      ` (looked in ${roots.join(', ')}${have.length > 0 ? `; available: ${have[0]}..${have.at(-1)}` : ''}); get it with \`smi fetch framework${version !== undefined ? ` --protocol-version ${version}` : ''}\` or set SMI_FIXTURES`,
    { looked: roots.join('; ') },
  );
}

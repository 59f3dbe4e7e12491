/**
 * Move source packages on disk and the graph they form: read a package directory, find the
 * packages under a repository, resolve each declared dependency to a directory (a `local`
 * path, a git dependency on the same repository, or one the caller maps by name), and order
 * the packages so that every one comes after its dependencies.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress } from '@smi/bytecode';
import { isSuiRepo, normalizeName, systemAddressByName } from './dependencies.js';
import { MoveCompileError } from './errors.js';
import { buildDependencies, type DeclaredDependency, manifestPackage, type ManifestPackage } from './manifest.js';
import { pathRoots } from './source-scan.js';

/** A Move source package read from disk. */
export interface MovePackageDir {
  /** Absolute directory. */
  dir: string;
  /** `Move.toml` and every `sources/**.move`. */
  files: Record<string, string>;
  /** `[package] name`. */
  name: string;
  manifest: ManifestPackage;
  /** Dependencies of a normal build (test-only ones left out). */
  declared: DeclaredDependency[];
  /** The named addresses its modules are declared at. */
  moduleRoots: string[];
}

/** Read `Move.toml` and `sources/**.move` of a package directory. */
export function readMovePackageDir(dir: string): MovePackageDir {
  const abs = path.resolve(dir);
  const tomlPath = path.join(abs, 'Move.toml');
  if (!existsSync(tomlPath)) throw new MoveCompileError('INVALID_INPUT', `${dir}: no Move.toml (not a Move package)`);
  const toml = readFileSync(tomlPath, 'utf8');
  const files: Record<string, string> = { 'Move.toml': toml };
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(abs, rel)).sort()) {
      const r = path.posix.join(rel, e);
      const st = statSync(path.join(abs, r));
      if (st.isDirectory()) walk(r);
      else if (e.endsWith('.move')) files[r] = readFileSync(path.join(abs, r), 'utf8');
    }
  };
  if (existsSync(path.join(abs, 'sources'))) walk('sources');
  const manifest = manifestPackage(toml);
  const sources = Object.entries(files)
    .filter(([f]) => f.endsWith('.move'))
    .map(([, t]) => t);
  return {
    dir: abs,
    files,
    name: manifest.name ?? path.basename(abs),
    manifest,
    declared: buildDependencies(toml),
    moduleRoots: [...pathRoots(sources).modules],
  };
}

const SKIPPED_DIRS = new Set(['node_modules', 'build', '.git', 'target']);

/** Every directory holding a `Move.toml` under `root` (build outputs and VCS folders skipped), sorted. */
export function findMovePackageDirs(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    if (entries.includes('Move.toml')) out.push(dir);
    for (const e of entries) {
      if (SKIPPED_DIRS.has(e) || e.startsWith('.')) continue;
      const p = path.join(dir, e);
      try {
        if (statSync(p).isDirectory()) walk(p);
      } catch {
        // unreadable: skipped
      }
    }
  };
  walk(path.resolve(root));
  return out;
}

/** Where a dependency of the graph is. */
export type ResolvedDependency =
  | { $kind: 'system' }
  | { $kind: 'source'; dir: string }
  | { $kind: 'bytecode'; dir: string }
  | { $kind: 'missing'; why: string };

/** A package of the graph with its dependencies resolved. */
export interface GraphPackage {
  pkg: MovePackageDir;
  /** Declared dependency key → where it is. */
  dependencies: Map<string, ResolvedDependency>;
}

/** Options of {@link resolveMoveGraph}. */
export interface ResolveOptions {
  /** The repository the packages are in: a git dependency whose URL names it resolves to its `subdir` there. */
  repositoryRoot?: string;
  /** Dependency name → directory (a Move source package or a bytecode package), overriding the manifests. */
  overrides?: ReadonlyMap<string, string>;
  /**
   * The repository's packages by name (`[package] name` and module address, normalized): a
   * dependency with no location of its own (one an external resolver such as the Move Registry
   * finds, `{ r.mvr = "@org/pkg" }`) is the repository's package of that name, when there is one.
   */
  repositoryPackages?: ReadonlyMap<string, string>;
}

function repoName(url: string): string {
  return (url.replace(/\.git$/, '').replace(/\/+$/, '').split(/[/:]/).pop() ?? '').toLowerCase();
}

function kindOf(dir: string): 'source' | 'bytecode' | undefined {
  if (existsSync(path.join(dir, 'Move.toml'))) return 'source';
  if (existsSync(path.join(dir, 'bytecode_modules'))) return 'bytecode';
  return undefined;
}

function resolveOne(from: MovePackageDir, d: DeclaredDependency, options: ResolveOptions): ResolvedDependency {
  const names = [d.name, ...(d.renameFrom !== undefined ? [d.renameFrom] : [])];
  const override = names.map((n) => options.overrides?.get(n) ?? options.overrides?.get(normalizeName(n))).find((o) => o !== undefined);
  const at = (dir: string, what: string): ResolvedDependency => {
    const kind = kindOf(dir);
    return kind ? { $kind: kind, dir } : { $kind: 'missing', why: `${what}: ${dir} holds neither a Move.toml nor bytecode_modules/` };
  };
  if (override !== undefined) return at(path.resolve(override), `--dep ${d.name}`);
  const src = d.source;
  if (src.kind === 'git' && isSuiRepo(src.git)) return { $kind: 'system' };
  if (src.kind === 'local') return at(path.resolve(from.dir, src.local), `${from.name}: dependency ${d.name} (local "${src.local}")`);
  if (src.kind === 'git') {
    // A git dependency on the repository being built, or on a checkout of it above the package
    // (a directory whose name ends with the repository's name), is its subdir there.
    const name = repoName(src.git);
    const ancestors: string[] = [];
    for (let d = from.dir; path.dirname(d) !== d; d = path.dirname(d)) ancestors.push(d);
    const roots = [...(options.repositoryRoot ? [path.resolve(options.repositoryRoot)] : []), ...ancestors];
    const root = roots.find((r) => {
      const base = path.basename(r).toLowerCase();
      return (base === name || base.endsWith(`-${name}`) || base.endsWith(`+${name}`)) && kindOf(path.resolve(r, src.subdir ?? '.')) !== undefined;
    });
    if (root) return at(path.resolve(root, src.subdir ?? '.'), `${from.name}: dependency ${d.name} (git, a checkout of ${name})`);
    return { $kind: 'missing', why: `${from.name}: dependency ${d.name} is git ${src.git}${src.subdir ? ` (${src.subdir})` : ''}: not available offline; give it with --dep ${d.name}=DIR` };
  }
  const sibling = options.repositoryPackages?.get(normalizeName(d.renameFrom ?? d.name));
  if (sibling !== undefined && path.resolve(sibling) !== from.dir) return at(sibling, `${from.name}: dependency ${d.name} (this repository)`);
  if (src.kind === 'external') {
    return { $kind: 'missing', why: `${from.name}: dependency ${d.name} is found by the external resolver r.${src.resolver} (${src.spec}): not available offline; give it with --dep ${d.name}=DIR` };
  }
  if (systemAddressByName(d.name) !== undefined) {
    return { $kind: 'system' };
  }
  return { $kind: 'missing', why: `${from.name}: dependency ${d.name}: no local path or git location; give it with --dep ${d.name}=DIR` };
}

/**
 * The packages reachable from `roots` through their source dependencies, each after its
 * dependencies. A cycle is an error.
 */
export function resolveMoveGraph(roots: readonly string[], options: ResolveOptions = {}): GraphPackage[] {
  const byDir = new Map<string, GraphPackage>();
  const order: GraphPackage[] = [];
  const visiting = new Set<string>();
  const visit = (dir: string, trail: string[]): GraphPackage => {
    const abs = path.resolve(dir);
    const done = byDir.get(abs);
    if (done) return done;
    if (visiting.has(abs)) throw new MoveCompileError('DEPENDENCY_ERROR', `dependency cycle: ${[...trail, abs].map((d) => path.basename(d)).join(' -> ')}`);
    visiting.add(abs);
    const pkg = readMovePackageDir(abs);
    const dependencies = new Map<string, ResolvedDependency>();
    for (const d of pkg.declared) {
      const r = resolveOne(pkg, d, options);
      dependencies.set(d.name, r);
      if (r.$kind === 'source') visit(r.dir, [...trail, abs]);
    }
    visiting.delete(abs);
    const node = { pkg, dependencies };
    byDir.set(abs, node);
    order.push(node);
    return node;
  };
  for (const r of roots) visit(r, []);
  return order;
}

/**
 * The address a source package is placed at: the non-zero address its manifest declares for
 * its own named address, else one derived from `seed` (stable across runs and machines).
 */
export function packageAddress(pkg: MovePackageDir, seed: string): { address: string; declared: boolean } {
  const own = pkg.moduleRoots.filter((r) => !r.startsWith('0x'));
  const declared = own.map((n) => pkg.manifest.addresses?.[n]).find((v) => v !== undefined && v !== '_' && !/^0x0*$/.test(v));
  if (declared !== undefined) {
    try {
      return { address: canonicalAddress(declared), declared: true };
    } catch {
      // not an address: derived below
    }
  }
  return { address: '0x' + createHash('sha256').update(`smi-build:${seed}`).digest('hex'), declared: false };
}

/** The packages under `root` by normalized name (`[package] name` and the address names of their modules); a name two packages share is left out. */
export function repositoryPackages(dirs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const shared = new Set<string>();
  for (const dir of dirs) {
    let pkg: MovePackageDir;
    try {
      pkg = readMovePackageDir(dir);
    } catch {
      continue;
    }
    for (const name of new Set([pkg.name, ...pkg.moduleRoots.filter((r) => !r.startsWith('0x'))].map(normalizeName))) {
      if (out.has(name) && out.get(name) !== pkg.dir) shared.add(name);
      else out.set(name, pkg.dir);
    }
  }
  for (const name of shared) out.delete(name);
  return out;
}

/**
 * Move source packages on disk and the graph they form: read a package directory, find the
 * packages under a repository, resolve each declared dependency to a directory (a `local`
 * path, a git dependency on the same repository, or one the caller maps by name), and order
 * the packages so that every one comes after its dependencies.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalAddress } from '@smi/bytecode';
import { isSuiRepo, normalizeName, systemAddressByName } from './dependencies.js';
import { MoveCompileError } from './errors.js';
import { buildDependencies, type DeclaredDependency, manifestPackage, type ManifestPackage, publishedPackage, type PublishedPackage } from './manifest.js';
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
  /** Its mainnet publication (`Published.toml`, or a legacy `Move.lock`), when it records one. */
  published?: PublishedPackage;
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
  const optional = (f: string): string | undefined => (existsSync(path.join(abs, f)) ? readFileSync(path.join(abs, f), 'utf8') : undefined);
  let published: PublishedPackage | undefined;
  try {
    published = publishedPackage(optional('Published.toml'), optional('Move.lock'));
    if (published) {
      published.originalId = canonicalAddress(published.originalId);
      if (published.publishedAt !== undefined) published.publishedAt = canonicalAddress(published.publishedAt);
    }
  } catch {
    published = undefined;
  }
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
    ...(published ? { published } : {}),
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
export type ResolvedDependency = { $kind: 'system' } | { $kind: 'source'; dir: string } | { $kind: 'bytecode'; dir: string } | { $kind: 'missing'; why: string };

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
  /** Told what the resolution could not honour (a git pin it could not check out). */
  warn?: (message: string) => void;
}

const checkouts = new Map<string, string>();

function git(root: string, args: string[], input?: Buffer): Buffer {
  return execFileSync('git', ['-C', root, ...args], { stdio: [input ? 'pipe' : 'ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30, ...(input ? { input } : {}) });
}

/**
 * The directory of `subdir` of the repository at `root` as of `rev`: the working tree's when it
 * is the same there (or no revision is pinned), else a checkout of that revision from the
 * repository's own history (`git archive`, into a temporary directory, once per commit). When
 * the revision cannot be read, the working tree's, and `warn` says the pin is not honoured.
 */
function atRevision(root: string, rev: string | undefined, subdir: string, what: string, warn: ((m: string) => void) | undefined): string {
  const working = path.resolve(root, subdir);
  if (rev === undefined) return working;
  const found = lookUpRevision(root, rev, subdir, working);
  if (found.why !== undefined) warn?.(`${what} is pinned to rev "${rev}", but ${found.why}: the working tree's ${subdir === '.' ? 'copy' : subdir} is used instead`);
  return found.dir;
}

function lookUpRevision(root: string, rev: string, subdir: string, working: string): { dir: string; why?: string } {
  const notHonoured = (why: string) => ({ dir: working, why });
  let commit: string | undefined;
  try {
    git(root, ['rev-parse', '--is-inside-work-tree']);
  } catch {
    return notHonoured(`${root} is not a git checkout`);
  }
  for (const candidate of [rev, `origin/${rev}`]) {
    try {
      commit = git(root, ['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`])
        .toString()
        .trim();
      break;
    } catch {
      // next
    }
  }
  if (!commit) return notHonoured(`the repository's history at ${root} has no such revision`);
  try {
    git(root, ['diff', '--quiet', commit, '--', subdir]);
    return { dir: working };
  } catch {
    // differs (or cannot be compared): read that revision
  }
  const top = git(root, ['rev-parse', '--show-toplevel']).toString().trim();
  const key = `${top}\0${commit}`;
  // A revision is read once per process (a commit does not change).
  let dir = checkouts.get(key);
  if (dir === undefined || !existsSync(dir)) {
    try {
      dir = mkdtempSync(path.join(tmpdir(), `smi-rev-${commit.slice(0, 12)}-`));
      execFileSync('tar', ['-x', '-C', dir], { input: git(top, ['archive', '--format=tar', commit]), stdio: ['pipe', 'ignore', 'ignore'] });
    } catch (e) {
      return notHonoured(`it could not be checked out (${String(e).split('\n')[0]})`);
    }
    checkouts.set(key, dir);
    revisionCheckouts.set(dir, { identity: repositoryOf(top)?.identity ?? top, rev: commit });
  }
  return { dir: path.resolve(dir, path.relative(top, path.resolve(root)), subdir) };
}

function repoName(url: string): string {
  return (
    url
      .replace(/\.git$/, '')
      .replace(/\/+$/, '')
      .split(/[/:]/)
      .pop() ?? ''
  ).toLowerCase();
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
    if (root) {
      const dir = atRevision(root, src.rev, src.subdir ?? '.', `${from.name}: git dependency ${d.name} (${src.git}${src.subdir ? `, ${src.subdir}` : ''})`, options.warn);
      return at(dir, `${from.name}: dependency ${d.name} (git, a checkout of ${name}${src.rev ? ` at ${src.rev}` : ''})`);
    }
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
 * its own named address, else the original id its `Published.toml` records for mainnet (with
 * its published-at as `publishedAt`), else one derived from `seed` (stable across runs and
 * machines).
 */
export function packageAddress(pkg: MovePackageDir, seed: string = addressSeed(pkg.dir)): { address: string; declared: boolean; publishedAt?: string } {
  const own = pkg.moduleRoots.filter((r) => !r.startsWith('0x'));
  const declared = own.map((n) => pkg.manifest.addresses?.[n]).find((v) => v !== undefined && v !== '_' && !/^0x0*$/.test(v));
  if (declared !== undefined) {
    try {
      return { address: canonicalAddress(declared), declared: true };
    } catch {
      // not an address: derived below
    }
  }
  if (pkg.published) {
    return { address: pkg.published.originalId, declared: true, ...(pkg.published.publishedAt !== undefined ? { publishedAt: pkg.published.publishedAt } : {}) };
  }
  return { address: '0x' + createHash('sha256').update(`smi-build:${seed}`).digest('hex'), declared: false };
}

/** A git remote URL without its scheme, credentials, `.git` suffix and case differences: `github.com/org/repo`. */
export function normalizeRemote(url: string): string {
  return url
    .trim()
    .replace(/^[a-z+]+:\/\//i, '')
    .replace(/^[^@/]+@/, '')
    .replace(/^([^/:]+):(?!\d)/, '$1/')
    .replace(/\.git\/?$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

/** The `origin` remote URL of the git checkout at `root` (its `.git/config`), if any. */
function originUrl(root: string): string | undefined {
  let gitDir = path.join(root, '.git');
  try {
    if (statSync(gitDir).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, 'utf8'));
      if (!m) return undefined;
      gitDir = path.resolve(root, m[1].trim());
      const common = path.join(gitDir, 'commondir');
      if (existsSync(common)) gitDir = path.resolve(gitDir, readFileSync(common, 'utf8').trim());
    }
    const config = readFileSync(path.join(gitDir, 'config'), 'utf8');
    const section = /\[remote\s+"origin"\]([^[]*)/.exec(config)?.[1];
    const url = section && /^\s*url\s*=\s*(.+)$/m.exec(section)?.[1];
    return url ? url.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** Checkouts of another revision of a repository (see {@link resolveMoveGraph}): their root → the repository's identity and the revision. */
const revisionCheckouts = new Map<string, { identity: string; rev: string }>();

/** The repository a directory is in: its git checkout's root and identity (`origin` URL, else the root's absolute path). */
export function repositoryOf(dir: string): { root: string; identity: string } | undefined {
  const abs = path.resolve(dir);
  for (let d = abs; ; d = path.dirname(d)) {
    const checkout = revisionCheckouts.get(d);
    if (checkout) return { root: d, identity: `${checkout.identity}@${checkout.rev}` };
    if (existsSync(path.join(d, '.git'))) {
      const url = originUrl(d);
      return { root: d, identity: url ? normalizeRemote(url) : d };
    }
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * What a derived address is derived from: the identity of the repository the package is in (its
 * `origin` URL, else its absolute root) and the package's path there; the package's absolute
 * directory outside a git checkout. The same for `smi build` and `smi build-all`, and different
 * for `packages/token` of two repositories.
 */
export function addressSeed(dir: string): string {
  const abs = path.resolve(dir);
  const repo = repositoryOf(abs);
  if (!repo) return abs;
  return `${repo.identity}:${path.relative(repo.root, abs).split(path.sep).join('/') || '.'}`;
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

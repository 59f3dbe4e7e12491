/**
 * Dependency packages served to the WASM builder from bytecode: every dependency
 * becomes a stub package (see `../stubs.ts`), reachable at one canonical source so
 * that the package graph holds exactly one node per package.
 *
 * - System packages (0x1, 0x2, 0x3, 0xb, 0xdee9) live at their upstream git location
 *   (`MystenLabs/sui`, `crates/sui-framework/packages/<dir>`), which is where the
 *   builder looks for the implicit `std`/`sui` dependencies. Every git revision
 *   resolves to one fixed commit id, so all requests for a package unify.
 * - Other packages live where the root manifest declares them, or at an injected
 *   local path `../smi-deps/<name>`.
 *
 * A dependency the root manifest does not declare is added to it when the sources name
 * it (`<addressName>::` or `0x<address>::`); `std` and `sui` are always implicit. Any
 * other dependency is still served to the packages that use it.
 */
import type { CompiledModule } from '../file-format.js';
import { canonicalAddress, moduleAddress, moduleHandleId, moduleName, shortAddress } from '../module-access.js';
import {
  generateMoveStubs,
  generateStubManifest,
  stubPackageNames,
  SYSTEM_PACKAGES,
  type StubDependencySource,
} from '../stubs.js';
import { MoveCompileError } from './errors.js';
import { addDependencies, declaredDependencies, type AddedDependency } from './manifest.js';

/** A dependency given as bytecode. */
export interface BytecodeDependency {
  /** Package name (the `[package] name` of its stub; system packages keep their upstream names). */
  name: string;
  /** The package's original id: the address its modules carry. */
  address: string;
  /** Every module of the package. */
  modules: readonly CompiledModule[];
  /** Named address its modules are declared under (default: snake-case `name`, `std`/`sui`/... for system packages). */
  addressName?: string;
  /** Id to record as the package's `published-at` (default: `address`). */
  publishedAt?: string;
}

/** The upstream repository the builder fetches the framework from. */
export const SUI_GIT_URL = 'https://github.com/MystenLabs/sui.git';
const FRAMEWORK_DIR = 'crates/sui-framework/packages';
/** The commit id every git revision resolves to (any fixed value unifies the graph). */
const RESOLVED_SHA = '0'.repeat(40);
const STD = canonicalAddress('0x1');
const SUI = canonicalAddress('0x2');
/** Where undeclared non-system dependencies are placed, relative to the root package. */
const INJECTED_DIR = '../smi-deps';

/** Where a package lives, relative to the root package. */
type Location = { local: string } | { git: string; rev: string; subdir?: string };

interface PlannedPackage {
  dep: BytecodeDependency;
  address: string;
  packageName: string;
  addressName: string;
  system: boolean;
  /** Lower-case names requests may use for this package. */
  aliases: Set<string>;
  location: Location;
  /** Canonical addresses of the packages its modules reference. */
  references: string[];
}

/** The host side of the builder's dependency fetching (the builder's `MovePackageFetcher` shape). */
export interface StubFetcher {
  fetch(gitUrl: string, rev: string, subdir?: string): Promise<Record<string, string>>;
  fetchFile(gitUrl: string, rev: string, path: string): Promise<string | null>;
  getResolvedSha(gitUrl: string, rev: string): string | undefined;
  fetchLocal(localPath: string, context: { dependencyName: string }): Promise<Record<string, string>>;
}

/** A planned build: the root manifest with injected dependencies, and the fetcher serving them. */
export interface DependencyPlan {
  manifest: string;
  fetcher: StubFetcher;
}

const stubCache = new WeakMap<readonly CompiledModule[], Map<string, Record<string, string>>>();
const identities = new WeakMap<readonly CompiledModule[], number>();

/** A number naming one list of modules for the life of the process. */
function identity(modules: readonly CompiledModule[]): number {
  let id = identities.get(modules);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(modules, id);
  }
  return id;
}
let nextIdentity = 1;

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

function basename(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  return parts.length === 0 ? '' : parts[parts.length - 1].replace(/\.git$/, '');
}

/** Normalize a relative path: `a/./b/../c` → `a/c`, keeping leading `..`. */
export function normalizeRelativePath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.length === 0 ? '.' : out.join('/');
}

/** Relative path from directory `from` to `to`, both relative to the same root. */
export function relativePath(from: string, to: string): string {
  const a = normalizeRelativePath(from).split('/').filter((p) => p !== '.');
  const b = normalizeRelativePath(to).split('/').filter((p) => p !== '.');
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  if (a.slice(common).includes('..')) {
    throw new MoveCompileError('DEPENDENCY_ERROR', `cannot express a path from ${from} to ${to}`);
  }
  const rel = [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
  return rel === '' ? '.' : rel;
}

function isSuiRepo(git: string): boolean {
  return /github\.com[/:]mystenlabs\/sui(\.git)?\/?$/i.test(git);
}

function systemLocation(directory: string): Location {
  return { git: SUI_GIT_URL, rev: 'framework/mainnet', subdir: `${FRAMEWORK_DIR}/${directory}` };
}

/** Validate the dependencies and index them by canonical address. */
function planPackages(deps: readonly BytecodeDependency[]): Map<string, PlannedPackage> {
  const byAddress = new Map<string, PlannedPackage>();
  for (const dep of deps) {
    let address: string;
    try {
      address = canonicalAddress(dep.address);
    } catch {
      throw new MoveCompileError('INVALID_INPUT', `dependency ${dep.name}: invalid address ${JSON.stringify(dep.address)}`);
    }
    if (/^0x0+$/.test(address)) throw new MoveCompileError('INVALID_INPUT', `dependency ${dep.name}: address 0x0`);
    if (dep.modules.length === 0) throw new MoveCompileError('INVALID_INPUT', `dependency ${dep.name}: no modules`);
    if (byAddress.has(address)) {
      throw new MoveCompileError('INVALID_INPUT', `two dependencies at ${shortAddress(address)}`);
    }
    const references = new Set<string>();
    for (const m of dep.modules) {
      if (moduleAddress(m) !== address) {
        throw new MoveCompileError(
          'INVALID_INPUT',
          `dependency ${dep.name}: module ${moduleName(m)} is at ${shortAddress(moduleAddress(m))}, not ${shortAddress(address)}`,
        );
      }
      for (let i = 0; i < m.moduleHandles.length; i++) references.add(moduleHandleId(m, i).address);
    }
    references.delete(address);
    const system = SYSTEM_PACKAGES.get(address);
    const names = stubPackageNames(address, system ? undefined : dep.name);
    const addressName = dep.addressName ?? names.addressName;
    const aliases = new Set([dep.name, names.packageName, addressName, system?.directory ?? dep.name].map(normalizeName));
    byAddress.set(address, {
      dep,
      address,
      packageName: names.packageName,
      addressName,
      system: system !== undefined,
      aliases,
      location: system ? systemLocation(system.directory) : { local: `${INJECTED_DIR}/${names.packageName}` },
      references: [...references].sort(),
    });
  }
  const missing: string[] = [];
  for (const p of byAddress.values()) {
    for (const r of p.references) {
      if (!byAddress.has(r)) missing.push(`${p.packageName} (${shortAddress(p.address)}) uses ${shortAddress(r)}`);
    }
  }
  if (missing.length > 0) {
    throw new MoveCompileError('DEPENDENCY_ERROR', `missing dependencies: ${missing.join('; ')}`, {
      diagnostics: missing.join('\n'),
    });
  }
  return byAddress;
}

/** `true` when the sources name the package: `<addressName>::` or `0x<address>::`. */
function mentioned(sources: string, p: PlannedPackage): boolean {
  const hex = p.address.slice(2).replace(/^0+/, '');
  const name = p.addressName.replace(/[^A-Za-z0-9_]/g, '\\$&');
  return new RegExp(`(?<![\\w:])(${name}|0x0*${hex})\\s*::`, 'i').test(sources);
}

function findByName(packages: Iterable<PlannedPackage>, ...names: (string | undefined)[]): PlannedPackage | undefined {
  const wanted = names.filter((n): n is string => n !== undefined && n !== '').map(normalizeName);
  for (const name of wanted) {
    for (const p of packages) if (p.aliases.has(name)) return p;
  }
  return undefined;
}

function systemByDirectory(packages: Map<string, PlannedPackage>, subdir: string | undefined): PlannedPackage | 'absent' | undefined {
  if (subdir === undefined) return undefined;
  const dir = basename(subdir);
  for (const [address, info] of SYSTEM_PACKAGES) {
    if (info.directory === dir) return packages.get(address) ?? 'absent';
  }
  return undefined;
}

/** The source by which `from` refers to `to` in its Move.toml. */
function referenceFrom(from: PlannedPackage, to: PlannedPackage): StubDependencySource {
  if ('git' in to.location) return to.location;
  if ('local' in from.location) return { local: relativePath(from.location.local, to.location.local) };
  throw new MoveCompileError(
    'DEPENDENCY_ERROR',
    `${from.packageName} is declared as a git dependency but uses ${to.packageName}, which is not: declare both the same way`,
  );
}

function stubFiles(p: PlannedPackage, packages: Map<string, PlannedPackage>): Record<string, string> {
  let perName = stubCache.get(p.dep.modules);
  if (!perName) {
    perName = new Map();
    stubCache.set(p.dep.modules, perName);
  }
  // The stubs depend on the named address and, through macros that use other packages' macros, on those packages.
  const others = [...packages.values()].filter((o) => o !== p).map((o) => o.dep.modules);
  const key = [p.addressName, ...others.map(identity).sort((a, b) => a - b)].join('|');
  let sources = perName.get(key);
  if (!sources) {
    sources = Object.fromEntries(generateMoveStubs(p.dep.modules, { addressName: p.addressName, packages: others }));
    perName.set(key, sources);
  }
  const dependencies: Record<string, StubDependencySource> = {};
  for (const r of p.references) {
    const target = packages.get(r);
    if (target) dependencies[target.packageName] = referenceFrom(p, target);
  }
  const manifest = generateStubManifest({
    packageName: p.packageName,
    addressName: p.addressName,
    address: p.address,
    publishedAt: p.dep.publishedAt,
    dependencies,
  });
  return { ...sources, 'Move.toml': manifest };
}

/**
 * Plan the dependency graph of a build: decide where each dependency lives, add the
 * undeclared ones to the root manifest, and build the fetcher that serves their stubs.
 */
export function planDependencies(
  rootManifest: string,
  rootSources: readonly string[],
  deps: readonly BytecodeDependency[],
): DependencyPlan {
  const packages = planPackages(deps);
  const all = [...packages.values()];
  const declared = new Set<PlannedPackage>();
  for (const d of declaredDependencies(rootManifest)) {
    const src = d.source;
    let target: PlannedPackage | undefined;
    if (src.kind === 'git' && isSuiRepo(src.git)) {
      const sys = systemByDirectory(packages, src.subdir);
      target = sys === 'absent' ? undefined : sys;
    }
    target ??= findByName(all, d.name, src.kind === 'local' ? basename(src.local) : undefined);
    if (!target && src.kind === 'git') target = findByName(all, basename(src.subdir ?? ''), basename(src.git));
    if (!target) continue;
    declared.add(target);
    if (target.system) continue;
    if (src.kind === 'local') target.location = { local: normalizeRelativePath(src.local) };
    else if (src.kind === 'git') target.location = { git: src.git, rev: src.rev ?? 'main', subdir: src.subdir };
  }
  const added: AddedDependency[] = [];
  const mentions = rootSources.join('\n');
  for (const p of all) {
    // std and sui are implicit; the others are added when the sources name them.
    if (declared.has(p) || p.address === STD || p.address === SUI || !mentioned(mentions, p)) continue;
    added.push({ name: p.packageName, source: p.location });
  }

  const serve = (p: PlannedPackage | undefined, what: string): Record<string, string> => {
    if (!p) throw new Error(`dependency ${what} is not among the given dependencies`);
    return stubFiles(p, packages);
  };
  const fetcher: StubFetcher = {
    async fetch(gitUrl, _rev, subdir) {
      if (isSuiRepo(gitUrl)) {
        const sys = systemByDirectory(packages, subdir);
        if (sys === 'absent') throw new Error(`system package ${basename(subdir ?? '')} is not among the given dependencies`);
        if (sys) return stubFiles(sys, packages);
      }
      const byLocation = all.find(
        (p) => 'git' in p.location && p.location.git === gitUrl && (p.location.subdir ?? '') === (subdir ?? ''),
      );
      return serve(byLocation ?? findByName(all, basename(subdir ?? ''), basename(gitUrl)), `${gitUrl}${subdir ? `/${subdir}` : ''}`);
    },
    async fetchFile() {
      return null;
    },
    getResolvedSha() {
      return RESOLVED_SHA;
    },
    async fetchLocal(localPath, context) {
      const path = normalizeRelativePath(localPath);
      const byLocation = all.find((p) => 'local' in p.location && p.location.local === path);
      return serve(byLocation ?? findByName(all, context.dependencyName, basename(path)), `${context.dependencyName} (${localPath})`);
    },
  };
  return { manifest: addDependencies(rootManifest, added), fetcher };
}

/**
 * The package graph of a build, served to the WASM builder.
 *
 * Every package lives at one canonical place, so that the graph holds exactly one node per
 * package:
 * - system packages (0x1, 0x2, 0x3, 0xb, 0xdee9) at their upstream git location
 *   (`MystenLabs/sui`, `crates/sui-framework/packages/<dir>`), where the builder looks for
 *   the implicit ones; every git revision resolves to one fixed commit id;
 * - every other package at `../smi-deps/<name>` next to the root.
 *
 * A dependency given as bytecode is served as a stub package (see `../stubs.ts`); one given
 * as Move source is served with its own sources, so its macros, `use fun` aliases and
 * `#[syntax(index)]` functions work, and its manifest rewritten to point at the canonical
 * places and to bind its named address to the address it has. The root's manifest is
 * rewritten the same way (see `graph.ts`).
 */
import {
  canonicalAddress,
  moduleAddress,
  moduleHandleId,
  moduleName,
  shortAddress,
  generateMoveStubs,
  generateStubManifest,
  stubPackageNames,
  SYSTEM_PACKAGES,
  type StubDependencySource,
  type CompiledModule,
} from '@smi/bytecode';
import { MoveCompileError } from './errors.js';
import { manifestPackage } from './manifest.js';

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

/** A dependency given as a Move source package: compiled from its sources, at `address`. */
export interface SourceDependency {
  /** Its files: `Move.toml` and `sources/**.move`. */
  files: Readonly<Record<string, string>>;
  /** The address its modules are at (its original id); not 0x0. */
  address: string;
  /** Id to record as its `published-at` (default: `address`). */
  publishedAt?: string;
  /**
   * Its declared dependencies (keys of its `[dependencies]`) → the package each one is: the
   * `[package] name` of another source dependency or the `name` of a bytecode dependency.
   * Keys not listed are matched by name.
   */
  bindings?: Readonly<Record<string, string>>;
}

/** The upstream repository the builder fetches the framework from. */
const SUI_GIT_URL = 'https://github.com/MystenLabs/sui.git';
const FRAMEWORK_DIR = 'crates/sui-framework/packages';
/** The commit id every git revision resolves to (any fixed value unifies the graph). */
export const RESOLVED_SHA = '0'.repeat(40);
/** Where non-system packages are placed, relative to the root package. */
const INJECTED_DIR = '../smi-deps';

/** Where a package lives, relative to the root package. */
export type Location = { local: string } | { git: string; rev: string; subdir?: string };

/** A package of the graph. */
export interface PlannedPackage {
  kind: 'bytecode' | 'source';
  /** The bytecode (kind `bytecode`). */
  dep?: BytecodeDependency;
  /** The sources (kind `source`). */
  source?: SourceDependency;
  address: string;
  /** `[package] name` it is served under. */
  packageName: string;
  /** The named address its modules are declared under. */
  addressName: string;
  system: boolean;
  /** Lower-case names requests may use for this package. */
  aliases: Set<string>;
  location: Location;
  /** Canonical addresses of the packages its modules reference (bytecode packages). */
  references: string[];
}

/** The host side of the builder's dependency fetching (the builder's `MovePackageFetcher` shape). */
export interface StubFetcher {
  fetch(gitUrl: string, rev: string, subdir?: string): Promise<Record<string, string>>;
  fetchFile(gitUrl: string, rev: string, path: string): Promise<string | null>;
  getResolvedSha(gitUrl: string, rev: string): string | undefined;
  fetchLocal(localPath: string, context: { dependencyName: string }): Promise<Record<string, string>>;
}

const stubCache = new WeakMap<readonly CompiledModule[], Map<string, Record<string, string>>>();
const identities = new WeakMap<readonly CompiledModule[], number>();
let nextIdentity = 1;

/** A number naming one list of modules for the life of the process. */
function identity(modules: readonly CompiledModule[]): number {
  let id = identities.get(modules);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(modules, id);
  }
  return id;
}

export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

export function basename(path: string): string {
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
  const a = normalizeRelativePath(from)
    .split('/')
    .filter((p) => p !== '.');
  const b = normalizeRelativePath(to)
    .split('/')
    .filter((p) => p !== '.');
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  if (a.slice(common).includes('..')) {
    throw new MoveCompileError('DEPENDENCY_ERROR', `cannot express a path from ${from} to ${to}`);
  }
  const rel = [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
  return rel === '' ? '.' : rel;
}

export function isSuiRepo(git: string): boolean {
  return /github\.com[/:]mystenlabs\/sui(\.git)?\/?$/i.test(git);
}

function systemLocation(directory: string): Location {
  return { git: SUI_GIT_URL, rev: 'framework/mainnet', subdir: `${FRAMEWORK_DIR}/${directory}` };
}

function checkedAddress(what: string, value: string): string {
  let address: string;
  try {
    address = canonicalAddress(value);
  } catch {
    throw new MoveCompileError('INVALID_INPUT', `${what}: invalid address ${JSON.stringify(value)}`);
  }
  if (/^0x0+$/.test(address)) throw new MoveCompileError('INVALID_INPUT', `${what}: address 0x0 (give the address it has)`);
  return address;
}

/** The named address a source package's modules are declared under, from its manifest and sources. */
export function sourceAddressName(manifest: string, moduleRoots: ReadonlySet<string>): string {
  const info = manifestPackage(manifest);
  const own = [...moduleRoots].filter((r) => !r.startsWith('0x'));
  if (own.length === 1) return own[0];
  if (info.addresses) {
    const unset = Object.entries(info.addresses).filter(([, v]) => v === '_' || /^0x0*$/.test(v));
    if (unset.length === 1) return unset[0][0];
  }
  return info.name ?? 'unnamed';
}

/** Validate the dependencies and index them by canonical address. */
export function planPackages(
  deps: readonly BytecodeDependency[],
  sources: readonly { dep: SourceDependency; name: string; addressName: string /** Other named addresses its modules are declared under. */; otherNames?: readonly string[] }[],
): Map<string, PlannedPackage> {
  const byAddress = new Map<string, PlannedPackage>();
  const add = (p: PlannedPackage, what: string) => {
    const other = byAddress.get(p.address);
    if (other) throw new MoveCompileError('INVALID_INPUT', `${what} and ${other.packageName} are both at ${shortAddress(p.address)}`);
    byAddress.set(p.address, p);
  };
  for (const dep of deps) {
    const address = checkedAddress(`dependency ${dep.name}`, dep.address);
    if (dep.modules.length === 0) throw new MoveCompileError('INVALID_INPUT', `dependency ${dep.name}: no modules`);
    const references = new Set<string>();
    for (const m of dep.modules) {
      if (moduleAddress(m) !== address) {
        throw new MoveCompileError('INVALID_INPUT', `dependency ${dep.name}: module ${moduleName(m)} is at ${shortAddress(moduleAddress(m))}, not ${shortAddress(address)}`);
      }
      for (let i = 0; i < m.moduleHandles.length; i++) references.add(moduleHandleId(m, i).address);
    }
    references.delete(address);
    const system = SYSTEM_PACKAGES.get(address);
    const names = stubPackageNames(address, system ? undefined : dep.name);
    const addressName = dep.addressName ?? names.addressName;
    const aliases = new Set([dep.name, names.packageName, addressName, system?.directory ?? dep.name].map(normalizeName));
    add(
      {
        kind: 'bytecode',
        dep,
        address,
        packageName: names.packageName,
        addressName,
        system: system !== undefined,
        aliases,
        location: system ? systemLocation(system.directory) : { local: `${INJECTED_DIR}/${names.packageName}` },
        references: [...references].sort(),
      },
      `dependency ${dep.name}`,
    );
  }
  for (const { dep, name, addressName, otherNames } of sources) {
    const address = checkedAddress(`source dependency ${name}`, dep.address);
    if (SYSTEM_PACKAGES.has(address)) throw new MoveCompileError('INVALID_INPUT', `source dependency ${name}: ${shortAddress(address)} is a system package's address`);
    const packageName = safePackageName(name, byAddress);
    add(
      {
        kind: 'source',
        source: dep,
        address,
        packageName,
        addressName,
        system: false,
        aliases: new Set([name, packageName, addressName, ...(otherNames ?? [])].map(normalizeName)),
        location: { local: `${INJECTED_DIR}/${packageName}` },
        references: [],
      },
      `source dependency ${name}`,
    );
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

/** A package name no other package of the graph has (`deepbook` beside the framework's `DeepBook` is fine: names differ in case only for the builder's lock file, so suffix it). */
function safePackageName(name: string, taken: ReadonlyMap<string, PlannedPackage>): string {
  const used = new Set([...taken.values()].map((p) => normalizeName(p.packageName)));
  for (const s of SYSTEM_PACKAGES.values()) used.add(normalizeName(s.packageName));
  let candidate = name;
  for (let i = 2; used.has(normalizeName(candidate)); i++) candidate = `${name}_${i}`;
  return candidate;
}

export function findByName(packages: Iterable<PlannedPackage>, ...names: (string | undefined)[]): PlannedPackage | undefined {
  const wanted = names.filter((n): n is string => n !== undefined && n !== '').map(normalizeName);
  for (const name of wanted) {
    for (const p of packages) if (p.aliases.has(name)) return p;
  }
  return undefined;
}

/** Names by which manifests refer to system packages, legacy (`SuiSystem`) and new (`sui_system`). */
const SYSTEM_NAMES: ReadonlyMap<string, string> = new Map(
  [...SYSTEM_PACKAGES].flatMap(([address, s]) => [
    [normalizeName(s.packageName), address],
    [normalizeName(s.addressName), address],
  ]),
);

/** The address of the system package a manifest names `name`, if it is one. */
export function systemAddressByName(name: string): string | undefined {
  return SYSTEM_NAMES.get(normalizeName(name));
}

export function systemByDirectory(packages: ReadonlyMap<string, PlannedPackage>, subdir: string | undefined): PlannedPackage | 'absent' | undefined {
  if (subdir === undefined) return undefined;
  const dir = basename(subdir);
  for (const [address, info] of SYSTEM_PACKAGES) {
    if (info.directory === dir) return packages.get(address) ?? 'absent';
  }
  return undefined;
}

/** The source by which `from` (at `fromLocation`) refers to `to` in its Move.toml. */
export function referenceFrom(fromLocation: Location, to: PlannedPackage): StubDependencySource {
  if ('git' in to.location) return to.location;
  if ('local' in fromLocation) return { local: relativePath(fromLocation.local, to.location.local) };
  throw new MoveCompileError('DEPENDENCY_ERROR', `a git package cannot use ${to.packageName}, which is local`);
}

/** The files of a bytecode package's stub. */
export function stubFiles(p: PlannedPackage, packages: ReadonlyMap<string, PlannedPackage>): Record<string, string> {
  const dep = p.dep;
  if (!dep) throw new Error(`${p.packageName} is not a bytecode package`);
  let perName = stubCache.get(dep.modules);
  if (!perName) {
    perName = new Map();
    stubCache.set(dep.modules, perName);
  }
  // The stubs depend on the named address and, through macros that use other packages' macros, on those packages.
  const others = [...packages.values()].filter((o) => o !== p && o.dep).map((o) => o.dep!.modules);
  const key = [p.addressName, ...others.map(identity).sort((a, b) => a - b)].join('|');
  let sources = perName.get(key);
  if (!sources) {
    sources = Object.fromEntries(generateMoveStubs(dep.modules, { addressName: p.addressName, packages: others }));
    perName.set(key, sources);
  }
  const dependencies: Record<string, StubDependencySource> = {};
  for (const r of p.references) {
    const target = packages.get(r);
    if (target) dependencies[target.packageName] = referenceFrom(p.location, target);
  }
  const manifest = generateStubManifest({
    packageName: p.packageName,
    addressName: p.addressName,
    address: p.address,
    publishedAt: dep.publishedAt,
    dependencies,
  });
  return { ...sources, 'Move.toml': manifest };
}

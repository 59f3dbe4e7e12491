/**
 * Plan a build: bind every package's declared dependencies to the packages given (bytecode
 * or source), add the ones its sources use without declaring them, and rewrite the manifests
 * (the root's and each source dependency's) so that every reference points at the one
 * canonical place of its package (see `dependencies.ts`).
 *
 * Binding rules, as `sui move build` resolves a graph:
 * - a git dependency on `MystenLabs/sui` is the system package of its `subdir`;
 * - a dependency with a system name (`Sui`, `sui`, `DeepBook`, `deepbook`, ...) and no
 *   location of its own (`{ system = ... }`, a version) is that system package;
 * - any other `local` or git dependency is a package of the user's, found by the binding given
 *   or by name, never the framework's (a user package may be called `deepbook`);
 * - entries for tests only (`modes = ["test"]`, `[dev-dependencies]`) are left out.
 * A package's sources name an undeclared package (`lending::pool::...`, read token by token:
 * comments and strings do not count) → it is added, unless the name is the package's own.
 * A system package is added under its legacy name (`SuiSystem`) to a legacy manifest, under
 * its address name (`sui_system`) to a new-style one.
 */
import {
  basename,
  type BytecodeDependency,
  findByName,
  isSuiRepo,
  type Location,
  normalizeName,
  normalizeRelativePath,
  planPackages,
  type PlannedPackage,
  referenceFrom,
  RESOLVED_SHA,
  type SourceDependency,
  sourceAddressName,
  type StubFetcher,
  stubFiles,
  systemAddressByName,
  systemByDirectory,
} from './dependencies.js';
import { MoveCompileError } from './errors.js';
import { type AddedDependency, buildDependencies, type DeclaredDependency, manifestPackage, rewriteManifest } from './manifest.js';
import { pathRoots } from './source-scan.js';
import { canonicalAddress } from '@smi/bytecode';

/** A planned build: the root manifest rewritten, and the fetcher serving every dependency. */
export interface DependencyPlan {
  manifest: string;
  fetcher: StubFetcher;
  /** The named addresses the root's modules are declared under. */
  rootAddressNames: string[];
}

const STD = canonicalAddress('0x1');
const SUI = canonicalAddress('0x2');

/** A package whose manifest is planned: the root, or a source dependency. */
interface ManifestOwner {
  what: string;
  manifest: string;
  sources: readonly string[];
  location: Location;
  bindings: Readonly<Record<string, string>>;
  /** Names its own modules use (never dependencies). */
  ownNames: Set<string>;
  /** Its own address when it has one (a source dependency's, a root's declared one): sources that name it by number name the package itself, never a dependency. */
  address?: string;
}

function sourcesOf(files: Readonly<Record<string, string>>): string[] {
  return Object.entries(files)
    .filter(([p]) => p.endsWith('.move'))
    .map(([, t]) => t);
}

function describe(d: DeclaredDependency): string {
  const s = d.source;
  if (s.kind === 'local') return `${d.name} (local "${s.local}")`;
  if (s.kind === 'git') return `${d.name} (git ${s.git}${s.subdir ? ` subdir "${s.subdir}"` : ''})`;
  return d.name;
}

/** The package a declared dependency is, or `undefined` when none of the given packages is. */
function bind(owner: ManifestOwner, d: DeclaredDependency, packages: ReadonlyMap<string, PlannedPackage>): PlannedPackage | undefined {
  const src = d.source;
  const all = [...packages.values()];
  if (src.kind === 'git' && isSuiRepo(src.git)) {
    const sys = systemByDirectory(packages, src.subdir);
    if (sys === 'absent') throw new MoveCompileError('DEPENDENCY_ERROR', `${owner.what}: system package ${describe(d)} is not among the given dependencies`);
    return sys;
  }
  const explicit = owner.bindings[d.name];
  if (explicit !== undefined) {
    const p = findByName(
      all.filter((x) => !x.system || x.dep?.name === explicit),
      explicit,
    );
    if (!p) throw new MoveCompileError('DEPENDENCY_ERROR', `${owner.what}: dependency ${describe(d)} is bound to ${explicit}, which is not given`);
    return p;
  }
  if (src.kind === 'other') {
    const system = systemAddressByName(d.name);
    if (system) return packages.get(system);
  }
  const user = all.filter((p) => !p.system);
  return findByName(
    user,
    d.renameFrom,
    d.name,
    src.kind === 'local' ? basename(src.local) : undefined,
    src.kind === 'git' ? basename(src.subdir ?? '') : undefined,
    src.kind === 'git' ? basename(src.git) : undefined,
  );
}

/** The dependency entries of a rewritten manifest, and the packages they name. */
function planManifest(owner: ManifestOwner, packages: ReadonlyMap<string, PlannedPackage>, legacy: boolean, renamed: Record<string, string> = {}): AddedDependency[] {
  const entries = new Map<PlannedPackage, AddedDependency>();
  const unbound: string[] = [];
  for (const d of buildDependencies(owner.manifest)) {
    const target = bind(owner, d, packages);
    if (!target) {
      unbound.push(describe(d));
      continue;
    }
    if (d.renameFrom !== undefined) {
      // `beta = { ..., rename-from = "alpha" }`: the package named `alpha`, known here as `beta`.
      // (A bytecode package has no name of its own to check: it is served under the one it is given.)
      if (target.kind === 'source' && !target.aliases.has(normalizeName(d.renameFrom))) {
        throw new MoveCompileError('DEPENDENCY_ERROR', `${owner.what}: dependency ${describe(d)} has rename-from = "${d.renameFrom}", but the package there is named ${target.packageName}`);
      }
      // A legacy manifest (one with `[addresses]`) has no `rename-from`: the name is a named address of its own there.
      if (legacy) {
        entries.set(target, { name: target.packageName, source: referenceFrom(owner.location, target) });
        renamed[d.name] = target.address;
      } else entries.set(target, { name: d.name, source: referenceFrom(owner.location, target), renameFrom: target.packageName });
      continue;
    }
    if (owner.ownNames.has(normalizeName(target.addressName)) && !target.system) continue;
    // A system package keeps the name it was declared under (the new package system refuses legacy names it did not write).
    entries.set(target, { name: target.system ? d.name : target.packageName, source: referenceFrom(owner.location, target) });
  }
  if (unbound.length > 0) {
    throw new MoveCompileError('DEPENDENCY_ERROR', `${owner.what}: dependencies not available: ${unbound.join(', ')} (give each as a Move source or bytecode package directory)`);
  }
  const roots = pathRoots(owner.sources);
  // A name the package already has a dependency for is that dependency's; a user package
  // named like a system one (`deepbook`) wins over the system package.
  const covered = new Set([...entries.keys()].map((p) => normalizeName(p.addressName)));
  const candidates = [...packages.values()].sort((a, b) => Number(a.system) - Number(b.system));
  for (const p of candidates) {
    if (entries.has(p) || p.address === STD || p.address === SUI || p.address === owner.address || covered.has(normalizeName(p.addressName))) continue;
    const hex = '0x' + p.address.slice(2).replace(/^0+/, '');
    const named = roots.names.has(normalizeName(p.addressName)) && !owner.ownNames.has(normalizeName(p.addressName));
    const numeric = [...roots.numeric].some((n) => '0x' + n.slice(2).replace(/^0+/, '') === hex);
    if (!named && !numeric) continue;
    // A new-style manifest names system packages by their address names (`sui_system`); legacy names are refused there.
    entries.set(p, { name: p.system && !legacy ? p.addressName : p.packageName, source: referenceFrom(owner.location, p) });
    covered.add(normalizeName(p.addressName));
  }
  return [...entries.values()];
}

/** `{ address }`: the non-zero address a manifest declares for one of the package's own named addresses, if any. */
function declaredAddress(names: readonly string[], addresses: Readonly<Record<string, string>> | undefined): { address?: string } {
  for (const n of names) {
    const v = addresses?.[n];
    if (v === undefined || v === '_' || /^0x0*$/.test(v)) continue;
    try {
      return { address: canonicalAddress(v) };
    } catch {
      // not an address
    }
  }
  return {};
}

/** The names a package's own modules are declared under, and its own named addresses. */
function ownNames(manifest: string, sources: readonly string[]): { names: Set<string>; moduleRoots: Set<string> } {
  const info = manifestPackage(manifest);
  const roots = pathRoots(sources);
  const names = new Set<string>([...roots.modules].filter((r) => !r.startsWith('0x')));
  if (info.name) names.add(normalizeName(info.name));
  for (const [k, v] of Object.entries(info.addresses ?? {})) if (v === '_' || /^0x0*$/.test(v)) names.add(normalizeName(k));
  return { names, moduleRoots: roots.modules };
}

/**
 * Plan the graph of a build of `root` (its Move.toml and sources) against `deps` (bytecode)
 * and `sourceDeps` (Move source packages), with `bindings` for the root's declared
 * dependencies as for a source dependency's.
 */
export function planDependencies(
  root: { manifest: string; sources: readonly string[]; bindings?: Readonly<Record<string, string>>; zeroRoot?: boolean },
  deps: readonly BytecodeDependency[],
  sourceDeps: readonly SourceDependency[] = [],
): DependencyPlan {
  const sources = sourceDeps.map((dep) => {
    const manifest = dep.files['Move.toml'];
    if (typeof manifest !== 'string') throw new MoveCompileError('INVALID_INPUT', 'a source dependency has no Move.toml');
    const text = sourcesOf(dep.files);
    const own = ownNames(manifest, text);
    const name = manifestPackage(manifest).name ?? sourceAddressName(manifest, own.moduleRoots);
    const otherNames = [...own.moduleRoots].filter((r) => !r.startsWith('0x'));
    return { dep, name, addressName: sourceAddressName(manifest, own.moduleRoots), otherNames, own, text, manifest };
  });
  const packages = planPackages(deps, sources);

  const rootOwn = ownNames(root.manifest, root.sources);
  const rootInfo = manifestPackage(root.manifest);
  const rootAddressNames = [...rootOwn.moduleRoots].filter((r) => !r.startsWith('0x'));
  // Modules under several named addresses build as the Sui CLI builds them, and are one package
  // when every one of those addresses is unassigned (0x0 or `_`): all modules at 0x0, published
  // together. The Sui CLI refuses to publish modules at a non-zero address ("Modules must all
  // have 0x0 as their addresses"), so a mix is refused here.
  if (rootOwn.moduleRoots.size > 1) {
    const assigned = [...rootOwn.moduleRoots].map((r) => [r, r.startsWith('0x') ? r : rootInfo.addresses?.[r]] as const).filter(([, v]) => v !== undefined && v !== '_' && !/^0x0*$/.test(v));
    if (assigned.length > 0) {
      throw new MoveCompileError(
        'INVALID_INPUT',
        `the package's modules are declared at ${rootOwn.moduleRoots.size} addresses (${[...rootOwn.moduleRoots].join(', ')}), ${assigned.map(([r, v]) => (r === v ? r : `${r} = ${v}`)).join(', ')} not 0x0: the Sui CLI publishes a package only when all its modules are at 0x0 ("Modules must all have 0x0 as their addresses")`,
      );
    }
  }
  const rootOwner: ManifestOwner = {
    what: `package ${rootInfo.name ?? ''}`.trim(),
    manifest: root.manifest,
    sources: root.sources,
    location: { local: '.' },
    bindings: root.bindings ?? {},
    ownNames: rootOwn.names,
    ...declaredAddress(rootAddressNames, rootInfo.addresses),
  };
  const rootLegacy = rootInfo.addresses !== undefined;
  const rootRenamed: Record<string, string> = {};
  const rootDeps = planManifest(rootOwner, packages, rootLegacy, rootRenamed);
  // With `zeroRoot`, the root's own named addresses are 0x0 whatever the manifest declares:
  // the output is then published (or placed) as a whole. Without, they keep their value, as
  // `sui move build` compiles them (and a publish of modules at a non-zero address fails).
  const rootAddresses = rootInfo.addresses && { ...rootInfo.addresses };
  if (rootAddresses && root.zeroRoot) for (const n of rootAddressNames) rootAddresses[n] = '0x0';
  if (rootAddresses) Object.assign(rootAddresses, rootRenamed);
  const manifest = rewriteManifest(root.manifest, rootDeps, rootAddresses);

  // Source dependencies: their own sources with their manifests rewritten.
  const served = new Map<PlannedPackage, Record<string, string>>();
  for (const s of sources) {
    const p = [...packages.values()].find((x) => x.source === s.dep)!;
    const owner: ManifestOwner = {
      what: `dependency ${s.name}`,
      manifest: s.manifest,
      sources: s.text,
      location: p.location,
      bindings: s.dep.bindings ?? {},
      ownNames: s.own.names,
      address: p.address,
    };
    const info = manifestPackage(s.manifest);
    const renamed: Record<string, string> = {};
    const entries = planManifest(owner, packages, true, renamed);
    const addresses: Record<string, string> = { ...renamed };
    for (const [k, v] of Object.entries(info.addresses ?? {})) if (!(v === '_' || /^0x0*$/.test(v))) addresses[k] = v;
    addresses[s.addressName] = p.address;
    // Every unassigned named address its modules are declared under is the package's.
    for (const r of s.own.moduleRoots) if (!r.startsWith('0x') && !(r in addresses)) addresses[r] = p.address;
    const rewritten = rewriteManifest(s.manifest, entries, addresses, canonicalAddress(s.dep.publishedAt ?? p.address)).replace(/^(\s*name\s*=\s*).*$/m, `$1${JSON.stringify(p.packageName)}`);
    served.set(p, { ...Object.fromEntries(Object.entries(s.dep.files).filter(([f]) => f.endsWith('.move'))), 'Move.toml': rewritten });
  }

  const filesOf = (p: PlannedPackage | undefined, what: string): Record<string, string> => {
    if (!p) throw new Error(`dependency ${what} is not among the given dependencies`);
    return served.get(p) ?? stubFiles(p, packages);
  };
  const all = [...packages.values()];
  const fetcher: StubFetcher = {
    async fetch(gitUrl, _rev, subdir) {
      if (isSuiRepo(gitUrl)) {
        const sys = systemByDirectory(packages, subdir);
        if (sys === 'absent') throw new Error(`system package ${basename(subdir ?? '')} is not among the given dependencies`);
        if (sys) return filesOf(sys, basename(subdir ?? ''));
      }
      return filesOf(findByName(all, basename(subdir ?? ''), basename(gitUrl)), `${gitUrl}${subdir ? `/${subdir}` : ''}`);
    },
    async fetchFile() {
      return null;
    },
    getResolvedSha() {
      return RESOLVED_SHA;
    },
    async fetchLocal(localPath, context) {
      const path = normalizeRelativePath(localPath);
      const byLocation = all.find((p) => 'local' in p.location && normalizeRelativePath(p.location.local) === path);
      return filesOf(byLocation ?? findByName(all, context.dependencyName, basename(path)), `${context.dependencyName} (${localPath})`);
    },
  };
  return { manifest, fetcher, rootAddressNames };
}

/**
 * Packages in a simulation: publishing compiled modules with a real `Publish` transaction
 * (so `init` runs with its one-time witness and the sender gets the `UpgradeCap`), loading
 * packages as they are (corpus bytecode at its own address), computing a publish's
 * dependency list, and compiling Move source offline then publishing it in one step.
 */
import { canonicalAddress, type CompiledModule, deserializeModule, moduleName, type MovePackage, packageFromBytes, errorMessage } from '@smi/bytecode';
import { VmError } from '@smi/move-vm';
import { objectTypeTag, type SuiObject } from '@smi/ptb';
import type { EnvironmentCore, ExecuteOptions, TransactionOutcome } from './environment-core.js';
import { SimulationEnvironmentError } from './errors.js';

const ZERO = canonicalAddress('0x0');

/** Outcome of {@link publishModules}. */
export interface PublishOutcome {
  /** Id of the new package. */
  packageId: string;
  /** The `UpgradeCap` sent to the sender. */
  upgradeCapId: string;
  /** Objects the modules' `init` functions created, with their types. */
  created: { id: string; type: string | null }[];
  transaction: TransactionOutcome;
}

function selfAddress(m: CompiledModule): string {
  return m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address];
}

function decodeAll(modules: readonly Uint8Array[]): CompiledModule[] {
  return modules.map((b, i) => {
    try {
      return deserializeModule(b);
    } catch (e) {
      throw new SimulationEnvironmentError('DEPLOYMENT_ERROR', `module ${i} does not deserialize: ${errorMessage(e)}`);
    }
  });
}

/** The newest loaded version of each package, by original id. */
function newestByOriginal(env: EnvironmentCore): Map<string, MovePackage> {
  const out = new Map<string, MovePackage>();
  for (const id of env.vm.packageIds()) {
    const p = env.vm.packageById(id);
    if (p === undefined) continue;
    const cur = out.get(p.originalId);
    if (cur === undefined || (p.version ?? 0) > (cur.version ?? 0)) out.set(p.originalId, p);
  }
  return out;
}

/**
 * Storage ids a publish of `modules` must list: every package their handles name, and
 * theirs, transitively (a dependency's own linkage table decides its dependencies'
 * versions; otherwise the newest loaded version).
 */
export function publishDependencies(env: EnvironmentCore, modules: readonly CompiledModule[]): string[] {
  const newest = newestByOriginal(env);
  const chosen = new Map<string, MovePackage>();
  const visit = (original: string, via: MovePackage | null): void => {
    if (original === ZERO || chosen.has(original)) return;
    const pinned = via?.linkageTable[original]?.upgradedId;
    const pkg = (pinned ? env.vm.packageById(pinned) : undefined) ?? newest.get(original);
    if (pkg === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `dependency ${original} is not loaded`, { address: original });
    chosen.set(original, pkg);
    for (const m of pkg.modules) for (const h of m.module.moduleHandles) visit(m.module.addressIdentifiers[h.address], pkg);
  };
  for (const m of modules) for (const h of m.moduleHandles) if (h !== m.moduleHandles[m.selfModuleHandleIndex]) visit(m.addressIdentifiers[h.address], null);
  // 0x1 and 0x2 are always dependencies of a Sui package.
  visit(canonicalAddress('0x1'), null);
  visit(canonicalAddress('0x2'), null);
  return [...chosen.values()].map((p) => p.id).sort();
}

/**
 * Publish modules compiled at address 0x0 with a `Publish` transaction; the `UpgradeCap` goes
 * to the sender. Fails with `DEPLOYMENT_ERROR` when the transaction fails.
 */
export function publishModules(env: EnvironmentCore, moduleBytes: readonly Uint8Array[], options: ExecuteOptions & { dependencies?: readonly string[] } = {}): PublishOutcome {
  if (moduleBytes.length === 0) throw new SimulationEnvironmentError('DEPLOYMENT_ERROR', 'a package needs at least one module');
  const modules = decodeAll(moduleBytes);
  const nonZero = modules.find((m) => selfAddress(m) !== ZERO);
  if (nonZero !== undefined) {
    throw new SimulationEnvironmentError(
      'DEPLOYMENT_ERROR',
      `module ${moduleName(nonZero)} is at ${selfAddress(nonZero)}; a publish takes modules at 0x0 (use loadPackage for bytecode at its own address)`,
    );
  }
  const deps = options.dependencies?.map((d) => canonicalAddress(d)) ?? publishDependencies(env, modules);
  const sender = canonicalAddress(options.sender ?? env.sender);
  const tx = env.tx();
  const cap = tx.publish(moduleBytes, deps);
  tx.transferObjects([cap], tx.pure('address', sender));
  const out = env.execute(tx.build(), { ...options, sender });
  if (out.status.$kind !== 'Success') {
    throw new SimulationEnvironmentError('DEPLOYMENT_ERROR', `publish failed: ${out.status.error.$kind}: ${out.status.message}`);
  }
  const pkg = out.written.find((w) => w.kind === 'created' && w.object.data.$kind === 'Package');
  const capObj = out.written.find((w) => w.kind === 'created' && typeOf(w.object)?.endsWith('::package::UpgradeCap'));
  if (pkg === undefined || capObj === undefined) throw new SimulationEnvironmentError('DEPLOYMENT_ERROR', 'publish succeeded without a package or UpgradeCap');
  const created = out.written.filter((w) => w.kind === 'created' && w.id !== pkg.id && w.id !== capObj.id).map((w) => ({ id: w.id, type: typeOf(w.object) }));
  return { packageId: pkg.id, upgradeCapId: capObj.id, created, transaction: out };
}

function typeOf(o: SuiObject): string | null {
  return o.data.$kind === 'Move' ? objectTypeTag(o) : null;
}

/**
 * Load a package as it is (modules at their own address, e.g. corpus bytecode), without
 * running `init`: the package becomes callable and is kept with the state.
 */
/**
 * Check, before running the inits of loaded package `id` (those of `modules`, or all), that
 * their modules link: a module whose dependency closure misses a module cannot run, and the
 * transaction is refused before it runs, as a call into such a module is.
 * @throws {SimulationEnvironmentError} `MISSING_PACKAGE` naming the missing module and the module needing it.
 */
export function checkInitsLink(env: EnvironmentCore, id: string, modules: readonly string[] | undefined): void {
  for (const m of env.vm.packageById(id)?.modules ?? []) {
    if (modules !== undefined && !modules.includes(m.name)) continue;
    try {
      env.vm.resolveFunctionIfExists(id, m.name, 'init');
    } catch (e) {
      // No `packageId` detail: the message names what is missing (a fetch reads it there).
      if (e instanceof VmError) throw new SimulationEnvironmentError('MISSING_PACKAGE', e.message);
      throw e;
    }
  }
}

export function loadPackage(env: EnvironmentCore, pkg: MovePackage): void {
  env.vm.addPackage(pkg);
  env.store.put(pkg.id, packageObjectOf(pkg));
}

/** A package object for the store (version 1 when unknown). */
export function packageObjectOf(pkg: MovePackage): SuiObject {
  const moduleMap = new Map<string, Uint8Array>();
  for (const m of [...pkg.modules].sort((a, b) => (a.name < b.name ? -1 : 1))) moduleMap.set(m.name, m.bytes);
  return {
    data: {
      $kind: 'Package',
      Package: {
        id: pkg.id,
        version: BigInt(pkg.version ?? 1),
        moduleMap,
        typeOriginTable: pkg.typeOriginTable.map((t) => ({ moduleName: t.moduleName, datatypeName: t.datatypeName, package: t.package })),
        linkageTable: new Map(Object.entries(pkg.linkageTable).map(([k, v]) => [k, { upgradedId: v.upgradedId, upgradedVersion: BigInt(v.upgradedVersion) }])),
      },
    },
    owner: { $kind: 'Immutable', Immutable: true },
    previousTransaction: '11111111111111111111111111111111',
    storageRebate: 0n,
  } as SuiObject;
}

/** The VM package of a stored package object. */
export function packageFromObject(o: SuiObject): MovePackage {
  if (o.data.$kind !== 'Package') throw new SimulationEnvironmentError('INVALID_STATE_FILE', 'not a package object');
  const p = o.data.Package;
  const base = packageFromBytes([...p.moduleMap.values()], { id: p.id, version: Number(p.version) });
  return {
    ...base,
    typeOriginTable: p.typeOriginTable.map((t) => ({ moduleName: t.moduleName, datatypeName: t.datatypeName, package: t.package })),
    linkageTable: Object.fromEntries([...p.linkageTable].map(([k, v]) => [k, { upgradedId: v.upgradedId, upgradedVersion: Number(v.upgradedVersion) }])),
  };
}

/**
 * `Publish` and `Upgrade`: modules compiled at address 0x0 get the new package id, are
 * verified against their dependencies, become a package object, and (on publish) run
 * their `init` functions, one-time witness included. Publish returns the `UpgradeCap`,
 * Upgrade consumes an `UpgradeTicket` and returns an `UpgradeReceipt`.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import {
  type CompiledModule,
  deserializeModule,
  moduleName,
  packageFromBytes,
  serializeModule,
  verifyPackage,
  type MovePackage as BytecodeMovePackage,
  canonicalAddress,
  errorMessage,
  SUI_ADDRESS,
  ZERO_ADDRESS,
} from '@smi/bytecode';
import { type CallArg, formatType, OBJECT_RUNTIME_KEY, type Type, VmError } from '@smi/move-vm';
import type { MovePackage, SuiObject, TypeOrigin, UpgradeInfo } from '../bcs/object.js';
import type { Argument } from '../bcs/transaction.js';
import { callFailure, type CommandEnv } from './commands.js';
import { ExecutionFailure, simpleFailure } from './errors.js';
import { vmInputFailure } from './state.js';
import type { CommandResult } from './types.js';
import { suiVerifierConfig, suiVerifyModule } from './sui-verifier/index.js';
import { UPGRADE_POLICY, upgradeIncompatibility } from './upgrade-compat.js';

/**
 * Sui's package digest: blake2b-256 over the sorted module digests and dependency ids
 * (`MovePackage::compute_digest_for_modules_and_deps` with hashed modules).
 */
export function packageDigest(modules: readonly Uint8Array[], dependencies: readonly string[]): Uint8Array {
  const parts: Uint8Array[] = modules.map((m) => blake2b(m, { dkLen: 32 }));
  for (const d of dependencies) parts.push(Uint8Array.from(Buffer.from(canonicalAddress(d).slice(2), 'hex')));
  parts.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const h = blake2b.create({ dkLen: 32 });
  for (const p of parts) h.update(p);
  return h.digest();
}

/** Replace the self address `from` (0x0 for a fresh publish) by `to` in each module. */
function relocate(modules: CompiledModule[], from: string, to: string): CompiledModule[] {
  return modules.map((m) => {
    const self = m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address];
    if (self !== from) throw simpleFailure('PublishErrorNonZeroAddress', `module ${moduleName(m)} has address ${self}, expected ${from}`);
    return { ...m, addressIdentifiers: m.addressIdentifiers.map((a) => (a === from ? to : a)) };
  });
}

function decodeModules(bytes: readonly Uint8Array[]): CompiledModule[] {
  try {
    return bytes.map((b) => deserializeModule(b));
  } catch (e) {
    throw simpleFailure('VMVerificationOrDeserializationError', errorMessage(e));
  }
}

/** Dependencies as loaded packages (their storage ids as given), checked to exist. */
function dependencyPackages(env: CommandEnv, deps: readonly string[]): BytecodeMovePackage[] {
  return deps.map((d) => {
    const pkg = env.vm.packageById(canonicalAddress(d));
    if (pkg === undefined) throw simpleFailure('PublishUpgradeMissingDependency', `dependency ${d} is not loaded`);
    return pkg;
  });
}

/** The Move bytecode verifier, then Sui's own passes on each module in order (upstream `publish_and_verify_modules`). */
function verify(env: CommandEnv, modules: CompiledModule[], deps: BytecodeMovePackage[]): void {
  try {
    verifyPackage(modules, { dependencies: deps.flatMap((p) => p.modules.map((m) => m.module)) });
  } catch (e) {
    throw simpleFailure('VMVerificationOrDeserializationError', errorMessage(e));
  }
  const config = suiVerifierConfig(env.vm.protocolConfig);
  for (const m of modules) suiVerifyModule(m, config);
}

/** A package object (for effects) of the given version. */
function packageObject(env: CommandEnv, id: string, version: bigint, modules: CompiledModule[], origins: TypeOrigin[], deps: BytecodeMovePackage[]): SuiObject {
  const moduleMap = new Map<string, Uint8Array>();
  for (const m of [...modules].sort((a, b) => (moduleName(a) < moduleName(b) ? -1 : 1))) moduleMap.set(moduleName(m), serializeModule(m));
  const linkageTable = new Map<string, UpgradeInfo>();
  for (const d of [...deps].sort((a, b) => (a.originalId < b.originalId ? -1 : 1))) {
    linkageTable.set(d.originalId, { upgradedId: d.id, upgradedVersion: BigInt(d.version ?? 1) });
  }
  const pkg: MovePackage = { id, version, moduleMap, typeOriginTable: origins, linkageTable };
  return { data: { $kind: 'Package', Package: pkg }, owner: { $kind: 'Immutable', Immutable: true }, previousTransaction: env.txDigest, storageRebate: 0n };
}

function addToVm(env: CommandEnv, id: string, originalId: string, version: number, modules: CompiledModule[], origins: TypeOrigin[], deps: BytecodeMovePackage[]): void {
  const base = packageFromBytes(
    modules.map((m) => serializeModule(m)),
    { id, version },
  );
  env.vm.addPackage({
    ...base,
    originalId,
    typeOriginTable: origins.map((o) => ({ moduleName: o.moduleName, datatypeName: o.datatypeName, package: o.package })),
    linkageTable: Object.fromEntries(deps.map((d) => [d.originalId, { upgradedId: d.id, upgradedVersion: d.version ?? 1 }])),
  });
}

function originsOf(modules: CompiledModule[], pkg: string, previous: Map<string, string> = new Map()): TypeOrigin[] {
  const out: TypeOrigin[] = [];
  for (const m of modules) {
    const name = moduleName(m);
    const defs = [...m.structDefs.map((d) => d.structHandle), ...m.enumDefs.map((d) => d.enumHandle)];
    for (const h of defs) {
      const datatypeName = m.identifiers[m.datatypeHandles[h].name];
      out.push({ moduleName: name, datatypeName, package: previous.get(`${name}::${datatypeName}`) ?? pkg });
    }
  }
  return out;
}

/** Run every module's `init` (with the one-time witness when it takes one). */
function runInits(env: CommandEnv, id: string, modules: CompiledModule[]): void {
  for (const m of modules) {
    const name = moduleName(m);
    let fn;
    try {
      fn = env.vm.resolveFunctionIfExists(id, name, 'init');
    } catch (e) {
      // A module that does not link (a module of its dependency closure is missing) fails the transaction.
      if (e instanceof VmError) throw vmInputFailure(e);
      throw e;
    }
    if (fn === undefined) continue;
    const args: CallArg[] = fn.params.length === 2 ? [{ $kind: 'Raw', value: [true] }] : [];
    args.push({ $kind: 'Raw', value: env.runtime.txContextValue() });
    // Events of an `init` belong to its module.
    (env.eventModules ??= []).push({ from: env.runtime.emittedEvents().length, packageId: id, module: name });
    const r = env.vm.call(`${id}::${name}::init`, {
      args,
      allowPrivate: true,
      gasBudget: env.gasLeft,
      extensions: new Map([[OBJECT_RUNTIME_KEY, env.runtime]]),
      meter: (env.meter ??= { instructions: 0 }),
    });
    env.gasLeft -= r.gasUsed;
    for (const t of r.modulesTouched) (env.modulesTouched ??= new Set()).add(t);
    if (r.$kind !== 'Success') {
      const f = callFailure(r);
      // Protocol 108+: an abort in an upgrade's `init` names the new package version.
      if (f.status.$kind === 'MoveAbort' && env.vm.protocolConfig?.flag('enable_ptb_execution_v2') === true) {
        const m = f.status.MoveAbort[0].module;
        if (canonicalAddress(m.address) === canonicalAddress(env.vm.packageById(id)?.originalId ?? id)) m.address = canonicalAddress(id);
      }
      throw f;
    }
    // Ids counted in Move by older frameworks (see `ObjectRuntime.syncIdsCreated`).
    for (const m of r.mutatedReferences) {
      const b = m.value.bcs;
      if (m.argIndex === args.length - 1 && b.length >= 8) env.runtime.syncIdsCreated(new DataView(b.buffer, b.byteOffset + b.length - 8, 8).getBigUint64(0, true));
    }
  }
}

/**
 * The modules of a package in dependency order (a module after the modules of its own
 * package it uses; ties by name): the order a compiler emits them for publishing, so the
 * order their `init` functions ran in.
 */
export function dependencyOrder(modules: readonly CompiledModule[]): CompiledModule[] {
  const byName = new Map(modules.map((m) => [moduleName(m), m]));
  const self = (m: CompiledModule): string => m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address];
  const out: CompiledModule[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (m: CompiledModule): void => {
    const name = moduleName(m);
    if (state.get(name) !== undefined) return;
    state.set(name, 'visiting');
    const deps = m.moduleHandles
      .filter((h, i) => i !== m.selfModuleHandleIndex && m.addressIdentifiers[h.address] === self(m))
      .map((h) => m.identifiers[h.name])
      .sort();
    for (const d of deps) {
      const dep = byName.get(d);
      if (dep !== undefined && state.get(d) === undefined) visit(dep);
    }
    state.set(name, 'done');
    out.push(m);
  };
  for (const name of [...byName.keys()].sort()) visit(byName.get(name) as CompiledModule);
  return out;
}

/**
 * The package version an `UpgradeCap` of package `id` names after its upgrades: the newest
 * loaded version with the same original id (storage id and version; a version not known is 1).
 */
function newestVersion(env: CommandEnv, pkg: BytecodeMovePackage): { id: string; version: bigint } {
  let best = { id: canonicalAddress(pkg.id), version: BigInt(pkg.version ?? 1) };
  for (const storageId of env.vm.packageIds()) {
    const p = env.vm.packageById(storageId);
    if (p === undefined || canonicalAddress(p.originalId) !== canonicalAddress(pkg.originalId)) continue;
    const version = BigInt(p.version ?? 1);
    if (version > best.version) best = { id: canonicalAddress(p.id), version };
  }
  return best;
}

/**
 * Run the `init` functions of package `id`, already loaded, as its publish did (dependency
 * order, one-time witnesses): state that a package loaded from its bytecode never got. Only
 * the modules `only` names when given. With `upgradeCap` (default: when every module's `init`
 * runs), the sender then also gets the package's `UpgradeCap`, as the publisher did: a new
 * object naming the newest loaded version of the package (what the cap names after the
 * upgrades that made it) and that version's number, policy compatible (0).
 */
export function runPackageInits(env: CommandEnv, id: string, only?: readonly string[], upgradeCap: boolean = only === undefined): void {
  const pkg = env.vm.packageById(id);
  if (pkg === undefined) throw simpleFailure('PublishUpgradeMissingDependency', `package ${id} is not loaded`);
  const modules = dependencyOrder(pkg.modules.map((m) => m.module));
  if (only !== undefined) {
    const missing = only.filter((n) => !modules.some((m) => moduleName(m) === n));
    if (missing.length > 0) throw simpleFailure('PublishUpgradeMissingDependency', `package ${id} has no module ${missing.join(', ')}`);
  }
  runInits(env, canonicalAddress(id), only === undefined ? modules : modules.filter((m) => only.includes(moduleName(m))));
  if (!upgradeCap) return;
  // After the inits, as a publish creates the cap after running them.
  const newest = newestVersion(env, pkg);
  const capType = env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeCap`, SUI_ADDRESS);
  const cap = [[[env.runtime.freshId()]], [newest.id], newest.version, UPGRADE_POLICY.compatible];
  env.runtime.transfer({ $kind: 'AddressOwner', address: env.runtime.tx.sender }, capType, cap);
}

function chargeBytes(env: CommandEnv, bytes: readonly Uint8Array[]): void {
  const perByte = Number(env.vm.protocolConfig?.optionalInt('package_publish_cost_per_byte') ?? 80);
  env.gasLeft -= perByte * bytes.reduce((n, b) => n + b.length, 0);
  if (env.gasLeft < 0) throw simpleFailure('InsufficientGas', 'out of gas publishing the package');
}

/** `Publish`. */
export function publishPackage(env: CommandEnv, moduleBytes: Uint8Array[], dependencies: string[]): CommandResult {
  chargeBytes(env, moduleBytes);
  const deps = dependencyPackages(env, dependencies);
  const id = env.runtime.freshId();
  const modules = relocate(decodeModules(moduleBytes), ZERO_ADDRESS, id);
  verify(env, modules, deps);
  const origins = originsOf(modules, id);
  addToVm(env, id, id, 1, modules, origins, deps);
  env.published.push({ id, object: packageObject(env, id, 1n, modules, origins, deps) });
  runInits(env, id, modules);
  const capType = env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeCap`, SUI_ADDRESS);
  const cap = [[[env.runtime.freshId()]], [id], 1n, 0];
  env.state.pushResults([{ value: cap, type: capType }]);
  return { returnValues: [{ type: formatType(capType), bcs: env.vm.bcs.encode(cap, capType) }], mutatedReferences: [] };
}

/** Upstream `check_compatibility`: a known policy, and the upgrade keeps what it promises. */
function checkUpgradePolicy(previous: BytecodeMovePackage, modules: CompiledModule[], policy: number): void {
  if (policy !== UPGRADE_POLICY.compatible && policy !== UPGRADE_POLICY.additive && policy !== UPGRADE_POLICY.depOnly) {
    throw new ExecutionFailure(
      { $kind: 'PackageUpgradeError', PackageUpgradeError: { upgradeError: { $kind: 'UnknownUpgradePolicy', UnknownUpgradePolicy: { policy } } } } as never,
      `upgrade policy ${policy} is unknown`,
    );
  }
  const why = upgradeIncompatibility(
    previous.modules.map((m) => m.module),
    modules,
    policy,
  );
  if (why !== null) {
    throw new ExecutionFailure({ $kind: 'PackageUpgradeError', PackageUpgradeError: { upgradeError: { $kind: 'IncompatibleUpgrade', IncompatibleUpgrade: true } } } as never, why);
  }
}

/** Upgrades pay for their bytes from gas model 7 (`charge_upgrades`); before, they were free. */
function chargesUpgrades(env: CommandEnv): boolean {
  return (env.vm.protocolConfig?.optionalInt('gas_model_version') ?? 14) >= 7;
}

/** `Upgrade`: consumes the `UpgradeTicket`, returns the `UpgradeReceipt`. */
export function upgradePackage(env: CommandEnv, moduleBytes: Uint8Array[], dependencies: string[], packageId: string, ticketArg: Argument): CommandResult {
  if (chargesUpgrades(env)) chargeBytes(env, moduleBytes);
  const ticketType = env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeTicket`, SUI_ADDRESS);
  const { value } = env.state.take(ticketArg, ticketType, 0);
  // UpgradeTicket { cap: ID, package: ID, policy: u8, digest: vector<u8> }
  const ticket = value as unknown[];
  const ticketPackage = (ticket[1] as unknown[])[0] as string;
  const target = canonicalAddress(packageId);
  if (ticketPackage !== target) {
    throw new ExecutionFailure(
      { $kind: 'PackageUpgradeError', PackageUpgradeError: { upgradeError: { $kind: 'PackageIDDoesNotMatch', PackageIDDoesNotMatch: { packageId: target, ticketId: ticketPackage } } } } as never,
      `ticket is for ${ticketPackage}, not ${target}`,
    );
  }
  const previous = env.vm.packageById(target);
  if (previous === undefined) {
    throw new ExecutionFailure(
      { $kind: 'PackageUpgradeError', PackageUpgradeError: { upgradeError: { $kind: 'UnableToFetchPackage', UnableToFetchPackage: { packageId: target } } } } as never,
      `package ${target} is not loaded`,
    );
  }
  const digest = packageDigest(moduleBytes, dependencies);
  const expected = (ticket[3] as { bytes(): Uint8Array }).bytes();
  if (Buffer.compare(Buffer.from(digest), Buffer.from(expected)) !== 0) {
    throw new ExecutionFailure(
      { $kind: 'PackageUpgradeError', PackageUpgradeError: { upgradeError: { $kind: 'DigestDoesNotMatch', DigestDoesNotMatch: { digest } } } } as never,
      'the modules do not match the upgrade ticket digest',
    );
  }
  const deps = dependencyPackages(env, dependencies);
  const id = env.runtime.freshId();
  const original = previous.originalId;
  const raw = decodeModules(moduleBytes);
  const self = raw.length > 0 ? raw[0].addressIdentifiers[raw[0].moduleHandles[raw[0].selfModuleHandleIndex].address] : ZERO_ADDRESS;
  const modules = self === ZERO_ADDRESS ? relocate(raw, ZERO_ADDRESS, original) : raw;
  verify(env, modules, deps);
  checkUpgradePolicy(previous, modules, Number(ticket[2]));
  const prevOrigins = new Map(previous.typeOriginTable.map((t) => [`${t.moduleName}::${t.datatypeName}`, t.package]));
  const origins = originsOf(modules, id, prevOrigins);
  const version = (previous.version ?? 1) + 1;
  addToVm(env, id, original, version, modules, origins, deps);
  env.published.push({ id, object: packageObject(env, id, BigInt(version), modules, origins, deps) });
  // Only modules the upgrade adds may have an `init`, run when the protocol allows it.
  const existing = new Set(previous.modules.map((m) => m.name));
  const added = modules.filter((m) => !existing.has(moduleName(m)));
  if (env.vm.protocolConfig?.flag('enable_init_on_upgrade') === true) runInits(env, id, added);
  else if (added.some((m) => env.vm.resolveFunctionIfExists(id, moduleName(m), 'init') !== undefined)) {
    throw simpleFailure('FeatureNotYetSupported', '`init` in new modules on upgrade is not yet supported');
  }
  const receiptType: Type = env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeReceipt`, SUI_ADDRESS);
  const receipt = [[(ticket[0] as unknown[])[0]], [id]];
  env.state.pushResults([{ value: receipt, type: receiptType }]);
  return { returnValues: [{ type: formatType(receiptType), bcs: env.vm.bcs.encode(receipt, receiptType) }], mutatedReferences: [] };
}

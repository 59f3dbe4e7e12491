/**
 * Executing a programmable transaction: load the inputs and the gas coin, run the
 * commands in order on the Move VM, and on success or failure compute the effects
 * (object changes, versions, digests, events, gas) the way Sui does.
 */
import { type InputObject, type MoveVector, type MoveVM, ObjectRuntime, computationBudgetInternal, type Type, TypeKind, type VariantValue } from '@smi/move-vm';
import { digestFromBase58 } from '../bcs/codec.js';
import { formatTypeTag } from '../bcs/type-tag.js';
import type { CallArg, Command } from '../bcs/transaction.js';
import { objectDigest } from '../bcs/digests.js';
import { moveCall, transferObjects, splitCoins, mergeCoins, makeMoveVec, type CommandEnv } from './commands.js';
import { finishTransaction } from './effects.js';
import { ExecutionFailure, simpleFailure } from './errors.js';
import { decodeObject, objectSizeForGas, objectTypeTag, toRuntimeOwner } from './objects.js';
import { publishPackage, runPackageInits, upgradePackage } from './publish.js';
import { commandPackages, inputReadCharge } from './input-read-gas.js';
import { unifiedLinkage } from './linkage.js';
import { checkTransactionStatically } from './static-verify.js';
import { ExecutionState, type InputObjectInfo, type LoadedInputs, type Slot } from './state.js';
import { type GasPlan, setCoinBalance, smashPlan } from './gas-payment.js';
import { isGaslessTransaction } from './gasless.js';
import type { CommandResult, ExecutionInput, ExecutionResult, GasInput, ObjectStore } from './types.js';
import { errorMessage, SUI_ADDRESS } from '@smi/bytecode';

function missingObject(id: string): ExecutionFailure {
  return simpleFailure('InputObjectDeleted', `input object ${id} does not exist`);
}

function loadObjectSlot(vm: MoveVM, store: ObjectStore, ref: { id: string; version: bigint | null }, mode: 'owned' | 'shared-mut' | 'shared-read' | 'receiving', loaded: LoadedInputs): Slot {
  const object = store.getObject(ref.id);
  if (object === undefined) {
    // A Receiving input is not loaded: receiving it later simply finds nothing.
    if (mode === 'receiving' && ref.version !== null) {
      loaded.receivingVersions.push(ref.version);
      const info: InputObjectInfo = {
        id: ref.id,
        version: ref.version,
        digest: '',
        ownerKind: 'AddressOwner',
        initialSharedVersion: null,
        mutable: true,
        hasPublicTransfer: false,
        storageRebate: 0n,
        receiving: true,
      };
      return { kind: 'receiving', holder: null, type: null, object: info, taken: false };
    }
    throw missingObject(ref.id);
  }
  const ownerKind = object.owner.$kind;
  // A Receiving input names the version it is received at.
  const version = mode === 'receiving' && ref.version !== null ? ref.version : object.data.$kind === 'Move' ? object.data.Move.version : object.data.Package.version;
  const info: InputObjectInfo = {
    id: ref.id,
    version,
    digest: objectDigest(object),
    ownerKind,
    initialSharedVersion: object.owner.$kind === 'Shared' ? object.owner.Shared.initialSharedVersion : null,
    mutable: mode !== 'shared-read' && ownerKind !== 'Immutable' && object.data.$kind === 'Move',
    hasPublicTransfer: object.data.$kind === 'Move' && object.data.Move.hasPublicTransfer,
    storageRebate: object.storageRebate,
    receiving: mode === 'receiving',
  };
  if (mode !== 'receiving') loaded.objects.set(ref.id, { object, info });
  else loaded.receivingVersions.push(ref.version ?? version);
  if (mode === 'receiving') return { kind: 'receiving', holder: null, type: null, object: info, taken: false };
  if (object.data.$kind === 'Package') return { kind: 'object', holder: null, type: null, object: info, taken: true };
  const { value, type } = decodeObject(vm, object);
  return { kind: 'object', holder: [value], type, object: info, taken: false };
}

function loadInput(vm: MoveVM, store: ObjectStore, arg: CallArg, loaded: LoadedInputs, input: ExecutionInput): Slot {
  switch (arg.$kind) {
    case 'Pure':
      return { kind: 'pure', holder: null, type: null, bytes: arg.Pure.bytes, taken: false };
    case 'Object': {
      const o = arg.Object;
      switch (o.$kind) {
        case 'ImmOrOwnedObject':
          return loadObjectSlot(vm, store, { id: o.ImmOrOwnedObject.objectId, version: o.ImmOrOwnedObject.version }, 'owned', loaded);
        case 'SharedObject': {
          const mutable = o.SharedObject.mutability.$kind !== 'Immutable';
          const slot = loadObjectSlot(vm, store, { id: o.SharedObject.objectId, version: null }, mutable ? 'shared-mut' : 'shared-read', loaded);
          // Non-exclusive write: usable mutably, but the object itself must come out unchanged.
          if (o.SharedObject.mutability.$kind === 'NonExclusiveWrite' && slot.object !== undefined) slot.object.nonExclusive = true;
          return slot;
        }
        case 'Receiving':
          return loadObjectSlot(vm, store, { id: o.Receiving.objectId, version: o.Receiving.version }, 'receiving', loaded);
      }
      throw simpleFailure('FeatureNotYetSupported', 'unknown object argument');
    }
    case 'FundsWithdrawal': {
      // A `funds_accumulator::Withdrawal<Balance<T>> { owner, limit }` of the sender (or sponsor).
      const w = arg.FundsWithdrawal;
      const coinType = formatTypeTag(w.typeArg.Balance);
      const type = vm.resolveType(`0x2::funds_accumulator::Withdrawal<0x2::balance::Balance<${coinType}>>`);
      const owner = w.withdrawFrom.$kind === 'Sponsor' ? (input.sponsor ?? input.sender) : input.sender;
      return { kind: 'object', holder: [[owner, w.reservation.MaxAmountU64]], type, taken: false };
    }
    default:
      throw simpleFailure('FeatureNotYetSupported', 'unknown input kind');
  }
}

const UID = `${SUI_ADDRESS}::object::UID`;

/** Every UID inside a value (the ids of objects it holds, its own first). */
function uidsIn(vm: MoveVM, v: unknown, t: Type, out: string[]): void {
  if (t.kind === TypeKind.Vector) {
    const elem = t.elem as Type;
    if (elem.kind === TypeKind.Datatype || elem.kind === TypeKind.Vector) for (const e of (v as MoveVector).toArray()) uidsIn(vm, e, elem, out);
    return;
  }
  const d = t.datatype;
  if (t.kind !== TypeKind.Datatype || d === null) return;
  if (`${d.address}::${d.module}::${d.name}` === UID) {
    out.push(((v as unknown[])[0] as unknown[])[0] as string);
    return;
  }
  if (d.isEnum) {
    const e = v as VariantValue;
    d.variants()[e.tag].fields.forEach((f, i) => uidsIn(vm, e.fields[i], vm.types.subst(f.type, t.typeArgs), out));
    return;
  }
  d.fields().forEach((f, i) => uidsIn(vm, (v as unknown[])[i], vm.types.subst(f.type, t.typeArgs), out));
}

/** The input objects as the object runtime sees them: owner, version, the UIDs inside. */
function runtimeInputObjects(vm: MoveVM, state: ExecutionState, loaded: LoadedInputs): InputObject[] {
  const slots = [...state.inputs, ...(state.gas === null ? [] : [state.gas])];
  const out: InputObject[] = [];
  for (const [id, { object, info }] of loaded.objects) {
    if (object.data.$kind !== 'Move') continue;
    const slot = slots.find((s) => (s.kind === 'gas' ? id === loaded.gasCoins[0] : s.object?.id === id));
    const uids: string[] = [];
    if (slot !== undefined && slot.holder !== null && slot.type !== null) uidsIn(vm, slot.holder[0], slot.type, uids);
    out.push({ id, owner: toRuntimeOwner(object.owner), version: info.version, ...(uids.length > 0 ? { containedUids: uids } : {}) });
  }
  return out;
}

/**
 * Load the gas coins (see `gas-payment.ts`): the smash target holds the sum of every
 * payment less the withheld budget; the other coins are deleted (smashed).
 */
function loadGas(vm: MoveVM, store: ObjectStore, gas: GasInput, loaded: LoadedInputs, state: ExecutionState, smashed: string[]): void {
  const payment = gas.payment;
  if (payment.length === 0 && gas.addressBalance === undefined) return;
  let total = 0n;
  let first: { value: unknown[]; type: ReturnType<typeof decodeObject>['type'] } | null = null;
  for (const ref of payment) {
    const object = store.getObject(ref.objectId);
    if (object === undefined) throw missingObject(ref.objectId);
    if (object.data.$kind !== 'Move' || !objectTypeTag(object).endsWith(`::coin::Coin<${SUI_ADDRESS}::sui::SUI>`)) {
      throw simpleFailure('InvalidGasObject', `${ref.objectId} is not a Coin<SUI>`);
    }
    const { value, type } = decodeObject(vm, object);
    const v = value as unknown[];
    total += (v[1] as unknown[])[0] as bigint;
    loaded.objects.set(ref.objectId, {
      object,
      info: {
        id: ref.objectId,
        version: object.data.Move.version,
        digest: objectDigest(object),
        ownerKind: object.owner.$kind,
        initialSharedVersion: null,
        mutable: true,
        hasPublicTransfer: true,
        storageRebate: object.storageRebate,
        receiving: false,
      },
    });
    loaded.gasCoins.push(ref.objectId);
    if (first === null) first = { value: v, type };
    else smashed.push(ref.objectId);
  }
  const plan = smashPlan(gas.owner, loaded.gasCoins, total, gas.addressBalance, gas.budget);
  loaded.gasPlan = plan;
  if (plan.target.kind === 'addressBalance') {
    // Every coin goes to the address balance; the ephemeral coin is made once the runtime exists.
    if (loaded.gasCoins.length > 0) smashed.unshift(loaded.gasCoins[0]);
    return;
  }
  if (first === null) return;
  setCoinBalance(first.value, plan.total - plan.withheld);
  state.gas = { kind: 'gas', holder: [first.value], type: first.type, taken: false };
}

/** The ephemeral gas coin of an address-balance payment: a fresh id holding the total less the withheld budget. */
function ephemeralGasCoin(vm: MoveVM, runtime: ObjectRuntime, plan: GasPlan, state: ExecutionState): void {
  const id = runtime.freshId();
  plan.ephemeralId = id;
  const type = vm.resolveType('0x2::coin::Coin<0x2::sui::SUI>');
  state.gas = { kind: 'gas', holder: [[[[id]], [plan.total - plan.withheld]]], type, taken: false };
}

function runCommand(env: CommandEnv, c: Command): CommandResult {
  switch (c.$kind) {
    case 'MoveCall':
      return moveCall(env, c.MoveCall);
    case 'TransferObjects':
      return transferObjects(env, c.TransferObjects.objects, c.TransferObjects.address);
    case 'SplitCoins':
      return splitCoins(env, c.SplitCoins.coin, c.SplitCoins.amounts);
    case 'MergeCoins':
      return mergeCoins(env, c.MergeCoins.destination, c.MergeCoins.sources);
    case 'MakeMoveVec':
      return makeMoveVec(env, c.MakeMoveVec.type, c.MakeMoveVec.elements, '0x2');
    case 'Publish':
      return publishPackage(env, c.Publish.modules, c.Publish.dependencies);
    case 'Upgrade':
      return upgradePackage(env, c.Upgrade.modules, c.Upgrade.dependencies, c.Upgrade.package, c.Upgrade.ticket);
  }
}

/**
 * Upstream `finish`: a shared object taken by value must be shared again or deleted, not
 * transferred, frozen or wrapped (`SharedObjectOperationNotAllowed`, no command index).
 */
function sharedByValueFailure(state: ExecutionState, runtime: ObjectRuntime): ExecutionFailure | null {
  for (const s of state.inputs) {
    const o = s.object;
    if (s.kind !== 'object' || !s.taken || o === undefined || o.ownerKind !== 'Shared' || !o.mutable) continue;
    const owner = runtime.isTransferred(o.id);
    if (owner === undefined ? runtime.isDeleted(o.id) : owner.$kind === 'Shared') continue;
    return simpleFailure('SharedObjectOperationNotAllowed', `shared object ${o.id} taken by value must be shared again or deleted`);
  }
  return null;
}

/**
 * Execute a programmable transaction against `store` on `vm` (which must hold every
 * package the transaction uses, framework included, and Sui's natives).
 */
export function executeProgrammableTransaction(vm: MoveVM, store: ObjectStore, input: ExecutionInput): ExecutionResult {
  try {
    return execute(vm, store, input);
  } finally {
    vm.setLinkageOverride(null);
  }
}

function execute(vm: MoveVM, store: ObjectStore, input: ExecutionInput): ExecutionResult {
  const cfg = input.protocolConfig;
  const relaxed = input.checks === 'relaxed';
  const digestBytes = digestFromBase58(input.digest);
  const loaded: LoadedInputs = { objects: new Map(), gasCoins: [], runtimeObjects: new Map(), receivingVersions: [], gasPlan: null };
  const state = new ExecutionState(vm);
  state.relaxedPure = relaxed;
  // Inputs are loaded first: the object runtime knows them (owners, versions of their children).
  const smashed: string[] = [];
  let failure: ExecutionFailure | null = null;
  try {
    // A gasless transaction has no gas coin at all (gasless.ts).
    if (!isGaslessTransaction(cfg, input.gas)) loadGas(vm, store, input.gas, loaded, state, smashed);
    for (const arg of input.transaction.inputs) state.inputs.push(loadInput(vm, store, arg, loaded, input));
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    failure = e;
  }
  const runtime = new ObjectRuntime({
    inputObjects: runtimeInputObjects(vm, state, loaded),
    packages: (id, version) => {
      const o = store.getObject(id);
      if (o === undefined || o.data.$kind !== 'Package' || o.data.Package.version !== version) return undefined;
      return { originalId: vm.packageById(id)?.originalId ?? id, sizeForGas: objectSizeForGas(o) };
    },
    tx: {
      sender: input.sender,
      digest: digestBytes,
      epoch: input.epoch,
      epochTimestampMs: input.epochTimestampMs,
      gasPrice: input.gas.price,
      rgp: input.referenceGasPrice ?? input.gas.price,
      gasBudget: input.gas.budget,
      sponsor: input.sponsor ?? null,
    },
    bcs: vm.bcs,
    protocolConfig: cfg,
    childStore: (parent, child, rootVersion) => {
      const o = store.getChild?.(parent, child, rootVersion);
      if (o === undefined || o.data.$kind !== 'Move') return undefined;
      loaded.runtimeObjects.set(child, o);
      return { type: objectTypeTag(o), bcs: o.data.Move.contents, version: o.data.Move.version, owner: toRuntimeOwner(o.owner) };
    },
    receivingStore: (parent, child, version) => {
      const o = store.getObject(child);
      // Only an object sent to `parent` at exactly `version` can be received (otherwise: none).
      if (o === undefined || o.data.$kind !== 'Move' || o.data.Move.version !== version) return undefined;
      if (o.owner.$kind !== 'AddressOwner' || o.owner.AddressOwner !== parent) return undefined;
      loaded.runtimeObjects.set(child, o);
      return { type: objectTypeTag(o), bcs: o.data.Move.contents, version, owner: toRuntimeOwner(o.owner) };
    },
  });
  const plan = loaded.gasPlan;
  // Upstream makes the ephemeral coin only with `gasless_transaction_drop_safety`.
  if (plan !== null && plan.target.kind === 'addressBalance' && cfg.flag('gasless_transaction_drop_safety')) ephemeralGasCoin(vm, runtime, plan, state);
  const budgetInternal = plan === null ? Number.MAX_SAFE_INTEGER : Number(computationBudgetInternal(cfg, input.gas.budget, input.gas.price));
  const env: CommandEnv = {
    vm,
    state,
    runtime,
    relaxed,
    gasLeft: budgetInternal,
    gasBudgetInternal: budgetInternal,
    txDigest: input.digest,
    published: [],
    eventModule: null,
    ...(input.tracer === undefined ? {} : { tracer: input.tracer }),
  };
  const commandResults: CommandResult[] = [];
  // The packages the commands load: read (and charged) before anything runs, and effects' dependencies.
  const packages = commandPackages(input.transaction.commands);
  for (const id of smashed) runtime.deleteId(id);
  // The input objects and the commands' packages are read (and paid for) before anything runs.
  if (failure === null && plan !== null) {
    env.gasLeft -= inputReadCharge(cfg, store, loaded.objects, packages);
    if (env.gasLeft < 0) {
      env.gasLeft = 0;
      failure = simpleFailure('InsufficientGas', 'out of gas reading the input objects');
    }
  }
  // Protocol 108+: the whole transaction is typed and verified before any command runs.
  if (failure === null && cfg.flag('enable_ptb_execution_v2')) {
    // With unified linkage, every command (typing included) runs under the one linkage all
    // commands agree on.
    if (cfg.flag('enable_unified_linkage')) {
      const linkage = unifiedLinkage(vm, store, input.transaction.commands, cfg);
      if (linkage instanceof ExecutionFailure) failure = linkage;
      else vm.setLinkageOverride(linkage);
    }
    if (failure === null) {
      try {
        checkTransactionStatically(vm, state.inputs, state.gas, input.transaction.commands, relaxed, (f) => cfg.flag(f));
      } catch (e) {
        if (!(e instanceof ExecutionFailure)) throw e;
        failure = e;
      }
    }
  }
  if (failure === null && input.runInitsOf !== undefined) {
    try {
      runPackageInits(env, input.runInitsOf.package, input.runInitsOf.modules, input.runInitsOf.upgradeCap);
    } catch (e) {
      if (!(e instanceof ExecutionFailure)) throw e;
      failure = e;
    }
  }
  if (failure === null) {
    input.transaction.commands.forEach((c, i) => {
      if (failure !== null) return;
      try {
        (env.instructionsAtCommand ??= []).push(env.meter?.instructions ?? 0);
        commandResults.push(runCommand(env, c));
      } catch (e) {
        if (!(e instanceof ExecutionFailure)) {
          if (process.env.SMI_DEBUG_PTB) console.error(e);
          failure = simpleFailure('InvariantViolation', `command ${i}: ${errorMessage(e)}`);
        } else failure = e;
        (failure as ExecutionFailure).command ??= i;
      }
    });
  }
  if (failure === null && !relaxed) {
    try {
      state.checkUnusedValues();
    } catch (e) {
      if (!(e instanceof ExecutionFailure)) throw e;
      failure = e;
    }
  }
  if (failure === null) failure = sharedByValueFailure(state, runtime);
  // A failed transaction publishes nothing.
  if (failure !== null) for (const p of env.published) vm.removePackage(p.id);
  try {
    return finishTransaction({ vm, store, input, state, runtime, loaded, env, commandResults, failure, packages });
  } finally {
    runtime.finish();
  }
}

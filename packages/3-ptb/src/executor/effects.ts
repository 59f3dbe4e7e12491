/**
 * The end of a transaction: classify every object the transaction touched (created,
 * mutated, unwrapped, deleted, wrapped, unwrapped then deleted), give written objects
 * the lamport version, charge gas (computation, storage, rebates) to the gas coin, and
 * build `TransactionEffectsV2`, the events and their digests. Objects created and wrapped
 * in the same transaction (absent from the effects) are found in the written objects.
 */
import { Ability, ZERO_ADDRESS } from '@smi/bytecode';
import { type AccumulatorEvent, computationCost, formatType, type MoveVM, type ObjectRuntime, type ObjectRuntimeResults, objectStorageCost, senderRebate, type Type } from '@smi/move-vm';
import { transactionEffectsDigest, transactionEventsDigest, objectDigest } from '../bcs/digests.js';
import type { EffectsObjectChange, Event, GasCostSummary, TransactionEffects, UnchangedConsensusKind } from '../bcs/effects.js';
import type { ExecutionStatus } from '../bcs/execution-status.js';
import type { Owner, SuiObject } from '../bcs/object.js';
import { parseStructTag } from '../bcs/type-tag.js';
import { normalizeAddress } from '../bcs/codec.js';
import { type CommandEnv, writesLayoutFailure } from './commands.js';
import { accumulatorChanges, fundsRecipients } from './accumulators.js';
import { coinBalance, type GasLocation, type GasPlan, setCoinBalance, suiBalanceEvent } from './gas-payment.js';
import { canonicalType, gaslessExecutionError, isGaslessTransaction } from './gasless.js';
import { ExecutionFailure, simpleFailure } from './errors.js';
import { checkNewCoinOwners, coinTransfersCharge, DENY_LIST_ID } from './deny-list.js';
import { decodeObject, findNestedObjects, moveObjectTypeOf, objectSizeForGas, objectTypeTag, toBcsOwner } from './objects.js';
import type { ExecutionState, LoadedInputs } from './state.js';
import type { CommandResult, ExecutionInput, ExecutionResult, ObjectChange, ObjectStore } from './types.js';

/** Everything {@link finishTransaction} needs. */
export interface FinishArgs {
  vm: MoveVM;
  store: ObjectStore;
  input: ExecutionInput;
  state: ExecutionState;
  runtime: ObjectRuntime;
  loaded: LoadedInputs;
  env: CommandEnv;
  commandResults: CommandResult[];
  failure: ExecutionFailure | null;
  /** The packages the commands load (`commandPackages`). */
  packages: ReadonlySet<string>;
}

interface Write {
  id: string;
  type: Type;
  value: unknown;
  owner: Owner;
  /** A package written by Publish/Upgrade (then `value`/`type` are unused). */
  packageObject?: SuiObject;
  /** BCS of `value` when already encoded (the object runtime's writes). */
  bcs?: Uint8Array;
  /** Write the owner as it is: only created objects get their start version (upstream `update_version_and_previous_tx`). */
  keepOwner?: boolean;
}

/** A newly shared (or consensus-owned) object starts at the version it is first written at. */
function withStartVersion(owner: Owner, version: bigint): Owner {
  if (owner.$kind === 'Shared' && owner.Shared.initialSharedVersion === 0n) return { $kind: 'Shared', Shared: { initialSharedVersion: version } };
  if (owner.$kind === 'ConsensusAddressOwner' && owner.ConsensusAddressOwner.startVersion === 0n) {
    return { $kind: 'ConsensusAddressOwner', ConsensusAddressOwner: { startVersion: version, owner: owner.ConsensusAddressOwner.owner } };
  }
  return owner;
}

/** The address an owner names (upstream `get_owner_address`), `null` for shared and immutable objects. */
function ownerAddress(o: Owner): string | null {
  switch (o.$kind) {
    case 'AddressOwner':
      return o.AddressOwner;
    case 'ObjectOwner':
      return o.ObjectOwner;
    case 'ConsensusAddressOwner':
      return o.ConsensusAddressOwner.owner;
    default:
      return null;
  }
}

function moveObject(vm: MoveVM, w: Write, version: bigint, txDigest: string): SuiObject {
  if (w.packageObject) return w.packageObject;
  return {
    data: {
      $kind: 'Move',
      Move: {
        type: moveObjectTypeOf(w.type),
        hasPublicTransfer: (w.type.abilities & Ability.Store) !== 0,
        version,
        contents: w.bcs ?? vm.bcs.encode(w.value, w.type),
      },
    },
    owner: w.keepOwner === true ? w.owner : withStartVersion(w.owner, version),
    previousTransaction: txDigest,
    storageRebate: 0n,
  };
}

/** The post-execution rules of a gasless transaction, as an `InsufficientGas` failure. */
function gaslessFailure(a: FinishArgs, written: number, deleted: ReadonlySet<string>, events: readonly AccumulatorEvent[]): ExecutionFailure | null {
  const inputCoins = new Set<string>();
  for (const [id, { object }] of a.loaded.objects) if (object.data.$kind === 'Move' && /^0x0{63}2::coin::Coin</.test(objectTypeTag(object))) inputCoins.add(id);
  const reservations = a.input.transaction.inputs.flatMap((i) =>
    i.$kind === 'FundsWithdrawal' ? [{ owner: a.input.sender, token: canonicalType(i.FundsWithdrawal.typeArg.Balance), amount: i.FundsWithdrawal.reservation.MaxAmountU64 }] : [],
  );
  const why = gaslessExecutionError({ writtenCount: written, deleted, inputCoins, events, reservations }, a.input.gaslessTokens ?? new Map());
  return why === null ? null : simpleFailure('InsufficientGas', why);
}

/** `true` when a written object has the contents and owner the input object had. */
function sameObject(vm: MoveVM, w: Write, o: SuiObject): boolean {
  if (o.data.$kind !== 'Move' || w.packageObject !== undefined) return false;
  const bytes = w.bcs ?? vm.bcs.encode(w.value, w.type);
  const before = o.data.Move.contents;
  if (bytes.length !== before.length || !bytes.every((b, i) => b === before[i])) return false;
  if (w.owner.$kind !== o.owner.$kind) return false;
  return w.owner.$kind !== 'Shared' || o.owner.$kind !== 'Shared' || w.owner.Shared.initialSharedVersion === o.owner.Shared.initialSharedVersion;
}

/**
 * Previous transactions of the transaction's input objects: its object inputs and the
 * packages its commands name (MoveCall packages and type arguments, MakeMoveVec types,
 * Publish/Upgrade dependencies and the upgraded package), as `InputObjects` counts them.
 */
function transactionDependencies(a: FinishArgs): string[] {
  const out = new Set<string>();
  for (const { object } of a.loaded.objects.values()) out.add(object.previousTransaction);
  for (const id of a.packages) {
    const p = a.store.getObject(id);
    if (p !== undefined) out.add(p.previousTransaction);
  }
  return [...out];
}

/** A dynamic-field child (or received object) the transaction loaded: its version, the object as it was, whether it was modified. */
interface ChildRead {
  version: bigint;
  object: SuiObject | undefined;
  modified: boolean;
}

/**
 * What the transaction leaves, gathered step by step by {@link finishTransaction}: the objects
 * written, deleted and wrapped, its events, and its failure (a later step may fail it and
 * reset it to its inputs).
 */
interface Finish {
  failure: ExecutionFailure | null;
  /** The transaction's lamport version: one past the largest input version. */
  readonly lamport: bigint;
  readonly plan: GasPlan | null;
  readonly gasless: boolean;
  /** The gas coin's id when gas is paid with coins. */
  readonly gasId: string | undefined;
  readonly writes: Map<string, Write>;
  readonly deleted: Set<string>;
  readonly wrapped: Set<string>;
  readonly unwrappedThenDeleted: Set<string>;
  readonly created: Set<string>;
  readonly children: Map<string, ChildRead>;
  events: Event[];
  moveAccumulatorEvents: AccumulatorEvent[];
  readDenyList: boolean;
  /** Ids the commands created and did not delete (written at top level or wrapped). */
  createdIds: Set<string>;
  /** The packages the transaction published are unloaded from the VM (once). */
  packagesRemoved: boolean;
}

/** The lamport version: one past the largest version among the input objects and the `Receiving` inputs. */
function lamportVersion(loaded: LoadedInputs): bigint {
  let lamport = 0n;
  for (const { info } of loaded.objects.values()) if (info.version > lamport) lamport = info.version;
  for (const v of loaded.receivingVersions) if (v > lamport) lamport = v;
  return lamport + 1n;
}

/**
 * The mutable inputs written back as they were (their bytes as they are, not encoded anew), the
 * gas payments smashed again: the target coin holds them all, the other coins are deleted.
 */
function keepInputsAsTheyWere(a: FinishArgs, f: Finish): void {
  const { vm, loaded } = a;
  for (const [id, { object, info }] of loaded.objects) {
    if (!info.mutable || info.nonExclusive === true || object.data.$kind !== 'Move') continue;
    const { value, type } = decodeObject(vm, object);
    f.writes.set(id, { id, type, value, owner: object.owner, bcs: object.data.Move.contents });
  }
  for (const id of f.plan?.target.kind === 'coin' ? loaded.gasCoins.slice(1) : loaded.gasCoins) {
    f.writes.delete(id);
    f.deleted.add(id);
  }
  const g = f.gasId === undefined ? undefined : f.writes.get(f.gasId);
  if (g !== undefined && f.plan !== null) {
    setCoinBalance(g.value, f.plan.total);
    g.bcs = undefined;
  }
}

/** Drop everything the commands did (upstream `reset`): the published packages unloaded, the inputs as they were. */
function resetToInputs(a: FinishArgs, f: Finish): void {
  if (!f.packagesRemoved) for (const p of a.env.published) a.vm.removePackage(p.id);
  f.packagesRemoved = true;
  f.writes.clear();
  f.children.clear();
  for (const s of [f.deleted, f.wrapped, f.unwrappedThenDeleted, f.created]) s.clear();
  f.events = [];
  f.moveAccumulatorEvents = [];
  keepInputsAsTheyWere(a, f);
}

/**
 * The object runtime's writes, each with its owner (a shared input shared again keeps its
 * initial shared version, a consensus-address-owned input given to the same owner its start
 * version), and the children it loaded. The writes must lay out (`max_type_to_layout_nodes`).
 */
function recordRuntimeWrites(a: FinishArgs, f: Finish, r: ObjectRuntimeResults): void {
  const { loaded } = a;
  for (const w of r.writes) {
    // Before `reshare_at_same_initial_version`, only created objects get an initial shared version: it stays 0.
    const isv = loaded.objects.get(w.id)?.info.initialSharedVersion ?? null;
    const reshared = w.owner.$kind === 'Shared' && isv !== null;
    const keep = a.input.protocolConfig.flag('reshare_at_same_initial_version');
    let owner = reshared ? ({ $kind: 'Shared', Shared: { initialSharedVersion: keep ? isv : 0n } } as Owner) : toBcsOwner(w.owner);
    const before = loaded.objects.get(w.id)?.object.owner;
    if (
      owner.$kind === 'ConsensusAddressOwner' &&
      before?.$kind === 'ConsensusAddressOwner' &&
      normalizeAddress(before.ConsensusAddressOwner.owner) === normalizeAddress(owner.ConsensusAddressOwner.owner)
    ) {
      owner = { $kind: 'ConsensusAddressOwner', ConsensusAddressOwner: { startVersion: before.ConsensusAddressOwner.startVersion, owner: owner.ConsensusAddressOwner.owner } } as Owner;
    }
    f.writes.set(w.id, { id: w.id, type: w.type, value: w.value, owner, bcs: w.bcs });
  }
  f.failure = writesLayoutFailure(a.vm, r.writes);
  for (const c of r.loadedChildObjects) f.children.set(c.id, { version: c.version, object: loaded.runtimeObjects.get(c.id), modified: c.isModified });
}

/**
 * What became of every object: mutable inputs (the gas coin included) written, deleted or
 * wrapped; children and received objects taken out and not written again wrapped; created ids
 * written; deleted ids that were not inputs deleted (children) or unwrapped then deleted; the
 * published packages created.
 */
function classifyObjects(a: FinishArgs, f: Finish, r: ObjectRuntimeResults): void {
  const { loaded, state } = a;
  const { writes, children } = f;
  const deletedIds = new Set(r.deletedIds);
  for (const [id, { object, info }] of loaded.objects) {
    if (!info.mutable) continue;
    if (writes.has(id)) continue;
    if (r.deletedIds.includes(id)) {
      f.deleted.add(id);
      continue;
    }
    const slot = id === f.gasId ? state.gas : state.inputs.find((s) => s.object?.id === id);
    if (slot && slot.holder !== null && slot.type !== null) writes.set(id, { id, type: slot.type, value: slot.holder[0], owner: object.owner });
    else f.wrapped.add(id);
  }
  for (const [id, c] of children) if (c.modified && !writes.has(id) && !deletedIds.has(id) && !loaded.objects.has(id)) f.wrapped.add(id);
  for (const id of f.createdIds) if (writes.has(id)) f.created.add(id);
  for (const id of r.deletedIds) {
    if (loaded.objects.has(id)) continue;
    if (f.createdIds.has(id)) continue;
    if (children.has(id)) f.deleted.add(id);
    else f.unwrappedThenDeleted.add(id);
  }
  for (const p of a.env.published) {
    writes.set(p.id, { id: p.id, type: a.vm.types.address, value: null, owner: { $kind: 'Immutable', Immutable: true }, packageObject: p.object });
    f.created.add(p.id);
  }
}

/** Non-exclusive write inputs must come out exactly as they went in (then they are not written); else the transaction fails. */
function checkNonExclusiveInputs(a: FinishArgs, f: Finish): void {
  for (const [id, { object, info }] of a.loaded.objects) {
    if (info.nonExclusive !== true) continue;
    const w = f.writes.get(id);
    if (w === undefined || !sameObject(a.vm, w, object)) {
      f.failure = new ExecutionFailure(
        { $kind: 'NonExclusiveWriteInputObjectModified', NonExclusiveWriteInputObjectModified: { id } } as never,
        `non-exclusive write input ${id} was modified or deleted`,
      );
      break;
    }
    f.writes.delete(id);
  }
}

/** The events the commands emitted, each with the module of the command that emitted it. */
function transactionEvents(a: FinishArgs, r: ObjectRuntimeResults): Event[] {
  const moduleOf = (i: number): { packageId: string; module: string } | null => {
    const list = a.env.eventModules ?? [];
    for (let k = list.length - 1; k >= 0; k--) if (list[k].from <= i) return list[k];
    return a.env.eventModule;
  };
  return r.events.map((e, i) => ({
    packageId: moduleOf(i)?.packageId ?? ZERO_ADDRESS,
    transactionModule: moduleOf(i)?.module ?? '',
    sender: a.input.sender,
    type: parseStructTag(e.typeTag),
    contents: e.bcs,
  }));
}

/**
 * Coin deny list v2: the new owners of regulated coins (a denial fails the transaction and
 * resets it); the deny-list reads of coin transfers are charged (out of gas: it fails too).
 */
function checkCoinDenyList(a: FinishArgs, f: Finish, r: ObjectRuntimeResults): void {
  const cfg = a.input.protocolConfig;
  // Before `use_coin_party_owner`, only address-owned coins count.
  const partyOwners = cfg.flag('use_coin_party_owner');
  const owned = [...f.writes.values()]
    .filter((w) => w.packageObject === undefined)
    .map((w) => ({ typeTag: formatType(w.type), owner: partyOwners || w.owner.$kind === 'AddressOwner' ? ownerAddress(w.owner) : null }));
  owned.push(...fundsRecipients(r.accumulatorEvents));
  const deny = checkNewCoinOwners(a.store, owned, a.input.epoch);
  f.readDenyList = deny.read && !a.loaded.objects.has(DENY_LIST_ID);
  if (f.plan !== null) a.env.gasLeft -= coinTransfersCharge(cfg, deny.nonGasCoinOwners);
  if (f.plan !== null && a.env.gasLeft < 0) {
    a.env.gasLeft = 0;
    f.failure = simpleFailure('InsufficientGas', 'out of gas charging the deny-list reads of coin transfers');
    resetToInputs(a, f);
  } else if (deny.failure !== null) {
    const d = deny.failure;
    f.failure = new ExecutionFailure(
      (d.kind === 'CoinTypeGlobalPause' ? { $kind: d.kind, [d.kind]: { coinType: d.coinType } } : { $kind: d.kind, [d.kind]: { address: d.address, coinType: d.coinType } }) as never,
      `deny list: ${d.kind} for ${d.coinType}`,
    );
    resetToInputs(a, f);
  }
}

/** The commands' outcome when they succeeded: writes, object fates, events; then the checks that may still fail (and reset) the transaction. */
function applyCommands(a: FinishArgs, f: Finish): void {
  const r = a.runtime.results();
  f.createdIds = new Set(r.createdIds);
  recordRuntimeWrites(a, f, r);
  classifyObjects(a, f, r);
  checkNonExclusiveInputs(a, f);
  f.events = transactionEvents(a, r);
  f.moveAccumulatorEvents = r.accumulatorEvents;
  if (f.failure === null && f.gasless) f.failure = gaslessFailure(a, f.writes.size, f.deleted, r.accumulatorEvents);
  if (f.failure !== null) resetToInputs(a, f);
  if (f.failure === null && a.input.protocolConfig.flag('enable_coin_deny_list_v2')) checkCoinDenyList(a, f, r);
}

/** The gas coin settled: the withheld budget returned, and where gas is charged (gas-payment.ts). */
function settleGasCoin(a: FinishArgs, f: Finish): { gasEvents: AccumulatorEvent[]; chargeTo: GasLocation | null } {
  const { plan, failure } = f;
  const state = a.state;
  const gasEvents: AccumulatorEvent[] = [...(plan?.smashEvents ?? [])];
  const push = (e: AccumulatorEvent | null): void => {
    if (e !== null) gasEvents.push(e);
  };
  if (plan === null) return { gasEvents, chargeTo: null };
  let chargeTo: GasLocation = plan.target;
  const transfer = failure === null ? state.gasTransfer : null;
  const coinId = plan.target.kind === 'coin' ? plan.target.id : plan.ephemeralId;
  if (transfer?.kind === 'sendFunds') {
    push(suiBalanceEvent(transfer.recipient, plan.withheld));
    chargeTo = { kind: 'addressBalance', address: transfer.recipient };
  } else if (failure === null) {
    const w = coinId === null ? undefined : f.writes.get(coinId);
    if (w !== undefined) {
      setCoinBalance(w.value, coinBalance(w.value) + plan.withheld);
      w.bcs = undefined;
    }
    if (transfer?.kind === 'transfer' && coinId !== null) chargeTo = { kind: 'coin', id: coinId };
  }
  if (plan.target.kind === 'addressBalance') {
    // An ephemeral coin that moved withdraws its whole value; one left in place returns what is left.
    const held = state.gas?.holder?.[0];
    if (transfer !== null) push(suiBalanceEvent(plan.target.address, -plan.total));
    else if (failure === null && held !== undefined) push(suiBalanceEvent(plan.target.address, coinBalance(held) + plan.withheld - plan.total));
  }
  return { gasEvents, chargeTo };
}

/** The objects written (at the lamport version), the storage they cost, the rebates of the objects they replace. */
function measureStorage(a: FinishArgs, f: Finish): { objects: Map<string, SuiObject>; storageCost: bigint; rebate: bigint } {
  const { loaded } = a;
  const cfg = a.input.protocolConfig;
  const objects = new Map<string, SuiObject>();
  let storageCost = 0n;
  for (const w of f.writes.values()) {
    // An input object shared at version 0 (re-shared before `reshare_at_same_initial_version`) stays so.
    const o = moveObject(a.vm, w.owner.$kind === 'Shared' && loaded.objects.has(w.id) ? { ...w, keepOwner: true } : w, f.lamport, a.input.digest);
    // Unmetered (system) transactions store objects with no rebate (`track_storage_mutation`).
    const cost = f.plan === null ? 0n : objectStorageCost(cfg, BigInt(objectSizeForGas(o)));
    o.storageRebate = cost;
    storageCost += cost;
    objects.set(w.id, o);
  }
  const gone = (id: string): boolean => f.writes.has(id) || f.deleted.has(id) || f.wrapped.has(id);
  let rebate = 0n;
  for (const [id, { object, info }] of loaded.objects) if (info.mutable && gone(id)) rebate += object.storageRebate;
  for (const [id, c] of f.children) if (c.object !== undefined && !loaded.objects.has(id) && gone(id)) rebate += c.object.storageRebate;
  return { objects, storageCost, rebate };
}

/**
 * Gas: computation, then storage of what is written, rebates of what was there. Storage beyond
 * the budget (upstream `compute_storage_and_rebate`) resets the transaction to its inputs and
 * charges their storage; if even that is too much, the whole budget and no storage. The charge
 * is taken from the gas coin (or the address balance paying). Returns the objects written,
 * the gas summary and the gas's balance events.
 */
function chargeGas(a: FinishArgs, f: Finish): { objects: Map<string, SuiObject>; gasUsed: GasCostSummary; gasEvents: AccumulatorEvent[] } {
  const { vm, input, loaded } = a;
  const cfg = input.protocolConfig;
  const plan = f.plan;
  let gas = settleGasCoin(a, f);
  const budgetInternal = plan === null ? 0 : Number(a.env.gasLeft);
  const usedInternal = plan === null ? 0n : BigInt(Math.max(0, a.env.gasBudgetInternal - budgetInternal));
  const comp = computationCost(cfg, usedInternal / 1000n, input.gas.price, input.gas.budget, f.failure === null ? undefined : { referenceGasPrice: input.referenceGasPrice ?? input.gas.price });
  let computation = comp.cost;
  const outOfGas = (m: { storageCost: bigint; rebate: bigint }): boolean => {
    const back = senderRebate(cfg, m.rebate);
    return back < m.storageCost && input.gas.budget - computation < m.storageCost - back;
  };
  let measured = measureStorage(a, f);
  if (plan !== null && outOfGas(measured)) {
    f.failure ??= simpleFailure('InsufficientGas', 'the gas budget does not cover storage');
    resetToInputs(a, f);
    gas = settleGasCoin(a, f);
    measured = measureStorage(a, f);
    if (outOfGas(measured)) {
      computation = input.gas.budget;
      let rebate = 0n;
      for (const [id, { object }] of loaded.objects) if (f.deleted.has(id)) rebate += object.storageRebate;
      measured = { objects: measured.objects, storageCost: 0n, rebate };
    }
  }
  const { objects, storageCost, rebate } = measured;
  const sender = senderRebate(cfg, rebate);
  // A gasless transaction pays nothing: its computation cost is the rebate it earns (nothing when it fails).
  const gasUsed: GasCostSummary = f.gasless
    ? f.failure === null
      ? { computationCost: sender, storageCost: 0n, storageRebate: sender, nonRefundableStorageFee: rebate - sender }
      : { computationCost: 0n, storageCost: 0n, storageRebate: 0n, nonRefundableStorageFee: 0n }
    : { computationCost: computation, storageCost, storageRebate: sender, nonRefundableStorageFee: rebate - sender };
  const charge = computation + storageCost - sender;
  const { gasEvents, chargeTo } = gas;
  if (chargeTo?.kind === 'coin') {
    const g = objects.get(chargeTo.id);
    const w = f.writes.get(chargeTo.id);
    if (g && w && g.data.$kind === 'Move') {
      setCoinBalance(w.value, coinBalance(w.value) - charge);
      g.data.Move.contents = vm.bcs.encode(w.value, w.type);
    }
  } else if (chargeTo?.kind === 'addressBalance') {
    const e = suiBalanceEvent(chargeTo.address, -charge);
    if (e !== null) gasEvents.push(e);
  }
  return { objects, gasUsed, gasEvents };
}

/** The changed objects of effects V2 (sorted by id, accumulator changes included) and the objects written as the result lists them. */
function changedObjects(
  a: FinishArgs,
  f: Finish,
  objects: ReadonlyMap<string, SuiObject>,
  accumulators: readonly [string, EffectsObjectChange][],
): { changes: [string, EffectsObjectChange][]; written: ObjectChange[] } {
  const { loaded } = a;
  const { created, children } = f;
  const changes: [string, EffectsObjectChange][] = [];
  const inputState = (id: string): EffectsObjectChange['inputState'] => {
    const l = loaded.objects.get(id);
    if (l) return { $kind: 'Exist', Exist: [[l.info.version, l.info.digest], l.object.owner] };
    const c = children.get(id)?.object;
    if (c && c.data.$kind === 'Move') return { $kind: 'Exist', Exist: [[c.data.Move.version, objectDigest(c)], c.owner] };
    return { $kind: 'NotExist', NotExist: true };
  };
  const written: ObjectChange[] = [];
  for (const [id, o] of objects) {
    const digest = objectDigest(o);
    const isPackage = o.data.$kind === 'Package';
    const kind: ObjectChange['kind'] = created.has(id) ? 'created' : loaded.objects.has(id) || children.has(id) ? 'mutated' : 'unwrapped';
    written.push({ id, kind, object: o, digest });
    changes.push([
      id,
      {
        inputState: inputState(id),
        outputState: isPackage
          ? { $kind: 'PackageWrite', PackageWrite: [o.data.$kind === 'Package' ? o.data.Package.version : f.lamport, digest] }
          : { $kind: 'ObjectWrite', ObjectWrite: [digest, o.owner] },
        idOperation: created.has(id) ? { $kind: 'Created', Created: true } : { $kind: 'None', None: true },
      },
    ]);
  }
  for (const id of f.deleted) changes.push([id, { inputState: inputState(id), outputState: { $kind: 'NotExist', NotExist: true }, idOperation: { $kind: 'Deleted', Deleted: true } }]);
  for (const id of f.wrapped) changes.push([id, { inputState: inputState(id), outputState: { $kind: 'NotExist', NotExist: true }, idOperation: { $kind: 'None', None: true } }]);
  for (const id of f.unwrappedThenDeleted)
    changes.push([id, { inputState: { $kind: 'NotExist', NotExist: true }, outputState: { $kind: 'NotExist', NotExist: true }, idOperation: { $kind: 'Deleted', Deleted: true } }]);
  changes.push(...accumulators);
  changes.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return { changes, written };
}

/** The consensus objects read and not written (read-only shared inputs, non-exclusive ones, the deny list when read), sorted by id. */
function unchangedConsensusObjects(a: FinishArgs, f: Finish): [string, UnchangedConsensusKind][] {
  const unchanged: [string, UnchangedConsensusKind][] = [];
  for (const [id, { info }] of a.loaded.objects) {
    if (info.ownerKind === 'Shared' && (!info.mutable || info.nonExclusive === true)) unchanged.push([id, { $kind: 'ReadOnlyRoot', ReadOnlyRoot: [info.version, info.digest] }]);
  }
  if (f.readDenyList) unchanged.push([DENY_LIST_ID, { $kind: 'PerEpochConfig', PerEpochConfig: true }]);
  unchanged.sort((x, y) => (x[0] < y[0] ? -1 : 1));
  return unchanged;
}

/** Finish the transaction: effects, gas, events, written objects. */
export function finishTransaction(a: FinishArgs): ExecutionResult {
  const { vm, input, loaded } = a;
  const txDigest = input.digest;
  const plan = loaded.gasPlan;
  const f: Finish = {
    failure: a.failure,
    lamport: lamportVersion(loaded),
    plan,
    gasless: isGaslessTransaction(input.protocolConfig, input.gas),
    gasId: plan?.target.kind === 'coin' ? plan.target.id : undefined,
    writes: new Map(),
    deleted: new Set(),
    wrapped: new Set(),
    unwrappedThenDeleted: new Set(),
    created: new Set(),
    children: new Map(),
    events: [],
    moveAccumulatorEvents: [],
    readDenyList: false,
    createdIds: new Set(),
    packagesRemoved: a.failure !== null,
  };
  if (f.failure !== null) keepInputsAsTheyWere(a, f);
  else applyCommands(a, f);

  const { objects, gasUsed, gasEvents } = chargeGas(a, f);
  const { failure, events } = f;
  const accumulators = accumulatorChanges([...f.moveAccumulatorEvents, ...gasEvents], events);
  const { changes, written } = changedObjects(a, f, objects, accumulators);
  const unchanged = unchangedConsensusObjects(a, f);
  const dependencies = transactionDependencies(a)
    .filter((d) => d !== txDigest)
    .sort();
  const status: ExecutionStatus =
    failure === null ? { $kind: 'Success', Success: true } : { $kind: 'Failure', Failure: { error: failure.status, command: failure.command === null ? null : BigInt(failure.command) } };
  // Created then wrapped: created ids not written at top level, found inside the written objects.
  const wrappedIds = failure === null ? [...f.createdIds].filter((id) => !f.writes.has(id)) : [];
  const createdAndWrapped =
    wrappedIds.length === 0
      ? []
      : findNestedObjects(
          vm.types,
          [...f.writes.values()].filter((w) => w.packageObject === undefined),
          wrappedIds,
        );
  const eventsDigest = events.length > 0 ? transactionEventsDigest({ data: events }) : null;
  const effects: TransactionEffects = {
    $kind: 'V2',
    V2: {
      status,
      executedEpoch: input.epoch,
      gasUsed,
      transactionDigest: txDigest,
      gasObjectIndex: f.gasId === undefined ? null : changes.findIndex(([id]) => id === f.gasId),
      eventsDigest,
      dependencies,
      lamportVersion: f.lamport,
      changedObjects: changes,
      unchangedConsensusObjects: unchanged,
      auxDataDigest: null,
    },
  };
  // The effects digest (BCS of the effects, hashed) when first read: most callers never read it.
  let effectsDigest: string | undefined;
  return {
    status: failure === null ? { $kind: 'Success' } : { $kind: 'Failure', error: failure.status, command: failure.command, message: failure.message },
    effects,
    get effectsDigest(): string {
      return (effectsDigest ??= transactionEffectsDigest(effects));
    },
    events,
    written,
    deleted: [...f.deleted, ...f.unwrappedThenDeleted],
    wrapped: [...f.wrapped],
    createdAndWrapped,
    commandResults: a.commandResults,
    gasUsed,
    loadedChildObjects: [...f.children].map(([id, c]) => ({ id, version: c.version })),
    modulesTouched: [...(a.env.modulesTouched ?? [])].sort(),
    instructions: a.env.meter?.instructions ?? 0,
    instructionsAtCommand: a.env.instructionsAtCommand ?? [],
  };
}

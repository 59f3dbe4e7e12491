/**
 * The per-transaction state of the Sui natives (upstream `ObjectRuntime` together with
 * `TransactionContext` and `ScratchRuntime`). The caller creates one per transaction and
 * installs it in the call's `extensions` under {@link OBJECT_RUNTIME_KEY}; the natives
 * record into it, and {@link ObjectRuntime.results} hands everything to the executor.
 *
 * ```ts
 * const rt = new ObjectRuntime({ tx, bcs: vm.bcs, protocolConfig, childStore });
 * vm.call('0x2::table::new', { ..., extensions: new Map([[OBJECT_RUNTIME_KEY, rt]]) });
 * rt.results(); // writes, created/deleted ids, events, loaded children...
 * ```
 */
import { canonicalAddress, errorMessage } from '@smi/bytecode';
import type { ProtocolConfig } from '../../config/protocol-config.js';
import { VmError } from '../../errors.js';
import type { BcsCodec } from '../../values/bcs.js';
import { MoveVector } from '../../values/vector.js';
import type { Type } from '../../types/runtime-type.js';
import { ChildObjectStore, type ChildObjectProvider, type Owner, type StoredObject, type ValueEnv } from './child-store.js';
import { nativeCost, type SuiNativeCostKey } from './costs.js';
import { MemoryLimitSubStatus, ObjectRuntimeError, invariantViolation, memoryLimitError, suiVmError } from './errors.js';
import { deriveObjectId, formatTypeTag, parseSuiTypeTag, type SuiTypeTag, typeKey } from './type-tag.js';
import { type ObjectRuntimeLimits, PROTOCOL_135_NATIVE_FLAGS, readObjectRuntimeLimits } from './limits.js';
import { collectUids, objectIdOf } from './values.js';

export type { Owner, StoredObject, ChildObjectProvider, ValueEnv } from './child-store.js';
export type { ObjectRuntimeLimits } from './limits.js';
export { PROTOCOL_135_OBJECT_RUNTIME_LIMITS, PROTOCOL_135_NATIVE_FLAGS } from './limits.js';

/** Key of the {@link ObjectRuntime} in a call's `extensions`. */
export const OBJECT_RUNTIME_KEY = 'sui.objectRuntime';

/** The transaction the natives see (`TxContext`). */
export interface TxContextData {
  /** Sender address. */
  sender: string;
  /** Transaction digest, 32 bytes. */
  digest: Uint8Array;
  epoch: bigint;
  epochTimestampMs: bigint;
  gasPrice: bigint;
  /** Reference gas price. */
  rgp: bigint;
  gasBudget: bigint;
  sponsor: string | null;
  /** Ids created before (default 0). */
  idsCreated?: bigint;
}

/** An input object of the transaction: its owner (to classify transfers) and version (root version of its children). */
export interface InputObject {
  id: string;
  owner: Owner;
  version: bigint;
  /** UIDs inside the object (itself included when absent). */
  containedUids?: Iterable<string>;
}

/** Loads an object sent to `parentId` (`transfer::receive`) at `version`. */
export type ReceivingObjectProvider = (parentId: string, childId: string, version: bigint) => StoredObject | undefined;

/** A package at a version (`package::original_package_id_impl`): its original id and size for gas. */
export type PackageResolver = (packageId: string, version: bigint) => { originalId: string; sizeForGas: number } | undefined;

/** Options of {@link ObjectRuntime}. */
export interface ObjectRuntimeOptions {
  tx: TxContextData;
  /** The VM's codec (`vm.bcs`): BCS of written objects in {@link ObjectRuntime.results}. */
  bcs: BcsCodec;
  /** Limits, feature flags and native costs (default: mainnet protocol 135 values). */
  protocolConfig?: ProtocolConfig;
  /** Dynamic-field children stored outside the transaction. */
  childStore?: ChildObjectProvider;
  /** Objects that can be received (`transfer::receive`). */
  receivingStore?: ReceivingObjectProvider;
  /** Packages by id and version (`package::original_package_id_impl`). */
  packages?: PackageResolver;
  inputObjects?: Iterable<InputObject>;
  /** `false` for system transactions (their larger limits). Default `true`. */
  isMetered?: boolean;
  /**
   * A `sui move test` run (upstream `TransactionContext::new_for_testing`): the test-only
   * native `tx_context::replace` may replace {@link ObjectRuntime.tx}. Default `false`.
   */
  isTest?: boolean;
}

/** Framework objects that count as new when first transferred (upstream `is_framework_obj`). */
const FRAMEWORK_OBJECTS = new Set(['0x5', '0x6', '0x7', '0x8', '0x403', '0x9', '0xacc', '0xc', '0xd', '0xa', '0xfa'].map((a) => canonicalAddress(a)));

/** Outcome of {@link ObjectRuntime.receiveObject}. */
export type ReceiveResult = { kind: 'none' } | { kind: 'mismatchedType' } | { kind: 'loaded'; value: unknown };

/** Outcome of a transfer (upstream `TransferResult`). */
export type TransferResult = 'New' | 'SameOwner' | 'OwnerChanged';

/** An object written by the transaction. */
export interface ObjectWrite {
  id: string;
  type: Type;
  /** Type tag text (defining ids). */
  typeTag: string;
  value: unknown;
  owner: Owner;
  /** BCS contents. */
  bcs: Uint8Array;
}

/** An event emitted with `event::emit`. */
export interface EmittedEvent {
  type: Type;
  typeTag: string;
  value: unknown;
  bcs: Uint8Array;
}

/** An accumulator event (upstream `MoveAccumulatorEvent`). */
export interface AccumulatorEvent {
  accumulatorId: string;
  action: 'Merge' | 'Split';
  targetAddress: string;
  targetType: SuiTypeTag;
  value: { $kind: 'U64'; amount: bigint } | { $kind: 'EventRef'; eventIndex: bigint };
}

/** A child object loaded from outside the transaction, or a received object. */
export interface LoadedChildObject {
  id: string;
  version: bigint;
  isModified: boolean;
}

/** Everything the transaction did (upstream `RuntimeResults`). */
export interface ObjectRuntimeResults {
  /** Objects written: transfers in order (an object transferred twice keeps its first position), then changed dynamic-field children (`ObjectOwner`), by id. */
  writes: ObjectWrite[];
  /** Ids created and not deleted, in creation order. */
  createdIds: string[];
  /** Ids deleted that were not created in this transaction. */
  deletedIds: string[];
  /** Every id generated, even if later deleted. */
  generatedIds: string[];
  events: EmittedEvent[];
  accumulatorEvents: AccumulatorEvent[];
  /** By id. */
  loadedChildObjects: LoadedChildObject[];
  settlementInputSui: bigint;
  settlementOutputSui: bigint;
}

interface Transfer {
  owner: Owner;
  type: Type;
  value: unknown;
}

/** A scratch-pad entry: the type key of its value, and the value. */
export interface ScratchEntry {
  key: string;
  value: unknown;
}

const U64_MAX = (1n << 64n) - 1n;

/** `owner` with its addresses in canonical form. */
function canonicalOwner(owner: Owner): Owner {
  switch (owner.$kind) {
    case 'AddressOwner':
    case 'ObjectOwner':
      return { ...owner, address: canonicalAddress(owner.address) };
    case 'ConsensusAddressOwner':
      return { ...owner, owner: canonicalAddress(owner.owner) };
    default:
      return owner;
  }
}

function ownersEqual(a: Owner, b: Owner): boolean {
  switch (a.$kind) {
    case 'AddressOwner':
    case 'ObjectOwner':
      return b.$kind === a.$kind && b.address === a.address;
    case 'Immutable':
      return b.$kind === 'Immutable';
    default:
      return false;
  }
}

/** `tx` checked (32-byte digest, valid addresses), in canonical form and frozen. */
function checkedTx(tx: TxContextData): Readonly<TxContextData> {
  if (!(tx.digest instanceof Uint8Array) || tx.digest.length !== 32) {
    throw new ObjectRuntimeError('INVALID_OPTIONS', `tx.digest must be 32 bytes, got ${tx.digest?.length}`);
  }
  try {
    const sender = canonicalAddress(tx.sender);
    const sponsor = tx.sponsor === null ? null : canonicalAddress(tx.sponsor);
    return Object.freeze({ ...tx, sender, sponsor, digest: Uint8Array.from(tx.digest) });
  } catch (e) {
    throw new ObjectRuntimeError('INVALID_OPTIONS', `bad address in tx: ${errorMessage(e)}`);
  }
}

/** Per-transaction state of the Sui natives. */
export class ObjectRuntime {
  private txData: Readonly<TxContextData>;
  readonly isTest: boolean;
  readonly protocolConfig: ProtocolConfig | null;
  readonly limits: Readonly<ObjectRuntimeLimits>;
  readonly isMetered: boolean;
  /** Dynamic-field children. */
  readonly children: ChildObjectStore;
  private readonly bcs: BcsCodec;
  private readonly receivingStore: ReceivingObjectProvider | undefined;
  private readonly packages: PackageResolver | undefined;
  private idsCreatedCount: bigint;
  private readonly inputOwners = new Map<string, Owner>();
  private readonly newIds = new Set<string>();
  private readonly generatedIds = new Set<string>();
  private readonly deletedIds = new Set<string>();
  private readonly transfers = new Map<string, Transfer>();
  private readonly events: EmittedEvent[] = [];
  private readonly accumulatorEvents: AccumulatorEvent[] = [];
  private readonly mergeTotals = new Map<string, bigint>();
  private readonly splitTotals = new Map<string, bigint>();
  private readonly received = new Map<string, bigint>();
  private readonly scratch = new Map<string, ScratchEntry>();
  private totalEventsSize = 0;
  private settlementInput = 0n;
  private settlementOutput = 0n;

  constructor(options: ObjectRuntimeOptions) {
    const tx = options.tx;
    this.txData = checkedTx(tx);
    this.idsCreatedCount = tx.idsCreated ?? 0n;
    this.isTest = options.isTest ?? false;
    this.protocolConfig = options.protocolConfig ?? null;
    this.isMetered = options.isMetered ?? true;
    this.limits = Object.freeze(readObjectRuntimeLimits(this.protocolConfig, this.isMetered));
    this.bcs = options.bcs;
    this.receivingStore = options.receivingStore;
    this.packages = options.packages;
    this.children = new ChildObjectStore({
      provider: options.childStore,
      maxCachedObjects: () => this.limits.object_runtime_max_num_cached_objects,
      maxStoreEntries: () => this.limits.object_runtime_max_num_store_entries,
      isNew: (id) => this.generatedIds.has(id),
      minimizeMutations: () => this.flag('minimize_child_object_mutations'),
    });
    for (const input of options.inputObjects ?? []) {
      const id = canonicalAddress(input.id);
      this.inputOwners.set(id, canonicalOwner(input.owner));
      this.children.addInput(id, input.version, input.containedUids === undefined ? [id] : [...input.containedUids].map((u) => canonicalAddress(u)));
    }
  }

  /** Feature flag `name` (protocol config, or the protocol-135 value). */
  flag(name: string): boolean {
    if (this.protocolConfig !== null) return this.protocolConfig.flag(name);
    return PROTOCOL_135_NATIVE_FLAGS[name] ?? false;
  }

  /** A native cost parameter under this runtime's protocol config. */
  cost(key: SuiNativeCostKey): number {
    return nativeCost(this.protocolConfig, key);
  }

  // ---- transaction context -------------------------------------------------------------

  /** The transaction the natives see. */
  get tx(): Readonly<TxContextData> {
    return this.txData;
  }

  /**
   * Test-only `tx_context::replace` (upstream `TransactionContext::replace`): the transaction
   * becomes `tx`, its id count `tx.idsCreated`. Outside a test run ({@link isTest} `false`)
   * it is an invariant violation, as upstream.
   */
  replaceTx(tx: TxContextData): void {
    if (!this.isTest) throw invariantViolation('`replace` called on a non testing scenario');
    let next: Readonly<TxContextData>;
    try {
      next = checkedTx(tx);
    } catch (e) {
      throw invariantViolation(`tx_context::replace: ${errorMessage(e)}`);
    }
    this.txData = next;
    this.idsCreatedCount = tx.idsCreated ?? 0n;
  }

  /** Ids created so far by `fresh_id` (`TxContext::ids_created`). */
  get idsCreated(): bigint {
    return this.idsCreatedCount;
  }

  /**
   * Older frameworks count ids in Move (`TxContext.ids_created`, bumped by `fresh_object_address`
   * around the `derive_id` native): after such a call the executor hands back the count the
   * `&mut TxContext` holds, so ids the runtime derives next do not repeat them.
   */
  syncIdsCreated(count: bigint): void {
    if (count > this.idsCreatedCount) this.idsCreatedCount = count;
  }

  /** `tx_context::fresh_id`: derive the next id and record it as new. */
  freshId(): string {
    const id = deriveObjectId(this.tx.digest, this.idsCreatedCount);
    this.idsCreatedCount += 1n;
    this.newId(id);
    return id;
  }

  /** The Move `TxContext` value of this transaction (fields: sender, tx_hash, epoch, epoch_timestamp_ms, ids_created). */
  txContextValue(): unknown[] {
    return [this.tx.sender, MoveVector.fromBytes(this.tx.digest), this.tx.epoch, this.tx.epochTimestampMs, this.idsCreatedCount];
  }

  // ---- ids -----------------------------------------------------------------------------

  private checkCount(count: number, limit: number, sub: bigint, what: string): void {
    if (count >= limit) throw memoryLimitError(sub, `${what} more than ${limit} IDs is not allowed`);
  }

  /** Record a new UID (`new_id`). */
  newId(id: string): void {
    this.checkCount(this.newIds.size, this.limits.max_num_new_move_object_ids, MemoryLimitSubStatus.NEW_ID_COUNT_LIMIT_EXCEEDED, 'Creating');
    if (!this.deletedIds.delete(id)) {
      this.generatedIds.add(id);
      this.newIds.add(id);
    }
  }

  /** Record a UID derived from `parent` (`object::new_uid_from_hash`), inheriting its root version. */
  newIdFromHash(parent: string, id: string): void {
    this.newId(id);
    this.children.inheritRootVersion(parent, id);
  }

  /** Record a deleted UID (`object::delete`). */
  deleteId(id: string): void {
    this.checkCount(this.deletedIds.size, this.limits.max_num_deleted_move_object_ids, MemoryLimitSubStatus.DELETED_ID_COUNT_LIMIT_EXCEEDED, 'Deleting');
    if (!this.newIds.delete(id)) this.deletedIds.add(id);
  }

  /** `true` when `id` was deleted (and was not new). */
  isDeleted(id: string): boolean {
    return this.deletedIds.has(canonicalAddress(id));
  }

  /** The owner `id` was transferred to, if it was. */
  isTransferred(id: string): Owner | undefined {
    return this.transfers.get(canonicalAddress(id))?.owner;
  }

  // ---- transfers and events ------------------------------------------------------------

  /**
   * Record the transfer of object `value` of type `type` to `owner` (upstream
   * `ObjectRuntime::transfer`). `endOfTransaction`: the executor returning an input it did
   * not consume (it must be new or keep its owner; no transfer limit).
   */
  transfer(owner: Owner, type: Type, value: unknown, endOfTransaction = false): TransferResult {
    const id = objectIdOf(value);
    const isFramework = FRAMEWORK_OBJECTS.has(id);
    let result: TransferResult;
    const prev = this.inputOwners.get(id);
    if (this.newIds.has(id)) result = 'New';
    else if (prev !== undefined) {
      if (owner.$kind === 'Shared' && prev.$kind === 'Shared') result = 'SameOwner';
      else if (owner.$kind === 'ConsensusAddressOwner' && prev.$kind === 'ConsensusAddressOwner' && owner.owner === prev.owner) result = 'SameOwner';
      else result = ownersEqual(owner, prev) ? 'SameOwner' : 'OwnerChanged';
    } else if (isFramework) {
      this.newIds.add(id);
      this.generatedIds.add(id);
      result = 'New';
    } else result = 'OwnerChanged';
    if (endOfTransaction && result === 'OwnerChanged') {
      throw new ObjectRuntimeError('INVARIANT_VIOLATION', `Untransferred object ${id} had its owner change or was not new`, { objectId: id });
    }
    if (this.isMetered && !isFramework && !endOfTransaction) {
      this.checkCount(this.transfers.size, this.limits.max_num_transferred_move_object_ids, MemoryLimitSubStatus.TRANSFER_ID_COUNT_LIMIT_EXCEEDED, 'Transferring');
    }
    this.transfers.set(id, { owner, type, value });
    return result;
  }

  /** Total abstract size of the events so far (for `max_event_emit_size_total`). */
  get totalEventSize(): number {
    return this.totalEventsSize;
  }

  /** Add to the total event size, checking `max_event_emit_size_total`. */
  addEventSize(size: number): void {
    const lim = this.limits.max_event_emit_size_total;
    if (lim === undefined) return;
    const total = this.totalEventsSize + size;
    if (total > lim) {
      throw memoryLimitError(MemoryLimitSubStatus.TOTAL_EVENT_SIZE_LIMIT_EXCEEDED, `Reached total event size of size ${total} bytes. Limit is ${lim} bytes.`);
    }
    this.totalEventsSize = total;
  }

  /** Record an event (after the size checks); its index. */
  emitEvent(type: Type, value: unknown, bcs: Uint8Array): bigint {
    const max = this.limits.max_num_event_emit;
    if (this.events.length >= max) throw memoryLimitError(MemoryLimitSubStatus.EVENT_COUNT_LIMIT_EXCEEDED, `Emitting more than ${max} events is not allowed`);
    this.events.push({ type, typeTag: typeKey(type), value, bcs });
    return BigInt(this.events.length - 1);
  }

  /** Events emitted so far. */
  emittedEvents(): readonly EmittedEvent[] {
    return this.events;
  }

  /** Record an accumulator event; merges and splits of u64 amounts per (address, type) may not pass `u64::MAX`. */
  emitAccumulatorEvent(event: AccumulatorEvent): void {
    if (event.value.$kind === 'U64') {
      const totals = event.action === 'Merge' ? this.mergeTotals : this.splitTotals;
      const key = `${event.targetAddress}|${formatTypeTag(event.targetType)}`;
      const total = (totals.get(key) ?? 0n) + event.value.amount;
      if (total > U64_MAX) {
        throw new VmError('ARITHMETIC_ERROR', `accumulator ${event.action === 'Merge' ? 'merge' : 'split'} overflow: total ${event.action === 'Merge' ? 'merges' : 'splits'} ${total} exceed u64::MAX`);
      }
      totals.set(key, total);
    }
    this.accumulatorEvents.push(event);
  }

  /** `accumulator_settlement::record_settlement_sui_conservation`. */
  recordSettlementSuiConservation(inputSui: bigint, outputSui: bigint): void {
    this.settlementInput += inputSui;
    this.settlementOutput += outputSui;
  }

  // ---- receiving -----------------------------------------------------------------------

  /**
   * `transfer::receive_impl`: the object `child` sent to `parent` at `version`, decoded as
   * `type` (upstream `ObjectRuntime::receive_object`).
   */
  receiveObject(parent: string, child: string, version: bigint, type: Type, env: ValueEnv): ReceiveResult {
    const found = this.receivingStore === undefined ? undefined : this.receivingStore(parent, child, version);
    if (found === undefined) return { kind: 'none' };
    const owner = found.owner;
    if (owner !== undefined && (owner.$kind !== 'AddressOwner' || owner.address !== parent)) {
      throw suiVmError('STORAGE_ERROR', `Bad owner for ${child}. Expected owner ${parent}`);
    }
    if (found.version !== version) throw suiVmError('STORAGE_ERROR', `Bad version for ${child}. Expected version ${version} but found version ${found.version}`);
    let key: string;
    try {
      key = formatTypeTag(parseSuiTypeTag(found.type));
    } catch {
      throw suiVmError('STORAGE_ERROR', `object ${child} has an invalid type tag`);
    }
    let result: ReceiveResult = { kind: 'mismatchedType' };
    if (key === typeKey(type)) {
      let value: unknown;
      try {
        value = env.bcs.decode(found.bcs, type);
      } catch {
        throw suiVmError('FAILED_TO_DESERIALIZE_RESOURCE', `Failed to deserialize object ${child} with type ${key}`);
      }
      for (const id of collectUids(env.types, value, type)) {
        this.children.rootVersion.set(id, version);
        if (id !== child) this.children.wrappedContainers.set(id, child);
      }
      result = { kind: 'loaded', value };
    } else if (this.flag('early_return_receive_object_mismatched_type') && this.received.has(child)) {
      return result;
    }
    if (this.received.has(child)) {
      throw invariantViolation(
        `Object ${child} at version ${version} already received. This can only happen if multiple \`Receiving\` arguments exist for the same object in the transaction which is impossible.`,
      );
    }
    this.received.set(child, version);
    return result;
  }

  // ---- packages and scratch ------------------------------------------------------------

  /** The package resolver, if the caller gave one. */
  get packageResolver(): PackageResolver | undefined {
    return this.packages;
  }

  /** `scratch::add_impl`: `'duplicate'` when the key is taken, `'limit'` past `max_scratch_pad_size`. */
  scratchAdd(key: string, type: Type, value: unknown): 'inserted' | 'duplicate' | 'limit' {
    if (this.scratch.has(key)) return 'duplicate';
    const max = this.limits.max_scratch_pad_size;
    if (max !== undefined && this.scratch.size >= max) return 'limit';
    this.scratch.set(key, { key: typeKey(type), value });
    return 'inserted';
  }

  /** The scratch entry at `key` with its type key. */
  scratchGet(key: string): ScratchEntry | undefined {
    return this.scratch.get(key);
  }

  /** Remove and return the scratch entry at `key`. */
  scratchRemove(key: string): ScratchEntry | undefined {
    const e = this.scratch.get(key);
    this.scratch.delete(key);
    return e;
  }

  // ---- results -------------------------------------------------------------------------

  /**
   * The transaction is over (its effects were taken): no more Move code runs on this runtime.
   * Drops the write watch of child objects loaded before `minimize_child_object_mutations`.
   */
  finish(): void {
    this.children.release();
  }

  /**
   * Everything recorded, with the children's end state folded in (upstream
   * `ObjectRuntime::finish`, without consuming the runtime).
   * @throws {ObjectRuntimeError} `CIRCULAR_OBJECT_OWNERSHIP`, `MOVE_OBJECT_TOO_BIG`.
   */
  results(): ObjectRuntimeResults {
    const loaded = new Map<string, LoadedChildObject>();
    for (const [id, obj] of this.children.cached) if (obj !== null) loaded.set(id, { id, version: obj.version, isModified: false });
    for (const [id, version] of this.received) loaded.set(id, { id, version, isModified: false });
    const writes = new Map<string, Transfer>(this.transfers);
    for (const eff of this.children.effects()) {
      if (!eff.changed) continue;
      const l = loaded.get(eff.id);
      if (l !== undefined) l.isModified = true;
      if (eff.finalValue !== undefined) writes.set(eff.id, { owner: { $kind: 'ObjectOwner', address: eff.owner }, type: eff.type, value: eff.finalValue });
    }
    checkCircularOwnership(writes);
    for (const id of [...this.transfers.keys(), ...this.deletedIds, ...this.received.keys()]) {
      const l = loaded.get(id);
      if (l !== undefined) l.isModified = true;
    }
    const max = this.limits.max_move_object_size;
    const out: ObjectWrite[] = [];
    for (const [id, w] of writes) {
      const bcs = this.bcs.encode(w.value, w.type);
      if (bcs.length > max) {
        throw new ObjectRuntimeError('MOVE_OBJECT_TOO_BIG', `object ${id} is ${bcs.length} bytes, more than ${max}`, { objectId: id, objectSize: bcs.length, maxObjectSize: max });
      }
      out.push({ id, type: w.type, typeTag: typeKey(w.type), value: w.value, owner: w.owner, bcs });
    }
    return {
      writes: out,
      createdIds: [...this.newIds],
      deletedIds: [...this.deletedIds],
      generatedIds: [...this.generatedIds],
      events: [...this.events],
      accumulatorEvents: [...this.accumulatorEvents],
      loadedChildObjects: [...loaded.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      settlementInputSui: this.settlementInput,
      settlementOutputSui: this.settlementOutput,
    };
  }
}

/** Upstream `check_circular_ownership`: an object may not (transitively) own itself. */
function checkCircularOwnership(writes: ReadonlyMap<string, Transfer>): void {
  const ownerOf = new Map<string, string>();
  for (const [id, w] of writes) {
    ownerOf.delete(id);
    if (w.owner.$kind !== 'ObjectOwner') continue;
    const newOwner = w.owner.address;
    let cur = newOwner;
    for (;;) {
      if (cur === id) throw new ObjectRuntimeError('CIRCULAR_OBJECT_OWNERSHIP', `circular ownership of object ${cur}`, { objectId: cur });
      const p = ownerOf.get(cur);
      if (p === undefined) break;
      cur = p;
    }
    ownerOf.set(id, newOwner);
  }
}

/** The runtime installed in `extensions`, or `undefined`. */
export function findObjectRuntime(extensions: ReadonlyMap<string, unknown>): ObjectRuntime | undefined {
  const rt = extensions.get(OBJECT_RUNTIME_KEY);
  return rt instanceof ObjectRuntime ? rt : undefined;
}

/**
 * The runtime installed in `extensions`.
 * @throws {VmError} `UNKNOWN_INVARIANT_VIOLATION_ERROR` when there is none (upstream: missing extension).
 */
export function requireObjectRuntime(extensions: ReadonlyMap<string, unknown>, native: string): ObjectRuntime {
  const rt = findObjectRuntime(extensions);
  if (rt === undefined) throw invariantViolation(`${native} needs an ObjectRuntime in the call's extensions under OBJECT_RUNTIME_KEY`);
  return rt;
}

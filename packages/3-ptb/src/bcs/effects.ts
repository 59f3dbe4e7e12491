/**
 * Transaction effects V1 and V2 (with V2's per-object changes), gas cost summary, and
 * transaction events.
 */
import { Address, Bytes, Digest, Str, U32, U64, enumType, option, struct, tuple, vector, type Codec, type Enum } from './codec.js';
import { ExecutionStatus } from './execution-status.js';
import { ObjectRef, Owner } from './object.js';
import { StructTag, TypeTag } from './type-tag.js';

/** `GasCostSummary` (serde names are camelCase upstream too). */
export interface GasCostSummary {
  computationCost: bigint;
  storageCost: bigint;
  storageRebate: bigint;
  nonRefundableStorageFee: bigint;
}

/** `GasCostSummary` codec. */
export const GasCostSummary: Codec<GasCostSummary> = struct<GasCostSummary>(
  'GasCostSummary',
  { computationCost: U64, storageCost: U64, storageRebate: U64, nonRefundableStorageFee: U64 },
  { serdeCase: 'camel' },
);

/** An object reference with its owner after the transaction. */
export type OwnedObjectRef = [ObjectRef, Owner];

const OwnedRef: Codec<OwnedObjectRef> = tuple(ObjectRef, Owner);

/** `TransactionEffectsV1`. */
export interface TransactionEffectsV1 {
  status: ExecutionStatus;
  executedEpoch: bigint;
  gasUsed: GasCostSummary;
  /** (object id, version before the transaction) of every input object it modified. */
  modifiedAtVersions: [string, bigint][];
  sharedObjects: ObjectRef[];
  transactionDigest: string;
  created: OwnedObjectRef[];
  mutated: OwnedObjectRef[];
  unwrapped: OwnedObjectRef[];
  deleted: ObjectRef[];
  unwrappedThenDeleted: ObjectRef[];
  wrapped: ObjectRef[];
  gasObject: OwnedObjectRef;
  eventsDigest: string | null;
  dependencies: string[];
}

/** `TransactionEffectsV1` codec. */
export const TransactionEffectsV1: Codec<TransactionEffectsV1> = struct<TransactionEffectsV1>('TransactionEffectsV1', {
  status: ExecutionStatus,
  executedEpoch: U64,
  gasUsed: GasCostSummary,
  modifiedAtVersions: vector(tuple(Address, U64)),
  sharedObjects: vector(ObjectRef),
  transactionDigest: Digest,
  created: vector(OwnedRef),
  mutated: vector(OwnedRef),
  unwrapped: vector(OwnedRef),
  deleted: vector(ObjectRef),
  unwrappedThenDeleted: vector(ObjectRef),
  wrapped: vector(ObjectRef),
  gasObject: OwnedRef,
  eventsDigest: option(Digest),
  dependencies: vector(Digest),
});

/** (version, digest). */
export type VersionDigest = [bigint, string];

const VersionDigest: Codec<VersionDigest> = tuple(U64, Digest);

/** Variants of {@link ObjectIn}. */
export interface ObjectInVariants {
  NotExist: true;
  /** ((version, digest), owner) before the transaction. */
  Exist: [VersionDigest, Owner];
}

/** An object's state before the transaction. */
export type ObjectIn = Enum<ObjectInVariants>;

/** `ObjectIn` codec. */
export const ObjectIn: Codec<ObjectIn> = enumType<ObjectInVariants>('ObjectIn', { NotExist: null, Exist: tuple(VersionDigest, Owner) });

/** `AccumulatorWriteV1`: a write to an accumulator. */
export interface AccumulatorWriteV1 {
  address: { address: string; ty: TypeTag };
  operation: Enum<{ Merge: true; Split: true }>;
  value: Enum<{ Integer: bigint; IntegerTuple: [bigint, bigint]; EventDigest: [bigint, string][] }>;
}

/** `AccumulatorWriteV1` codec. */
export const AccumulatorWriteV1: Codec<AccumulatorWriteV1> = struct<AccumulatorWriteV1>('AccumulatorWriteV1', {
  address: struct('AccumulatorAddress', { address: Address, ty: TypeTag }),
  operation: enumType<{ Merge: true; Split: true }>('AccumulatorOperation', { Merge: null, Split: null }),
  value: enumType<{ Integer: bigint; IntegerTuple: [bigint, bigint]; EventDigest: [bigint, string][] }>('AccumulatorValue', {
    Integer: U64,
    IntegerTuple: tuple(U64, U64),
    EventDigest: vector(tuple(U64, Digest)),
  }),
});

/** Variants of {@link ObjectOut}. */
export interface ObjectOutVariants {
  NotExist: true;
  /** (digest, owner) of the written object (at the lamport version). */
  ObjectWrite: [string, Owner];
  /** (version, digest) of a written package. */
  PackageWrite: VersionDigest;
  AccumulatorWriteV1: AccumulatorWriteV1;
}

/** An object's state after the transaction. */
export type ObjectOut = Enum<ObjectOutVariants>;

/** `ObjectOut` codec. */
export const ObjectOut: Codec<ObjectOut> = enumType<ObjectOutVariants>('ObjectOut', {
  NotExist: null,
  ObjectWrite: tuple(Digest, Owner),
  PackageWrite: VersionDigest,
  AccumulatorWriteV1,
});

/** Variants of {@link IDOperation}. */
export interface IDOperationVariants {
  None: true;
  Created: true;
  Deleted: true;
}

/** Whether the transaction created or deleted the object's id. */
export type IDOperation = Enum<IDOperationVariants>;

/** `IDOperation` codec. */
export const IDOperation: Codec<IDOperation> = enumType<IDOperationVariants>('IDOperation', { None: null, Created: null, Deleted: null });

/** `EffectsObjectChange`. */
export interface EffectsObjectChange {
  inputState: ObjectIn;
  outputState: ObjectOut;
  idOperation: IDOperation;
}

/** `EffectsObjectChange` codec. */
export const EffectsObjectChange: Codec<EffectsObjectChange> = struct<EffectsObjectChange>('EffectsObjectChange', {
  inputState: ObjectIn,
  outputState: ObjectOut,
  idOperation: IDOperation,
});

/** Variants of {@link UnchangedConsensusKind}. */
export interface UnchangedConsensusKindVariants {
  ReadOnlyRoot: VersionDigest;
  MutateConsensusStreamEnded: bigint;
  ReadConsensusStreamEnded: bigint;
  Cancelled: bigint;
  PerEpochConfig: true;
}

/** How a consensus object the transaction did not change was used. */
export type UnchangedConsensusKind = Enum<UnchangedConsensusKindVariants>;

/** `UnchangedConsensusKind` codec. */
export const UnchangedConsensusKind: Codec<UnchangedConsensusKind> = enumType<UnchangedConsensusKindVariants>('UnchangedConsensusKind', {
  ReadOnlyRoot: VersionDigest,
  MutateConsensusStreamEnded: U64,
  ReadConsensusStreamEnded: U64,
  Cancelled: U64,
  PerEpochConfig: null,
});

/** `TransactionEffectsV2`. */
export interface TransactionEffectsV2 {
  status: ExecutionStatus;
  executedEpoch: bigint;
  gasUsed: GasCostSummary;
  transactionDigest: string;
  /** Index of the gas coin in `changedObjects`. */
  gasObjectIndex: number | null;
  eventsDigest: string | null;
  dependencies: string[];
  /** The version every written object gets. */
  lamportVersion: bigint;
  changedObjects: [string, EffectsObjectChange][];
  unchangedConsensusObjects: [string, UnchangedConsensusKind][];
  auxDataDigest: string | null;
}

/** `TransactionEffectsV2` codec. */
export const TransactionEffectsV2: Codec<TransactionEffectsV2> = struct<TransactionEffectsV2>('TransactionEffectsV2', {
  status: ExecutionStatus,
  executedEpoch: U64,
  gasUsed: GasCostSummary,
  transactionDigest: Digest,
  gasObjectIndex: option(U32),
  eventsDigest: option(Digest),
  dependencies: vector(Digest),
  lamportVersion: U64,
  changedObjects: vector(tuple(Address, EffectsObjectChange)),
  unchangedConsensusObjects: vector(tuple(Address, UnchangedConsensusKind)),
  auxDataDigest: option(Digest),
});

/** Variants of {@link TransactionEffects}. */
export interface TransactionEffectsVariants {
  V1: TransactionEffectsV1;
  V2: TransactionEffectsV2;
}

/** What a transaction did. */
export type TransactionEffects = Enum<TransactionEffectsVariants>;

/** `TransactionEffects` codec. */
export const TransactionEffects: Codec<TransactionEffects> = enumType<TransactionEffectsVariants>('TransactionEffects', {
  V1: TransactionEffectsV1,
  V2: TransactionEffectsV2,
});

/** A Move event. */
export interface Event {
  packageId: string;
  transactionModule: string;
  sender: string;
  type: StructTag;
  /** BCS of the event value. */
  contents: Uint8Array;
}

/** `Event` codec. */
export const Event: Codec<Event> = struct<Event>('Event', { packageId: Address, transactionModule: Str, sender: Address, type: StructTag, contents: Bytes }, { rename: { type: 'type_' } });

/** `TransactionEvents`. */
export interface TransactionEvents {
  data: Event[];
}

/** `TransactionEvents` codec. */
export const TransactionEvents: Codec<TransactionEvents> = struct<TransactionEvents>('TransactionEvents', { data: vector(Event) });

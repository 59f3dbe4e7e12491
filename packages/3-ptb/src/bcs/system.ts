/**
 * System transaction kinds: epoch change, genesis, consensus commit prologues V1..V4,
 * authenticator state, end of epoch, randomness.
 */
import { Address, Bytes, Digest, Str, U32, U64, enumType, option, struct, tuple, vector, type Codec, type Enum } from './codec.js';
import { ObjectData, Owner } from './object.js';
import { TypeTag } from './type-tag.js';

/** `ChangeEpoch` (transaction kind 1, and inside end-of-epoch transactions). */
export interface ChangeEpoch {
  epoch: bigint;
  protocolVersion: bigint;
  storageCharge: bigint;
  computationCharge: bigint;
  storageRebate: bigint;
  nonRefundableStorageFee: bigint;
  epochStartTimestampMs: bigint;
  /** (version, modules, dependencies) of each system package to write. */
  systemPackages: [bigint, Uint8Array[], string[]][];
}

/** `ChangeEpoch` codec. */
export const ChangeEpoch: Codec<ChangeEpoch> = struct<ChangeEpoch>('ChangeEpoch', {
  epoch: U64,
  protocolVersion: U64,
  storageCharge: U64,
  computationCharge: U64,
  storageRebate: U64,
  nonRefundableStorageFee: U64,
  epochStartTimestampMs: U64,
  systemPackages: vector(tuple(U64, vector(Bytes), vector(Address))),
});

/** Variants of {@link GenesisObject}. */
export interface GenesisObjectVariants {
  RawObject: { data: ObjectData; owner: Owner };
}

/** An object written by the genesis transaction. */
export type GenesisObject = Enum<GenesisObjectVariants>;

/** `GenesisObject` codec. */
export const GenesisObject: Codec<GenesisObject> = enumType<GenesisObjectVariants>('GenesisObject', {
  RawObject: struct('RawObject', { data: ObjectData, owner: Owner }),
});

/** `GenesisTransaction`. */
export interface GenesisTransaction {
  objects: GenesisObject[];
}

/** `GenesisTransaction` codec. */
export const GenesisTransaction: Codec<GenesisTransaction> = struct<GenesisTransaction>('GenesisTransaction', { objects: vector(GenesisObject) });

/** `ConsensusCommitPrologue` (V1). */
export interface ConsensusCommitPrologue {
  epoch: bigint;
  round: bigint;
  commitTimestampMs: bigint;
}

/** `ConsensusCommitPrologue` codec. */
export const ConsensusCommitPrologue: Codec<ConsensusCommitPrologue> = struct<ConsensusCommitPrologue>('ConsensusCommitPrologue', {
  epoch: U64,
  round: U64,
  commitTimestampMs: U64,
});

/** `ConsensusCommitPrologueV2`. */
export interface ConsensusCommitPrologueV2 extends ConsensusCommitPrologue {
  consensusCommitDigest: string;
}

/** `ConsensusCommitPrologueV2` codec. */
export const ConsensusCommitPrologueV2: Codec<ConsensusCommitPrologueV2> = struct<ConsensusCommitPrologueV2>('ConsensusCommitPrologueV2', {
  epoch: U64,
  round: U64,
  commitTimestampMs: U64,
  consensusCommitDigest: Digest,
});

/** Variants of {@link ConsensusDeterminedVersionAssignments}. */
export interface ConsensusDeterminedVersionAssignmentsVariants {
  /** (transaction digest, [(object id, assigned version)]). */
  CancelledTransactions: [string, [string, bigint][]][];
  /** (transaction digest, [((object id, start version), assigned version)]). */
  CancelledTransactionsV2: [string, [[string, bigint], bigint][]][];
}

/** Versions consensus assigned to cancelled transactions. */
export type ConsensusDeterminedVersionAssignments = Enum<ConsensusDeterminedVersionAssignmentsVariants>;

/** `ConsensusDeterminedVersionAssignments` codec. */
export const ConsensusDeterminedVersionAssignments: Codec<ConsensusDeterminedVersionAssignments> = enumType<ConsensusDeterminedVersionAssignmentsVariants>('ConsensusDeterminedVersionAssignments', {
  CancelledTransactions: vector(tuple(Digest, vector(tuple(Address, U64)))),
  CancelledTransactionsV2: vector(tuple(Digest, vector(tuple(tuple(Address, U64), U64)))),
});

/** `ConsensusCommitPrologueV3`. */
export interface ConsensusCommitPrologueV3 {
  epoch: bigint;
  round: bigint;
  subDagIndex: bigint | null;
  commitTimestampMs: bigint;
  consensusCommitDigest: string;
  consensusDeterminedVersionAssignments: ConsensusDeterminedVersionAssignments;
}

/** `ConsensusCommitPrologueV3` codec. */
export const ConsensusCommitPrologueV3: Codec<ConsensusCommitPrologueV3> = struct<ConsensusCommitPrologueV3>('ConsensusCommitPrologueV3', {
  epoch: U64,
  round: U64,
  subDagIndex: option(U64),
  commitTimestampMs: U64,
  consensusCommitDigest: Digest,
  consensusDeterminedVersionAssignments: ConsensusDeterminedVersionAssignments,
});

/** `ConsensusCommitPrologueV4`. */
export interface ConsensusCommitPrologueV4 extends ConsensusCommitPrologueV3 {
  additionalStateDigest: string;
}

/** `ConsensusCommitPrologueV4` codec. */
export const ConsensusCommitPrologueV4: Codec<ConsensusCommitPrologueV4> = struct<ConsensusCommitPrologueV4>('ConsensusCommitPrologueV4', {
  epoch: U64,
  round: U64,
  subDagIndex: option(U64),
  commitTimestampMs: U64,
  consensusCommitDigest: Digest,
  consensusDeterminedVersionAssignments: ConsensusDeterminedVersionAssignments,
  additionalStateDigest: Digest,
});

/** A JSON web key id (`JwkId`). */
export interface JwkId {
  iss: string;
  kid: string;
}

/** A JSON web key (`JWK`). */
export interface Jwk {
  kty: string;
  e: string;
  n: string;
  alg: string;
}

/** `ActiveJwk`. */
export interface ActiveJwk {
  jwkId: JwkId;
  jwk: Jwk;
  epoch: bigint;
}

/** `ActiveJwk` codec. */
export const ActiveJwk: Codec<ActiveJwk> = struct<ActiveJwk>('ActiveJwk', {
  jwkId: struct<JwkId>('JwkId', { iss: Str, kid: Str }),
  jwk: struct<Jwk>('JWK', { kty: Str, e: Str, n: Str, alg: Str }),
  epoch: U64,
});

/** `AuthenticatorStateUpdate`. */
export interface AuthenticatorStateUpdate {
  epoch: bigint;
  round: bigint;
  newActiveJwks: ActiveJwk[];
  authenticatorObjInitialSharedVersion: bigint;
}

/** `AuthenticatorStateUpdate` codec. */
export const AuthenticatorStateUpdate: Codec<AuthenticatorStateUpdate> = struct<AuthenticatorStateUpdate>('AuthenticatorStateUpdate', {
  epoch: U64,
  round: U64,
  newActiveJwks: vector(ActiveJwk),
  authenticatorObjInitialSharedVersion: U64,
});

/** `RandomnessStateUpdate`. */
export interface RandomnessStateUpdate {
  epoch: bigint;
  randomnessRound: bigint;
  randomBytes: Uint8Array;
  randomnessObjInitialSharedVersion: bigint;
}

/** `RandomnessStateUpdate` codec. */
export const RandomnessStateUpdate: Codec<RandomnessStateUpdate> = struct<RandomnessStateUpdate>('RandomnessStateUpdate', {
  epoch: U64,
  randomnessRound: U64,
  randomBytes: Bytes,
  randomnessObjInitialSharedVersion: U64,
});

/** Variants of {@link ExecutionTimeObservationKey}. */
export interface ExecutionTimeObservationKeyVariants {
  MoveEntryPoint: { package: string; module: string; function: string; typeArguments: TypeTag[] };
  TransferObjects: true;
  SplitCoins: true;
  MergeCoins: true;
  Publish: true;
  MakeMoveVec: true;
  Upgrade: true;
}

/** What an execution-time observation is about. */
export type ExecutionTimeObservationKey = Enum<ExecutionTimeObservationKeyVariants>;

/** `ExecutionTimeObservationKey` codec. */
export const ExecutionTimeObservationKey: Codec<ExecutionTimeObservationKey> = enumType<ExecutionTimeObservationKeyVariants>('ExecutionTimeObservationKey', {
  MoveEntryPoint: struct('MoveEntryPoint', { package: Address, module: Str, function: Str, typeArguments: vector(TypeTag) }),
  TransferObjects: null,
  SplitCoins: null,
  MergeCoins: null,
  Publish: null,
  MakeMoveVec: null,
  Upgrade: null,
});

/** A duration (`std::time::Duration`). */
export interface Duration {
  secs: bigint;
  nanos: number;
}

/** Variants of {@link StoredExecutionTimeObservations}. */
export interface StoredExecutionTimeObservationsVariants {
  /** (key, [(authority public key bytes, duration)]). */
  V1: [ExecutionTimeObservationKey, [Uint8Array, Duration][]][];
}

/** `StoredExecutionTimeObservations`. */
export type StoredExecutionTimeObservations = Enum<StoredExecutionTimeObservationsVariants>;

/** `StoredExecutionTimeObservations` codec. */
export const StoredExecutionTimeObservations: Codec<StoredExecutionTimeObservations> = enumType<StoredExecutionTimeObservationsVariants>('StoredExecutionTimeObservations', {
  V1: vector(tuple(ExecutionTimeObservationKey, vector(tuple(Bytes, struct<Duration>('Duration', { secs: U64, nanos: U32 }))))),
});

/** Variants of {@link EndOfEpochTransactionKind}. */
export interface EndOfEpochTransactionKindVariants {
  ChangeEpoch: ChangeEpoch;
  AuthenticatorStateCreate: true;
  AuthenticatorStateExpire: { minEpoch: bigint; authenticatorObjInitialSharedVersion: bigint };
  RandomnessStateCreate: true;
  DenyListStateCreate: true;
  /** The chain identifier (a checkpoint digest). */
  BridgeStateCreate: string;
  /** The bridge object's initial shared version. */
  BridgeCommitteeInit: bigint;
  StoreExecutionTimeObservations: StoredExecutionTimeObservations;
  AccumulatorRootCreate: true;
  CoinRegistryCreate: true;
  DisplayRegistryCreate: true;
  AddressAliasStateCreate: true;
  WriteAccumulatorStorageCost: { storageCost: bigint };
  ForwardingAddressRegistryCreate: true;
}

/** One step of an end-of-epoch transaction. */
export type EndOfEpochTransactionKind = Enum<EndOfEpochTransactionKindVariants>;

/** `EndOfEpochTransactionKind` codec. */
export const EndOfEpochTransactionKind: Codec<EndOfEpochTransactionKind> = enumType<EndOfEpochTransactionKindVariants>('EndOfEpochTransactionKind', {
  ChangeEpoch,
  AuthenticatorStateCreate: null,
  AuthenticatorStateExpire: struct('AuthenticatorStateExpire', { minEpoch: U64, authenticatorObjInitialSharedVersion: U64 }),
  RandomnessStateCreate: null,
  DenyListStateCreate: null,
  BridgeStateCreate: Digest,
  BridgeCommitteeInit: U64,
  StoreExecutionTimeObservations: StoredExecutionTimeObservations,
  AccumulatorRootCreate: null,
  CoinRegistryCreate: null,
  DisplayRegistryCreate: null,
  AddressAliasStateCreate: null,
  WriteAccumulatorStorageCost: struct('WriteAccumulatorStorageCost', { storageCost: U64 }),
  ForwardingAddressRegistryCreate: null,
});

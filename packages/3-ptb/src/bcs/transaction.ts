/**
 * Transactions: programmable transaction blocks (inputs and commands), every transaction
 * kind, gas data, expiration, `TransactionData` and the signed envelope.
 */
import { Address, Bytes, Digest, Str, U16, U32, U64, U8, enumType, option, struct, tuple, vector, type Codec, type Enum } from './codec.js';
import { ObjectRef } from './object.js';
import {
  AuthenticatorStateUpdate,
  ChangeEpoch,
  ConsensusCommitPrologue,
  ConsensusCommitPrologueV2,
  ConsensusCommitPrologueV3,
  ConsensusCommitPrologueV4,
  EndOfEpochTransactionKind,
  GenesisTransaction,
  RandomnessStateUpdate,
} from './system.js';
import { TypeTag } from './type-tag.js';
import { BcsError } from '@smi/move-vm';

/** Variants of {@link Argument}. */
export interface ArgumentVariants {
  GasCoin: true;
  Input: number;
  Result: number;
  /** (command index, result index). */
  NestedResult: [number, number];
}

/** A command argument: the gas coin, an input, a command's result, or one of its results. */
export type Argument = Enum<ArgumentVariants>;

/** `Argument` codec. */
export const Argument: Codec<Argument> = enumType<ArgumentVariants>('Argument', {
  GasCoin: null,
  Input: U16,
  Result: U16,
  NestedResult: tuple(U16, U16),
});

/** Variants of {@link SharedObjectMutability} (older data: a bool, `false`/`true` = `Immutable`/`Mutable`). */
export interface SharedObjectMutabilityVariants {
  Immutable: true;
  Mutable: true;
  NonExclusiveWrite: true;
}

/** How a transaction uses a shared object. */
export type SharedObjectMutability = Enum<SharedObjectMutabilityVariants>;

/** `SharedObjectMutability` codec. */
export const SharedObjectMutability: Codec<SharedObjectMutability> = enumType<SharedObjectMutabilityVariants>('SharedObjectMutability', {
  Immutable: null,
  Mutable: null,
  NonExclusiveWrite: null,
});

/** A shared object input (`ObjectArg::SharedObject`; serde names the id `id`). */
export interface SharedObjectRef {
  objectId: string;
  initialSharedVersion: bigint;
  mutability: SharedObjectMutability;
}

/** Variants of {@link ObjectArg}. */
export interface ObjectArgVariants {
  ImmOrOwnedObject: ObjectRef;
  SharedObject: SharedObjectRef;
  Receiving: ObjectRef;
}

/** An object input. */
export type ObjectArg = Enum<ObjectArgVariants>;

/** `ObjectArg` codec. */
export const ObjectArg: Codec<ObjectArg> = enumType<ObjectArgVariants>('ObjectArg', {
  ImmOrOwnedObject: ObjectRef,
  SharedObject: struct<SharedObjectRef>('SharedObject', { objectId: Address, initialSharedVersion: U64, mutability: SharedObjectMutability }, { rename: { objectId: 'id' } }),
  Receiving: ObjectRef,
});

/** A funds-withdrawal input (`FundsWithdrawalArg`). */
export interface FundsWithdrawalArg {
  reservation: Enum<{ MaxAmountU64: bigint }>;
  typeArg: Enum<{ Balance: TypeTag }>;
  withdrawFrom: Enum<{ Sender: true; Sponsor: true }>;
}

/** `FundsWithdrawalArg` codec. */
export const FundsWithdrawalArg: Codec<FundsWithdrawalArg> = struct<FundsWithdrawalArg>('FundsWithdrawalArg', {
  reservation: enumType<{ MaxAmountU64: bigint }>('Reservation', { MaxAmountU64: U64 }),
  typeArg: enumType<{ Balance: TypeTag }>('WithdrawalTypeArg', { Balance: TypeTag }),
  withdrawFrom: enumType<{ Sender: true; Sponsor: true }>('WithdrawFrom', { Sender: null, Sponsor: null }),
});

/** Variants of {@link CallArg}. */
export interface CallArgVariants {
  /** BCS bytes of a pure value (serde writes the bytes bare). */
  Pure: { bytes: Uint8Array };
  Object: ObjectArg;
  FundsWithdrawal: FundsWithdrawalArg;
}

/** A PTB input. */
export type CallArg = Enum<CallArgVariants>;

/** `CallArg` codec. */
export const CallArg: Codec<CallArg> = enumType<CallArgVariants>('CallArg', {
  Pure: struct('Pure', { bytes: Bytes }, { serde: 'newtype' }),
  Object: ObjectArg,
  FundsWithdrawal: FundsWithdrawalArg,
});

/** `ProgrammableMoveCall`. */
export interface ProgrammableMoveCall {
  package: string;
  module: string;
  function: string;
  /** `TypeInput`s upstream; same layout as type tags. */
  typeArguments: TypeTag[];
  arguments: Argument[];
}

/** `ProgrammableMoveCall` codec. */
export const ProgrammableMoveCall: Codec<ProgrammableMoveCall> = struct<ProgrammableMoveCall>('ProgrammableMoveCall', {
  package: Address,
  module: Str,
  function: Str,
  typeArguments: vector(TypeTag),
  arguments: vector(Argument),
});

/** Variants of {@link Command}; the struct payloads are tuples in serde. */
export interface CommandVariants {
  MoveCall: ProgrammableMoveCall;
  TransferObjects: { objects: Argument[]; address: Argument };
  SplitCoins: { coin: Argument; amounts: Argument[] };
  MergeCoins: { destination: Argument; sources: Argument[] };
  Publish: { modules: Uint8Array[]; dependencies: string[] };
  MakeMoveVec: { type: TypeTag | null; elements: Argument[] };
  Upgrade: { modules: Uint8Array[]; dependencies: string[]; package: string; ticket: Argument };
}

/** A PTB command. */
export type Command = Enum<CommandVariants>;

/** `Command` codec. */
export const Command: Codec<Command> = enumType<CommandVariants>('Command', {
  MoveCall: ProgrammableMoveCall,
  TransferObjects: struct('TransferObjects', { objects: vector(Argument), address: Argument }, { serde: 'tuple' }),
  SplitCoins: struct('SplitCoins', { coin: Argument, amounts: vector(Argument) }, { serde: 'tuple' }),
  MergeCoins: struct('MergeCoins', { destination: Argument, sources: vector(Argument) }, { serde: 'tuple' }),
  Publish: struct('Publish', { modules: vector(Bytes), dependencies: vector(Address) }, { serde: 'tuple' }),
  MakeMoveVec: struct('MakeMoveVec', { type: option(TypeTag), elements: vector(Argument) }, { serde: 'tuple' }),
  Upgrade: struct('Upgrade', { modules: vector(Bytes), dependencies: vector(Address), package: Address, ticket: Argument }, { serde: 'tuple' }),
});

/** A programmable transaction block. */
export interface ProgrammableTransaction {
  inputs: CallArg[];
  commands: Command[];
}

/** `ProgrammableTransaction` codec. */
export const ProgrammableTransaction: Codec<ProgrammableTransaction> = struct<ProgrammableTransaction>('ProgrammableTransaction', {
  inputs: vector(CallArg),
  commands: vector(Command),
});

/** Variants of {@link TransactionKind} (index order). */
export interface TransactionKindVariants {
  ProgrammableTransaction: ProgrammableTransaction;
  ChangeEpoch: ChangeEpoch;
  Genesis: GenesisTransaction;
  ConsensusCommitPrologue: ConsensusCommitPrologue;
  AuthenticatorStateUpdate: AuthenticatorStateUpdate;
  EndOfEpochTransaction: EndOfEpochTransactionKind[];
  RandomnessStateUpdate: RandomnessStateUpdate;
  ConsensusCommitPrologueV2: ConsensusCommitPrologueV2;
  ConsensusCommitPrologueV3: ConsensusCommitPrologueV3;
  ConsensusCommitPrologueV4: ConsensusCommitPrologueV4;
  ProgrammableSystemTransaction: ProgrammableTransaction;
}

/** What a transaction does. */
export type TransactionKind = Enum<TransactionKindVariants>;

/** `TransactionKind` codec. */
export const TransactionKind: Codec<TransactionKind> = enumType<TransactionKindVariants>('TransactionKind', {
  ProgrammableTransaction,
  ChangeEpoch,
  Genesis: GenesisTransaction,
  ConsensusCommitPrologue,
  AuthenticatorStateUpdate,
  EndOfEpochTransaction: vector(EndOfEpochTransactionKind),
  RandomnessStateUpdate,
  ConsensusCommitPrologueV2,
  ConsensusCommitPrologueV3,
  ConsensusCommitPrologueV4,
  ProgrammableSystemTransaction: ProgrammableTransaction,
});

/** `GasData`. */
export interface GasData {
  payment: ObjectRef[];
  owner: string;
  price: bigint;
  budget: bigint;
}

/** `GasData` codec. */
export const GasData: Codec<GasData> = struct<GasData>('GasData', { payment: vector(ObjectRef), owner: Address, price: U64, budget: U64 });

/** Bounds of a `ValidDuring` expiration. */
export interface ValidDuring {
  minEpoch: bigint | null;
  maxEpoch: bigint | null;
  minTimestamp: bigint | null;
  maxTimestamp: bigint | null;
  /** Chain identifier (genesis checkpoint digest). */
  chain: string;
  nonce: number;
}

/** Bounds of a `Validity` expiration. */
export interface Validity extends ValidDuring {
  allowedProposers: { epoch: bigint; proposers: number[] } | null;
}

/** Variants of {@link TransactionExpiration}. */
export interface TransactionExpirationVariants {
  None: true;
  Epoch: bigint;
  ValidDuring: ValidDuring;
  Validity: Validity;
}

/** When a transaction stops being valid. */
export type TransactionExpiration = Enum<TransactionExpirationVariants>;

const bounds = { minEpoch: option(U64), maxEpoch: option(U64), minTimestamp: option(U64), maxTimestamp: option(U64), chain: Digest, nonce: U32 };

/** `TransactionExpiration` codec. */
export const TransactionExpiration: Codec<TransactionExpiration> = enumType<TransactionExpirationVariants>('TransactionExpiration', {
  None: null,
  Epoch: U64,
  ValidDuring: struct<ValidDuring>('ValidDuring', bounds),
  Validity: struct<Validity>('Validity', {
    ...bounds,
    allowedProposers: option(struct('AllowedProposers', { epoch: U64, proposers: vector(U32) })),
  }),
});

/** `TransactionDataV1`. */
export interface TransactionDataV1 {
  kind: TransactionKind;
  sender: string;
  gasData: GasData;
  expiration: TransactionExpiration;
}

/** `TransactionDataV1` codec. */
export const TransactionDataV1: Codec<TransactionDataV1> = struct<TransactionDataV1>('TransactionDataV1', {
  kind: TransactionKind,
  sender: Address,
  gasData: GasData,
  expiration: TransactionExpiration,
});

/** Variants of {@link TransactionData}. */
export interface TransactionDataVariants {
  V1: TransactionDataV1;
}

/** What a sender signs; its digest is the transaction digest. */
export type TransactionData = Enum<TransactionDataVariants>;

/** `TransactionData` codec. */
export const TransactionData: Codec<TransactionData> = enumType<TransactionDataVariants>('TransactionData', { V1: TransactionDataV1 });

/** `Intent` (scope 0 = transaction data, version 0, app id 0 = Sui). */
export interface Intent {
  scope: number;
  version: number;
  appId: number;
}

/** `Intent` codec. */
export const Intent: Codec<Intent> = struct<Intent>('Intent', { scope: U8, version: U8, appId: U8 });

/** `IntentMessage<TransactionData>`. */
export interface IntentMessage {
  intent: Intent;
  value: TransactionData;
}

/** `IntentMessage<TransactionData>` codec. */
export const IntentMessage: Codec<IntentMessage> = struct<IntentMessage>('IntentMessage', { intent: Intent, value: TransactionData });

/** `SenderSignedTransaction`: the intent message and its signatures (`GenericSignature` bytes: flag, signature, key...). */
export interface SenderSignedTransaction {
  intentMessage: IntentMessage;
  txSignatures: Uint8Array[];
}

/** `SenderSignedTransaction` codec. */
export const SenderSignedTransaction: Codec<SenderSignedTransaction> = struct<SenderSignedTransaction>('SenderSignedTransaction', {
  intentMessage: IntentMessage,
  txSignatures: vector(Bytes),
});

/** `SenderSignedData`: always one transaction in practice. */
export type SenderSignedData = SenderSignedTransaction[];

/** `SenderSignedData` codec. */
export const SenderSignedData: Codec<SenderSignedData> = vector(SenderSignedTransaction);

/** A signed transaction (`Envelope<SenderSignedData, EmptySignInfo>`; the sign info is empty). */
export interface Transaction {
  data: SenderSignedData;
  authSignature: Record<string, never>;
}

/** `Transaction` codec. */
export const Transaction: Codec<Transaction> = struct<Transaction>('Transaction', {
  data: SenderSignedData,
  authSignature: struct<Record<string, never>>('EmptySignInfo', {}),
});

/** The `TransactionData` inside a signed transaction. */
export function transactionDataOf(tx: Transaction | SenderSignedData): TransactionData {
  const data = Array.isArray(tx) ? tx : tx.data;
  const first = data[0];
  if (first === undefined) throw new BcsError('BCS_INVALID_VALUE', 'empty SenderSignedData');
  return first.intentMessage.value;
}

/**
 * Execution status of a transaction: success, or the failure kind (upstream
 * `ExecutionFailureStatus`, called `ExecutionErrorKind` in the serde schema) with the
 * index of the failing command.
 */
import { Address, Bytes, Str, U16, U64, U8, enumType, option, struct, tuple, vector, type Codec, type Enum } from './codec.js';

/** `ModuleId`: `address::name`. */
export interface ModuleId {
  address: string;
  name: string;
}

/** `ModuleId` codec. */
export const ModuleId: Codec<ModuleId> = struct<ModuleId>('ModuleId', { address: Address, name: Str });

/** Where a Move error happened (`MoveLocation`). */
export interface MoveLocation {
  module: ModuleId;
  /** Function definition index. */
  function: number;
  /** Bytecode offset. */
  instruction: number;
  functionName: string | null;
}

/** `MoveLocation` codec. */
export const MoveLocation: Codec<MoveLocation> = struct<MoveLocation>('MoveLocation', {
  module: ModuleId,
  function: U16,
  instruction: U16,
  functionName: option(Str),
});

/** Variants of {@link CommandArgumentError}. */
export interface CommandArgumentErrorVariants {
  TypeMismatch: true;
  InvalidBCSBytes: true;
  InvalidUsageOfPureArg: true;
  InvalidArgumentToPrivateEntryFunction: true;
  IndexOutOfBounds: { idx: number };
  SecondaryIndexOutOfBounds: { resultIdx: number; secondaryIdx: number };
  InvalidResultArity: { resultIdx: number };
  InvalidGasCoinUsage: true;
  InvalidValueUsage: true;
  InvalidObjectByValue: true;
  InvalidObjectByMutRef: true;
  SharedObjectOperationNotAllowed: true;
  InvalidArgumentArity: true;
  InvalidTransferObject: true;
  InvalidMakeMoveVecNonObjectArgument: true;
  ArgumentWithoutValue: true;
  CannotMoveBorrowedValue: true;
  CannotWriteToExtendedReference: true;
  InvalidReferenceArgument: true;
  InvalidTxContext: true;
}

/** Why a command argument was rejected. */
export type CommandArgumentError = Enum<CommandArgumentErrorVariants>;

/** `CommandArgumentError` codec. */
export const CommandArgumentError: Codec<CommandArgumentError> = enumType<CommandArgumentErrorVariants>('CommandArgumentError', {
  TypeMismatch: null,
  InvalidBCSBytes: null,
  InvalidUsageOfPureArg: null,
  InvalidArgumentToPrivateEntryFunction: null,
  IndexOutOfBounds: struct('IndexOutOfBounds', { idx: U16 }),
  SecondaryIndexOutOfBounds: struct('SecondaryIndexOutOfBounds', { resultIdx: U16, secondaryIdx: U16 }),
  InvalidResultArity: struct('InvalidResultArity', { resultIdx: U16 }),
  InvalidGasCoinUsage: null,
  InvalidValueUsage: null,
  InvalidObjectByValue: null,
  InvalidObjectByMutRef: null,
  SharedObjectOperationNotAllowed: null,
  InvalidArgumentArity: null,
  InvalidTransferObject: null,
  InvalidMakeMoveVecNonObjectArgument: null,
  ArgumentWithoutValue: null,
  CannotMoveBorrowedValue: null,
  CannotWriteToExtendedReference: null,
  InvalidReferenceArgument: null,
  InvalidTxContext: null,
});

/** Variants of {@link TypeArgumentError}. */
export interface TypeArgumentErrorVariants {
  TypeNotFound: true;
  ConstraintNotSatisfied: true;
}

/** Why a type argument was rejected. */
export type TypeArgumentError = Enum<TypeArgumentErrorVariants>;

/** `TypeArgumentError` codec. */
export const TypeArgumentError: Codec<TypeArgumentError> = enumType<TypeArgumentErrorVariants>('TypeArgumentError', {
  TypeNotFound: null,
  ConstraintNotSatisfied: null,
});

/** Variants of {@link PackageUpgradeError}. */
export interface PackageUpgradeErrorVariants {
  UnableToFetchPackage: { packageId: string };
  NotAPackage: { objectId: string };
  IncompatibleUpgrade: true;
  DigestDoesNotMatch: { digest: Uint8Array };
  UnknownUpgradePolicy: { policy: number };
  PackageIDDoesNotMatch: { packageId: string; ticketId: string };
}

/** Why a package upgrade failed. */
export type PackageUpgradeError = Enum<PackageUpgradeErrorVariants>;

/** `PackageUpgradeError` codec. */
export const PackageUpgradeError: Codec<PackageUpgradeError> = enumType<PackageUpgradeErrorVariants>('PackageUpgradeError', {
  UnableToFetchPackage: struct('UnableToFetchPackage', { packageId: Address }),
  NotAPackage: struct('NotAPackage', { objectId: Address }),
  IncompatibleUpgrade: null,
  DigestDoesNotMatch: struct('DigestDoesNotMatch', { digest: Bytes }),
  UnknownUpgradePolicy: struct('UnknownUpgradePolicy', { policy: U8 }),
  PackageIDDoesNotMatch: struct('PackageIDDoesNotMatch', { packageId: Address, ticketId: Address }),
});

type Sizes = { objectSize: bigint; maxObjectSize: bigint };
type Current = { currentSize: bigint; maxSize: bigint };
type Scaled = { valueSize: bigint; maxScaledSize: bigint };

/** Variants of {@link ExecutionFailureStatus} (index order of `ExecutionErrorKind`). */
export interface ExecutionFailureStatusVariants {
  InsufficientGas: true;
  InvalidGasObject: true;
  InvariantViolation: true;
  FeatureNotYetSupported: true;
  MoveObjectTooBig: Sizes;
  MovePackageTooBig: Sizes;
  CircularObjectOwnership: { object: string };
  InsufficientCoinBalance: true;
  CoinBalanceOverflow: true;
  PublishErrorNonZeroAddress: true;
  SuiMoveVerificationError: true;
  /** Location, when known, of an arithmetic or vector error. */
  MovePrimitiveRuntimeError: MoveLocation | null;
  /** (location, abort code). */
  MoveAbort: [MoveLocation, bigint];
  VMVerificationOrDeserializationError: true;
  VMInvariantViolation: true;
  FunctionNotFound: true;
  ArityMismatch: true;
  TypeArityMismatch: true;
  NonEntryFunctionInvoked: true;
  CommandArgumentError: { argIdx: number; kind: CommandArgumentError };
  TypeArgumentError: { argumentIdx: number; kind: TypeArgumentError };
  UnusedValueWithoutDrop: { resultIdx: number; secondaryIdx: number };
  InvalidPublicFunctionReturnType: { idx: number };
  InvalidTransferObject: true;
  EffectsTooLarge: Current;
  PublishUpgradeMissingDependency: true;
  PublishUpgradeDependencyDowngrade: true;
  PackageUpgradeError: { upgradeError: PackageUpgradeError };
  WrittenObjectsTooLarge: Current;
  CertificateDenied: true;
  SuiMoveVerificationTimedout: true;
  SharedObjectOperationNotAllowed: true;
  InputObjectDeleted: true;
  ExecutionCancelledDueToSharedObjectCongestion: { congestedObjects: string[] };
  AddressDeniedForCoin: { address: string; coinType: string };
  CoinTypeGlobalPause: { coinType: string };
  ExecutionCancelledDueToRandomnessUnavailable: true;
  MoveVectorElemTooBig: Scaled;
  MoveRawValueTooBig: Scaled;
  InvalidLinkage: true;
  InsufficientFundsForWithdraw: true;
  NonExclusiveWriteInputObjectModified: { id: string };
}

/** Why a transaction failed. */
export type ExecutionFailureStatus = Enum<ExecutionFailureStatusVariants>;

const sizes = (name: string): Codec<Sizes> => struct<Sizes>(name, { objectSize: U64, maxObjectSize: U64 });
const current = (name: string): Codec<Current> => struct<Current>(name, { currentSize: U64, maxSize: U64 });
const scaled = (name: string): Codec<Scaled> => struct<Scaled>(name, { valueSize: U64, maxScaledSize: U64 });

/** `ExecutionFailureStatus` (`ExecutionErrorKind`) codec. */
export const ExecutionFailureStatus: Codec<ExecutionFailureStatus> = enumType<ExecutionFailureStatusVariants>('ExecutionErrorKind', {
  InsufficientGas: null,
  InvalidGasObject: null,
  InvariantViolation: null,
  FeatureNotYetSupported: null,
  MoveObjectTooBig: sizes('MoveObjectTooBig'),
  MovePackageTooBig: sizes('MovePackageTooBig'),
  CircularObjectOwnership: struct('CircularObjectOwnership', { object: Address }),
  InsufficientCoinBalance: null,
  CoinBalanceOverflow: null,
  PublishErrorNonZeroAddress: null,
  SuiMoveVerificationError: null,
  MovePrimitiveRuntimeError: option(MoveLocation),
  MoveAbort: tuple(MoveLocation, U64),
  VMVerificationOrDeserializationError: null,
  VMInvariantViolation: null,
  FunctionNotFound: null,
  ArityMismatch: null,
  TypeArityMismatch: null,
  NonEntryFunctionInvoked: null,
  CommandArgumentError: struct('CommandArgumentError', { argIdx: U16, kind: CommandArgumentError }),
  TypeArgumentError: struct('TypeArgumentError', { argumentIdx: U16, kind: TypeArgumentError }),
  UnusedValueWithoutDrop: struct('UnusedValueWithoutDrop', { resultIdx: U16, secondaryIdx: U16 }),
  InvalidPublicFunctionReturnType: struct('InvalidPublicFunctionReturnType', { idx: U16 }),
  InvalidTransferObject: null,
  EffectsTooLarge: current('EffectsTooLarge'),
  PublishUpgradeMissingDependency: null,
  PublishUpgradeDependencyDowngrade: null,
  PackageUpgradeError: struct('PackageUpgradeError', { upgradeError: PackageUpgradeError }),
  WrittenObjectsTooLarge: current('WrittenObjectsTooLarge'),
  CertificateDenied: null,
  SuiMoveVerificationTimedout: null,
  SharedObjectOperationNotAllowed: null,
  InputObjectDeleted: null,
  ExecutionCancelledDueToSharedObjectCongestion: struct('ExecutionCancelledDueToSharedObjectCongestion', {
    congestedObjects: vector(Address),
  }),
  AddressDeniedForCoin: struct('AddressDeniedForCoin', { address: Address, coinType: Str }),
  CoinTypeGlobalPause: struct('CoinTypeGlobalPause', { coinType: Str }),
  ExecutionCancelledDueToRandomnessUnavailable: null,
  MoveVectorElemTooBig: scaled('MoveVectorElemTooBig'),
  MoveRawValueTooBig: scaled('MoveRawValueTooBig'),
  InvalidLinkage: null,
  InsufficientFundsForWithdraw: null,
  NonExclusiveWriteInputObjectModified: struct('NonExclusiveWriteInputObjectModified', { id: Address }),
});

/** Variants of {@link ExecutionStatus}. */
export interface ExecutionStatusVariants {
  Success: true;
  /** The failure, and the index of the command that failed (when one did). */
  Failure: { error: ExecutionFailureStatus; command: bigint | null };
}

/** Outcome of a transaction. */
export type ExecutionStatus = Enum<ExecutionStatusVariants>;

/** `ExecutionStatus` codec. */
export const ExecutionStatus: Codec<ExecutionStatus> = enumType<ExecutionStatusVariants>('ExecutionStatus', {
  Success: null,
  Failure: struct('ExecutionFailure', { error: ExecutionFailureStatus, command: option(U64) }),
});

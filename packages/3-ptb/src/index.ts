/**
 * @smi/ptb: Sui transactions for SMI. Today: the BCS codecs of Sui types (objects,
 * transactions, effects, events, checkpoints) with their exact upstream layouts, digests,
 * object ids, and serde JSON reading. The PTB executor comes next.
 */

// Codecs and the generic entry points
export { suiBcs } from './bcs/index.js';
export { encodeBcs } from './bcs/shape-encoder.js';
export {
  decodeBcs,
  shapeOf,
  digestToBase58,
  digestFromBase58,
} from './bcs/codec.js';
export type { Codec, AnyCodec, Enum, Shape, FieldShape, VariantShape, LeafKind } from './bcs/codec.js';
export { fromSerdeJson } from './bcs/serde-json.js';
export type { Json } from './bcs/serde-json.js';

// Type tags
export { formatTypeTag, formatStructTag, parseTypeTag } from './bcs/type-tag.js';
export type { TypeTag, TypeTagVariants, StructTag, FormatTypeTagOptions } from './bcs/type-tag.js';

// Objects
export { objectIdOf, objectVersionOf, moveObjectTypeToStructTag, moveObjectTypeFromStructTag } from './bcs/object.js';
export type {
  ObjectRef,
  Owner,
  OwnerVariants,
  PartyPermissions,
  MoveObjectType,
  MoveObjectTypeVariants,
  MoveObject,
  MovePackage,
  TypeOrigin,
  UpgradeInfo,
  ObjectData,
  ObjectDataVariants,
  SuiObject,
} from './bcs/object.js';

// Transactions
export { transactionDataOf } from './bcs/transaction.js';
export type {
  Argument,
  ArgumentVariants,
  SharedObjectMutability,
  SharedObjectRef,
  ObjectArg,
  ObjectArgVariants,
  FundsWithdrawalArg,
  CallArg,
  CallArgVariants,
  ProgrammableMoveCall,
  Command,
  CommandVariants,
  ProgrammableTransaction,
  TransactionKind,
  TransactionKindVariants,
  GasData,
  ValidDuring,
  Validity,
  TransactionExpiration,
  TransactionExpirationVariants,
  TransactionData,
  Intent,
  IntentMessage,
  SenderSignedTransaction,
  SenderSignedData,
  Transaction,
} from './bcs/transaction.js';
export type {
  ChangeEpoch,
  GenesisObject,
  GenesisTransaction,
  ConsensusCommitPrologue,
  ConsensusCommitPrologueV2,
  ConsensusCommitPrologueV3,
  ConsensusCommitPrologueV4,
  ConsensusDeterminedVersionAssignments,
  JwkId,
  Jwk,
  ActiveJwk,
  AuthenticatorStateUpdate,
  RandomnessStateUpdate,
  StoredExecutionTimeObservations,
  EndOfEpochTransactionKind,
  EndOfEpochTransactionKindVariants,
} from './bcs/system.js';

// Effects and events
export type {
  ModuleId,
  MoveLocation,
  CommandArgumentError,
  TypeArgumentError,
  PackageUpgradeError,
  ExecutionFailureStatus,
  ExecutionFailureStatusVariants,
  ExecutionStatus,
} from './bcs/execution-status.js';
export type {
  GasCostSummary,
  AccumulatorWriteV1,
  TransactionEffects,
  Event,
  TransactionEvents,
} from './bcs/effects.js';

// Checkpoints
export { decodeCheckpointFile } from './bcs/checkpoint.js';
export type {
  CheckpointCommitment,
  EndOfEpochData,
  CheckpointSummary,
  AuthorityQuorumSignInfo,
  CertifiedCheckpointSummary,
  CheckpointContents,
  CheckpointTransaction,
  CheckpointData,
  CheckpointFile,
} from './bcs/checkpoint.js';

// Digests and ids
export {
  blake2b256,
  transactionDigest,
  transactionEffectsDigest,
  transactionEventsDigest,
  objectDigest,
  checkpointSummaryDigest,
  checkpointContentsDigest,
  objectRefOf,
  deriveObjectId,
  dynamicFieldId,
  derivedObjectId,
} from './bcs/digests.js';
export {
  executeProgrammableTransaction,
  packageDigest,
  dependencyOrder,
  decodeObject,
  objectTypeTag,
  moveObjectTypeOf,
  objectSizeForGas,
  transactionInputError,
  checkTransactionInput,
  TransactionInputError,
  suiVerifyModule,
  suiVerifierConfig,
} from './executor/index.js';
export type {
  InputCheckRequest,
  TransactionInputErrorCode,
  ObjectStore,
  GasInput,
  CheckMode,
  ExecutionInput,
  CommandValue,
  CommandResult,
  ExecutionStatusResult,
  ObjectChange,
  ExecutionResult,
  SuiVerifierConfig,
} from './executor/index.js';

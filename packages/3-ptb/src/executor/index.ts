/** The PTB executor. */
export { executeProgrammableTransaction } from './execute.js';
export type { LoadedInputs } from './state.js';
export { ExecutionFailure } from './errors.js';
export { checkTransactionInput, TransactionInputError } from './input-checks.js';
export type { InputCheckRequest, TransactionInputErrorCode } from './input-checks.js';
export type { CommandArgumentErrorKind } from './errors.js';
export { packageDigest, dependencyOrder } from './publish.js';
export { suiVerifyModule, suiVerifierConfig, LATEST_SUI_VERIFIER_CONFIG } from './sui-verifier/index.js';
export type { SuiVerifierConfig } from './sui-verifier/index.js';
export { toBcsOwner, toRuntimeOwner, decodeObject, objectTypeTag, moveObjectTypeOf, objectSizeForGas } from './objects.js';
export { isPureType } from './state.js';
export { transactionInputError } from './validity.js';
export type {
  ObjectStore,
  GasInput,
  CheckMode,
  ExecutionInput,
  CommandValue,
  CommandResult,
  ExecutionStatusResult,
  ObjectChange,
  ExecutionResult,
} from './types.js';

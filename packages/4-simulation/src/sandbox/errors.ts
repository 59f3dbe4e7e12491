/**
 * From errors to responses: every exception an action can meet (a `SimulationEnvironmentError`, a VM
 * or bytecode error, a rejected request, or a bug of ours) becomes a failure response
 * with one of the protocol's categories; a transaction's own failure status becomes one
 * too (a Move abort as `ContractAbort` with its code and location).
 */
import { BytecodeError, DisassemblerError, PackageError, VerificationError, errorMessage, SmiError } from '@smi/bytecode';
import { VmError } from '@smi/move-vm';
import type { ExecutionFailureStatus, ExecutionStatusResult } from '@smi/ptb';
import { SimulationEnvironmentError, type SimulationEnvironmentErrorCode } from '../errors.js';
import { CheckpointError } from './checkpoints.js';
import { fail, numberOrString, type SandboxErrorCategory, type SandboxResponse } from './protocol.js';
import { RequestError } from './request.js';

/** An error raised by a sandbox action with its category given directly. */
export class SandboxError extends SmiError<SandboxErrorCategory> {
  override readonly name = 'SandboxError';
  readonly category: SandboxErrorCategory;

  constructor(category: SandboxErrorCategory, message: string) {
    super(category, message);
    this.category = category;
  }
}

const SIMULATION_CATEGORY: Record<SimulationEnvironmentErrorCode, SandboxErrorCategory> = {
  MISSING_PACKAGE: 'MissingPackage',
  MISSING_OBJECT: 'MissingObject',
  TYPE_MISMATCH: 'TypeMismatch',
  OBJECT_CREATION_ERROR: 'ObjectCreationError',
  DEPLOYMENT_ERROR: 'DeploymentError',
  COMPILATION_ERROR: 'CompilationError',
  COMPILER_NOT_INSTALLED: 'CompilationError',
  INVALID_STATE_FILE: 'ExecutionError',
  INVALID_SNAPSHOT: 'ExecutionError',
  MISSING_FIXTURES: 'ExecutionError',
  FRAMEWORK_NOT_FOUND: 'ExecutionError',
  PROTOCOL_CONFIG_NOT_FOUND: 'ExecutionError',
  INVALID_REQUEST: 'ParseError',
};

/** Category of a VM status code raised outside a transaction. */
function vmCategory(code: string): SandboxErrorCategory {
  if (code === 'FAILED_TO_DESERIALIZE_ARGUMENT') return 'DeserializationFailed';
  if (code === 'TYPE_RESOLUTION_FAILURE' || code === 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH' || code === 'CONSTRAINT_NOT_SATISFIED' || code === 'TYPE_MISMATCH') {
    return 'TypeMismatch';
  }
  if (code === 'FUNCTION_RESOLUTION_FAILURE' || code === 'MISSING_DEPENDENCY' || code === 'LINKER_ERROR' || code === 'LOOKUP_FAILED') return 'MissingPackage';
  return 'ExecutionError';
}

/** `canonicalAddress` rejects a malformed address with a `RangeError`. */
function isBadAddress(e: unknown): boolean {
  return e instanceof RangeError && e.message.startsWith('invalid address');
}

/** Category of an error thrown while handling a request. */
export function categoryOf(e: unknown): SandboxErrorCategory {
  if (e instanceof RequestError) return 'ParseError';
  if (e instanceof SandboxError) return e.category;
  if (e instanceof CheckpointError) return 'ExecutionError';
  if (e instanceof SimulationEnvironmentError) return SIMULATION_CATEGORY[e.code];
  if (e instanceof VmError) return vmCategory(e.code);
  if (e instanceof PackageError || e instanceof BytecodeError || e instanceof VerificationError) return 'DeploymentError';
  if (e instanceof DisassemblerError) return 'MissingPackage';
  if (isBadAddress(e)) return 'ParseError';
  return 'ExecutionError';
}

/** The failure response of an exception. Bugs (plain JS errors) say "internal error". */
export function errorResponse(e: unknown): SandboxResponse {
  const known =
    e instanceof RequestError ||
    e instanceof SandboxError ||
    e instanceof CheckpointError ||
    e instanceof SimulationEnvironmentError ||
    e instanceof VmError ||
    e instanceof PackageError ||
    e instanceof BytecodeError ||
    e instanceof VerificationError ||
    e instanceof DisassemblerError ||
    isBadAddress(e);
  const message = errorMessage(e);
  return fail(known ? message : `internal error: ${message}`, categoryOf(e));
}

/** Category of a transaction's failure status. */
function failureCategory(error: ExecutionFailureStatus): SandboxErrorCategory {
  switch (error.$kind) {
    case 'MoveAbort':
      return 'ContractAbort';
    case 'FunctionNotFound':
    case 'InvalidLinkage':
    case 'PublishUpgradeMissingDependency':
      return 'MissingPackage';
    case 'InputObjectDeleted':
      return 'MissingObject';
    case 'TypeArityMismatch':
    case 'TypeArgumentError':
    case 'ArityMismatch':
    case 'InvalidPublicFunctionReturnType':
      return 'TypeMismatch';
    case 'CommandArgumentError': {
      const kind = error.CommandArgumentError.kind.$kind;
      if (kind === 'InvalidBCSBytes') return 'DeserializationFailed';
      if (kind === 'TypeMismatch' || kind === 'InvalidUsageOfPureArg' || kind === 'InvalidArgumentArity') return 'TypeMismatch';
      return 'ExecutionError';
    }
    case 'PublishErrorNonZeroAddress':
    case 'SuiMoveVerificationError':
    case 'VMVerificationOrDeserializationError':
    case 'PublishUpgradeDependencyDowngrade':
    case 'PackageUpgradeError':
    case 'MovePackageTooBig':
    case 'SuiMoveVerificationTimedout':
      return 'DeploymentError';
    case 'ExecutionCancelledDueToSharedObjectCongestion':
    case 'SharedObjectOperationNotAllowed':
      return 'SharedObjectLockConflict';
    default:
      return 'ExecutionError';
  }
}

/**
 * The failure part of a response for a failed transaction: message, category, abort code
 * and location, failing command (index and description) and how many commands ran before.
 */
export function transactionFailure(status: Extract<ExecutionStatusResult, { $kind: 'Failure' }>, describe: (index: number) => string | undefined): SandboxResponse {
  const category = failureCategory(status.error);
  const out: SandboxResponse = { success: false, error_category: category, error: `${status.error.$kind}: ${status.message}` };
  if (status.error.$kind === 'MoveAbort') {
    const [location, code] = status.error.MoveAbort;
    const fn = location.functionName ?? `#${location.function}`;
    out.abort_code = numberOrString(code);
    out.abort_module = `${location.module.name}::${fn}`;
    out.error = `Contract abort in ${location.module.name}::${fn} with code ${code} (${location.module.address}::${location.module.name}, instruction ${location.instruction})`;
  } else if (status.error.$kind === 'MovePrimitiveRuntimeError' && status.error.MovePrimitiveRuntimeError !== null) {
    // A runtime error keeps where it happened, as an abort does.
    const location = status.error.MovePrimitiveRuntimeError;
    const fn = location.functionName ?? `#${location.function}`;
    out.error_location = `${location.module.name}::${fn}`;
    out.error = `${out.error} (in ${location.module.address}::${location.module.name}::${fn}, instruction ${location.instruction})`;
  }
  if (status.command !== null) {
    out.failed_command_index = status.command;
    const d = describe(status.command);
    if (d !== undefined) out.failed_command_description = d;
    out.commands_succeeded = status.command;
  }
  return out;
}

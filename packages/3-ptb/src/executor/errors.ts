/**
 * Execution failures of a PTB: an `ExecutionFailureStatus` (the BCS enum effects carry)
 * plus the failing command and a message, thrown while executing and turned into the
 * transaction's failure status.
 */
import { CAPTURE_STACKS } from '@smi/move-vm';
import type { ExecutionFailureStatus } from '../bcs/execution-status.js';
import { SmiError } from '@smi/bytecode';

/** `CommandArgumentError` kinds. */
export type CommandArgumentErrorKind =
  | 'TypeMismatch'
  | 'InvalidBCSBytes'
  | 'InvalidUsageOfPureArg'
  | 'InvalidArgumentToPrivateEntryFunction'
  | 'InvalidGasCoinUsage'
  | 'InvalidValueUsage'
  | 'InvalidObjectByValue'
  | 'InvalidObjectByMutRef'
  | 'SharedObjectOperationNotAllowed'
  | 'InvalidArgumentArity'
  | 'InvalidTransferObject'
  | 'InvalidMakeMoveVecNonObjectArgument'
  | 'ArgumentWithoutValue'
  | 'CannotMoveBorrowedValue'
  | 'CannotWriteToExtendedReference'
  | 'InvalidReferenceArgument'
  | 'InvalidTxContext';

/** A failure raised while executing a command. */
export class ExecutionFailure extends SmiError<ExecutionFailureStatus['$kind']> {
  override readonly name = 'ExecutionFailure';
  readonly status: ExecutionFailureStatus;
  /** Index of the command, set by the executor. */
  command: number | null;

  constructor(status: ExecutionFailureStatus, message: string, command: number | null = null) {
    // A transaction's failure is an answer, not a bug: no stack unless `SMI_DEBUG` (see `CAPTURE_STACKS`).
    const limit = Error.stackTraceLimit;
    if (!CAPTURE_STACKS) Error.stackTraceLimit = 0;
    super(status.$kind, message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.command = command;
  }
}

/** A `CommandArgumentError` for argument `argIdx` of the running command. */
export function argumentError(argIdx: number, kind: CommandArgumentErrorKind, message: string): ExecutionFailure {
  return new ExecutionFailure(
    { $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: kind, [kind]: true } } } as unknown as ExecutionFailureStatus,
    `argument ${argIdx}: ${kind}: ${message}`,
  );
}

/** A failure without payload (`InsufficientCoinBalance`, `InvariantViolation`, ...). */
export function simpleFailure(kind: string, message: string): ExecutionFailure {
  return new ExecutionFailure({ $kind: kind, [kind]: true } as unknown as ExecutionFailureStatus, message);
}

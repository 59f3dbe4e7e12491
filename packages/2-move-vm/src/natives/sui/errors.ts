/**
 * Errors of the Sui natives and the object runtime.
 *
 * - While Move runs, failures are {@link VmError}s with upstream's status codes:
 *   `MEMORY_LIMIT_EXCEEDED` with the `VMMemoryLimitExceededSubStatusCode` sub-status
 *   ({@link MemoryLimitSubStatus}), `ARITHMETIC_ERROR` (accumulator totals),
 *   `UNKNOWN_INVARIANT_VIOLATION_ERROR`, `STORAGE_ERROR` (a child object the provider
 *   returned is inconsistent), `FAILED_TO_DESERIALIZE_RESOURCE`, `MALFORMED`
 *   (validator metadata); aborts are `NativeAbort`s with upstream's codes.
 * - Outside Move (bad options, end-of-transaction checks), {@link ObjectRuntimeError}.
 */
import { VmError, type VmStatusCode } from '../../errors.js';
import { SmiError } from '@smi/bytecode';

/**
 * Status codes the Sui natives raise. The last three are upstream `StatusCode`s that
 * `VmStatusCode` does not list yet; they travel in `VmError.code` unchanged.
 */
export type SuiStatusCode = VmStatusCode | 'STORAGE_ERROR' | 'FAILED_TO_DESERIALIZE_RESOURCE' | 'MALFORMED';

/** Upstream `VMMemoryLimitExceededSubStatusCode`. */
export const MemoryLimitSubStatus = {
  EVENT_COUNT_LIMIT_EXCEEDED: 0n,
  EVENT_SIZE_LIMIT_EXCEEDED: 1n,
  NEW_ID_COUNT_LIMIT_EXCEEDED: 2n,
  DELETED_ID_COUNT_LIMIT_EXCEEDED: 3n,
  TRANSFER_ID_COUNT_LIMIT_EXCEEDED: 4n,
  OBJECT_RUNTIME_CACHE_LIMIT_EXCEEDED: 5n,
  OBJECT_RUNTIME_STORE_LIMIT_EXCEEDED: 6n,
  TOTAL_EVENT_SIZE_LIMIT_EXCEEDED: 7n,
  SCRATCH_SIZE_LIMIT_EXCEEDED: 8n,
} as const;

/** A VM error with one of the {@link SuiStatusCode}s. */
export function suiVmError(code: SuiStatusCode, message: string, subStatus?: bigint): VmError {
  // `VmStatusCode` lacks STORAGE_ERROR, FAILED_TO_DESERIALIZE_RESOURCE and MALFORMED; the
  // code is carried as is (the union is a subset of SuiStatusCode, so this narrows only).
  return new VmError(code as VmStatusCode, message, subStatus === undefined ? {} : { subStatus });
}

/** `MEMORY_LIMIT_EXCEEDED` with a sub-status, as upstream reports object-runtime limits. */
export function memoryLimitError(subStatus: bigint, message: string): VmError {
  return new VmError('MEMORY_LIMIT_EXCEEDED', message, { subStatus });
}

/** `UNKNOWN_INVARIANT_VIOLATION_ERROR`. */
export function invariantViolation(message: string): VmError {
  return new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', message);
}

/** `UNSUPPORTED_NATIVE`, naming the native and why. */
export function unsupportedNative(name: string, why: string): VmError {
  return new VmError('UNSUPPORTED_NATIVE', `${name}: ${why}`);
}

/** Stable codes of {@link ObjectRuntimeError}. */
export type ObjectRuntimeErrorCode =
  /** Constructor options are invalid (digest length, addresses...). */
  | 'INVALID_OPTIONS'
  /** Upstream `ExecutionErrorKind::CircularObjectOwnership`. */
  | 'CIRCULAR_OBJECT_OWNERSHIP'
  /** Upstream `ExecutionErrorKind::MoveObjectTooBig` (a written object over `max_move_object_size`). */
  | 'MOVE_OBJECT_TOO_BIG'
  /** An end-of-transaction transfer of an object that was neither new nor kept its owner. */
  | 'INVARIANT_VIOLATION';

/** Error of the object runtime outside Move execution. */
export class ObjectRuntimeError extends SmiError<ObjectRuntimeErrorCode> {
  override readonly name = 'ObjectRuntimeError';
  /** Object at fault, when there is one. */
  readonly objectId: string | undefined;
  /** For `MOVE_OBJECT_TOO_BIG`: the object's size and the limit. */
  readonly objectSize: number | undefined;
  readonly maxObjectSize: number | undefined;

  constructor(code: ObjectRuntimeErrorCode, message: string, details: { objectId?: string; objectSize?: number; maxObjectSize?: number } = {}) {
    super(code, `${code}: ${message}`);
    this.objectId = details.objectId;
    this.objectSize = details.objectSize;
    this.maxObjectSize = details.maxObjectSize;
  }
}

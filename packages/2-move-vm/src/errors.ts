/**
 * VM errors. `code` is the upstream Move `StatusCode` name (`ABORTED`,
 * `ARITHMETIC_ERROR`, `MISSING_DEPENDENCY`, ...) so that results compare with Sui's.
 * Errors raised while running carry the location: module, function and instruction.
 */
import { SmiError } from '@smi/bytecode';

/** Status codes the VM reports. */
export type VmStatusCode =
  | 'ABORTED'
  | 'ARITHMETIC_ERROR'
  | 'VECTOR_OPERATION_ERROR'
  | 'OUT_OF_GAS'
  | 'CALL_STACK_OVERFLOW'
  | 'EXECUTION_STACK_OVERFLOW'
  | 'VM_MAX_VALUE_DEPTH_REACHED'
  | 'VM_MAX_TYPE_DEPTH_REACHED'
  | 'TOO_MANY_TYPE_NODES'
  | 'VM_MAX_TYPE_NODES_REACHED'
  | 'MISSING_DEPENDENCY'
  | 'LINKER_ERROR'
  | 'FUNCTION_RESOLUTION_FAILURE'
  | 'TYPE_RESOLUTION_FAILURE'
  | 'NUMBER_OF_ARGUMENTS_MISMATCH'
  | 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH'
  | 'CONSTRAINT_NOT_SATISFIED'
  | 'TYPE_MISMATCH'
  | 'FAILED_TO_DESERIALIZE_ARGUMENT'
  | 'VALUE_SERIALIZATION_ERROR'
  | 'VALUE_DESERIALIZATION_ERROR'
  | 'MISSING_NATIVE_FUNCTION'
  | 'UNSUPPORTED_NATIVE'
  | 'UNKNOWN_INVARIANT_VIOLATION_ERROR'
  | 'UNREACHABLE'
  | 'VARIANT_TAG_MISMATCH'
  | 'MEMORY_LIMIT_EXCEEDED'
  | 'CODE_DESERIALIZATION_ERROR'
  | 'STORAGE_ERROR'
  | 'FAILED_TO_DESERIALIZE_RESOURCE'
  | 'MALFORMED';

/** Where an error happened inside Move code. */
export interface VmLocation {
  /** `0x<64 hex>::module` of the running function. */
  module: string;
  /** Function name. */
  function: string;
  /** Function definition index in its module. */
  functionIndex: number;
  /** Instruction offset. */
  instruction: number;
}

/**
 * Why a module cannot be linked (`MISSING_DEPENDENCY` from the linker): `module` (`0x…::name`)
 * of its dependency closure is missing, named by `usedBy`.
 */
export interface LinkFailure {
  /** The module that was loaded (`0x…::name`). */
  root: string;
  /** The missing module. */
  module: string;
  /** The module whose handle names it. */
  usedBy: string;
}

/**
 * Whether errors used as control flow capture a stack trace: only with `SMI_DEBUG` set (any
 * non-empty value, as the CLI reads it). A Move abort, a failed argument check or a missing
 * object is an answer, not a bug, and the benchmark meets thousands of them; capturing a
 * stack for each cost more than the rest of building the error. Their code, message and
 * location say where they come from.
 */
export const CAPTURE_STACKS = typeof process !== 'undefined' && Boolean(process.env.SMI_DEBUG);

/** Error of the Move VM. */
export class VmError extends SmiError<VmStatusCode> {
  override readonly name = 'VmError';
  /** Abort code for `ABORTED` (u64, Sui clever errors included, unchanged). */
  readonly abortCode: bigint | undefined;
  /** Sub-status of some errors (e.g. `VECTOR_OPERATION_ERROR`'s kind). */
  readonly subStatus: bigint | undefined;
  location: VmLocation | undefined;
  /** For a module whose dependency closure misses a module: which, and what needs it. */
  readonly linkFailure: LinkFailure | undefined;

  constructor(code: VmStatusCode, message = '', details: { abortCode?: bigint; subStatus?: bigint; location?: VmLocation; linkFailure?: LinkFailure } = {}) {
    const limit = Error.stackTraceLimit;
    if (!CAPTURE_STACKS) Error.stackTraceLimit = 0;
    super(code, message === '' ? code : `${code}: ${message}`);
    Error.stackTraceLimit = limit;
    this.abortCode = details.abortCode;
    this.subStatus = details.subStatus ?? details.abortCode;
    this.location = details.location;
    this.linkFailure = details.linkFailure;
  }

  /** Message with the location appended, for humans. */
  describe(): string {
    const loc = this.location;
    return loc ? `${this.message} in ${loc.module}::${loc.function} at instruction ${loc.instruction}` : this.message;
  }
}

/**
 * Sub-status codes of `VECTOR_OPERATION_ERROR`. The `0x1::vector` natives turn these
 * errors into `ABORTED` with the same code (so `vector::borrow` out of bounds aborts
 * with 1 in `0x1::vector::borrow`).
 */
export const VectorError = {
  INDEX_OUT_OF_BOUNDS: 1n,
  POP_EMPTY_VEC: 2n,
  VEC_UNPACK_PARITY_MISMATCH: 3n,
  VEC_SIZE_LIMIT_REACHED: 4n,
} as const;

/** An abort raised by a native (`abort code` in the native's module). */
export class NativeAbort extends Error {
  override readonly name = 'NativeAbort';
  readonly code: bigint;

  constructor(code: bigint | number) {
    const limit = Error.stackTraceLimit;
    if (!CAPTURE_STACKS) Error.stackTraceLimit = 0;
    super(`native aborted with ${code}`);
    Error.stackTraceLimit = limit;
    this.code = BigInt(code);
  }
}

/**
 * Typed errors of the binary-format layer. The `code` is the upstream Move `StatusCode`
 * name, so that our rejections can be compared with Sui's own (and with the WASM
 * template's `PartialVMError with status <CODE>` messages).
 */
import { SmiError } from './util/error.js';

/** Status codes the deserializer, bounds checker and serializer can report. */
export type BytecodeStatusCode =
  | 'BAD_MAGIC'
  | 'UNKNOWN_VERSION'
  | 'MALFORMED'
  | 'BAD_HEADER_TABLE'
  | 'UNKNOWN_TABLE_TYPE'
  | 'DUPLICATE_TABLE'
  | 'TRAILING_BYTES'
  | 'BAD_U16'
  | 'BAD_U32'
  | 'BAD_U64'
  | 'BAD_U128'
  | 'BAD_U256'
  | 'UNKNOWN_SERIALIZED_TYPE'
  | 'UNKNOWN_OPCODE'
  | 'UNKNOWN_ABILITY'
  | 'UNKNOWN_NATIVE_STRUCT_FLAG'
  | 'UNKNOWN_ENUM_FLAG'
  | 'UNKNOWN_JUMP_TABLE_FLAG'
  | 'INVALID_FLAG_BITS'
  | 'DEPRECATED_BYTECODE_FORMAT'
  | 'NO_MODULE_HANDLES'
  | 'INDEX_OUT_OF_BOUNDS'
  | 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH'
  | 'TOO_MANY_LOCALS'
  | 'INVALID_ENUM_SWITCH'
  | 'UNKNOWN_INVARIANT_VIOLATION_ERROR'
  | 'SERIALIZATION_ERROR'
  | 'INVALID_PACKAGE';

/** Where inside a function a bounds error was found. */
export interface CodeLocation {
  /** Index of the function definition. */
  functionDefinition: number;
  /** Instruction offset inside its code. */
  codeOffset: number;
}

/** Details attached to a {@link BytecodeError}. */
export interface BytecodeErrorDetails {
  /** Byte offset in the input where the problem was detected (deserializer errors). */
  offset?: number;
  /** Kind of table an out-of-bounds index points into (`Signature`, `FunctionHandle`, ...). */
  indexKind?: string;
  /** The offending index. */
  index?: number;
  /** Function and instruction (bounds errors inside code). */
  location?: CodeLocation;
}

/**
 * Error raised when bytes are not a valid Move module (or a module cannot be written).
 * `code` is stable and equals the upstream status-code name.
 */
export class BytecodeError extends SmiError<BytecodeStatusCode> {
  override readonly name = 'BytecodeError';
  readonly offset: number | undefined;
  readonly indexKind: string | undefined;
  readonly index: number | undefined;
  readonly location: CodeLocation | undefined;

  constructor(code: BytecodeStatusCode, message = '', details: BytecodeErrorDetails = {}) {
    const where: string[] = [];
    if (details.offset !== undefined) where.push(`at byte ${details.offset}`);
    if (details.location) {
      where.push(`in function #${details.location.functionDefinition} at code offset ${details.location.codeOffset}`);
    }
    const text = [code, message].filter((s) => s !== '').join(': ');
    super(code, where.length > 0 ? `${text} (${where.join(', ')})` : text);
    this.offset = details.offset;
    this.indexKind = details.indexKind;
    this.index = details.index;
    this.location = details.location;
  }
}

/** `true` when `e` is a {@link BytecodeError}. */
export function isBytecodeError(e: unknown): e is BytecodeError {
  return e instanceof BytecodeError;
}

/**
 * The typed error of the bytecode verifier. It carries what upstream's `VMError` carries
 * (`major_status`, `indices`, `offsets`, `location`, optional `message`), so that a runner can
 * print exactly the text of Sui's transactional tests (see {@link formatVerificationError}).
 */
import type { BytecodeStatusCode } from '../errors.js';
import type { AbilitySet, SignatureToken } from '../file-format.js';
import { SmiError } from '../util/error.js';

/**
 * Upstream `StatusCode` names the verifier can report (those of the deserializer and bounds
 * checker included, for errors converted by `verificationErrorFromBytecodeError`).
 */
export type VerifierStatusCode =
  | BytecodeStatusCode
  | 'INVALID_SIGNATURE_TOKEN'
  | 'RECURSIVE_DATATYPE_DEFINITION'
  | 'FIELD_MISSING_TYPE_ABILITY'
  | 'INVALID_FALL_THROUGH'
  | 'NEGATIVE_STACK_SIZE_WITHIN_BLOCK'
  | 'DUPLICATE_ELEMENT'
  | 'INVALID_MODULE_HANDLE'
  | 'UNIMPLEMENTED_HANDLE'
  | 'LOOKUP_FAILED'
  | 'TYPE_MISMATCH'
  | 'MISSING_DEPENDENCY'
  | 'POP_WITHOUT_DROP_ABILITY'
  | 'BR_TYPE_MISMATCH_ERROR'
  | 'ABORT_TYPE_MISMATCH_ERROR'
  | 'STLOC_TYPE_MISMATCH_ERROR'
  | 'STLOC_UNSAFE_TO_DESTROY_ERROR'
  | 'UNSAFE_RET_LOCAL_OR_RESOURCE_STILL_BORROWED'
  | 'RET_TYPE_MISMATCH_ERROR'
  | 'RET_BORROWED_MUTABLE_REFERENCE_ERROR'
  | 'FREEZEREF_TYPE_MISMATCH_ERROR'
  | 'FREEZEREF_EXISTS_MUTABLE_BORROW_ERROR'
  | 'BORROWFIELD_TYPE_MISMATCH_ERROR'
  | 'BORROWFIELD_BAD_FIELD_ERROR'
  | 'FIELD_EXISTS_MUTABLE_BORROW_ERROR'
  | 'COPYLOC_UNAVAILABLE_ERROR'
  | 'COPYLOC_WITHOUT_COPY_ABILITY'
  | 'COPYLOC_EXISTS_BORROW_ERROR'
  | 'MOVELOC_UNAVAILABLE_ERROR'
  | 'MOVELOC_EXISTS_BORROW_ERROR'
  | 'BORROWLOC_REFERENCE_ERROR'
  | 'BORROWLOC_UNAVAILABLE_ERROR'
  | 'BORROWLOC_EXISTS_BORROW_ERROR'
  | 'CALL_TYPE_MISMATCH_ERROR'
  | 'CALL_BORROWED_MUTABLE_REFERENCE_ERROR'
  | 'PACK_TYPE_MISMATCH_ERROR'
  | 'UNPACK_TYPE_MISMATCH_ERROR'
  | 'READREF_TYPE_MISMATCH_ERROR'
  | 'READREF_WITHOUT_COPY_ABILITY'
  | 'READREF_EXISTS_MUTABLE_BORROW_ERROR'
  | 'WRITEREF_TYPE_MISMATCH_ERROR'
  | 'WRITEREF_WITHOUT_DROP_ABILITY'
  | 'WRITEREF_EXISTS_BORROW_ERROR'
  | 'WRITEREF_NO_MUTABLE_REFERENCE_ERROR'
  | 'INTEGER_OP_TYPE_MISMATCH_ERROR'
  | 'BOOLEAN_OP_TYPE_MISMATCH_ERROR'
  | 'EQUALITY_OP_TYPE_MISMATCH_ERROR'
  | 'POSITIVE_STACK_SIZE_AT_BLOCK_END'
  | 'DUPLICATE_ACQUIRES_ANNOTATION'
  | 'CONSTRAINT_NOT_SATISFIED'
  | 'LOOP_IN_INSTANTIATION_GRAPH'
  | 'ZERO_SIZED_STRUCT'
  | 'INVALID_CONSTANT_TYPE'
  | 'MALFORMED_CONSTANT_DATA'
  | 'EMPTY_CODE_UNIT'
  | 'INVALID_LOOP_SPLIT'
  | 'INVALID_LOOP_BREAK'
  | 'INVALID_LOOP_CONTINUE'
  | 'UNSAFE_RET_UNUSED_VALUES_WITHOUT_DROP'
  | 'GENERIC_MEMBER_OPCODE_MISMATCH'
  | 'CYCLIC_MODULE_DEPENDENCY'
  | 'INVALID_FRIEND_DECL_WITH_SELF'
  | 'INVALID_FRIEND_DECL_WITH_MODULES_OUTSIDE_ACCOUNT_ADDRESS'
  | 'INVALID_PHANTOM_TYPE_PARAM_POSITION'
  | 'VEC_UPDATE_EXISTS_MUTABLE_BORROW_ERROR'
  | 'VEC_BORROW_ELEMENT_EXISTS_MUTABLE_BORROW_ERROR'
  | 'LOOP_MAX_DEPTH_REACHED'
  | 'TOO_MANY_TYPE_PARAMETERS'
  | 'TOO_MANY_PARAMETERS'
  | 'TOO_MANY_BASIC_BLOCKS'
  | 'VALUE_STACK_OVERFLOW'
  | 'TOO_MANY_TYPE_NODES'
  | 'VALUE_STACK_PUSH_OVERFLOW'
  | 'MAX_FUNCTION_DEFINITIONS_REACHED'
  | 'MAX_STRUCT_DEFINITIONS_REACHED'
  | 'MAX_FIELD_DEFINITIONS_REACHED'
  | 'TOO_MANY_BACK_EDGES'
  | 'TOO_MANY_VECTOR_ELEMENTS'
  | 'IDENTIFIER_TOO_LONG'
  | 'ENUM_SWITCH_BAD_OPERAND'
  | 'ENUM_TYPE_MISMATCH'
  | 'INVALID_ENUM_SWITCH'
  | 'ZERO_SIZED_ENUM'
  | 'MAX_VARIANTS_REACHED'
  | 'INVALID_IDENTIFIER'
  | 'VERIFIER_INVARIANT_VIOLATION'
  | 'EXISTS_WITHOUT_KEY_ABILITY_OR_BAD_ARGUMENT'
  | 'BORROWGLOBAL_TYPE_MISMATCH_ERROR'
  | 'BORROWGLOBAL_WITHOUT_KEY_ABILITY'
  | 'MOVEFROM_TYPE_MISMATCH_ERROR'
  | 'MOVEFROM_WITHOUT_KEY_ABILITY'
  | 'MOVETO_TYPE_MISMATCH_ERROR'
  | 'MOVETO_WITHOUT_KEY_ABILITY'
  | 'GLOBAL_REFERENCE_ERROR'
  | 'MISSING_ACQUIRES_ANNOTATION'
  | 'EXTRANEOUS_ACQUIRES_ANNOTATION'
  | 'INVALID_ACQUIRES_ANNOTATION'
  | 'REFERENCE_SAFETY_INCONSISTENT'
  | 'PROGRAM_TOO_COMPLEX';

/** Upstream `IndexKind` names (the first element of each `indices` pair). */
export type VerifierIndexKind =
  | 'ModuleHandle'
  | 'DatatypeHandle'
  | 'FunctionHandle'
  | 'FieldHandle'
  | 'FriendDeclaration'
  | 'FunctionInstantiation'
  | 'FieldInstantiation'
  | 'StructDefinition'
  | 'StructDefInstantiation'
  | 'FunctionDefinition'
  | 'FieldDefinition'
  | 'Signature'
  | 'Identifier'
  | 'AddressIdentifier'
  | 'ConstantPool'
  | 'LocalPool'
  | 'CodeDefinition'
  | 'TypeParameter'
  | 'MemberCount'
  | 'EnumDefinition'
  | 'EnumDefInstantiation'
  | 'VariantHandle'
  | 'VariantInstantiationHandle'
  | 'VariantJumpTable'
  | 'VariantTag';

/** One `(IndexKind, index)` pair of an error. */
export type VerificationIndex = readonly [kind: VerifierIndexKind, index: number];

/** One `(FunctionDefinitionIndex, CodeOffset)` pair of an error. */
export type VerificationOffset = readonly [functionDefinition: number, codeOffset: number];

/**
 * Where the error is attributed: a module (`0x2::coin` style address and name), a package
 * (address only) or nowhere (bounds errors, as upstream).
 */
export type VerificationLocation =
  | { readonly $kind: 'Module'; readonly address: string; readonly name: string }
  | { readonly $kind: 'Package'; readonly address: string }
  | { readonly $kind: 'Undefined' };

/**
 * A partial error (upstream `PartialVMError`): built by a pass, completed with a location by
 * {@link PartialError.finish}. Passes throw it; `verifyModule` converts it.
 */
export class PartialError extends SmiError<VerifierStatusCode> {
  override readonly name = 'PartialError';
  readonly indices: VerificationIndex[] = [];
  readonly offsets: VerificationOffset[] = [];
  detail: string | undefined;

  constructor(code: VerifierStatusCode, detail?: string) {
    super(code, detail === undefined ? code : `${code}: ${detail}`);
    this.detail = detail;
  }

  /** Append an `(IndexKind, index)` pair (upstream `at_index`). */
  atIndex(kind: VerifierIndexKind, index: number): this {
    this.indices.push([kind, index]);
    return this;
  }

  /** Append a `(function, offset)` pair (upstream `at_code_offset`). */
  atCodeOffset(functionDefinition: number, codeOffset: number): this {
    this.offsets.push([functionDefinition, codeOffset]);
    return this;
  }

  /** Append to the message with a separator (upstream `append_message_with_separator`). */
  appendDetail(separator: string, more: string): this {
    this.detail = this.detail === undefined ? more : `${this.detail}${separator}${more}`;
    return this;
  }

  /** Complete the error with its location. */
  finish(location: VerificationLocation): VerificationError {
    return new VerificationError(this.code, {
      indices: this.indices,
      offsets: this.offsets,
      location,
      detail: this.detail,
    });
  }
}

/** Details given to {@link VerificationError}'s constructor. */
export interface VerificationErrorDetails {
  indices?: readonly VerificationIndex[];
  offsets?: readonly VerificationOffset[];
  location?: VerificationLocation;
  /** Upstream's debug message, when it sets one. */
  detail?: string;
}

function shortHex(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, '').replace(/^0+/, '');
  return hex === '' ? '0' : hex;
}

/** Text of a location as the transactional test runner prints it. */
export function formatLocation(location: VerificationLocation): string {
  switch (location.$kind) {
    case 'Undefined':
      return 'undefined';
    case 'Package':
      return `0x${shortHex(location.address)}`;
    case 'Module':
      return `0x${shortHex(location.address)}::${location.name}`;
  }
}

/**
 * A module failed bytecode verification. `code` is the stable upstream status-code name;
 * `indexKind`/`index` is the first `(IndexKind, index)` pair (for code errors the
 * `FunctionDefinition`), `functionIndex`/`offset` the code location when there is one.
 */
export class VerificationError extends SmiError<VerifierStatusCode> {
  override readonly name = 'VerificationError';
  readonly indices: readonly VerificationIndex[];
  readonly offsets: readonly VerificationOffset[];
  readonly location: VerificationLocation;
  readonly detail: string | undefined;
  readonly indexKind: VerifierIndexKind | undefined;
  readonly index: number | undefined;
  readonly functionIndex: number | undefined;
  readonly offset: number | undefined;

  constructor(code: VerifierStatusCode, details: VerificationErrorDetails = {}) {
    const indices = details.indices ?? [];
    const offsets = details.offsets ?? [];
    const location = details.location ?? { $kind: 'Undefined' };
    const where: string[] = [formatLocation(location)];
    if (indices.length > 0) where.push(indices.map(([k, i]) => `${k} ${i}`).join(', '));
    if (offsets.length > 0) where.push(`offset ${offsets[0][1]} of function #${offsets[0][0]}`);
    super(code, `${code}${details.detail ? `: ${details.detail}` : ''} (${where.join('; ')})`);
    this.indices = indices;
    this.offsets = offsets;
    this.location = location;
    this.detail = details.detail;
    this.indexKind = indices[0]?.[0];
    this.index = indices[0]?.[1];
    this.functionIndex = offsets[0]?.[0];
    this.offset = offsets[0]?.[1];
  }
}

/** `true` when `e` is a {@link VerificationError}. */
export function isVerificationError(e: unknown): e is VerificationError {
  return e instanceof VerificationError;
}

/** Rust `{:?}` of a string (the message line). */
function rustDebugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

/**
 * The error in the wording of upstream's transactional test runner (`format_vm_error`):
 *
 * ```text
 * {
 *     major_status: NEGATIVE_STACK_SIZE_WITHIN_BLOCK,
 *     sub_status: None,
 *     location: 0x42::m,
 *     indices: [(FunctionDefinition, 0)],
 *     offsets: [(FunctionDefinitionIndex(0), 0)],
 * }
 * ```
 */
export function formatVerificationError(e: VerificationError): string {
  const indices = `[${e.indices.map(([k, i]) => `(${k}, ${i})`).join(', ')}]`;
  const offsets = `[${e.offsets.map(([f, o]) => `(FunctionDefinitionIndex(${f}), ${o})`).join(', ')}]`;
  const message = e.detail === undefined ? '' : `\n    message: ${rustDebugString(e.detail)},`;
  return `{\n    major_status: ${e.code},\n    sub_status: None,\n    location: ${formatLocation(e.location)},\n` + `    indices: ${indices},\n    offsets: ${offsets},${message}\n}`;
}

const ABILITY_DEBUG: readonly [number, string][] = [
  [0x1, 'Copy'],
  [0x2, 'Drop'],
  [0x4, 'Store'],
  [0x8, 'Key'],
];

/** Rust `{:?}` of an ability set: `[Copy, Drop, ]`. */
export function abilitySetDebug(set: AbilitySet): string {
  let out = '[';
  for (const [bit, name] of ABILITY_DEBUG) if (set & bit) out += `${name}, `;
  return out + ']';
}

/** Rust `{:?}` of a signature token: `StructInstantiation(DatatypeHandleIndex(0), [U64])`. */
export function tokenDebug(t: SignatureToken): string {
  switch (t.$kind) {
    case 'Vector':
      return `Vector(${tokenDebug(t.type)})`;
    case 'Reference':
      return `Reference(${tokenDebug(t.type)})`;
    case 'MutableReference':
      return `MutableReference(${tokenDebug(t.type)})`;
    case 'Datatype':
      return `Struct(DatatypeHandleIndex(${t.index}))`;
    case 'DatatypeInstantiation':
      return `StructInstantiation(DatatypeHandleIndex(${t.index}), [${t.typeArguments.map(tokenDebug).join(', ')}])`;
    case 'TypeParameter':
      return `TypeParameter(${t.index})`;
    default:
      return t.$kind;
  }
}

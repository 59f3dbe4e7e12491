/**
 * Binary-format constants: opcodes, table kinds, serialized type tags, version numbers
 * and the limits the upstream deserializer enforces (`file_format_common.rs`).
 */
import type { Bytecode, BytecodeKind, PrimitiveTokenKind, SignatureToken, SimpleBytecodeKind } from './file-format.js';

/** Magic bytes of a publishable module. */
export const MOVE_MAGIC = 0xa11ceb0b;
/** Magic bytes of a test-only (unpublishable) module. */
export const UNPUBLISHABLE_MAGIC = 0xdeadc0de;

/** Oldest and newest binary versions read. */
export const VERSION_MIN = 5;
export const VERSION_MAX = 7;
/** Flavor byte for Sui, stored in the top byte of the version word from v7 on. */
export const SUI_FLAVOR = 0x05;

/** Table kinds of the binary header. */
export const TableKind = {
  MODULE_HANDLES: 0x1,
  DATATYPE_HANDLES: 0x2,
  FUNCTION_HANDLES: 0x3,
  FUNCTION_INST: 0x4,
  SIGNATURES: 0x5,
  CONSTANT_POOL: 0x6,
  IDENTIFIERS: 0x7,
  ADDRESS_IDENTIFIERS: 0x8,
  STRUCT_DEFS: 0xa,
  STRUCT_DEF_INST: 0xb,
  FUNCTION_DEFS: 0xc,
  FIELD_HANDLE: 0xd,
  FIELD_INST: 0xe,
  FRIEND_DECLS: 0xf,
  METADATA: 0x10,
  ENUM_DEFS: 0x11,
  ENUM_DEF_INST: 0x12,
  VARIANT_HANDLES: 0x13,
  VARIANT_INST_HANDLES: 0x14,
} as const;

/** Serialized type tags used in signatures. */
export const SerializedType = {
  BOOL: 0x1,
  U8: 0x2,
  U64: 0x3,
  U128: 0x4,
  ADDRESS: 0x5,
  REFERENCE: 0x6,
  MUTABLE_REFERENCE: 0x7,
  STRUCT: 0x8,
  TYPE_PARAMETER: 0x9,
  VECTOR: 0xa,
  DATATYPE_INST: 0xb,
  SIGNER: 0xc,
  U16: 0xd,
  U32: 0xe,
  U256: 0xf,
} as const;

/** Limits checked while reading (upstream `*_MAX` constants). */
export const Limits = {
  TABLE_COUNT_MAX: 255,
  TABLE_OFFSET_MAX: 0xffffffff,
  TABLE_SIZE_MAX: 0xffffffff,
  TABLE_INDEX_MAX: 65535,
  BYTECODE_COUNT_MAX: 65535,
  BYTECODE_INDEX_MAX: 65535,
  LOCAL_INDEX_MAX: 255,
  IDENTIFIER_SIZE_MAX: 65535,
  CONSTANT_SIZE_MAX: 65535,
  METADATA_KEY_SIZE_MAX: 1023,
  METADATA_VALUE_SIZE_MAX: 65535,
  SIGNATURE_SIZE_MAX: 255,
  ACQUIRES_COUNT_MAX: 255,
  FIELD_COUNT_MAX: 255,
  FIELD_OFFSET_MAX: 255,
  VARIANT_COUNT_MAX: 127,
  VARIANT_TAG_MAX_VALUE: 126,
  JUMP_TABLE_INDEX_MAX: 127,
  VARIANT_HANDLE_INDEX_MAX: 1024,
  VARIANT_INSTANTIATION_HANDLE_INDEX_MAX: 1024,
  TYPE_PARAMETER_COUNT_MAX: 255,
  TYPE_PARAMETER_INDEX_MAX: 65536,
  SIGNATURE_TOKEN_DEPTH_MAX: 256,
} as const;

/** Function definition flag bits (the byte after visibility). */
export const FunctionFlags = {
  NATIVE: 0x2,
  ENTRY: 0x4,
} as const;

/** Visibility bytes. */
export const VisibilityByte = { Private: 0x0, Public: 0x1, Friend: 0x3 } as const;

/** Opcode byte of each instruction kind. */
export const OPCODE: Readonly<Record<BytecodeKind, number>> = {
  Pop: 0x01,
  Ret: 0x02,
  BrTrue: 0x03,
  BrFalse: 0x04,
  Branch: 0x05,
  LdU64: 0x06,
  LdConst: 0x07,
  LdTrue: 0x08,
  LdFalse: 0x09,
  CopyLoc: 0x0a,
  MoveLoc: 0x0b,
  StLoc: 0x0c,
  MutBorrowLoc: 0x0d,
  ImmBorrowLoc: 0x0e,
  MutBorrowField: 0x0f,
  ImmBorrowField: 0x10,
  Call: 0x11,
  Pack: 0x12,
  Unpack: 0x13,
  ReadRef: 0x14,
  WriteRef: 0x15,
  Add: 0x16,
  Sub: 0x17,
  Mul: 0x18,
  Mod: 0x19,
  Div: 0x1a,
  BitOr: 0x1b,
  BitAnd: 0x1c,
  Xor: 0x1d,
  Or: 0x1e,
  And: 0x1f,
  Not: 0x20,
  Eq: 0x21,
  Neq: 0x22,
  Lt: 0x23,
  Gt: 0x24,
  Le: 0x25,
  Ge: 0x26,
  Abort: 0x27,
  Nop: 0x28,
  ExistsDeprecated: 0x29,
  MutBorrowGlobalDeprecated: 0x2a,
  ImmBorrowGlobalDeprecated: 0x2b,
  MoveFromDeprecated: 0x2c,
  MoveToDeprecated: 0x2d,
  FreezeRef: 0x2e,
  Shl: 0x2f,
  Shr: 0x30,
  LdU8: 0x31,
  LdU128: 0x32,
  CastU8: 0x33,
  CastU64: 0x34,
  CastU128: 0x35,
  MutBorrowFieldGeneric: 0x36,
  ImmBorrowFieldGeneric: 0x37,
  CallGeneric: 0x38,
  PackGeneric: 0x39,
  UnpackGeneric: 0x3a,
  ExistsGenericDeprecated: 0x3b,
  MutBorrowGlobalGenericDeprecated: 0x3c,
  ImmBorrowGlobalGenericDeprecated: 0x3d,
  MoveFromGenericDeprecated: 0x3e,
  MoveToGenericDeprecated: 0x3f,
  VecPack: 0x40,
  VecLen: 0x41,
  VecImmBorrow: 0x42,
  VecMutBorrow: 0x43,
  VecPushBack: 0x44,
  VecPopBack: 0x45,
  VecUnpack: 0x46,
  VecSwap: 0x47,
  LdU16: 0x48,
  LdU32: 0x49,
  LdU256: 0x4a,
  CastU16: 0x4b,
  CastU32: 0x4c,
  CastU256: 0x4d,
  PackVariant: 0x4e,
  PackVariantGeneric: 0x4f,
  UnpackVariant: 0x50,
  UnpackVariantImmRef: 0x51,
  UnpackVariantMutRef: 0x52,
  UnpackVariantGeneric: 0x53,
  UnpackVariantGenericImmRef: 0x54,
  UnpackVariantGenericMutRef: 0x55,
  VariantSwitch: 0x56,
};

/** Instruction kind of each opcode byte (`undefined` for unknown opcodes). */
export const KIND_OF_OPCODE: readonly (BytecodeKind | undefined)[] = (() => {
  const table: (BytecodeKind | undefined)[] = new Array<BytecodeKind | undefined>(256).fill(undefined);
  for (const [kind, op] of Object.entries(OPCODE) as [BytecodeKind, number][]) table[op] = kind;
  return table;
})();

const SIMPLE_KINDS: readonly SimpleBytecodeKind[] = [
  'Pop',
  'Ret',
  'CastU8',
  'CastU16',
  'CastU32',
  'CastU64',
  'CastU128',
  'CastU256',
  'LdTrue',
  'LdFalse',
  'ReadRef',
  'WriteRef',
  'FreezeRef',
  'Add',
  'Sub',
  'Mul',
  'Mod',
  'Div',
  'BitOr',
  'BitAnd',
  'Xor',
  'Or',
  'And',
  'Not',
  'Eq',
  'Neq',
  'Lt',
  'Gt',
  'Le',
  'Ge',
  'Abort',
  'Nop',
  'Shl',
  'Shr',
];

/** Shared frozen instances of the operand-free instructions. */
export const SIMPLE_INSTRUCTION: Readonly<Record<SimpleBytecodeKind, Bytecode>> = Object.freeze(
  Object.fromEntries(SIMPLE_KINDS.map((k) => [k, Object.freeze({ $kind: k })])) as Record<SimpleBytecodeKind, Bytecode>,
);

/** `true` when the kind takes no operand. */
export function isSimpleKind(kind: BytecodeKind): kind is SimpleBytecodeKind {
  return Object.hasOwn(SIMPLE_INSTRUCTION, kind);
}

/** Shared frozen primitive signature tokens. */
export const PRIMITIVE_TOKEN: Readonly<Record<PrimitiveTokenKind, SignatureToken>> = Object.freeze({
  Bool: Object.freeze({ $kind: 'Bool' }),
  U8: Object.freeze({ $kind: 'U8' }),
  U16: Object.freeze({ $kind: 'U16' }),
  U32: Object.freeze({ $kind: 'U32' }),
  U64: Object.freeze({ $kind: 'U64' }),
  U128: Object.freeze({ $kind: 'U128' }),
  U256: Object.freeze({ $kind: 'U256' }),
  Address: Object.freeze({ $kind: 'Address' }),
  Signer: Object.freeze({ $kind: 'Signer' }),
});

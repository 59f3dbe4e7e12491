/**
 * Reading of signature tokens, ability sets, function definitions and code units:
 * the parts of the deserializer that recurse or loop over instructions.
 */
import type { BinaryReader } from './binary-reader.js';
import type { AbilitySet, Bytecode, BytecodeKind, CodeUnit, FunctionDefinition, IndexedBytecodeKind, SignatureToken, VariantJumpTable, Visibility } from './file-format.js';
import { Ability } from './file-format.js';
import { FunctionFlags, KIND_OF_OPCODE, Limits, PRIMITIVE_TOKEN, SerializedType, SIMPLE_INSTRUCTION, isSimpleKind } from './opcodes.js';

/** Where an ability set appears (matters only for binary versions before 2). */
export const AbilityPosition = {
  FunctionTypeParameter: 0,
  DatatypeTypeParameter: 1,
  DatatypeHandle: 2,
} as const;
type AbilityPositionValue = (typeof AbilityPosition)[keyof typeof AbilityPosition];

/** Read an ability set (v2+: a ULEB bit set; v1: the deprecated kind byte). */
export function readAbilitySet(r: BinaryReader, pos: AbilityPositionValue): AbilitySet {
  if (r.version >= 2) return r.uleb(0xf);
  const byte = r.u8();
  const { Copy, Drop, Store, Key } = Ability;
  if (pos === AbilityPosition.DatatypeHandle) {
    if (byte === 1) return Store | Key;
    if (byte === 2) return Store | Copy | Drop;
    return r.fail('UNKNOWN_ABILITY');
  }
  let set: number;
  if (byte === 1) set = 0;
  else if (byte === 2) set = Copy | Drop;
  else if (byte === 3) set = Key;
  else return r.fail('UNKNOWN_ABILITY');
  return pos === AbilityPosition.FunctionTypeParameter ? set | Store : set;
}

/** A partially built type constructor on the reading stack. */
type Builder =
  | { done: true; token: SignatureToken }
  | { done: false; kind: 'Vector' | 'Reference' | 'MutableReference' }
  | { done: false; kind: 'Inst'; index: number; arity: number; args: SignatureToken[] };

function readTokenStep(r: BinaryReader): Builder {
  if (r.pos >= r.end) r.fail('MALFORMED', 'Unexpected EOF');
  const b = r.bytes[r.pos++];
  const S = SerializedType;
  if ((b === S.U16 || b === S.U32 || b === S.U256) && r.version < 6) {
    r.fail('MALFORMED', `u16, u32, u256 integers not supported in bytecode version ${r.version}`);
  }
  switch (b) {
    case S.BOOL:
      return { done: true, token: PRIMITIVE_TOKEN.Bool };
    case S.U8:
      return { done: true, token: PRIMITIVE_TOKEN.U8 };
    case S.U16:
      return { done: true, token: PRIMITIVE_TOKEN.U16 };
    case S.U32:
      return { done: true, token: PRIMITIVE_TOKEN.U32 };
    case S.U64:
      return { done: true, token: PRIMITIVE_TOKEN.U64 };
    case S.U128:
      return { done: true, token: PRIMITIVE_TOKEN.U128 };
    case S.U256:
      return { done: true, token: PRIMITIVE_TOKEN.U256 };
    case S.ADDRESS:
      return { done: true, token: PRIMITIVE_TOKEN.Address };
    case S.SIGNER:
      return { done: true, token: PRIMITIVE_TOKEN.Signer };
    case S.VECTOR:
      return { done: false, kind: 'Vector' };
    case S.REFERENCE:
      return { done: false, kind: 'Reference' };
    case S.MUTABLE_REFERENCE:
      return { done: false, kind: 'MutableReference' };
    case S.STRUCT:
      return { done: true, token: { $kind: 'Datatype', index: r.uleb(Limits.TABLE_INDEX_MAX) } };
    case S.DATATYPE_INST: {
      const index = r.uleb(Limits.TABLE_INDEX_MAX);
      const arity = r.uleb(Limits.TYPE_PARAMETER_COUNT_MAX);
      if (arity === 0) r.fail('MALFORMED', 'Struct inst with arity 0');
      return { done: false, kind: 'Inst', index, arity, args: [] };
    }
    case S.TYPE_PARAMETER: {
      const index = r.uleb(Limits.TYPE_PARAMETER_INDEX_MAX);
      // Upstream reads into a u16 with a limit of 65536: the one value that passes the
      // limit but not the conversion is an invariant violation there.
      if (index > 0xffff) r.fail('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'type parameter index does not fit u16');
      return { done: true, token: { $kind: 'TypeParameter', index } };
    }
    default:
      r.pos--;
      return r.fail('UNKNOWN_SERIALIZED_TYPE', `type tag 0x${b.toString(16)}`);
  }
}

function apply(parent: Builder, token: SignatureToken): Builder {
  if (parent.done) throw new Error('unreachable: saturated type constructor');
  switch (parent.kind) {
    case 'Vector':
      return { done: true, token: { $kind: 'Vector', type: token } };
    case 'Reference':
      return { done: true, token: { $kind: 'Reference', type: token } };
    case 'MutableReference':
      return { done: true, token: { $kind: 'MutableReference', type: token } };
    case 'Inst':
      parent.args.push(token);
      if (parent.args.length >= parent.arity) {
        return { done: true, token: { $kind: 'DatatypeInstantiation', index: parent.index, typeArguments: parent.args } };
      }
      return parent;
  }
}

/**
 * Read one signature token without recursion (an explicit stack, depth-limited to
 * {@link Limits.SIGNATURE_TOKEN_DEPTH_MAX} as upstream).
 */
export function readSignatureToken(r: BinaryReader): SignatureToken {
  const first = readTokenStep(r);
  if (first.done) return first.token;
  const stack: Builder[] = [first];
  for (;;) {
    if (stack.length > Limits.SIGNATURE_TOKEN_DEPTH_MAX) r.fail('MALFORMED', 'Maximum recursion depth reached');
    const top = stack[stack.length - 1];
    if (top.done) {
      stack.pop();
      const parent = stack.pop();
      if (parent === undefined) return top.token;
      stack.push(apply(parent, top.token));
    } else {
      stack.push(readTokenStep(r));
    }
  }
}

const VISIBILITY_OF_BYTE: readonly (Visibility | undefined)[] = ['Private', 'Public', undefined, 'Friend'];

/** Read one function definition (handle, visibility, flags, acquires and code). */
export function readFunctionDefinition(r: BinaryReader, deprecateGlobal: boolean): FunctionDefinition {
  const fn = r.uleb(Limits.TABLE_INDEX_MAX);
  let flags = r.u8();
  let visibility: Visibility;
  let isEntry = false;
  let extra: number;
  if (r.version === 1) {
    if (flags & 0x1) {
      flags ^= 0x1;
      visibility = 'Public';
    } else {
      visibility = 'Private';
    }
    extra = flags;
  } else if (r.version < 5) {
    if (flags === 0x2) {
      visibility = 'Public';
      isEntry = true;
    } else {
      const v = VISIBILITY_OF_BYTE[flags];
      if (v === undefined) r.fail('MALFORMED', 'Invalid visibility byte');
      visibility = v;
    }
    extra = r.u8();
  } else {
    const v = VISIBILITY_OF_BYTE[flags];
    if (v === undefined) r.fail('MALFORMED', 'Invalid visibility byte');
    visibility = v;
    extra = r.u8();
    if (extra & FunctionFlags.ENTRY) {
      isEntry = true;
      extra ^= FunctionFlags.ENTRY;
    }
  }
  const acquiresCount = r.uleb(Limits.ACQUIRES_COUNT_MAX);
  const acquiresGlobalResources: number[] = [];
  for (let i = 0; i < acquiresCount; i++) acquiresGlobalResources.push(r.uleb(Limits.TABLE_INDEX_MAX));
  if (acquiresGlobalResources.length > 0 && deprecateGlobal) {
    r.fail('DEPRECATED_BYTECODE_FORMAT', 'global storage operations are not supported');
  }
  let code: CodeUnit | null = null;
  if (extra & FunctionFlags.NATIVE) {
    extra ^= FunctionFlags.NATIVE;
  } else {
    code = readCodeUnit(r, deprecateGlobal);
  }
  if (extra !== 0) r.fail('INVALID_FLAG_BITS', `unknown function flags 0x${extra.toString(16)}`);
  return { function: fn, visibility, isEntry, acquiresGlobalResources, code };
}

function readCodeUnit(r: BinaryReader, deprecateGlobal: boolean): CodeUnit {
  const locals = r.uleb(Limits.TABLE_INDEX_MAX);
  const code = readCode(r, deprecateGlobal);
  const jumpTables: VariantJumpTable[] = [];
  if (r.version >= 7) {
    const count = r.uleb(Limits.JUMP_TABLE_INDEX_MAX);
    for (let i = 0; i < count; i++) {
      const headEnum = r.uleb(Limits.TABLE_INDEX_MAX);
      const branches = r.uleb(Limits.VARIANT_COUNT_MAX);
      const flag = r.u8('Invalid jump table type');
      if (flag !== 0x1) {
        r.pos--;
        r.fail('UNKNOWN_JUMP_TABLE_FLAG', `flag 0x${flag.toString(16)}`);
      }
      const offsets: number[] = [];
      for (let j = 0; j < branches; j++) offsets.push(r.uleb(Limits.BYTECODE_INDEX_MAX));
      jumpTables.push({ headEnum, jumpTable: { $kind: 'Full', offsets } });
    }
  }
  return { locals, code, jumpTables };
}

/** Maximum of the ULEB operand of each indexed instruction. */
const OPERAND_MAX: Partial<Record<BytecodeKind, number>> = {
  BrTrue: Limits.BYTECODE_INDEX_MAX,
  BrFalse: Limits.BYTECODE_INDEX_MAX,
  Branch: Limits.BYTECODE_INDEX_MAX,
  CopyLoc: Limits.LOCAL_INDEX_MAX,
  MoveLoc: Limits.LOCAL_INDEX_MAX,
  StLoc: Limits.LOCAL_INDEX_MAX,
  MutBorrowLoc: Limits.LOCAL_INDEX_MAX,
  ImmBorrowLoc: Limits.LOCAL_INDEX_MAX,
  PackVariant: Limits.VARIANT_HANDLE_INDEX_MAX,
  UnpackVariant: Limits.VARIANT_HANDLE_INDEX_MAX,
  UnpackVariantImmRef: Limits.VARIANT_HANDLE_INDEX_MAX,
  UnpackVariantMutRef: Limits.VARIANT_HANDLE_INDEX_MAX,
  PackVariantGeneric: Limits.VARIANT_INSTANTIATION_HANDLE_INDEX_MAX,
  UnpackVariantGeneric: Limits.VARIANT_INSTANTIATION_HANDLE_INDEX_MAX,
  UnpackVariantGenericImmRef: Limits.VARIANT_INSTANTIATION_HANDLE_INDEX_MAX,
  UnpackVariantGenericMutRef: Limits.VARIANT_INSTANTIATION_HANDLE_INDEX_MAX,
  VariantSwitch: Limits.JUMP_TABLE_INDEX_MAX,
};

/** Operand maximum by opcode byte (0 = no ULEB operand / special). */
const OPERAND_MAX_BY_OPCODE: Int32Array = (() => {
  const t = new Int32Array(256).fill(-1);
  KIND_OF_OPCODE.forEach((kind, op) => {
    if (kind === undefined || isSimpleKind(kind)) return;
    t[op] = OPERAND_MAX[kind] ?? Limits.TABLE_INDEX_MAX;
  });
  return t;
})();

const VECTOR_OPS = new Set<BytecodeKind>(['VecPack', 'VecLen', 'VecImmBorrow', 'VecMutBorrow', 'VecPushBack', 'VecPopBack', 'VecUnpack', 'VecSwap']);
const V6_OPS = new Set<BytecodeKind>(['LdU16', 'LdU32', 'LdU256', 'CastU16', 'CastU32', 'CastU256']);
const ENUM_OPS = new Set<BytecodeKind>([
  'PackVariant',
  'PackVariantGeneric',
  'UnpackVariant',
  'UnpackVariantImmRef',
  'UnpackVariantMutRef',
  'UnpackVariantGeneric',
  'UnpackVariantGenericImmRef',
  'UnpackVariantGenericMutRef',
  'VariantSwitch',
]);
const GLOBAL_OPS = new Set<BytecodeKind>([
  'ExistsDeprecated',
  'ExistsGenericDeprecated',
  'MoveFromDeprecated',
  'MoveFromGenericDeprecated',
  'MoveToDeprecated',
  'MoveToGenericDeprecated',
  'MutBorrowGlobalDeprecated',
  'MutBorrowGlobalGenericDeprecated',
  'ImmBorrowGlobalDeprecated',
  'ImmBorrowGlobalGenericDeprecated',
]);

/** Opcodes that need a version or configuration check before their operand is read. */
function checkOpcode(r: BinaryReader, kind: BytecodeKind, deprecateGlobal: boolean): void {
  if (r.version < 4 && VECTOR_OPS.has(kind)) {
    r.fail('MALFORMED', 'Vector operations not available before bytecode version 4');
  }
  if (r.version < 6 && V6_OPS.has(kind)) {
    r.fail('MALFORMED', `Loading or casting u16, u32, u256 integers not supported in bytecode version ${r.version}`);
  }
  if (r.version < 7 && ENUM_OPS.has(kind)) {
    r.fail('MALFORMED', `enums not supported in bytecode version ${r.version}`);
  }
  if (deprecateGlobal && GLOBAL_OPS.has(kind)) {
    r.fail('DEPRECATED_BYTECODE_FORMAT', 'global storage operations are not supported');
  }
}

/** Opcode bytes that need {@link checkOpcode}. */
const NEEDS_CHECK: Uint8Array = (() => {
  const t = new Uint8Array(256);
  KIND_OF_OPCODE.forEach((kind, op) => {
    if (kind && (VECTOR_OPS.has(kind) || V6_OPS.has(kind) || ENUM_OPS.has(kind) || GLOBAL_OPS.has(kind))) t[op] = 1;
  });
  return t;
})();

function readCode(r: BinaryReader, deprecateGlobal: boolean): Bytecode[] {
  const count = r.uleb(Limits.BYTECODE_COUNT_MAX);
  const code: Bytecode[] = [];
  const bytes = r.bytes;
  while (code.length < count) {
    if (r.pos >= r.end) r.fail('MALFORMED', 'Unexpected EOF');
    const op = bytes[r.pos++];
    const kind = KIND_OF_OPCODE[op];
    if (kind === undefined) {
      r.pos--;
      r.fail('UNKNOWN_OPCODE', `opcode 0x${op.toString(16)}`);
    }
    if (NEEDS_CHECK[op] === 1) checkOpcode(r, kind, deprecateGlobal);
    const max = OPERAND_MAX_BY_OPCODE[op];
    if (max < 0) {
      code.push(SIMPLE_INSTRUCTION[kind as keyof typeof SIMPLE_INSTRUCTION]);
      continue;
    }
    switch (kind) {
      case 'LdU8':
        code.push({ $kind: 'LdU8', value: r.u8() });
        break;
      case 'LdU16':
        code.push({ $kind: 'LdU16', value: r.u16() });
        break;
      case 'LdU32':
        code.push({ $kind: 'LdU32', value: r.u32() });
        break;
      case 'LdU64':
        code.push({ $kind: 'LdU64', value: r.u64() });
        break;
      case 'LdU128':
        code.push({ $kind: 'LdU128', value: r.u128() });
        break;
      case 'LdU256':
        code.push({ $kind: 'LdU256', value: r.u256() });
        break;
      case 'VecPack':
      case 'VecUnpack': {
        const index = r.uleb(Limits.TABLE_INDEX_MAX);
        code.push({ $kind: kind, index, count: r.u64() });
        break;
      }
      default:
        code.push({ $kind: kind as IndexedBytecodeKind, index: r.uleb(max) });
    }
  }
  return code;
}

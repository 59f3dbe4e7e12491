/**
 * Serializer: writes a {@link CompiledModule} in the Move binary format, table by table
 * in the order upstream `serializer.rs` uses, so that a module read from real bytes is
 * written back byte for byte. Versions 5–7 are written.
 */
import { BytecodeError } from './errors.js';
import { writeAddressBytes } from './module-access.js';
import type { Bytecode, CompiledModule, FieldDefinition, SignatureToken } from './file-format.js';
import { FunctionFlags, Limits, MOVE_MAGIC, OPCODE, SUI_FLAVOR, SerializedType, TableKind, UNPUBLISHABLE_MAGIC, VERSION_MAX, VERSION_MIN, VisibilityByte } from './opcodes.js';
import { parseAddress } from './util/address.js';

const UTF8 = new TextEncoder();

/** Growable little-endian byte buffer. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.length++] = v;
  }

  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }

  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  u32be(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, false);
    this.length += 4;
  }

  u64(v: bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt.asUintN(64, v), true);
    this.length += 8;
  }

  /** Little-endian unsigned integer of `bytes` bytes from a bigint. */
  bigLE(v: bigint, bytes: number): void {
    this.reserve(bytes);
    let x = v;
    for (let i = 0; i < bytes; i++) {
      this.buf[this.length++] = Number(x & 0xffn);
      x >>= 8n;
    }
  }

  /** ULEB128 of a non-negative integer. */
  uleb(v: number): void {
    let x = v;
    while (x >= 0x80) {
      this.u8((x % 0x80) | 0x80);
      x = Math.floor(x / 0x80);
    }
    this.u8(x);
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** ULEB128 byte length and UTF-8 bytes of `s` (ASCII, such as an identifier, copied directly). */
  str(s: string): void {
    const n = s.length;
    for (let i = 0; i < n; i++) {
      if (s.charCodeAt(i) > 0x7f) {
        const b = UTF8.encode(s);
        this.uleb(b.length);
        this.bytes(b);
        return;
      }
    }
    this.uleb(n);
    this.reserve(n);
    const buf = this.buf;
    for (let i = 0, at = this.length; i < n; i++) buf[at + i] = s.charCodeAt(i);
    this.length += n;
  }

  /** The 32 bytes of an address `0x` + 64 hex digits; `false`, nothing written, for any other string. */
  address(a: string): boolean {
    this.reserve(32);
    if (!writeAddressBytes(a, this.buf, this.length)) return false;
    this.length += 32;
    return true;
  }

  /** Copy of the written bytes. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  /** The written bytes, not copied: valid until the next write or {@link clear}. */
  written(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** Start over (the buffer is kept). */
  clear(): void {
    this.length = 0;
  }
}

function fail(message: string): never {
  throw new BytecodeError('SERIALIZATION_ERROR', message);
}

/** ULEB with an upstream-style limit check. */
function index(w: ByteWriter, v: number, max: number = Limits.TABLE_INDEX_MAX, what = 'index'): void {
  if (!Number.isInteger(v) || v < 0 || v > max) fail(`${what} ${v} cannot exceed ${max}`);
  w.uleb(v);
}

function writeToken(w: ByteWriter, token: SignatureToken): void {
  const S = SerializedType;
  switch (token.$kind) {
    case 'Bool':
      return w.u8(S.BOOL);
    case 'U8':
      return w.u8(S.U8);
    case 'U16':
      return w.u8(S.U16);
    case 'U32':
      return w.u8(S.U32);
    case 'U64':
      return w.u8(S.U64);
    case 'U128':
      return w.u8(S.U128);
    case 'U256':
      return w.u8(S.U256);
    case 'Address':
      return w.u8(S.ADDRESS);
    case 'Signer':
      return w.u8(S.SIGNER);
    case 'Vector':
      w.u8(S.VECTOR);
      return writeToken(w, token.type);
    case 'Reference':
      w.u8(S.REFERENCE);
      return writeToken(w, token.type);
    case 'MutableReference':
      w.u8(S.MUTABLE_REFERENCE);
      return writeToken(w, token.type);
    case 'Datatype':
      w.u8(S.STRUCT);
      return index(w, token.index);
    case 'DatatypeInstantiation':
      w.u8(S.DATATYPE_INST);
      index(w, token.index);
      index(w, token.typeArguments.length, Limits.TYPE_PARAMETER_COUNT_MAX, 'type argument count');
      for (const t of token.typeArguments) writeToken(w, t);
      return;
    case 'TypeParameter':
      w.u8(S.TYPE_PARAMETER);
      return index(w, token.index, Limits.TYPE_PARAMETER_INDEX_MAX, 'type parameter index');
  }
}

function writeFields(w: ByteWriter, fields: readonly FieldDefinition[]): void {
  index(w, fields.length, Limits.FIELD_COUNT_MAX, 'field count');
  for (const f of fields) {
    index(w, f.name);
    writeToken(w, f.type);
  }
}

const ENUM_OPS = new Set<string>([
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

function operandMax(kind: string): number {
  switch (kind) {
    case 'CopyLoc':
    case 'MoveLoc':
    case 'StLoc':
    case 'MutBorrowLoc':
    case 'ImmBorrowLoc':
      return Limits.LOCAL_INDEX_MAX;
    case 'VariantSwitch':
      return Limits.JUMP_TABLE_INDEX_MAX;
    case 'PackVariant':
    case 'UnpackVariant':
    case 'UnpackVariantImmRef':
    case 'UnpackVariantMutRef':
      return Limits.VARIANT_HANDLE_INDEX_MAX;
    case 'PackVariantGeneric':
    case 'UnpackVariantGeneric':
    case 'UnpackVariantGenericImmRef':
    case 'UnpackVariantGenericMutRef':
      return Limits.VARIANT_INSTANTIATION_HANDLE_INDEX_MAX;
    default:
      return Limits.TABLE_INDEX_MAX;
  }
}

function writeInstruction(w: ByteWriter, ins: Bytecode, version: number): void {
  const op = OPCODE[ins.$kind];
  if (op === undefined) fail(`unknown instruction ${String(ins.$kind)}`);
  if (version < 7 && ENUM_OPS.has(ins.$kind)) fail(`${ins.$kind} needs bytecode version 7`);
  w.u8(op);
  if ('value' in ins) {
    switch (ins.$kind) {
      case 'LdU8':
        return w.u8(ins.value);
      case 'LdU16':
        return w.u16(ins.value);
      case 'LdU32':
        return w.u32(ins.value);
      case 'LdU64':
        return w.u64(ins.value);
      case 'LdU128':
        return w.bigLE(ins.value, 16);
      case 'LdU256':
        return w.bigLE(ins.value, 32);
    }
  }
  if ('count' in ins) {
    index(w, ins.index);
    return w.u64(ins.count);
  }
  if ('index' in ins) index(w, ins.index, operandMax(ins.$kind), `${ins.$kind} operand`);
}

/** One table: its kind and content, written only when non-empty. */
type TableWriter = [kind: number, write: (w: ByteWriter) => void, count: number];

/**
 * Write a module to bytes. The binary version is the module's own unless `version` is given.
 * @throws {BytecodeError} `SERIALIZATION_ERROR` when a value exceeds a format limit.
 */
export function serializeModule(m: CompiledModule, version = m.version): Uint8Array {
  if (version < VERSION_MIN || version > VERSION_MAX) {
    fail(`The requested bytecode version ${version} is not supported. Only ${VERSION_MIN} to ${VERSION_MAX} are.`);
  }
  const tables: TableWriter[] = [
    [
      TableKind.MODULE_HANDLES,
      (w) =>
        m.moduleHandles.forEach((h) => {
          index(w, h.address);
          index(w, h.name);
        }),
      m.moduleHandles.length,
    ],
    [
      TableKind.DATATYPE_HANDLES,
      (w) =>
        m.datatypeHandles.forEach((h) => {
          index(w, h.module);
          index(w, h.name);
          w.uleb(h.abilities);
          index(w, h.typeParameters.length, Limits.TYPE_PARAMETER_COUNT_MAX, 'type parameter count');
          for (const p of h.typeParameters) {
            w.uleb(p.constraints);
            w.uleb(p.isPhantom ? 1 : 0);
          }
        }),
      m.datatypeHandles.length,
    ],
    [
      TableKind.FUNCTION_HANDLES,
      (w) =>
        m.functionHandles.forEach((h) => {
          index(w, h.module);
          index(w, h.name);
          index(w, h.parameters);
          index(w, h.return);
          index(w, h.typeParameters.length, Limits.TYPE_PARAMETER_COUNT_MAX, 'type parameter count');
          for (const c of h.typeParameters) w.uleb(c);
        }),
      m.functionHandles.length,
    ],
    [
      TableKind.FUNCTION_INST,
      (w) =>
        m.functionInstantiations.forEach((i) => {
          index(w, i.handle);
          index(w, i.typeParameters);
        }),
      m.functionInstantiations.length,
    ],
    [
      TableKind.SIGNATURES,
      (w) =>
        m.signatures.forEach((sig) => {
          index(w, sig.length, Limits.SIGNATURE_SIZE_MAX, 'signature size');
          for (const t of sig) writeToken(w, t);
        }),
      m.signatures.length,
    ],
    [
      TableKind.IDENTIFIERS,
      (w) =>
        m.identifiers.forEach((id) => {
          const bytes = new TextEncoder().encode(id);
          index(w, bytes.length, Limits.IDENTIFIER_SIZE_MAX, 'identifier size');
          w.bytes(bytes);
        }),
      m.identifiers.length,
    ],
    [TableKind.ADDRESS_IDENTIFIERS, (w) => m.addressIdentifiers.forEach((a) => w.bytes(addressBytes(a))), m.addressIdentifiers.length],
    [
      TableKind.CONSTANT_POOL,
      (w) =>
        m.constantPool.forEach((c) => {
          writeToken(w, c.type);
          index(w, c.data.length, Limits.CONSTANT_SIZE_MAX, 'constant size');
          w.bytes(c.data);
        }),
      m.constantPool.length,
    ],
    [
      TableKind.METADATA,
      (w) =>
        m.metadata.forEach((e) => {
          index(w, e.key.length, Limits.METADATA_KEY_SIZE_MAX, 'metadata key size');
          w.bytes(e.key);
          index(w, e.value.length, Limits.METADATA_VALUE_SIZE_MAX, 'metadata value size');
          w.bytes(e.value);
        }),
      m.metadata.length,
    ],
    [
      TableKind.STRUCT_DEFS,
      (w) =>
        m.structDefs.forEach((d) => {
          index(w, d.structHandle);
          if (d.fieldInformation.$kind === 'Native') w.u8(0x1);
          else {
            w.u8(0x2);
            writeFields(w, d.fieldInformation.fields);
          }
        }),
      m.structDefs.length,
    ],
    [
      TableKind.STRUCT_DEF_INST,
      (w) =>
        m.structDefInstantiations.forEach((i) => {
          index(w, i.def);
          index(w, i.typeParameters);
        }),
      m.structDefInstantiations.length,
    ],
    [TableKind.FUNCTION_DEFS, (w) => m.functionDefs.forEach((d) => writeFunctionDef(w, d, version)), m.functionDefs.length],
    [
      TableKind.FIELD_HANDLE,
      (w) =>
        m.fieldHandles.forEach((h) => {
          index(w, h.owner);
          index(w, h.field, Limits.FIELD_OFFSET_MAX, 'field offset');
        }),
      m.fieldHandles.length,
    ],
    [
      TableKind.FIELD_INST,
      (w) =>
        m.fieldInstantiations.forEach((i) => {
          index(w, i.handle);
          index(w, i.typeParameters);
        }),
      m.fieldInstantiations.length,
    ],
    [
      TableKind.FRIEND_DECLS,
      (w) =>
        m.friendDecls.forEach((h) => {
          index(w, h.address);
          index(w, h.name);
        }),
      m.friendDecls.length,
    ],
  ];
  if (version >= 7) {
    tables.push(
      [
        TableKind.ENUM_DEFS,
        (w) =>
          m.enumDefs.forEach((d) => {
            index(w, d.enumHandle);
            w.u8(0x2);
            index(w, d.variants.length, Limits.VARIANT_COUNT_MAX, 'variant count');
            for (const v of d.variants) {
              index(w, v.variantName);
              writeFields(w, v.fields);
            }
          }),
        m.enumDefs.length,
      ],
      [
        TableKind.ENUM_DEF_INST,
        (w) =>
          m.enumDefInstantiations.forEach((i) => {
            index(w, i.def);
            index(w, i.typeParameters);
          }),
        m.enumDefInstantiations.length,
      ],
      [
        TableKind.VARIANT_HANDLES,
        (w) =>
          m.variantHandles.forEach((h) => {
            index(w, h.enumDef);
            index(w, h.variant, Limits.VARIANT_TAG_MAX_VALUE, 'variant tag');
          }),
        m.variantHandles.length,
      ],
      [
        TableKind.VARIANT_INST_HANDLES,
        (w) =>
          m.variantInstantiationHandles.forEach((h) => {
            index(w, h.enumDef);
            index(w, h.variant, Limits.VARIANT_TAG_MAX_VALUE, 'variant tag');
          }),
        m.variantInstantiationHandles.length,
      ],
    );
  } else if (m.enumDefs.length + m.enumDefInstantiations.length + m.variantHandles.length + m.variantInstantiationHandles.length > 0) {
    fail(`enums need bytecode version 7, module is written as version ${version}`);
  }

  // Table contents first (to know offsets and sizes), then the header.
  const content = new ByteWriter(8192);
  const present: [number, number, number][] = [];
  for (const [kind, write, count] of tables) {
    if (count === 0) continue;
    const start = content.length;
    write(content);
    present.push([kind, start, content.length - start]);
  }
  const w = new ByteWriter(content.length + 64);
  w.u32be(m.publishable ? MOVE_MAGIC : UNPUBLISHABLE_MAGIC);
  w.u32(version >= 7 ? ((SUI_FLAVOR << 24) | version) >>> 0 : version);
  w.uleb(present.length);
  for (const [kind, start, size] of present) {
    w.u8(kind);
    w.uleb(start);
    w.uleb(size);
  }
  w.bytes(content.finish());
  index(w, m.selfModuleHandleIndex);
  return w.finish();
}

function writeFunctionDef(w: ByteWriter, d: CompiledModule['functionDefs'][number], version: number): void {
  index(w, d.function);
  w.u8(VisibilityByte[d.visibility]);
  let flags = 0;
  if (d.isEntry) flags |= FunctionFlags.ENTRY;
  if (d.code === null) flags |= FunctionFlags.NATIVE;
  w.u8(flags);
  index(w, d.acquiresGlobalResources.length, Limits.ACQUIRES_COUNT_MAX, 'acquires count');
  for (const s of d.acquiresGlobalResources) index(w, s);
  if (d.code === null) return;
  index(w, d.code.locals);
  index(w, d.code.code.length, Limits.BYTECODE_COUNT_MAX, 'bytecode count');
  for (const ins of d.code.code) writeInstruction(w, ins, version);
  if (version < 7) {
    if (d.code.jumpTables.length > 0) fail(`Jump tables not supported in bytecode version ${version}`);
    return;
  }
  index(w, d.code.jumpTables.length, Limits.JUMP_TABLE_INDEX_MAX, 'jump table count');
  for (const jt of d.code.jumpTables) {
    index(w, jt.headEnum);
    index(w, jt.jumpTable.offsets.length, Limits.VARIANT_COUNT_MAX, 'jump table length');
    w.u8(0x1);
    for (const o of jt.jumpTable.offsets) index(w, o, Limits.BYTECODE_INDEX_MAX, 'code offset');
  }
}

/** 32 bytes of an address given as hex (with or without `0x`, short forms padded). */
export function addressBytes(address: string): Uint8Array {
  const canonical = parseAddress(address);
  if (canonical === undefined) fail(`invalid address ${JSON.stringify(address)}`);
  const out = new Uint8Array(32);
  writeAddressBytes(canonical, out, 0);
  return out;
}

/**
 * BCS encoding and decoding of runtime values by their runtime type (what
 * `0x1::bcs::to_bytes` produces, and how constants, arguments and return values travel).
 */
import { addressFromBytes, writeAddressBytes } from '@smi/bytecode';
import { VmError } from '../errors.js';
import { type DatatypeInfo, type Type, TypeKind, type TypeTable } from '../types/runtime-type.js';
import { VariantValue } from './value.js';
import { MoveVector, VecKind, type VecKindValue } from './vector.js';

/** Storage kind of a vector whose elements have type `elem`. */
export function vecKindOf(elem: Type): VecKindValue {
  switch (elem.kind) {
    case TypeKind.U8:
      return VecKind.U8;
    case TypeKind.Bool:
      return VecKind.Bool;
    case TypeKind.U16:
      return VecKind.U16;
    case TypeKind.U32:
      return VecKind.U32;
    case TypeKind.U64:
      return VecKind.U64;
    default:
      return VecKind.Boxed;
  }
}

/** Growable output buffer (one, reused by every encoding: encoding never nests). */
class Out {
  buf = new Uint8Array(256);
  view = new DataView(this.buf.buffer);
  len = 0;

  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** The bytes written, copied; the buffer is then ready for the next encoding (and shrunk after a large one). */
  take(): Uint8Array {
    const bytes = this.buf.slice(0, this.len);
    this.len = 0;
    if (this.buf.length > 65536) {
      this.buf = new Uint8Array(256);
      this.view = new DataView(this.buf.buffer);
    }
    return bytes;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  uleb(n: number): void {
    let x = n;
    while (x >= 0x80) {
      this.byte((x & 0x7f) | 0x80);
      x = Math.floor(x / 128);
    }
    this.byte(x);
  }

  le(v: bigint | number, bytes: number): void {
    this.ensure(bytes);
    if (typeof v === 'number') {
      let x = v;
      for (let i = 0; i < bytes; i++) {
        this.buf[this.len++] = x & 0xff;
        x = Math.floor(x / 256);
      }
      return;
    }
    if (bytes === 8) {
      // No BigInt arithmetic (each operation allocates); the value is a u64 (wrapped if not).
      this.view.setBigUint64(this.len, v, true);
      this.len += 8;
      return;
    }
    let x = v;
    for (let i = 0; i < bytes; i++) {
      this.buf[this.len++] = Number(x & 0xffn);
      x >>= 8n;
    }
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  address(a: string): void {
    this.ensure(32);
    if (writeAddressBytes(a, this.buf, this.len)) this.len += 32;
    else this.bytes(addressValueBytes(a));
  }
}

/** The 32 bytes of an address value (`0x` + 64 hex digits). */
export function addressValueBytes(a: string): Uint8Array {
  const out = new Uint8Array(32);
  if (!writeAddressBytes(a, out, 0)) for (let i = 0; i < 32; i++) out[i] = parseInt(a.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
}

const SCRATCH = new Out();

function encode(out: Out, v: unknown, t: Type, table: TypeTable): void {
  switch (t.kind) {
    case TypeKind.Bool:
      return out.byte(v ? 1 : 0);
    case TypeKind.U8:
      return out.byte(v as number);
    case TypeKind.U16:
      return out.le(v as number, 2);
    case TypeKind.U32:
      return out.le(v as number, 4);
    case TypeKind.U64:
      return out.le(v as bigint, 8);
    case TypeKind.U128:
      return out.le(v as bigint, 16);
    case TypeKind.U256:
      return out.le(v as bigint, 32);
    case TypeKind.Address:
    case TypeKind.Signer:
      return out.address(v as string);
    case TypeKind.Vector: {
      const vec = v as MoveVector;
      out.uleb(vec.length);
      if (vec.kind === VecKind.U8) return out.bytes(vec.bytes());
      const elem = t.elem as Type;
      for (let i = 0; i < vec.length; i++) encode(out, vec.get(i), elem, table);
      return;
    }
    case TypeKind.Datatype: {
      const d = t.datatype as DatatypeInfo;
      if (d.isEnum) {
        const e = v as VariantValue;
        out.uleb(e.tag);
        const fields = d.variants()[e.tag].fields;
        for (let i = 0; i < fields.length; i++) encode(out, e.fields[i], fieldType(table, t, fields[i].type), table);
        return;
      }
      const s = v as unknown[];
      const fields = d.fields();
      for (let i = 0; i < fields.length; i++) encode(out, s[i], fieldType(table, t, fields[i].type), table);
      return;
    }
    default:
      throw new VmError('VALUE_SERIALIZATION_ERROR', `cannot serialize a value of kind ${t.kind}`);
  }
}

/** Declared field type instantiated with the owner's type arguments. */
export function fieldType(table: TypeTable, owner: Type, declared: Type): Type {
  return declared.generic ? table.subst(declared, owner.typeArgs) : declared;
}

/** Encoder/decoder bound to a type table (needed to instantiate generic field types). */
export class BcsCodec {
  constructor(private readonly table: TypeTable) {}

  /** BCS bytes of `value` of type `type`. */
  encode(value: unknown, type: Type): Uint8Array {
    const out = SCRATCH;
    out.len = 0; // a previous encoding may have thrown half-way
    encode(out, value, type, this.table);
    return out.take();
  }

  /**
   * Decode `bytes` as a value of `type`; every byte must be consumed.
   * @throws {VmError} `VALUE_DESERIALIZATION_ERROR` on malformed input.
   */
  decode(bytes: Uint8Array, type: Type, maxDepth = 128): unknown {
    const r: Reader = { bytes, pos: 0, maxDepth, table: this.table };
    const v = decode(r, type, 0);
    if (r.pos !== bytes.length) fail(`${bytes.length - r.pos} trailing bytes`);
    return v;
  }
}

interface Reader {
  bytes: Uint8Array;
  pos: number;
  maxDepth: number;
  table: TypeTable;
}

function fail(msg: string): never {
  throw new VmError('VALUE_DESERIALIZATION_ERROR', msg);
}

function need(r: Reader, n: number): void {
  if (r.bytes.length - r.pos < n) fail(`unexpected end of input at byte ${r.pos}`);
}

/** A u64, u128 or u256 (`n` bytes, a multiple of 4), little-endian. */
function readLe(r: Reader, n: number): bigint {
  need(r, n);
  const b = r.bytes;
  const at = r.pos;
  r.pos += n;
  // 32 bits at a time, most significant word first: a few BigInt operations instead of two per byte.
  let i = n - 4;
  while (i > 0 && wordLe(b, at + i) === 0) i -= 4; // leading zero words (small values)
  let v = BigInt(wordLe(b, at + i));
  for (i -= 4; i >= 0; i -= 4) v = (v << 32n) | BigInt(wordLe(b, at + i));
  return v;
}

function wordLe(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
}

/** A u16 or u32 (`n` bytes), little-endian. */
function readNum(r: Reader, n: number): number {
  need(r, n);
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + r.bytes[r.pos + i];
  r.pos += n;
  return v;
}

function readUleb(r: Reader): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    need(r, 1);
    const b = r.bytes[r.pos++];
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) {
      if (shift > 0 && b === 0) fail('non-canonical ULEB128');
      if (value > 0xffffffff) fail('ULEB128 length too large');
      return value;
    }
    shift += 7;
    if (shift > 28) fail('ULEB128 too long');
  }
}

function decode(r: Reader, t: Type, depth: number): unknown {
  if (depth > r.maxDepth) fail('value nesting too deep');
  switch (t.kind) {
    case TypeKind.Bool: {
      need(r, 1);
      const b = r.bytes[r.pos++];
      if (b > 1) fail(`invalid bool byte ${b}`);
      return b === 1;
    }
    case TypeKind.U8:
      need(r, 1);
      return r.bytes[r.pos++];
    case TypeKind.U16:
      return readNum(r, 2);
    case TypeKind.U32:
      return readNum(r, 4);
    case TypeKind.U64:
      return readLe(r, 8);
    case TypeKind.U128:
      return readLe(r, 16);
    case TypeKind.U256:
      return readLe(r, 32);
    case TypeKind.Address:
    case TypeKind.Signer: {
      need(r, 32);
      const s = addressFromBytes(r.bytes, r.pos);
      r.pos += 32;
      return s;
    }
    case TypeKind.Vector: {
      const n = readUleb(r);
      const elem = t.elem as Type;
      const kind = vecKindOf(elem);
      if (kind === VecKind.U8) {
        need(r, n);
        const v = MoveVector.fromBytes(r.bytes.subarray(r.pos, r.pos + n));
        r.pos += n;
        return v;
      }
      // Each element takes at least one byte: bound the allocation by the input.
      if (n > r.bytes.length - r.pos) fail(`vector length ${n} exceeds the remaining input`);
      const v = MoveVector.empty(kind, n);
      for (let i = 0; i < n; i++) v.push(decode(r, elem, depth + 1));
      return v;
    }
    case TypeKind.Datatype: {
      const d = t.datatype as DatatypeInfo;
      if (d.isEnum) {
        const tag = readUleb(r);
        const variants = d.variants();
        if (tag >= variants.length) fail(`variant tag ${tag} out of range for ${d.name}`);
        const fields = variants[tag].fields;
        const vals = new Array<unknown>(fields.length);
        for (let i = 0; i < fields.length; i++) vals[i] = decode(r, fieldType(r.table, t, fields[i].type), depth + 1);
        return new VariantValue(tag, vals);
      }
      const fields = d.fields();
      const vals = new Array<unknown>(fields.length);
      for (let i = 0; i < fields.length; i++) vals[i] = decode(r, fieldType(r.table, t, fields[i].type), depth + 1);
      return vals;
    }
    default:
      return fail(`cannot deserialize a value of kind ${t.kind}`);
  }
}

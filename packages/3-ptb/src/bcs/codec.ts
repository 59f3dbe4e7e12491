/**
 * Codec building blocks: typed `@mysten/bcs` types whose structure is also recorded as
 * data (a {@link Shape}), so that one declaration gives the BCS codec, the serde JSON
 * reader ({@link fromSerdeJson}) and a structure that tests compare with Sui's
 * serde-reflection schema.
 *
 * Values: u8/u16/u32 are numbers, u64 and wider are bigints, addresses are `0x` + 64
 * lowercase hex digits, digests are base58 strings, byte vectors are `Uint8Array`s, enums
 * are `{ $kind: 'Variant', Variant: payload }` (unit variants have payload `true`).
 */
import { BcsReader, BcsType, type BcsWriter, compareBcsBytes, fromBase58, toBase58 } from '@mysten/bcs';
import { toBcsError } from './errors.js';
import { base58Of32 } from './fast-encode.js';
import { BcsError } from '@smi/move-vm';
import { parseAddress, writeUleb128 } from '@smi/bytecode';

/** A codec whose decoded and encodable values have the same type `T`. */
export type Codec<T> = BcsType<T, T>;

/** Anything with a shape: every codec of this package. */
export interface AnyCodec {
  readonly name: string;
}

/**
 * The `$kind`-tagged union of the variants of `V` (variant name → payload type; unit
 * variants have payload `true`), as `@mysten/bcs` enums produce it.
 */
export type Enum<V> = { [K in keyof V]: { $kind: K } & { [P in K]: V[K] } }[keyof V];

/** Leaf kinds of a {@link Shape}. */
export type LeafKind = 'u8' | 'u16' | 'u32' | 'u64' | 'bool' | 'string' | 'bytes' | 'fixedBytes' | 'address' | 'digest';

/** One field of a struct shape. */
export interface FieldShape {
  /** Our (camelCase) field name. */
  readonly name: string;
  /** The field's name in Sui's serde output (snake_case, or as renamed upstream). */
  readonly serdeName: string;
  readonly codec: AnyCodec;
}

/** One variant of an enum shape; `codec` is `null` for unit variants. */
export interface VariantShape {
  readonly name: string;
  readonly codec: AnyCodec | null;
}

/**
 * The recorded structure of a codec. `struct.serde` says how Sui's serde sees the same
 * bytes: a named struct, a tuple (our struct names the positions), or a newtype (our
 * struct has one field that Sui's serde writes bare).
 */
export type Shape =
  | { readonly kind: 'leaf'; readonly leaf: LeafKind; readonly size?: number }
  | { readonly kind: 'vector'; readonly element: AnyCodec }
  | { readonly kind: 'option'; readonly element: AnyCodec }
  | { readonly kind: 'tuple'; readonly elements: readonly AnyCodec[] }
  | { readonly kind: 'map'; readonly key: AnyCodec; readonly value: AnyCodec }
  | {
      readonly kind: 'struct';
      readonly name: string;
      readonly serde: 'struct' | 'tuple' | 'newtype';
      readonly fields: readonly FieldShape[];
    }
  | { readonly kind: 'enum'; readonly name: string; readonly variants: readonly VariantShape[] }
  | { readonly kind: 'lazy'; readonly resolve: () => AnyCodec };

const shapes = new WeakMap<object, Shape>();

function register<T>(codec: Codec<T>, shape: Shape): Codec<T> {
  shapes.set(codec, shape);
  return codec;
}

/** The recorded structure of a codec of this package (lazy codecs resolved). */
export function shapeOf(codec: AnyCodec): Shape {
  let shape = shapes.get(codec);
  while (shape !== undefined && shape.kind === 'lazy') shape = shapes.get(shape.resolve());
  if (shape === undefined) throw new BcsError('BCS_INVALID_VALUE', `codec ${codec.name} has no recorded shape`);
  return shape;
}

const invalid = (message: string): BcsError => new BcsError('BCS_INVALID_VALUE', message);

function uint(name: 'u8' | 'u16' | 'u32', bytes: 1 | 2 | 4): Codec<number> {
  const max = 2 ** (8 * bytes) - 1;
  return register(
    new BcsType<number, number>({
      name,
      read: (r) => (bytes === 1 ? r.read8() : bytes === 2 ? r.read16() : r.read32()),
      write: (v, w) => void (bytes === 1 ? w.write8(v) : bytes === 2 ? w.write16(v) : w.write32(v)),
      serializedSize: () => bytes,
      validate: (v) => {
        if (!Number.isInteger(v) || v < 0 || v > max) throw invalid(`expected ${name}, got ${String(v)}`);
      },
    }),
    { kind: 'leaf', leaf: name },
  );
}

/** `u8` as a number. */
export const U8: Codec<number> = uint('u8', 1);
/** `u16` as a number. */
export const U16: Codec<number> = uint('u16', 2);
/** `u32` as a number. */
export const U32: Codec<number> = uint('u32', 4);

const U64_MAX = (1n << 64n) - 1n;
/** `u64` as a bigint. */
export const U64: Codec<bigint> = register(
  new BcsType<bigint, bigint>({
    name: 'u64',
    read: (r) => {
      const lo = r.read32();
      return (BigInt(r.read32()) << 32n) | BigInt(lo);
    },
    write: (v, w) => void w.write32(Number(v & 0xffffffffn)).write32(Number(v >> 32n)), // = write64, without BigInt division per byte
    serializedSize: () => 8,
    validate: (v) => {
      if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw invalid(`expected u64 bigint, got ${String(v)}`);
    },
  }),
  { kind: 'leaf', leaf: 'u64' },
);

/** `bool`. */
export const Bool: Codec<boolean> = register(
  new BcsType<boolean, boolean>({
    name: 'bool',
    read: (r) => {
      const b = r.read8();
      if (b > 1) throw new BcsError('BCS_DECODE_FAILED', `invalid bool byte ${b}`);
      return b === 1;
    },
    write: (v, w) => void w.write8(v ? 1 : 0),
    serializedSize: () => 1,
    validate: (v) => {
      if (typeof v !== 'boolean') throw invalid(`expected boolean, got ${typeof v}`);
    },
  }),
  { kind: 'leaf', leaf: 'bool' },
);

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** A UTF-8 string (ULEB128 length, then bytes). */
export const Str: Codec<string> = register(
  new BcsType<string, string>({
    name: 'string',
    read: (r) => utf8Decoder.decode(r.readBytes(r.readULEB())),
    write: (v, w) => {
      const bytes = utf8Encoder.encode(v);
      writeUleb128(w, bytes.length);
      w.writeBytes(bytes);
    },
    validate: (v) => {
      if (typeof v !== 'string') throw invalid(`expected string, got ${typeof v}`);
    },
  }),
  { kind: 'leaf', leaf: 'string' },
);

function checkBytes(v: unknown, size?: number): void {
  if (!(v instanceof Uint8Array)) throw invalid(`expected Uint8Array, got ${typeof v}`);
  if (size !== undefined && v.length !== size) throw invalid(`expected ${size} bytes, got ${v.length}`);
}

/** `vector<u8>` as a `Uint8Array` (decoding copies). */
export const Bytes: Codec<Uint8Array> = register(
  new BcsType<Uint8Array, Uint8Array>({
    name: 'vector<u8>',
    read: (r) => r.readBytes(r.readULEB()).slice(),
    write: (v, w) => {
      writeUleb128(w, v.length);
      w.writeBytes(v);
    },
    validate: (v) => checkBytes(v),
  }),
  { kind: 'leaf', leaf: 'bytes' },
);

/** `[u8; size]` as a `Uint8Array` of that length (no length prefix). */
export function fixedBytes(size: number): Codec<Uint8Array> {
  return register(
    new BcsType<Uint8Array, Uint8Array>({
      name: `bytes[${size}]`,
      read: (r) => r.readBytes(size).slice(),
      write: (v, w) => void w.writeBytes(v),
      serializedSize: () => size,
      validate: (v) => checkBytes(v, size),
    }),
    { kind: 'leaf', leaf: 'fixedBytes', size },
  );
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase hex of bytes, no prefix. */
export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX[b];
  return s;
}

/** Value of each ASCII hex digit, -1 for other characters. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** Decode `count` bytes of hex from `text` at `start` into `out`; `false` on a non-hex digit. */
function decodeHex(text: string, start: number, out: Uint8Array, count: number): boolean {
  for (let i = 0; i < count; i++) {
    const a = text.charCodeAt(start + 2 * i);
    const b = text.charCodeAt(start + 2 * i + 1);
    const hi = a < 128 ? NIBBLE[a] : -1;
    const lo = b < 128 ? NIBBLE[b] : -1;
    if ((hi | lo) < 0) return false;
    out[i] = (hi << 4) | lo;
  }
  return true;
}

/** Bytes of a hex string (`0x` prefix optional, even length). */
export function hexToBytes(hex: string): Uint8Array {
  const start = hex.startsWith('0x') || hex.startsWith('0X') ? 2 : 0;
  const n = hex.length - start;
  const out = new Uint8Array(n >> 1);
  if (n % 2 !== 0 || !decodeHex(hex, start, out, out.length)) throw invalid(`not hex: ${JSON.stringify(hex)}`);
  return out;
}

/** The 32 bytes of an address (any form {@link normalizeAddress} accepts). */
export function addressToBytes(address: string): Uint8Array {
  // Fast path: the canonical `0x` + 64 hex digits (any case).
  if (address.length === 66 && address.charCodeAt(0) === 48 && (address.charCodeAt(1) | 32) === 120) {
    const out = new Uint8Array(32);
    if (decodeHex(address, 2, out, 32)) return out;
  }
  return hexToBytes(normalizeAddress(address));
}

/**
 * The canonical form of a Sui address or object id: `0x` + 64 lowercase hex digits.
 * Accepts short forms (`0x2`) and a missing `0x`.
 */
export function normalizeAddress(address: string): string {
  const canonical = parseAddress(address);
  if (canonical === undefined) throw new BcsError('BCS_INVALID_ADDRESS', `not an address: ${JSON.stringify(address)}`);
  return canonical;
}

/** 32-byte address (`AccountAddress`, `SuiAddress`, `ObjectID`) as `0x` + 64 hex digits. */
export const Address: Codec<string> = register(
  new BcsType<string, string>({
    name: 'address',
    read: (r) => `0x${bytesToHex(r.readBytes(32))}`,
    write: (v, w) => void w.writeBytes(addressToBytes(v)),
    serializedSize: () => 32,
    validate: (v) => {
      if (typeof v !== 'string') throw new BcsError('BCS_INVALID_ADDRESS', `expected address string, got ${typeof v}`);
      // Full-length text is checked digit by digit when written (a bad digit falls back to normalizeAddress, which throws).
      if (v.length !== 66) normalizeAddress(v);
    },
  }),
  { kind: 'leaf', leaf: 'address' },
);

/** Base58 text of a 32-byte digest (remembered, so writing it back needs no base58 decoding). */
export function digestToBase58(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new BcsError('BCS_INVALID_DIGEST', `a digest has 32 bytes, got ${bytes.length}`);
  const text = base58Of32(bytes);
  if (!digestBytesCache.has(text)) rememberDigest(text, bytes.slice());
  return text;
}

/** The 32 bytes of a base58 digest. */
export function digestFromBase58(digest: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = fromBase58(digest);
  } catch {
    throw new BcsError('BCS_INVALID_DIGEST', `not base58: ${JSON.stringify(digest)}`);
  }
  if (bytes.length !== 32) throw new BcsError('BCS_INVALID_DIGEST', `a digest has 32 bytes, got ${bytes.length}: ${digest}`);
  return bytes;
}

/**
 * Decoded digests, for writing: effects and objects write the same few digests (the
 * transaction's, the objects' just computed) many times. Bounded; entries are never handed out.
 */
const digestBytesCache = new Map<string, Uint8Array>();

function rememberDigest(text: string, bytes: Uint8Array): void {
  if (digestBytesCache.size >= 8192) digestBytesCache.clear();
  digestBytesCache.set(text, bytes);
}

/** The 32 bytes of a base58 digest, from a small cache: read them, never change them. */
export function digestBytesForWrite(digest: string): Uint8Array {
  let bytes = digestBytesCache.get(digest);
  if (bytes === undefined) {
    bytes = digestFromBase58(digest);
    rememberDigest(digest, bytes);
  }
  return bytes;
}

/** A Sui digest (`Digest` newtypes: transaction, effects, object...): ULEB128 32, then 32 bytes; base58 text. */
export const Digest: Codec<string> = register(
  new BcsType<string, string>({
    name: 'digest',
    read: (r) => {
      const n = r.readULEB();
      if (n !== 32) throw new BcsError('BCS_INVALID_DIGEST', `a digest has 32 bytes, got length ${n}`);
      return toBase58(r.readBytes(32));
    },
    write: (v, w) => {
      writeUleb128(w, 32);
      w.writeBytes(digestBytesForWrite(v));
    },
    serializedSize: () => 33,
    validate: (v) => {
      if (typeof v !== 'string') throw new BcsError('BCS_INVALID_DIGEST', `expected base58 string, got ${typeof v}`);
    },
  }),
  { kind: 'leaf', leaf: 'digest' },
);

/** `vector<T>`. */
export function vector<T>(element: Codec<T>): Codec<T[]> {
  return register(
    new BcsType<T[], T[]>({
      name: `vector<${element.name}>`,
      read: (r) => {
        const n = r.readULEB();
        const out: T[] = [];
        for (let i = 0; i < n; i++) {
          try {
            out.push(element.read(r));
          } catch (e) {
            throw toBcsError(e, 'BCS_DECODE_FAILED').within(i);
          }
        }
        return out;
      },
      write: (v, w) => {
        writeUleb128(w, v.length);
        v.forEach((x, i) => {
          try {
            element.write(x, w);
          } catch (e) {
            throw toBcsError(e, 'BCS_INVALID_VALUE').within(i);
          }
        });
      },
      validate: (v) => {
        if (!Array.isArray(v)) throw invalid(`expected array, got ${typeof v}`);
      },
    }),
    { kind: 'vector', element },
  );
}

/** `Option<T>` as `T | null`. */
export function option<T>(element: Codec<T>): Codec<T | null> {
  return register(
    new BcsType<T | null, T | null>({
      name: `Option<${element.name}>`,
      read: (r) => {
        const tag = r.readULEB();
        if (tag > 1) throw new BcsError('BCS_DECODE_FAILED', `invalid option tag ${tag}`);
        return tag === 0 ? null : element.read(r);
      },
      write: (v, w) => {
        if (v === null || v === undefined) writeUleb128(w, 0);
        else {
          writeUleb128(w, 1);
          element.write(v, w);
        }
      },
    }),
    { kind: 'option', element },
  );
}

/** A tuple `(A, B, ...)` as a JS array. */
export function tuple<A extends unknown[]>(...elements: { [I in keyof A]: Codec<A[I]> }): Codec<A> {
  const list: readonly Codec<unknown>[] = elements;
  return register(
    new BcsType<A, A>({
      name: `(${list.map((c) => c.name).join(', ')})`,
      read: (r) => list.map((c, i) => readField(c, r, i)) as A,
      write: (v, w) => list.forEach((c, i) => writeField(c, v[i], w, i)),
      validate: (v) => {
        if (!Array.isArray(v) || v.length !== list.length) throw invalid(`expected a ${list.length}-tuple`);
      },
    }),
    { kind: 'tuple', elements: list },
  );
}

/**
 * `BTreeMap<K, V>` as a JS `Map`. Encoding sorts entries by their key's BCS bytes (the
 * canonical order); decoding rejects maps that are not in that order.
 */
export function map<K, V>(key: Codec<K>, value: Codec<V>): Codec<Map<K, V>> {
  return register(
    new BcsType<Map<K, V>, Map<K, V>>({
      name: `Map<${key.name}, ${value.name}>`,
      read: (r) => {
        const n = r.readULEB();
        const out = new Map<K, V>();
        let previous: Uint8Array | undefined;
        for (let i = 0; i < n; i++) {
          const k = readField(key, r, i);
          const kb = key.serialize(k).toBytes();
          if (previous !== undefined && compareBcsBytes(previous, kb) >= 0) {
            throw new BcsError('BCS_NON_CANONICAL', `map keys out of canonical order at entry ${i}`);
          }
          previous = kb;
          out.set(k, readField(value, r, i));
        }
        return out;
      },
      write: (v, w) => {
        const entries = [...v.entries()].map(([k, x]) => [key.serialize(k).toBytes(), x] as const);
        entries.sort(([a], [b]) => compareBcsBytes(a, b));
        for (let i = 1; i < entries.length; i++) {
          if (compareBcsBytes(entries[i - 1][0], entries[i][0]) === 0) throw invalid('duplicate map key');
        }
        writeUleb128(w, entries.length);
        entries.forEach(([kb, x], i) => {
          w.writeBytes(kb);
          writeField(value, x, w, i);
        });
      },
      validate: (v) => {
        if (!(v instanceof Map)) throw invalid(`expected Map, got ${typeof v}`);
      },
    }),
    { kind: 'map', key, value },
  );
}

function readField<T>(codec: Codec<T>, r: BcsReader, at: string | number): T {
  try {
    return codec.read(r);
  } catch (e) {
    throw toBcsError(e, 'BCS_DECODE_FAILED').within(at);
  }
}

function writeField<T>(codec: Codec<T>, value: T, w: BcsWriter, at: string | number): void {
  try {
    codec.write(value, w);
  } catch (e) {
    throw toBcsError(e, 'BCS_INVALID_VALUE').within(at);
  }
}

/** How a struct's fields are named in Sui's serde JSON and how serde sees the struct. */
export interface StructOptions<T> {
  /** `tuple`: serde writes the fields as an array; `newtype`: serde writes the one field bare. */
  serde?: 'struct' | 'tuple' | 'newtype';
  /** `camel`: serde names are ours as they are (upstream `rename_all = "camelCase"`). */
  serdeCase?: 'snake' | 'camel';
  /** Serde names that differ from the rule. */
  rename?: { [K in keyof T]?: string };
}

const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A struct: fields in declaration order. */
export function struct<T extends object>(name: string, fields: { [K in keyof T]-?: Codec<T[K]> }, options: StructOptions<T> = {}): Codec<T> {
  const list = Object.entries(fields) as [string, Codec<unknown>][];
  const renames: Partial<Record<string, string>> = options.rename ?? {};
  const shape: Shape = {
    kind: 'struct',
    name,
    serde: options.serde ?? 'struct',
    fields: list.map(([f, codec]) => ({ name: f, serdeName: renames[f] ?? (options.serdeCase === 'camel' ? f : snake(f)), codec })),
  };
  return register(
    new BcsType<T, T>({
      name,
      read: (r) => {
        const out: Record<string, unknown> = {};
        for (const [f, codec] of list) out[f] = readField(codec, r, f);
        return out as T;
      },
      write: (v, w) => {
        const rec = v as Record<string, unknown>;
        for (const [f, codec] of list) writeField(codec, rec[f], w, f);
      },
      validate: (v) => {
        if (typeof v !== 'object' || v === null) throw invalid(`expected ${name} object, got ${v === null ? 'null' : typeof v}`);
      },
    }),
    shape,
  );
}

/** Payload codecs of an enum's variants: `null` for unit variants (payload `true`). */
export type VariantCodecs<V> = { [K in keyof V]-?: V[K] extends true ? null : Codec<V[K]> };

/** An enum: ULEB128 variant index (declaration order), then the payload. */
export function enumType<V extends object>(name: string, variants: VariantCodecs<V>): Codec<Enum<V>> {
  const list = Object.entries(variants) as [string, Codec<unknown> | null][];
  const index = new Map(list.map(([v], i) => [v, i]));
  const variantOf = (value: Record<string, unknown>): string => {
    const kind = value.$kind;
    if (typeof kind === 'string') {
      if (!index.has(kind)) throw invalid(`unknown ${name} variant ${JSON.stringify(kind)}`);
      return kind;
    }
    const keys = Object.keys(value).filter((k) => index.has(k) && value[k] !== undefined);
    if (keys.length !== 1) throw invalid(`expected one ${name} variant, got ${keys.length}`);
    return keys[0];
  };
  return register(
    new BcsType<Enum<V>, Enum<V>>({
      name,
      read: (r) => {
        const i = r.readULEB();
        const entry = list[i];
        if (entry === undefined) throw new BcsError('BCS_DECODE_FAILED', `unknown ${name} variant index ${i}`);
        const [kind, codec] = entry;
        return { $kind: kind, [kind]: codec === null ? true : readField(codec, r, kind) } as Enum<V>;
      },
      write: (v, w) => {
        const rec = v as Record<string, unknown>;
        const kind = variantOf(rec);
        const i = index.get(kind) as number;
        writeUleb128(w, i);
        const codec = list[i][1];
        if (codec !== null) writeField(codec, rec[kind], w, kind);
      },
      validate: (v) => {
        if (typeof v !== 'object' || v === null) throw invalid(`expected ${name} enum object, got ${v === null ? 'null' : typeof v}`);
      },
    }),
    { kind: 'enum', name, variants: list.map(([v, codec]) => ({ name: v, codec })) },
  );
}

/** A codec defined later (recursive types). */
export function lazy<T>(resolve: () => Codec<T>): Codec<T> {
  let codec: Codec<T> | undefined;
  const get = (): Codec<T> => (codec ??= resolve());
  return register(
    new BcsType<T, T>({
      name: 'lazy',
      read: (r) => get().read(r),
      write: (v, w) => get().write(v, w),
    }),
    { kind: 'lazy', resolve: get },
  );
}

/** A reader that counts what it consumed (`BcsReader` keeps its position private). */
class CountingReader extends BcsReader {
  consumed = 0;
  override shift(bytes: number): this {
    this.consumed += bytes;
    return super.shift(bytes);
  }
}

/**
 * Decodes `bytes` as one value of the codec's type; every byte must be consumed.
 * Throws {@link BcsError} (`BCS_DECODE_FAILED`, `BCS_TRAILING_BYTES`, ...).
 */
export function decodeBcs<T>(codec: Codec<T>, bytes: Uint8Array): T {
  // A view over a larger buffer would let reads run past its end unnoticed: copy it.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  const reader = new CountingReader(own);
  let value: T;
  try {
    value = codec.read(reader);
  } catch (e) {
    throw toBcsError(e, 'BCS_DECODE_FAILED');
  }
  if (reader.consumed > own.length) throw new BcsError('BCS_DECODE_FAILED', `${codec.name}: unexpected end of input`);
  if (reader.consumed !== own.length) {
    throw new BcsError('BCS_TRAILING_BYTES', `${codec.name}: ${own.length - reader.consumed} bytes left after the value`);
  }
  return value;
}

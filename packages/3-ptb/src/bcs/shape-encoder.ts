/**
 * A BCS encoder compiled from each codec's recorded {@link Shape}: one closure per codec
 * writing into a plain growable byte buffer, with the same checks as the codecs' `validate`
 * but none of `@mysten/bcs`'s per-value machinery (writer objects, `DataView` calls,
 * validation wrappers, BigInt byte loops), through `@smi/bytecode`'s `ByteWriter`. Effects, transaction data and objects of a
 * transaction with a thousand commands are encoded for their digests in a few milliseconds.
 *
 * It gives exactly the codec's bytes. A value it cannot write (a wrong type, a bad
 * address...) makes {@link encodeByShape} return `undefined`; the caller then encodes with
 * the codec itself, which raises the codec's own error.
 */
import { compareBcsBytes } from '@mysten/bcs';
import { ByteWriter, SmiError, type SmiErrorOptions } from '@smi/bytecode';
import { addressToBytes, type AnyCodec, type Codec, digestBytesForWrite, shapeOf } from './codec.js';
import { toBcsError } from './errors.js';

/** Thrown inside an encoder for a value it cannot write (caught by {@link encodeByShape}). */
class Unencodable extends SmiError<'UNENCODABLE'> {
  constructor(message = '', options?: SmiErrorOptions) {
    super('UNENCODABLE', message, options);
  }
}

const fail = (): never => {
  throw new Unencodable();
};

type Enc = (o: ByteWriter, v: unknown) => void;

const compiled = new WeakMap<AnyCodec, Enc>();
const U64_MAX = (1n << 64n) - 1n;

function uintEnc(bytes: 1 | 2 | 4): Enc {
  const max = 2 ** (8 * bytes) - 1;
  return (o, v) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) fail();
    const n = v as number;
    if (bytes === 1) o.u8(n);
    else if (bytes === 2) o.u16(n);
    else o.u32(n);
  };
}

/** The encoder of `codec` (compiled once; a lazy codec's target is compiled on first use). */
function encoderOf(codec: AnyCodec): Enc {
  let enc = compiled.get(codec);
  if (enc === undefined) {
    // Inner encoders are looked up on first use, so recursive shapes compile.
    enc = compile(codec);
    compiled.set(codec, enc);
  }
  return enc;
}

function compile(codec: AnyCodec): Enc {
  const shape = shapeOf(codec);
  switch (shape.kind) {
    case 'leaf':
      switch (shape.leaf) {
        case 'u8':
          return uintEnc(1);
        case 'u16':
          return uintEnc(2);
        case 'u32':
          return uintEnc(4);
        case 'u64':
          return (o, v) => {
            if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) fail();
            const n = v as bigint;
            o.u32(Number(n & 0xffffffffn));
            o.u32(Number(n >> 32n));
          };
        case 'bool':
          return (o, v) => {
            if (typeof v !== 'boolean') fail();
            o.u8(v ? 1 : 0);
          };
        case 'string':
          return (o, v) => {
            if (typeof v !== 'string') fail();
            o.str(v as string);
          };
        case 'bytes':
          return (o, v) => {
            if (!(v instanceof Uint8Array)) fail();
            o.uleb((v as Uint8Array).length);
            o.bytes(v as Uint8Array);
          };
        case 'fixedBytes': {
          const size = shape.size;
          return (o, v) => {
            if (!(v instanceof Uint8Array) || v.length !== size) fail();
            o.bytes(v as Uint8Array);
          };
        }
        case 'address':
          return (o, v) => {
            if (typeof v !== 'string') fail();
            if (!o.address(v as string)) o.bytes(addressToBytes(v as string));
          };
        case 'digest':
          return (o, v) => {
            if (typeof v !== 'string') fail();
            o.u8(32);
            o.bytes(digestBytesForWrite(v as string));
          };
      }
      return fail();
    case 'vector': {
      const element = shape.element;
      let e: Enc | undefined;
      return (o, v) => {
        if (!Array.isArray(v)) fail();
        const list = v as unknown[];
        e ??= encoderOf(element);
        o.uleb(list.length);
        for (let i = 0; i < list.length; i++) e(o, list[i]);
      };
    }
    case 'option': {
      const element = shape.element;
      let e: Enc | undefined;
      return (o, v) => {
        if (v === null || v === undefined) o.u8(0);
        else {
          o.u8(1);
          (e ??= encoderOf(element))(o, v);
        }
      };
    }
    case 'tuple': {
      const elements = shape.elements;
      let es: Enc[] | undefined;
      return (o, v) => {
        if (!Array.isArray(v) || v.length !== elements.length) fail();
        es ??= elements.map(encoderOf);
        for (let i = 0; i < es.length; i++) es[i](o, (v as unknown[])[i]);
      };
    }
    case 'map': {
      const { key, value } = shape;
      let k: Enc | undefined;
      let x: Enc | undefined;
      return (o, v) => {
        if (!(v instanceof Map)) fail();
        k ??= encoderOf(key);
        x ??= encoderOf(value);
        const keyEnc = k;
        const entries = [...(v as Map<unknown, unknown>).entries()].map(([kv, xv]) => {
          const ko = new ByteWriter(64);
          keyEnc(ko, kv);
          return [ko.finish(), xv] as const;
        });
        entries.sort(([a], [b]) => compareBcsBytes(a, b));
        for (let i = 1; i < entries.length; i++) if (compareBcsBytes(entries[i - 1][0], entries[i][0]) === 0) fail();
        o.uleb(entries.length);
        for (const [kb, xv] of entries) {
          o.bytes(kb);
          x(o, xv);
        }
      };
    }
    case 'struct': {
      const names = shape.fields.map((f) => f.name);
      const codecs = shape.fields.map((f) => f.codec);
      let es: Enc[] | undefined;
      return (o, v) => {
        if (typeof v !== 'object' || v === null) fail();
        es ??= codecs.map(encoderOf);
        const rec = v as Record<string, unknown>;
        for (let i = 0; i < es.length; i++) es[i](o, rec[names[i]]);
      };
    }
    case 'enum': {
      const variants = shape.variants;
      const index = new Map(variants.map((x, i) => [x.name, i]));
      const es: (Enc | null | undefined)[] = variants.map((x) => (x.codec === null ? null : undefined));
      return (o, v) => {
        if (typeof v !== 'object' || v === null) fail();
        const rec = v as Record<string, unknown>;
        let i = typeof rec.$kind === 'string' ? index.get(rec.$kind) : undefined;
        if (i === undefined) {
          if (typeof rec.$kind === 'string') fail();
          const keys = Object.keys(rec).filter((key) => index.has(key) && rec[key] !== undefined);
          if (keys.length !== 1) fail();
          i = index.get(keys[0]) as number;
        }
        o.uleb(i);
        let e = es[i];
        if (e === null) return;
        if (e === undefined) e = es[i] = encoderOf(variants[i].codec as AnyCodec);
        e(o, rec[variants[i].name]);
      };
    }
    case 'lazy':
      // shapeOf resolves lazy shapes: not reached.
      return fail();
  }
}

/** The writer {@link encodeByShape} reuses, when no call holds it. */
let spare: ByteWriter | null = new ByteWriter();

/** The BCS of `value` by `codec`'s shape, or `undefined` when the value cannot be written (see the module note). */
export function encodeByShape(codec: AnyCodec, value: unknown): Uint8Array | undefined {
  // One writer serves every call (a fresh 1 KiB buffer per value cost more than encoding most
  // values); a call made while it is in use (an encoder encoding) gets its own.
  const o = spare ?? new ByteWriter();
  spare = null;
  o.clear();
  try {
    encoderOf(codec)(o, value);
    return o.finish();
  } catch {
    // Unencodable, or a leaf's own error (a bad address or digest): the codec will say what.
    return undefined;
  } finally {
    spare = o;
  }
}

/** Encodes a value. Throws {@link BcsError} (`BCS_INVALID_VALUE`, ...) on values the codec cannot write. */
export function encodeBcs<T>(codec: Codec<T>, value: T): Uint8Array {
  const fast = encodeByShape(codec, value);
  if (fast !== undefined) return fast;
  try {
    return codec.serialize(value).toBytes();
  } catch (e) {
    throw toBcsError(e, 'BCS_INVALID_VALUE');
  }
}

/**
 * A small CBOR (RFC 8949) reader and writer with the data model of Rust's
 * `ciborium::value::Value`, for Nitro attestation documents (COSE_Sign1).
 */

import { concatBytes } from './common.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** A decoded CBOR value. */
export type CborValue =
  | { readonly t: 'int'; readonly v: bigint }
  | { readonly t: 'bytes'; readonly v: Uint8Array }
  | { readonly t: 'text'; readonly v: string }
  | { readonly t: 'array'; readonly v: readonly CborValue[] }
  | { readonly t: 'map'; readonly v: readonly (readonly [CborValue, CborValue])[] }
  | { readonly t: 'tag'; readonly tag: bigint; readonly v: CborValue }
  | { readonly t: 'simple'; readonly v: number }
  | { readonly t: 'float'; readonly v: number };

/** Malformed CBOR. */
class CborError extends SmiError<'CBOR_INVALID'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('CBOR_INVALID', message, options);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MAX_DEPTH = 128;

class Reader {
  pos = 0;
  constructor(readonly b: Uint8Array) {}

  byte(): number {
    if (this.pos >= this.b.length) throw new CborError('unexpected end');
    return this.b[this.pos++];
  }

  take(n: number): Uint8Array {
    if (n > this.b.length - this.pos) throw new CborError('unexpected end');
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Argument of a header (`null` for the indefinite length marker 31). */
  arg(info: number): bigint | null {
    if (info < 24) return BigInt(info);
    if (info === 31) return null;
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
    if (size === 0) throw new CborError('reserved additional info');
    let x = 0n;
    for (const byte of this.take(size)) x = (x << 8n) | BigInt(byte);
    return x;
  }
}

function length(x: bigint | null): number {
  if (x === null || x > BigInt(Number.MAX_SAFE_INTEGER)) throw new CborError('bad length');
  return Number(x);
}

function chunks(r: Reader, major: number, depth: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (;;) {
    if (r.b[r.pos] === 0xff) {
      r.pos++;
      break;
    }
    const v = read(r, depth + 1);
    if ((major === 2 && v.t !== 'bytes') || (major === 3 && v.t !== 'text')) throw new CborError('bad chunk');
    parts.push(v.t === 'bytes' ? v.v : new TextEncoder().encode((v as { v: string }).v));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function read(r: Reader, depth: number): CborValue {
  if (depth > MAX_DEPTH) throw new CborError('nesting too deep');
  const head = r.byte();
  const major = head >> 5;
  const info = head & 0x1f;
  switch (major) {
    case 0:
      return { t: 'int', v: r.arg(info) ?? badIndefinite() };
    case 1:
      return { t: 'int', v: -1n - (r.arg(info) ?? badIndefinite()) };
    case 2:
    case 3: {
      const n = r.arg(info);
      const raw = n === null ? chunks(r, major, depth) : r.take(length(n));
      if (major === 2) return { t: 'bytes', v: Uint8Array.from(raw) };
      try {
        return { t: 'text', v: utf8.decode(raw) };
      } catch {
        throw new CborError('invalid UTF-8');
      }
    }
    case 4:
    case 5: {
      const n = r.arg(info);
      const items: CborValue[] = [];
      const pairs: [CborValue, CborValue][] = [];
      for (let i = 0; n === null ? r.b[r.pos] !== 0xff : i < length(n); i++) {
        if (major === 4) items.push(read(r, depth + 1));
        else pairs.push([read(r, depth + 1), read(r, depth + 1)]);
        if (r.pos >= r.b.length && n === null) throw new CborError('unexpected end');
      }
      if (n === null) r.pos++;
      return major === 4 ? { t: 'array', v: items } : { t: 'map', v: pairs };
    }
    case 6:
      return { t: 'tag', tag: r.arg(info) ?? badIndefinite(), v: read(r, depth + 1) };
    default: {
      if (info < 24) return { t: 'simple', v: info };
      if (info === 24) return { t: 'simple', v: r.byte() };
      if (info === 25 || info === 26 || info === 27) {
        const raw = r.take(info === 25 ? 2 : info === 26 ? 4 : 8);
        const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
        const v = info === 25 ? halfFloat(view.getUint16(0)) : info === 26 ? view.getFloat32(0) : view.getFloat64(0);
        return { t: 'float', v };
      }
      throw new CborError('unexpected break or reserved simple value');
    }
  }
}

function halfFloat(h: number): number {
  const sign = h >> 15 === 1 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return sign * 2 ** -14 * (f / 1024);
  if (e === 31) return f !== 0 ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (e - 15) * (1 + f / 1024);
}

function badIndefinite(): never {
  throw new CborError('indefinite length not allowed here');
}

/** Decode one CBOR item from the start of `b` (trailing bytes are ignored, as ciborium's reader). */
export function decodeCbor(b: Uint8Array): CborValue {
  return read(new Reader(b), 0);
}

function header(major: number, n: number): Uint8Array {
  if (n < 24) return Uint8Array.of((major << 5) | n);
  if (n < 0x100) return Uint8Array.of((major << 5) | 24, n);
  if (n < 0x10000) return Uint8Array.of((major << 5) | 25, n >> 8, n & 0xff);
  return Uint8Array.of((major << 5) | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** Encode an array of text/bytes items (what COSE's `Sig_structure` needs), shortest headers. */
export function encodeCborArray(items: readonly ({ text: string } | { bytes: Uint8Array })[]): Uint8Array {
  const parts: Uint8Array[] = [header(4, items.length)];
  for (const it of items) {
    const body = 'text' in it ? new TextEncoder().encode(it.text) : it.bytes;
    parts.push(header('text' in it ? 3 : 2, body.length), body);
  }
  return concatBytes(...parts);
}

/** Structural equality of CBOR values (ciborium's `PartialEq`). */
export function cborEqual(a: CborValue, b: CborValue): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'bytes': {
      const y = (b as { v: Uint8Array }).v;
      return a.v.length === y.length && a.v.every((x, i) => x === y[i]);
    }
    case 'array': {
      const y = (b as { v: readonly CborValue[] }).v;
      return a.v.length === y.length && a.v.every((x, i) => cborEqual(x, y[i]));
    }
    case 'map': {
      const y = (b as { v: readonly (readonly [CborValue, CborValue])[] }).v;
      return a.v.length === y.length && a.v.every(([k, v], i) => cborEqual(k, y[i][0]) && cborEqual(v, y[i][1]));
    }
    case 'tag': {
      const y = b as { tag: bigint; v: CborValue };
      return a.tag === y.tag && cborEqual(a.v, y.v);
    }
    default:
      return a.v === (b as { v: unknown }).v;
  }
}

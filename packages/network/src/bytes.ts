/** Byte helpers: BCS vectors put together from their elements' BCS, base64. */
import { fromBase64 } from '@mysten/sui/utils';

/** ULEB128 of a length, as BCS writes a vector's length. */
export function uleb128(n: number): Uint8Array {
  const out: number[] = [];
  let v = n;
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) byte |= 0x80;
    out.push(byte);
  } while (v > 0);
  return Uint8Array.from(out);
}

/** The BCS of a vector whose elements' BCS are `items` (length prefix, then each element). */
export function bcsVector(items: readonly Uint8Array[]): Uint8Array {
  const prefix = uleb128(items.length);
  const out = new Uint8Array(prefix.length + items.reduce((n, i) => n + i.length, 0));
  out.set(prefix, 0);
  let at = prefix.length;
  for (const item of items) {
    out.set(item, at);
    at += item.length;
  }
  return out;
}

/** Bytes of base64 text (checked to be base64 by the answer's schema). */
export function base64Bytes(text: string): Uint8Array {
  return fromBase64(text);
}

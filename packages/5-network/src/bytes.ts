/** Byte helpers: BCS vectors put together from their elements' BCS, base64. */
import { fromBase64 } from '@mysten/sui/utils';
import { uleb128 } from '@smi/bytecode';

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

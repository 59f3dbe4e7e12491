/**
 * Number-arithmetic encoders for the codec's hot paths, giving the same bytes and text as the
 * `@mysten/bcs` ones they replace (which work through BigInt): ULEB128 lengths and variant
 * indices, and the base58 text of 32-byte digests.
 */
import type { BcsWriter } from '@mysten/bcs';

/** `w.writeULEB(n)` (same bytes). */
export function writeUleb(w: BcsWriter, n: number): void {
  while (n >= 0x80) {
    w.write8((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  w.write8(n);
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_LIMB = 58 ** 5;

/**
 * Bitcoin base58 of 32 bytes, the same text as `toBase58` (a `1` per leading zero byte): the
 * number is kept in limbs of five base58 digits, so this is several times faster than the
 * digit-at-a-time encoder, and every written object's digest goes through it.
 */
export function base58Of32(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < 32 && bytes[zeros] === 0) zeros++;
  // Little-endian limbs in base 58^5 (each < 2^30, so limb * 256 + carry stays exact).
  const limbs: number[] = [];
  for (let i = zeros; i < 32; i++) {
    let carry = bytes[i];
    for (let j = 0; j < limbs.length; j++) {
      const x = limbs[j] * 256 + carry;
      carry = Math.floor(x / B58_LIMB);
      limbs[j] = x - carry * B58_LIMB;
    }
    while (carry > 0) {
      const q = Math.floor(carry / B58_LIMB);
      limbs.push(carry - q * B58_LIMB);
      carry = q;
    }
  }
  let digits = '';
  for (let j = 0; j < limbs.length; j++) {
    let x = limbs[j];
    const top = j === limbs.length - 1;
    for (let k = 0; k < 5 && (!top || x > 0); k++) {
      const q = Math.floor(x / 58);
      digits = B58[x - q * 58] + digits;
      x = q;
    }
  }
  return '1'.repeat(zeros) + digits;
}

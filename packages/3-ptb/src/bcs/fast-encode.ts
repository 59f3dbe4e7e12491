/**
 * Number-arithmetic encoders for the codec's hot paths, giving the same bytes and text as the
 * `@mysten/bcs` ones they replace (which work through BigInt): the base58 text of 32-byte
 * digests (ULEB128 lengths and variant indices are `@smi/bytecode`'s `writeUleb128`).
 */
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_LIMB = 58 ** 5;

/** Base58 digits as character codes. */
const B58_CODES = Uint8Array.from(B58, (c) => c.charCodeAt(0));
/** Scratch limbs (a 32-byte number has at most 9 limbs of five base58 digits). */
const limbs = new Float64Array(9);
/** Scratch digits (at most 44 for 32 bytes, plus one `1` per leading zero byte). */
const digits = new Uint8Array(80);

/**
 * Bitcoin base58 of 32 bytes, the same text as `toBase58` (a `1` per leading zero byte): the
 * number is kept in limbs of five base58 digits and fed two bytes at a time (a limb times
 * 2^16 plus a carry stays below 2^46, exact in a double), into reused scratch arrays, so it
 * is several times faster than the digit-at-a-time encoder; every written object's digest
 * goes through it.
 */
export function base58Of32(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < 32 && bytes[zeros] === 0) zeros++;
  let n = 0;
  for (let i = zeros; i < 32; ) {
    // Two bytes at a time, one when an odd count is left at the start.
    const two = (32 - i) % 2 === 0;
    let carry = two ? bytes[i] * 256 + bytes[i + 1] : bytes[i];
    const base = two ? 65536 : 256;
    i += two ? 2 : 1;
    for (let j = 0; j < n; j++) {
      const x = limbs[j] * base + carry;
      carry = Math.floor(x / B58_LIMB);
      limbs[j] = x - carry * B58_LIMB;
    }
    while (carry > 0) {
      const q = Math.floor(carry / B58_LIMB);
      limbs[n++] = carry - q * B58_LIMB;
      carry = q;
    }
  }
  // Digits, least significant first, then reversed into text.
  let d = 0;
  for (let j = 0; j < n; j++) {
    let x = limbs[j];
    const top = j === n - 1;
    for (let k = 0; k < 5 && (!top || x > 0); k++) {
      const q = Math.floor(x / 58);
      digits[d++] = B58_CODES[x - q * 58];
      x = q;
    }
  }
  for (let k = 0; k < zeros; k++) digits[d++] = 0x31; // '1'
  digits.subarray(0, d).reverse();
  return String.fromCharCode.apply(null, digits.subarray(0, d) as unknown as number[]);
}

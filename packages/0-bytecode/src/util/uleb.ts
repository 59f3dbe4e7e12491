/** ULEB128, the variable-length integers of Move bytecode and BCS (lengths, tags, indices). */

/** ULEB128 bytes of a non-negative integer (lengths, variant tags, table indices), appended to `out`. */
export function pushUleb128(out: number[], n: number): number[] {
  let x = n;
  while (x >= 0x80) {
    out.push((x & 0x7f) | 0x80);
    x = Math.floor(x / 128);
  }
  out.push(x);
  return out;
}

/** ULEB128 bytes of a non-negative integer, as BCS writes a vector's length. */
export function uleb128(n: number): Uint8Array {
  return Uint8Array.from(pushUleb128([], n));
}

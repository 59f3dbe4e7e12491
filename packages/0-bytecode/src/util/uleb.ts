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

/** Something that takes bytes one at a time, such as `@mysten/bcs`'s `BcsWriter`. */
export interface ByteSink {
  write8(byte: number): unknown;
}

/** ULEB128 bytes of a non-negative integer written to `sink`: the same bytes as {@link pushUleb128}, with no array in between. */
export function writeUleb128(sink: ByteSink, n: number): void {
  let x = n;
  while (x >= 0x80) {
    sink.write8((x & 0x7f) | 0x80);
    x = Math.floor(x / 128);
  }
  sink.write8(x);
}

/** ULEB128 bytes of a non-negative integer, as BCS writes a vector's length. */
export function uleb128(n: number): Uint8Array {
  return Uint8Array.from(pushUleb128([], n));
}

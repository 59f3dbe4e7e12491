/**
 * Integer helpers for the interpreter: maxima by bit width, shifts and casts with Move's
 * rules (`ARITHMETIC_ERROR` on overflow, on a shift by at least the width, on a cast that
 * does not fit).
 */
import { VmError } from '../errors.js';

/** Largest value of u8/u16/u32, indexed by bit width. */
export const NUM_MAX: readonly number[] = (() => {
  const t: number[] = [];
  t[8] = 0xff;
  t[16] = 0xffff;
  t[32] = 0xffffffff;
  return t;
})();

/** Largest value of u64/u128/u256, indexed by bit width. */
export const BIG_MAX: readonly bigint[] = (() => {
  const t: bigint[] = [];
  t[64] = (1n << 64n) - 1n;
  t[128] = (1n << 128n) - 1n;
  t[256] = (1n << 256n) - 1n;
  return t;
})();

/** An `ARITHMETIC_ERROR`. */
export function arithmeticError(message: string): VmError {
  return new VmError('ARITHMETIC_ERROR', message);
}

/** `a << b` for u8/u16/u32 (bits shifted out are dropped; `b >= bits` is an error). */
export function shlNum(a: number, b: number, bits: number): number {
  if (b >= bits) throw arithmeticError('Shift left overflow');
  const r = (a << b) >>> 0;
  return bits === 32 ? r : r & NUM_MAX[bits];
}

/** `a << b` for u64/u128/u256. */
export function shlBig(a: bigint, b: number, bits: number): bigint {
  if (b >= bits) throw arithmeticError('Shift left overflow');
  return (a << BigInt(b)) & BIG_MAX[bits];
}

/** Cast an integer (number or bigint) to an unsigned integer of `bits` bits. */
export function castValue(v: number | bigint, bits: number): number | bigint {
  if (bits <= 32) {
    const max = NUM_MAX[bits];
    if (typeof v === 'bigint') {
      if (v > BigInt(max)) throw arithmeticError(`Cannot cast ${v} to u${bits}`);
      return Number(v);
    }
    if (v > max) throw arithmeticError(`Cannot cast ${v} to u${bits}`);
    return v;
  }
  const b = typeof v === 'bigint' ? v : BigInt(v);
  if (b > BIG_MAX[bits]) throw arithmeticError(`Cannot cast ${v} to u${bits}`);
  return b;
}

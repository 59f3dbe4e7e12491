/**
 * Golden tests of the integer modules of move-stdlib (`0x1::u8` … `0x1::u256`) on the real
 * latest framework. Every expectation is computed here with BigInt arithmetic; results are
 * compared through their BCS (little-endian bytes, written by hand) and their runtime
 * representation (number up to u32, bigint above).
 */
import { describe, expect, it } from 'vitest';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import type { MoveVM } from '@smi/move-vm';
import { bcs, expectBcs, expectError, frameworkVm, int, le, maxOf, moduleId, ret, val } from './support/golden.js';

const WIDTHS = [8, 16, 32, 64, 128, 256] as const;

/** `floor(sqrt(n))` by Newton's method on BigInt. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/** Smallest `e` with `3^e > max`. */
function firstOverflowingPowerOf3(max: bigint): bigint {
  let e = 0n;
  let p = 1n;
  while (p <= max) {
    p *= 3n;
    e++;
  }
  return e;
}

type Expected = Uint8Array | 'ARITHMETIC_ERROR';

interface Case {
  fn: string;
  /** Arguments as BigInt. */
  args: bigint[];
  /** Bit width of each argument (default: the module's width). */
  bits?: number[];
  expected: Expected;
  /** Function where an error is located, when not `fn` itself. */
  at?: string;
}

/** The cases of module `u<w>`, with expectations from first principles. */
function casesFor(w: number): Case[] {
  const W = BigInt(w);
  const M = maxOf(w);
  const n = (x: bigint) => le(x, w);
  const opt = (x: bigint | null) => bcs.option(x === null ? null : le(x, w));
  const half = 1n << (W / 2n);
  const e3 = firstOverflowingPowerOf3(M);
  const shift = [w, 8];
  const cases: Case[] = [
    { fn: 'max', args: [M / 3n, M], expected: n(M) },
    { fn: 'max', args: [7n, 0n], expected: n(7n) },
    { fn: 'min', args: [M / 3n, M], expected: n(M / 3n) },
    { fn: 'diff', args: [3n, M], expected: n(M - 3n) },
    { fn: 'diff', args: [M, 3n], expected: n(M - 3n) },
    { fn: 'bitwise_not', args: [0x5an], expected: n(M ^ 0x5an) },
    { fn: 'divide_and_round_up', args: [M, 2n], expected: n(M / 2n + (M % 2n === 0n ? 0n : 1n)) },
    { fn: 'divide_and_round_up', args: [100n, 10n], expected: n(10n) },
    // divide_and_round_up delegates to div_ceil, where the division happens.
    { fn: 'divide_and_round_up', args: [10n, 0n], expected: 'ARITHMETIC_ERROR', at: 'div_ceil' },
    { fn: 'div_ceil', args: [101n, 10n], expected: n(11n) },
    { fn: 'pow', args: [2n, W - 1n], bits: shift, expected: n(1n << (W - 1n)) },
    { fn: 'pow', args: [3n, e3 - 1n], bits: shift, expected: n(3n ** (e3 - 1n)) },
    { fn: 'pow', args: [3n, e3], bits: shift, expected: 'ARITHMETIC_ERROR' },
    { fn: 'pow', args: [0n, 0n], bits: shift, expected: n(1n) },
    { fn: 'to_string', args: [M], expected: bcs.bytes(M.toString()) },
    { fn: 'to_string', args: [0n], expected: bcs.bytes('0') },
    { fn: 'to_string', args: [7n], expected: bcs.bytes('7') },
    { fn: 'to_string', args: [100n], expected: bcs.bytes('100') },
    { fn: 'checked_add', args: [M, 1n], expected: opt(null) },
    { fn: 'checked_add', args: [M - 1n, 1n], expected: opt(M) },
    { fn: 'checked_sub', args: [0n, 1n], expected: opt(null) },
    { fn: 'checked_sub', args: [5n, 5n], expected: opt(0n) },
    { fn: 'checked_mul', args: [half, half], expected: opt(null) },
    { fn: 'checked_mul', args: [half, half / 2n], expected: opt(1n << (W - 1n)) },
    { fn: 'checked_div', args: [M, 0n], expected: opt(null) },
    { fn: 'checked_div', args: [M, 2n], expected: opt(M / 2n) },
    { fn: 'saturating_add', args: [M - 1n, 5n], expected: n(M) },
    { fn: 'saturating_add', args: [1n, 2n], expected: n(3n) },
    { fn: 'saturating_sub', args: [3n, 5n], expected: n(0n) },
    { fn: 'saturating_mul', args: [M / 2n, 3n], expected: n(M) },
    { fn: 'saturating_mul', args: [0n, M], expected: n(0n) },
    { fn: 'saturating_mul', args: [half - 1n, half - 1n], expected: n((half - 1n) * (half - 1n)) },
    { fn: 'lossless_shl', args: [1n, W - 1n], bits: shift, expected: opt(1n << (W - 1n)) },
    { fn: 'lossless_shl', args: [3n, W - 1n], bits: shift, expected: opt(null) },
    { fn: 'lossless_shr', args: [3n, 1n], bits: shift, expected: opt(null) },
    { fn: 'lossless_shr', args: [12n, 2n], bits: shift, expected: opt(3n) },
    { fn: 'lossless_div', args: [7n, 2n], expected: opt(null) },
    { fn: 'lossless_div', args: [8n, 2n], expected: opt(4n) },
    { fn: 'lossless_div', args: [8n, 0n], expected: opt(null) },
  ];
  if (w <= 128) {
    cases.push(
      { fn: 'sqrt', args: [M], expected: n(isqrt(M)) },
      { fn: 'sqrt', args: [(half - 1n) * (half - 1n)], expected: n(half - 1n) },
      { fn: 'sqrt', args: [(half - 1n) * (half - 1n) - 1n], expected: n(half - 2n) },
      { fn: 'sqrt', args: [0n], expected: n(0n) },
      { fn: 'mul_div', args: [M, M, M], expected: n(M) },
      { fn: 'mul_div', args: [M, 2n, 3n], expected: n((M * 2n) / 3n) },
      { fn: 'mul_div', args: [M, 2n, 1n], expected: 'ARITHMETIC_ERROR' },
      { fn: 'mul_div', args: [1n, 1n, 0n], expected: 'ARITHMETIC_ERROR' },
      { fn: 'mul_div_ceil', args: [M, 2n, 3n], expected: n((M * 2n + 2n) / 3n) },
      { fn: 'mul_div_ceil', args: [6n, 2n, 3n], expected: n(4n) },
      { fn: 'checked_shl', args: [1n, W], bits: shift, expected: opt(null) },
      { fn: 'checked_shl', args: [3n, W - 1n], bits: shift, expected: opt(1n << (W - 1n)) },
      { fn: 'checked_shr', args: [M, W], bits: shift, expected: opt(null) },
      { fn: 'checked_shr', args: [M, 1n], bits: shift, expected: opt(M >> 1n) },
      { fn: 'lossless_shl', args: [1n, W], bits: shift, expected: opt(null) },
    );
  }
  for (const k of WIDTHS.filter((x) => x < w)) {
    const km = maxOf(k);
    cases.push({ fn: `try_as_u${k}`, args: [km], expected: bcs.option(le(km, k)) }, { fn: `try_as_u${k}`, args: [km + 1n], expected: bcs.option(null) });
  }
  return cases;
}

describeWithFixtures('golden: 0x1::u8 … 0x1::u256', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  const getVm = () => (vm ??= frameworkVm());

  for (const w of WIDTHS) {
    describe(`u${w}`, () => {
      for (const c of casesFor(w)) {
        it(`u${w}::${c.fn}(${c.args.join(', ')})`, () => {
          const args = c.args.map((a, i) => val(int(a, c.bits?.[i] ?? w)));
          const r = getVm().call(`0x1::u${w}::${c.fn}`, { args });
          if (c.expected === 'ARITHMETIC_ERROR') {
            expectError(r, 'ARITHMETIC_ERROR', moduleId('0x1', `u${w}`), c.at ?? c.fn);
          } else {
            expectBcs(ret(r), c.expected);
          }
        });
      }

      it(`u${w} values are ${w <= 32 ? 'numbers' : 'bigints'} and BCS arguments decode`, () => {
        const M = maxOf(w);
        const r = getVm().call(`0x1::u${w}::max`, { args: [{ $kind: 'Bcs', bytes: le(M - 1n, w) }, val(int(M, w))] });
        const v = ret(r);
        expect(v.value).toBe(int(M, w));
        expect(v.typeTag).toBe(`u${w}`);
      });
    });
  }
});

/**
 * Integer arithmetic of compiled Move code at every width (u8 … u256): overflow and
 * underflow of + - *, division and modulo by zero, shifts (truncation, and errors at
 * shift >= width), bitwise operations with the high bit set, comparisons, and every
 * cast between widths. Expectations come from BigInt arithmetic.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CallResult, MoveVM } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo } from './support/compile.js';
import { expectBcs, expectError, frameworkVm, int, le, maxOf, moduleId, ret, val } from './support/golden.js';
import { WIDTHS, arithmeticSource } from './support/move-sources.js';

const ARITH = moduleId('0x0', 'arith');

type Outcome = bigint | boolean | 'ARITHMETIC_ERROR';

/** The expected outcome of `a op b` on `w`-bit unsigned integers. */
function model(op: string, a: bigint, b: bigint, w: number): Outcome {
  const M = maxOf(w);
  const check = (r: bigint): Outcome => (r < 0n || r > M ? 'ARITHMETIC_ERROR' : r);
  switch (op) {
    case 'add':
      return check(a + b);
    case 'sub':
      return check(a - b);
    case 'mul':
      return check(a * b);
    case 'div':
      return b === 0n ? 'ARITHMETIC_ERROR' : a / b;
    case 'mod':
      return b === 0n ? 'ARITHMETIC_ERROR' : a % b;
    case 'and':
      return a & b;
    case 'or':
      return a | b;
    case 'xor':
      return a ^ b;
    case 'shl':
      return b >= BigInt(w) ? 'ARITHMETIC_ERROR' : (a << b) & M;
    case 'shr':
      return b >= BigInt(w) ? 'ARITHMETIC_ERROR' : a >> b;
    case 'lt':
      return a < b;
    case 'ge':
      return a >= b;
    case 'eq':
      return a === b;
    default:
      throw new Error(op);
  }
}

/** Operand pairs for width `w`: edges, the high bit, and mid values. */
function operands(op: string, w: number): [bigint, bigint][] {
  const M = maxOf(w);
  const H = 1n << BigInt(w - 1); // high bit
  const half = 1n << BigInt(w / 2);
  const W = BigInt(w);
  if (op === 'shl' || op === 'shr') {
    const shifts = [0n, 1n, W - 1n, W, 255n].filter((s, i, all) => s <= 255n && all.indexOf(s) === i);
    return [M, H | 1n, 1n, 0x5an].flatMap((a) => shifts.map((s): [bigint, bigint] => [a, s]));
  }
  return [
    [M, 1n],
    [M - 1n, 1n],
    [0n, 1n],
    [1n, 0n],
    [0n, 0n],
    [M, M],
    [H, H],
    [H, 1n],
    [H | 1n, M ^ H],
    [half, half],
    [half, half - 1n],
    [M, 2n],
    [M / 3n, 3n],
    [12345n % M, 1000n % M],
  ];
}

const OPS = ['add', 'sub', 'mul', 'div', 'mod', 'and', 'or', 'xor', 'shl', 'shr', 'lt', 'ge', 'eq'];

function expectOutcome(r: CallResult, expected: Outcome, w: number, fn: string): void {
  if (expected === 'ARITHMETIC_ERROR') {
    expectError(r, 'ARITHMETIC_ERROR', ARITH, fn);
    return;
  }
  const v = ret(r);
  if (typeof expected === 'boolean') {
    expect(v.value).toBe(expected);
    return;
  }
  expect(v.value).toBe(int(expected, w));
  expectBcs(v, le(expected, w));
}

describeWithFixtures('compiled Move arithmetic at every width', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(async () => {
    const { pkg } = await compileDemo({ 'arith.move': arithmeticSource() });
    vm = frameworkVm([pkg]);
  });

  for (const w of WIDTHS) {
    describe(`u${w}`, () => {
      for (const op of OPS) {
        it(`${op}`, () => {
          const fn = `${op}_u${w}`;
          for (const [a, b] of operands(op, w)) {
            const shift = op === 'shl' || op === 'shr';
            const r = vm.call(`0x0::arith::${fn}`, { args: [val(int(a, w)), val(shift ? Number(b) : int(b, w))] });
            try {
              expectOutcome(r, model(op, a, b, w), w, fn);
            } catch (e) {
              throw new Error(`${fn}(${a}, ${b}): ${e instanceof Error ? e.message : String(e)}`);
            }
          }
        });
      }

      it('bitwise not (xor with the maximum) keeps values unsigned', () => {
        const M = maxOf(w);
        const H = 1n << BigInt(w - 1);
        for (const a of [0n, H, M, 0x0fn]) expectOutcome(vm.call(`0x0::arith::not_u${w}`, { args: [val(int(a, w))] }), M ^ a, w, `not_u${w}`);
      });

      for (const to of WIDTHS) {
        it(`cast to u${to}`, () => {
          const fn = `cast_u${w}_u${to}`;
          const values = [0n, maxOf(Math.min(w, to)), maxOf(w), ...(to < w ? [maxOf(to) + 1n, 1n << BigInt(w - 1)] : [])];
          for (const a of values) {
            const expected: Outcome = a > maxOf(to) ? 'ARITHMETIC_ERROR' : a;
            const r = vm.call(`0x0::arith::${fn}`, { args: [val(int(a, w))] });
            try {
              expectOutcome(r, expected, to, fn);
            } catch (e) {
              throw new Error(`${fn}(${a}): ${e instanceof Error ? e.message : String(e)}`);
            }
          }
        });
      }
    });
  }
});

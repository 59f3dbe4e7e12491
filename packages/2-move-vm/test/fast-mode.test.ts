/**
 * The interpreter's fast mode (gas charged per basic block, superinstructions) against its
 * slow mode (one instruction at a time, what a tracer gets): every outcome, the gas used
 * and the failing location must be the same, for normal returns, aborts and arithmetic or
 * vector errors in the middle of a block, the call-depth and stack limits, instruction tiers, and
 * out-of-gas at every budget below what a call needs. Fast mode runs three ways: interpreted,
 * compiled to JavaScript from the start (`interpreter/jit.ts`), and compiled part-way through.
 */
import { beforeAll, expect, it } from 'vitest';
import type { CallArg, CallResult, MoveVM, Tracer } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo } from './support/compile.js';
import { frameworkVm, val } from './support/golden.js';

const SOURCE = `
module demo::fast {
    public struct P has copy, drop { x: u64, y: u64 }

    public fun loop_sum(n: u64): u64 {
        let mut i = 0;
        let mut s = 0;
        while (i < n) { s = s + i * 3 % 7; i = i + 1; };
        s
    }
    public fun overflow_mid(x: u64): u64 { let a = x + 1; let b = a * 2; let c = b - 3; c + x }
    public fun underflow(x: u8, y: u8): u8 { let z = x - y; z + 1 }
    public fun div_zero(x: u32, y: u32): u32 { let a = x / y; a % 5 + 1 }
    public fun fields(n: u64): u64 {
        let mut p = P { x: 0, y: 1 };
        let mut i = 0;
        while (i < n) { p = P { x: p.y, y: (p.x + p.y) % 1000 }; i = i + 1; };
        p.x
    }
    public fun field_ref(n: u64): u64 { let p = P { x: n, y: 2 * n }; sum_ref(&p) }
    fun sum_ref(p: &P): u64 { p.x + p.y }
    public fun vec_idx(n: u64, k: u64): u64 {
        let mut v = vector[];
        let mut i = 0;
        while (i < n) { v.push_back(i); i = i + 1; };
        v[k] + v[0]
    }
    fun id<T: copy + drop>(x: T): T { x }
    public fun calls(n: u64): u64 {
        let mut i = 0;
        let mut s = 0;
        while (i < n) { s = s + id(i) % 7; i = id<u64>(i) + 1; };
        s
    }
    fun rec(n: u64): u64 { if (n == 0) 0 else 1 + rec(n - 1) }
    public fun recurse(n: u64): u64 { rec(n) }
    public fun deep(n: u64) { if (n > 0) deep(n - 1) }
    public fun cmp_branches(a: u64, b: u64): u64 {
        let mut r = 0;
        if (a < b) r = r + 1;
        if (a >= b) r = r + 2;
        if (a != 10) r = r + 4;
        if (a == b) r = r + 8;
        if (b > 3) r + 16 else r
    }
    public fun small(a: u8, b: u16): u32 { let x = (a as u32) ^ (b as u32); x | 7 & 255 }
    public fun abort_mid(x: u64): u64 { let y = x + 1; assert!(y != 5, 77); y * 2 }
    public enum Shape has copy, drop { Circle(u64), Rect { w: u64, h: u64 }, Empty }
    fun area(s: &Shape): u64 {
        match (s) { Shape::Circle(r) => *r * *r * 3, Shape::Rect { w, h } => *w * *h, Shape::Empty => 0 }
    }
    public fun shapes(n: u64): u64 {
        let mut i = 0;
        let mut t = 0;
        while (i < n) {
            let s = if (i % 3 == 0) Shape::Circle(i) else if (i % 3 == 1) Shape::Rect { w: i, h: 2 } else Shape::Empty;
            t = t + area(&s);
            i = i + 1;
        };
        t
    }
    public fun shifts(a: u64, b: u8): u64 { (a << b) >> 1 }
    public fun casts(a: u64): u8 { ((a + 1) as u8) }
    public fun write_ref(n: u64): u64 {
        let mut p = P { x: n, y: 0 };
        let r = &mut p.y;
        *r = n + 1;
        let q = &mut p;
        q.x = q.x * 2;
        p.x + p.y
    }
    public fun deep_eq(a: u64): bool {
        let p = P { x: a, y: a };
        let q = P { x: a, y: 1 };
        p == q || vector[a, 1] == vector[1, a]
    }
    const BYTES: vector<u8> = b"hello";
    public fun consts(i: u64): u8 { let b = BYTES; b[i] }
    fun leaf_add(a: u64, b: u64): u64 { a + b }
    fun checked(a: u64): u64 { assert!(a != 7, 99); a }
    public fun leaf_calls(n: u64): u64 {
        let mut i = 0;
        let mut s = 0;
        while (i < n) { s = leaf_add(s, checked(i)); i = i + 1; };
        s
    }
    public fun leaf_overflow(x: u64): u64 { leaf_add(x, 1) + 1 }
}
`;

const noTracer: Tracer = {
  openFrame() {},
  beforeInstruction() {},
  afterInstruction() {},
  closeFrame() {},
  error() {},
};

/** A comparable form of a result (values as their BCS). */
function outcome(r: CallResult): unknown {
  if (r.$kind === 'Success') return { kind: r.$kind, gas: r.gasUsed, values: r.returnValues.map((v) => Array.from(v.bcs)) };
  if (r.$kind === 'Aborted') return { kind: r.$kind, gas: r.gasUsed, code: String(r.abortCode), location: r.location };
  return { kind: r.$kind, gas: r.gasUsed, code: r.code, sub: String(r.subStatus), location: r.location };
}

const u64 = (n: bigint | number): CallArg => val(BigInt(n));
const MAX = (1n << 64n) - 1n;

const CASES: [name: string, args: CallArg[]][] = [
  ['loop_sum', [u64(40)]],
  ['overflow_mid', [u64(MAX)]],
  ['overflow_mid', [u64(5)]],
  ['underflow', [val(3), val(4)]],
  ['underflow', [val(9), val(4)]],
  ['div_zero', [val(9), val(0)]],
  ['div_zero', [val(9), val(2)]],
  ['fields', [u64(30)]],
  ['field_ref', [u64(21)]],
  ['vec_idx', [u64(6), u64(9)]],
  ['vec_idx', [u64(6), u64(3)]],
  ['calls', [u64(25)]],
  ['recurse', [u64(12)]],
  ['recurse', [u64(5000)]],
  ['deep', [u64(5000)]],
  ['deep', [u64(50)]],
  ['cmp_branches', [u64(3), u64(10)]],
  ['cmp_branches', [u64(10), u64(10)]],
  ['small', [val(200), val(4000)]],
  ['abort_mid', [u64(4)]],
  ['abort_mid', [u64(6)]],
  ['shapes', [u64(40)]],
  ['shifts', [u64(3), val(5)]],
  ['shifts', [u64(3), val(64)]],
  ['casts', [u64(254)]],
  ['casts', [u64(255)]],
  ['write_ref', [u64(9)]],
  ['write_ref', [u64(MAX)]],
  ['deep_eq', [u64(1)]],
  ['deep_eq', [u64(2)]],
  ['consts', [u64(4)]],
  ['consts', [u64(5)]],
  ['leaf_calls', [u64(6)]],
  ['leaf_calls', [u64(9)]],
  ['leaf_overflow', [u64(MAX)]],
  ['leaf_overflow', [u64(MAX - 1n)]],
];

// Fast mode interpreted, compiled to JavaScript from the first block, and compiled part-way
// through (the default threshold is reached inside the longer loops).
const MODES: [name: string, jitThreshold: number | undefined][] = [
  ['interpreted', Infinity],
  ['compiled', 0],
  ['compiled part-way', undefined],
];

for (const [mode, jitThreshold] of MODES)
  describeWithFixtures(`interpreter fast mode (${mode}) = slow mode`, ['fixtures', 'framework'], () => {
    let vm: MoveVM;
    const run = (name: string, args: CallArg[], slow: boolean, gasBudget?: number): unknown => outcome(vm.call(`0x0::fast::${name}`, { args, gasBudget, ...(slow ? { tracer: noTracer } : {}) }));

    beforeAll(async () => {
      const { pkg } = await compileDemo({ 'fast.move': SOURCE });
      vm = frameworkVm([pkg], jitThreshold === undefined ? {} : { jitThreshold });
    }, 120_000);

    it('gives the same outcome, gas and location with the whole budget', () => {
      const kinds = new Set<string>();
      for (const [name, args] of CASES) {
        const fast = run(name, args, false);
        expect(fast, name).toEqual(run(name, args, true));
        kinds.add((fast as { kind: string; code?: string }).kind + ':' + String((fast as { code?: string }).code ?? ''));
      }
      // The cases cover returns, an abort, arithmetic and vector errors, the depth and stack limits.
      expect([...kinds].sort()).toEqual([
        'Aborted:77',
        'Aborted:99',
        'Error:ARITHMETIC_ERROR',
        'Error:CALL_STACK_OVERFLOW',
        'Error:EXECUTION_STACK_OVERFLOW',
        'Error:VECTOR_OPERATION_ERROR',
        'Success:',
      ]);
    });

    it('runs out of gas at the same instruction for every budget', () => {
      let budgets = 0;
      for (const [name, args] of CASES) {
        if ((args[0] as { value: bigint }).value > 100n) continue;
        const full = run(name, args, false) as { gas: number };
        // Every budget up to 1,500, then about 300 spread over the rest (and the last few).
        const step = (b: number): number => (b < 1_500 || b >= full.gas - 3 ? 1 : Math.max(1, Math.floor(full.gas / 300)));
        for (let budget = 0; budget <= full.gas + 1; budget += step(budget)) {
          expect(run(name, args, false, budget), `${name} with ${budget}`).toEqual(run(name, args, true, budget));
          budgets++;
        }
      }
      expect(budgets).toBeGreaterThan(2000);
    });

    it('charges instruction and stack-size tiers the same way (past 20,000 instructions and 100,000 bytes)', () => {
      const args = [u64(4000)];
      const fast = run('loop_sum', args, false) as { gas: number };
      expect(fast).toEqual(run('loop_sum', args, true));
      const meter = { instructions: 0, stackSize: 0 };
      vm.call('0x0::fast::loop_sum', { args, meter });
      expect(meter.instructions).toBeGreaterThan(50_000);
      expect(meter.stackSize).toBeGreaterThan(100_000);
      // More than one gas unit per instruction: the tiers applied.
      for (const budget of [fast.gas - 1, fast.gas - 37, Math.floor(fast.gas / 2), 20_000, 20_003]) {
        expect(run('loop_sum', args, false, budget)).toEqual(run('loop_sum', args, true, budget));
      }
    });
  });

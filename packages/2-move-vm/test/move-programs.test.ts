/**
 * Move programs written here, compiled offline against the real framework and run by the
 * VM: references into nested structs and vectors, enums, generics, recursion, limits,
 * clever errors. Every expectation is computed in the test (a JS model of the program, or
 * BCS written by hand).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress, deserializeModule, type CompiledModule } from '@smi/bytecode';
import { VariantValue, VmError, type CallResult, type MoveVM } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo, lineOf } from './support/compile.js';
import { BUG, VecKind, bcs, bytesVec, concat, constantText, encodeClever, expectBcs, expectError, frameworkVm, moduleId, mutated, ok, ret, stringOf, uleb, val, vec } from './support/golden.js';
import { ENUMS, ERRORS, GENERICS, LOCATIONS, RECURSION, REFS } from './support/move-sources.js';

const ZERO = canonicalAddress('0x0');
const Z = ZERO.slice(2);

// JS model of demo::refs.
type Point = [x: bigint, y: bigint];
interface Bag {
  items: Point[];
  label: string;
}
interface Outer {
  bags: Bag[];
  count: bigint;
}
const make = (): Outer => ({
  bags: [
    {
      items: [
        [1n, 2n],
        [3n, 4n],
      ],
      label: 'a',
    },
    { items: [[5n, 6n]], label: 'b' },
  ],
  count: 2n,
});
const pointBcs = ([x, y]: Point) => concat(bcs.u64(x), bcs.u64(y));
const bagBcs = (b: Bag) => concat(bcs.vector(b.items.map(pointBcs)), bcs.bytes(b.label));
const outerBcs = (o: Outer) => concat(bcs.vector(o.bags.map(bagBcs)), bcs.u64(o.count));
/** Runtime value of a Point / Outer (structs are arrays of their fields). */
const pointValue = ([x, y]: Point) => [x, y];
const outerValue = (o: Outer) => [
  vec(
    VecKind.Boxed,
    o.bags.map((b) => [vec(VecKind.Boxed, b.items.map(pointValue)), bytesVec(b.label)]),
  ),
  o.count,
];

// JS model of demo::enums::Shape: tag 0 Circle { r }, 1 Rect { w, h }, 2 Empty.
type Shape = { k: 'Circle'; r: bigint } | { k: 'Rect'; w: bigint; h: bigint } | { k: 'Empty' };
const circle = (r: bigint): Shape => ({ k: 'Circle', r });
const rect = (w: bigint, h: bigint): Shape => ({ k: 'Rect', w, h });
const EMPTY: Shape = { k: 'Empty' };
const shapeBcs = (s: Shape) => (s.k === 'Circle' ? concat(uleb(0), bcs.u64(s.r)) : s.k === 'Rect' ? concat(uleb(1), bcs.u64(s.w), bcs.u64(s.h)) : uleb(2));
const shapeValue = (s: Shape) => (s.k === 'Circle' ? new VariantValue(0, [s.r]) : s.k === 'Rect' ? new VariantValue(1, [s.w, s.h]) : new VariantValue(2, []));
const area = (s: Shape) => (s.k === 'Circle' ? 3n * s.r * s.r : s.k === 'Rect' ? s.w * s.h : 0n);
const grow = (s: Shape, by: bigint): Shape => (s.k === 'Circle' ? circle(s.r + by) : s.k === 'Rect' ? rect(s.w + by, s.h * 2n) : s);
const SHAPES: Shape[] = [circle(2n), rect(3n, 4n), EMPTY, circle(1n)];

function callError(f: () => unknown): VmError {
  try {
    f();
  } catch (e) {
    if (e instanceof VmError) return e;
    throw e;
  }
  throw new Error('expected the call to throw a VmError');
}

describeWithFixtures('Move programs compiled offline', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  let modules: Map<string, CompiledModule>;
  const call = (target: string, args: unknown[] = [], typeArgs: string[] = [], gasBudget?: number): CallResult => vm.call(`0x0::${target}`, { args: args.map(val), typeArgs, gasBudget });

  beforeAll(async () => {
    const compiled = await compileDemo({
      'refs.move': REFS,
      'enums.move': ENUMS,
      'generics.move': GENERICS,
      'recursion.move': RECURSION,
      'errors.move': ERRORS,
      'locations.move': LOCATIONS,
    });
    modules = new Map([...compiled.bytes].map(([name, bytes]) => [name, deserializeModule(bytes)]));
    vm = frameworkVm([compiled.pkg]);
  });

  it('the package keeps address 0x0 and is callable at 0x0; a different storage id works too', async () => {
    expect([...modules.values()].every((m) => m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address] === ZERO)).toBe(true);
    expect(ret(call('recursion::fact', [5n])).value).toBe(120n);
    const elsewhere = await compileDemo({ 'recursion.move': RECURSION }, '0xc0ffee');
    const vm2 = frameworkVm([elsewhere.pkg]);
    expect(ret(vm2.call('0xc0ffee::recursion::fact', { args: [val(6n)] })).value).toBe(720n);
    // Locations name the module by its own (original) address.
    const r = vm2.call('0xc0ffee::recursion::fact', { args: [val(21n)] });
    expectError(r, 'ARITHMETIC_ERROR', moduleId('0x0', 'recursion'), 'fact');
  });

  describe('references into vectors and nested structs', () => {
    it('writes through &mut to fields of structs in vectors in structs are visible to later reads', () => {
      const v = 50n;
      const o = make();
      o.bags[0].items[1] = [v, o.bags[0].items[1][1] + 100n];
      o.bags[1].items[0] = [v + 1n, o.bags[1].items[0][1]];
      o.bags[1].items.push([7n, 8n]);
      o.bags[1].label += '!';
      o.count += 1n;
      const rs = ok(call('refs::deep_write', [v])).returnValues;
      expect(rs.slice(0, 4).map((x) => x.value)).toEqual([o.bags[0].items[1][0], o.bags[0].items[1][1], o.bags[1].items[0][0], BigInt(o.bags[1].items.length)]);
      expectBcs(rs[4], outerBcs(o));
      expect(rs[4].typeTag).toBe(`${ZERO}::refs::Outer`);
    });

    it('a &mut kept in a local and used many times', () => {
      const n = 4n;
      const o = make();
      const items = o.bags[0].items;
      for (let i = 0n; i < n; i++) items.push([i, i * i + 1n]);
      [items[0], items[1]] = [items[1], items[0]];
      expectBcs(ret(call('refs::reuse_ref', [n])), outerBcs(o));
    });

    it('&mut to vector elements (primitives) inside a struct', () => {
      const vals = [10n, 20n, 30n].map((x) => x + 5n);
      expectBcs(ret(call('refs::bump_all', [5n])), concat(bcs.vector(vals.map((x) => bcs.u64(x))), bcs.u64(vals.reduce((a, b) => a + b))));
    });

    it('vector of structs: swap, remove, swap_remove, push_back, reverse, insert', () => {
      const v: Point[] = [1n, 2n, 3n, 4n].map((k) => [k, k]);
      [v[0], v[3]] = [v[3], v[0]];
      const [removed] = v.splice(1, 1);
      const last = v[0];
      v[0] = v[v.length - 1];
      v.pop();
      v.push([removed[0] * 10n + last[0], 0n]);
      v.reverse();
      v.splice(1, 0, [9n, 9n]);
      expectBcs(ret(call('refs::shuffle')), bcs.vector(v.map(pointBcs)));
    });

    it('copies (copy, read of a field) are independent of the original', () => {
      expect(ok(call('refs::copies_are_independent')).returnValues.map((x) => x.value)).toEqual([1n, 5n, 99n + 1000n]);
    });

    it('writes through &mut to vectors inside a vector', () => {
      expectBcs(ret(call('refs::rewrite_rows')), bcs.vector([bcs.bytes('ab!'), bcs.bytes('xyz'), bcs.bytes(Uint8Array.of(7))]));
    });

    it('&mut arguments come back in mutatedReferences', () => {
      expectBcs(mutated(call('refs::scale', [pointValue([3n, 4n]), 5n]), 0), pointBcs([15n, 20n]));
      const o = make();
      o.bags[0].items[0][1] += 7n;
      o.bags[0].label = 'zz';
      o.count *= 10n;
      expectBcs(mutated(call('refs::bump_in_place', [outerValue(make()), 7n]), 0), outerBcs(o));
      expectBcs(mutated(call('refs::swap_fields', [pointValue([1n, 2n])]), 0), pointBcs([2n, 1n]));
    });
  });

  describe('enums', () => {
    it('match on a reference, with and without fields', () => {
      for (const s of [circle(2n), rect(3n, 4n), EMPTY]) expect(ret(call('enums::area', [shapeValue(s)])).value).toBe(area(s));
    });

    it('match by value: field-less patterns and wildcard', () => {
      expect([circle(1n), rect(1n, 1n), EMPTY].map((s) => ret(call('enums::kind', [shapeValue(s)])).value)).toEqual([10, 20, 30]);
      expect(ret(call('enums::radius_or', [shapeValue(circle(5n)), 9n])).value).toBe(5n);
      expect(ret(call('enums::radius_or', [shapeValue(rect(5n, 5n)), 9n])).value).toBe(9n);
    });

    it('mutable match on &mut enum updates the fields', () => {
      for (const s of [circle(2n), rect(3n, 4n), EMPTY]) {
        const after = mutated(call('enums::grow', [shapeValue(s), 3n]), 0);
        expectBcs(after, shapeBcs(grow(s, 3n)));
      }
    });

    it('variants built in Move come back as VariantValue with their BCS', () => {
      const expected = [EMPTY, rect(4n, 5n), circle(7n)];
      [0n, 4n, 7n].forEach((x, i) => {
        const r = ret(call('enums::classify', [x]));
        expect(r.value).toBeInstanceOf(VariantValue);
        expect((r.value as VariantValue).tag).toBe(['Circle', 'Rect', 'Empty'].indexOf(expected[i].k));
        expectBcs(r, shapeBcs(expected[i]));
      });
    });

    it('enums in vectors: grow each element through &mut v[i]; sum of areas', () => {
      expectBcs(ret(call('enums::grow_all', [1n])), bcs.vector(SHAPES.map((s) => shapeBcs(grow(s, 1n)))));
      const all = ret(call('enums::shapes'));
      expectBcs(all, bcs.vector(SHAPES.map(shapeBcs)));
      expect(ret(call('enums::sum_areas', [all.value])).value).toBe(SHAPES.reduce((a, s) => a + area(s), 0n));
    });

    it('nested enums: match, nested patterns, update through a nested &mut', () => {
      const two = (a: Shape, b: Shape) => new VariantValue(1, [shapeValue(a), shapeValue(b)]);
      expect(ret(call('enums::total_area', [two(circle(1n), rect(2n, 3n))])).value).toBe(area(circle(1n)) + area(rect(2n, 3n)));
      expect(ret(call('enums::total_area', [new VariantValue(0, [shapeValue(rect(2n, 2n))])])).value).toBe(4n);
      expect(ret(call('enums::total_area', [new VariantValue(2, [])])).value).toBe(0n);
      expectBcs(ret(call('enums::nested_update', [5n])), concat(uleb(1), shapeBcs(circle(1n)), shapeBcs(grow(rect(1n, 1n), 5n))));
      const kinds = [new VariantValue(0, [shapeValue(circle(1n))]), new VariantValue(0, [shapeValue(EMPTY)]), two(EMPTY, EMPTY), two(EMPTY, circle(1n)), new VariantValue(2, [])].map(
        (w) => ret(call('enums::inner_kind', [w])).value,
      );
      expect(kinds).toEqual([1, 2, 3, 4, 5]);
    });

    it('writing a whole enum through &mut changes its variant', () => {
      for (const s of [circle(3n), EMPTY]) expectBcs(mutated(call('enums::morph', [shapeValue(s)]), 0), shapeBcs(rect(1n, 2n)));
      const replaced = [...SHAPES];
      replaced[1] = EMPTY;
      expectBcs(ret(call('enums::replace_in_vec', [1n])), bcs.vector(replaced.map(shapeBcs)));
    });

    it('equality of vectors of enums compares variants and fields', () => {
      const v = (xs: Shape[]) => vec(VecKind.Boxed, xs.map(shapeValue));
      expect(ret(call('enums::same', [v(SHAPES), v(SHAPES)])).value).toBe(true);
      expect(ret(call('enums::same', [v(SHAPES), v([circle(2n), rect(3n, 5n), EMPTY, circle(1n)])])).value).toBe(false);
      expect(ret(call('enums::same', [v([EMPTY]), v([circle(0n)])])).value).toBe(false);
    });

    it('0x1::bcs::to_bytes and 0x1::type_name of enums of the package', () => {
      const b = ret(vm.call('0x1::bcs::to_bytes', { typeArgs: ['0x0::enums::Shape'], args: [val(shapeValue(rect(3n, 4n)))] }));
      expectBcs(b, bcs.bytes(shapeBcs(rect(3n, 4n))));
      const n = ret(vm.call('0x1::type_name::with_defining_ids', { typeArgs: ['0x0::enums::Maybe<0x0::enums::Shape>'] }));
      expect(stringOf((n.value as unknown[])[0])).toBe(`${Z}::enums::Maybe<${Z}::enums::Shape>`);
    });

    it('generic enums', () => {
      expect(ret(call('enums::unwrap_or', [new VariantValue(0, [3n]), 9n], ['u64'])).value).toBe(3n);
      expectBcs(ret(call('enums::unwrap_or', [new VariantValue(1, []), bytesVec('d')], ['vector<u8>'])), bcs.bytes('d'));
      expectBcs(ret(call('enums::maybe_first', [vec(VecKind.U64, [4n, 5n])])), concat(uleb(0), bcs.u64(4n)));
      const none = ret(call('enums::maybe_first', [vec(VecKind.U64, [])]));
      expectBcs(none, uleb(1));
      expect(none.typeTag).toBe(`${ZERO}::enums::Maybe<u64>`);
    });
  });

  describe('generics', () => {
    const G = `${ZERO}::generics`;

    it('generic structs and functions', () => {
      const box = ret(call('generics::wrap', [5n], ['u64']));
      expect(box.typeTag).toBe(`${G}::Box<u64>`);
      expectBcs(box, bcs.u64(5n));
      expectBcs(ret(call('generics::unwrap', [[bytesVec('ab')]], ['vector<u8>'])), bcs.bytes('ab'));
      const p = ret(call('generics::pair', [0x0102, false], ['u16', 'bool']));
      expectBcs(p, concat(bcs.u16(0x0102), bcs.bool(false)));
      const swapped = ret(call('generics::swap', [p.value], ['u16', 'bool']));
      expect(swapped.typeTag).toBe(`${G}::Pair<bool, u16>`);
      expectBcs(swapped, concat(bcs.bool(false), bcs.u16(0x0102)));
    });

    it('nested instantiations', () => {
      const inner = `${G}::Pair<u8, bool>`;
      const r = ret(call('generics::deep', [[7, true]], [inner]));
      expect(r.typeTag).toBe(`${G}::Pair<${G}::Box<${inner}>, vector<${inner}>>`);
      const one = concat(bcs.u8(7), bcs.bool(true));
      expectBcs(r, concat(one, bcs.vector([one, one])));
      expectBcs(ret(call('generics::nested', [300n])), concat(bcs.u64(300n), bcs.vector([bcs.u8(300 % 256), bcs.u8(7)])));
    });

    it('equality of generic values (structs compared by value)', () => {
      expect(ret(call('generics::count', [vec(VecKind.U64, [1n, 2n, 1n, 1n]), 1n], ['u64'])).value).toBe(3n);
      const boxes = vec(VecKind.Boxed, [[bytesVec('a')], [bytesVec('b')], [bytesVec('a')]]);
      expect(ret(call('generics::count', [boxes, [bytesVec('a')]], [`${G}::Box<vector<u8>>`])).value).toBe(2n);
    });

    it('phantom type parameters', () => {
      expect(ret(call('generics::tagged', [5n], [`${G}::USD`])).typeTag).toBe(`${G}::Tagged<${G}::USD>`);
      expect(ret(call('generics::total_usd')).value).toBe(12n);
      const names = ret(call('generics::names')).value as { toArray(): unknown[] };
      expect(names.toArray().map(stringOf)).toEqual([
        `${Z}::generics::Box<u8>`,
        `${Z}::generics::Pair<${Z}::generics::Tagged<${Z}::generics::USD>,vector<${Z}::generics::Money<${Z}::generics::EUR>>>`,
        `${Z}::generics::Money<${Z}::generics::Box<u64>>`,
      ]);
    });

    it('ability constraints and type-argument counts are checked at the call', () => {
      expect(callError(() => call('generics::wrap', [[5n]], [`${G}::Money<${G}::USD>`])).code).toBe('CONSTRAINT_NOT_SATISFIED');
      expect(callError(() => call('generics::wrap', [5n], [])).code).toBe('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH');
    });
  });

  describe('recursion and limits', () => {
    it('factorial, including the overflow of 21!', () => {
      let f = 1n;
      for (let i = 1n; i <= 20n; i++) f *= i;
      expect(ret(call('recursion::fact', [20n])).value).toBe(f);
      expect(ret(call('recursion::fact', [0n])).value).toBe(1n);
      expect(f * 21n > (1n << 64n) - 1n).toBe(true);
      expectError(call('recursion::fact', [21n]), 'ARITHMETIC_ERROR', moduleId('0x0', 'recursion'), 'fact');
    });

    it('fibonacci (about 22,000 calls)', () => {
      let [a, b] = [0n, 1n];
      for (let i = 0; i < 20; i++) [a, b] = [b, a + b];
      expect(ret(call('recursion::fib', [20n])).value).toBe(a);
    });

    it('mutual recursion several hundred frames deep', () => {
      expect(ret(call('recursion::is_even', [600n])).value).toBe(true);
      expect(ret(call('recursion::is_odd', [601n])).value).toBe(true);
    });

    it('unbounded recursion ends with CALL_STACK_OVERFLOW', () => {
      expectError(call('recursion::forever', [0n]), 'CALL_STACK_OVERFLOW', moduleId('0x0', 'recursion'), 'forever');
      expectError(call('recursion::is_even', [5000n]), 'CALL_STACK_OVERFLOW');
    });

    it('an infinite loop ends with OUT_OF_GAS under a small budget', () => {
      const budget = 100_000;
      const r = call('recursion::spin', [], [], budget);
      expectError(r, 'OUT_OF_GAS', moduleId('0x0', 'recursion'), 'spin');
      expect(r.gasUsed).toBe(budget);
      expectError(call('recursion::forever', [0n], [], 500), 'OUT_OF_GAS');
    });
  });

  // Expected statuses and locations from the upstream .snap of this test.
  describe('error locations (upstream runtime_behavior/error_locations)', () => {
    const at = (r: CallResult) => (r.$kind === 'Success' || !r.location ? undefined : { fn: r.location.function, index: r.location.functionIndex, pc: r.location.instruction });

    it('abort 0: MoveAbort at offset 1', () => {
      const r = call('locations::abort_');
      expect(r.$kind === 'Aborted' && r.abortCode).toBe(0n);
      expect(at(r)).toEqual({ fn: 'abort_', index: 0, pc: 1 });
    });

    it('loop {}: out of gas in loop_', () => {
      expectError(call('locations::loop_', [], [], 10_000), 'OUT_OF_GAS', moduleId('0x0', 'locations'), 'loop_');
    });

    it(`loop {}: out of gas located at offset 0, the instruction being charged [${BUG.GAS_LOCATION}]`, () => {
      expect(at(call('locations::loop_', [], [], 10_000))).toEqual({ fn: 'loop_', index: 1, pc: 0 });
    });

    it('0 - 1: arithmetic error at offset 2', () => {
      const r = call('locations::math');
      expectError(r, 'ARITHMETIC_ERROR');
      expect(at(r)).toEqual({ fn: 'math', index: 2, pc: 2 });
    });

    it('vector::borrow out of bounds in compiled code: VECTOR_OPERATION_ERROR (not an abort) at offset 4', () => {
      const r = call('locations::vector_');
      expectError(r, 'VECTOR_OPERATION_ERROR');
      expect(at(r)).toEqual({ fn: 'vector_', index: 3, pc: 4 });
    });
  });

  describe('abort codes and clever errors', () => {
    const ERR = moduleId('0x0', 'errors');
    const constIndex = (text: string) => {
      const m = modules.get('errors') as CompiledModule;
      const i = m.constantPool.findIndex((_, k) => m.constantPool[k].type.$kind === 'Vector' && constantText(m, k) === text);
      expect(i).toBeGreaterThanOrEqual(0);
      return i;
    };
    const aborted = (r: CallResult, fn: string): bigint => {
      if (r.$kind !== 'Aborted') throw new Error(`expected an abort, got ${r.$kind}`);
      expect(r.location.module).toBe(ERR);
      expect(r.location.function).toBe(fn);
      return r.abortCode;
    };

    it('assert!(cond, EConst) with #[error] gives the clever code: version 1, line, identifier and constant indices', () => {
      const code = aborted(call('errors::check_positive', [0n]), 'check_positive');
      expect(code >> 63n).toBe(1n);
      const line = lineOf(ERRORS, 'assert!(x > 0, ENotPositive)');
      expect(code).toBe(encodeClever(line, constIndex('ENotPositive'), constIndex('value must be positive')));
      expect(ret(call('errors::check_positive', [3n])).value).toBe(3n);
    });

    it('#[error(code = 7)] puts 7 in the error-code byte', () => {
      const code = aborted(call('errors::coded', [1n]), 'coded');
      expect(code).toBe(encodeClever(lineOf(ERRORS, 'assert!(x == 0, ECoded)'), constIndex('ECoded'), constIndex('coded error'), 7));
    });

    it('assert! without a code, and abort of a clever constant', () => {
      expect(aborted(call('errors::bare', [0n]), 'bare')).toBe(encodeClever(lineOf(ERRORS, 'assert!(x == 1)')));
      expect(aborted(call('errors::abort_clever'), 'abort_clever')).toBe(encodeClever(lineOf(ERRORS, 'abort ENotPositive'), constIndex('ENotPositive'), constIndex('value must be positive')));
    });

    it('plain u64 codes pass through unchanged, bit 63 and u64::MAX included', () => {
      expect(aborted(call('errors::plain', [0n]), 'plain')).toBe(42n);
      expect(aborted(call('errors::high_bit'), 'high_bit')).toBe(0x8000000000000123n);
      expect(aborted(call('errors::max_code'), 'max_code')).toBe((1n << 64n) - 1n);
    });
  });
});

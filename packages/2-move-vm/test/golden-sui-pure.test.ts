/**
 * Golden tests of sui-framework (0x2) functions written in pure Move: no 0x2 native is
 * reachable from any of them (checked below on the bytecode's call graph). Expectations
 * come from first principles: hex and BCS by hand, JS arithmetic, heap properties.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalAddress, moduleHandleId } from '@smi/bytecode';
import type { MoveVM, TypedValue } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import {
  VecKind,
  bcs,
  bytesVec,
  concat,
  expectAbort,
  expectBcs,
  expectError,
  framework,
  frameworkVm,
  hex,
  maxOf,
  moduleId,
  mutated,
  ok,
  ret,
  stringOf,
  uleb,
  utf8,
  val,
  vec,
} from './support/golden.js';

const SUI_MODULES = ['hex', 'math', 'vec_map', 'vec_set', 'bcs', 'priority_queue', 'address'];
const MAX_U64 = maxOf(64);

/** Public functions of 0x2 modules that reach a 0x2 native (directly or through calls). */
function impureFunctions(): Set<string> {
  const calls = new Map<string, { native: boolean; callees: string[] }>();
  for (const pkg of framework()) {
    for (const { name, module: m } of pkg.modules) {
      for (const d of m.functionDefs) {
        const callees: string[] = [];
        for (const ins of d.code?.code ?? []) {
          const h = ins.$kind === 'Call' ? ins.index : ins.$kind === 'CallGeneric' ? m.functionInstantiations[ins.index].handle : undefined;
          if (h === undefined) continue;
          const id = moduleHandleId(m, m.functionHandles[h].module);
          callees.push(`${id.address}::${id.name}::${m.identifiers[m.functionHandles[h].name]}`);
        }
        calls.set(`${pkg.originalId}::${name}::${m.identifiers[m.functionHandles[d.function].name]}`, { native: d.code === null, callees });
      }
    }
  }
  const std = canonicalAddress('0x1');
  const memo = new Map<string, boolean>();
  const reaches = (f: string, seen: Set<string>): boolean => {
    const known = memo.get(f);
    if (known !== undefined) return known;
    if (seen.has(f)) return false;
    seen.add(f);
    const info = calls.get(f);
    const r = info === undefined || (info.native && !f.startsWith(std)) || info.callees.some((c) => reaches(c, seen));
    memo.set(f, r);
    return r;
  };
  return new Set([...calls.keys()].filter((f) => reaches(f, new Set())));
}

describeWithFixtures('golden: pure-Move functions of 0x2', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(() => {
    vm = frameworkVm();
  });

  it('the functions tested here reach no 0x2 native', () => {
    const impure = impureFunctions();
    const used = [
      'hex::encode',
      'hex::decode',
      'math::max',
      'math::min',
      'math::diff',
      'math::pow',
      'math::sqrt',
      'math::sqrt_u128',
      'math::divide_and_round_up',
      'vec_map::empty',
      'vec_map::insert',
      'vec_map::get',
      'vec_map::contains',
      'vec_map::remove',
      'vec_map::pop',
      'vec_map::keys',
      'vec_map::size',
      'vec_map::into_keys_values',
      'vec_map::from_keys_values',
      'vec_map::get_idx_opt',
      'vec_map::get_entry_by_idx',
      'vec_map::destroy_empty',
      'vec_set::singleton',
      'vec_set::insert',
      'vec_set::remove',
      'vec_set::contains',
      'vec_set::from_keys',
      'vec_set::into_keys',
      'bcs::new',
      'bcs::to_bytes',
      'bcs::into_remainder_bytes',
      'bcs::peel_u8',
      'bcs::peel_u16',
      'bcs::peel_u32',
      'bcs::peel_u64',
      'bcs::peel_u128',
      'bcs::peel_u256',
      'bcs::peel_bool',
      'bcs::peel_vec_length',
      'bcs::peel_vec_u8',
      'bcs::peel_vec_u64',
      'bcs::peel_vec_vec_u8',
      'bcs::peel_option_u64',
      'bcs::peel_enum_tag',
      'priority_queue::create_entries',
      'priority_queue::new',
      'priority_queue::pop_max',
      'priority_queue::insert',
      'priority_queue::priorities',
      'address::to_bytes',
      'address::to_ascii_string',
      'address::to_string',
      'address::length',
      'address::max',
    ];
    const sui = canonicalAddress('0x2');
    for (const f of used) expect(impure.has(`${sui}::${f}`), f).toBe(false);
    for (const f of ['address::from_bytes', 'address::to_u256', 'bcs::peel_address']) expect(impure.has(`${sui}::${f}`), f).toBe(true);
    expect(SUI_MODULES.every((m) => used.some((u) => u.startsWith(`${m}::`)))).toBe(true);
  });

  describe('0x2::hex', () => {
    it('encode gives two lowercase digits per byte', () => {
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      expectBcs(ret(vm.call('0x2::hex::encode', { args: [val(bytesVec(all))] })), bcs.bytes(Buffer.from(all).toString('hex')));
    });

    it('decode accepts both cases', () => {
      expectBcs(ret(vm.call('0x2::hex::decode', { args: [val(bytesVec('01aBFf7e'))] })), bcs.bytes(Uint8Array.of(0x01, 0xab, 0xff, 0x7e)));
    });

    it('decode aborts on an odd length (0) and a non-hex digit (1)', () => {
      expectAbort(vm.call('0x2::hex::decode', { args: [val(bytesVec('abc'))] }), 0n, moduleId('0x2', 'hex'), 'decode');
      expectAbort(vm.call('0x2::hex::decode', { args: [val(bytesVec('0g'))] }), 1n, moduleId('0x2', 'hex'), 'decode_byte');
    });
  });

  describe('0x2::math (deprecated wrappers over 0x1::u64 / u128)', () => {
    it('max, min, diff, divide_and_round_up', () => {
      expect(ret(vm.call('0x2::math::max', { args: [val(3n), val(MAX_U64)] })).value).toBe(MAX_U64);
      expect(ret(vm.call('0x2::math::min', { args: [val(3n), val(MAX_U64)] })).value).toBe(3n);
      expect(ret(vm.call('0x2::math::diff', { args: [val(1n), val(10n)] })).value).toBe(9n);
      expect(ret(vm.call('0x2::math::divide_and_round_up', { args: [val(7n), val(2n)] })).value).toBe(4n);
    });

    it('pow, with overflow raised inside 0x1::u64::pow', () => {
      expect(ret(vm.call('0x2::math::pow', { args: [val(10n), val(19)] })).value).toBe(10n ** 19n);
      expectError(vm.call('0x2::math::pow', { args: [val(10n), val(20)] }), 'ARITHMETIC_ERROR', moduleId('0x1', 'u64'), 'pow');
    });

    it('sqrt and sqrt_u128', () => {
      expect(ret(vm.call('0x2::math::sqrt', { args: [val(10n ** 18n - 1n)] })).value).toBe(10n ** 9n - 1n);
      expect(ret(vm.call('0x2::math::sqrt_u128', { args: [val(maxOf(128))] })).value).toBe(MAX_U64);
    });
  });

  describe('0x2::vec_map', () => {
    const VEC_MAP = moduleId('0x2', 'vec_map');
    const T = ['u64', 'vector<u8>'];
    /** BCS of a `VecMap<u64, vector<u8>>`: its entries `(key, value)` in order. */
    const mapBcs = (entries: [bigint, string][]) => bcs.vector(entries.map(([k, v]) => concat(bcs.u64(k), bcs.bytes(v))));
    /** {3: "c", 5: "e", 1: "a"}, built by insert (a fresh value each time: `&mut` arguments are updated in place). */
    const build = (): unknown => {
      let m = ret(vm.call('0x2::vec_map::empty', { typeArgs: T })).value;
      for (const [k, v] of [
        [3n, 'c'],
        [5n, 'e'],
        [1n, 'a'],
      ] as const) {
        m = mutated(vm.call('0x2::vec_map::insert', { typeArgs: T, args: [val(m), val(k), val(bytesVec(v))] }), 0).value;
      }
      return m;
    };
    let map: unknown;
    beforeEach(() => {
      map = build();
    });

    it('insert keeps insertion order; a duplicate key aborts with EKeyAlreadyExists', () => {
      expectBcs(ret(vm.call('0x2::vec_map::keys', { typeArgs: T, args: [val(map)] })), bcs.vector([3n, 5n, 1n].map((k) => bcs.u64(k))));
      expect(ret(vm.call('0x2::vec_map::size', { typeArgs: T, args: [val(map)] })).value).toBe(3n);
      expectAbort(vm.call('0x2::vec_map::insert', { typeArgs: T, args: [val(map), val(5n), val(bytesVec('x'))] }), 0n, VEC_MAP, 'insert');
    });

    it('get, contains, get_idx_opt; a missing key aborts with EKeyDoesNotExist in get_idx', () => {
      expectBcs(ret(vm.call('0x2::vec_map::get', { typeArgs: T, args: [val(map), val(5n)] })), bcs.bytes('e'));
      expect(ret(vm.call('0x2::vec_map::contains', { typeArgs: T, args: [val(map), val(1n)] })).value).toBe(true);
      expect(ret(vm.call('0x2::vec_map::contains', { typeArgs: T, args: [val(map), val(2n)] })).value).toBe(false);
      expectBcs(ret(vm.call('0x2::vec_map::get_idx_opt', { typeArgs: T, args: [val(map), val(1n)] })), bcs.option(bcs.u64(2n)));
      expectBcs(ret(vm.call('0x2::vec_map::get_idx_opt', { typeArgs: T, args: [val(map), val(9n)] })), bcs.option(null));
      expectAbort(vm.call('0x2::vec_map::get', { typeArgs: T, args: [val(map), val(9n)] }), 1n, VEC_MAP, 'get_idx');
    });

    it('get_entry_by_idx, and EIndexOutOfBounds', () => {
      const r = ok(vm.call('0x2::vec_map::get_entry_by_idx', { typeArgs: T, args: [val(map), val(1n)] })).returnValues;
      expect(r[0].value).toBe(5n);
      expectBcs(r[1], bcs.bytes('e'));
      expectAbort(vm.call('0x2::vec_map::get_entry_by_idx', { typeArgs: T, args: [val(map), val(3n)] }), 3n, VEC_MAP, 'get_entry_by_idx');
    });

    it('remove keeps the order of the others; pop takes the last', () => {
      const removed = vm.call('0x2::vec_map::remove', { typeArgs: T, args: [val(map), val(3n)] });
      const [k, v] = ok(removed).returnValues;
      expect(k.value).toBe(3n);
      expectBcs(v, bcs.bytes('c'));
      expectBcs(
        mutated(removed, 0),
        mapBcs([
          [5n, 'e'],
          [1n, 'a'],
        ]),
      );
      const popped = vm.call('0x2::vec_map::pop', { typeArgs: T, args: [val(mutated(removed, 0).value)] });
      expect(ok(popped).returnValues[0].value).toBe(1n);
      expectBcs(mutated(popped, 0), mapBcs([[5n, 'e']]));
    });

    it('pop of an empty map (EMapEmpty) and destroy_empty of a full one (EMapNotEmpty)', () => {
      const empty = ret(vm.call('0x2::vec_map::empty', { typeArgs: T })).value;
      expectAbort(vm.call('0x2::vec_map::pop', { typeArgs: T, args: [val(empty)] }), 4n, VEC_MAP, 'pop');
      expectAbort(vm.call('0x2::vec_map::destroy_empty', { typeArgs: T, args: [val(map)] }), 2n, VEC_MAP, 'destroy_empty');
    });

    it('into_keys_values and from_keys_values round-trip', () => {
      const [keys, values] = ok(vm.call('0x2::vec_map::into_keys_values', { typeArgs: T, args: [val(map)] })).returnValues;
      expectBcs(keys, bcs.vector([3n, 5n, 1n].map((x) => bcs.u64(x))));
      expectBcs(values, bcs.vector(['c', 'e', 'a'].map((x) => bcs.bytes(x))));
      const back = ret(vm.call('0x2::vec_map::from_keys_values', { typeArgs: T, args: [val(keys.value), val(values.value)] }));
      expectBcs(
        back,
        mapBcs([
          [3n, 'c'],
          [5n, 'e'],
          [1n, 'a'],
        ]),
      );
    });

    it('from_keys_values: unequal lengths (EUnequalLengths) and duplicate keys (EKeyAlreadyExists)', () => {
      const keys = vec(VecKind.U64, [1n, 2n]);
      expectAbort(vm.call('0x2::vec_map::from_keys_values', { typeArgs: T, args: [val(keys), val(vec(VecKind.Boxed, [bytesVec('a')]))] }), 5n, VEC_MAP, 'from_keys_values');
      const dup = vm.call('0x2::vec_map::from_keys_values', { typeArgs: T, args: [val(vec(VecKind.U64, [1n, 1n])), val(vec(VecKind.Boxed, [bytesVec('a'), bytesVec('b')]))] });
      expectAbort(dup, 0n, VEC_MAP, 'insert');
    });
  });

  describe('0x2::vec_set', () => {
    const VEC_SET = moduleId('0x2', 'vec_set');
    const set = (xs: bigint[]) => [vec(VecKind.U64, xs)];

    it('singleton, insert, contains; duplicates abort with EKeyAlreadyExists', () => {
      expectBcs(ret(vm.call('0x2::vec_set::singleton', { typeArgs: ['u64'], args: [val(4n)] })), bcs.vector([bcs.u64(4n)]));
      expectBcs(mutated(vm.call('0x2::vec_set::insert', { typeArgs: ['u64'], args: [val(set([4n])), val(2n)] }), 0), bcs.vector([4n, 2n].map((x) => bcs.u64(x))));
      expectAbort(vm.call('0x2::vec_set::insert', { typeArgs: ['u64'], args: [val(set([4n, 2n])), val(4n)] }), 0n, VEC_SET, 'insert');
      expect(ret(vm.call('0x2::vec_set::contains', { typeArgs: ['u64'], args: [val(set([4n, 2n])), val(2n)] })).value).toBe(true);
    });

    it('remove keeps order; a missing key aborts with EKeyDoesNotExist', () => {
      expectBcs(mutated(vm.call('0x2::vec_set::remove', { typeArgs: ['u64'], args: [val(set([1n, 2n, 3n])), val(1n)] }), 0), bcs.vector([2n, 3n].map((x) => bcs.u64(x))));
      expectAbort(vm.call('0x2::vec_set::remove', { typeArgs: ['u64'], args: [val(set([1n])), val(7n)] }), 1n, VEC_SET, 'remove');
    });

    it('from_keys rejects duplicates; into_keys', () => {
      expectAbort(vm.call('0x2::vec_set::from_keys', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n, 2n, 1n]))] }), 0n, VEC_SET, 'insert');
      const s = ret(vm.call('0x2::vec_set::from_keys', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [3n, 1n, 2n]))] }));
      expectBcs(ret(vm.call('0x2::vec_set::into_keys', { typeArgs: ['u64'], args: [val(s.value)] })), bcs.vector([3n, 1n, 2n].map((x) => bcs.u64(x))));
    });
  });

  describe('0x2::bcs', () => {
    const BCS = moduleId('0x2', 'bcs');
    const newBcs = (bytes: Uint8Array) => ret(vm.call('0x2::bcs::new', { args: [val(bytesVec(bytes))] })).value;
    /** Peel with `fn` from `state`; returns the peeled value and the new state. */
    const peel = (fn: string, state: unknown): [TypedValue, unknown] => {
      const r = vm.call(`0x2::bcs::${fn}`, { args: [val(state)] });
      return [ret(r), mutated(r, 0).value];
    };

    it('peels a hand-encoded record field by field, then returns the remainder', () => {
      const u256 = (1n << 255n) | 0xabcdefn;
      const data = concat(
        bcs.u64(0x0102030405060708n),
        bcs.bool(true),
        bcs.u8(0xfe),
        bcs.u16(0xbeef),
        bcs.u32(0xcafebabe),
        bcs.u128(maxOf(128) - 5n),
        bcs.u256(u256),
        uleb(300),
        bcs.bytes('hello'),
        bcs.vector([1n, MAX_U64].map((x) => bcs.u64(x))),
        bcs.vector([bcs.bytes('ab'), bcs.bytes('')]),
        bcs.option(bcs.u64(42n)),
        bcs.option(null),
        uleb(2),
        Uint8Array.of(0xaa, 0xbb),
      );
      let s = newBcs(data);
      const expected: [string, unknown][] = [
        ['peel_u64', 0x0102030405060708n],
        ['peel_bool', true],
        ['peel_u8', 0xfe],
        ['peel_u16', 0xbeef],
        ['peel_u32', 0xcafebabe],
        ['peel_u128', maxOf(128) - 5n],
        ['peel_u256', u256],
        ['peel_vec_length', 300n],
      ];
      for (const [fn, want] of expected) {
        const [v, next] = peel(fn, s);
        expect(v.value, fn).toBe(want);
        s = next;
      }
      let v: TypedValue;
      [v, s] = peel('peel_vec_u8', s);
      expectBcs(v, bcs.bytes('hello'));
      [v, s] = peel('peel_vec_u64', s);
      expectBcs(v, bcs.vector([1n, MAX_U64].map((x) => bcs.u64(x))));
      [v, s] = peel('peel_vec_vec_u8', s);
      expectBcs(v, bcs.vector([bcs.bytes('ab'), bcs.bytes('')]));
      [v, s] = peel('peel_option_u64', s);
      expectBcs(v, bcs.option(bcs.u64(42n)));
      [v, s] = peel('peel_option_u64', s);
      expectBcs(v, bcs.option(null));
      [v, s] = peel('peel_enum_tag', s);
      expect(v.value).toBe(2);
      expectBcs(ret(vm.call('0x2::bcs::into_remainder_bytes', { args: [val(s)] })), bcs.bytes(Uint8Array.of(0xaa, 0xbb)));
    });

    it('to_bytes matches the hand encoding', () => {
      expectBcs(ret(vm.call('0x2::bcs::to_bytes', { typeArgs: ['vector<u64>'], args: [val(vec(VecKind.U64, [7n]))] })), bcs.bytes(bcs.vector([bcs.u64(7n)])));
    });

    it('peel errors: short input (EOutOfRange), bad bool (ENotBool), ULEB128 too long (ELenOutOfRange), empty input', () => {
      expectAbort(vm.call('0x2::bcs::peel_u64', { args: [val(newBcs(Uint8Array.of(1, 2, 3)))] }), 0n, BCS, 'peel_u64');
      expectAbort(vm.call('0x2::bcs::peel_bool', { args: [val(newBcs(Uint8Array.of(2)))] }), 1n, BCS, 'peel_bool');
      expectAbort(vm.call('0x2::bcs::peel_vec_length', { args: [val(newBcs(new Uint8Array(6).fill(0x80)))] }), 2n, BCS, 'peel_vec_length');
      expectError(vm.call('0x2::bcs::peel_vec_length', { args: [val(newBcs(new Uint8Array(0)))] }), 'VECTOR_OPERATION_ERROR', BCS, 'peel_vec_length');
    });
  });

  describe('0x2::priority_queue', () => {
    const PQ = moduleId('0x2', 'priority_queue');
    const prios = [5n, 1n, 9n, 3n, 7n, 2n];
    const entries = () =>
      ret(
        vm.call('0x2::priority_queue::create_entries', {
          typeArgs: ['u64'],
          args: [
            val(vec(VecKind.U64, prios)),
            val(
              vec(
                VecKind.U64,
                prios.map((p) => p * 10n),
              ),
            ),
          ],
        }),
      ).value;

    it('new builds a max-heap; pop_max yields priorities in decreasing order', () => {
      let pq = ret(vm.call('0x2::priority_queue::new', { typeArgs: ['u64'], args: [val(entries())] })).value;
      const heap = ret(vm.call('0x2::priority_queue::priorities', { typeArgs: ['u64'], args: [val(pq)] })).value as { toArray(): unknown[] };
      const h = heap.toArray() as bigint[];
      expect([...h].sort((a, b) => Number(a - b))).toEqual([...prios].sort((a, b) => Number(a - b)));
      h.forEach((p, i) => {
        for (const c of [2 * i + 1, 2 * i + 2]) if (c < h.length) expect(p >= h[c]).toBe(true);
      });
      const order: bigint[] = [];
      for (let i = 0; i < prios.length; i++) {
        const r = vm.call('0x2::priority_queue::pop_max', { typeArgs: ['u64'], args: [val(pq)] });
        const [p, v] = ok(r).returnValues;
        expect(v.value).toBe((p.value as bigint) * 10n);
        order.push(p.value as bigint);
        pq = mutated(r, 0).value;
      }
      expect(order).toEqual([...prios].sort((a, b) => Number(b - a)));
      expectAbort(vm.call('0x2::priority_queue::pop_max', { typeArgs: ['u64'], args: [val(pq)] }), 0n, PQ, 'pop_max');
    });

    it('insert then pop_max returns the new maximum', () => {
      const pq = ret(vm.call('0x2::priority_queue::new', { typeArgs: ['u64'], args: [val(entries())] })).value;
      const grown = mutated(vm.call('0x2::priority_queue::insert', { typeArgs: ['u64'], args: [val(pq), val(100n), val(1n)] }), 0).value;
      const [p, v] = ok(vm.call('0x2::priority_queue::pop_max', { typeArgs: ['u64'], args: [val(grown)] })).returnValues;
      expect([p.value, v.value]).toEqual([100n, 1n]);
    });

    it('create_entries with unequal lengths aborts', () => {
      const r = vm.call('0x2::priority_queue::create_entries', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n])), val(vec(VecKind.U64, []))] });
      expectAbort(r, 1n, PQ, 'create_entries');
    });
  });

  describe('0x2::address', () => {
    const a = canonicalAddress('0x00c0ffee0000000000000000000000000000000000000000000000000000abcd');

    it('to_bytes, to_ascii_string, to_string', () => {
      expectBcs(ret(vm.call('0x2::address::to_bytes', { args: [val(a)] })), bcs.bytes(bcs.address(a)));
      const ascii = ret(vm.call('0x2::address::to_ascii_string', { args: [val(a)] }));
      expect(stringOf(ascii.value)).toBe(a.slice(2));
      expectBcs(ret(vm.call('0x2::address::to_string', { args: [val(a)] })), bcs.bytes(utf8(a.slice(2))));
      expect(hex(bcs.address(a))).toBe(a.slice(2));
    });

    it('length and max', () => {
      expect(ret(vm.call('0x2::address::length')).value).toBe(32n);
      expect(ret(vm.call('0x2::address::max')).value).toBe(maxOf(256));
    });
  });
});

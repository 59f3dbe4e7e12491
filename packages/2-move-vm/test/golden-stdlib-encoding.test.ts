/**
 * Golden tests of move-stdlib (latest framework): bcs::to_bytes, hash, type_name and the
 * fixed-point modules (fixed_point32, uq32_32, uq64_64). Expected bytes are written by
 * hand, hashes come from node:crypto, fixed-point results from BigInt arithmetic.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import type { CallResult, MoveVM } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import {
  VecKind,
  abortImmediates,
  bcs,
  bytesVec,
  constantText,
  decodeClever,
  expectAbort,
  expectBcs,
  frameworkModule,
  frameworkVm,
  hex,
  maxOf,
  moduleId,
  moveString,
  ret,
  stringOf,
  utf8,
  val,
  vec,
} from './support/golden.js';

const TYPE_NAME = moduleId('0x1', 'type_name');
const FIXED = moduleId('0x1', 'fixed_point32');
const MAX_U64 = maxOf(64);
/** `0x2` as type_name spells it: 64 hex digits, no `0x`. */
const bare = (a: string) => canonicalAddress(a).slice(2);

/** An abort with a clever code whose identifier constant is `identifier`, raised by an `assert!` of `module::fn`. */
function expectCleverAbort(r: CallResult, module: string, fn: string, identifier: string): void {
  if (r.$kind !== 'Aborted') throw new Error(`expected an abort, got ${r.$kind}`);
  expect(`${r.location.module}::${r.location.function}`).toBe(`${moduleId('0x1', module)}::${fn}`);
  const m = frameworkModule('0x1', module);
  // Passed through unchanged: the code is one of the immediates the function aborts with.
  expect(abortImmediates(m, fn)).toContain(r.abortCode);
  const c = decodeClever(r.abortCode);
  expect(c.version).toBe(0b1100);
  expect(c.errorCode).toBe(0xff);
  expect(c.line).toBeGreaterThan(0);
  expect(constantText(m, c.identifierIndex)).toBe(identifier);
  expect(constantText(m, c.constantIndex).length).toBeGreaterThan(0);
}

describeWithFixtures('golden: move-stdlib encodings, hashes, type names, fixed point', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(() => {
    vm = frameworkVm();
  });

  describe('0x1::bcs::to_bytes', () => {
    const big = Uint8Array.from({ length: 200 }, (_, i) => (i * 7) & 0xff);
    const cases: [type: string, value: unknown, expected: Uint8Array][] = [
      ['bool', true, Uint8Array.of(1)],
      ['u8', 0xab, Uint8Array.of(0xab)],
      ['u16', 0x1234, Uint8Array.of(0x34, 0x12)],
      ['u32', 0xdeadbeef, Uint8Array.of(0xef, 0xbe, 0xad, 0xde)],
      ['u64', MAX_U64, new Uint8Array(8).fill(0xff)],
      ['u128', (1n << 127n) | 1n, Uint8Array.of(1, ...new Array<number>(14).fill(0), 0x80)],
      ['u256', (1n << 255n) + 0x0102n, Uint8Array.of(2, 1, ...new Array<number>(29).fill(0), 0x80)],
      ['address', canonicalAddress('0x2'), Uint8Array.of(...new Array<number>(31).fill(0), 2)],
      ['vector<u16>', vec(VecKind.U16, [1, 0x100]), Uint8Array.of(2, 1, 0, 0, 1)],
      ['vector<u8>', bytesVec(big), Uint8Array.of(0xc8, 0x01, ...big)], // ULEB128(200) = c8 01
      ['vector<bool>', vec(VecKind.Bool, [true, false, true]), Uint8Array.of(3, 1, 0, 1)],
      ['vector<vector<u8>>', vec(VecKind.Boxed, [bytesVec('ab'), bytesVec('')]), Uint8Array.of(2, 2, 0x61, 0x62, 0)],
      ['vector<u128>', vec(VecKind.Boxed, [5n]), Uint8Array.of(1, 5, ...new Array<number>(15).fill(0))],
      ['0x1::string::String', moveString('héllo'), Uint8Array.of(6, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f)],
      ['0x1::option::Option<u64>', [vec(VecKind.U64, [5n])], Uint8Array.of(1, 5, 0, 0, 0, 0, 0, 0, 0)],
      ['0x1::option::Option<0x1::string::String>', [vec(VecKind.Boxed, [])], Uint8Array.of(0)],
      ['0x1::fixed_point32::FixedPoint32', [0x100000000n], Uint8Array.of(0, 0, 0, 0, 1, 0, 0, 0)],
      ['0x1::type_name::TypeName', [moveString('u8')], Uint8Array.of(2, 0x75, 0x38)],
    ];
    for (const [type, value, expected] of cases) {
      it(`to_bytes<${type}>`, () => {
        const r = ret(vm.call('0x1::bcs::to_bytes', { typeArgs: [type], args: [val(value)] }));
        expect(hex((r.value as { bytes(): Uint8Array }).bytes())).toBe(hex(expected));
        expectBcs(r, bcs.bytes(expected));
      });
    }
  });

  describe('0x1::hash', () => {
    const inputs: [string, Uint8Array][] = [
      ['empty', new Uint8Array(0)],
      ['abc', utf8('abc')],
      ...[55, 56, 64, 135, 136, 137, 1000].map((n): [string, Uint8Array] => [`${n} bytes`, Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff)]),
    ];
    for (const [what, data] of inputs) {
      it(`sha2_256 and sha3_256 of ${what}`, () => {
        const sha2 = ret(vm.call('0x1::hash::sha2_256', { args: [val(bytesVec(data))] }));
        expectBcs(sha2, bcs.bytes(createHash('sha256').update(data).digest()));
        const sha3 = ret(vm.call('0x1::hash::sha3_256', { args: [val(bytesVec(data))] }));
        expectBcs(sha3, bcs.bytes(createHash('sha3-256').update(data).digest()));
      });
    }

    it('sha3_256("abc") is the published test vector', () => {
      const r = ret(vm.call('0x1::hash::sha3_256', { args: [val(bytesVec('abc'))] }));
      expectBcs(r, bcs.bytes(Buffer.from('3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532', 'hex')));
    });
  });

  describe('0x1::type_name', () => {
    const two = bare('0x2');
    const one = bare('0x1');
    const names: [tag: string, name: string][] = [
      ['u8', 'u8'],
      ['u64', 'u64'],
      ['u256', 'u256'],
      ['bool', 'bool'],
      ['address', 'address'],
      ['vector<u8>', 'vector<u8>'],
      ['vector<vector<u64>>', 'vector<vector<u64>>'],
      ['0x1::string::String', `${one}::string::String`],
      ['0x2::coin::Coin<0x2::sui::SUI>', `${two}::coin::Coin<${two}::sui::SUI>`],
      ['0x1::option::Option<0x1::ascii::String>', `${one}::option::Option<${one}::ascii::String>`],
      ['vector<0x2::sui::SUI>', `vector<${two}::sui::SUI>`],
      ['0x2::vec_map::VecMap<address, vector<0x2::balance::Balance<0x2::sui::SUI>>>', `${two}::vec_map::VecMap<address,vector<${two}::balance::Balance<${two}::sui::SUI>>>`],
    ];
    for (const [tag, name] of names) {
      it(`with_defining_ids / with_original_ids / get of ${tag}`, () => {
        for (const f of ['with_defining_ids', 'with_original_ids', 'get']) {
          const r = ret(vm.call(`0x1::type_name::${f}`, { typeArgs: [tag] }));
          expect(stringOf((r.value as unknown[])[0])).toBe(name);
          expectBcs(r, bcs.bytes(name));
        }
      });
    }

    const typeName = (name: string) => [moveString(name)];
    it('is_primitive', () => {
      const prim = (name: string) => ret(vm.call('0x1::type_name::is_primitive', { args: [val(typeName(name))] })).value;
      for (const p of ['bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'address', 'vector<u8>', `vector<${two}::sui::SUI>`]) expect(prim(p)).toBe(true);
      expect(prim(`${two}::sui::SUI`)).toBe(false);
    });

    it('address_string, module_string, datatype_string, into_string of a datatype', () => {
      const tn = typeName(`${two}::coin::Coin<${two}::sui::SUI>`);
      expectBcs(ret(vm.call('0x1::type_name::address_string', { args: [val(tn)] })), bcs.bytes(two));
      expectBcs(ret(vm.call('0x1::type_name::module_string', { args: [val(tn)] })), bcs.bytes('coin'));
      expectBcs(ret(vm.call('0x1::type_name::datatype_string', { args: [val(tn)] })), bcs.bytes('Coin'));
      expectBcs(ret(vm.call('0x1::type_name::datatype_string', { args: [val(typeName(`${two}::sui::SUI`))] })), bcs.bytes('SUI'));
      expectBcs(ret(vm.call('0x1::type_name::into_string', { args: [val(tn)] })), bcs.bytes(`${two}::coin::Coin<${two}::sui::SUI>`));
    });

    it('address_string and module_string of a primitive abort with ENonModuleType (0)', () => {
      expectAbort(vm.call('0x1::type_name::address_string', { args: [val(typeName('u64'))] }), 0n, TYPE_NAME, 'address_string');
      expectAbort(vm.call('0x1::type_name::module_string', { args: [val(typeName('vector<u8>'))] }), 0n, TYPE_NAME, 'module_string');
    });

    it('defining_id and original_id of framework types', () => {
      expect(ret(vm.call('0x1::type_name::defining_id', { typeArgs: ['0x2::coin::Coin<0x2::sui::SUI>'] })).value).toBe(canonicalAddress('0x2'));
      expect(ret(vm.call('0x1::type_name::original_id', { typeArgs: ['0x1::string::String'] })).value).toBe(canonicalAddress('0x1'));
    });
  });

  describe('0x1::fixed_point32', () => {
    const fp = (raw: bigint) => [raw];
    /** `create_from_rational` from its definition: (n << 64) / (d << 32), range-checked. */
    const rational = (n: bigint, d: bigint) => (n << 64n) / (d << 32n);

    it('create_from_rational', () => {
      for (const [n, d] of [
        [1n, 3n],
        [2n, 3n],
        [0n, 5n],
        [7n, 2n],
        [MAX_U64 >> 32n, 1n],
      ] as const) {
        const r = ret(vm.call('0x1::fixed_point32::create_from_rational', { args: [val(n), val(d)] }));
        expectBcs(r, bcs.u64(rational(n, d)));
      }
      expect(rational(1n, 3n)).toBe(0x55555555n);
    });

    it('create_from_rational aborts: zero denominator, too small, too large', () => {
      const call = (n: bigint, d: bigint) => vm.call('0x1::fixed_point32::create_from_rational', { args: [val(n), val(d)] });
      expectAbort(call(1n, 0n), 0x10001n, FIXED, 'create_from_rational'); // EDENOMINATOR
      expectAbort(call(1n, 1n << 33n), 0x20005n, FIXED, 'create_from_rational'); // ERATIO_OUT_OF_RANGE: rounds to 0
      expectAbort(call(1n << 32n, 1n), 0x20005n, FIXED, 'create_from_rational'); // 2^32 does not fit 32 integer bits
    });

    it('multiply_u64 and divide_u64', () => {
      const third = rational(1n, 3n);
      expect(ret(vm.call('0x1::fixed_point32::multiply_u64', { args: [val(100n), val(fp(third))] })).value).toBe((100n * third) >> 32n);
      expect(ret(vm.call('0x1::fixed_point32::divide_u64', { args: [val(100n), val(fp(third))] })).value).toBe((100n << 32n) / third);
      expect(ret(vm.call('0x1::fixed_point32::multiply_u64', { args: [val(MAX_U64), val(fp(1n << 32n))] })).value).toBe(MAX_U64);
    });

    it('multiply_u64 / divide_u64 abort on overflow and on division by zero', () => {
      expectAbort(vm.call('0x1::fixed_point32::multiply_u64', { args: [val(MAX_U64), val(fp(1n << 33n))] }), 0x20003n, FIXED, 'multiply_u64');
      expectAbort(vm.call('0x1::fixed_point32::divide_u64', { args: [val(1n), val(fp(0n))] }), 0x10004n, FIXED, 'divide_u64');
      expectAbort(vm.call('0x1::fixed_point32::divide_u64', { args: [val(1n << 63n), val(fp(1n))] }), 0x20002n, FIXED, 'divide_u64');
    });

    it('raw value accessors', () => {
      expectBcs(ret(vm.call('0x1::fixed_point32::create_from_raw_value', { args: [val(12345n)] })), bcs.u64(12345n));
      expect(ret(vm.call('0x1::fixed_point32::get_raw_value', { args: [val(fp(12345n))] })).value).toBe(12345n);
      expect(ret(vm.call('0x1::fixed_point32::is_zero', { args: [val(fp(0n))] })).value).toBe(true);
    });
  });

  // uq32_32 (u64 raw, 32 fractional bits) and uq64_64 (u128 raw, 64 fractional bits).
  for (const [mod, F] of [
    ['uq32_32', 32n],
    ['uq64_64', 64n],
  ] as const) {
    describe(`0x1::${mod}`, () => {
      const bits = Number(2n * F);
      const MAX = maxOf(bits);
      const intBits = Number(F);
      const raw = (x: bigint) => [x];
      const enc = (x: bigint) => bcs.uint(x, bits);
      const call = (fn: string, ...args: unknown[]) => vm.call(`0x1::${mod}::${fn}`, { args: args.map(val) });
      const quotient = (n: bigint, d: bigint) => (n << (2n * F)) / (d << F);
      const one = 1n << F;
      const asInt = (x: bigint) => (intBits <= 32 ? Number(x) : x);

      it('from_quotient, from_int, to_int', () => {
        for (const [n, d] of [
          [1n, 4n],
          [3n, 2n],
          [1n, 3n],
          [22n, 7n],
        ] as const) {
          expectBcs(ret(call('from_quotient', n, d)), enc(quotient(n, d)));
        }
        expect(quotient(1n, 3n)).toBe(maxOf(Number(F)) / 3n);
        expectBcs(ret(call('from_int', asInt(7n))), enc(7n << F));
        expect(ret(call('to_int', raw((5n << F) + 123n))).value).toBe(asInt(5n));
      });

      it('from_quotient aborts with clever codes', () => {
        expectCleverAbort(call('from_quotient', 1n, 0n), mod, 'from_quotient', 'EDenominator');
        expectCleverAbort(call('from_quotient', 1n, 1n << (F + 1n)), mod, 'from_quotient', 'EQuotientTooSmall'); // rounds to 0
        expectCleverAbort(call('from_quotient', 1n << F, 1n), mod, 'from_quotient', 'EQuotientTooLarge'); // 2^F needs F + 1 integer bits
      });

      it('add, sub, mul, div', () => {
        const a = (3n * one) / 2n; // 1.5
        const b = (5n * one) / 2n; // 2.5
        expectBcs(ret(call('add', raw(a), raw(b))), enc(a + b));
        expectBcs(ret(call('sub', raw(b), raw(a))), enc(b - a));
        expectBcs(ret(call('mul', raw(a), raw(b))), enc((a * b) >> F)); // 3.75
        expectBcs(ret(call('div', raw(b), raw(a))), enc((b << F) / a)); // 1.666…
      });

      it('overflow, underflow and division by zero abort with clever codes', () => {
        expectCleverAbort(call('add', raw(MAX), raw(1n)), mod, 'add', 'EOverflow');
        expectCleverAbort(call('sub', raw(1n), raw(2n)), mod, 'sub', 'EOverflow');
        expectCleverAbort(call('mul', raw(MAX), raw(2n * one)), mod, 'int_mul', 'EOverflow');
        expectCleverAbort(call('div', raw(one), raw(0n)), mod, 'int_div', 'EDivisionByZero');
        expectCleverAbort(call('int_div', MAX, raw(1n)), mod, 'int_div', 'EOverflow');
      });

      it('int_mul, int_div, comparisons, raw', () => {
        const half = one / 2n;
        expect(ret(call('int_mul', 10n, raw((3n * one) / 2n))).value).toBe(15n);
        expect(ret(call('int_div', 10n, raw(half))).value).toBe(20n);
        expect(ret(call('lt', raw(half), raw(one))).value).toBe(true);
        expect(ret(call('le', raw(one), raw(one))).value).toBe(true);
        expect(ret(call('gt', raw(half), raw(one))).value).toBe(false);
        expect(ret(call('ge', raw(half), raw(one))).value).toBe(false);
        expect(ret(call('to_raw', raw(42n))).value).toBe(42n);
        expectBcs(ret(call('from_raw', 42n)), enc(42n));
      });
    });
  }
});

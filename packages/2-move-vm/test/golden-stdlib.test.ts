/**
 * Golden tests of move-stdlib (latest framework): string, ascii, vector, option,
 * bit_vector, address. Expectations come from first principles (UTF-8 and ASCII rules,
 * array operations in JS, BCS written by hand), never from the VM.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import type { MoveVM } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import {
  VecKind,
  abortImmediates,
  bcs,
  concat,
  bytesVec,
  decodeClever,
  expectAbort,
  expectBcs,
  expectError,
  frameworkModule,
  frameworkVm,
  moduleId,
  moveString,
  mutated,
  ok,
  ret,
  stringOf,
  utf8,
  val,
  vec,
} from './support/golden.js';

const STRING = moduleId('0x1', 'string');
const ASCII = moduleId('0x1', 'ascii');
const VECTOR = moduleId('0x1', 'vector');
const OPTION = moduleId('0x1', 'option');
const BIT_VECTOR = moduleId('0x1', 'bit_vector');

// Abort codes of the stdlib sources.
const E_INVALID_UTF8 = 1n;
const E_INVALID_INDEX = 2n;
const E_INVALID_ASCII_CHARACTER = 0x10000n;
const E_ASCII_INVALID_INDEX = 0x10001n;
const E_VECTOR_INDEX_OUT_OF_BOUNDS = 0x20000n;
const E_OPTION_IS_SET = 0x40000n;
const E_OPTION_NOT_SET = 0x40001n;
const E_BIT_INDEX = 0x20000n;
const E_BIT_LENGTH = 0x20001n;

const u64Vec = (xs: readonly bigint[]) => bcs.vector(xs.map((x) => bcs.u64(x)));
const optU64 = (x: bigint | null) => bcs.option(x === null ? null : bcs.u64(x));
/** An `Option<u64>` value. */
const someU64 = (x: bigint) => [vec(VecKind.U64, [x])];
const noneU64 = () => [vec(VecKind.U64, [])];

describeWithFixtures('golden: move-stdlib', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(() => {
    vm = frameworkVm();
  });

  describe('0x1::string', () => {
    it('utf8 accepts multi-byte text; length counts bytes', () => {
      const text = 'héllo wörld €𝄞';
      const s = ret(vm.call('0x1::string::utf8', { args: [val(bytesVec(text))] }));
      expectBcs(s, bcs.bytes(text));
      expect(stringOf(s.value)).toBe(text);
      expect(ret(vm.call('0x1::string::length', { args: [val(moveString(text))] })).value).toBe(BigInt(utf8(text).length));
      expect(ret(vm.call('0x1::string::is_empty', { args: [val(moveString(''))] })).value).toBe(true);
    });

    // Invalid UTF-8 per RFC 3629: bad continuation, surrogate, beyond U+10FFFF, overlong, lone continuation, truncated.
    const invalid: [string, number[]][] = [
      ['bad continuation', [0xc3, 0x28]],
      ['surrogate U+D800', [0xed, 0xa0, 0x80]],
      ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
      ['overlong "/"', [0xc0, 0xaf]],
      ['lone continuation', [0x61, 0x80]],
      ['truncated', [0xe2, 0x82]],
    ];
    for (const [what, bytes] of invalid) {
      it(`utf8 aborts with EInvalidUTF8 on ${what}; try_utf8 returns none`, () => {
        expectAbort(vm.call('0x1::string::utf8', { args: [val(bytesVec(bytes))] }), E_INVALID_UTF8, STRING, 'utf8');
        expectBcs(ret(vm.call('0x1::string::try_utf8', { args: [val(bytesVec(bytes))] })), bcs.option(null));
      });
    }

    it('try_utf8 of valid text is some', () => {
      expectBcs(ret(vm.call('0x1::string::try_utf8', { args: [val(bytesVec('€'))] })), bcs.option(bcs.bytes('€')));
    });

    it('substring cuts at char boundaries, and aborts with EInvalidIndex otherwise', () => {
      const s = 'héllo'; // h | é (2 bytes) | l l o
      const sub = (i: bigint, j: bigint) => vm.call('0x1::string::substring', { args: [val(moveString(s)), val(i), val(j)] });
      expectBcs(ret(sub(1n, 3n)), bcs.bytes('é'));
      expectBcs(ret(sub(0n, 6n)), bcs.bytes(s));
      expectBcs(ret(sub(6n, 6n)), bcs.bytes(''));
      expectAbort(sub(1n, 2n), E_INVALID_INDEX, STRING, 'substring'); // inside é
      expectAbort(sub(2n, 3n), E_INVALID_INDEX, STRING, 'substring');
      expectAbort(sub(3n, 2n), E_INVALID_INDEX, STRING, 'substring'); // i > j
      expectAbort(sub(0n, 7n), E_INVALID_INDEX, STRING, 'substring'); // j > length
    });

    it('sub_string (the deprecated name) delegates to substring', () => {
      const sub = (i: bigint, j: bigint) => vm.call('0x1::string::sub_string', { args: [val(moveString('aé')), val(i), val(j)] });
      expectBcs(ret(sub(1n, 3n)), bcs.bytes('é'));
      expectAbort(sub(2n, 3n), E_INVALID_INDEX, STRING, 'substring');
      expectAbort(sub(0n, 4n), E_INVALID_INDEX, STRING, 'substring');
    });

    it('index_of finds the first byte offset, or the length', () => {
      const idx = (s: string, p: string) => ret(vm.call('0x1::string::index_of', { args: [val(moveString(s)), val(moveString(p))] })).value;
      expect(idx('hello world', 'o w')).toBe(4n);
      expect(idx('hello world', 'o')).toBe(BigInt('hello world'.indexOf('o')));
      expect(idx('abc', '')).toBe(0n);
      expect(idx('abc', 'zz')).toBe(3n);
      expect(idx('añb', 'b')).toBe(3n); // ñ is two bytes
    });

    it('insert at a char boundary; EInvalidIndex inside a char or past the end', () => {
      const ins = (at: bigint, what: string) => vm.call('0x1::string::insert', { args: [val(moveString('héllo')), val(at), val(moveString(what))] });
      expectBcs(mutated(ins(3n, 'XY'), 0), bcs.bytes('héXYllo'));
      expectBcs(mutated(ins(6n, '!'), 0), bcs.bytes('héllo!'));
      expectAbort(ins(2n, 'X'), E_INVALID_INDEX, STRING, 'insert');
      expectAbort(ins(7n, 'X'), E_INVALID_INDEX, STRING, 'insert');
    });

    it('append concatenates', () => {
      expectBcs(mutated(vm.call('0x1::string::append', { args: [val(moveString('ab')), val(moveString('cdé'))] }), 0), bcs.bytes('abcdé'));
    });

    it('append_utf8 checks its bytes first', () => {
      expectAbort(vm.call('0x1::string::append_utf8', { args: [val(moveString('ab')), val(bytesVec([0xff]))] }), E_INVALID_UTF8, STRING, 'utf8');
    });

    it('to_ascii keeps ASCII and aborts on other characters', () => {
      expectBcs(ret(vm.call('0x1::string::to_ascii', { args: [val(moveString('abc'))] })), bcs.bytes('abc'));
      expectAbort(vm.call('0x1::string::to_ascii', { args: [val(moveString('é'))] }), E_INVALID_ASCII_CHARACTER, ASCII, 'string');
    });
  });

  describe('0x1::ascii', () => {
    it('string accepts bytes below 0x80 and aborts at 0x80', () => {
      expectBcs(ret(vm.call('0x1::ascii::string', { args: [val(bytesVec('Hello\x7f'))] })), bcs.bytes('Hello\x7f'));
      expectAbort(vm.call('0x1::ascii::string', { args: [val(bytesVec([0x41, 0x80]))] }), E_INVALID_ASCII_CHARACTER, ASCII, 'string');
      expectBcs(ret(vm.call('0x1::ascii::try_string', { args: [val(bytesVec([0xff]))] })), bcs.option(null));
      expectAbort(vm.call('0x1::ascii::char', { args: [val(200)] }), E_INVALID_ASCII_CHARACTER, ASCII, 'char');
    });

    it('is_valid_char and is_printable_char follow the ASCII table', () => {
      for (const b of [0x00, 0x1f, 0x20, 0x41, 0x7e, 0x7f, 0x80, 0xff]) {
        expect(ret(vm.call('0x1::ascii::is_valid_char', { args: [val(b)] })).value).toBe(b < 0x80);
        expect(ret(vm.call('0x1::ascii::is_printable_char', { args: [val(b)] })).value).toBe(b >= 0x20 && b <= 0x7e);
      }
    });

    it('all_characters_printable', () => {
      const f = (s: string) => ret(vm.call('0x1::ascii::all_characters_printable', { args: [val(moveString(s))] })).value;
      expect(f('a b~!')).toBe(true);
      expect(f('a\tb')).toBe(false);
      expect(f('')).toBe(true);
    });

    it('to_uppercase and to_lowercase change letters only', () => {
      const text = 'Hello, World! az AZ @[`{ 0189';
      const upper = text.replace(/[a-z]/g, (c) => c.toUpperCase());
      const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
      expectBcs(ret(vm.call('0x1::ascii::to_uppercase', { args: [val(moveString(text))] })), bcs.bytes(upper));
      expectBcs(ret(vm.call('0x1::ascii::to_lowercase', { args: [val(moveString(text))] })), bcs.bytes(lower));
    });

    it('index_of, substring, length', () => {
      expect(ret(vm.call('0x1::ascii::index_of', { args: [val(moveString('banana')), val(moveString('nan'))] })).value).toBe(2n);
      expect(ret(vm.call('0x1::ascii::index_of', { args: [val(moveString('banana')), val(moveString('x'))] })).value).toBe(6n);
      expectBcs(ret(vm.call('0x1::ascii::substring', { args: [val(moveString('hello')), val(1n), val(4n)] })), bcs.bytes('ell'));
      expectAbort(vm.call('0x1::ascii::substring', { args: [val(moveString('hello')), val(4n), val(1n)] }), E_ASCII_INVALID_INDEX, ASCII, 'substring');
      expect(ret(vm.call('0x1::ascii::length', { args: [val(moveString('hello'))] })).value).toBe(5n);
    });

    it('push_char and pop_char', () => {
      expectBcs(mutated(vm.call('0x1::ascii::push_char', { args: [val(moveString('abc')), val([0x21])] }), 0), bcs.bytes('abc!'));
      const popped = vm.call('0x1::ascii::pop_char', { args: [val(moveString('abc'))] });
      expectBcs(ret(popped), bcs.u8(0x63));
      expectBcs(mutated(popped, 0), bcs.bytes('ab'));
    });

    it('insert splices at an index', () => {
      expectBcs(mutated(vm.call('0x1::ascii::insert', { args: [val(moveString('held')), val(3n), val(moveString('lo wor'))] }), 0), bcs.bytes('hello word'));
    });

    it('insert past the end aborts with EInvalidIndex', () => {
      expectAbort(vm.call('0x1::ascii::insert', { args: [val(moveString('abc')), val(4n), val(moveString('x'))] }), E_ASCII_INVALID_INDEX, ASCII, 'insert');
    });
  });

  describe('0x1::vector', () => {
    const xs = [10n, 20n, 30n, 40n, 50n];

    it('reverse (u64, bool, u128, vector<vector<u8>>)', () => {
      const r1 = vm.call('0x1::vector::reverse', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs))] });
      expectBcs(mutated(r1, 0), u64Vec([...xs].reverse()));
      const bools = [true, false, false];
      const r2 = vm.call('0x1::vector::reverse', { typeArgs: ['bool'], args: [val(vec(VecKind.Bool, bools))] });
      expectBcs(mutated(r2, 0), bcs.vector([...bools].reverse().map(bcs.bool)));
      const big = [1n << 100n, 2n, 3n];
      const r3 = vm.call('0x1::vector::reverse', { typeArgs: ['u128'], args: [val(vec(VecKind.Boxed, big))] });
      expectBcs(mutated(r3, 0), bcs.vector([...big].reverse().map((x) => bcs.u128(x))));
      const rows = ['ab', '', 'cde', 'f'];
      const r4 = vm.call('0x1::vector::reverse', {
        typeArgs: ['vector<u8>'],
        args: [
          val(
            vec(
              VecKind.Boxed,
              rows.map((x) => bytesVec(x)),
            ),
          ),
        ],
      });
      expectBcs(mutated(r4, 0), bcs.vector([...rows].reverse().map((x) => bcs.bytes(x))));
    });

    it('reverse of zero or one element is the identity', () => {
      expectBcs(mutated(vm.call('0x1::vector::reverse', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [7n]))] }), 0), u64Vec([7n]));
      expectBcs(mutated(vm.call('0x1::vector::reverse', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, []))] }), 0), u64Vec([]));
    });

    it('append moves every element, in order', () => {
      const r = vm.call('0x1::vector::append', { typeArgs: ['u8'], args: [val(bytesVec('ab')), val(bytesVec('cde'))] });
      expectBcs(mutated(r, 0), bcs.bytes('abcde'));
    });

    it('is_empty, length, contains, index_of', () => {
      expect(ret(vm.call('0x1::vector::is_empty', { typeArgs: ['u32'], args: [val(vec(VecKind.U32, []))] })).value).toBe(true);
      expect(ret(vm.call('0x1::vector::length', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs))] })).value).toBe(5n);
      const contains = (x: bigint) => ret(vm.call('0x1::vector::contains', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(x)] })).value;
      expect(contains(30n)).toBe(true);
      expect(contains(31n)).toBe(false);
      const a2 = canonicalAddress('0x2');
      const addrs = [canonicalAddress('0x1'), a2];
      expect(ret(vm.call('0x1::vector::contains', { typeArgs: ['address'], args: [val(vec(VecKind.Boxed, addrs)), val(a2)] })).value).toBe(true);
      const big = [5n, 1n << 127n, 9n];
      const found = ok(vm.call('0x1::vector::index_of', { typeArgs: ['u128'], args: [val(vec(VecKind.Boxed, big)), val(1n << 127n)] })).returnValues;
      expect(found.map((v) => v.value)).toEqual([true, 1n]);
      const missing = ok(vm.call('0x1::vector::index_of', { typeArgs: ['u128'], args: [val(vec(VecKind.Boxed, big)), val(4n)] })).returnValues;
      expect(missing.map((v) => v.value)).toEqual([false, 0n]);
    });

    it('remove of the last element; out of bounds aborts', () => {
      const r = vm.call('0x1::vector::remove', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(4n)] });
      expect(ret(r).value).toBe(50n);
      expectBcs(mutated(r, 0), u64Vec(xs.slice(0, 4)));
      expectAbort(vm.call('0x1::vector::remove', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(5n)] }), E_VECTOR_INDEX_OUT_OF_BOUNDS, VECTOR, 'remove');
    });

    it('remove shifts the tail left', () => {
      const r = vm.call('0x1::vector::remove', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(1n)] });
      expect(ret(r).value).toBe(20n);
      expectBcs(mutated(r, 0), u64Vec([10n, 30n, 40n, 50n]));
    });

    it('insert at the middle, at the end; past the end aborts', () => {
      const ins = (at: bigint) => vm.call('0x1::vector::insert', { typeArgs: ['u16'], args: [val(vec(VecKind.U16, [1, 2, 3])), val(9), val(at)] });
      const u16Vec = (ys: number[]) => bcs.vector(ys.map((y) => bcs.u16(y)));
      expectBcs(mutated(ins(1n), 0), u16Vec([1, 9, 2, 3]));
      expectBcs(mutated(ins(3n), 0), u16Vec([1, 2, 3, 9]));
      expectAbort(ins(4n), E_VECTOR_INDEX_OUT_OF_BOUNDS, VECTOR, 'insert');
    });

    it('swap_remove moves the last element into the hole', () => {
      const r = vm.call('0x1::vector::swap_remove', { typeArgs: ['u32'], args: [val(vec(VecKind.U32, [1, 2, 3, 4])), val(1n)] });
      expect(ret(r).value).toBe(2);
      expectBcs(mutated(r, 0), bcs.vector([1, 4, 3].map((y) => bcs.u32(y))));
    });

    it('swap_remove on an empty vector aborts; out of bounds is a VecSwap error in swap_remove', () => {
      expectAbort(vm.call('0x1::vector::swap_remove', { typeArgs: ['u32'], args: [val(vec(VecKind.U32, [])), val(0n)] }), E_VECTOR_INDEX_OUT_OF_BOUNDS, VECTOR, 'swap_remove');
      expectError(vm.call('0x1::vector::swap_remove', { typeArgs: ['u32'], args: [val(vec(VecKind.U32, [1])), val(3n)] }), 'VECTOR_OPERATION_ERROR', VECTOR, 'swap_remove');
    });

    it('skip and take with n beyond the length', () => {
      const call = (f: string, n: bigint) => vm.call(`0x1::vector::${f}`, { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(n)] });
      expectBcs(ret(call('skip', 9n)), u64Vec([]));
      expectBcs(ret(call('skip', 0n)), u64Vec(xs));
      expectBcs(ret(call('take', 5n)), u64Vec(xs));
    });

    it('skip and take keep their order', () => {
      const call = (f: string, n: bigint) => vm.call(`0x1::vector::${f}`, { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(n)] });
      expectBcs(ret(call('skip', 2n)), u64Vec(xs.slice(2)));
      expectBcs(ret(call('take', 2n)), u64Vec(xs.slice(0, 2)));
    });

    it('take beyond the length aborts with the clever code of its assert!, unchanged', () => {
      const r = vm.call('0x1::vector::take', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, xs)), val(6n)] });
      if (r.$kind !== 'Aborted') throw new Error(`expected an abort, got ${r.$kind}`);
      expect(r.location.module).toBe(VECTOR);
      expect(r.location.function).toBe('take');
      expect(abortImmediates(frameworkModule('0x1', 'vector'), 'take')).toEqual([r.abortCode]);
      const c = decodeClever(r.abortCode);
      expect(r.abortCode >> 63n).toBe(1n);
      // assert! without a code: no error code, identifier or constant; a line number.
      expect(c).toMatchObject({ version: 0b1100, reserved: 0, errorCode: 0xff, identifierIndex: 0xffff, constantIndex: 0xffff });
      expect(c.line).toBeGreaterThan(0);
    });

    it('flatten concatenates in order; singleton', () => {
      const nested = vec(VecKind.Boxed, [bytesVec([1, 2]), bytesVec([]), bytesVec([3])]);
      expectBcs(ret(vm.call('0x1::vector::flatten', { typeArgs: ['u8'], args: [val(nested)] })), bcs.bytes(Uint8Array.of(1, 2, 3)));
      const a = canonicalAddress('0x2');
      expectBcs(ret(vm.call('0x1::vector::singleton', { typeArgs: ['address'], args: [val(a)] })), bcs.vector([bcs.address('0x2')]));
    });

    it('natives called directly: swap, push_back, pop_back, borrow, empty', () => {
      expectBcs(mutated(vm.call('0x1::vector::swap', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n, 2n, 3n])), val(0n), val(2n)] }), 0), u64Vec([3n, 2n, 1n]));
      expectBcs(mutated(vm.call('0x1::vector::push_back', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n])), val(2n)] }), 0), u64Vec([1n, 2n]));
      const popped = vm.call('0x1::vector::pop_back', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n, 2n]))] });
      expect(ret(popped).value).toBe(2n);
      expectBcs(mutated(popped, 0), u64Vec([1n]));
      expect(ret(vm.call('0x1::vector::borrow', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [4n, 5n])), val(1n)] })).value).toBe(5n);
      expectBcs(ret(vm.call('0x1::vector::empty', { typeArgs: ['vector<u8>'] })), bcs.vector([]));
    });

    // Upstream's vector natives turn VECTOR_OPERATION_ERROR into an abort whose code is the
    // sub-status (`native_error_to_abort`): INDEX_OUT_OF_BOUNDS 1, POP_EMPTY_VEC 2,
    // VEC_UNPACK_PARITY_MISMATCH 3 (destroy_empty unpacks zero elements); located at the native, offset 0.
    it('vector natives called directly abort with the vector error code, at the native', () => {
      const borrow = vm.call('0x1::vector::borrow', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [4n, 5n])), val(2n)] });
      expectAbort(borrow, 1n, VECTOR, 'borrow');
      expect(borrow.$kind === 'Aborted' && borrow.location.instruction).toBe(0);
      expectAbort(vm.call('0x1::vector::pop_back', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, []))] }), 2n, VECTOR, 'pop_back');
      expectAbort(vm.call('0x1::vector::destroy_empty', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n]))] }), 3n, VECTOR, 'destroy_empty');
      expectAbort(vm.call('0x1::vector::swap', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n])), val(0n), val(1n)] }), 1n, VECTOR, 'swap');
    });
  });

  describe('0x1::option', () => {
    it('some / none encode as vectors of one / zero element', () => {
      expectBcs(ret(vm.call('0x1::option::some', { typeArgs: ['u64'], args: [val(5n)] })), optU64(5n));
      expectBcs(ret(vm.call('0x1::option::none', { typeArgs: ['u64'] })), optU64(null));
      expectBcs(ret(vm.call('0x1::option::some', { typeArgs: ['0x1::string::String'], args: [val(moveString('x'))] })), bcs.option(bcs.bytes('x')));
    });

    it('is_some, is_none, contains, borrow', () => {
      expect(ret(vm.call('0x1::option::is_some', { typeArgs: ['u64'], args: [val(someU64(1n))] })).value).toBe(true);
      expect(ret(vm.call('0x1::option::is_none', { typeArgs: ['u64'], args: [val(someU64(1n))] })).value).toBe(false);
      expect(ret(vm.call('0x1::option::contains', { typeArgs: ['u64'], args: [val(someU64(3n)), val(3n)] })).value).toBe(true);
      expect(ret(vm.call('0x1::option::contains', { typeArgs: ['u64'], args: [val(noneU64()), val(3n)] })).value).toBe(false);
      expect(ret(vm.call('0x1::option::borrow', { typeArgs: ['u64'], args: [val(someU64(7n))] })).value).toBe(7n);
    });

    it('borrow, extract, borrow_mut, destroy_some of none abort with EOPTION_NOT_SET', () => {
      for (const f of ['borrow', 'extract', 'borrow_mut', 'destroy_some']) {
        expectAbort(vm.call(`0x1::option::${f}`, { typeArgs: ['u64'], args: [val(noneU64())] }), E_OPTION_NOT_SET, OPTION, f);
      }
    });

    it('extract takes the value out', () => {
      const r = vm.call('0x1::option::extract', { typeArgs: ['u64'], args: [val(someU64(7n))] });
      expect(ret(r).value).toBe(7n);
      expectBcs(mutated(r, 0), optU64(null));
    });

    it('fill a none; fill a some aborts with EOPTION_IS_SET; destroy_none of some aborts', () => {
      expectBcs(mutated(vm.call('0x1::option::fill', { typeArgs: ['u64'], args: [val(noneU64()), val(2n)] }), 0), optU64(2n));
      expectAbort(vm.call('0x1::option::fill', { typeArgs: ['u64'], args: [val(someU64(1n)), val(2n)] }), E_OPTION_IS_SET, OPTION, 'fill');
      expectAbort(vm.call('0x1::option::destroy_none', { typeArgs: ['u64'], args: [val(someU64(1n))] }), E_OPTION_IS_SET, OPTION, 'destroy_none');
    });

    it('swap replaces the value', () => {
      const r = vm.call('0x1::option::swap', { typeArgs: ['u64'], args: [val(someU64(1n)), val(2n)] });
      expect(ret(r).value).toBe(1n);
      expectBcs(mutated(r, 0), optU64(2n));
    });

    it('swap_or_fill on none fills', () => {
      const r = vm.call('0x1::option::swap_or_fill', { typeArgs: ['u64'], args: [val(noneU64()), val(3n)] });
      expectBcs(ret(r), optU64(null));
      expectBcs(mutated(r, 0), optU64(3n));
    });

    it('get_with_default, destroy_with_default, to_vec', () => {
      expect(ret(vm.call('0x1::option::get_with_default', { typeArgs: ['u64'], args: [val(noneU64()), val(9n)] })).value).toBe(9n);
      expect(ret(vm.call('0x1::option::get_with_default', { typeArgs: ['u64'], args: [val(someU64(4n)), val(9n)] })).value).toBe(4n);
      expect(ret(vm.call('0x1::option::destroy_with_default', { typeArgs: ['u64'], args: [val(someU64(4n)), val(9n)] })).value).toBe(4n);
      expectBcs(ret(vm.call('0x1::option::to_vec', { typeArgs: ['u64'], args: [val(someU64(3n))] })), u64Vec([3n]));
    });
  });

  describe('0x1::bit_vector', () => {
    /** A BitVector value and its BCS: `{ length: u64, bit_field: vector<bool> }`. */
    const bitVector = (bits: boolean[]) => [BigInt(bits.length), vec(VecKind.Bool, bits)];
    const bitVectorBcs = (bits: boolean[]) => concat(bcs.u64(bits.length), bcs.vector(bits.map(bcs.bool)));
    const pattern = [true, true, false, true, true, true, false, false, true, false];

    it('new(n) has n cleared bits; n = 0 or n >= 1024 aborts with ELENGTH', () => {
      expectBcs(ret(vm.call('0x1::bit_vector::new', { args: [val(10n)] })), bitVectorBcs(new Array<boolean>(10).fill(false)));
      expectAbort(vm.call('0x1::bit_vector::new', { args: [val(0n)] }), E_BIT_LENGTH, BIT_VECTOR, 'new');
      expectAbort(vm.call('0x1::bit_vector::new', { args: [val(1024n)] }), E_BIT_LENGTH, BIT_VECTOR, 'new');
    });

    it('set, unset, is_index_set, and EINDEX past the end', () => {
      const set = pattern.map((b, i) => i === 2 || b);
      expectBcs(mutated(vm.call('0x1::bit_vector::set', { args: [val(bitVector(pattern)), val(2n)] }), 0), bitVectorBcs(set));
      const unset = pattern.map((b, i) => i !== 0 && b);
      expectBcs(mutated(vm.call('0x1::bit_vector::unset', { args: [val(bitVector(pattern)), val(0n)] }), 0), bitVectorBcs(unset));
      pattern.forEach((b, i) => {
        expect(ret(vm.call('0x1::bit_vector::is_index_set', { args: [val(bitVector(pattern)), val(BigInt(i))] })).value).toBe(b);
      });
      expectAbort(vm.call('0x1::bit_vector::set', { args: [val(bitVector(pattern)), val(10n)] }), E_BIT_INDEX, BIT_VECTOR, 'set');
      expectAbort(vm.call('0x1::bit_vector::is_index_set', { args: [val(bitVector(pattern)), val(10n)] }), E_BIT_INDEX, BIT_VECTOR, 'is_index_set');
    });

    it('longest_set_sequence_starting_at and length', () => {
      const longest = (from: number) => {
        let k = from;
        while (k < pattern.length && pattern[k]) k++;
        return BigInt(k - from);
      };
      for (const i of [0, 2, 3, 8]) {
        expect(ret(vm.call('0x1::bit_vector::longest_set_sequence_starting_at', { args: [val(bitVector(pattern)), val(BigInt(i))] })).value).toBe(longest(i));
      }
      expect(ret(vm.call('0x1::bit_vector::length', { args: [val(bitVector(pattern))] })).value).toBe(10n);
    });

    it('shift_left by the length or more clears everything', () => {
      expectBcs(mutated(vm.call('0x1::bit_vector::shift_left', { args: [val(bitVector(pattern)), val(10n)] }), 0), bitVectorBcs(pattern.map(() => false)));
    });

    it('shift_left by k moves bit i+k to i', () => {
      const k = 3;
      const shifted = pattern.map((_, i) => (i + k < pattern.length ? pattern[i + k] : false));
      expectBcs(mutated(vm.call('0x1::bit_vector::shift_left', { args: [val(bitVector(pattern)), val(BigInt(k))] }), 0), bitVectorBcs(shifted));
    });
  });

  it('0x1::address::length is 32', () => {
    expect(ret(vm.call('0x1::address::length')).value).toBe(32n);
  });

  it('0x1::bool has no functions in this framework (only macros), so nothing to call', () => {
    expect(frameworkModule('0x1', 'bool').functionDefs).toEqual([]);
  });
});

/**
 * Executor rules for values between commands: `Result`/`NestedResult` and their index
 * errors, by value vs by reference, type checks, write-back of `&mut` arguments, and
 * values left unused. Expected outcomes follow Sui's static PTB checks (`typing/translate.rs`,
 * `typing/verify/memory_safety.rs`, `typing/verify/drop_safety.rs`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import type { Argument } from '@smi/ptb';
import type { SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { envWithHelper, expectSuccess, failureOf, makeCoin, makeObj, objValue, returned } from './ptb-support.js';

const BOB = canonicalAddress('0xb0b');
const result = (i: number): Argument => ({ $kind: 'Result', Result: i }) as Argument;
const nested = (i: number, j: number): Argument => ({ $kind: 'NestedResult', NestedResult: [i, j] }) as Argument;
const input = (i: number): Argument => ({ $kind: 'Input', Input: i }) as Argument;

function argumentError(command: number, argIdx: number, kind: string, fields: Record<string, number>) {
  return { $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: kind, [kind]: fields } }, command };
}

describeWithFixtures('PTB executor: results and values', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let pkg: string;
  beforeAll(async () => {
    ({ env, pkg } = await envWithHelper());
  });

  const errorOf = (tx: ReturnType<SimulationEnvironment['tx']>) => {
    const out = env.execute(tx.build());
    if (out.status.$kind !== 'Failure') throw new Error('the transaction succeeded');
    return { ...out.status.error, command: out.status.command };
  };

  describe('Result and NestedResult', () => {
    it('chain: a Result feeds the next command, NestedResult picks one of several values', () => {
      const tx = env.tx();
      const p = tx.moveCall(`${pkg}::h::pair`);
      const s = tx.moveCall(`${pkg}::h::add`, [p.nested(0), p.nested(1)]);
      tx.moveCall(`${pkg}::h::add`, [s, s]);
      const o = tx.moveCall(`${pkg}::h::new_obj`, [s]);
      tx.transferObjects([o], tx.pure('address', BOB));
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 1)).toBe('3');
      expect(returned(env, out, 2)).toBe('6');
      const created = out.written.find((w) => w.kind === 'created');
      expect(objValue(env, created?.id as string)).toBe('3');
    });

    it('Result of a command with other than one value is InvalidResultArity', () => {
      const two = env.tx();
      two.moveCall(`${pkg}::h::pair`);
      two.moveCall(`${pkg}::h::add`, [two.pure('u64', 1), result(0)]);
      expect(errorOf(two)).toEqual(argumentError(1, 1, 'InvalidResultArity', { resultIdx: 0 }));
      const none = env.tx();
      none.moveCall(`${pkg}::h::bump`, [none.object(makeObj(env, pkg, 1))]);
      none.moveCall(`${pkg}::h::add`, [result(0), none.pure('u64', 1)]);
      expect(errorOf(none)).toEqual(argumentError(1, 0, 'InvalidResultArity', { resultIdx: 0 }));
    });

    it('NestedResult past the values of a command is SecondaryIndexOutOfBounds', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::pair`);
      tx.moveCall(`${pkg}::h::add`, [nested(0, 0), nested(0, 2)]);
      expect(errorOf(tx)).toEqual(argumentError(1, 1, 'SecondaryIndexOutOfBounds', { resultIdx: 0, secondaryIdx: 2 }));
    });

    it('an input, a result of a later command or of the command itself is IndexOutOfBounds', () => {
      const later = env.tx();
      later.moveCall(`${pkg}::h::add`, [later.pure('u64', 1), result(1)]);
      later.moveCall(`${pkg}::h::pair`);
      expect(errorOf(later)).toEqual(argumentError(0, 1, 'IndexOutOfBounds', { idx: 1 }));
      const self = env.tx();
      self.moveCall(`${pkg}::h::add`, [nested(0, 0), self.pure('u64', 1)]);
      expect(errorOf(self)).toEqual(argumentError(0, 0, 'IndexOutOfBounds', { idx: 0 }));
      const missingInput = env.tx();
      missingInput.moveCall(`${pkg}::h::add`, [missingInput.pure('u64', 1), input(7)]);
      expect(errorOf(missingInput)).toEqual(argumentError(0, 1, 'IndexOutOfBounds', { idx: 7 }));
    });
  });

  describe('by value and by reference', () => {
    it('a value moved out is gone: using it again is ArgumentWithoutValue', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      const o = tx.object(obj);
      tx.transferObjects([o], tx.pure('address', BOB));
      tx.moveCall(`${pkg}::h::value`, [o]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'ArgumentWithoutValue' });
      const twice = env.tx();
      const n = twice.moveCall(`${pkg}::h::new_obj`, [twice.pure('u64', 1)]);
      twice.moveCall(`${pkg}::h::destroy`, [n]);
      twice.moveCall(`${pkg}::h::destroy`, [n]);
      expect(failureOf(env.execute(twice.build()))).toEqual({ kind: 'CommandArgumentError', command: 2, argIdx: 0, argKind: 'ArgumentWithoutValue' });
    });

    it('borrowing then moving the same value in one command is CannotMoveBorrowedValue', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      const o = tx.object(obj);
      tx.moveCall(`${pkg}::h::borrow_then_take`, [o, o]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'CannotMoveBorrowedValue' });
    });

    it('moving then borrowing the same value in one command is ArgumentWithoutValue', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      const o = tx.object(obj);
      tx.moveCall(`${pkg}::h::take_then_borrow`, [o, o]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'ArgumentWithoutValue' });
    });

    it('a copyable value may be borrowed and copied in the same command', () => {
      const tx = env.tx();
      const x = tx.pure('u64', 20);
      tx.moveCall(`${pkg}::h::ref_and_val`, [x, x]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 0)).toBe('40');
    });

    it('copyable values are copied, not moved: a pure input and a u64 result serve several commands', () => {
      const tx = env.tx();
      const x = tx.pure('u64', 5);
      const s = tx.moveCall(`${pkg}::h::add`, [x, x]);
      tx.moveCall(`${pkg}::h::add`, [s, x]);
      tx.moveCall(`${pkg}::h::add`, [s, s]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect([returned(env, out, 1), returned(env, out, 2)]).toEqual(['15', '20']);
    });
  });

  describe('types', () => {
    it('a value of another type is TypeMismatch', () => {
      const coin = makeCoin(env, 5);
      const objVsCoin = env.tx();
      objVsCoin.moveCall(`${pkg}::h::bump`, [objVsCoin.object(coin)]);
      expect(failureOf(env.execute(objVsCoin.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'TypeMismatch' });
      const u64VsToken = env.tx();
      const t = u64VsToken.moveCall(`${pkg}::h::add`, [u64VsToken.pure('u64', 1), u64VsToken.pure('u64', 2)]);
      u64VsToken.moveCall(`${pkg}::h::burn`, [t]);
      expect(failureOf(env.execute(u64VsToken.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'TypeMismatch' });
      const u8 = env.tx();
      const s = u8.moveCall(`${pkg}::h::add`, [u8.pure('u64', 1), u8.pure('u64', 2)]);
      u8.moveCall('0x1::u8::max', [s, u8.pure('u8', 1)]);
      expect(failureOf(env.execute(u8.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'TypeMismatch' });
    });
  });

  describe('write-back of &mut arguments', () => {
    it('an input object, a result and a pure input mutated by reference are seen by the next command', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      const o = tx.object(obj);
      tx.moveCall(`${pkg}::h::set_value`, [o, tx.pure('u64', 7)]);
      tx.moveCall(`${pkg}::h::value`, [o]);
      const n = tx.moveCall(`${pkg}::h::new_obj`, [tx.pure('u64', 1)]);
      tx.moveCall(`${pkg}::h::bump`, [n]);
      tx.moveCall(`${pkg}::h::value`, [n]);
      tx.moveCall(`${pkg}::h::destroy`, [n]);
      const x = tx.pure('u64', 100);
      tx.moveCall(`${pkg}::h::add_to`, [x, tx.pure('u64', 5)]);
      tx.moveCall(`${pkg}::h::read`, [x]);
      tx.moveCall(`${pkg}::h::add`, [x, tx.pure('u64', 0)]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 1)).toBe('7');
      expect(returned(env, out, 4)).toBe('2');
      expect(returned(env, out, 5)).toBe('2');
      expect([returned(env, out, 7), returned(env, out, 8)]).toEqual(['105', '105']);
      expect(objValue(env, obj)).toBe('7');
      expect(out.commandResults[0].mutatedReferences.map((m) => m.argument)).toEqual(['Input(0)']);
    });

    it('dev inspect: a reference returned by a call stays a reference, so a write through it reaches what it borrows from', () => {
      const tx = env.tx();
      const T = ['u64', 'u64'];
      const m = tx.moveCall('0x2::vec_map::empty', [], T);
      tx.moveCall('0x2::vec_map::insert', [m, tx.pure('u64', 1), tx.pure('u64', 42)], T);
      const r = tx.moveCall('0x2::vec_map::get_mut', [m, tx.pure('u64', 1)], T);
      tx.moveCall(`${pkg}::h::add_to`, [r, tx.pure('u64', 5)]);
      tx.moveCall(`${pkg}::h::read`, [r]);
      const g = tx.moveCall('0x2::vec_map::get', [m, tx.pure('u64', 1)], T);
      tx.moveCall(`${pkg}::h::read`, [g]);
      const out = env.execute(tx.build(), { checks: 'relaxed' });
      expectSuccess(out);
      expect([returned(env, out, 4), returned(env, out, 6)]).toEqual(['47', '47']);
    });
  });

  describe('unused values', () => {
    it('a result without drop left unused is UnusedValueWithoutDrop (no command index)', () => {
      for (const [fn, args] of [
        ['potato', [1]],
        ['token', [1]],
        ['new_obj', [1]],
      ] as const) {
        const tx = env.tx();
        tx.moveCall(`${pkg}::h::add`, [tx.pure('u64', 1), tx.pure('u64', 1)]);
        tx.moveCall(
          `${pkg}::h::${fn}`,
          args.map((a) => tx.pure('u64', a)),
        );
        expect(errorOf(tx)).toEqual({ $kind: 'UnusedValueWithoutDrop', UnusedValueWithoutDrop: { resultIdx: 1, secondaryIdx: 0 }, command: null });
      }
    });

    it('a value with copy but not drop is taken by its last by-value use, and unused if its last use borrows it', () => {
      const taken = env.tx();
      const c = taken.moveCall(`${pkg}::h::copyable`, [taken.pure('u64', 4)]);
      taken.moveCall(`${pkg}::h::copyable_peek`, [c]);
      taken.moveCall(`${pkg}::h::copyable_value`, [c]);
      taken.moveCall(`${pkg}::h::copyable_value`, [c]);
      const out = env.execute(taken.build());
      expectSuccess(out);
      expect([returned(env, out, 1), returned(env, out, 2), returned(env, out, 3)]).toEqual(['4', '4', '4']);
      const borrowedLast = env.tx();
      const d = borrowedLast.moveCall(`${pkg}::h::copyable`, [borrowedLast.pure('u64', 4)]);
      borrowedLast.moveCall(`${pkg}::h::copyable_value`, [d]);
      borrowedLast.moveCall(`${pkg}::h::copyable_peek`, [d]);
      expect(errorOf(borrowedLast)).toEqual({ $kind: 'UnusedValueWithoutDrop', UnusedValueWithoutDrop: { resultIdx: 0, secondaryIdx: 0 }, command: null });
    });

    it('a value left unused is fine when dev-inspecting (relaxed checks)', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::potato`, [tx.pure('u64', 1)]);
      expectSuccess(env.execute(tx.build(), { checks: 'relaxed' }));
    });
  });
});

/**
 * Executor rules for the built-in commands: `SplitCoins`, `MergeCoins`, `TransferObjects`
 * and `MakeMoveVec`. Expected outcomes follow Sui's static PTB typing (`typing/translate.rs`),
 * its interpreter (`execution/interpreter.rs`) and the transaction input checks
 * (`Command::validity_check`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { type SimulationEnvironment, SimulationEnvironmentError } from '@smi/simulation';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { balanceOf, createdOf, envWithHelper, expectSuccess, failureOf, makeCoin, makeObj, returned } from './ptb-support.js';

const BOB = canonicalAddress('0xb0b');
const U64_MAX = 0xffffffffffffffffn;

describeWithFixtures('PTB executor: built-in commands', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let pkg: string;
  beforeAll(async () => {
    ({ env, pkg } = await envWithHelper());
  });

  describe('SplitCoins', () => {
    it('takes each amount out of the coin into a new coin of the same type', () => {
      const coin = makeCoin(env, 1000);
      const tx = env.tx();
      const [a, b, c] = tx.splitCoins(tx.object(coin), [tx.pure('u64', 100), tx.pure('u64', 250), tx.pure('u64', 0)]);
      tx.transferObjects([a, b, c], tx.pure('address', BOB));
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(balanceOf(env, coin)).toBe(650n);
      const created = createdOf(out);
      expect(created.map((x) => x.type)).toEqual(Array(3).fill(env.getObject(coin)?.type));
      expect(created.map((x) => balanceOf(env, x.id)).sort((x, y) => Number(x - y))).toEqual([0n, 100n, 250n]);
      expect(out.commandResults[0].returnValues).toHaveLength(3);
    });

    it('splitting more than the balance is InsufficientCoinBalance, and nothing changes', () => {
      const coin = makeCoin(env, 1000);
      const tx = env.tx();
      const [a, b] = tx.splitCoins(tx.object(coin), [tx.pure('u64', 600), tx.pure('u64', 600)]);
      tx.transferObjects([a, b], tx.pure('address', BOB));
      const out = env.execute(tx.build());
      expect(failureOf(out)).toEqual({ kind: 'InsufficientCoinBalance', command: 0 });
      expect(balanceOf(env, coin)).toBe(1000n);
      expect(createdOf(out)).toEqual([]);
    });

    it('amounts whose sum overflows u64 are CoinBalanceOverflow', () => {
      const coin = makeCoin(env, 1000);
      const tx = env.tx();
      const [a, b] = tx.splitCoins(tx.object(coin), [tx.pure('u64', U64_MAX.toString()), tx.pure('u64', 2)]);
      tx.transferObjects([a, b], tx.pure('address', BOB));
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CoinBalanceOverflow', command: 0 });
    });

    it('the coin must be a Coin (TypeMismatch), the amounts u64 (TypeMismatch / InvalidBCSBytes)', () => {
      const obj = makeObj(env, pkg, 1);
      const notCoin = env.tx();
      const [x] = notCoin.splitCoins(notCoin.object(obj), [notCoin.pure('u64', 1)]);
      notCoin.transferObjects([x], notCoin.pure('address', BOB));
      expect(failureOf(env.execute(notCoin.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'TypeMismatch' });
      const pureCoin = env.tx();
      const [y] = pureCoin.splitCoins(pureCoin.pure('u64', 1), [pureCoin.pure('u64', 1)]);
      pureCoin.transferObjects([y], pureCoin.pure('address', BOB));
      expect(failureOf(env.execute(pureCoin.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'TypeMismatch' });
      const coin = makeCoin(env, 10);
      const badAmount = env.tx();
      const [z] = badAmount.splitCoins(badAmount.object(coin), [badAmount.pure('u64', 1), badAmount.pure('u8', 1)]);
      badAmount.transferObjects([z], badAmount.pure('address', BOB));
      expect(failureOf(env.execute(badAmount.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 2, argKind: 'InvalidBCSBytes' });
    });
  });

  describe('MergeCoins', () => {
    it('adds the sources into the destination and deletes them', () => {
      const dest = makeCoin(env, 10);
      const s1 = makeCoin(env, 20);
      const s2 = makeCoin(env, 30);
      const tx = env.tx();
      const [part] = tx.splitCoins(tx.object(s2), [tx.pure('u64', 5)]);
      tx.mergeCoins(tx.object(dest), [tx.object(s1), part]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(balanceOf(env, dest)).toBe(35n);
      expect(balanceOf(env, s2)).toBe(25n);
      expect(env.getObject(s1)).toBeUndefined();
      expect(out.deleted).toEqual([s1]);
      // The coin split off and merged in the same transaction was never written.
      expect(createdOf(out)).toEqual([]);
    });

    it('merging a coin into itself is CannotMoveBorrowedValue', () => {
      const coin = makeCoin(env, 10);
      const tx = env.tx();
      const c = tx.object(coin);
      tx.mergeCoins(c, [c]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'CannotMoveBorrowedValue' });
    });

    it('a source of another coin type is TypeMismatch', () => {
      const sui = makeCoin(env, 10);
      const other = makeCoin(env, 10, `0x2::coin::Coin<${pkg}::registry::REGISTRY>`);
      const tx = env.tx();
      tx.mergeCoins(tx.object(sui), [tx.object(other)]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'TypeMismatch' });
    });

    it('a total past u64 is CoinBalanceOverflow', () => {
      const a = makeCoin(env, U64_MAX);
      const b = makeCoin(env, 1);
      const tx = env.tx();
      tx.mergeCoins(tx.object(a), [tx.object(b)]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CoinBalanceOverflow', command: 0 });
      expect(balanceOf(env, b)).toBe(1n);
    });
  });

  describe('TransferObjects', () => {
    it('gives objects with key and store to the recipient', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      const fresh = tx.moveCall(`${pkg}::h::new_obj`, [tx.pure('u64', 2)]);
      tx.transferObjects([tx.object(obj), fresh], tx.pure('address', BOB));
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(env.getObject(obj)?.owner).toEqual({ $kind: 'AddressOwner', address: BOB });
      expect(env.getObject(createdOf(out)[0].id)?.owner).toEqual({ $kind: 'AddressOwner', address: BOB });
    });

    it('an object without store, a plain value or pure bytes is InvalidTransferObject', () => {
      const keyOnly = env.tx();
      const k = keyOnly.moveCall(`${pkg}::h::new_key_only`);
      keyOnly.transferObjects([k], keyOnly.pure('address', BOB));
      expect(failureOf(env.execute(keyOnly.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'InvalidTransferObject' });
      const value = env.tx();
      const obj = makeObj(env, pkg, 1);
      const n = value.moveCall(`${pkg}::h::add`, [value.pure('u64', 1), value.pure('u64', 2)]);
      value.transferObjects([value.object(obj), n], value.pure('address', BOB));
      expect(failureOf(env.execute(value.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 1, argKind: 'InvalidTransferObject' });
      const pure = env.tx();
      pure.transferObjects([pure.pure('address', BOB)], pure.pure('address', BOB));
      expect(failureOf(env.execute(pure.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidTransferObject' });
    });

    it('the recipient must be an address (argument index = number of objects)', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      tx.transferObjects([tx.object(obj)], tx.pure('u64', 1));
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'InvalidBCSBytes' });
    });

    it('an empty TransferObjects is rejected before execution', () => {
      const tx = env.tx();
      tx.transferObjects([], tx.pure('address', BOB));
      expect(() => env.execute(tx.build())).toThrow(SimulationEnvironmentError);
    });
  });

  describe('MakeMoveVec', () => {
    it('packs objects without a type and pure values with one', () => {
      const tx = env.tx();
      const a = tx.moveCall(`${pkg}::h::new_obj`, [tx.pure('u64', 1)]);
      const b = tx.object(makeObj(env, pkg, 2));
      const v = tx.makeMoveVec(null, [a, b]);
      tx.moveCall(`${pkg}::h::destroy_all`, [v]);
      const nums = tx.makeMoveVec('u64', [tx.pure('u64', 3), tx.pure('u64', 4)]);
      tx.moveCall(`${pkg}::h::sum`, [nums]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 2)).toBe('3');
      expect(returned(env, out, 4)).toBe('7');
    });

    it('an empty vector needs its type; without one the transaction is rejected before execution', () => {
      const tx = env.tx();
      const v = tx.makeMoveVec('u64', []);
      tx.moveCall(`${pkg}::h::sum`, [v]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 1)).toBe('0');
      const untyped = env.tx();
      untyped.makeMoveVec(null, []);
      const before = env.store.size;
      expect(() => env.execute(untyped.build())).toThrow(SimulationEnvironmentError);
      expect(env.store.size).toBe(before);
    });

    it('without a type the first element must be an object (InvalidMakeMoveVecNonObjectArgument)', () => {
      const pure = env.tx();
      pure.makeMoveVec(null, [pure.pure('u64', 1)]);
      expect(failureOf(env.execute(pure.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidMakeMoveVecNonObjectArgument' });
      const value = env.tx();
      const n = value.moveCall(`${pkg}::h::add`, [value.pure('u64', 1), value.pure('u64', 2)]);
      value.makeMoveVec(null, [n]);
      expect(failureOf(env.execute(value.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'InvalidMakeMoveVecNonObjectArgument' });
    });

    it('elements of another type are TypeMismatch', () => {
      const tx = env.tx();
      const v = tx.makeMoveVec(null, [tx.object(makeObj(env, pkg, 1)), tx.object(makeCoin(env, 1))]);
      tx.transferObjects([v], tx.pure('address', BOB));
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'TypeMismatch' });
    });
  });
});

/**
 * Executor rules for inputs: pure bytes read by the parameter type, owned / immutable /
 * shared objects and their mutability, and the gas coin. Expected outcomes follow Sui's
 * static PTB checks (`typing/verify/input_arguments.rs`) and the adapter's `finish`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import type { SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { balanceOf, envWithHelper, expectSuccess, failureOf, makeCoin, makeObj, objValue, returned } from './ptb-support.js';

const BOB = canonicalAddress('0xb0b');

describeWithFixtures('PTB executor: inputs', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let pkg: string;
  beforeAll(async () => {
    ({ env, pkg } = await envWithHelper());
  });

  describe('pure inputs', () => {
    it('reads the same pure bytes by each parameter type (address and ID)', () => {
      const tx = env.tx();
      const a = tx.pure('address', '0x1234');
      tx.moveCall(`${pkg}::h::same_id`, [a, a]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 0)).toBe(true);
    });

    it('bad BCS for the parameter type is CommandArgumentError InvalidBCSBytes', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::add`, [tx.pure('u64', 1), tx.pureBytes(new Uint8Array([1, 2, 3, 4]))]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'InvalidBCSBytes' });
    });

    it('trailing bytes after the value are InvalidBCSBytes', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::add`, [tx.pureBytes(new Uint8Array(9)), tx.pure('u64', 1)]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidBCSBytes' });
    });

    it('invalid UTF-8 for a String is InvalidBCSBytes, valid UTF-8 is read', () => {
      const ok = env.tx();
      ok.moveCall(`${pkg}::h::str_len`, [ok.pure('0x1::string::String', 'héllo')]);
      const good = env.execute(ok.build());
      expectSuccess(good);
      expect(returned(env, good, 0)).toBe('6');
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::str_len`, [tx.pureBytes(new Uint8Array([2, 0xc3, 0x28]))]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidBCSBytes' });
    });

    it('a non-ASCII byte for an ascii::String is InvalidBCSBytes', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::ascii_len`, [tx.pureBytes(new Uint8Array([1, 0x80]))]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidBCSBytes' });
    });

    it('pure bytes for a non-primitive parameter (by value or by reference) are InvalidUsageOfPureArg', () => {
      const byValue = env.tx();
      byValue.moveCall(`${pkg}::h::burn`, [byValue.pure('u64', 1)]);
      expect(failureOf(env.execute(byValue.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidUsageOfPureArg' });
      const byRef = env.tx();
      byRef.moveCall(`${pkg}::h::value`, [byRef.pureBytes(new Uint8Array(40))]);
      expect(failureOf(env.execute(byRef.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidUsageOfPureArg' });
    });

    it('vectors and options of primitives are pure', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::sum`, [tx.pure('vector<u64>', [1, 2, 3])]);
      tx.moveCall('0x1::option::is_some', [tx.pureBytes(new Uint8Array([1, 7, 0, 0, 0, 0, 0, 0, 0]))], ['u64']);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(returned(env, out, 0)).toBe('6');
      expect(returned(env, out, 1)).toBe(true);
    });
  });

  describe('objects', () => {
    it('an owned object by &mut is written back with a new version; by value it is deleted', () => {
      const a = makeObj(env, pkg, 1);
      const b = makeObj(env, pkg, 2);
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::set_value`, [tx.object(a), tx.pure('u64', 10)]);
      tx.moveCall(`${pkg}::h::destroy`, [tx.object(b)]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      expect(env.getObject(a)?.version).toBe('2');
      expect(objValue(env, a)).toBe('10');
      expect(out.deleted).toContain(b);
      expect(env.getObject(b)).toBeUndefined();
    });

    it('an immutable object can be read but not taken by &mut (InvalidObjectByMutRef) or by value (InvalidObjectByValue)', () => {
      const frozen = makeObj(env, pkg, 5, { $kind: 'Immutable' });
      const read = env.tx();
      read.moveCall(`${pkg}::h::value`, [read.object(frozen)]);
      const ok = env.execute(read.build());
      expectSuccess(ok);
      expect(returned(env, ok, 0)).toBe('5');
      expect(ok.written.map((w) => w.id)).not.toContain(frozen);
      const mut = env.tx();
      mut.moveCall(`${pkg}::h::bump`, [mut.object(frozen)]);
      expect(failureOf(env.execute(mut.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidObjectByMutRef' });
      const byValue = env.tx();
      byValue.moveCall(`${pkg}::h::destroy`, [byValue.object(frozen)]);
      expect(failureOf(env.execute(byValue.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidObjectByValue' });
      expect(env.getObject(frozen)?.version).toBe('1');
    });

    it('a shared object taken read-only cannot be borrowed mutably, and is reported as a read-only consensus object', () => {
      const shared = makeObj(env, pkg, 3, { $kind: 'Shared' });
      const mut = env.tx();
      mut.moveCall(`${pkg}::h::bump`, [mut.object(shared, { mutable: false })]);
      expect(failureOf(env.execute(mut.build()))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidObjectByMutRef' });
      const read = env.tx();
      read.moveCall(`${pkg}::h::value`, [read.object(shared, { mutable: false })]);
      const out = env.execute(read.build());
      expectSuccess(out);
      expect(returned(env, out, 0)).toBe('3');
      const unchanged = out.effects.$kind === 'V2' ? out.effects.V2.unchangedConsensusObjects : [];
      expect(unchanged.map(([id, k]) => [id, k.$kind])).toEqual([[shared, 'ReadOnlyRoot']]);
      expect(env.getObject(shared)?.version).toBe('1');
    });

    it('a shared object taken mutably is written back shared, with its initial shared version', () => {
      const shared = makeObj(env, pkg, 3, { $kind: 'Shared' });
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::bump`, [tx.object(shared)]);
      expectSuccess(env.execute(tx.build()));
      expect(objValue(env, shared)).toBe('4');
      expect(env.getObject(shared)?.owner).toEqual({ $kind: 'Shared', initialSharedVersion: '1' });
      expect(env.getObject(shared)?.version).toBe('2');
    });

    it('a shared object taken by value may be deleted but not transferred (SharedObjectOperationNotAllowed)', () => {
      const shared = makeObj(env, pkg, 3, { $kind: 'Shared' });
      const tx = env.tx();
      tx.transferObjects([tx.object(shared)], tx.pure('address', BOB));
      const out = env.execute(tx.build());
      expect(failureOf(out)).toEqual({ kind: 'SharedObjectOperationNotAllowed', command: null });
      expect(env.getObject(shared)?.owner.$kind).toBe('Shared');
      const del = env.tx();
      del.moveCall(`${pkg}::h::destroy`, [del.object(shared)]);
      expectSuccess(env.execute(del.build()));
      expect(env.getObject(shared)).toBeUndefined();
    });

    it('a shared object cannot be wrapped (SharedObjectOperationNotAllowed)', () => {
      const shared = makeObj(env, pkg, 3, { $kind: 'Shared' });
      const tx = env.tx();
      const box = tx.moveCall(`${pkg}::h::wrap`, [tx.object(shared)]);
      tx.transferObjects([box], tx.pure('address', BOB));
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'SharedObjectOperationNotAllowed', command: null });
    });
  });

  describe('the gas coin', () => {
    it('cannot be taken by value by a Move call (InvalidGasCoinUsage)', () => {
      const gas = makeCoin(env, 10_000_000_000n);
      const tx = env.tx();
      const b = tx.moveCall('0x2::coin::into_balance', [tx.gas], ['0x2::sui::SUI']);
      tx.moveCall('0x2::balance::destroy_zero', [b], ['0x2::sui::SUI']);
      expect(failureOf(env.execute(tx.build(), { gasCoin: gas }))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 0, argKind: 'InvalidGasCoinUsage' });
    });

    it('cannot be a MergeCoins source or a MakeMoveVec element (InvalidGasCoinUsage)', () => {
      const gas = makeCoin(env, 10_000_000_000n);
      const coin = makeCoin(env, 5);
      const merge = env.tx();
      merge.mergeCoins(merge.object(coin), [merge.gas]);
      expect(failureOf(env.execute(merge.build(), { gasCoin: gas }))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'InvalidGasCoinUsage' });
      const vec = env.tx();
      // The vector stays unused: the whole PTB is typed before any check of its inputs, and a
      // vector handed to TransferObjects would fail typing first (InvalidTransferObject).
      vec.makeMoveVec(null, [vec.object(coin), vec.gas]);
      expect(failureOf(env.execute(vec.build(), { gasCoin: gas }))).toEqual({ kind: 'CommandArgumentError', command: 0, argIdx: 1, argKind: 'InvalidGasCoinUsage' });
    });

    it('can be read, split from and merged into; the gas charge comes out of it', () => {
      const gas = makeCoin(env, 10_000_000_000n);
      const coin = makeCoin(env, 500);
      const tx = env.tx();
      tx.moveCall('0x2::coin::value', [tx.gas], ['0x2::sui::SUI']);
      const [part] = tx.splitCoins(tx.gas, [tx.pure('u64', 1000)]);
      tx.transferObjects([part], tx.pure('address', BOB));
      tx.mergeCoins(tx.gas, [tx.object(coin)]);
      // A budget below the coin's balance (a validator refuses one above it: GasBalanceTooLow).
      const out = env.execute(tx.build(), { gasCoin: gas, gasBudget: 1_000_000_000n });
      expectSuccess(out);
      // While commands run, the budget is held back from the gas coin (returned at the end).
      expect(returned(env, out, 0)).toBe('9000000000');
      const g = out.gasUsed;
      const charge = g.computationCost + g.storageCost - g.storageRebate;
      expect(balanceOf(env, gas)).toBe(10_000_000_000n - 1000n + 500n - charge);
      expect(env.getObject(coin)).toBeUndefined();
      expect(out.deleted).toContain(coin);
    });

    it('can be transferred by value with TransferObjects', () => {
      const gas = makeCoin(env, 10_000_000_000n);
      const tx = env.tx();
      tx.transferObjects([tx.gas], tx.pure('address', BOB));
      const out = env.execute(tx.build(), { gasCoin: gas });
      expectSuccess(out);
      expect(env.getObject(gas)?.owner).toEqual({ $kind: 'AddressOwner', address: BOB });
      const g = out.gasUsed;
      expect(balanceOf(env, gas)).toBe(10_000_000_000n - (g.computationCost + g.storageCost - g.storageRebate));
    });
  });
});

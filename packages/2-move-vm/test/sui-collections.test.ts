/**
 * Framework collections and coins over the real dynamic-field natives, called directly
 * (no PTB): `table`, `bag`, `object_table`, `object_bag`, `dynamic_field`,
 * `dynamic_object_field`, `linked_table`, `table_vec`, `vec_map`, `coin`, `balance`.
 * Every container value travels between calls through `mutatedReferences`; the children
 * stay in the ObjectRuntime, and `results()` shows them as `ObjectOwner` writes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { blake2b } from '@noble/hashes/blake2.js';
import { canonicalAddress, loadBundleFile } from '@smi/bytecode';
import { MoveVM, MoveVector, NativeRegistry, VecKind, type CallArg, type CallResult, type TypedValue } from '@smi/move-vm';
import { registerMoveStdlib } from '../src/natives/move-stdlib.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { OBJECT_RUNTIME_KEY, ObjectRuntime, hashTypeAndKey, parseSuiTypeTag, registerSuiNatives } from '../src/natives/sui/index.js';
import { bcs, bytesVec, concat, expectAbort, hex, moveString, mutated, ok, stringOf, val } from './support/golden.js';

const SUI = canonicalAddress('0x2');
const DIGEST = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const SENDER = canonicalAddress('0x5e4de4');
const SUI_T = '0x2::sui::SUI';
const COIN_T = '0x2::coin::Coin<0x2::sui::SUI>';

function makeVm(): MoveVM {
  const natives = registerSuiNatives(registerMoveStdlib(new NativeRegistry()));
  return MoveVM.create({ packages: ['move-stdlib', 'sui-framework', 'sui-system'].map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f))), natives });
}

/** `Option<Url>::none()`. */
const noUrl = (): CallArg => val([MoveVector.empty(VecKind.Boxed)]);

function freshId(n: number): string {
  return '0x' + hex(blake2b(concat(Uint8Array.of(0xf1), DIGEST, bcs.u64(n)), { dkLen: 32 }));
}

/** A session: one VM call after another over the same ObjectRuntime. */
class Session {
  readonly rt: ObjectRuntime;
  constructor(readonly vm: MoveVM) {
    this.rt = new ObjectRuntime({ tx: { sender: SENDER, digest: DIGEST, epoch: 3n, epochTimestampMs: 0n, gasPrice: 1000n, rgp: 1000n, gasBudget: 1n, sponsor: null }, bcs: vm.bcs });
  }
  call(target: string, typeArgs: string[], args: CallArg[]): CallResult {
    return this.vm.call(target, { typeArgs, args, allowPrivate: true, extensions: new Map([[OBJECT_RUNTIME_KEY, this.rt]]) });
  }
  get ctx(): CallArg {
    return val(this.rt.txContextValue());
  }
  /** Call, expect success, return the return values. */
  run(target: string, typeArgs: string[], args: CallArg[]): TypedValue[] {
    return ok(this.call(target, typeArgs, args)).returnValues;
  }
  /** Call with `&mut` container `obj` as argument 0; returns [new container, return values]. */
  mut(target: string, typeArgs: string[], obj: unknown, rest: CallArg[]): [unknown, TypedValue[]] {
    const r = this.call(target, typeArgs, [val(obj), ...rest]);
    return [mutated(r, 0).value, ok(r).returnValues];
  }
}

describeWithFixtures('sui natives: collections and coins', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(() => {
    vm = makeVm();
  });

  it('table: new, add, borrow, contains, remove, length, errors; children written under the table', () => {
    const s = new Session(vm);
    const T = ['u64', '0x1::string::String'];
    let table = s.run('0x2::table::new', T, [s.ctx])[0].value;
    const tableId = freshId(0);
    for (const [k, v] of [
      [1n, 'one'],
      [2n, 'two'],
      [3n, 'three'],
    ] as const)
      [table] = s.mut('0x2::table::add', T, table, [val(k), val(moveString(v))]);
    expect(s.run('0x2::table::length', T, [val(table)])[0].value).toBe(3n);
    expect(stringOf(s.run('0x2::table::borrow', T, [val(table), val(2n)])[0].value)).toBe('two');
    expect(s.run('0x2::table::contains', T, [val(table), val(3n)])[0].value).toBe(true);
    expect(s.run('0x2::table::contains', T, [val(table), val(4n)])[0].value).toBe(false);
    let removed: TypedValue[];
    [table, removed] = s.mut('0x2::table::remove', T, table, [val(1n)]);
    expect(stringOf(removed[0].value)).toBe('one');
    expect(s.run('0x2::table::length', T, [val(table)])[0].value).toBe(2n);
    // upstream codes: EFieldAlreadyExists 0 (Move), EFieldDoesNotExist 1, EFieldTypeMismatch 2 (natives)
    expectAbort(s.call('0x2::table::add', T, [val(table), val(2n), val(moveString('again'))]), 0n, `${SUI}::dynamic_field`, 'add');
    expectAbort(s.call('0x2::table::remove', T, [val(table), val(9n)]), 1n, `${SUI}::dynamic_field`, 'remove_child_object');
    expectAbort(s.call('0x2::table::borrow', T, [val(table), val(9n)]), 1n, `${SUI}::dynamic_field`, 'borrow_child_object');
    const uid = (table as unknown[])[0];
    expectAbort(s.call('0x2::dynamic_field::borrow', ['u64', 'u64'], [val(uid), val(2n)]), 2n, `${SUI}::dynamic_field`, 'borrow_child_object');

    const res = s.rt.results();
    const fieldId = (k: bigint): string => hashTypeAndKey(tableId, 'u64', bcs.u64(k));
    expect(res.createdIds).toEqual([tableId, fieldId(2n), fieldId(3n)]);
    expect(res.generatedIds).toContain(fieldId(1n));
    expect(res.writes.map((w) => w.id).sort()).toEqual([fieldId(2n), fieldId(3n)].sort());
    for (const w of res.writes) {
      expect(w.owner).toEqual({ $kind: 'ObjectOwner', address: tableId });
      expect(w.typeTag).toBe(`${SUI}::dynamic_field::Field<u64, ${canonicalAddress('0x1')}::string::String>`);
    }
    const two = res.writes.find((w) => w.id === fieldId(2n));
    expect(hex(two?.bcs ?? new Uint8Array())).toBe(hex(concat(bcs.address(fieldId(2n)), bcs.u64(2), bcs.bytes('two'))));
  });

  it('bag: heterogeneous values, contains_with_type, remove', () => {
    const s = new Session(vm);
    let bag = s.run('0x2::bag::new', [], [s.ctx])[0].value;
    [bag] = s.mut('0x2::bag::add', ['u64', 'bool'], bag, [val(1n), val(true)]);
    [bag] = s.mut('0x2::bag::add', ['0x1::string::String', 'u64'], bag, [val(moveString('k')), val(77n)]);
    expect(s.run('0x2::bag::length', [], [val(bag)])[0].value).toBe(2n);
    expect(s.run('0x2::bag::contains_with_type', ['u64', 'bool'], [val(bag), val(1n)])[0].value).toBe(true);
    expect(s.run('0x2::bag::contains_with_type', ['u64', 'u64'], [val(bag), val(1n)])[0].value).toBe(false);
    expect(s.run('0x2::bag::contains', ['u64'], [val(bag), val(1n)])[0].value).toBe(true);
    expect(s.run('0x2::bag::borrow', ['0x1::string::String', 'u64'], [val(bag), val(moveString('k'))])[0].value).toBe(77n);
    let out: TypedValue[];
    [bag, out] = s.mut('0x2::bag::remove', ['u64', 'bool'], bag, [val(1n)]);
    expect(out[0].value).toBe(true);
    expect(s.run('0x2::bag::is_empty', [], [val(bag)])[0].value).toBe(false);
  });

  it('object_table / object_bag / dynamic_object_field: objects as children, ids by field', () => {
    const s = new Session(vm);
    let ot = s.run('0x2::object_table::new', ['u64', COIN_T], [s.ctx])[0].value;
    const coin = s.run('0x2::coin::zero', [SUI_T], [s.ctx])[0].value as unknown[];
    const coinId = freshId(1);
    [ot] = s.mut('0x2::object_table::add', ['u64', COIN_T], ot, [val(5n), val(coin)]);
    expect(s.run('0x2::object_table::value_id', ['u64', COIN_T], [val(ot), val(5n)])[0].bcs).toEqual(bcs.option(bcs.address(coinId)));
    expect(s.run('0x2::object_table::borrow', ['u64', COIN_T], [val(ot), val(5n)])[0].value).toEqual([[[coinId]], [0n]]);
    const res = s.rt.results();
    const otId = freshId(0);
    // the table owns a Field<Wrapper<u64>, ID> naming the coin; the field owns the coin
    const wrapperTag = parseSuiTypeTag('0x2::dynamic_object_field::Wrapper<u64>');
    const fieldId = hashTypeAndKey(otId, wrapperTag, bcs.u64(5));
    const field = res.writes.find((w) => w.id === fieldId);
    expect(field?.owner).toEqual({ $kind: 'ObjectOwner', address: otId });
    expect(field?.bcs).toEqual(concat(bcs.address(fieldId), bcs.u64(5), bcs.address(coinId)));
    expect(res.writes.find((w) => w.id === coinId)?.owner).toEqual({ $kind: 'ObjectOwner', address: fieldId });
    let back: TypedValue[];
    [ot, back] = s.mut('0x2::object_table::remove', ['u64', COIN_T], ot, [val(5n)]);
    expect(back[0].value).toEqual([[[coinId]], [0n]]);
    expect(s.run('0x2::object_table::length', ['u64', COIN_T], [val(ot)])[0].value).toBe(0n);

    let ob = s.run('0x2::object_bag::new', [], [s.ctx])[0].value;
    const coin2 = s.run('0x2::coin::zero', [SUI_T], [s.ctx])[0].value;
    [ob] = s.mut('0x2::object_bag::add', ['bool', COIN_T], ob, [val(true), val(coin2)]);
    expect(s.run('0x2::object_bag::contains_with_type', ['bool', COIN_T], [val(ob), val(true)])[0].value).toBe(true);
    expect(s.run('0x2::object_bag::value_id', ['bool'], [val(ob), val(true)])[0].bcs).toEqual(bcs.option(bcs.address(freshId(3))));

    let uid = s.run('0x2::object::new', [], [s.ctx])[0].value;
    const coin3 = s.run('0x2::coin::zero', [SUI_T], [s.ctx])[0].value;
    [uid] = s.mut('0x2::dynamic_object_field::add', ['vector<u8>', COIN_T], uid, [val(bytesVec('c')), val(coin3)]);
    expect(s.run('0x2::dynamic_object_field::exists_', ['vector<u8>'], [val(uid), val(bytesVec('c'))])[0].value).toBe(true);
    expect(s.run('0x2::dynamic_object_field::id', ['vector<u8>'], [val(uid), val(bytesVec('c'))])[0].bcs).toEqual(bcs.option(bcs.address(freshId(5))));
  });

  it('dynamic_field on a UID: add, exists_with_type, borrow, remove_if_exists', () => {
    const s = new Session(vm);
    let uid = s.run('0x2::object::new', [], [s.ctx])[0].value;
    [uid] = s.mut('0x2::dynamic_field::add', ['vector<u8>', 'u64'], uid, [val(bytesVec('k')), val(5n)]);
    expect(s.run('0x2::dynamic_field::exists_', ['vector<u8>'], [val(uid), val(bytesVec('k'))])[0].value).toBe(true);
    expect(s.run('0x2::dynamic_field::exists_with_type', ['vector<u8>', 'u64'], [val(uid), val(bytesVec('k'))])[0].value).toBe(true);
    expect(s.run('0x2::dynamic_field::exists_with_type', ['vector<u8>', 'bool'], [val(uid), val(bytesVec('k'))])[0].value).toBe(false);
    expect(s.run('0x2::dynamic_field::borrow', ['vector<u8>', 'u64'], [val(uid), val(bytesVec('k'))])[0].value).toBe(5n);
    let out: TypedValue[];
    [uid, out] = s.mut('0x2::dynamic_field::remove_if_exists', ['vector<u8>', 'u64'], uid, [val(bytesVec('k'))]);
    expect(out[0].bcs).toEqual(bcs.option(bcs.u64(5)));
    [uid, out] = s.mut('0x2::dynamic_field::remove_if_exists', ['vector<u8>', 'u64'], uid, [val(bytesVec('k'))]);
    expect(out[0].bcs).toEqual(bcs.option(null));
    // added then removed in this transaction: nothing written, the field id created then deleted
    expect(s.rt.results().writes).toEqual([]);
  });

  it('linked_table: writes through borrow_mut persist (next/prev links), pop_front, remove', () => {
    const s = new Session(vm);
    const T = ['u64', 'u64'];
    let lt = s.run('0x2::linked_table::new', T, [s.ctx])[0].value;
    for (const k of [10n, 20n, 30n]) [lt] = s.mut('0x2::linked_table::push_back', T, lt, [val(k), val(k * 2n)]);
    [lt] = s.mut('0x2::linked_table::push_front', T, lt, [val(5n), val(0n)]);
    expect(s.run('0x2::linked_table::front', T, [val(lt)])[0].bcs).toEqual(bcs.option(bcs.u64(5)));
    expect(s.run('0x2::linked_table::back', T, [val(lt)])[0].bcs).toEqual(bcs.option(bcs.u64(30)));
    expect(s.run('0x2::linked_table::next', T, [val(lt), val(10n)])[0].bcs).toEqual(bcs.option(bcs.u64(20)));
    expect(s.run('0x2::linked_table::prev', T, [val(lt), val(10n)])[0].bcs).toEqual(bcs.option(bcs.u64(5)));
    let out: TypedValue[];
    [lt, out] = s.mut('0x2::linked_table::remove', T, lt, [val(20n)]);
    expect(out[0].value).toBe(40n);
    expect(s.run('0x2::linked_table::next', T, [val(lt), val(10n)])[0].bcs).toEqual(bcs.option(bcs.u64(30)));
    [lt, out] = s.mut('0x2::linked_table::pop_front', T, lt, []);
    expect(out.map((v) => v.value)).toEqual([5n, 0n]);
    expect(s.run('0x2::linked_table::length', T, [val(lt)])[0].value).toBe(2n);
  });

  it('table_vec: push_back, borrow, swap_remove, pop_back', () => {
    const s = new Session(vm);
    let tv = s.run('0x2::table_vec::empty', ['u64'], [s.ctx])[0].value;
    for (const x of [7n, 8n, 9n]) [tv] = s.mut('0x2::table_vec::push_back', ['u64'], tv, [val(x)]);
    expect(s.run('0x2::table_vec::length', ['u64'], [val(tv)])[0].value).toBe(3n);
    expect(s.run('0x2::table_vec::borrow', ['u64'], [val(tv), val(1n)])[0].value).toBe(8n);
    let out: TypedValue[];
    [tv, out] = s.mut('0x2::table_vec::swap_remove', ['u64'], tv, [val(0n)]);
    expect(out[0].value).toBe(7n);
    expect(s.run('0x2::table_vec::borrow', ['u64'], [val(tv), val(0n)])[0].value).toBe(9n);
    [tv, out] = s.mut('0x2::table_vec::pop_back', ['u64'], tv, []);
    expect(out[0].value).toBe(8n);
    expectAbort(s.call('0x2::table_vec::borrow', ['u64'], [val(tv), val(5n)]), 0n, `${SUI}::table_vec`, 'borrow');
  });

  it('vec_map: insert, get, remove', () => {
    const s = new Session(vm);
    let m = s.run('0x2::vec_map::empty', ['u64', 'bool'], [])[0].value;
    [m] = s.mut('0x2::vec_map::insert', ['u64', 'bool'], m, [val(1n), val(true)]);
    expect(s.run('0x2::vec_map::get', ['u64', 'bool'], [val(m), val(1n)])[0].value).toBe(true);
    expectAbort(s.call('0x2::vec_map::insert', ['u64', 'bool'], [val(m), val(1n), val(false)]), 0n, `${SUI}::vec_map`, 'insert');
  });

  it('coin and balance: create_currency with the SUI witness, mint, split, join, burn, supply', () => {
    const s = new Session(vm);
    const [capV, metaV] = s.run('0x2::coin::create_currency', [SUI_T], [val([false]), val(9), val(bytesVec('SUI')), val(bytesVec('Sui')), val(bytesVec('d')), noUrl(), s.ctx]);
    let cap = capV.value;
    expect((metaV.value as unknown[])[1]).toBe(9);
    let out: TypedValue[];
    [cap, out] = s.mut('0x2::coin::mint', [SUI_T], cap, [val(1000n), s.ctx]);
    let coin = out[0].value;
    [coin, out] = s.mut('0x2::coin::split', [SUI_T], coin, [val(300n), s.ctx]);
    const small = out[0].value;
    expect(s.run('0x2::coin::value', [SUI_T], [val(coin)])[0].value).toBe(700n);
    expect(s.run('0x2::coin::value', [SUI_T], [val(small)])[0].value).toBe(300n);
    expectAbort(s.call('0x2::coin::split', [SUI_T], [val(coin), val(701n), s.ctx]), 2n, `${SUI}::balance`, 'split');
    [cap, out] = s.mut('0x2::coin::burn', [SUI_T], cap, [val(small)]);
    expect(out[0].value).toBe(300n);
    expect(s.run('0x2::coin::total_supply', [SUI_T], [val(cap)])[0].value).toBe(700n);
    const bal = s.run('0x2::coin::into_balance', [SUI_T], [val(coin)])[0].value;
    expect(s.run('0x2::balance::value', [SUI_T], [val(bal)])[0].value).toBe(700n);
    // wrong witness: ID is not a one-time witness → EBadWitness (0)
    expectAbort(
      s.call('0x2::coin::create_currency', ['0x2::deny_list::GlobalPauseKey'], [val([false]), val(0), val(bytesVec('')), val(bytesVec('')), val(bytesVec('')), noUrl(), s.ctx]),
      0n,
      `${SUI}::coin`,
      'create_currency',
    );
  });
});

describe('sui natives: the session helper', () => {
  it('fresh ids are deterministic in the digest', () => {
    expect(freshId(0)).not.toBe(freshId(1));
  });
});

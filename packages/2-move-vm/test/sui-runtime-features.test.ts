/**
 * ObjectRuntime features beyond one transaction's own objects: children loaded from a
 * provider (versions, loaded/modified bookkeeping, type checks), receiving, `config`
 * settings, `scratch`, `package`, `protocol_config`, accumulators, limits from the
 * protocol config with upstream's sub-statuses, and the end-of-transaction checks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress, loadBundleFile } from '@smi/bytecode';
import {
  MoveVM,
  NativeRegistry,
  ProtocolConfig,
  loadProtocolConfig,
  type CallArg,
  type CallResult,
  MoveVector,
  VecKind,
  type NativeContext,
  type NativeFunction,
  PROTOCOL_135_STDLIB_COSTS,
} from '@smi/move-vm';
import { registerMoveStdlib } from '../src/natives/move-stdlib.js';
import { FIXTURES_ROOT, describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { OBJECT_RUNTIME_KEY, ObjectRuntime, ObjectRuntimeError, type ObjectRuntimeOptions, type StoredObject, hashTypeAndKey, registerSuiNatives } from '../src/natives/sui/index.js';
import { bcs, bytesVec, concat, expectAbort, hex, mutated, ok, ret, val } from './support/golden.js';
import { watchingWrites } from '../src/values/write-watch.js';

const SUI = canonicalAddress('0x2');
const DIGEST = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const SENDER = canonicalAddress('0x5e4de4');
const TABLE = canonicalAddress('0x7ab1e');
const COIN_T = '0x2::coin::Coin<0x2::sui::SUI>';

function makeVm(): MoveVM {
  const natives = registerSuiNatives(registerMoveStdlib(new NativeRegistry()));
  return MoveVM.create({ packages: ['move-stdlib', 'sui-framework', 'sui-system'].map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f))), natives });
}

function runtime(vm: MoveVM, extra: Partial<ObjectRuntimeOptions> = {}): ObjectRuntime {
  return new ObjectRuntime({ tx: { sender: SENDER, digest: DIGEST, epoch: 7n, epochTimestampMs: 0n, gasPrice: 1000n, rgp: 1000n, gasBudget: 1n, sponsor: null }, bcs: vm.bcs, ...extra });
}

function call(vm: MoveVM, rt: ObjectRuntime, target: string, typeArgs: string[], args: CallArg[]): CallResult {
  return vm.call(target, { typeArgs, args, allowPrivate: true, extensions: new Map([[OBJECT_RUNTIME_KEY, rt]]) });
}

function expectVmError(r: CallResult, code: string, subStatus?: bigint): void {
  if (r.$kind !== 'Error') throw new Error(`expected Error ${code}, got ${r.$kind}`);
  expect(r.code).toBe(code);
  if (subStatus !== undefined) expect(r.subStatus).toBe(subStatus);
}

/** Protocol 135 with some values overridden. */
function config(overrides: Record<string, number>): ProtocolConfig {
  const base = loadProtocolConfig(FIXTURES_ROOT, 135);
  return new ProtocolConfig({ version: base.version, featureFlags: base.featureFlags, values: { ...base.values, ...overrides } });
}

/** A `Table<u64, u64>` value with id TABLE and `size` entries. */
const tableValue = (size: bigint): unknown[] => [[[TABLE]], size];
const fieldId = (k: bigint): string => hashTypeAndKey(TABLE, 'u64', bcs.u64(k));
/** The stored `Field<u64, u64>` for key k. */
const storedField = (k: bigint, v: bigint, version = 9n): StoredObject => ({
  type: '0x2::dynamic_field::Field<u64, u64>',
  bcs: concat(bcs.address(fieldId(k)), bcs.u64(k), bcs.u64(v)),
  version,
  owner: { $kind: 'ObjectOwner', address: TABLE },
});

describeWithFixtures('sui natives: object runtime features', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(() => {
    vm = makeVm();
  });

  describe('children from the child provider', () => {
    const provider =
      (asked: string[]) =>
      (parent: string, child: string, rootVersion: bigint | undefined): StoredObject | undefined => {
        asked.push(`${parent}/${child}@${rootVersion}`);
        if (parent === TABLE && child === fieldId(1n)) return storedField(1n, 100n);
        if (parent === TABLE && child === fieldId(2n))
          return { ...storedField(2n, 5n), type: '0x2::dynamic_field::Field<u64, bool>', bcs: concat(bcs.address(fieldId(2n)), bcs.u64(2), bcs.bool(true)) };
        return undefined;
      };
    const T = ['u64', 'u64'];

    it('borrow decodes the stored child (read as of the input root version); unchanged children are loaded, not modified', () => {
      const asked: string[] = [];
      const rt = runtime(vm, { childStore: provider(asked), inputObjects: [{ id: TABLE, owner: { $kind: 'Shared', initialSharedVersion: 1n }, version: 42n }] });
      expect(ret(call(vm, rt, '0x2::table::borrow', T, [val(tableValue(2n)), val(1n)])).value).toBe(100n);
      expect(ret(call(vm, rt, '0x2::table::contains', T, [val(tableValue(2n)), val(1n)])).value).toBe(true);
      expect(asked).toEqual([`${TABLE}/${fieldId(1n)}@42`]);
      const res = rt.results();
      expect(res.loadedChildObjects).toEqual([{ id: fieldId(1n), version: 9n, isModified: false }]);
      expect(res.writes).toEqual([]);
    });
    it('a child removed and re-added with a new value is written and marked modified', () => {
      const rt = runtime(vm, { childStore: provider([]), inputObjects: [{ id: TABLE, owner: { $kind: 'Shared', initialSharedVersion: 1n }, version: 42n }] });
      let r = call(vm, rt, '0x2::table::remove', T, [val(tableValue(2n)), val(1n)]);
      expect(ret(r).value).toBe(100n);
      r = call(vm, rt, '0x2::table::add', T, [val(mutated(r, 0).value), val(1n), val(101n)]);
      ok(r);
      const res = rt.results();
      expect(res.loadedChildObjects).toEqual([{ id: fieldId(1n), version: 9n, isModified: true }]);
      expect(res.writes.map((w) => [w.id, w.owner, hex(w.bcs)])).toEqual([[fieldId(1n), { $kind: 'ObjectOwner', address: TABLE }, hex(storedField(1n, 101n).bcs)]]);
      // re-created under the same id: the id is not reported as created or deleted
      expect(res.createdIds).toEqual([]);
      expect(res.deletedIds).toEqual([]);
    });
    describe('without minimize_child_object_mutations (mainnet before protocol 76): written or re-added children count as modified even when unchanged', () => {
      const LT = ['u64', 'u64'];
      /** `LinkedTable<u64, u64>` TABLE holding key 1 only. */
      const linkedTable = (): unknown[] => [[[TABLE]], 1n, [MoveVector.fromValues(VecKind.U64, [1n])], [MoveVector.fromValues(VecKind.U64, [1n])]];
      /** The stored `Field<u64, Node<u64, u64>>` of key 1 (no prev, no next, value 100). */
      const storedNode: StoredObject = {
        type: '0x2::dynamic_field::Field<u64, 0x2::linked_table::Node<u64, u64>>',
        bcs: concat(bcs.address(fieldId(1n)), bcs.u64(1), Uint8Array.of(0, 0), bcs.u64(100)),
        version: 9n,
        owner: { $kind: 'ObjectOwner', address: TABLE },
      };
      const inputs = [{ id: TABLE, owner: { $kind: 'Shared' as const, initialSharedVersion: 1n }, version: 42n }];
      const withFlag = (minimize: boolean): ObjectRuntime => {
        const base = loadProtocolConfig(FIXTURES_ROOT, 135);
        const protocolConfig = new ProtocolConfig({ version: base.version, values: base.values, featureFlags: { ...base.featureFlags, minimize_child_object_mutations: minimize } });
        return runtime(vm, {
          protocolConfig,
          inputObjects: inputs,
          childStore: (p, c) => (p === TABLE && c === fieldId(1n) ? storedNode : p === TABLE && c === fieldId(7n) ? storedField(7n, 5n) : undefined),
        });
      };
      /** Modified flags of the children after `run` with the flag `minimize` (protocol 135 otherwise). */
      const modified = (minimize: boolean, run: (rt: ObjectRuntime) => void): boolean[] => {
        const rt = withFlag(minimize);
        run(rt);
        const res = rt.results();
        rt.finish();
        expect(res.writes.map((w) => w.id).every((id) => res.loadedChildObjects.some((l) => l.id === id && l.isModified))).toBe(true);
        return res.loadedChildObjects.map((l) => l.isModified);
      };
      // push_back writes the old tail's `next`, pop_back writes it back: same value at the end
      const pushPop = (rt: ObjectRuntime): void => {
        const r = call(vm, rt, '0x2::linked_table::push_back', LT, [val(linkedTable()), val(2n), val(200n)]);
        ok(call(vm, rt, '0x2::linked_table::pop_back', LT, [val(mutated(r, 0).value)]));
      };
      const removeAdd = (rt: ObjectRuntime): void => {
        const r = call(vm, rt, '0x2::table::remove', T, [val(tableValue(1n)), val(7n)]);
        ok(call(vm, rt, '0x2::table::add', T, [val(mutated(r, 0).value), val(7n), val(5n)]));
      };
      const borrowMut = (rt: ObjectRuntime): void => void ok(call(vm, rt, '0x2::linked_table::borrow_mut', LT, [val(linkedTable()), val(1n)]));

      it('flag off: a write through a reference, or a remove and add, marks the child; a mutable borrow alone does not', () => {
        expect(modified(false, pushPop)).toEqual([true]);
        expect(modified(false, removeAdd)).toEqual([true]);
        expect(modified(false, borrowMut)).toEqual([false]);
      });
      it('flag off: writes are watched until the transaction is finished, then cost nothing again', () => {
        expect(watchingWrites()).toBe(false);
        const rt = withFlag(false);
        pushPop(rt);
        expect(watchingWrites()).toBe(true);
        rt.results();
        rt.finish();
        expect(watchingWrites()).toBe(false);
        // The flag on watches nothing.
        const on = withFlag(true);
        pushPop(on);
        expect(watchingWrites()).toBe(false);
      });
      it('flag on (and without a config): only a changed value counts', () => {
        expect(modified(true, pushPop)).toEqual([false]);
        expect(modified(true, removeAdd)).toEqual([false]);
        expect(modified(true, borrowMut)).toEqual([false]);
        const rt = runtime(vm, { inputObjects: inputs, childStore: (p, c) => (p === TABLE && c === fieldId(1n) ? storedNode : undefined) });
        pushPop(rt);
        expect(rt.results().loadedChildObjects.map((l) => l.isModified)).toEqual([false]);
      });
    });
    it('a stored child of another type: EFieldTypeMismatch (2); missing: EFieldDoesNotExist (1)', () => {
      const rt = runtime(vm, { childStore: provider([]) });
      expectAbort(call(vm, rt, '0x2::table::borrow', T, [val(tableValue(2n)), val(2n)]), 2n, `${SUI}::dynamic_field`, 'borrow_child_object');
      expectAbort(call(vm, rt, '0x2::table::borrow', T, [val(tableValue(2n)), val(3n)]), 1n, `${SUI}::dynamic_field`, 'borrow_child_object');
      expect(ret(call(vm, rt, '0x2::dynamic_field::exists_with_type', ['u64', 'bool'], [val([[TABLE]]), val(2n)])).value).toBe(true);
    });
    it('a child owned by someone else or undecodable is a storage / deserialization error', () => {
      const bad = (o: Partial<StoredObject>) => runtime(vm, { childStore: () => ({ ...storedField(1n, 1n), ...o }) });
      expectVmError(call(vm, bad({ owner: { $kind: 'ObjectOwner', address: SUI } }), '0x2::table::borrow', T, [val(tableValue(1n)), val(1n)]), 'STORAGE_ERROR');
      expectVmError(call(vm, bad({ bcs: new Uint8Array(3) }), '0x2::table::borrow', T, [val(tableValue(1n)), val(1n)]), 'FAILED_TO_DESERIALIZE_RESOURCE');
    });
    it('a parent created in this transaction has no stored children', () => {
      const rt = runtime(vm, { childStore: (_p, c) => ({ ...storedField(0n, 0n), bcs: concat(bcs.address(c), bcs.u64(0), bcs.u64(0)) }) });
      const table = ret(call(vm, rt, '0x2::table::new', T, [val(rt.txContextValue())])).value;
      expectVmError(call(vm, rt, '0x2::table::contains', T, [val(table), val(0n)]), 'STORAGE_ERROR');
    });
  });

  describe('limits from the protocol config', () => {
    it('object_runtime_max_num_cached_objects: MEMORY_LIMIT_EXCEEDED sub-status 5', () => {
      const rt = runtime(vm, { protocolConfig: config({ object_runtime_max_num_cached_objects: 2 }) });
      for (const k of [1n, 2n]) ok(call(vm, rt, '0x2::table::contains', ['u64', 'u64'], [val(tableValue(0n)), val(k)]));
      expectVmError(call(vm, rt, '0x2::table::contains', ['u64', 'u64'], [val(tableValue(0n)), val(3n)]), 'MEMORY_LIMIT_EXCEEDED', 5n);
    });
    it('object_runtime_max_num_store_entries: sub-status 6', () => {
      const rt = runtime(vm, { protocolConfig: config({ object_runtime_max_num_store_entries: 2 }) });
      let t: unknown = tableValue(0n);
      for (const k of [1n, 2n]) t = mutated(call(vm, rt, '0x2::table::add', ['u64', 'u64'], [val(t), val(k), val(k)]), 0).value;
      expectVmError(call(vm, rt, '0x2::table::add', ['u64', 'u64'], [val(t), val(3n), val(3n)]), 'MEMORY_LIMIT_EXCEEDED', 6n);
    });
    it('max_num_new_move_object_ids (2), deleted (3), transferred (4)', () => {
      const rt = runtime(vm, { protocolConfig: config({ max_num_new_move_object_ids: 1, max_num_deleted_move_object_ids: 1, max_num_transferred_move_object_ids: 1 }) });
      ok(call(vm, rt, '0x2::object::new', [], [val(rt.txContextValue())]));
      expectVmError(call(vm, rt, '0x2::object::new', [], [val(rt.txContextValue())]), 'MEMORY_LIMIT_EXCEEDED', 2n);
      ok(call(vm, rt, '0x2::object::delete', [], [val([[canonicalAddress('0xd1')]])]));
      expectVmError(call(vm, rt, '0x2::object::delete', [], [val([[canonicalAddress('0xd2')]])]), 'MEMORY_LIMIT_EXCEEDED', 3n);
      const coin = (id: string): CallArg => val([[[canonicalAddress(id)]], [0n]]);
      ok(call(vm, rt, '0x2::transfer::public_transfer', [COIN_T], [coin('0xc1'), val(SENDER)]));
      expectVmError(call(vm, rt, '0x2::transfer::public_transfer', [COIN_T], [coin('0xc2'), val(SENDER)]), 'MEMORY_LIMIT_EXCEEDED', 4n);
      // framework objects are exempt: the Clock id counts as new and needs no slot
      ok(call(vm, rt, '0x2::transfer::public_transfer', [COIN_T], [coin('0x6'), val(SENDER)]));
    });
  });

  describe('receiving', () => {
    const coinId = canonicalAddress('0xc0');
    const parent = canonicalAddress('0xa0');
    const stored: StoredObject = { type: COIN_T, bcs: concat(bcs.address(coinId), bcs.u64(55)), version: 4n, owner: { $kind: 'AddressOwner', address: parent } };
    it('public_receive returns the object; it is a loaded, modified object', () => {
      const rt = runtime(vm, { receivingStore: (p, c, v) => (p === parent && c === coinId && v === 4n ? stored : undefined) });
      const r = call(vm, rt, '0x2::transfer::public_receive', [COIN_T], [val([[parent]]), val([[coinId], 4n])]);
      expect(ret(r).value).toEqual([[[coinId]], [55n]]);
      expect(rt.results().loadedChildObjects).toEqual([{ id: coinId, version: 4n, isModified: true }]);
      expectAbort(call(vm, rt, '0x2::transfer::public_receive', [COIN_T], [val([[parent]]), val([[coinId], 5n])]), 3n, `${SUI}::transfer`, 'receive_impl');
      const wrongType = runtime(vm, { receivingStore: () => ({ ...stored, type: '0x2::coin::Coin<0x2::deny_list::GlobalPauseKey>' }) });
      expectAbort(call(vm, wrongType, '0x2::transfer::public_receive', [COIN_T], [val([[parent]]), val([[coinId], 4n])]), 2n, `${SUI}::transfer`, 'receive_impl');
    });
  });

  describe('config, scratch, package, protocol_config', () => {
    it('config::read_setting: newer value after its epoch, older value before, none when absent', () => {
      const cfgId = canonicalAddress('0xc0f');
      const name = 11n;
      const df = hashTypeAndKey(cfgId, 'u64', bcs.u64(name));
      const setting = (newerEpoch: number): StoredObject => ({
        type: '0x2::dynamic_field::Field<u64, 0x2::config::Setting<u64>>',
        bcs: concat(bcs.address(df), bcs.u64(name), bcs.option(concat(bcs.u64(newerEpoch), bcs.option(bcs.u64(2)), bcs.option(bcs.u64(1))))),
        version: 1n,
      });
      const read = (newerEpoch: number | null): string => {
        const rt = runtime(vm, { childStore: (p, c) => (newerEpoch !== null && p === cfgId && c === df ? setting(newerEpoch) : undefined) });
        return hex(ret(call(vm, rt, '0x2::config::read_setting', ['u64', 'u64'], [val([cfgId]), val(name), val(rt.txContextValue())])).bcs);
      };
      expect(read(5)).toBe(hex(bcs.option(bcs.u64(2))));
      expect(read(7)).toBe(hex(bcs.option(bcs.u64(1))));
      expect(read(null)).toBe(hex(bcs.option(null)));
    });
    it('scratch: add/read/exists/remove through the Move API; native abort codes 0, 1, 2', () => {
      const rt = runtime(vm);
      const ctx = val(rt.txContextValue());
      const permit = val([false]);
      ok(call(vm, rt, '0x2::scratch::add', ['u64', 'u64'], [ctx, permit, val(7n), val(42n)]));
      expect(ret(call(vm, rt, '0x2::scratch::read', ['u64', 'u64'], [ctx, permit, val(7n)])).value).toBe(42n);
      expect(ret(call(vm, rt, '0x2::scratch::exists_with_type', ['u64', 'bool'], [ctx, permit, val(7n)])).value).toBe(false);
      expectAbort(call(vm, rt, '0x2::scratch::add', ['u64', 'u64'], [ctx, permit, val(7n), val(1n)]), 0n, `${SUI}::scratch`, 'add_impl');
      expectAbort(call(vm, rt, '0x2::scratch::read', ['u64', 'bool'], [ctx, permit, val(7n)]), 2n, `${SUI}::scratch`, 'read_impl');
      expect(ret(call(vm, rt, '0x2::scratch::remove', ['u64', 'u64'], [ctx, permit, val(7n)])).value).toBe(42n);
      expect(ret(call(vm, rt, '0x2::scratch::exists', ['u64'], [ctx, permit, val(7n)])).value).toBe(false);
      expectAbort(call(vm, rt, '0x2::scratch::read', ['u64', 'u64'], [ctx, permit, val(7n)]), 1n, `${SUI}::scratch`, 'read_impl');
    });
    it('package::original_package_id_impl: resolver, abort 6 when unknown, UNSUPPORTED_NATIVE without one', () => {
      const pkg = canonicalAddress('0xbeef');
      const rt = runtime(vm, { packages: (id, v) => (id === pkg && v === 2n ? { originalId: canonicalAddress('0xfeed'), sizeForGas: 100 } : undefined) });
      expect(ret(call(vm, rt, '0x2::package::original_package_id_impl', [], [val(pkg), val(2n)])).value).toBe(canonicalAddress('0xfeed'));
      expectAbort(call(vm, rt, '0x2::package::original_package_id_impl', [], [val(pkg), val(3n)]), 6n, `${SUI}::package`, 'original_package_id_impl');
      expectVmError(call(vm, runtime(vm), '0x2::package::original_package_id_impl', [], [val(pkg), val(2n)]), 'UNSUPPORTED_NATIVE');
    });
    it('protocol_config::is_feature_enabled reads the runtime protocol config', () => {
      const flag = (rt: ObjectRuntime, name: string): CallResult => call(vm, rt, '0x2::protocol_config::is_feature_enabled', [], [val(bytesVec(name))]);
      const rt = runtime(vm, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, 135) });
      expect(ret(flag(rt, 'enable_party_transfer')).value).toBe(true);
      expect(ret(flag(rt, 'no_such_flag')).value).toBe(false);
      expect(ret(flag(runtime(vm, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, 60) }), 'enable_party_transfer')).value).toBe(false);
      expectVmError(flag(runtime(vm), 'enable_party_transfer'), 'UNSUPPORTED_NATIVE');
    });
  });

  describe('accumulators', () => {
    const acc = canonicalAddress('0xacc');
    const who = canonicalAddress('0xb0b');
    const BAL = '0x2::balance::Balance<0x2::sui::SUI>';
    it('funds_accumulator deposit/withdraw record Merge/Split events; totals may not pass u64::MAX', () => {
      const rt = runtime(vm);
      ok(call(vm, rt, '0x2::funds_accumulator::add_to_accumulator_address', [BAL], [val(acc), val(who), val([10n])]));
      const w = call(vm, rt, '0x2::funds_accumulator::withdraw_from_accumulator_address', [BAL], [val(acc), val(who), val(4n)]);
      expect(ret(w).value).toEqual([4n]);
      expectAbort(
        call(vm, rt, '0x2::funds_accumulator::withdraw_from_accumulator_address', [BAL], [val(acc), val(who), val(1n << 64n)]),
        0n,
        `${SUI}::funds_accumulator`,
        'withdraw_from_accumulator_address',
      );
      const ev = rt.results().accumulatorEvents;
      expect(ev.map((e) => [e.action, e.accumulatorId, e.targetAddress, e.value])).toEqual([
        ['Merge', acc, who, { $kind: 'U64', amount: 10n }],
        ['Split', acc, who, { $kind: 'U64', amount: 4n }],
      ]);
      ok(call(vm, rt, '0x2::accumulator::emit_deposit_event', ['0x2::sui::SUI'], [val(acc), val(who), val((1n << 64n) - 1n)]));
      expectVmError(call(vm, rt, '0x2::accumulator::emit_deposit_event', ['0x2::sui::SUI'], [val(acc), val(who), val(1n)]), 'ARITHMETIC_ERROR');
      ok(call(vm, rt, '0x2::accumulator_settlement::record_settlement_sui_conservation', [], [val(5n), val(3n)]));
      expect([rt.results().settlementInputSui, rt.results().settlementOutputSui]).toEqual([5n, 3n]);
    });
    it('add_to_accumulator_address aborts 1 when accumulators are off', () => {
      const rt = runtime(vm, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, 100) });
      expectAbort(call(vm, rt, '0x2::funds_accumulator::add_to_accumulator_address', [BAL], [val(acc), val(who), val([1n])]), 1n, `${SUI}::funds_accumulator`, 'add_to_accumulator_address');
    });
    it('emit_authenticated_impl records the event and an EventRef merge', () => {
      const rt = runtime(vm);
      ok(call(vm, rt, '0x2::event::emit_authenticated_impl', ['0x2::accumulator_settlement::EventStreamHead', '0x2::object::ID'], [val(acc), val(who), val([who])]));
      const res = rt.results();
      expect(res.events).toHaveLength(1);
      expect(res.accumulatorEvents[0].value).toEqual({ $kind: 'EventRef', eventIndex: 0n });
      expect(res.accumulatorEvents[0].targetType).toEqual({ struct: { address: SUI, module: 'accumulator_settlement', name: 'EventStreamHead', type_args: [] } });
    });
  });

  describe('test-only natives (not in the deployed bytecode; called through the registry)', () => {
    it('tx_context::last_created_id, replace; event::num_events, events_by_type', () => {
      const rt = runtime(vm);
      const natives = registerSuiNatives(new NativeRegistry());
      const ctx: NativeContext = {
        types: vm.types,
        bcs: vm.bcs,
        costs: PROTOCOL_135_STDLIB_COSTS,
        limits: { maxVectorLength: 1 << 18, maxValueDepth: 128 },
        charge: () => {},
        typeTag: () => '',
        originalIdOf: (a) => a,
        debugPrint: () => {},
        extensions: new Map([[OBJECT_RUNTIME_KEY, rt]]),
        stackTrace: () => '',
      };
      const native = (module: string, name: string): NativeFunction => {
        const f = natives.get('0x2', module, name);
        if (f === undefined) throw new Error(`${module}::${name} missing`);
        return f;
      };
      expect(() => native('tx_context', 'last_created_id')(ctx, [], [])).toThrow(/aborted with 1/);
      const first = rt.freshId();
      expect(native('tx_context', 'last_created_id')(ctx, [], [])).toEqual([first]);
      expect(() => native('tx_context', 'replace')(ctx, [], [])).toThrow(/non testing scenario/);
      const idType = vm.resolveType('0x2::object::ID');
      ok(call(vm, rt, '0x2::event::emit', ['0x2::object::ID'], [val([SUI])]));
      ok(call(vm, rt, '0x2::event::emit', ['0x2::object::ID'], [val([SENDER])]));

      expect(native('event', 'num_events')(ctx, [], [])).toEqual([2]);
      const [v] = native('event', 'events_by_type')(ctx, [idType], []) as [MoveVector];
      expect(v.toArray()).toEqual([[SUI], [SENDER]]);
    });
    it('types::is_one_time_witness needs no runtime (hardened check by default)', () => {
      expect(ret(vm.call('0x2::types::is_one_time_witness', { typeArgs: ['0x2::sui::SUI'], args: [val([false])] })).value).toBe(true);
    });
  });

  describe('end of transaction', () => {
    it('circular ownership and end-of-transaction transfers are typed ObjectRuntimeErrors', () => {
      const rt = runtime(vm);
      const t = vm.resolveType(COIN_T);
      const a = canonicalAddress('0xaa');
      const b = canonicalAddress('0xbb');
      rt.transfer({ $kind: 'ObjectOwner', address: b }, t, [[[a]], [0n]]);
      rt.transfer({ $kind: 'ObjectOwner', address: a }, t, [[[b]], [0n]]);
      expect(() => rt.results()).toThrow(ObjectRuntimeError);
      try {
        rt.results();
      } catch (e) {
        expect((e as ObjectRuntimeError).code).toBe('CIRCULAR_OBJECT_OWNERSHIP');
      }
      const rt2 = runtime(vm, { inputObjects: [{ id: a, owner: { $kind: 'AddressOwner', address: SENDER }, version: 1n }] });
      expect(rt2.transfer({ $kind: 'AddressOwner', address: SENDER }, t, [[[a]], [0n]], true)).toBe('SameOwner');
      expect(() => rt2.transfer({ $kind: 'Immutable' }, t, [[[a]], [0n]], true)).toThrow(/owner change/);
    });
    it('a written object over max_move_object_size is MOVE_OBJECT_TOO_BIG', () => {
      const rt = runtime(vm, { protocolConfig: config({ max_move_object_size: 39 }) });
      rt.transfer({ $kind: 'AddressOwner', address: SENDER }, vm.resolveType(COIN_T), [[[SENDER]], [1n]]);
      expect(() => rt.results()).toThrow(/MOVE_OBJECT_TOO_BIG/);
    });
    it('bad options are rejected up front', () => {
      expect(() => new ObjectRuntime({ tx: { sender: SENDER, digest: new Uint8Array(3), epoch: 0n, epochTimestampMs: 0n, gasPrice: 0n, rgp: 0n, gasBudget: 0n, sponsor: null }, bcs: vm.bcs })).toThrow(
        /INVALID_OPTIONS/,
      );
    });
  });
});

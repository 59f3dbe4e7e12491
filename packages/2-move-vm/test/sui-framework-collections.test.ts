/**
 * Issue 5 acceptance, part 2a: the framework collections driven by a Move module compiled
 * offline (`demo::registry`, one object holding a `Table`, `LinkedTable`, `TableVec`,
 * `ObjectTable`, `Bag`, `ObjectBag` and `VecMap`, plus raw `dynamic_field` /
 * `dynamic_object_field` entries), called with a TxContext and an ObjectRuntime. Results
 * and recorded effects are checked: children written as `ObjectOwner` of the right
 * parent with ids, types and BCS computed by hand; objects created, shared, frozen,
 * transferred and deleted; events; and a second transaction that loads the children back
 * through a child store.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import type { MoveVM, StoredObject, TypedValue } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo } from './support/compile.js';
import { bcs, bytesVec, concat, expectAbort, hex, moveString, stringOf, uleb, val } from './support/golden.js';
import { REGISTRY } from './support/sui-framework-sources.js';
import { SUI_ADDR, SuiSession, ZERO_ADDR, dynamicFieldId, fullTag, owner, suiVm, uidValue } from './support/sui-session.js';

const REG = '0x0::registry';
const BADGE_T = '0x0::registry::Badge';
const STRING_T = '0x1::string::String';
const str = (x: string): unknown[] => moveString(x);
const sbcs = (x: string): Uint8Array => bcs.bytes(x);

/** Ids of a registry made by the n-th..n+6-th fresh ids of a session. */
interface RegistryIds {
  reg: string;
  names: string;
  scores: string;
  log: string;
  badges: string;
  misc: string;
  vault: string;
}

describeWithFixtures('sui framework: collections through demo::registry', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  beforeAll(async () => {
    const demo = await compileDemo({ 'registry.move': REGISTRY });
    vm = suiVm([demo.pkg]);
  });

  /** A new registry; its fields' UIDs are fresh ids `first`..`first + 6` in field order. */
  function newRegistry(s: SuiSession, first = 0): [unknown, RegistryIds] {
    const reg = s.value(`${REG}::new`, [], [s.ctx]);
    const [r, names, scores, log, badges, misc, vault] = Array.from({ length: 7 }, (_, i) => s.freshId(first + i));
    return [reg, { reg: r, names, scores, log, badges, misc, vault }];
  }

  it('table, linked_table, table_vec, vec_map: results, children under each table, the shared registry BCS, events', () => {
    const s = new SuiSession(vm);
    let [reg, ids] = newRegistry(s);
    let out: TypedValue[];
    [reg] = s.mut(`${REG}::register`, [], reg, [val(str('alice')), s.ctx]);
    expect(stringOf(s.value(`${REG}::name_of`, [], [val(reg), val(s.sender)]))).toBe('alice');
    expectAbort(s.call(`${REG}::register`, [], [val(reg), val(str('again')), s.ctx]), 0n, `${SUI_ADDR}::dynamic_field`, 'add');
    expectAbort(s.call(`${REG}::name_of`, [], [val(reg), val(canonicalAddress('0xb0b'))]), 1n, `${SUI_ADDR}::dynamic_field`, 'borrow_child_object');

    for (const [who, pts] of [
      ['alice', 10n],
      ['bob', 5n],
      ['alice', 7n],
      ['carol', 1n],
    ] as const)
      [reg] = s.mut(`${REG}::score`, [], reg, [val(str(who)), val(pts)]);
    expect(s.value(`${REG}::total`, [], [val(reg)])).toBe(23n);
    expect(s.value(`${REG}::log_length`, [], [val(reg)])).toBe(4n);
    [reg, out] = s.mut(`${REG}::drop_front`, [], reg);
    expect([stringOf(out[0].value), out[1].value]).toEqual(['alice', 17n]);
    expect(s.value(`${REG}::total`, [], [val(reg)])).toBe(6n);

    for (const [k, f] of [
      ['x', true],
      ['y', false],
      ['x', false],
    ] as const)
      [reg] = s.mut(`${REG}::tag`, [], reg, [val(str(k)), val(f)]);
    const tags = s.run(`${REG}::tags`, [], [val(reg)])[0];
    expect(hex(tags.bcs)).toBe(hex(concat(uleb(2), sbcs('x'), bcs.bool(false), sbcs('y'), bcs.bool(false))));

    ok(s.call(`${REG}::share`, [], [val(reg)]));
    const res = s.results();
    // the registry: shared, BCS written field by field
    const regWrite = s.write(ids.reg);
    expect(regWrite.owner).toEqual(owner.shared());
    expect(regWrite.typeTag).toBe(fullTag('0x0::registry::Registry'));
    const regBcs = concat(
      bcs.address(ids.reg),
      bcs.address(ids.names),
      bcs.u64(1),
      bcs.address(ids.scores),
      bcs.u64(2),
      bcs.option(sbcs('bob')),
      bcs.option(sbcs('carol')),
      bcs.address(ids.log),
      bcs.u64(4),
      bcs.address(ids.badges),
      bcs.u64(0),
      bcs.address(ids.misc),
      bcs.u64(0),
      bcs.address(ids.vault),
      bcs.u64(0),
      tags.bcs,
    );
    expect(hex(regWrite.bcs)).toBe(hex(regBcs));
    // table: Field<address, String> under `names`
    const nameField = dynamicFieldId(ids.names, 'address', bcs.address(s.sender));
    expect(s.write(nameField).owner).toEqual(owner.object(ids.names));
    expect(s.write(nameField).typeTag).toBe(fullTag('0x2::dynamic_field::Field<address, 0x1::string::String>'));
    expect(hex(s.write(nameField).bcs)).toBe(hex(concat(bcs.address(nameField), bcs.address(s.sender), sbcs('alice'))));
    // linked_table: Node { prev, next, value } under `scores`; alice was popped (created then deleted)
    const node = (k: string): string => dynamicFieldId(ids.scores, STRING_T, sbcs(k));
    expect(hex(s.write(node('bob')).bcs)).toBe(hex(concat(bcs.address(node('bob')), sbcs('bob'), bcs.option(null), bcs.option(sbcs('carol')), bcs.u64(5))));
    expect(hex(s.write(node('carol')).bcs)).toBe(hex(concat(bcs.address(node('carol')), sbcs('carol'), bcs.option(sbcs('bob')), bcs.option(null), bcs.u64(1))));
    expect(s.write(node('bob')).typeTag).toBe(fullTag('0x2::dynamic_field::Field<0x1::string::String, 0x2::linked_table::Node<0x1::string::String, u64>>'));
    expect(res.writes.some((w) => w.id === node('alice'))).toBe(false);
    expect(res.generatedIds).toContain(node('alice'));
    // table_vec: Field<u64, u64> under the inner table, one per index
    [10n, 5n, 7n, 1n].forEach((x, i) => {
      const f = dynamicFieldId(ids.log, 'u64', bcs.u64(i));
      expect(s.write(f).owner).toEqual(owner.object(ids.log));
      expect(hex(s.write(f).bcs)).toBe(hex(concat(bcs.address(f), bcs.u64(i), bcs.u64(x))));
    });
    expect(res.writes).toHaveLength(1 + 1 + 2 + 4);
    expect(res.createdIds).toEqual(expect.arrayContaining([...Object.values(ids), nameField, node('bob'), node('carol')]));
    expect(res.createdIds).not.toContain(node('alice'));
    expect(res.deletedIds).toEqual([]);
    // event Registered { who, name }
    expect(res.events.map((e) => e.typeTag)).toEqual([fullTag('0x0::registry::Registered')]);
    expect(hex(res.events[0].bcs)).toBe(hex(concat(bcs.address(s.sender), sbcs('alice'))));
  });

  it('object_table: a badge with its own dynamic field is a child of a child; writes through both levels persist', () => {
    const s = new SuiSession(vm);
    let [reg, ids] = newRegistry(s);
    let out: TypedValue[];
    [reg, out] = s.mut(`${REG}::award`, [], reg, [val(3), s.ctx]);
    const badge = s.freshId(7);
    expect(out[0].value).toEqual([badge]);
    [reg] = s.mut(`${REG}::level_up`, [], reg, [val(0n)]);
    expect(s.run(`${REG}::level_of`, [], [val(reg), val(0n)]).map((x) => x.value)).toEqual([4, 4]);
    // a second badge, awarded then burnt with its field: nothing of it remains
    [reg, out] = s.mut(`${REG}::award`, [], reg, [val(1), s.ctx]);
    const badge2 = s.freshId(8);
    expect(out[0].value).toEqual([badge2]);
    [reg] = s.mut(`${REG}::burn_badge`, [], reg, [val(1n)]);
    expectAbort(s.call(`${REG}::level_of`, [], [val(reg), val(1n)]), 1n, `${SUI_ADDR}::dynamic_field`, 'borrow_child_object');

    const res = s.results();
    const wrapper = dynamicFieldId(ids.badges, '0x2::dynamic_object_field::Wrapper<u64>', bcs.u64(0));
    const level = dynamicFieldId(badge, 'vector<u8>', sbcs('level'));
    expect(s.write(wrapper).owner).toEqual(owner.object(ids.badges));
    expect(s.write(wrapper).typeTag).toBe(fullTag('0x2::dynamic_field::Field<0x2::dynamic_object_field::Wrapper<u64>, 0x2::object::ID>'));
    expect(hex(s.write(wrapper).bcs)).toBe(hex(concat(bcs.address(wrapper), bcs.u64(0), bcs.address(badge))));
    expect(s.write(badge).owner).toEqual(owner.object(wrapper));
    expect(hex(s.write(badge).bcs)).toBe(hex(concat(bcs.address(badge), bcs.u8(4))));
    expect(s.write(level).owner).toEqual(owner.object(badge));
    expect(hex(s.write(level).bcs)).toBe(hex(concat(bcs.address(level), sbcs('level'), bcs.u8(4))));
    expect(res.writes.map((w) => w.id).sort()).toEqual([wrapper, badge, level].sort());
    const level2 = dynamicFieldId(badge2, 'vector<u8>', sbcs('level'));
    expect(res.createdIds).not.toContain(badge2);
    expect(res.generatedIds).toEqual(expect.arrayContaining([badge2, level2]));
    expect(res.deletedIds).toEqual([]);
  });

  it('bag, object_bag and raw dynamic (object) fields on the UID; objects taken out are transferred and frozen', () => {
    const s = new SuiSession(vm);
    let [reg, ids] = newRegistry(s);
    let out: TypedValue[];
    [reg] = s.mut(`${REG}::stash`, ['u64'], reg, [val(str('n')), val(5n)]);
    [reg] = s.mut(`${REG}::stash`, ['vector<u8>'], reg, [val(str('b')), val(bytesVec('xyz'))]);
    expect(s.value(`${REG}::misc_has`, ['u64'], [val(reg), val(str('n'))])).toBe(true);
    expect(s.value(`${REG}::misc_has`, ['bool'], [val(reg), val(str('n'))])).toBe(false);
    expectAbort(s.call(`${REG}::unstash`, ['bool'], [val(reg), val(str('n'))]), 2n, `${SUI_ADDR}::dynamic_field`, 'remove_child_object');
    [reg, out] = s.mut(`${REG}::unstash`, ['u64'], reg, [val(str('n'))]);
    expect(out[0].value).toBe(5n);

    const b1 = s.value(`${REG}::new_badge`, [], [val(2), s.ctx]);
    const b1Id = s.freshId(7);
    [reg] = s.mut(`${REG}::vault_put`, [BADGE_T], reg, [val(9n), val(b1)]);
    [reg] = s.mut(`${REG}::attach`, ['u64'], reg, [val(bytesVec('raw')), val(42n)]);
    expectAbort(s.call(`${REG}::attach`, ['u64'], [val(reg), val(bytesVec('raw')), val(1n)]), 0n, `${SUI_ADDR}::dynamic_field`, 'add');
    const b2 = s.value(`${REG}::new_badge`, [], [val(5), s.ctx]);
    const b2Id = s.freshId(8);
    [reg] = s.mut(`${REG}::attach_object`, [BADGE_T], reg, [val(bytesVec('obj')), val(b2)]);
    // the framework's own readers on the registry's UID
    const uid = (reg as unknown[])[0];
    expect(s.value('0x2::dynamic_field::exists_with_type', ['vector<u8>', 'u64'], [val(uid), val(bytesVec('raw'))])).toBe(true);
    expect(s.value('0x2::dynamic_field::borrow', ['vector<u8>', 'u64'], [val(uid), val(bytesVec('raw'))])).toBe(42n);
    expect(s.value('0x2::dynamic_object_field::exists_with_type', ['vector<u8>', BADGE_T], [val(uid), val(bytesVec('obj'))])).toBe(true);
    expect(hex(s.run('0x2::dynamic_object_field::id', ['vector<u8>'], [val(uid), val(bytesVec('obj'))])[0].bcs)).toBe(hex(bcs.option(bcs.address(b2Id))));

    for (const x of [1n, 2n, 3n]) [reg] = s.mut(`${REG}::push_raw`, [], reg, [val(bytesVec('vec')), val(x)]);
    const pushed = s.run('0x2::dynamic_field::borrow', ['vector<u8>', 'vector<u64>'], [val((reg as unknown[])[0]), val(bytesVec('vec'))])[0];
    expect(hex(pushed.bcs)).toBe(hex(bcs.vector([1, 2, 3].map((x) => bcs.u64(x)))));

    const mid = s.results();
    const vaultField = dynamicFieldId(ids.vault, '0x2::dynamic_object_field::Wrapper<u64>', bcs.u64(9));
    expect(mid.writes.find((w) => w.id === b1Id)?.owner).toEqual(owner.object(vaultField));
    expect(mid.writes.find((w) => w.id === vaultField)?.owner).toEqual(owner.object(ids.vault));

    [reg, out] = s.mut(`${REG}::vault_take`, [BADGE_T], reg, [val(9n)]);
    ok(s.call('0x2::transfer::public_transfer', [BADGE_T], [val(out[0].value), val(canonicalAddress('0xb0b'))]));
    [reg, out] = s.mut(`${REG}::detach_object`, [BADGE_T], reg, [val(bytesVec('obj'))]);
    ok(s.call('0x2::transfer::public_freeze_object', [BADGE_T], [val(out[0].value)]));
    expectAbort(s.call(`${REG}::detach_object`, [BADGE_T], [val(reg), val(bytesVec('obj'))]), 1n, `${SUI_ADDR}::dynamic_field`, 'borrow_child_object');

    const res = s.results();
    const stashed = dynamicFieldId(ids.misc, STRING_T, sbcs('b'));
    const raw = dynamicFieldId(ids.reg, 'vector<u8>', sbcs('raw'));
    const vecField = dynamicFieldId(ids.reg, 'vector<u8>', sbcs('vec'));
    expect(s.owners()).toEqual(
      new Map([
        [b1Id, owner.address('0xb0b')],
        [b2Id, owner.immutable()],
        [stashed, owner.object(ids.misc)],
        [raw, owner.object(ids.reg)],
        [vecField, owner.object(ids.reg)],
      ]),
    );
    expect(hex(s.write(vecField).bcs)).toBe(hex(concat(bcs.address(vecField), sbcs('vec'), pushed.bcs)));
    expect(hex(s.write(stashed).bcs)).toBe(hex(concat(bcs.address(stashed), sbcs('b'), bcs.bytes('xyz'))));
    expect(s.write(stashed).typeTag).toBe(fullTag('0x2::dynamic_field::Field<0x1::string::String, vector<u8>>'));
    expect(hex(s.write(raw).bcs)).toBe(hex(concat(bcs.address(raw), sbcs('raw'), bcs.u64(42))));
    expect(hex(s.write(b1Id).bcs)).toBe(hex(concat(bcs.address(b1Id), bcs.u8(2))));
    expect(res.createdIds).toEqual(expect.arrayContaining([b1Id, b2Id, stashed, raw]));
    expect(res.createdIds).not.toContain(vaultField);
  });

  it('table::destroy_empty aborts while entries remain; after removing them the table UID is deleted', () => {
    const s = new SuiSession(vm);
    const T = ['u64', 'u64'];
    let t = s.value('0x2::table::new', T, [s.ctx]);
    for (const k of [1n, 2n]) [t] = s.mut('0x2::table::add', T, t, [val(k), val(k * 10n)]);
    expectAbort(s.call('0x2::table::destroy_empty', T, [val(t)]), 0n, `${SUI_ADDR}::table`, 'destroy_empty');
    for (const k of [1n, 2n]) [t] = s.mut('0x2::table::remove', T, t, [val(k)]);
    ok(s.call('0x2::table::destroy_empty', T, [val(t)]));
    const res = s.results();
    expect(res.writes).toEqual([]);
    expect(res.createdIds).toEqual([]);
    expect(res.generatedIds).toHaveLength(3);
  });

  describe('a second transaction over the stored children', () => {
    it('reads a child through the child store (loaded, not modified), changes another (loaded, modified)', () => {
      const s1 = new SuiSession(vm);
      let [reg, ids] = newRegistry(s1);
      [reg] = s1.mut(`${REG}::register`, [], reg, [val(str('alice')), s1.ctx]);
      [reg] = s1.mut(`${REG}::score`, [], reg, [val(str('alice')), val(3n)]);
      ok(s1.call(`${REG}::share`, [], [val(reg)]));
      const stored = new Map<string, StoredObject>(s1.results().writes.map((w) => [w.id, { type: w.typeTag, bcs: w.bcs, version: 5n, owner: w.owner }]));
      const regBcs = s1.write(ids.reg).bcs;

      const asked: string[] = [];
      const s2 = new SuiSession(vm, {
        digest: Uint8Array.from({ length: 32 }, (_, i) => 200 - i),
        runtime: {
          inputObjects: [{ id: ids.reg, owner: { $kind: 'Shared', initialSharedVersion: 1n }, version: 5n, containedUids: Object.values(ids) }],
          childStore: (parent, child, rootVersion) => {
            asked.push(`${parent}/${child}@${rootVersion}`);
            return stored.get(child);
          },
        },
      });
      const regArg = { $kind: 'Bcs' as const, bytes: regBcs };
      expect(stringOf(s2.value(`${REG}::name_of`, [], [regArg, val(s1.sender)]))).toBe('alice');
      const r2 = s2.call(`${REG}::score`, [], [regArg, val(str('alice')), val(4n)]);
      ok(r2);
      const nameField = dynamicFieldId(ids.names, 'address', bcs.address(s1.sender));
      const node = dynamicFieldId(ids.scores, STRING_T, sbcs('alice'));
      const logField = dynamicFieldId(ids.log, 'u64', bcs.u64(1));
      expect(asked).toContain(`${ids.names}/${nameField}@5`);
      const res = s2.results();
      const loaded = new Map(res.loadedChildObjects.map((l) => [l.id, l]));
      expect(loaded.get(nameField)).toEqual({ id: nameField, version: 5n, isModified: false });
      expect(loaded.get(node)).toEqual({ id: node, version: 5n, isModified: true });
      expect(hex(s2.write(node).bcs)).toBe(hex(concat(bcs.address(node), sbcs('alice'), bcs.option(null), bcs.option(null), bcs.u64(7))));
      expect(s2.write(logField).owner).toEqual(owner.object(ids.log));
      expect(res.createdIds).toEqual([logField]);
      expect(res.deletedIds).toEqual([]);
      expect(res.writes.map((w) => w.id).sort()).toEqual([node, logField].sort());

      // removing a stored child deletes its id: it is no longer written, and counts as deleted
      const regAfter = r2.$kind === 'Success' ? r2.mutatedReferences[0].value.value : undefined;
      const r3 = s2.call(`${REG}::drop_front`, [], [val(regAfter)]);
      ok(r3);
      const after = s2.results();
      expect(after.deletedIds).toEqual([node]);
      expect(after.writes.map((w) => w.id)).toEqual([logField]);
      expect(after.loadedChildObjects.find((l) => l.id === node)?.isModified).toBe(true);
    });

    it('children of children (an object-table badge and its own field) load as of the root version; only changed ones are modified', () => {
      const s1 = new SuiSession(vm);
      let [reg, ids] = newRegistry(s1);
      [reg] = s1.mut(`${REG}::award`, [], reg, [val(1), s1.ctx]);
      const badge = s1.freshId(7);
      ok(s1.call(`${REG}::share`, [], [val(reg)]));
      const stored = new Map<string, StoredObject>(s1.results().writes.map((w) => [w.id, { type: w.typeTag, bcs: w.bcs, version: 5n, owner: w.owner }]));
      const asked: string[] = [];
      const s2 = new SuiSession(vm, {
        digest: Uint8Array.from({ length: 32 }, (_, i) => 100 + i),
        runtime: {
          inputObjects: [{ id: ids.reg, owner: { $kind: 'Shared', initialSharedVersion: 1n }, version: 9n, containedUids: Object.values(ids) }],
          childStore: (parent, child, rootVersion) => {
            asked.push(`${parent}/${child}@${rootVersion}`);
            return stored.get(child);
          },
        },
      });
      const regArg = { $kind: 'Bcs' as const, bytes: s1.write(ids.reg).bcs };
      const wrapper = dynamicFieldId(ids.badges, '0x2::dynamic_object_field::Wrapper<u64>', bcs.u64(0));
      const level = dynamicFieldId(badge, 'vector<u8>', sbcs('level'));
      expect(s2.run(`${REG}::level_of`, [], [regArg, val(0n)]).map((x) => x.value)).toEqual([1, 1]);
      expect(asked).toEqual([`${ids.badges}/${wrapper}@9`, `${wrapper}/${badge}@9`, `${badge}/${level}@9`]);
      const byId = <T extends { id: string }>(xs: T[]): T[] => [...xs].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(s2.results().loadedChildObjects).toEqual(byId([wrapper, badge, level].map((id) => ({ id, version: 5n, isModified: false }))));
      ok(s2.call(`${REG}::level_up`, [], [regArg, val(0n)]));
      const res = s2.results();
      expect(res.loadedChildObjects).toEqual(
        byId([
          { id: wrapper, version: 5n, isModified: false },
          { id: badge, version: 5n, isModified: true },
          { id: level, version: 5n, isModified: true },
        ]),
      );
      expect(res.writes.map((w) => [w.id, w.owner, hex(w.bcs)])).toEqual([
        [badge, owner.object(wrapper), hex(concat(bcs.address(badge), bcs.u8(2)))],
        [level, owner.object(badge), hex(concat(bcs.address(level), sbcs('level'), bcs.u8(2)))],
      ]);
    });
  });

  it('the registry is not transferable by public_transfer (no store): the call is rejected before running', () => {
    const s = new SuiSession(vm);
    const [reg] = newRegistry(s);
    expect(() => s.call('0x2::transfer::public_transfer', ['0x0::registry::Registry'], [val(reg), val(ZERO_ADDR)])).toThrow();
    expect(uidValue(s.freshId(0))).toEqual((reg as unknown[])[0]);
  });
});

/** The call succeeded. */
function ok(r: ReturnType<SuiSession['call']>): void {
  if (r.$kind !== 'Success') throw new Error(`expected Success, got ${r.$kind}: ${JSON.stringify(r, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))}`);
}

import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { compileAndPublish, fromFixtures, SimulationEnvironment, type TransactionOutcome } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

// Objects created and wrapped in the same transaction: Sui's effects leave them out, and
// `createdAndWrapped` lists them (id and type) from the written objects.
const SOURCE = `
module helper::wrap;

use sui::dynamic_field;

public struct Inner has key, store { id: UID, v: u64 }
public struct Outer has key { id: UID, inner: Inner, list: vector<Inner>, opt: Option<Inner> }
public struct Holder has key { id: UID }
public enum Slot has store { Empty, Full(Inner) }
public struct Box has key, store { id: UID, inner: Inner, slot: Slot }

fun inner(v: u64, ctx: &mut TxContext): Inner { Inner { id: object::new(ctx), v } }

public fun make_outer(ctx: &mut TxContext) {
    let o = Outer {
        id: object::new(ctx),
        inner: inner(1, ctx),
        list: vector[inner(2, ctx), inner(3, ctx)],
        opt: option::some(inner(4, ctx)),
    };
    transfer::transfer(o, ctx.sender());
}

public fun make_field(ctx: &mut TxContext) {
    let mut h = Holder { id: object::new(ctx) };
    dynamic_field::add(&mut h.id, 7u64, inner(5, ctx));
    transfer::share_object(h);
}

public fun make_boxed_field(ctx: &mut TxContext) {
    let mut h = Holder { id: object::new(ctx) };
    let b = Box { id: object::new(ctx), inner: inner(6, ctx), slot: Slot::Full(inner(7, ctx)) };
    dynamic_field::add(&mut h.id, 8u64, b);
    transfer::share_object(h);
}

public fun add_to(o: &mut Outer, ctx: &mut TxContext) {
    o.list.push_back(inner(8, ctx));
}

public fun make_inner(ctx: &mut TxContext) {
    transfer::public_transfer(inner(9, ctx), ctx.sender());
}

public fun make_and_delete(ctx: &mut TxContext) {
    let Inner { id, v: _ } = inner(10, ctx);
    id.delete();
}
`;

/** Ids of every UID (`{ id: { bytes } }`) in a decoded value, depth first. */
function uidsIn(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(uidsIn);
  if (typeof v !== 'object' || v === null) return [];
  const id = (v as { id?: unknown }).id;
  if (Object.keys(v).length === 1 && typeof id === 'object' && id !== null && typeof (id as { bytes?: unknown }).bytes === 'string') return [(id as { bytes: string }).bytes];
  return Object.values(v).flatMap(uidsIn);
}

function changedIds(t: TransactionOutcome): string[] {
  if (t.effects.$kind !== 'V2') throw new Error('expected effects V2');
  return t.effects.V2.changedObjects.map(([id]) => id);
}

describeWithFixtures('objects created and wrapped in the same transaction', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let pkg: string;
  let inner: string;
  beforeAll(async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    env = SimulationEnvironment.create({ packages: packages.filter((p) => ['0x1', '0x2'].map((a) => canonicalAddress(a)).includes(p.id)), protocolConfig });
    pkg = (await compileAndPublish(env, { files: { 'sources/wrap.move': SOURCE } })).packageId;
    inner = `${pkg}::wrap::Inner`;
  });

  it('lists the objects wrapped in a new object (field, vector, option), not in the effects', () => {
    const t = env.call(`${pkg}::wrap::make_outer`).transaction;
    expect(t.status).toEqual({ $kind: 'Success' });
    const created = t.written.filter((w) => w.kind === 'created');
    expect(created).toHaveLength(1);
    const outer = env.getObject(created[0].id)!;
    expect(outer.type).toBe(`${pkg}::wrap::Outer`);
    const ids = uidsIn(outer.value).filter((id) => id !== created[0].id);
    expect(ids).toHaveLength(4);
    expect(t.createdAndWrapped).toEqual([...ids].sort().map((id) => ({ id, type: inner })));
    for (const id of ids) expect(changedIds(t)).not.toContain(id);
    expect(t.wrapped).toEqual([]);
  });

  it('lists an object added as a dynamic field value (in the created Field object)', () => {
    const t = env.call(`${pkg}::wrap::make_field`).transaction;
    expect(t.status).toEqual({ $kind: 'Success' });
    const field = t.written.find((w) => w.kind === 'created' && env.getObject(w.id)?.type?.includes('::dynamic_field::Field<'));
    expect(field).toBeDefined();
    const value = env.getObject(field!.id)!.value as { value: unknown };
    const ids = uidsIn(value.value);
    expect(ids).toHaveLength(1);
    expect(t.createdAndWrapped).toEqual([{ id: ids[0], type: inner }]);
    expect(changedIds(t)).not.toContain(ids[0]);
  });

  it('lists objects nested in a wrapped object, enum variants included', () => {
    const t = env.call(`${pkg}::wrap::make_boxed_field`).transaction;
    expect(t.status).toEqual({ $kind: 'Success' });
    const field = t.written.find((w) => w.kind === 'created' && env.getObject(w.id)?.type?.includes('::dynamic_field::Field<'));
    const box = (env.getObject(field!.id)!.value as { value: { id: unknown; inner: unknown; slot: unknown } }).value;
    const [boxId] = uidsIn(box.id);
    const inners = [...uidsIn(box.inner), ...uidsIn(box.slot)];
    expect(inners).toHaveLength(2);
    const expected = [{ id: boxId, type: `${pkg}::wrap::Box` }, ...inners.map((id) => ({ id, type: inner }))].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(t.createdAndWrapped).toEqual(expected);
    for (const { id } of expected) expect(changedIds(t)).not.toContain(id);
  });

  it('lists an object wrapped in a mutated input object', () => {
    const made = env.call(`${pkg}::wrap::make_outer`).transaction;
    const outerId = made.written.find((w) => w.kind === 'created')!.id;
    const before = new Set(uidsIn(env.getObject(outerId)!.value));
    const t = env.call(`${pkg}::wrap::add_to`, [outerId]).transaction;
    expect(t.status).toEqual({ $kind: 'Success' });
    expect(t.written.find((w) => w.id === outerId)?.kind).toBe('mutated');
    expect(t.written.filter((w) => w.kind === 'created')).toEqual([]);
    const added = uidsIn(env.getObject(outerId)!.value).filter((id) => !before.has(id));
    expect(added).toHaveLength(1);
    expect(t.createdAndWrapped).toEqual([{ id: added[0], type: inner }]);
    expect(changedIds(t)).not.toContain(added[0]);
  });

  it('lists nothing for an object created at top level or created and deleted; wrapped types are spelled as top-level ones', () => {
    const top = env.call(`${pkg}::wrap::make_inner`).transaction;
    expect(top.createdAndWrapped).toEqual([]);
    const created = top.written.find((w) => w.kind === 'created')!;
    expect(env.getObject(created.id)?.type).toBe(inner);
    const gone = env.call(`${pkg}::wrap::make_and_delete`).transaction;
    expect(gone.status).toEqual({ $kind: 'Success' });
    expect(gone.createdAndWrapped).toEqual([]);
    expect(gone.written.filter((w) => w.kind === 'created')).toEqual([]);
  });

  it('lists nothing when the transaction fails after its commands ran (storage beyond the budget)', () => {
    const t = env.call(`${pkg}::wrap::make_outer`, [], { gasBudget: 2_000_000n }).transaction;
    expect(t.status).toMatchObject({ $kind: 'Failure', error: { $kind: 'InsufficientGas' }, command: null });
    expect(t.createdAndWrapped).toEqual([]);
  });
});

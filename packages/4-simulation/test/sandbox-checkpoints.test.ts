/**
 * `create_checkpoint` / `restore_checkpoint`: a restore brings the whole state back
 * (objects, packages, settings, counters), so the same transaction after it gives the
 * same ids and digests as right after the checkpoint; an unknown name is a typed error;
 * checkpoints survive `reset`.
 */
import { expect, it } from 'vitest';
import { type CheckpointError, fromFixtures, SandboxSession, type SandboxResponse } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const COUNTER = `module demo::counter;
use sui::event;
public struct Counter has key, store { id: UID, value: u64 }
public struct Bumped has copy, drop { value: u64 }
public fun new(ctx: &mut TxContext): Counter { Counter { id: object::new(ctx), value: 0 } }
public fun bump(c: &mut Counter, by: u64) { c.value = c.value + by; event::emit(Bumped { value: c.value }) }
`;
const OTHER = `module other::thing;
public fun one(): u64 { 1 }
`;

type Data = Record<string, unknown>;

function okData(r: SandboxResponse): Data {
  expect(r.error, r.error).toBeUndefined();
  expect(r.success).toBe(true);
  return (r.data ?? {}) as Data;
}

let fixtures: ReturnType<typeof fromFixtures> | undefined;
function session(): SandboxSession {
  fixtures ??= fromFixtures(FIXTURES_ROOT);
  return SandboxSession.create(fixtures);
}

describeWithFixtures('sandbox checkpoints', ['fixtures', 'framework'], () => {
  it('a restore gives the same ids and digests as right after the checkpoint', async () => {
    const s = session();
    const pkg = okData(await s.handle({ action: 'compile_move', package_name: 'demo', module_name: 'counter', source: COUNTER })).package_id as string;
    const made = await s.handle({
      action: 'execute_ptb',
      commands: [
        { type: 'move_call', package: pkg, module: 'counter', function: 'new', args: [] },
        { type: 'transfer_objects', objects: [{ result: 0 }], recipient: '0xa11ce' },
      ],
    });
    expect(made.success, made.error).toBe(true);
    const counter = made.effects?.created[0].id as string;
    const state = okData(await s.handle({ action: 'get_state' }));
    const objects = okData(await s.handle({ action: 'list_objects', include_packages: true }));

    const cp = okData(await s.handle({ action: 'create_checkpoint', name: 'start' }));
    expect(cp).toEqual({ name: 'start', objects: state.object_count });

    // What runs right after the checkpoint: a call that writes, a new object, a transaction creating one.
    const bump = { action: 'call_function', package: pkg, module: 'counter', function: 'bump', args: [counter, 5] };
    const create = {
      action: 'execute_ptb',
      commands: [
        { type: 'move_call', package: pkg, module: 'counter', function: 'new', args: [] },
        { type: 'transfer_objects', objects: [{ result: 0 }], recipient: '0xb0b' },
      ],
    };
    const first = [await s.handle(bump), await s.handle({ action: 'create_test_object', type_tag: `${pkg}::counter::Counter` }), await s.handle(create)];
    for (const r of first) expect(r.success, r.error).toBe(true);

    // Change everything else a checkpoint holds: settings, clock, another package, more objects.
    okData(await s.handle({ action: 'configure', sender: '0xc0ffee', gas_price: 2000, random_seed: `0x${'22'.repeat(32)}` }));
    okData(await s.handle({ action: 'set_clock', timestamp_ms: 1_800_000_000_000 }));
    const other = okData(await s.handle({ action: 'compile_move', package_name: 'other', module_name: 'thing', source: OTHER })).package_id as string;
    okData(await s.handle({ ...bump, sender: '0xa11ce' }));

    expect(okData(await s.handle({ action: 'restore_checkpoint', name: 'start' }))).toEqual({ name: 'start', objects: state.object_count });
    expect(okData(await s.handle({ action: 'get_state' }))).toEqual(state);
    expect(okData(await s.handle({ action: 'list_objects', include_packages: true }))).toEqual(objects);
    expect(okData(await s.handle({ action: 'list_modules' })).modules).not.toContain(`${other}::thing`);
    const again = [await s.handle(bump), await s.handle({ action: 'create_test_object', type_tag: `${pkg}::counter::Counter` }), await s.handle(create)];
    expect(again).toEqual(first);

    // A checkpoint stays: restoring it a second time (after a reset, even) gives the same again.
    okData(await s.handle({ action: 'reset' }));
    expect(okData(await s.handle({ action: 'list_modules' })).modules).not.toContain(`${pkg}::counter`);
    okData(await s.handle({ action: 'restore_checkpoint', name: 'start' }));
    expect(okData(await s.handle({ action: 'list_objects', include_packages: true }))).toEqual(objects);
    expect(await s.handle(bump)).toEqual(first[0]);
  });

  it('the name defaults to "default"; a new checkpoint of a name replaces the old one', async () => {
    const s = session();
    const base = okData(await s.handle({ action: 'create_checkpoint' }));
    expect(base.name).toBe('default');
    okData(await s.handle({ action: 'create_test_object', type_tag: '0x2::coin::Coin<0x2::sui::SUI>', value: { balance: 3 } }));
    okData(await s.handle({ action: 'create_checkpoint' }));
    const restored = okData(await s.handle({ action: 'restore_checkpoint' }));
    expect(restored).toEqual({ name: 'default', objects: (base.objects as number) + 1 });
  });

  it('an unknown name is a typed error that changes nothing', async () => {
    const s = session();
    const r = await s.handle({ action: 'restore_checkpoint', name: 'nope' });
    expect(r).toEqual({ success: false, error: 'no checkpoint named "nope" (none was created)', error_category: 'ExecutionError' });
    okData(await s.handle({ action: 'create_checkpoint', name: 'a' }));
    const state = okData(await s.handle({ action: 'get_state' }));
    expect((await s.handle({ action: 'restore_checkpoint', name: 'b' })).error).toBe('no checkpoint named "b" (checkpoints: a)');
    expect(okData(await s.handle({ action: 'get_state' }))).toEqual(state);
    expect(() => s.checkpoints.restore(s.env, 'b')).toThrow(expect.objectContaining({ code: 'UNKNOWN_CHECKPOINT', checkpoint: 'b' }) as CheckpointError);
    expect((await s.handle({ action: 'create_checkpoint', name: '' })).error_category).toBe('ParseError');
  });
});

/**
 * `execute_ptb` through SandboxSession: every input and argument form, real effects
 * (versions, owners, digests as the store holds them), decoded return values and events,
 * failures with their command, and the rollback of `gas` coins when nothing ran.
 */
import { expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { CLOCK_ID, fromFixtures, SandboxSession, type SandboxResponse } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const SUI_COIN = '0x2::coin::Coin<0x2::sui::SUI>';
const BOB = canonicalAddress('0xb0b');

let fixtures: ReturnType<typeof fromFixtures> | undefined;
function session(): SandboxSession {
  fixtures ??= fromFixtures(FIXTURES_ROOT);
  return SandboxSession.create(fixtures);
}

async function coin(s: SandboxSession, balance: number): Promise<string> {
  const r = await s.handle({ action: 'create_object', object_type: SUI_COIN, fields: { balance } });
  return (r.data as { object_id: string }).object_id;
}

function expectOk(r: SandboxResponse): SandboxResponse {
  expect(r.error, r.error).toBeUndefined();
  expect(r.success).toBe(true);
  return r;
}

describeWithFixtures('sandbox execute_ptb', ['fixtures', 'framework'], () => {
  it('takes every argument form and reports real versions, owners and digests', async () => {
    const s = session();
    const a = await coin(s, 1000);
    const b = await coin(s, 50);
    const r = expectOk(
      await s.handle({
        action: 'execute_ptb',
        inputs: [
          { type: 'object', object_id: a },
          { type: 'pure', value: 100, value_type: 'u64' },
          { type: 'pure', value: '200', value_type: 'u64' },
          { type: 'object', object_id: b, mode: 'owned' },
          { type: 'pure', value: '0xb0b', value_type: 'address' },
        ],
        commands: [
          { type: 'split_coins', coin: 0, amounts: [{ input: 1 }, 2] },
          { type: 'merge_coins', target: { input: 0 }, sources: [3] },
          { type: 'transfer_objects', objects: [{ cmd: 0, idx: 0 }, { nested_result: [0, 1] }], recipient: 4 },
          { type: 'move_call', target: '0x2::coin::value', type_args: ['0x2::sui::SUI'], args: [0] },
        ],
      }),
    );
    const e = r.effects;
    expect(e?.status).toBe('success');
    expect(e?.created).toHaveLength(2);
    expect(e?.deleted).toEqual([canonicalAddress(b)]);
    expect(e?.mutated.map((m) => m.id)).toEqual([canonicalAddress(a)]);
    for (const o of [...(e?.created ?? []), ...(e?.mutated ?? [])]) {
      const view = s.env.getObject(o.id);
      expect(o.version).toBe(Number(view?.version));
      expect(o.version).toBe(e?.lamport_version);
      expect(o.digest).toBe(view?.digest);
      expect(o.object_type).toBe(view?.type);
    }
    expect(e?.created.every((c) => c.owner === `address:${BOB}`)).toBe(true);
    expect(e?.mutated[0].owner).toBe(`address:${s.env.sender}`);
    expect(e?.return_values?.find((v) => v.command_index === 3)?.decoded).toEqual(['750']);
    expect(r.commands_succeeded).toBe(4);
    expect(r.gas_used).toBeGreaterThan(0);
    expect(e?.transaction_digest).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    // The mock gas coin is not reported.
    expect(e?.gas_object).toBeUndefined();
  });

  it('pure inputs of any type, whole results, a recipient address, shared objects read-only, make_move_vec', async () => {
    const s = session();
    const r = expectOk(
      await s.handle({
        action: 'execute_ptb',
        inputs: [
          { type: 'pure', value: 'hello', value_type: '0x1::string::String' },
          { type: 'pure', value: ['0x1', '0x2'], value_type: 'vector<address>' },
          { type: 'object', object_id: '0x6', mode: 'immutable' },
          { type: 'pure', value: 7, value_type: '0x1::option::Option<u64>' },
        ],
        commands: [
          { type: 'move_call', package: '0x1', module: 'string', function: 'length', args: [0] },
          { type: 'move_call', package: '0x1', module: 'vector', function: 'length', type_args: ['address'], args: [1] },
          { type: 'move_call', package: '0x2', module: 'clock', function: 'timestamp_ms', args: [2] },
          { type: 'make_move_vec', element_type: 'u64', elements: [] },
          { type: 'move_call', package: '0x1', module: 'option', function: 'is_some', type_args: ['u64'], args: [3] },
          { type: 'move_call', package: '0x2', module: 'coin', function: 'zero', type_args: ['0x2::sui::SUI'], args: [] },
          { type: 'transfer_objects', objects: [{ result: 5 }], recipient: '0xb0b' },
        ],
      }),
    );
    const decoded = Object.fromEntries((r.effects?.return_values ?? []).map((v) => [v.command_index, v.decoded]));
    expect(decoded).toMatchObject({ 0: ['5'], 1: ['2'], 2: ['1704067200000'], 3: [[]], 4: [true] });
    expect(r.effects?.created[0].owner).toBe(`address:${BOB}`);
    // The clock was read, not written.
    expect(r.effects?.mutated.map((m) => m.id)).not.toContain(CLOCK_ID);
  });

  it('gas inputs make real coins; "gas" is the gas coin; a real gas coin is reported', async () => {
    const s = session();
    const r = expectOk(
      await s.handle({
        action: 'execute_ptb',
        inputs: [
          { type: 'gas', budget: 5000 },
          { type: 'pure', value: 10, value_type: 'u64' },
        ],
        commands: [
          { type: 'split_coins', coin: 'gas', amounts: [1] },
          { type: 'merge_coins', target: 0, sources: [{ result: 0 }] },
        ],
      }),
    );
    const made = r.effects?.mutated[0].id as string;
    expect((s.env.getObject(made)?.value as { balance: { value: string } } | undefined)?.balance.value).toBe('5010');
    const payer = await coin(s, 10_000_000_000);
    const paid = await s.handle({ action: 'execute_ptb', gas_coin: payer, inputs: [], commands: [{ type: 'move_call', package: '0x1', module: 'u64', function: 'max', args: [] }] });
    // A call with the wrong arity fails, but is charged: the payer is mutated.
    expect(paid.success).toBe(false);
    expect(paid.error_category).toBe('TypeMismatch');
    expect(paid.effects?.gas_object).toBe(payer);
    expect(paid.effects?.mutated.map((m) => m.id)).toContain(payer);
  });

  it('a failing command: index, description, category, commands before it; state keeps only gas effects', async () => {
    const s = session();
    const a = await coin(s, 10);
    const r = await s.handle({
      action: 'execute_ptb',
      inputs: [
        { type: 'object', object_id: a },
        { type: 'pure', value: 1, value_type: 'u64' },
        { type: 'pure', value: 100, value_type: 'u64' },
      ],
      commands: [
        { type: 'split_coins', coin: 0, amounts: [1] },
        { type: 'split_coins', coin: 0, amounts: [2] },
        { type: 'transfer_objects', objects: [{ result: 0 }, { result: 1 }], recipient: '0xb0b' },
      ],
    });
    expect(r.success).toBe(false);
    expect(r.error_category).toBe('ExecutionError');
    expect(r.error).toMatch(/InsufficientCoinBalance/);
    expect(r.failed_command_index).toBe(1);
    expect(r.failed_command_description).toBe('SplitCoins (1 amounts)');
    expect(r.commands_succeeded).toBe(1);
    expect(r.effects?.status).toBe('failure');
    expect((s.env.getObject(a)?.value as { balance: { value: string } } | undefined)?.balance.value).toBe('10');
  });

  it('requests that cannot run leave nothing behind', async () => {
    const s = session();
    const count = s.env.store.size;
    const cases: [unknown[], unknown[], string][] = [
      [[{ type: 'gas', budget: 5 }], [{ type: 'split_coins', coin: 9, amounts: [] }], 'ParseError'],
      [
        [
          { type: 'gas', budget: 5 },
          { type: 'object', object_id: '0xdead' },
        ],
        [],
        'MissingObject',
      ],
      [
        [
          { type: 'gas', budget: 5 },
          { type: 'pure', value: 'x', value_type: 'u64' },
        ],
        [],
        'TypeMismatch',
      ],
      [[{ type: 'gas', budget: 5 }], [{ type: 'move_call', target: 'nope', args: [] }], 'ParseError'],
      [[{ type: 'gas', budget: 5 }], [{ type: 'receive', object_id: '0x5' }], 'ParseError'],
      [[{ type: 'gas', budget: 5 }], [{ type: 'publish', modules: ['AAAA'] }], 'DeploymentError'],
      [[{ type: 'gas', budget: 5 }], [{ type: 'move_call', package: '0x2', module: 'coin', function: 'zero', type_args: ['vector<'] }], 'TypeMismatch'],
    ];
    for (const [inputs, commands, category] of cases) {
      const r = await s.handle({ action: 'execute_ptb', inputs, commands });
      expect(r.success).toBe(false);
      expect(r.error_category, r.error).toBe(category);
      expect(s.env.store.size).toBe(count);
    }
  });

  it('executor-level rejections map to categories', async () => {
    const s = session();
    const witness = await s.handle({
      action: 'execute_ptb',
      inputs: [{ type: 'witness', witness_type: '0x2::sui::SUI' }],
      commands: [{ type: 'move_call', package: '0x1', module: 'option', function: 'some', type_args: ['0x2::sui::SUI'], args: [0] }],
    });
    expect(witness.success).toBe(false);
    expect(witness.error_category).toBe('TypeMismatch');
    const missingFn = await s.handle({ action: 'execute_ptb', inputs: [], commands: [{ type: 'move_call', package: '0x2', module: 'coin', function: 'nope', args: [] }] });
    expect(missingFn.error_category).toBe('MissingPackage');
    // Strict checks refuse an unused value without drop; relaxed (dev-inspect) checks allow it.
    const zero = { type: 'move_call', package: '0x2', module: 'coin', function: 'zero', type_args: ['0x2::sui::SUI'], args: [] };
    expect((await s.handle({ action: 'execute_ptb', commands: [zero] })).success).toBe(false);
    expectOk(await s.handle({ action: 'execute_ptb', commands: [zero], checks: 'relaxed' }));
  });

  it('sender and budget options apply', async () => {
    const s = session();
    const r = expectOk(
      await s.handle({
        action: 'execute_ptb',
        sender: '0xb0b',
        gas_budget: 100_000_000,
        commands: [
          { type: 'move_call', package: '0x2', module: 'coin', function: 'zero', type_args: ['0x2::sui::SUI'], args: [] },
          { type: 'transfer_objects', objects: [{ result: 0 }], recipient: '0xb0b' },
        ],
      }),
    );
    expect(r.effects?.created[0].owner).toBe(`address:${BOB}`);
    const poor = await s.handle({
      action: 'execute_ptb',
      gas_budget: 1,
      inputs: [{ type: 'pure', value: 1, value_type: 'u64' }],
      commands: [{ type: 'move_call', package: '0x1', module: 'u64', function: 'max', args: [0, 0] }],
    });
    expect(poor.success).toBe(false);
    expect(poor.error).toMatch(/InsufficientGas/);
  });

  it('a type argument that resolves only at run time fails as a transaction (and is charged)', async () => {
    const s = session();
    const r = await s.handle({ action: 'execute_ptb', commands: [{ type: 'move_call', package: '0x2', module: 'coin', function: 'zero', type_args: ['0x2::nope::N'] }] });
    expect(r.success).toBe(false);
    expect(r.effects?.status).toBe('failure');
    expect(r.failed_command_index).toBe(0);
  });
});

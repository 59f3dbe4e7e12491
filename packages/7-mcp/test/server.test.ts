/**
 * The MCP server in-process (a real SDK `Client` over a linked in-memory transport) on the
 * shared framework and corpus: the tools listed with their schemas, reading packages,
 * calling functions (an abort is a result), bad input as JSON errors, a PTB that creates an
 * object read back, Move compiled, published and called, Tier A/B on one corpus function,
 * and the state file.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmiMcpServer, SMI_TOOL_ERROR_CODES, SMI_TOOLS, type SmiMcpServerOptions } from '@smi/mcp';
import { fromFixtures, loadCorpus } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { call, type Client, connectInProcess, fails, type Obj, ok } from './support/client.js';

const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';
const SENDER = '0x0000000000000000000000000000000000000000000000000000000000000000';
const COUNTER = `module demo::counter;

public struct Counter has key, store { id: UID, value: u64 }

const ETooBig: u64 = 7;

public fun new(ctx: &mut TxContext): Counter { Counter { id: object::new(ctx), value: 0 } }
public fun bump(c: &mut Counter, by: u64) { assert!(by < 100, ETooBig); c.value = c.value + by }
public fun value(c: &Counter): u64 { c.value }
`;

const TOOL_NAMES = [
  'list_packages',
  'list_modules',
  'list_functions',
  'list_structs',
  'get_interface',
  'find_constructors',
  'search_functions',
  'search_types',
  'disassemble_function',
  'call_function',
  'execute_ptb',
  'read_object',
  'list_objects',
  'create_object',
  'set_clock',
  'get_state',
  'compile_and_publish',
  'run_inhabit',
  'sandbox_request',
];

let base: SmiMcpServerOptions | undefined;
function options(extra: Partial<SmiMcpServerOptions> = {}): SmiMcpServerOptions {
  if (base === undefined) {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    base = { framework: packages, packages: loadCorpus(fixturePath('corpus')), protocolConfig };
  }
  return { ...base, ...extra };
}

/** The first created object of a transaction result whose type ends with `suffix`. */
function createdOf(result: Obj, suffix: string): string {
  const created = (result.effects as { created: { id: string; object_type?: string }[] }).created;
  const found = created.find((c) => c.object_type?.endsWith(suffix));
  expect(found, JSON.stringify(created)).toBeDefined();
  return (found as { id: string }).id;
}

describe('tool declarations', () => {
  it('every tool has a snake_case name, a description and an object schema; error codes are stable words', () => {
    expect(SMI_TOOLS.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of SMI_TOOLS) {
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(t.description.length, t.name).toBeGreaterThan(60);
    }
    for (const c of SMI_TOOL_ERROR_CODES) expect(c).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
  });
});

describeWithFixtures('smi MCP server (in-process)', ['corpus'], () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectInProcess(createSmiMcpServer(options()));
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('lists every tool with a JSON Schema of its input, and says what it is', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.description, t.name).toBeTruthy();
    }
    expect(byName.get('call_function')?.inputSchema.required).toEqual(['package', 'module', 'function']);
    expect(byName.get('read_object')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('execute_ptb')?.annotations?.readOnlyHint).toBe(false);
    expect(client.getServerVersion()?.name).toBe('smi');
    expect(client.getInstructions()).toMatch(/offline Sui Move sandbox/);
  });

  it('lists packages, modules, functions and structs of a corpus package', async () => {
    const pkgs = await ok(client, 'list_packages');
    const oracle = (pkgs.packages as Obj[]).find((p) => p.id === ORACLE);
    expect(oracle).toMatchObject({ origin: 'corpus', modules: ['oracle'] });
    expect((pkgs.packages as Obj[]).filter((p) => p.origin === 'framework').length).toBeGreaterThan(0);
    const without = await ok(client, 'list_packages', { include_framework: false });
    expect((without.packages as Obj[]).every((p) => p.origin !== 'framework')).toBe(true);

    expect(await ok(client, 'list_modules', { package: ORACLE })).toEqual({ modules: [`${ORACLE}::oracle`], count: 1 });
    const fns = await ok(client, 'list_functions', { module_path: `${ORACLE}::oracle`, callable_only: true });
    const names = (fns.functions as Obj[]).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['get_token_price', 'register_token_price']));
    const price = (fns.functions as Obj[]).find((f) => f.name === 'get_token_price') as Obj;
    expect(price).toMatchObject({ visibility: 'public', is_entry: false });
    expect(price.params).toEqual(expect.arrayContaining([expect.stringMatching(/::oracle::PriceOracle$/)]));

    const structs = await ok(client, 'list_structs', { module_path: '0x2::coin' });
    const coin = (structs.structs as Obj[]).find((s) => s.name === 'Coin') as Obj;
    expect(coin).toMatchObject({ abilities: ['store', 'key'], is_object: true });
    expect(coin.fields).toEqual([
      { name: 'id', type: '0x0000000000000000000000000000000000000000000000000000000000000002::object::UID' },
      { name: 'balance', type: '0x0000000000000000000000000000000000000000000000000000000000000002::balance::Balance<T0>' },
    ]);
  });

  it('gives the bytecode interface JSON of a package or of one module', async () => {
    const whole = await ok(client, 'get_interface', { package: ORACLE });
    expect(whole).toMatchObject({ schema_version: 1, package_id: ORACLE, module_names: ['oracle'] });
    const one = await ok(client, 'get_interface', { package: '0x1', module: 'u64' });
    expect(one.module).toBe('u64');
    expect((one.interface as { functions: Obj }).functions.max).toMatchObject({ visibility: 'public', params: [{ kind: 'u64' }, { kind: 'u64' }] });
    await fails(client, 'get_interface', { package: '0x1', module: 'nope' }, 'MISSING_PACKAGE');
  });

  it('calls a framework function and decodes its return values', async () => {
    const r = await ok(client, 'call_function', { package: '0x1', module: 'u64', function: 'max', args: [3, 7] });
    expect(r.status).toBe('success');
    expect(r.return_values).toEqual([{ type: 'u64', bcs: '0700000000000000', value: '7' }]);
    expect(r.gas_used).toBeGreaterThan(0);
    const v = await ok(client, 'call_function', { package: '0x1', module: 'vector', function: 'length', type_args: ['u8'], args: ['0x010203'] });
    expect((v.return_values as Obj[])[0].value).toBe('3');
  });

  it('a Move abort is a result (status aborted, code, location), not a tool error', async () => {
    const r = await ok(client, 'call_function', { package: '0x1', module: 'option', function: 'extract', type_args: ['u64'], args: [null] });
    expect(r).toMatchObject({ status: 'aborted', abort_code: 262145, abort_location: 'option::extract', error_category: 'ContractAbort', failed_command_index: 0 });
    expect(r.effects).toMatchObject({ status: 'failure' });
  });

  it('bad input is a JSON error with a stable code, never a stack', async () => {
    await fails(client, 'call_function', { package: '0x1', module: 'u64' }, 'INVALID_INPUT');
    await fails(client, 'call_function', { package: '0x1', module: 'u64', function: 'max', args: 'nope' }, 'INVALID_INPUT');
    await fails(client, 'call_function', { package: 'not-an-address', module: 'u64', function: 'max' }, 'INVALID_INPUT');
    await fails(client, 'call_function', { package: '0x1', module: 'u8', function: 'max', args: [300, 1] }, 'TYPE_MISMATCH');
    await fails(client, 'call_function', { package: '0x1', module: 'no_such_module', function: 'f' }, 'MISSING_PACKAGE');
    await fails(client, 'list_modules', { package: '0xdead' }, 'MISSING_PACKAGE');
    await fails(client, 'read_object', { object_id: '0xbeef' }, 'MISSING_OBJECT');
    await fails(client, 'no_such_tool', {}, 'UNKNOWN_TOOL');
    await fails(client, 'sandbox_request', { request: { action: 'frobnicate' } }, 'INVALID_INPUT');
  });

  it('a PTB creates an object, read back with read_object', async () => {
    const r = await ok(client, 'execute_ptb', {
      inputs: [
        { type: 'gas', budget: 1000 },
        { type: 'pure', value: 250, value_type: 'u64' },
      ],
      commands: [
        { type: 'split_coins', coin: 0, amounts: [1] },
        { type: 'transfer_objects', objects: [{ nested_result: [0, 0] }], recipient: SENDER },
      ],
    });
    expect(r.status).toBe('success');
    expect(r.commands_succeeded).toBe(2);
    const coins = (r.effects as { created: { id: string }[] }).created;
    const split = coins.find((c) => c.id !== undefined) as { id: string };
    const obj = await ok(client, 'read_object', { object_id: split.id });
    expect(obj).toMatchObject({ type: '0x0000000000000000000000000000000000000000000000000000000000000002::coin::Coin<0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI>' });
    expect(obj.decoded).toMatchObject({ balance: { value: '250' } });
    const listed = await ok(client, 'list_objects');
    expect((listed.objects as Obj[]).some((o) => o.object_id === split.id)).toBe(true);

    const made = await ok(client, 'create_object', { object_type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: '42' } });
    const read = await ok(client, 'read_object', { object_id: String(made.object_id) });
    expect(read.decoded).toMatchObject({ balance: { value: '42' } });
    const failed = await ok(client, 'execute_ptb', {
      commands: [{ type: 'move_call', target: '0x1::option::destroy_some', type_args: ['u8'], args: [0] }],
      inputs: [{ type: 'pure', value: null, value_type: '0x1::option::Option<u8>' }],
    });
    expect(failed.status).toBe('aborted');
  });

  it('compiles and publishes Move, then calls it; a compile error carries the diagnostics', async () => {
    const pub = await ok(client, 'compile_and_publish', { source: COUNTER });
    const pkg = String(pub.package_id);
    expect(pub.modules).toEqual([{ name: 'counter', size_bytes: expect.any(Number) as number }]);
    const listed = await ok(client, 'list_packages', { include_framework: false });
    expect((listed.packages as Obj[]).find((p) => p.id === pkg)).toMatchObject({ origin: 'session', modules: ['counter'] });

    const made = await ok(client, 'call_function', { package: pkg, module: 'counter', function: 'new' });
    const counter = createdOf(made, '::counter::Counter');
    expect((await ok(client, 'call_function', { package: pkg, module: 'counter', function: 'bump', args: [counter, 5] })).status).toBe('success');
    const value = await ok(client, 'call_function', { package: pkg, module: 'counter', function: 'value', args: [counter] });
    expect((value.return_values as Obj[])[0].value).toBe('5');
    const tooBig = await ok(client, 'call_function', { package: pkg, module: 'counter', function: 'bump', args: [counter, 500] });
    expect(tooBig).toMatchObject({ status: 'aborted', abort_code: 7, abort_location: 'counter::bump' });

    // Tier A/B on a package published in the session: its constructor feeds the target.
    const row = await ok(client, 'run_inhabit', { package: pkg, module: 'counter', function: 'value' });
    expect(row).toMatchObject({ target_package: pkg, status: 'tier_b_hit', provenance: 'chain' });

    const broken = await fails(client, 'compile_and_publish', { source: 'module demo::broken;\npublic fun f(: u64 {}\n' }, 'COMPILATION_ERROR');
    expect(String(broken.diagnostics)).toMatch(/broken/);
    await fails(client, 'compile_and_publish', { source: 'fun nothing() {}' }, 'INVALID_INPUT');
  }, 120_000);

  it('runs Tier A/B on one corpus function and answers its BenchmarkRow', async () => {
    const row = await ok(client, 'run_inhabit', { package: ORACLE, module: 'oracle', function: 'register_token_price' });
    expect(row).toMatchObject({ target_package: ORACLE, target_module: 'oracle', target_function: 'register_token_price', status: 'tier_b_hit' });
    expect(row.tier_b_details).toMatchObject({ execution_success: true, path: 'ptb' });
    expect(row.transactions).toBeUndefined();
    const again = await ok(client, 'run_inhabit', { package: ORACLE, module: 'oracle', function: 'register_token_price', include_transactions: true, tier_a_only: true });
    expect(again.status).toBe('tier_a_hit');
    const a = await ok(client, 'run_inhabit', { package: ORACLE, module: 'oracle', function: 'register_token_price', include_transactions: true });
    expect(Array.isArray(a.transactions)).toBe(true);
    await fails(client, 'run_inhabit', { package: ORACLE, module: 'oracle', function: 'no_such_function' }, 'MISSING_PACKAGE');
    const all = await ok(client, 'list_functions', { module_path: '0x2::transfer' });
    const internal = (all.functions as Obj[]).find((f) => f.visibility !== 'public' && f.is_entry !== true) as Obj;
    await fails(client, 'run_inhabit', { package: '0x2', module: 'transfer', function: String(internal.name) }, 'NOT_A_TARGET');
  }, 120_000);

  it('reaches the rest of the sandbox protocol, and the small actions', async () => {
    const enc = await ok(client, 'sandbox_request', { request: { action: 'encode_bcs', type_str: 'u64', value: 7 } });
    expect(enc).toMatchObject({ success: true, data: { bytes_hex: '0700000000000000' } });
    // Checkpoints are plain sandbox actions: the clock set after one goes back with its restore.
    expect(await ok(client, 'sandbox_request', { request: { action: 'create_checkpoint', name: 'mcp' } })).toMatchObject({ success: true, data: { name: 'mcp' } });
    expect(await ok(client, 'set_clock', { timestamp_ms: 1_700_000_000_000 })).toMatchObject({ timestamp_ms: 1_700_000_000_000 });
    expect(await ok(client, 'get_state')).toMatchObject({ timestamp_ms: 1_700_000_000_000 });
    expect(await ok(client, 'sandbox_request', { request: { action: 'restore_checkpoint', name: 'mcp' } })).toMatchObject({ success: true });
    expect(await ok(client, 'get_state')).not.toMatchObject({ timestamp_ms: 1_700_000_000_000 });
    expect(await ok(client, 'set_clock', { timestamp_ms: 1_700_000_000_000 })).toMatchObject({ timestamp_ms: 1_700_000_000_000 });
    const ctors = await ok(client, 'find_constructors', { type_path: '0x2::coin::Coin' });
    expect(ctors.count).toBeGreaterThan(0);
    const found = await ok(client, 'search_functions', { pattern: '0x1::u64::max' });
    expect(found).toMatchObject({ count: 1 });
    const caps = await ok(client, 'search_types', { pattern: '*Cap', ability_filter: ['key'] });
    expect((caps.count as number) > 0).toBe(true);
    const dis = await ok(client, 'disassemble_function', { module_path: '0x1::option', function_name: 'extract' });
    expect(String(dis.disassembly)).toMatch(/Abort/);
  });
});

describeWithFixtures('smi MCP server: the state file', ['corpus'], () => {
  it('is saved after a change and loaded by the next session', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-mcp-state-')), 'state.json');
    const first = await connectInProcess(createSmiMcpServer(options({ stateFile })));
    await ok(first, 'list_packages');
    expect(existsSync(stateFile)).toBe(false);
    const made = await ok(first, 'create_object', { object_type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: '9' } });
    expect(existsSync(stateFile)).toBe(true);
    await first.close();
    const second = await connectInProcess(createSmiMcpServer(options({ stateFile })));
    const read = await ok(second, 'read_object', { object_id: String(made.object_id) });
    expect(read.decoded).toMatchObject({ balance: { value: '9' } });
    await second.close();
  });

  it('runs calls one at a time, in the order they came', async () => {
    const client = await connectInProcess(createSmiMcpServer(options()));
    const results = await Promise.all([1, 2, 3].map((n) => call(client, 'set_clock', { timestamp_ms: n * 1000 })));
    expect(results.map((r) => (r.json as { timestamp_ms: number }).timestamp_ms)).toEqual([1000, 2000, 3000]);
    expect(await ok(client, 'get_state')).toMatchObject({ timestamp_ms: 3000 });
    await client.close();
  });
});

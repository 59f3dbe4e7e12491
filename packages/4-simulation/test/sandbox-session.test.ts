/**
 * SandboxSession: the request boundary (zod), the envelope, error categories, and the
 * fixed defects of the original (typed call arguments, struct-layout objects, real
 * effects, real type validation, BCS of any type, real test objects, persisted coins).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalAddress, deserializeModule, serializeModule } from '@smi/bytecode';
import { CLOCK_ID, fromFixtures, SANDBOX_ACTIONS, SANDBOX_ERROR_CATEGORIES, SandboxSession, type SandboxResponse, sandboxResponseJson, serializeSandboxResponse } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';

const SUI_COIN = '0x2::coin::Coin<0x2::sui::SUI>';
const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';
const COUNTER = `module demo::counter;
use sui::event;
public struct Counter has key, store { id: UID, value: u64 }
public struct Bumped has copy, drop { value: u64 }
const ETooBig: u64 = 7;
public fun new(ctx: &mut TxContext): Counter { Counter { id: object::new(ctx), value: 0 } }
public fun bump(c: &mut Counter, by: u64) { assert!(by < 100, ETooBig); c.value = c.value + by; event::emit(Bumped { value: c.value }) }
public fun value(c: &Counter): u64 { c.value }
`;

let fixtures: ReturnType<typeof fromFixtures> | undefined;
function session(): SandboxSession {
  fixtures ??= fromFixtures(FIXTURES_ROOT);
  return SandboxSession.create(fixtures);
}

type Data = Record<string, unknown>;
const data = (r: SandboxResponse): Data => r.data as Data;

function okData(r: SandboxResponse): Data {
  expect(r.error, r.error).toBeUndefined();
  expect(r.success).toBe(true);
  return data(r);
}

function failed(r: SandboxResponse, category: string): SandboxResponse {
  expect(r.success).toBe(false);
  expect(r.error_category, r.error).toBe(category);
  expect(r.error).not.toMatch(/^internal error/);
  return r;
}

describe('sandbox protocol tables', () => {
  it('has the 31 actions and 11 categories of the original, plus init_package, configure and the checkpoints', () => {
    expect(SANDBOX_ACTIONS).toHaveLength(35);
    expect(SANDBOX_ACTIONS.slice(-4)).toEqual(['init_package', 'configure', 'create_checkpoint', 'restore_checkpoint']);
    expect(SANDBOX_ERROR_CATEGORIES).toHaveLength(11);
  });

  it('omits absent fields and orders the envelope', () => {
    const json = sandboxResponseJson({ success: false, commands_succeeded: 0, error: 'x', error_category: 'ParseError' });
    expect(Object.keys(json)).toEqual(['success', 'error', 'error_category']);
    expect(serializeSandboxResponse({ success: true }, false)).toBe('{"success":true}');
  });
});

describeWithFixtures('SandboxSession', ['fixtures', 'framework'], () => {
  it('rejects malformed requests as ParseError, never throwing', async () => {
    const s = session();
    for (const bad of [null, 5, 'x', [], {}, { action: 7 }, { action: 'nope' }, { action: 'call_function' }, { action: 'set_clock', timestamp_ms: -1 }]) {
      failed(await s.handle(bad), 'ParseError');
    }
    expect((await s.handleLine('{not json')).error).toMatch(/^JSON parse error: /);
    const r = failed(await s.handle({ action: 'execute_ptb', commands: [{ type: 'split_coins', coin: { bogus: 1 }, amounts: [] }] }), 'ParseError');
    expect(r.error).toMatch(/commands\[0\]\.coin: expected an argument/);
  });

  it('every action survives garbage parameters with a categorised failure', async () => {
    const s = session();
    const junk: unknown[] = [1, 'x', null, [1, 2], { a: { b: [] } }, true, -3, '0x', '::'];
    for (const action of SANDBOX_ACTIONS) {
      for (const j of junk) {
        for (const key of [
          'package',
          'module',
          'function',
          'object_id',
          'type_str',
          'value',
          'args',
          'fields',
          'inputs',
          'commands',
          'module_path',
          'type_path',
          'pattern',
          'object_type',
          'type_tag',
          'coin_type',
          'bytes_hex',
          'timestamp_ms',
          'object_name',
          'bytecode_path',
          'source',
        ]) {
          const r = await s.handle({ action, [key]: j });
          expect(typeof r.success).toBe('boolean');
          if (!r.success) {
            expect(SANDBOX_ERROR_CATEGORIES).toContain(r.error_category);
            expect(r.error, `${action} ${key}=${JSON.stringify(j)}`).not.toMatch(/^internal error/);
          }
        }
      }
    }
  });

  it('call_function reads typed JSON arguments and decodes returns', async () => {
    const s = session();
    const r = await s.handle({ action: 'call_function', package: '0x1', module: 'vector', function: 'length', type_args: ['u8'], args: ['0x010203'] });
    const d = okData(r);
    expect(d.returns).toEqual([{ type: 'u64', bcs: '0300000000000000', value: '3' }]);
    expect(d.return_values).toEqual([[3, 0, 0, 0, 0, 0, 0, 0]]);
    expect(r.gas_used).toBeGreaterThan(0);
    expect(r.effects?.return_values?.[0].decoded).toEqual(['3']);
    const s2 = okData(await s.handle({ action: 'call_function', package: '0x1', module: 'string', function: 'length', args: ['héllo'] }));
    expect((s2.returns as { value: string }[])[0].value).toBe('6');
    failed(await s.handle({ action: 'call_function', package: '0x1', module: 'u8', function: 'max', args: [300, 1] }), 'TypeMismatch');
    failed(await s.handle({ action: 'call_function', package: '0x1', module: 'nope', function: 'f', args: [] }), 'MissingPackage');
    const abort = failed(await s.handle({ action: 'call_function', package: '0x1', module: 'option', function: 'extract', type_args: ['u64'], args: [null] }), 'ContractAbort');
    expect(abort.abort_code).toBe(262145);
    expect(abort.abort_module).toBe('option::extract');
    expect(abort.failed_command_index).toBe(0);
    expect(abort.failed_command_description).toBe('MoveCall 0x1::option::extract<u64> (1 args)');
  });

  it('create_object encodes fields by the struct layout; inspect/list show real versions and digests', async () => {
    const s = session();
    const c = okData(await s.handle({ action: 'create_object', object_type: SUI_COIN, fields: { balance: '1000' } }));
    const id = c.object_id as string;
    const view = s.env.getObject(id);
    expect(c.digest).toBe(view?.digest);
    const o = okData(await s.handle({ action: 'inspect_object', object_id: id }));
    expect(o.decoded).toEqual({ id: { id: { bytes: id } }, balance: { value: '1000' } });
    expect(o.bcs_bytes_len).toBe(40);
    expect(o.ownership).toBe('owned');
    const shared = okData(await s.handle({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 1 }, is_shared: true }));
    expect(shared.ownership).toBe('shared');
    const list = okData(await s.handle({ action: 'list_objects' }));
    expect((list.objects as { object_id: string }[]).map((x) => x.object_id)).toContain(id);
    failed(await s.handle({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 'lots' } }), 'ObjectCreationError');
    failed(await s.handle({ action: 'create_object', object_type: '0x2::nope::X', fields: {} }), 'TypeMismatch');
    failed(await s.handle({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 1 }, object_id: id }), 'ObjectCreationError');
    failed(await s.handle({ action: 'inspect_object', object_id: '0x1234' }), 'MissingObject');
  });

  it('create_test_object makes real objects (zero value or given value) or fails clearly', async () => {
    const s = session();
    const z = okData(await s.handle({ action: 'create_test_object', type_tag: SUI_COIN }));
    expect(z.value).toEqual({ id: { id: { bytes: z.object_id } }, balance: { value: '0' } });
    const v = okData(await s.handle({ action: 'create_test_object', type_tag: SUI_COIN, value: { balance: 77 }, owner: 'immutable' }));
    expect(s.env.getObject(v.object_id as string)?.owner).toEqual({ $kind: 'Immutable' });
    const bad = failed(await s.handle({ action: 'create_test_object', type_tag: '0x1::string::String', value: {} }), 'ObjectCreationError');
    expect(bad.error).toMatch(/key/);
    failed(await s.handle({ action: 'create_test_object', type_tag: 'u64', value: 1 }), 'ObjectCreationError');
  });

  it('validate_type resolves against loaded packages; encode/decode take any type', async () => {
    const s = session();
    expect(okData(await s.handle({ action: 'validate_type', type_str: 'vector<0x2::coin::Coin<0x2::sui::SUI>>' }))).toMatchObject({ valid: true, kind: 'vector', abilities: ['store'] });
    for (const t of ['0x2::coin::Coin', '0x2::nope::X', '0x99::m::S', 'u7', 'vector<']) {
      const d = okData(await s.handle({ action: 'validate_type', type_str: t }));
      expect(d.valid, t).toBe(false);
      expect(d.error).toBeTruthy();
    }
    const cases: [string, unknown, string][] = [
      ['u8', 255, 'ff'],
      ['u256', '1', '01' + '00'.repeat(31)],
      ['bool', true, '01'],
      ['address', '0x2', '00'.repeat(31) + '02'],
      ['vector<u8>', [1, 2], '020102'],
      ['0x1::string::String', 'hi', '026869'],
      ['0x1::option::Option<u64>', null, '00'],
      ['vector<vector<bool>>', [[true], []], '02010100'],
      [SUI_COIN, { id: '0x5', balance: 9 }, '00'.repeat(31) + '05' + '0900000000000000'],
    ];
    for (const [type, value, hex] of cases) {
      const e = okData(await s.handle({ action: 'encode_bcs', type_str: type, value }));
      expect(e.bytes_hex, type).toBe(hex);
      const d = okData(await s.handle({ action: 'decode_bcs', type_str: type, bytes_hex: `0x${hex}` }));
      const again = okData(await s.handle({ action: 'encode_bcs', type_str: type, value: d.value }));
      expect(again.bytes_hex, type).toBe(hex);
    }
    failed(await s.handle({ action: 'encode_bcs', type_str: 'u8', value: 256 }), 'TypeMismatch');
    failed(await s.handle({ action: 'decode_bcs', type_str: 'u64', bytes_hex: '01' }), 'DeserializationFailed');
    failed(await s.handle({ action: 'decode_bcs', type_str: 'u8', bytes_hex: '0102' }), 'DeserializationFailed');
    failed(await s.handle({ action: 'decode_bcs', type_str: 'u8', bytes_hex: 'xyz' }), 'ParseError');
  });

  it('introspects the loaded packages from their bytecode', async () => {
    const s = session();
    const mods = okData(await s.handle({ action: 'list_modules', package: '0x1' }));
    expect(mods.modules).toContain(`${canonicalAddress('0x1')}::vector`);
    const fns = okData(await s.handle({ action: 'list_functions', module_path: '0x2::coin' }));
    expect(fns.functions).toContain('split');
    expect(okData(await s.handle({ action: 'list_structs', module_path: '0x2::coin' })).structs).toContain('TreasuryCap');
    const info = okData(await s.handle({ action: 'get_function_info', module_path: '0x2::coin', function_name: 'split' }));
    expect(info).toMatchObject({ visibility: 'public', is_entry: false, type_params: [{ name: 'T0', constraints: [] }] });
    expect(info.params).toEqual([`&mut ${canonicalAddress('0x2')}::coin::Coin<T0>`, 'u64', `&mut ${canonicalAddress('0x2')}::tx_context::TxContext`]);
    const ctors = okData(await s.handle({ action: 'find_constructors', type_path: '0x2::balance::Balance<0x2::sui::SUI>' }));
    expect((ctors.constructors as { name: string }[]).map((c) => c.name)).toContain('zero');
    const types = okData(await s.handle({ action: 'search_types', pattern: '0x2::coin::*', ability_filter: ['key', 'store'] }));
    expect(types.matches).toContain(`${canonicalAddress('0x2')}::coin::Coin`);
    expect((types.matches as string[]).every((m) => m.includes('::coin::'))).toBe(true);
    const clocks = okData(await s.handle({ action: 'search_types', pattern: 'clock::*', ability_filter: 'key' }));
    expect(clocks.matches).toEqual([`${canonicalAddress('0x2')}::clock::Clock`]);
    const entry = okData(await s.handle({ action: 'search_functions', pattern: '*::pay::*', entry_only: true }));
    expect((entry.matches as string[]).length).toBeGreaterThan(0);
    const st = okData(await s.handle({ action: 'inspect_struct', package: '0x2', module: 'coin', struct_name: 'Coin' }));
    expect(st.structs).toEqual([
      {
        package: canonicalAddress('0x2'),
        module: 'coin',
        name: 'Coin',
        abilities: ['store', 'key'],
        type_params: [{ name: 'T0', constraints: [], is_phantom: true }],
        fields: [
          { name: 'id', field_type: `${canonicalAddress('0x2')}::object::UID` },
          { name: 'balance', field_type: `${canonicalAddress('0x2')}::balance::Balance<T0>` },
        ],
      },
    ]);
    const si = okData(await s.handle({ action: 'get_struct_info', type_path: '0x2::coin::Coin<0x2::sui::SUI>' }));
    expect(si.is_object).toBe(true);
    expect((si.instantiation as { fields: { type_str: string }[] }).fields[1].type_str).toBe(`${canonicalAddress('0x2')}::balance::Balance<${canonicalAddress('0x2')}::sui::SUI>`);
    const dis = okData(await s.handle({ action: 'disassemble_function', module_path: '0x1::u64', function_name: 'max' }));
    expect(dis.disassembly).toMatch(/^public max\(Arg0: u64, Arg1: u64\): u64 \{/);
    const sys = okData(await s.handle({ action: 'get_system_object_info', object_name: 'clock' }));
    expect(sys).toMatchObject({ id: CLOCK_ID, short_id: '0x6', exists: true, fields: [{ name: 'id' }, { name: 'timestamp_ms', type: 'u64' }] });
    failed(await s.handle({ action: 'list_functions', module_path: '0x2::nope' }), 'MissingPackage');
    failed(await s.handle({ action: 'list_functions', module_path: 'coin' }), 'ParseError');
    failed(await s.handle({ action: 'get_function_info', module_path: '0x2::coin', function_name: 'nope' }), 'MissingPackage');
    failed(await s.handle({ action: 'disassemble_function', module_path: '0x2::coin', function_name: 'nope' }), 'MissingPackage');
    failed(await s.handle({ action: 'get_struct_info', type_path: '0x2::coin::Nope' }), 'TypeMismatch');
    failed(await s.handle({ action: 'search_types', pattern: '*', ability_filter: 'flying' }), 'ParseError');
    failed(await s.handle({ action: 'get_system_object_info', object_name: 'moon' }), 'ParseError');
    failed(await s.handle({ action: 'inspect_struct', package: '0x999' }), 'MissingPackage');
  });

  it('clock, state and reset', async () => {
    const s = session();
    expect(okData(await s.handle({ action: 'get_time' }))).toMatchObject({ timestamp_ms: 1704067200000, datetime_approx: '2024-01-01T00:00:00.000Z' });
    const set = okData(await s.handle({ action: 'set_time', timestamp_ms: '1800000000000' }));
    expect(set.timestamp_ms).toBe(1800000000000);
    const read = okData(await s.handle({ action: 'call_function', package: '0x2', module: 'clock', function: 'timestamp_ms', args: [CLOCK_ID] }));
    expect((read.returns as { value: string }[])[0].value).toBe('1800000000000');
    okData(await s.handle({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 1 } }));
    const before = okData(await s.handle({ action: 'get_state' }));
    expect(before.timestamp_ms).toBe(1800000000000);
    okData(await s.handle({ action: 'reset' }));
    const after = okData(await s.handle({ action: 'get_state' }));
    expect(after.object_count).toBe((before.object_count as number) - 1);
    expect(after.timestamp_ms).toBe(1704067200000);
  });

  it('coins: register persists as a real CoinMetadata object; SUI is built in', async () => {
    const s = session();
    // SUI's metadata is the frozen CoinMetadata<SUI> genesis made (`sui::new`), as on chain.
    const sui = okData(await s.handle({ action: 'get_coin_metadata', coin_type: '0x2::sui::SUI' }));
    expect(sui).toMatchObject({ decimals: 9, symbol: 'SUI', name: 'Sui' });
    expect(okData(await s.handle({ action: 'inspect_object', object_id: sui.object_id as string }))).toMatchObject({ version: 1, ownership: 'immutable' });
    const reg = okData(await s.handle({ action: 'register_coin', coin_type: '0x2::sui::SUI', decimals: 6, symbol: 'XS', name: 'Ex' }));
    expect(reg.metadata_object_id).toBe(sui.object_id);
    expect(reg.version).toBe(2);
    const again = okData(await s.handle({ action: 'register_coin', coin_type: '0x2::sui::SUI', decimals: 7, symbol: 'XS', name: 'Ex' }));
    expect(again.metadata_object_id).toBe(reg.metadata_object_id);
    expect(again.version).toBe(3);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-sandbox-'));
    s.saveState(path.join(dir, 'state.json'));
    const t = session();
    t.loadState(path.join(dir, 'state.json'));
    expect(okData(await t.handle({ action: 'get_coin_metadata', coin_type: '0x2::sui::SUI' }))).toMatchObject({ decimals: 7, name: 'Ex' });
    expect(okData(await t.handle({ action: 'list_coins' })).count).toBe(1);
    failed(await t.handle({ action: 'get_coin_metadata', coin_type: '0x1::string::String' }), 'MissingObject');
    failed(await t.handle({ action: 'register_coin', coin_type: '0x2::nope::N', decimals: 1, symbol: 'N', name: 'N' }), 'TypeMismatch');
    failed(await t.handle({ action: 'register_coin', coin_type: '0x2::sui::SUI', decimals: 1, symbol: 'é', name: 'N' }), 'ObjectCreationError');
  });

  it('load_module: own-address bytecode loads, 0x0 bytecode publishes (init runs)', async () => {
    const s = session();
    const corpus = okData(await s.handle({ action: 'load_module', bytecode_path: fixturePath('corpus', ORACLE) }));
    expect(corpus).toMatchObject({ package_address: ORACLE, module_names: ['oracle'], published: false });
    expect(okData(await s.handle({ action: 'list_functions', module_path: `${ORACLE}::oracle` })).count).toBeGreaterThan(0);
    failed(await s.handle({ action: 'load_module', bytecode_path: '/nonexistent/dir' }), 'DeploymentError');
    failed(await s.handle({ action: 'load_module', bytecode_path: fixturePath('corpus', ORACLE), module_name: 'zzz' }), 'DeploymentError');
  });

  it('compile_move publishes; its modules at 0x0 publish again through load_module and execute_ptb', async () => {
    const s = session();
    const c = okData(await s.handle({ action: 'compile_move', package_name: 'demo', module_name: 'counter', source: COUNTER }));
    expect(c).toMatchObject({ success: true, compiled: true, deployed: true });
    const pkg = c.package_id as string;
    const broken = failed(await s.handle({ action: 'compile_move', package_name: 'demo', module_name: 'broken', source: 'module demo::broken; public fun f(): u64 { true }' }), 'CompilationError');
    expect((broken.data as Data).diagnostics).toMatch(/E04007/);
    // The published bytes with the self address set back to 0x0: a fresh publish.
    const mod = deserializeModule(Buffer.from((c.modules as { bytecode_base64: string }[])[0].bytecode_base64, 'base64'));
    mod.addressIdentifiers = mod.addressIdentifiers.map((a) => (a === pkg ? canonicalAddress('0x0') : a));
    const zero = serializeModule(mod);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-sandbox-'));
    writeFileSync(path.join(dir, 'counter.mv'), zero);
    const loaded = okData(await s.handle({ action: 'load_module', bytecode_path: dir }));
    expect(loaded.published).toBe(true);
    expect(loaded.package_address).not.toBe(pkg);
    const pub = await s.handle({
      action: 'execute_ptb',
      inputs: [{ type: 'pure', value: '0xa11ce', value_type: 'address' }],
      commands: [
        { type: 'publish', modules: [Buffer.from(zero).toString('base64')] },
        { type: 'transfer_objects', objects: [{ result: 0 }], recipient: 0 },
      ],
    });
    expect(pub.success, pub.error).toBe(true);
    expect(pub.effects?.created.some((o) => o.object_type?.endsWith('::package::UpgradeCap'))).toBe(true);
  });
});

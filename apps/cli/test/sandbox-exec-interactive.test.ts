/**
 * `smi sandbox-exec --interactive` as a real child process: every action of the protocol
 * once with a good request and once with a bad one, a line that is not JSON mid-session,
 * blank lines, the state file after the session, and a `kill -9` in the middle of a long
 * session leaving a state file that loads.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { fromFixtures, SANDBOX_ACTIONS, SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { requireBuiltCli, type Response, runSmi, Session } from './sandbox-exec-helpers.js';

const SUI_COIN = '0x2::coin::Coin<0x2::sui::SUI>';
const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';
const MODULE = `module demo::box;
public struct Box has key, store { id: UID, value: u64 }
public fun new(value: u64, ctx: &mut TxContext): Box { Box { id: object::new(ctx), value } }
public fun value(b: &Box): u64 { b.value }
`;

function tmp(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'smi-sandbox-cli-'));
}

describeWithFixtures('smi sandbox-exec --interactive', ['fixtures', 'framework'], () => {
  beforeAll(() => requireBuiltCli());

  it('answers every action (good and bad requests), survives a non-JSON line, saves the state', async () => {
    const dir = tmp();
    const stateFile = path.join(dir, 'state.json');
    const s = new Session(['--state-file', stateFile]);
    const seen = new Set<string>();
    const good = async (req: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const r = await s.ask(req);
      expect(r.success, `${String(req.action)}: ${r.error}`).toBe(true);
      seen.add(String(req.action));
      return (r.data ?? {}) as Record<string, unknown>;
    };
    const bad = async (req: Record<string, unknown>, category: string): Promise<Response> => {
      const r = await s.ask(req);
      expect(r.success, String(req.action)).toBe(false);
      expect(r.error_category, `${String(req.action)}: ${r.error}`).toBe(category);
      expect(r.error).not.toMatch(/internal error/);
      return r;
    };

    // Packages
    expect(await good({ action: 'load_module', bytecode_path: fixturePath('corpus', ORACLE) })).toMatchObject({ package_address: ORACLE });
    await bad({ action: 'load_module', bytecode_path: path.join(dir, 'none') }, 'DeploymentError');
    const compiled = await good({ action: 'compile_move', package_name: 'demo', module_name: 'box', source: MODULE });
    const pkg = compiled.package_id as string;
    await bad({ action: 'compile_move', package_name: 'demo', module_name: 'oops', source: 'module demo::oops; fun f( {}' }, 'CompilationError');

    // A ParseError line and blank lines in the middle change nothing.
    s.write('\n   \n');
    const parse = await s.ask('this is not json {');
    expect(parse).toEqual({ success: false, error: expect.stringMatching(/^JSON parse error: /) as string, error_category: 'ParseError' });

    // Objects
    const coin = (await good({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 1000 } })).object_id as string;
    await bad({ action: 'create_object', object_type: SUI_COIN, fields: { balance: [1] } }, 'ObjectCreationError');
    const test = await good({ action: 'create_test_object', type_tag: `${pkg}::box::Box`, value: { value: 42 } });
    await bad({ action: 'create_test_object', type_tag: 'u64' }, 'ObjectCreationError');
    expect(((await good({ action: 'inspect_object', object_id: test.object_id })).decoded as { value: string }).value).toBe('42');
    await bad({ action: 'inspect_object', object_id: '0xabc' }, 'MissingObject');
    expect((await good({ action: 'list_objects' })).count).toBeGreaterThanOrEqual(6);
    await bad({ action: 'list_objects', include_packages: 'yes' }, 'ParseError');

    // Transactions
    const ptb = await s.ask({
      action: 'execute_ptb',
      inputs: [
        { type: 'object', object_id: coin },
        { type: 'pure', value: 10, value_type: 'u64' },
        { type: 'pure', value: 5, value_type: 'u64' },
      ],
      commands: [
        { type: 'split_coins', coin: 0, amounts: [1] },
        { type: 'transfer_objects', objects: [{ result: 0 }], recipient: '0xb0b' },
        { type: 'move_call', package: pkg, module: 'box', function: 'new', args: [2] },
        { type: 'move_call', package: pkg, module: 'box', function: 'value', args: [{ result: 2 }] },
        { type: 'transfer_objects', objects: [{ result: 2 }], recipient: '0xb0b' },
      ],
    });
    expect(ptb.success, ptb.error).toBe(true);
    seen.add('execute_ptb');
    const effects = ptb.effects as { created: { version: number }[]; mutated: { id: string; version: number }[]; return_values: { decoded: unknown[] }[] };
    expect(effects.created).toHaveLength(2);
    expect(effects.mutated[0]).toMatchObject({ id: coin, version: 2 });
    expect(effects.return_values.at(-1)?.decoded).toEqual(['5']);
    await bad({ action: 'execute_ptb', inputs: [{ type: 'object', object_id: '0xdead' }], commands: [] }, 'MissingObject');
    expect((await good({ action: 'call_function', package: pkg, module: 'box', function: 'value', args: [test.object_id] })).returns).toEqual([{ type: 'u64', bcs: '2a00000000000000', value: '42' }]);
    const abort = await bad({ action: 'call_function', package: '0x1', module: 'option', function: 'destroy_some', type_args: ['u8'], args: [null] }, 'ContractAbort');
    expect(abort).toMatchObject({ abort_code: 262145, abort_module: 'option::destroy_some', failed_command_index: 0 });

    // Clock and state
    expect((await good({ action: 'get_clock' })).timestamp_ms).toBe(1704067200000);
    expect((await good({ action: 'set_clock', timestamp_ms: 1750000000000 })).timestamp_ms).toBe(1750000000000);
    expect((await good({ action: 'get_time' })).timestamp_ms).toBe(1750000000000);
    expect((await good({ action: 'set_time', timestamp_ms: '1760000000000' })).timestamp_ms).toBe(1760000000000);
    await bad({ action: 'set_clock', timestamp_ms: 'soon' }, 'ParseError');
    await bad({ action: 'set_time' }, 'ParseError');
    await bad({ action: 'get_clok' }, 'ParseError');
    await bad({ action: 'get_time ' }, 'ParseError');
    expect((await good({ action: 'get_state' })).timestamp_ms).toBe(1760000000000);
    await bad({ action: 'get_states' }, 'ParseError');

    // Coins
    expect(await good({ action: 'register_coin', coin_type: `${pkg}::box::Box`, decimals: 3, symbol: 'BOX', name: 'Box coin' })).toMatchObject({ decimals: 3 });
    await bad({ action: 'register_coin', coin_type: '0x2::sui::SUI', decimals: 300, symbol: 'S', name: 'S' }, 'ParseError');
    expect(await good({ action: 'get_coin_metadata', coin_type: `${pkg}::box::Box` })).toMatchObject({ symbol: 'BOX', name: 'Box coin' });
    await bad({ action: 'get_coin_metadata', coin_type: '0x1::string::String' }, 'MissingObject');
    expect((await good({ action: 'list_coins' })).count).toBe(2);
    await bad({ action: 'list_coin' }, 'ParseError');

    // Introspection
    expect((await good({ action: 'list_modules' })).modules).toContain(`${pkg}::box`);
    await bad({ action: 'list_modules', package: '0x999' }, 'MissingPackage');
    expect((await good({ action: 'list_functions', module_path: `${pkg}::box` })).functions).toEqual(['new', 'value']);
    await bad({ action: 'list_functions', module_path: '0x2::nope' }, 'MissingPackage');
    expect((await good({ action: 'list_structs', module_path: `${pkg}::box` })).structs).toEqual(['Box']);
    await bad({ action: 'list_structs', module_path: 'box' }, 'ParseError');
    expect(await good({ action: 'get_function_info', module_path: `${pkg}::box`, function_name: 'new' })).toMatchObject({
      params: ['u64', `&mut ${canonicalAddress('0x2')}::tx_context::TxContext`],
      returns: [`${pkg}::box::Box`],
    });
    await bad({ action: 'get_function_info', module_path: `${pkg}::box`, function_name: 'old' }, 'MissingPackage');
    expect((await good({ action: 'find_constructors', type_path: `${pkg}::box::Box` })).count).toBe(1);
    await bad({ action: 'find_constructors', type_path: 'Box' }, 'ParseError');
    expect((await good({ action: 'search_types', pattern: '*::box::*', ability_filter: 'key' })).matches).toEqual([`${pkg}::box::Box`]);
    await bad({ action: 'search_types', pattern: '*', ability_filter: 'teleport' }, 'ParseError');
    expect((await good({ action: 'search_functions', pattern: 'box::*' })).count).toBe(2);
    await bad({ action: 'search_functions', pattern: '*', entry_only: 'yes' }, 'ParseError');
    expect((await good({ action: 'inspect_struct', package: pkg })).count).toBe(1);
    await bad({ action: 'inspect_struct', package: '0x999' }, 'MissingPackage');
    expect((await good({ action: 'get_struct_info', type_path: `${pkg}::box::Box` })).is_object).toBe(true);
    await bad({ action: 'get_struct_info', type_path: `${pkg}::box::Crate` }, 'TypeMismatch');
    expect((await good({ action: 'disassemble_function', module_path: `${pkg}::box`, function_name: 'value' })).disassembly).toMatch(/ImmBorrowField/);
    await bad({ action: 'disassemble_function', module_path: `${pkg}::box`, function_name: 'nope' }, 'MissingPackage');
    expect(await good({ action: 'get_system_object_info', object_name: 'random' })).toMatchObject({ short_id: '0x8', exists: true });
    await bad({ action: 'get_system_object_info', object_name: 'sun' }, 'ParseError');

    // Types and BCS
    expect(await good({ action: 'validate_type', type_str: `vector<${pkg}::box::Box>` })).toMatchObject({ valid: true, kind: 'vector' });
    await bad({ action: 'validate_type' }, 'ParseError');
    expect((await good({ action: 'encode_bcs', type_str: `${pkg}::box::Box`, value: { id: '0x1', value: 1 } })).bytes_len).toBe(40);
    await bad({ action: 'encode_bcs', type_str: 'u16', value: 70000 }, 'TypeMismatch');
    expect((await good({ action: 'decode_bcs', type_str: 'vector<u16>', bytes_hex: '0201000200' })).value).toEqual([1, 2]);
    await bad({ action: 'decode_bcs', type_str: 'vector<u16>', bytes_hex: '05' }, 'DeserializationFailed');

    // Settings and inits (actions the original lacked).
    expect(await good({ action: 'configure', gas_budget: '2000000000', random_seed: `0x${'11'.repeat(32)}` })).toMatchObject({ gas_budget: 2000000000, random_seed: `0x${'11'.repeat(32)}` });
    await bad({ action: 'configure', random_seed: '0x12' }, 'ParseError');
    const init = await s.ask({ action: 'init_package', package: pkg });
    expect(init.success, init.error).toBe(true);
    seen.add('init_package');
    await bad({ action: 'init_package', package: '0x999' }, 'MissingPackage');

    // Checkpoints: what a restore undoes is gone, and the same request then gets the same id.
    const objects = (await good({ action: 'create_checkpoint', name: 'before-coin' })).objects as number;
    await bad({ action: 'create_checkpoint', name: 7 }, 'ParseError');
    const made = (await good({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 9 } })).object_id as string;
    expect(await good({ action: 'restore_checkpoint', name: 'before-coin' })).toEqual({ name: 'before-coin', objects });
    await bad({ action: 'inspect_object', object_id: made }, 'MissingObject');
    expect((await good({ action: 'create_object', object_type: SUI_COIN, fields: { balance: 9 } })).object_id).toBe(made);
    expect((await bad({ action: 'restore_checkpoint', name: 'later' }, 'ExecutionError')).error).toBe('no checkpoint named "later" (checkpoints: before-coin)');

    // Reset last: everything but the base packages goes.
    await bad({ action: 'reset', keep_packages: 'no' }, 'ParseError');
    expect(await good({ action: 'reset', keep_packages: true })).toMatchObject({ reset: true });
    expect((await good({ action: 'list_modules' })).modules).toContain(`${pkg}::box`);
    await good({ action: 'reset' });
    expect((await good({ action: 'list_modules' })).modules).not.toContain(`${pkg}::box`);

    expect([...seen].sort()).toEqual([...SANDBOX_ACTIONS].sort());
    const exit = await s.end();
    expect(exit.code).toBe(0);
    expect(s.stderr).toBe('');
    // Every non-blank line was answered, one compact JSON line each.
    expect(s.lines.every((l) => !l.includes('\n') && JSON.parse(l) !== null)).toBe(true);
    // The state after the last request (a reset) is on disk and loads.
    expect(existsSync(stateFile)).toBe(true);
    const env = SimulationEnvironment.create(fromFixtures(FIXTURES_ROOT));
    env.loadState(stateFile);
    expect(env.vm.packageById(pkg)).toBeUndefined();
  });

  it('a reader that closes the pipe ends the session quietly', async () => {
    const s = new Session([]);
    expect((await s.ask({ action: 'get_clock' })).success).toBe(true);
    s.child.stdout.destroy();
    s.write(`${JSON.stringify({ action: 'get_clock' })}\n`.repeat(200));
    const exit = await s.end();
    // 141 = 128 + SIGPIPE, the status of any program whose reader went away.
    expect(exit.code).toBe(141);
    expect(s.stderr).not.toMatch(/EPIPE|Error/);
  });

  it('kill -9 in the middle of a long session leaves a state file that loads with every answered request', async () => {
    const dir = tmp();
    const stateFile = path.join(dir, 'state.json');
    const s = new Session(['--state-file', stateFile]);
    const total = 400;
    const requests: string[] = [];
    for (let i = 0; i < total; i++) {
      requests.push(
        i % 2 === 0 ? JSON.stringify({ action: 'create_object', object_type: SUI_COIN, fields: { balance: i } }) : JSON.stringify({ action: 'set_clock', timestamp_ms: 1_704_067_200_000 + i }),
      );
    }
    s.write(requests.join('\n') + '\n');
    await s.waitFor(60);
    s.child.kill('SIGKILL');
    const exit = await s.exited;
    expect(exit.signal).toBe('SIGKILL');
    const answered = s.lines.length;
    expect(answered).toBeLessThan(total);
    const created = s.lines.filter((l) => (JSON.parse(l) as Response).data?.object_id !== undefined).length;
    // The file is whole JSON, and a new process starts from it.
    expect(() => JSON.parse(readFileSync(stateFile, 'utf8')) as unknown).not.toThrow();
    const r = await runSmi(['sandbox-exec', '--state-file', stateFile, '--no-save-state'], JSON.stringify({ action: 'get_state' }));
    expect(r.code, r.stderr).toBe(0);
    const state = JSON.parse(r.stdout) as Response;
    expect(state.success).toBe(true);
    // Saved before answering: every answered creation is there (plus at most one in flight).
    const fresh = JSON.parse((await runSmi(['sandbox-exec'], JSON.stringify({ action: 'get_state' }))).stdout) as Response;
    const added = (state.data?.object_count as number) - (fresh.data?.object_count as number);
    expect(added).toBeGreaterThanOrEqual(created);
    expect(added).toBeLessThanOrEqual(created + 1);
  });
});

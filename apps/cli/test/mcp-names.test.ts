/**
 * The MCP tools that have a `smi sandbox-exec` counterpart name their arguments as the
 * sandbox's action does (the original's snake_case names: `object_type`, `type_path`,
 * `ability_filter`, `module_path`, `function_name`, ...), read from `tools/list` of the
 * built `smi mcp`, and the same request works through both.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { requireBuiltCli, runSmi } from './support/spawn-cli.js';

type Obj = Record<string, unknown>;

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const lines = (...messages: unknown[]): string => messages.map((m) => JSON.stringify(m)).join('\n') + '\n';

/**
 * MCP tool → its sandbox-exec action and that action's parameters (the original's names;
 * README of @smi/simulation), and the arguments only the MCP tool has.
 */
const COUNTERPARTS: Record<string, { action: string; params: string[]; mcpOnly?: string[] }> = {
  create_object: { action: 'create_object', params: ['object_type', 'fields', 'object_id', 'owner', 'is_shared'] },
  call_function: { action: 'call_function', params: ['package', 'module', 'function', 'type_args', 'args', 'sender', 'gas_budget', 'gas_coin', 'checks'] },
  execute_ptb: { action: 'execute_ptb', params: ['inputs', 'commands', 'sender', 'gas_budget', 'gas_coin', 'checks'] },
  read_object: { action: 'inspect_object', params: ['object_id', 'version'] },
  list_objects: { action: 'list_objects', params: ['include_packages'] },
  set_clock: { action: 'set_clock', params: ['timestamp_ms'] },
  get_state: { action: 'get_state', params: [] },
  list_modules: { action: 'list_modules', params: ['package'] },
  list_functions: { action: 'list_functions', params: ['module_path'], mcpOnly: ['callable_only'] },
  list_structs: { action: 'list_structs', params: ['module_path'] },
  find_constructors: { action: 'find_constructors', params: ['type_path'] },
  search_functions: { action: 'search_functions', params: ['pattern', 'entry_only'] },
  search_types: { action: 'search_types', params: ['pattern', 'ability_filter'] },
  disassemble_function: { action: 'disassemble_function', params: ['module_path', 'function_name'] },
  compile_and_publish: { action: 'compile_move', params: ['package_name', 'module_name', 'source', 'extra_sources'] },
};

interface Tool {
  name: string;
  inputSchema: { properties?: Record<string, Obj> };
}

describeWithFixtures('smi mcp and smi sandbox-exec: the same names for the same arguments', ['fixtures', 'framework'], () => {
  let tools: Map<string, Tool>;
  beforeAll(async () => {
    requireBuiltCli();
    const r = await runSmi(['mcp'], { stdin: lines(INIT, INITIALIZED, { jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(r.code, r.stderr).toBe(0);
    const list = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Obj)
      .find((m) => m.id === 2);
    if (list === undefined) throw new Error(`no tools/list answer: ${r.stdout}`);
    tools = new Map((list.result as { tools: Tool[] }).tools.map((t) => [t.name, t]));
  }, 60_000);

  it.each(Object.entries(COUNTERPARTS))('%s takes the names of sandbox-exec %s', (tool, { params, mcpOnly = [] }) => {
    const schema = tools.get(tool);
    expect(schema, `MCP tool ${tool}`).toBeDefined();
    const names = Object.keys(schema?.inputSchema.properties ?? {});
    expect(names.filter((n) => !params.includes(n) && !mcpOnly.includes(n))).toEqual([]);
  });

  it('a move_call command takes package, module and function as the sandbox does (or target)', () => {
    const schema = JSON.stringify(tools.get('execute_ptb')?.inputSchema);
    for (const name of ['"package"', '"module"', '"function"', '"target"']) expect(schema).toContain(name);
  });

  it('the same create_object arguments work through both', async () => {
    const request = { object_type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: '5' } };
    const full = '0x0000000000000000000000000000000000000000000000000000000000000002::coin::Coin<0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI>';
    const viaExec = await runSmi(['sandbox-exec', '--json'], JSON.stringify({ action: 'create_object', ...request }));
    expect(viaExec.code, viaExec.stderr).toBe(0);
    expect(JSON.parse(viaExec.stdout)).toMatchObject({ success: true, data: { object_type: full } });
    const viaMcp = await runSmi(['mcp'], { stdin: lines(INIT, INITIALIZED, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_object', arguments: request } }) });
    expect(viaMcp.code, viaMcp.stderr).toBe(0);
    const answer = viaMcp.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Obj)
      .find((m) => m.id === 2)?.result as { content: { text: string }[]; isError?: boolean };
    expect(answer.isError, answer.content[0].text).not.toBe(true);
    expect(JSON.parse(answer.content[0].text)).toMatchObject({ object_type: full });
  }, 60_000);
});

// An MCP client talking to `smi mcp` over stdio, as an agent's host would: list the tools,
// read a corpus package, call a function, run a PTB that creates an object and read it back,
// and ask Tier A/B about one function. From the repo root, after `pnpm build`:
//   node packages/7-mcp/examples/stdio-client.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = fileURLToPath(new URL('../../../apps/cli/dist/cli.js', import.meta.url));
const fixtures = path.resolve(process.env.SMI_FIXTURES ?? '../shared');
const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, 'mcp', '--corpus', path.join(fixtures, 'corpus')],
  env: { ...getDefaultEnvironment(), SMI_FIXTURES: fixtures },
  stderr: 'inherit', // the server's logs; its stdout carries the protocol only
});
const client = new Client({ name: 'smi-example', version: '1.0.0' });
await client.connect(transport);

/** Call a tool and give its JSON back (a failed call throws its {error_code, message}). */
async function tool(name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  const json = JSON.parse(r.content[0].text);
  if (r.isError) throw new Error(`${name}: ${json.error_code}: ${json.message}`);
  return json;
}

const { tools } = await client.listTools();
console.log(`${tools.length} tools:`, tools.map((t) => t.name).join(', '));

const fns = await tool('list_functions', { package: ORACLE, module: 'oracle', callable_only: true });
console.log('oracle functions:', fns.functions.map((f) => `${f.name}(${f.params.length})`).join(', '));

const max = await tool('call_function', { package: '0x1', module: 'u64', function: 'max', args: [3, 7] });
console.log('0x1::u64::max(3, 7) =', max.return_values[0].value, `(${max.status}, gas ${max.gas_used})`);

const abort = await tool('call_function', { package: '0x1', module: 'option', function: 'extract', type_args: ['u64'], args: [null] });
console.log('option::extract(none):', abort.status, abort.abort_code, 'at', abort.abort_location);

const ptb = await tool('execute_ptb', {
  inputs: [
    { type: 'gas', budget: 1000 },
    { type: 'pure', value: 250, value_type: 'u64' },
    { type: 'pure', value: '0xb0b', value_type: 'address' },
  ],
  commands: [
    { type: 'split_coins', coin: 0, amounts: [1] },
    { type: 'transfer_objects', objects: [{ nested_result: [0, 0] }], recipient: { input: 2 } },
  ],
});
const coin = ptb.effects.created.find((c) => c.owner.endsWith('0b0b'));
const read = await tool('read_object', { object_id: coin.id });
console.log('split coin', coin.id, 'owned by', read.owner.address, 'holds', read.decoded.balance.value, 'MIST');

const row = await tool('run_inhabit', { package: ORACLE, module: 'oracle', function: 'register_token_price' });
console.log('run_inhabit oracle::register_token_price:', row.status, row.tier_a_details?.resolved_params.join(', '));

await client.close();

// @smi/mcp: the MCP server on a fresh simulation, over an in-memory transport: list the tools
// and call a function, as an agent's host would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createSmiMcpServer } from '@smi/mcp';
import { fromFixtures } from '@smi/simulation';
import { check, done, fixture } from './fixtures.mjs';

const { packages: framework, protocolConfig } = fromFixtures(fixture());
const server = createSmiMcpServer({ framework, protocolConfig });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'smi-install-test', version: '1.0.0' });
await client.connect(clientSide);
const { tools } = await client.listTools();
check(
  tools.some((t) => t.name === 'call_function'),
  'call_function is a tool',
);
const r = await client.callTool({ name: 'call_function', arguments: { package: '0x1', module: 'u64', function: 'max', args: [3, 7] } });
const [first] = r.content as { type: string; text: string }[];
check(first !== undefined && first.type === 'text', 'a text result');
const json = JSON.parse(first.text) as { status: string; return_values: { value: unknown }[] };
const value = json.return_values[0]?.value;
check(r.isError !== true && String(value) === '7', `call_function max(3, 7) is 7 (${first.text})`);
await client.close();
done(`${tools.length} tools; call_function 0x1::u64::max(3, 7) = ${String(value)} (${json.status})`);

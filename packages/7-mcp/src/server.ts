/**
 * `createSmiMcpServer`: an MCP server (`McpServer` of the official SDK) whose tools act on
 * one simulation — one server instance is one session: objects created, packages published
 * and the clock set by one call are there for the next.
 *
 * ```ts
 * const server = createSmiMcpServer({ ...fromFixtures('../shared'), packages: loadCorpus('../shared/corpus') });
 * await serveStdio(server); // or server.connect(anyTransport)
 * ```
 *
 * `tools/call` is answered by our own dispatcher (the SDK's escape hatch, `server.server`)
 * so that every failure, arguments that do not match the schema and unknown tools included,
 * is a JSON error result `{"error_code","message"}` rather than free text.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type * as SdkTypes from '@modelcontextprotocol/sdk/types.js';
import { SmiToolError } from './errors.js';
import { errorResult } from './results.js';
import { SmiSession, type SmiSessionOptions } from './session.js';
import { SMI_TOOLS } from './tools/index.js';

/** Options of {@link createSmiMcpServer}: the session's, and how the server names itself. */
export interface SmiMcpServerOptions extends SmiSessionOptions {
  /** Server name in `initialize` (default `smi`). */
  name?: string;
  /** Server version in `initialize` (default: this package's). */
  version?: string;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What the server tells the model about itself (`initialize` → `instructions`). */
export const SMI_INSTRUCTIONS = [
  "SMI is an offline Sui Move sandbox: real mainnet bytecode runs in its own Move VM with Sui's rules; nothing touches a network and no keys or gas coins are needed.",
  'This session is one simulated chain: objects created, packages published and the clock set by one tool call are there for the next.',
  'Explore with list_packages, list_modules, list_functions, list_structs, get_interface, find_constructors, search_functions; run code with call_function',
  '(one call) or execute_ptb (a programmable transaction block); read results with read_object; write Move with compile_and_publish;',
  "ask whether a function's parameter types can be inhabited with run_inhabit. Addresses are 0x-hex (0x2 is fine); types use full paths",
  '(0x2::coin::Coin<0x2::sui::SUI>). A Move abort is a result (status "aborted", abort_code, abort_location), not an error; errors are',
  'JSON {"error_code","message"}.',
].join(' ');

/**
 * The MCP SDK's server and message schemas, loaded when a server is made: with their
 * dependencies they take about 0.2 s to load, which every process importing this package
 * paid (the `smi` CLI for any command, for one error class). ES modules without top-level
 * await: Node's `require` loads them synchronously.
 */
function sdk(): { McpServer: typeof McpServer; CallToolRequestSchema: typeof SdkTypes.CallToolRequestSchema } {
  const load = createRequire(import.meta.url);
  const { McpServer: Server } = load('@modelcontextprotocol/sdk/server/mcp.js') as { McpServer: typeof McpServer };
  const { CallToolRequestSchema } = load('@modelcontextprotocol/sdk/types.js') as typeof SdkTypes;
  return { McpServer: Server, CallToolRequestSchema };
}

/**
 * A server with every SMI tool on a fresh simulation.
 * @throws the simulation's error when it cannot start (a framework newer than the protocol
 *   config, a state file that does not load).
 */
export function createSmiMcpServer(options: SmiMcpServerOptions): McpServer {
  const { McpServer: Server, CallToolRequestSchema } = sdk();
  const session = new SmiSession(options);
  const server = new Server({ name: options.name ?? 'smi', version: options.version ?? packageVersion() }, { instructions: SMI_INSTRUCTIONS });
  for (const tool of SMI_TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.schema, annotations: tool.annotations }, (args) => tool.call(session, args));
  }
  // A line that is not a JSON-RPC message, a transport failure: logged (never on stdout).
  server.server.onerror = (e) => session.log(`protocol error: ${e.message}`, 'warn');
  const byName = new Map(SMI_TOOLS.map((t) => [t.name, t]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      return errorResult(new SmiToolError('UNKNOWN_TOOL', `unknown tool "${request.params.name}" (tools: ${SMI_TOOLS.map((t) => t.name).join(', ')})`));
    }
    return tool.call(session, request.params.arguments ?? {});
  });
  return server;
}

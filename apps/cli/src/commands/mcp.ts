/**
 * `smi mcp`: the SMI sandbox as a Model Context Protocol server over stdio, for agents
 * (Claude Code, Claude Desktop, VS Code, any MCP client). One process is one session: one
 * simulation over the framework and the `--corpus` packages, kept across tool calls, loaded
 * from and saved to `--state-file` as `sandbox-exec` does.
 *
 * Standard output carries protocol messages only; logs go to stderr (`--verbose`: one line
 * per tool call). The server ends when the client closes standard input (exit 0, after
 * answering what it was asked), or on Ctrl-C / SIGTERM (exit 130 / 143).
 */
import { Writable } from 'node:stream';
import type { MovePackage } from '@smi/bytecode';
import { createSmiMcpServer, type LogLevel, SMI_TOOLS, serveStdio } from '@smi/mcp';
import { SimulationEnvironmentError, type SandboxFetched, type SuiDataSource } from '@smi/simulation';
import { defineCommand } from '../command.js';
import { InterruptedError, toCliError } from '../errors.js';
import { frameworkPackages, loadCorpora, protocolConfigFor } from '../framework.js';
import { type CliIo, resolvePath, stdinStream, UsageError } from '../io.js';
import { dataSourceOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { VERSION } from '../version.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface McpArgs extends NetworkArgs {
  corpus: string[];
  framework?: string;
  'protocol-version'?: number;
  'state-file'?: string;
  'save-state': boolean;
  'permissive-crypto': boolean;
  'enable-fetching': boolean;
  verbose: boolean;
}

/** Standard output as a stream for the transport (through the io, which knows a closed pipe). */
function stdoutStream(io: CliIo): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      io.stdout(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
}

/** With --enable-fetching: the node to fetch from, and --verbose lines of what is fetched. */
function fetchingOf(args: McpArgs, log: (line: string, level: LogLevel) => void): { fetcher?: SuiDataSource; onFetch?: (f: SandboxFetched) => void } {
  if (!args['enable-fetching']) return {};
  const fetcher = dataSourceOf(args, (m) => log(`retry: ${m}`, 'info'));
  return { fetcher, onFetch: (f) => log(`fetched ${f.kind} ${f.id} (version ${f.version}) from ${fetcher.endpoint}`, 'info') };
}

/** `smi mcp`. */
export const mcpCommand = defineCommand<McpArgs>({
  ...header('mcp'),
  options: {
    corpus: { type: 'string', array: true, default: [] as string[], describe: 'Package directory or corpus root to load (repeatable)' },
    framework: { type: 'string', describe: 'Framework bundles directory (default $SMI_FIXTURES/fixtures/framework)' },
    'protocol-version': { type: 'number', describe: 'Mainnet protocol version to run (default: latest in $SMI_FIXTURES)' },
    'state-file': { type: 'string', describe: 'State file: loaded at start if it exists, saved after every tool call that changes the state', file: 'state' },
    'save-state': { type: 'boolean', default: true, describe: 'Save the state file after changes (--no-save-state: load only)' },
    'permissive-crypto': { type: 'boolean', default: false, describe: 'Every signature/proof verification returns true (as benchmark-local --no-strict-crypto)' },
    'enable-fetching': {
      type: 'boolean',
      default: false,
      describe: 'Fetch a package or object a tool call needs and the session lacks from the node (--rpc-url), as sandbox-exec does',
    },
    ...NETWORK_OPTIONS,
    verbose: { alias: 'v', type: 'boolean', default: false, describe: 'One line per tool call on stderr' },
  },
  examples: [
    { command: `echo '{"jsonrpc":"2.0","id":1,"method":"ping"}' | $0 mcp`, describe: 'the protocol is JSON-RPC, one message per line on stdin and stdout: a ping and its answer' },
    {
      command: '$0 mcp --corpus ../shared/corpus < apps/cli/examples/mcp-session.jsonl',
      describe: "a session typed by hand: initialize, list a corpus package's modules, a call, an abort (a result, not an error)",
    },
    {
      command: '$0 mcp --corpus ../shared/corpus --state-file mcp-state.json --verbose < apps/cli/examples/mcp-session.jsonl',
      describe: 'the same with a state file (kept for the next session) and one line per tool call on stderr',
    },
  ],
  epilog:
    `Tools: ${SMI_TOOLS.map((t) => t.name).join(', ')}. ` +
    'Register it with Claude Code: claude mcp add smi -- node /path/to/smi/apps/cli/dist/cli.js mcp --corpus /path/to/shared/corpus ; ' +
    'with Claude Desktop or VS Code: {"mcpServers": {"smi": {"command": "node", "args": ["/path/to/smi/apps/cli/dist/cli.js", "mcp", "--corpus", "/path/to/shared/corpus"]}}} ' +
    '(see packages/7-mcp/README.md). Standard output carries protocol messages only; logs and errors go to stderr. A failed tool call is a result with ' +
    'isError and {"error_code","message"}; a Move abort is a result with status "aborted". Exit codes: 0 the client closed standard input, ' +
    '2 bad options (nothing served), 130 interrupted (143 SIGTERM).',
  longRunning: true,
  run: async (args, io) => {
    const log = (line: string, level: LogLevel): void => {
      if (args.quiet && level !== 'error') return;
      if (level === 'info' && !args.verbose) return;
      io.stderr(`[smi mcp] ${line}\n`);
    };
    const corpus: MovePackage[] = loadCorpora(io, args.corpus);
    const framework = frameworkPackages(io, args.framework, corpus);
    const protocolConfig = protocolConfigFor(io, args['protocol-version']);
    const stateFile = args['state-file'] === undefined ? undefined : resolvePath(io, args['state-file']);
    const fetching = fetchingOf(args, log);
    let server;
    try {
      server = createSmiMcpServer({
        framework,
        packages: corpus,
        protocolConfig,
        ...(stateFile === undefined ? {} : { stateFile }),
        saveState: args['save-state'],
        permissiveCrypto: args['permissive-crypto'],
        cwd: io.cwd,
        version: VERSION,
        log,
        ...fetching,
      });
    } catch (e) {
      const message = errorMessage(e);
      if (e instanceof SimulationEnvironmentError && e.code === 'INVALID_STATE_FILE') {
        const own = stateFile !== undefined && message.startsWith(`${stateFile}: `) ? message.slice(stateFile.length + 2) : message;
        throw new UsageError(`--state-file ${args['state-file'] ?? ''}: ${own}`, e.code);
      }
      // E.g. a framework newer than the protocol version asked for (a native without its gas cost).
      throw new UsageError(`cannot start a simulation at protocol ${protocolConfig.version}: ${message}`);
    }
    const packages = new Set([...framework, ...corpus].map((p) => p.id)).size;
    log(`serving ${SMI_TOOLS.length} tools on ${packages} packages (protocol ${protocolConfig.version}) over stdio`, 'info');
    const ended = await serveStdio(server, { stdin: stdinStream(io), stdout: stdoutStream(io), ...(io.signal ? { signal: io.signal } : {}) });
    if (ended === 'end') return 0;
    const reason: unknown = io.signal?.reason;
    if (reason instanceof InterruptedError) return reason.exitCode;
    throw toCliError(reason);
  },
});

/**
 * `smi sandbox-exec`: the original sandbox's JSON protocol (`{"action": …}` requests,
 * `{"success": …}` responses) over one simulation environment.
 *
 * Single-shot (default): read one request from `--input`, write one pretty response to
 * `--output`. Exit 0 when the request was handled (whatever its `success`), 2 when it was
 * not a valid request (`error_category: "ParseError"`: not JSON, unknown action, bad
 * parameters) — the response is written either way — and 2 for bad options.
 *
 * Interactive (`--interactive`): one request per line, blank lines skipped, one compact
 * response line each, written as soon as it is ready; a line that is not JSON is answered
 * with a `ParseError` and the session goes on. Exit 0 at end of input.
 *
 * `--state-file`: loaded at start when it exists, saved (atomically) after every request —
 * before its response is written, so an answered request is on disk — unless
 * `--no-save-state`.
 *
 * `--enable-fetching`: a request that needs a package or an object the session does not hold
 * fetches it from the node the network options name (`--rpc-url`, …) and goes on; the
 * response lists it in `fetched` and the state file keeps it. Without the flag the network
 * options are ignored and nothing is fetched.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type SandboxFetched, SandboxSession, type SandboxResponse, serializeSandboxResponse, type SuiDataSource } from '@smi/simulation';
import { defineCommand, type GlobalArgs } from '../command.js';
import { InterruptedError } from '../errors.js';
import { type CliIo, inputStream, readInput, resolveInputPath, resolvePath, UsageError, writeOutput } from '../io.js';
import { dataSourceOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { protocolConfigFor } from '../framework.js';
import { packagesFor } from './call.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface SandboxExecArgs extends NetworkArgs {
  input: string;
  output: string;
  'state-file'?: string;
  'save-state': boolean;
  interactive: boolean;
  corpus: string[];
  framework?: string;
  'protocol-version'?: number;
  'bytecode-dir'?: string;
  'enable-fetching': boolean;
  'permissive-crypto': boolean;
  verbose: boolean;
}

type Args = SandboxExecArgs & GlobalArgs;

/** With --enable-fetching: the node to fetch from, and --verbose lines of what is fetched. */
function fetchingOf(io: CliIo, args: SandboxExecArgs): { fetcher?: SuiDataSource; onFetch?: (f: SandboxFetched) => void } {
  if (!args['enable-fetching']) return {};
  const say = (text: string): void => {
    if (args.verbose) io.stderr(`[sandbox-exec] ${text}\n`);
  };
  const fetcher = dataSourceOf(args, (m) => say(`retry: ${m}`));
  return { fetcher, onFetch: (f) => say(`fetched ${f.kind} ${f.id} (version ${f.version}) from ${fetcher.endpoint}`) };
}

/** The session, with the state file loaded and `--bytecode-dir` preloaded. */
async function startSession(io: CliIo, args: SandboxExecArgs): Promise<SandboxSession> {
  const fetching = fetchingOf(io, args);
  const packages = packagesFor(io, args.corpus, args.framework);
  const protocolConfig = protocolConfigFor(io, args['protocol-version']);
  let session: SandboxSession;
  try {
    session = SandboxSession.create({ packages, protocolConfig, cwd: io.cwd, natives: { permissiveCrypto: args['permissive-crypto'] }, ...fetching });
  } catch (e) {
    // E.g. a framework newer than the protocol version asked for (a native without its gas cost).
    throw new UsageError(`cannot start a simulation at protocol ${protocolConfig.version}: ${errorMessage(e)}`);
  }
  const stateFile = args['state-file'] === undefined ? undefined : resolvePath(io, args['state-file']);
  if (stateFile !== undefined && existsSync(stateFile)) {
    try {
      session.loadState(stateFile);
    } catch (e) {
      throw new UsageError(`--state-file ${args['state-file']}: ${errorMessage(e)}`);
    }
  }
  if (args['bytecode-dir'] !== undefined) {
    const r = await session.handle({ action: 'load_module', bytecode_path: resolveInputPath(io, args['bytecode-dir']) });
    if (!r.success) throw new UsageError(`--bytecode-dir ${args['bytecode-dir']}: ${r.error ?? 'could not be loaded'}`);
  }
  return session;
}

/** Save the state after a request (when asked to); a failure is reported, not fatal. */
function saveAfterRequest(io: CliIo, session: SandboxSession, args: SandboxExecArgs): boolean {
  if (args['state-file'] === undefined || !args['save-state']) return true;
  try {
    session.saveState(resolvePath(io, args['state-file']));
    return true;
  } catch (e) {
    io.stderr(`smi sandbox-exec: could not save the state to ${args['state-file']}: ${errorMessage(e)}\n`);
    return false;
  }
}

function logRequest(io: CliIo, args: SandboxExecArgs, n: number, line: string, r: SandboxResponse, ms: number): void {
  if (!args.verbose) return;
  const action = /"action"\s*:\s*"([^"]*)"/.exec(line)?.[1] ?? '?';
  io.stderr(`[sandbox-exec] #${n} ${action}: ${r.success ? 'ok' : `${r.error_category ?? 'error'}: ${r.error ?? ''}`} (${ms} ms)\n`);
}

async function singleShot(io: CliIo, args: Args, session: SandboxSession): Promise<number> {
  const text = (await readInput(io, args.input, '--input')).toString('utf8');
  const started = Date.now();
  const response = await session.handleLine(text);
  logRequest(io, args, 1, text, response, Date.now() - started);
  const saved = saveAfterRequest(io, session, args);
  // --json: the response on one line; otherwise pretty, as the original prints it.
  writeOutput(io, args.output, serializeSandboxResponse(response, !args.json) + '\n');
  if (!saved) return 1;
  return response.error_category === 'ParseError' ? 2 : 0;
}

async function interactive(io: CliIo, args: Args, session: SandboxSession): Promise<number> {
  const input = inputStream(io, args.input, '--input');
  const fd = args.output === '-' ? null : openSync(resolvePath(io, args.output), 'w');
  const lines = createInterface({ input, crlfDelay: Infinity });
  // Ctrl-C, SIGTERM or a reader that went away (`| head -1`): stop reading; the request
  // being answered is finished (and its state saved) first.
  let closed = false;
  const stop = (): void => {
    closed = true;
    lines.close();
    input.destroy();
  };
  if (io.signal?.aborted) stop();
  io.signal?.addEventListener('abort', stop, { once: true });
  const emit = (text: string): void => {
    if (fd === null) io.stdout(text);
    else writeSync(fd, text);
  };
  let n = 0;
  let failedSaves = 0;
  try {
    for await (const line of lines) {
      // A signal that came while the last request ran (synchronous work holds the event
      // loop) is delivered by the next turn of the loop: take that turn before reading on,
      // or a line already buffered would be answered after Ctrl-C.
      if (!closed) await new Promise((resolve) => setImmediate(resolve));
      if (closed) break;
      if (line.trim() === '') continue;
      n += 1;
      const started = Date.now();
      const response = await session.handleLine(line);
      logRequest(io, args, n, line, response, Date.now() - started);
      if (!saveAfterRequest(io, session, args)) failedSaves += 1;
      emit(serializeSandboxResponse(response, false) + '\n');
    }
  } finally {
    if (fd !== null) closeSync(fd);
    io.signal?.removeEventListener('abort', stop);
  }
  const reason: unknown = io.signal?.reason;
  if (closed && reason instanceof InterruptedError) return reason.exitCode;
  return failedSaves > 0 ? 1 : 0;
}

/** `smi sandbox-exec`. */
export const sandboxExecCommand = defineCommand<SandboxExecArgs>({
  ...header('sandbox-exec'),
  options: {
    input: { type: 'string', default: '-', describe: 'Request file, or - for standard input', file: 'read' },
    output: { type: 'string', default: '-', describe: 'Response file, or - for standard output', file: 'write' },
    'state-file': { type: 'string', describe: 'State file: loaded at start if it exists, saved after every request', file: 'state' },
    'save-state': { type: 'boolean', default: true, describe: 'Save the state file after each request (--no-save-state: load only)' },
    interactive: { type: 'boolean', default: false, describe: 'One JSON request per line, one compact JSON response per line' },
    corpus: { type: 'string', array: true, default: [] as string[], describe: 'Package directory or corpus root to load (repeatable)' },
    framework: { type: 'string', describe: 'Framework bundles directory (default $SMI_FIXTURES/fixtures/framework)' },
    'protocol-version': { type: 'number', describe: 'Mainnet protocol version to run (default: latest in $SMI_FIXTURES)' },
    'bytecode-dir': { type: 'string', describe: 'Load this bytecode directory at start (as the load_module action)' },
    'permissive-crypto': {
      type: 'boolean',
      default: false,
      describe: 'Every signature/proof verification returns true (replays benchmark-local rows made with --no-strict-crypto)',
    },
    'enable-fetching': {
      type: 'boolean',
      default: false,
      describe: 'Fetch a package or object a request needs and the session lacks from the node (--rpc-url); the response lists it in "fetched"',
    },
    ...NETWORK_OPTIONS,
    verbose: { alias: 'v', type: 'boolean', default: false, describe: 'One line per request on stderr (and, with --enable-fetching, one per fetched package or object)' },
  },
  examples: [
    {
      command: `echo '{"action":"call_function","package":"0x1","module":"u64","function":"max","args":[3,7]}' | $0 sandbox-exec`,
      describe: 'one request on standard input, a pretty response',
    },
    {
      command: `printf '%s\\n' '{"action":"list_modules"}' '{"action":"get_clock"}' | $0 sandbox-exec --interactive --state-file state.json`,
      describe: 'a session: one request per line, one response line each; the state is saved after every request',
    },
  ],
  epilog:
    'Actions: load_module, create_object, execute_ptb, call_function, inspect_object, list_objects, get_state, reset, ' +
    'get_clock/get_time, set_clock/set_time, register_coin, get_coin_metadata, list_coins, list_modules, list_functions, ' +
    'list_structs, get_function_info, find_constructors, search_types, search_functions, inspect_struct, get_struct_info, ' +
    'disassemble_function, get_system_object_info, validate_type, encode_bcs, decode_bcs, compile_move, create_test_object, init_package, configure, ' +
    'create_checkpoint/restore_checkpoint (a named state in memory for the life of the process; it survives reset) ' +
    '(see packages/4-simulation/README.md). With --enable-fetching a request that needs a package (with its linkage) or an object ' +
    '(current version, or the "version" the request names) the session does not hold fetches it from --rpc-url (default mainnet), ' +
    'tries again, lists it in the response\'s "fetched" and keeps it in the state file; at most 25 fetches per request, and a ' +
    'failed fetch is an error naming what could not be fetched ("fetch_error"). Without it the network options are ignored. ' +
    'With --json a single response is printed on one line. Exit codes: 0 handled, ' +
    '2 invalid request (ParseError) or bad options, 1 state not saved, 130 stopped by Ctrl-C (SIGINT) and 143 by SIGTERM, waiting for input or ' +
    'answering a request (that request is answered and saved first; a second signal stops at once).',
  longRunning: true,
  run: async (args, io) => {
    const session = await startSession(io, args);
    return args.interactive ? interactive(io, args, session) : singleShot(io, args, session);
  },
});

/**
 * How a command ends when it does not end well: typed errors with a stable `code` and the
 * exit status each one gives, and the one JSON shape every command prints for them under
 * `--json`: `{"status":"error","error_code","message"}` (plus `diagnostics`, the full text, when there is one).
 *
 * Exit statuses (the README's table):
 * - 0   the command did what was asked;
 * - 1   it ran, and its result is a failure or a difference (a replay that differs, a suite
 *       with failing tasks, a corpus with unreadable modules);
 * - 2   bad input: options, files, bytecode, JSON, types; nothing was done;
 * - 69  the Sui node did not answer (unreachable, unavailable): `UNAVAILABLE`, in every network command;
 * - 70  an internal error of smi (a bug: please report it, with `SMI_DEBUG=1` for the stack);
 * - 130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM; what was finished is kept;
 * - 141 the reader of standard output went away (`| head`), as for any program killed by SIGPIPE.
 */
import { errorMessage, SmiError } from '@smi/bytecode';
/** Exit statuses of `smi`. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  unavailable: 69,
  internal: 70,
  interrupted: 130,
  outputClosed: 141,
  terminated: 143,
} as const;

/** An error that ends a command with a stable code and exit status. */
export class CliError extends SmiError<string> {
  override readonly name: string = 'CliError';
  /** Full multi-line output behind the one-line message (a compiler's diagnostics), printed to stderr. */
  readonly diagnostics?: string;
  constructor(
    code: string,
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown; diagnostics?: string },
  ) {
    super(code, message, options);
    if (options?.diagnostics !== undefined) this.diagnostics = options.diagnostics;
  }
}

/** Bad input from the user (exit 2). `code` defaults to `USAGE`; library codes are kept. */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  constructor(message: string, code = 'USAGE', options?: { cause?: unknown; diagnostics?: string }) {
    super(code, message, EXIT.usage, options);
  }
}

/** A folder given on the command line (`--corpus`, `--framework`, …) that does not exist or is not a directory: `NOT_A_DIRECTORY`, exit 2, in every command. */
export function notADirectory(what: string): UsageError {
  return new UsageError(`${what}: not a directory`, 'NOT_A_DIRECTORY');
}

/** A corpus folder with no package in it: `NO_PACKAGES`, exit 2, in every command that takes a corpus. */
export function noPackages(what: string): UsageError {
  return new UsageError(`${what}: no packages (a package directory has bytecode_modules/*.mv)`, 'NO_PACKAGES');
}

/** Ctrl-C (SIGINT, exit 130) or SIGTERM (exit 143) stopped the command. */
export class InterruptedError extends CliError {
  override readonly name = 'InterruptedError';
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super('INTERRUPTED', `interrupted by ${signal}`, signal === 'SIGINT' ? EXIT.interrupted : EXIT.terminated);
  }
}

/** Standard output was closed by its reader: nothing more can be printed (exit 141). */
export class OutputClosedError extends CliError {
  override readonly name = 'OutputClosedError';
  constructor() {
    super('OUTPUT_CLOSED', 'standard output was closed by its reader', EXIT.outputClosed);
  }
}

/**
 * Errors of the libraries that mean "the input is wrong", with their own stable codes, by the
 * `name` each class gives its errors (none is subclassed): known without loading the
 * libraries, so that `smi` loads only the code of the command it runs.
 */
const INPUT_ERRORS: ReadonlySet<string> = new Set([
  'StdioInputError', // @smi/mcp
  'PackageError', // @smi/bytecode
  'BytecodeError',
  'DisassemblerError',
  'VmError', // @smi/move-vm
  'ProtocolConfigError',
  'SimulationEnvironmentError', // @smi/simulation
  'DataSourceError',
  'DatasetError', // @smi/harness
  'ModelConfigError',
  'PriceTableError',
  'CheckpointError',
  'RunStoreError',
  'SpecMismatchError',
  'MergeError',
  'ShardError',
  'Phase1Error',
  'Phase2Error',
  'Phase2AgentError',
  'CompareError',
  'PlanError', // @smi/inhabit
  'MergeRowsError',
  'ReportError', // @smi/report
]);

/**
 * The library error's own code, when it has one; for a package error over a module that does
 * not read (`INVALID_MODULE`), the module's bytecode status (`MALFORMED`, `BAD_HEADER_TABLE`, …):
 * the real reason, not the wrapper's.
 */
function codeOf(e: Error): string | undefined {
  const code = (e as { code?: unknown }).code;
  const cause = e.cause as { name?: unknown; code?: unknown } | undefined;
  if (code === 'INVALID_MODULE' && cause?.name === 'BytecodeError' && typeof cause.code === 'string') return cause.code;
  // A folder that is not there has one code whatever the library that looked for it.
  if (code === 'CORPUS_NOT_FOUND' || (code === 'PACKAGE_NOT_FOUND' && / not a directory$/.test(e.message))) return 'NOT_A_DIRECTORY';
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** Any thrown value as a {@link CliError}: input errors keep their code (exit 2), the rest is internal (exit 70). */
export function toCliError(e: unknown): CliError {
  if (e instanceof CliError) return e;
  // The node did not answer: one code and exit status in every command that asks it.
  if (e instanceof Error && e.name === 'DataSourceError' && (e as { code?: unknown }).code === 'UNAVAILABLE') {
    return new CliError('UNAVAILABLE', e.message, EXIT.unavailable, { cause: e });
  }
  if (e instanceof Error && INPUT_ERRORS.has(e.name)) {
    const err = e as Error;
    const code = codeOf(err) ?? 'INVALID_INPUT';
    // Some libraries start their message with the code; it is in `error_code` already.
    const message = err.message.startsWith(`${code}: `) ? err.message.slice(code.length + 2) : err.message;
    return new UsageError(message, code, { cause: e });
  }
  // A file that cannot be read or written (permissions, a missing directory, a full disk):
  // the path given is at fault, not smi.
  if (e instanceof Error && typeof (e as NodeJS.ErrnoException).syscall === 'string') {
    return new UsageError(e.message, 'IO_ERROR', { cause: e });
  }
  const message = errorMessage(e);
  return new CliError('INTERNAL', message, EXIT.internal, { cause: e });
}

/** Wrap a library's input error with context (`--snapshot x.json: ...`), keeping its code. */
export function inputError(context: string, e: unknown): UsageError {
  const err = toCliError(e);
  if (err.exitCode === EXIT.internal) throw e;
  return new UsageError(`${context}: ${err.message}`, err.code, { cause: e });
}

/** Collapse a multi-line message to one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The JSON line printed for an error under `--json`. */
export function errorJson(e: CliError): { status: 'error'; error_code: string; message: string; diagnostics?: string } {
  return { status: 'error', error_code: e.code, message: oneLine(e.message), ...(e.diagnostics !== undefined ? { diagnostics: e.diagnostics } : {}) };
}

/**
 * The `smi` command line: every command's {@link CommandSpec} turned into yargs, with the
 * conventions in one place: `-` for standard input/output, "did you mean" for unknown
 * commands and options, `--json` errors in one shape, the exit statuses of `errors.ts`,
 * `--version`, `smi help <command>`, completion, and a quiet stop when standard output is
 * closed. Handlers write through a {@link CliIo}, so tests can run the CLI in-process.
 */
import yargs, { type Argv } from 'yargs';
import { dashed, didYouMean, firstWord, joinDashValues, wantsJson, closest } from './argv.js';
import { commandName, type CommandSpec, type Example, optionShapes } from './command.js';
import { COMMAND_ENTRIES, type CommandEntry } from './commands/registry.js';
import { type CliError, EXIT, errorJson, oneLine, OutputClosedError, toCliError, UsageError } from './errors.js';
import { type CliIo, jsonLine } from './io.js';
import { processIo } from './process-io.js';
import { EPILOG, GLOBAL_OPTIONS, MAIN_EXAMPLES, USAGE } from './help-text.js';
import { VERSION } from './version.js';
import { translateYargsFailure } from './yargs-failure.js';

export { GLOBAL_OPTIONS, MAIN_EXAMPLES } from './help-text.js';

/** Words that name something other than a command spec. */
const BUILTINS = ['help'];

/** The entry of command `name`, or `undefined`. */
function entryOf(name: string): CommandEntry | undefined {
  return COMMAND_ENTRIES.find((c) => c.command.split(' ')[0] === name);
}

function allNames(): string[] {
  return [...COMMAND_ENTRIES.map((c) => c.command.split(' ')[0]), ...BUILTINS];
}

/** Print an error the way every command does, and give its exit status. */
function report(io: CliIo, e: unknown, json: boolean): number {
  const err = toCliError(e);
  // The reader of stdout is gone: nothing to say, and nowhere to say it.
  if (err instanceof OutputClosedError) return err.exitCode;
  if (json) io.stdout(jsonLine(errorJson(err)));
  else if (err.code === 'INTERRUPTED') io.stderr(`smi: ${err.message}\n`);
  else io.stderr(`smi: ${err.exitCode === EXIT.internal ? 'internal error' : 'error'}: ${oneLine(err.message)}\n`);
  if (err.diagnostics !== undefined) io.stderr(err.diagnostics.endsWith('\n') ? err.diagnostics : `${err.diagnostics}\n`);
  if (err.exitCode === EXIT.internal) {
    const cause = (err as CliError).cause;
    if (process.env.SMI_DEBUG) io.stderr(`${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`);
    else if (!json) io.stderr('smi: this is a bug in smi; SMI_DEBUG=1 prints the stack\n');
  }
  return err.exitCode;
}

/** `true` when `--name` (or an alias) is the last word or followed by another option: yargs would use the default. */
function lacksValue(argv: readonly string[], name: string, alias: string | readonly string[] | undefined): boolean {
  const names = [name, ...(alias === undefined ? [] : typeof alias === 'string' ? [alias] : alias)];
  return argv.some((a, i) => names.some((n) => a === dashed(n)) && (i + 1 === argv.length || (argv[i + 1].startsWith('-') && argv[i + 1] !== '-')));
}

/**
 * What yargs leaves to us: a positional `-` (yargs reads it as an empty string), numbers
 * that are not numbers, `-` for a state file.
 */
function normalizeArgs(spec: CommandSpec<never>, args: Record<string, unknown>, argv: readonly string[]): void {
  for (const [name, p] of Object.entries(spec.positionals ?? {})) {
    if (p.file !== undefined && args[name] === '' && argv.includes('-')) args[name] = '-';
    const list = args[name];
    if (p.file !== undefined && Array.isArray(list) && argv.includes('-')) {
      // In an array, yargs turns `-` into '' or drops it.
      const mapped = list.map((v) => (v === '' ? '-' : v));
      if (!mapped.includes('-')) mapped.push('-');
      args[name] = mapped;
    }
  }
  for (const [name, o] of Object.entries({ ...spec.options, ...spec.positionals })) {
    const v = args[name];
    if (o.type === 'number' && typeof v === 'number' && Number.isNaN(v)) throw new UsageError(`${dashed(name)}: not a number`, 'INVALID_NUMBER');
    if (o.file !== undefined && (v === '' || lacksValue(argv, name, o.alias))) {
      const what = o.file === 'read' ? 'a file, or - for standard input' : o.file === 'write' ? 'a file, or - for standard output' : 'a file';
      throw new UsageError(`${name in (spec.positionals ?? {}) ? `<${name}>` : dashed(name)} needs a value: ${what}`, 'MISSING_ARGUMENT');
    }
    if (o.file === 'state' && v === '-') {
      throw new UsageError(`${dashed(name)} -: a state file is read and rewritten after every request; give a path`, 'INVALID_FILE');
    }
  }
}

function register(parser: Argv, io: CliIo, argv: readonly string[], spec: CommandSpec<never>, setExit: (code: number) => void): Argv {
  return parser.command({
    command: spec.command,
    describe: spec.describe,
    builder: (y: Argv) => {
      let b = y;
      for (const [name, p] of Object.entries(spec.positionals ?? {})) {
        const { file: _file, ...rest } = p;
        b = b.positional(name, rest);
      }
      for (const [name, o] of Object.entries(spec.options ?? {})) {
        const { file: _file, ...rest } = o;
        b = b.option(name, rest);
      }
      for (const ex of spec.examples) b = b.example(...exampleLines(ex));
      if (spec.epilog) b = b.epilog(spec.epilog);
      return b;
    },
    handler: async (args: Record<string, unknown>) => {
      normalizeArgs(spec, args, argv);
      if (spec.longRunning) io.trapSignals?.();
      args.invocation = [...argv];
      setExit(await spec.run(args as never, io));
    },
  });
}

/** An example as yargs shows it: the description as a shell comment above the command, so long paths keep the full width. */
function exampleLines(ex: Example): [string, string] {
  return [`# ${ex.describe}\n  ${ex.command}`, ''];
}

/**
 * The parser: `spec` (the command being run, loaded) with its options and handler, the other
 * commands by their usage line and description only (what `smi --help` lists).
 */
function buildParser(io: CliIo, argv: readonly string[], spec: CommandSpec<never> | null, setExit: (code: number) => void, fail: (e: CliError) => void): Argv {
  let parser: Argv = yargs([...argv])
    .scriptName('smi')
    .usage(USAGE);
  for (const entry of COMMAND_ENTRIES) {
    if (spec !== null && entry.command === spec.command) parser = register(parser, io, argv, spec, setExit);
    else parser = parser.command(entry.command, entry.describe);
  }
  for (const ex of MAIN_EXAMPLES) parser = parser.example(...exampleLines(ex));
  return parser
    .options(GLOBAL_OPTIONS)
    .command('help [command..]', 'Show the help of a command')
    .completion('__complete', false)
    .epilog(EPILOG)
    .strict()
    .help()
    .alias('help', 'h')
    .version(VERSION)
    .alias('version', 'V')
    .showHelpOnFail(false)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg: string | null, err: Error | undefined) => {
      if (err) throw err;
      const name = firstWord(argv)?.word;
      const failure = translateYargsFailure(msg ?? 'invalid arguments', argv, spec !== null && name !== undefined && commandName(spec) === name ? spec : undefined, GLOBAL_OPTIONS);
      fail(failure);
      throw failure;
    });
}

/**
 * Run the CLI on `argv` (without the node and script paths) and resolve with the exit
 * status. Nothing calls `process.exit`.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const json = wantsJson(argv);
  const first = firstWord(argv);
  const flags = new Set(argv);
  const asksForInfo = ['--help', '-h', '--version', '-V', '--get-yargs-completions'].some((f) => flags.has(f));
  if (first === null && !asksForInfo) {
    return report(io, new UsageError(`name a command: ${allNames().join(', ')} (smi --help describes them)`, 'NO_COMMAND'), json);
  }
  let args = [...argv];
  let spec: CommandSpec<never> | null = null;
  if (flags.has('--get-yargs-completions')) {
    // Completing `smi <command> ...`: that command's options are needed, so it is loaded.
    const words = argv.slice(argv.indexOf('--get-yargs-completions') + 2).filter((a) => !a.startsWith('-'));
    const entry = words.length > 0 ? entryOf(words[0]) : undefined;
    if (entry !== undefined) spec = await entry.load();
  } else if (first !== null) {
    if (first.word === 'help') {
      const rest = args.slice(first.index + 1).filter((a) => !a.startsWith('-'));
      return runCli(rest.length === 0 ? ['--help'] : [...rest, '--help'], io);
    }
    const entry = entryOf(first.word);
    if (entry === undefined) {
      const hint = didYouMean(closest(first.word, allNames()));
      return report(io, new UsageError(`unknown command '${first.word}'${hint}; smi --help lists the commands`, 'UNKNOWN_COMMAND'), json);
    }
    // Only the command that runs is loaded.
    spec = await entry.load();
    args = joinDashValues(args, [...optionShapes(spec), ...optionShapes({ options: GLOBAL_OPTIONS })]);
  }

  let exitCode: number = EXIT.ok;
  let failure: CliError | null = null;
  const parser = buildParser(
    io,
    args,
    spec,
    (c) => (exitCode = c),
    (f) => (failure = f),
  );
  try {
    let output = '';
    await parser.parseAsync(args, {}, (_err: unknown, _args: unknown, out: string) => {
      output = out;
    });
    // Help, --version and completions: what yargs printed.
    if (output) io.stdout(output.endsWith('\n') ? output : output + '\n');
  } catch (e) {
    return report(io, failure ?? e, json);
  }
  // Stopped because the reader went away: the exit status says so, whatever the command returned.
  if (io.signal?.aborted && io.signal.reason instanceof OutputClosedError) return io.signal.reason.exitCode;
  return exitCode;
}

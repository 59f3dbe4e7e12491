/**
 * How a command is declared: its options as data (so that `-` handling, suggestions,
 * completion and the tests that run every example and every file option all read the
 * same declaration), at least one runnable example, and a `run` that returns the exit
 * status. Every command of `smi` is a {@link CommandSpec}; `main.ts` turns them into yargs.
 */
import type { Options, PositionalOptions } from 'yargs';
import type { CliIo } from './io.js';

/**
 * What a file option names: a file read (`-` = standard input), a file written
 * (`-` = standard output), or a state file that is both read and rewritten (`-` is refused
 * with a clear error, since standard input cannot be rewritten).
 */
export type FileRole = 'read' | 'write' | 'state';

/** A yargs option, plus the role of the file it names, if it names one. */
export type OptionSpec = Options & { file?: FileRole };

/** A yargs positional, plus the role of the file it names, if it names one. */
export type PositionalSpec = PositionalOptions & { file?: FileRole };

/** A runnable example for `--help`: `$0` stands for `smi`; paths are relative to the repository root. */
export interface Example {
  command: string;
  describe: string;
}

/** Options every command takes. */
export interface GlobalArgs {
  /** Print the result, or the error, as one JSON line on stdout. */
  json: boolean;
  /** No progress and no warnings on stderr. */
  quiet: boolean;
  /** The words the command was run with, after `smi` (for run records). */
  invocation: readonly string[];
}

/** One command of `smi`. */
export interface CommandSpec<A = Record<string, unknown>> {
  /** yargs command syntax: `disasm <target>`, `conformance <suite>`. */
  command: string;
  describe: string;
  positionals?: Readonly<Record<string, PositionalSpec>>;
  options?: Readonly<Record<string, OptionSpec>>;
  /** At least one; a test runs every one of them against the shared corpus. */
  examples: readonly [Example, ...Example[]];
  epilog?: string;
  /**
   * A command that runs long and stops cleanly: Ctrl-C and SIGTERM abort `io.signal`
   * (exit 130/143) instead of killing the process, and `run` keeps what it finished.
   */
  longRunning?: boolean;
  /** Run with the parsed arguments; resolve with the exit status (see `errors.ts`). */
  run(args: A & GlobalArgs, io: CliIo): number | Promise<number>;
}

/** Declare a command (typed arguments for `run`). */
export function defineCommand<A>(spec: CommandSpec<A>): CommandSpec<A> {
  return spec;
}

/** The command's name: the first word of its syntax. */
export function commandName(spec: Pick<CommandSpec<unknown>, 'command'>): string {
  return spec.command.split(' ')[0];
}

/** Every option name and alias of a spec, with whether it is a flag. */
export function optionShapes(spec: Pick<CommandSpec<unknown>, 'options'>): { names: string[]; boolean: boolean }[] {
  return Object.entries(spec.options ?? {}).map(([name, o]) => {
    const alias = o.alias === undefined ? [] : Array.isArray(o.alias) ? o.alias : [o.alias];
    return { names: [name, ...alias], boolean: o.type === 'boolean' };
  });
}

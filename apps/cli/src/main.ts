/**
 * The `smi` command line: a yargs parser whose handlers write through a {@link CliIo},
 * so that tests run it in-process. Bad input exits with code 2 and one line on stderr.
 */
import yargs from 'yargs';
import { BytecodeError, PackageError } from '@smi/bytecode';
import { VmError } from '@smi/move-vm';
import { buildCommand } from './commands/build.js';
import { callCommand } from './commands/call.js';
import { conformanceCommand } from './commands/conformance.js';
import { corpusCommand } from './commands/corpus-check.js';
import { disasmCommand } from './commands/disasm.js';
import { extractCommand } from './commands/extract.js';
import { stubsCommand } from './commands/stubs.js';
import { replayCommand } from './commands/replay.js';
import { sandboxExecCommand } from './commands/sandbox-exec.js';
import { type CliIo, processIo, UsageError } from './io.js';

/** Errors that mean "your input is wrong" (exit 2) rather than "SMI failed" (exit 1). */
function isInputError(e: unknown): boolean {
  return e instanceof UsageError || e instanceof PackageError || e instanceof BytecodeError || e instanceof VmError;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Run the CLI on `argv` (without the node and script paths) and resolve with the exit
 * code. Nothing calls `process.exit`.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = code;
  };
  let failure: { message: string; error: unknown } | null = null;
  const parser = yargs([...argv])
    .scriptName('smi')
    .usage('$0 <command> [options]\n\nSMI: an offline Sui Move sandbox. Every command has --help.')
    .command(extractCommand(io, setExit))
    .command(corpusCommand(io, setExit))
    .command(disasmCommand(io, setExit))
    .command(stubsCommand(io, setExit))
    .command(buildCommand(io, setExit))
    .command(callCommand(io, setExit))
    .command(conformanceCommand(io, setExit))
    .command(replayCommand(io, setExit))
    .command(sandboxExecCommand(io, setExit))
    .demandCommand(1, 'name a command (smi --help lists them)')
    .strict()
    .recommendCommands()
    .help()
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg: string | null, err: Error | undefined) => {
      failure = { message: msg ?? err?.message ?? 'invalid arguments', error: err ?? null };
      throw err ?? new UsageError(msg ?? 'invalid arguments');
    });
  let output = '';
  try {
    await parser.parseAsync([...argv], {}, (_err: unknown, _args: unknown, out: string) => {
      output = out;
    });
  } catch (e) {
    const f = failure as { message: string; error: unknown } | null;
    const err = f?.error ?? e;
    if (err === null || isInputError(err)) {
      io.stderr(`smi: error: ${oneLine(f?.message ?? (e as Error).message)}\n`);
      return 2;
    }
    io.stderr(`smi: internal error: ${oneLine((err as Error).message ?? String(err))}\n`);
    if (process.env.SMI_DEBUG) io.stderr(`${(err as Error).stack ?? ''}\n`);
    return 1;
  }
  if (output) io.stdout(output.endsWith('\n') ? output : output + '\n');
  return exitCode;
}

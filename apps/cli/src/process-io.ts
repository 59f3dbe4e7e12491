/**
 * The real process as a {@link CliIo}: standard streams, a closed standard output (the
 * reader went away: `| head`) turned into a quiet stop, and Ctrl-C/SIGTERM traps for
 * long-running commands. Temp files of atomic writes are removed when the process exits.
 */
import { CliError, EXIT, InterruptedError, OutputClosedError } from './errors.js';
import { type CliIo, removePendingTemps } from './io.js';

/**
 * The directory the user ran the command in: `pnpm smi` runs it from the repository root
 * and names the user's directory in INIT_CWD. Only for that script: INIT_CWD is inherited
 * by every process a pnpm or npm script starts, where it names some other directory.
 */
function invocationDir(): string {
  const viaScript = process.env.npm_lifecycle_event === 'smi' && process.env.INIT_CWD !== undefined;
  return viaScript ? (process.env.INIT_CWD as string) : process.cwd();
}

/** Exit at once with `code` (temp files of unfinished writes removed). */
function stopNow(code: number): never {
  removePendingTemps();
  process.exit(code);
}

/** The process's own streams and signals. */
export function processIo(): CliIo {
  const controller = new AbortController();
  const stop = (reason: CliError): void => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  let stdoutClosed = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    stdoutClosed = true;
    stop(e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED' ? new OutputClosedError() : new CliError('OUTPUT_ERROR', `cannot write to standard output: ${e.message}`, EXIT.internal));
  });
  // Nowhere left to report a failing stderr; it must not crash the command.
  process.stderr.on('error', () => {});
  process.on('exit', removePendingTemps);

  // One listener per signal for the life of the process (removing one would drop a signal
  // that arrived while the code was busy): until a long-running command traps them, Ctrl-C
  // and SIGTERM stop at once with the exit status they are documented to give (130, 143),
  // not death by the signal; after, the first one stops the command after its current step.
  let trapped = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      const reason: unknown = controller.signal.reason;
      if (!trapped) stopNow(new InterruptedError(sig).exitCode);
      if (reason instanceof InterruptedError) {
        // A second signal: stop at once.
        stopNow(reason.exitCode);
      }
      if (process.stderr.isTTY) process.stderr.write('\n');
      process.stderr.write(`smi: ${sig}: stopping after the current step (send it again to stop at once)\n`);
      stop(new InterruptedError(sig));
    });
  }
  const trapSignals = (): void => {
    trapped = true;
  };

  return {
    stdout: (t) => {
      if (!stdoutClosed) process.stdout.write(t);
    },
    stderr: (t) => {
      process.stderr.write(t);
    },
    isTty: Boolean(process.stderr.isTTY),
    cwd: invocationDir(),
    stdin: () => process.stdin,
    signal: controller.signal,
    trapSignals,
  };
}

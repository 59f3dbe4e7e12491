/**
 * Input and output for every command, in one place: where text goes, `-` for standard
 * input/output, files written atomically (a temp file renamed into place, so an
 * interrupted command never leaves a half-written file), and the signal that tells a long
 * command to stop (Ctrl-C, SIGTERM, or a reader that closed standard output).
 */
import { closeSync, createReadStream, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type CliError, InterruptedError, toCliError, UsageError } from './errors.js';
import { errorMessage, canonicalAddress } from '@smi/bytecode';

export { UsageError } from './errors.js';

/** Streams a command reads and writes; tests pass their own to capture output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** `true` when stderr is a terminal (progress bars redraw in place). */
  isTty: boolean;
  /** Directory relative paths are resolved against. */
  cwd: string;
  /** Standard input (default: the process's). */
  stdin?: () => Readable;
  /** Aborted when the command should stop: its reason is the {@link CliError} to end with. */
  signal?: AbortSignal;
  /**
   * Called once a long-running command starts: from then on Ctrl-C and SIGTERM abort
   * {@link signal} instead of killing the process (the process's io installs the traps).
   */
  trapSignals?: () => void;
}

/** Resolve a user path against the io's working directory. */
export function resolvePath(io: CliIo, p: string): string {
  return path.resolve(io.cwd, p);
}

const SHORT_ADDRESS = /^0x[0-9a-fA-F]{1,63}$/;

/**
 * A path to read: resolved as given, or, when it does not exist, with short addresses
 * padded to the sui-packages layout's directory names (`corpus/0x2/bytecode_modules`
 * finds `corpus/0x00…02/bytecode_modules`). A path that still does not exist is
 * returned as given, for the caller's "no such file" error.
 */
export function resolveInputPath(io: CliIo, p: string): string {
  const abs = resolvePath(io, p);
  if (existsSync(abs)) return abs;
  const { root } = path.parse(abs);
  let cur = root;
  for (const part of abs.slice(root.length).split(path.sep)) {
    let next = path.join(cur, part);
    if (!existsSync(next) && SHORT_ADDRESS.test(part)) {
      const padded = path.join(cur, canonicalAddress(part));
      if (existsSync(padded)) next = padded;
    }
    cur = next;
  }
  return existsSync(cur) ? cur : abs;
}

/**
 * At a step boundary of a long loop: let pending events run (a signal, a closed pipe),
 * then give the reason to stop, or `null` to go on. The loop keeps what it finished, then
 * ends with {@link endStopped}.
 */
export async function stopRequested(io: CliIo): Promise<CliError | null> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return io.signal?.aborted ? toCliError(io.signal.reason) : null;
}

/**
 * The exit status of a loop stopped by `reason` after saving its work: 130/143 when it was
 * interrupted (the command prints its partial result first); any other reason (a closed
 * stdout) is thrown, since nothing more can be printed.
 */
export function endStopped(reason: CliError): number {
  if (reason instanceof InterruptedError) return reason.exitCode;
  throw reason;
}

/** Temp files being written, removed if the process exits before renaming them. */
const pendingTemps = new Set<string>();

/** Remove temp files left by writes cut short (called on exit). */
export function removePendingTemps(): void {
  for (const t of pendingTemps) rmSync(t, { force: true });
  pendingTemps.clear();
}

/** Write `data` to `file` atomically: a temp file beside it, synced, then renamed over it. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (e) {
    throw new UsageError(`cannot create the directory of ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 'IO_ERROR', { cause: e });
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  pendingTemps.add(temp);
  try {
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    const reason = (e as NodeJS.ErrnoException).code ?? errorMessage(e);
    throw new UsageError(`cannot write ${file}: ${reason}`, 'IO_ERROR', { cause: e });
  } finally {
    pendingTemps.delete(temp);
  }
}

/** Write `text` to `target` (`-` = standard output), atomically for a file. */
export function writeOutput(io: CliIo, target: string, text: string): void {
  if (target === '-') {
    io.stdout(text);
    return;
  }
  writeFileAtomic(resolvePath(io, target), text);
}

/** Write bytes to a file, atomically. */
export function writeBinary(io: CliIo, target: string, bytes: Uint8Array): void {
  writeFileAtomic(resolvePath(io, target), bytes);
}

/** Standard input as a stream. */
export function stdinStream(io: CliIo): Readable {
  return io.stdin ? io.stdin() : process.stdin;
}

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * The bytes of `source`: a file, or standard input for `-`. `option` names the option in
 * errors (`--snapshot x.json: no such file`).
 */
export async function readInput(io: CliIo, source: string, option: string): Promise<Buffer> {
  if (source === '-') return readStream(stdinStream(io));
  const file = resolveInputPath(io, source);
  if (!existsSync(file)) throw new UsageError(`${option} ${source}: no such file`, 'FILE_NOT_FOUND');
  if (statSync(file).isDirectory()) throw new UsageError(`${option} ${source}: is a directory, expected a file`, 'NOT_A_FILE');
  return readFileSync(file);
}

/** A readable stream of `source` (a file, or standard input for `-`). */
export function inputStream(io: CliIo, source: string, option: string): Readable {
  if (source === '-') return stdinStream(io);
  const file = resolveInputPath(io, source);
  if (!existsSync(file)) throw new UsageError(`${option} ${source}: no such file`, 'FILE_NOT_FOUND');
  if (statSync(file).isDirectory()) throw new UsageError(`${option} ${source}: is a directory, expected a file`, 'NOT_A_FILE');
  return createReadStream(file);
}

/** One JSON value on one line. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value) + '\n';
}

/**
 * Input/output plumbing shared by the commands: where text goes, how bad input is
 * reported (exit code 2, one line), and writing to a file or standard output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Streams a command writes to; tests pass their own to capture output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** `true` when stderr is a terminal (progress bars redraw in place). */
  isTty: boolean;
  /** Directory relative paths are resolved against. */
  cwd: string;
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTty: Boolean(process.stderr.isTTY),
    cwd: process.env.INIT_CWD ?? process.cwd(),
  };
}

/** Bad input from the user: reported as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'USAGE';
}

/** Resolve a user path against the io's working directory. */
export function resolvePath(io: CliIo, p: string): string {
  return path.resolve(io.cwd, p);
}

/** Write `text` to `target` (`-` = stdout), creating parent directories. */
export function writeOutput(io: CliIo, target: string, text: string): void {
  if (target === '-') {
    io.stdout(text);
    return;
  }
  const file = resolvePath(io, target);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** One JSON value on one line. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value) + '\n';
}

/** Write bytes to a file, creating parent directories. */
export function writeBinary(io: CliIo, target: string, bytes: Uint8Array): void {
  const file = resolvePath(io, target);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

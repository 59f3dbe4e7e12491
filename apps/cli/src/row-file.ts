/**
 * Where `benchmark-local` writes rows: standard output, or a file written through
 * `<file>.partial` (each row a whole line, appended as it comes), renamed into place when
 * the run ends or is interrupted. `--resume` reads back the rows a previous run finished
 * (from the partial file a killed run left, or from the file itself) and keeps those that
 * are a prefix of this run's targets.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { BenchmarkRow } from '@smi/inhabit';
import { UsageError } from './errors.js';
import { type CliIo, resolvePath } from './io.js';

/** What identifies a row: its target. */
export interface RowIdentity {
  target_package: string;
  target_module: string;
  target_function: string;
}

function same(a: RowIdentity, b: RowIdentity): boolean {
  return a.target_package === b.target_package && a.target_module === b.target_module && a.target_function === b.target_function;
}

/** The rows of `text` that are whole lines, parse, and follow `expected` in order. */
function finishedRows(text: string, expected: readonly RowIdentity[]): BenchmarkRow[] {
  const out: BenchmarkRow[] = [];
  const lines = text.split('\n');
  // The last piece has no newline: a row cut off by a kill, or nothing.
  for (const line of lines.slice(0, -1)) {
    if (out.length >= expected.length) break;
    let row: BenchmarkRow;
    try {
      row = JSON.parse(line) as BenchmarkRow;
    } catch {
      break;
    }
    if (typeof row !== 'object' || row === null || !same(row, expected[out.length])) break;
    out.push(row);
  }
  return out;
}

/** A destination for rows. */
export class RowFile {
  private fd: number | null;

  private constructor(
    private readonly io: CliIo,
    private readonly file: string | null,
    fd: number | null,
  ) {
    this.fd = fd;
  }

  /**
   * Open `target` (`-`: standard output). With `resume`, the rows already written that match
   * the start of `expected` are kept (and returned); otherwise the file starts empty.
   */
  static open(io: CliIo, target: string, resume: boolean, expected: readonly RowIdentity[]): { out: RowFile; done: BenchmarkRow[] } {
    if (target === '-') {
      if (resume) throw new UsageError('--resume needs --output <file>: rows written to standard output cannot be read back', 'USAGE');
      return { out: new RowFile(io, null, null), done: [] };
    }
    const file = resolvePath(io, target);
    const partial = `${file}.partial`;
    let done: BenchmarkRow[] = [];
    if (resume) {
      const source = existsSync(partial) ? partial : existsSync(file) ? file : null;
      if (source !== null) done = finishedRows(readFileSync(source, 'utf8'), expected);
    }
    let fd: number;
    try {
      fd = openSync(partial, 'w');
      for (const row of done) writeSync(fd, JSON.stringify(row) + '\n');
    } catch (e) {
      throw new UsageError(`--output ${target}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 'IO_ERROR', { cause: e });
    }
    return { out: new RowFile(io, file, fd), done };
  }

  /** Append one row line. */
  write(line: string): void {
    if (this.fd === null) this.io.stdout(line);
    else writeSync(this.fd, line);
  }

  /** Put the file in place (the rows written so far, whether or not the run finished). */
  close(): void {
    if (this.fd === null || this.file === null) return;
    closeSync(this.fd);
    this.fd = null;
    renameSync(`${this.file}.partial`, this.file);
  }

  /** Drop the partial file (the run failed before writing anything worth keeping). */
  discard(): void {
    if (this.fd === null || this.file === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(`${this.file}.partial`, { force: true });
  }
}

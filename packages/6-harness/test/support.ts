/** Helpers of the harness tests. */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { plain, type RunJson } from '../src/index.js';

/** A fresh temp directory. */
export function tempDir(prefix = 'smi-harness-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A run JSON without what changes from run to run (times, elapsed seconds, the checksum). */
export function stable(run: RunJson | string): unknown {
  const data = typeof run === 'string' ? (JSON.parse(run) as Record<string, unknown>) : (plain(run as never) as Record<string, unknown>);
  const { started_at_unix_seconds: _s, finished_at_unix_seconds: _f, _checksum: _c, ...rest } = data;
  return { ...rest, packages: (rest.packages as Record<string, unknown>[]).map(({ elapsed_seconds: _e, ...row }) => row) };
}

/** The event names of a run directory, in order. */
export function eventNames(dir: string): string[] {
  return readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { event: string }).event);
}

/** The lines of a JSONL file, parsed. */
export function jsonl<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

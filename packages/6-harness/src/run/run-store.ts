/**
 * Where a run keeps what it did: a run directory on disk (the default) or memory (for
 * `--no-log` and embedding). The directory holds
 * - `spec.json`: the run's spec and its hash;
 * - `run_metadata.json`: the original's metadata (pretty, sorted keys);
 * - `state.json`: status (`started|success|cancelled|error`) and the sessions that worked on it;
 * - `events.jsonl`: `{"t": <unix s>, "event": <name>, ...}` written as the original did;
 * - `packages.jsonl`: the original's per-package rows, as packages finish;
 * - `results/<id>.json`: each package's result, written atomically (the checkpoint);
 * - `usage.jsonl`: every model call's tokens and cost (totals carry across resumes);
 * - `run.json`: the original's run JSON with its `_checksum`.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '@smi/simulation';
import { type PyJson, pyDumps, pyDumpsLine } from '../py-json.js';
import type { RunSpec } from './spec.js';
import type { LedgerEntry, PackageResult, RunState } from './types.js';
import { errorMessage, SmiError } from '@smi/bytecode';

/** Why a run directory cannot be used. */
export class RunStoreError extends SmiError<'RUN_NOT_FOUND' | 'RUN_CORRUPT' | 'RUN_EXISTS'> {
  override readonly name = 'RunStoreError';
  constructor(code: 'RUN_NOT_FOUND' | 'RUN_CORRUPT' | 'RUN_EXISTS', message: string) {
    super(code, message);
  }
}

/** Storage of one run. */
export interface RunStore {
  /** The directory, or `null` in memory. */
  readonly dir: string | null;
  readSpec(): { spec: RunSpec; spec_hash: string } | null;
  writeSpec(spec: RunSpec, hash: string): void;
  writeMetadata(meta: { [key: string]: PyJson }): void;
  readState(): RunState | null;
  writeState(state: RunState): void;
  event(name: string, fields?: { [key: string]: PyJson }): void;
  packageRow(row: { [key: string]: PyJson }): void;
  /** Every stored result (unreadable files are reported in `damaged`, and re-run). */
  results(): { results: PackageResult[]; damaged: string[] };
  writeResult(result: PackageResult): void;
  ledger(): LedgerEntry[];
  appendLedger(entry: LedgerEntry): void;
  writeRunJson(text: string): void;
  /** Write another file of the run (`samples.jsonl`, `junit.xml`, ...), whole. */
  writeFile(name: string, text: string): void;
}

/** The original's `_safe_filename`: characters outside `[A-Za-z0-9-_.]` become `_`, at most 120. */
export function safeFileName(s: string): string {
  return [...s]
    .map((c) => (/^[\p{L}\p{N}\-_.]$/u.test(c) ? c : '_'))
    .join('')
    .slice(0, 120);
}

/** The original's `default_run_id`: `<prefix>_<YYYYmmdd_HHMMSS UTC>_pid<pid>_<6 hex>`. */
export function defaultRunId(prefix: string, now = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const ts = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}_${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  const rand = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  return `${prefix}_${ts}_pid${process.pid}_${rand}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function readJsonFile<T>(file: string, what: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new RunStoreError('RUN_CORRUPT', `${file}: ${what} is not readable JSON (${errorMessage(e)})`);
  }
}

function readJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const out: T[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // A line cut short by a kill: the call it records is lost with it.
    }
  }
  return out;
}

/** A run directory on disk. */
export class DiskRunStore implements RunStore {
  private constructor(readonly dir: string) {}

  /** Open the run directory `dir` (made when something is first written to it). */
  static at(dir: string): DiskRunStore {
    return new DiskRunStore(dir);
  }

  private made = false;

  /** Make the directory before a write. */
  private ensure(): void {
    if (this.made) return;
    mkdirSync(path.join(this.dir, 'results'), { recursive: true });
    this.made = true;
  }

  /** Open an existing run directory (it must have a `spec.json`). */
  static existing(dir: string): DiskRunStore {
    if (!existsSync(path.join(dir, 'spec.json'))) throw new RunStoreError('RUN_NOT_FOUND', `${dir} is not a run directory (no spec.json)`);
    return DiskRunStore.at(dir);
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  /** A file to write (the directory made first). */
  private out(name: string): string {
    this.ensure();
    return path.join(this.dir, name);
  }

  readSpec(): { spec: RunSpec; spec_hash: string } | null {
    const f = this.file('spec.json');
    return existsSync(f) ? readJsonFile<{ spec: RunSpec; spec_hash: string }>(f, 'the spec') : null;
  }

  writeSpec(spec: RunSpec, hash: string): void {
    writeFileAtomic(this.out('spec.json'), JSON.stringify({ spec_hash: hash, spec }, null, 2) + '\n');
  }

  writeMetadata(meta: { [key: string]: PyJson }): void {
    writeFileAtomic(this.out('run_metadata.json'), pyDumps(meta, 2) + '\n');
  }

  readState(): RunState | null {
    const f = this.file('state.json');
    return existsSync(f) ? readJsonFile<RunState>(f, 'the run state') : null;
  }

  writeState(state: RunState): void {
    writeFileAtomic(this.out('state.json'), JSON.stringify(state, null, 2) + '\n');
  }

  event(name: string, fields: { [key: string]: PyJson } = {}): void {
    appendFileSync(this.out('events.jsonl'), pyDumpsLine({ t: nowSeconds(), event: name, ...fields }) + '\n');
  }

  packageRow(row: { [key: string]: PyJson }): void {
    appendFileSync(this.out('packages.jsonl'), pyDumpsLine(row) + '\n');
  }

  /** Append an event line as written elsewhere (merging shards). */
  appendEventLine(line: string): void {
    appendFileSync(this.out('events.jsonl'), line.replace(/\n$/, '') + '\n');
  }

  /** Append a package row line as written elsewhere (merging shards). */
  appendPackageLine(line: string): void {
    appendFileSync(this.out('packages.jsonl'), line.replace(/\n$/, '') + '\n');
  }

  results(): { results: PackageResult[]; damaged: string[] } {
    const dir = this.file('results');
    const results: PackageResult[] = [];
    const damaged: string[] = [];
    if (!existsSync(dir)) return { results, damaged };
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.json')) {
        // A temp file left by a kill mid-write: the rename never happened.
        if (f.endsWith('.tmp')) rmSync(path.join(dir, f), { force: true });
        continue;
      }
      try {
        const r = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as PackageResult;
        if (typeof r.package_id !== 'string' || typeof r.outcome !== 'string' || typeof r.row !== 'object') throw new Error('not a package result');
        results.push(r);
      } catch {
        damaged.push(f);
      }
    }
    return { results, damaged };
  }

  writeResult(result: PackageResult): void {
    writeFileAtomic(path.join(this.out('results'), `${safeFileName(result.package_id)}.json`), JSON.stringify(result, null, 1) + '\n');
  }

  ledger(): LedgerEntry[] {
    return readJsonl<LedgerEntry>(this.file('usage.jsonl'));
  }

  appendLedger(entry: LedgerEntry): void {
    appendFileSync(this.out('usage.jsonl'), JSON.stringify(entry) + '\n');
  }

  writeRunJson(text: string): void {
    writeFileAtomic(this.out('run.json'), text);
  }
  writeFile(name: string, text: string): void {
    writeFileAtomic(this.out(name), text);
  }
}

/** A run kept in memory (nothing on disk; a run that cannot be resumed). */
export class MemoryRunStore implements RunStore {
  readonly dir = null;
  private spec: { spec: RunSpec; spec_hash: string } | null = null;
  private state: RunState | null = null;
  private readonly stored = new Map<string, PackageResult>();
  private readonly calls: LedgerEntry[] = [];
  /** Events written, as lines. */
  readonly events: string[] = [];
  /** The last run JSON written. */
  runJson: string | null = null;

  readSpec(): { spec: RunSpec; spec_hash: string } | null {
    return this.spec;
  }
  writeSpec(spec: RunSpec, hash: string): void {
    this.spec = { spec, spec_hash: hash };
  }
  writeMetadata(): void {}
  readState(): RunState | null {
    return this.state;
  }
  writeState(state: RunState): void {
    this.state = structuredClone(state);
  }
  event(name: string, fields: { [key: string]: PyJson } = {}): void {
    this.events.push(pyDumpsLine({ t: nowSeconds(), event: name, ...fields }));
  }
  packageRow(): void {}
  results(): { results: PackageResult[]; damaged: string[] } {
    return { results: [...this.stored.values()], damaged: [] };
  }
  writeResult(result: PackageResult): void {
    this.stored.set(result.package_id, structuredClone(result));
  }
  ledger(): LedgerEntry[] {
    return [...this.calls];
  }
  appendLedger(entry: LedgerEntry): void {
    this.calls.push(entry);
  }
  writeRunJson(text: string): void {
    this.runJson = text;
  }
  /** Files written besides the run JSON, by name. */
  readonly files = new Map<string, string>();
  writeFile(name: string, text: string): void {
    this.files.set(name, text);
  }
}

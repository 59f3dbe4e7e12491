/**
 * What a report reads: `smi benchmark-local` rows (`.jsonl`), Phase I / II run directories
 * (their spec, every stored package result with its model calls, the usage ledger) and bare
 * run JSON files. Everything read is checked at this boundary; a damaged line or result is
 * reported, never silently dropped from a denominator.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DiskRunStore, type PackageResult, type RunSpec, RunStoreError, runTotals } from '@smi/harness';
import type { BenchmarkRow } from '@smi/inhabit';
import { z } from 'zod';
import { ReportError } from './errors.js';
import { errorMessage } from '@smi/bytecode';

/** Tokens, dollars and time a run spent (from its ledger and sessions). */
export interface RunSpend {
  calls: number;
  cache_hits: number;
  input_tokens: number;
  output_tokens: number;
  /** `null` when some call had no price. */
  spent_usd: number | null;
  wall_seconds: number;
}

/** One input of a report. */
export type ReportInput =
  | { $kind: 'BenchmarkLocal'; label: string; path: string; rows: BenchmarkRow[]; damaged: string[] }
  | {
      $kind: 'PhaseRun';
      label: string;
      path: string;
      phase: 'phase1' | 'phase2';
      spec: RunSpec | null;
      /** The run JSON (`run.json`), when written. */
      runJson: Record<string, unknown> | null;
      /** Per-package results: a run directory's `results/`, else built from the run JSON's rows. */
      results: PackageResult[];
      /** Whether `results` carry model calls (a run directory) or only rows (a run JSON). */
      fromDirectory: boolean;
      spend: RunSpend | null;
      damaged: string[];
    };

const rowSchema = z
  .object({
    target_package: z.string(),
    target_module: z.string(),
    target_function: z.string(),
    status: z.enum(['tier_b_hit', 'tier_a_hit', 'miss', 'static_pass']),
  })
  .passthrough();

const runJsonSchema = z.object({ packages: z.array(z.record(z.string(), z.unknown())), aggregate: z.record(z.string(), z.unknown()).optional() }).passthrough();

const message = (e: unknown): string => errorMessage(e);

/** Rows of a benchmark-local JSONL file (blank lines skipped; a bad line is an error naming it). */
export function readBenchmarkRows(file: string, text: string): BenchmarkRow[] {
  const rows: BenchmarkRow[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new ReportError('INPUT_UNREADABLE', `${file}:${i + 1}: not JSON (${message(e)})`);
    }
    const r = rowSchema.safeParse(value);
    if (!r.success)
      throw new ReportError('INPUT_UNREADABLE', `${file}:${i + 1}: not a benchmark-local row (${r.error.issues[0]?.path.join('.') || 'row'}: ${r.error.issues[0]?.message ?? 'invalid'})`);
    rows.push(r.data as unknown as BenchmarkRow);
  });
  return rows;
}

function phaseOf(runJson: Record<string, unknown>, spec: RunSpec | null): 'phase1' | 'phase2' {
  if (spec?.benchmark === 'phase2' || spec?.benchmark === 'phase1') return spec.benchmark;
  return runJson.schema_version === 2 ? 'phase2' : 'phase1';
}

function readRunJson(file: string): Record<string, unknown> {
  return parseRunJson(file, readFileSync(file, 'utf8'));
}

function parseRunJson(file: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ReportError('INPUT_UNREADABLE', `${file}: not JSON (${message(e)})`);
  }
  const r = runJsonSchema.safeParse(value);
  if (!r.success) throw new ReportError('INPUT_UNKNOWN', `${file}: not a run JSON (no "packages" list)`);
  return r.data;
}

/** Results made from a run JSON's rows (no model calls: the transcript shows the row). */
function resultsOfRunJson(runJson: Record<string, unknown>): PackageResult[] {
  const rows = runJson.packages as Record<string, unknown>[];
  return rows.map((row, index) => {
    const outcome = typeof row.outcome === 'string' ? row.outcome : row.error ? 'infra_error' : 'wrong';
    return {
      package_id: String(row.package_id),
      index,
      outcome: outcome as PackageResult['outcome'],
      error: typeof row.error === 'string' ? row.error : null,
      timed_out: row.timed_out === true,
      elapsed_seconds: typeof row.elapsed_seconds === 'number' ? row.elapsed_seconds : 0,
      row,
      usage: { calls: 0, cache_hits: 0, input: 0, output: 0, cached: 0, reasoning: 0, total: 0, cost_usd: null },
      session: 1,
      finished_at: '',
    };
  });
}

function labelOf(p: string, spec: RunSpec | null, runJson: Record<string, unknown> | null): string {
  const agent = spec?.agent ?? (typeof runJson?.agent === 'string' ? runJson.agent : null);
  const model = spec?.model?.id ?? null;
  const who = [agent, model].filter((s) => s !== null && s !== '').join(' · ');
  return who === '' ? path.basename(p) : `${path.basename(p)} (${who})`;
}

function readRunDir(dir: string): ReportInput {
  let store: DiskRunStore;
  try {
    store = DiskRunStore.existing(dir);
  } catch (e) {
    if (e instanceof RunStoreError) throw new ReportError('INPUT_UNKNOWN', `${dir}: ${e.message}`);
    throw e;
  }
  try {
    const spec = store.readSpec()?.spec ?? null;
    const runFile = path.join(dir, 'run.json');
    const runJson = existsSync(runFile) ? readRunJson(runFile) : null;
    const { results, damaged } = store.results();
    results.sort((a, b) => a.index - b.index);
    const state = store.readState();
    const t = state === null ? null : runTotals(store, state);
    const spend = t === null ? null : { calls: t.calls, cache_hits: t.cache_hits, input_tokens: t.input_tokens, output_tokens: t.output_tokens, spent_usd: t.spent_usd, wall_seconds: t.wall_seconds };
    const phase = phaseOf(runJson ?? {}, spec);
    return { $kind: 'PhaseRun', label: labelOf(dir, spec, runJson), path: dir, phase, spec, runJson, results, fromDirectory: true, spend, damaged };
  } catch (e) {
    if (e instanceof RunStoreError) throw new ReportError('INPUT_UNREADABLE', `${dir}: ${e.message}`);
    throw e;
  }
}

/**
 * An input given as text (a file's, or standard input's): a run JSON (one object with
 * "packages") or benchmark-local rows (JSON lines).
 */
export function inputFromText(label: string, text: string): ReportInput {
  const first = text.trimStart();
  const firstLine = first.split('\n', 1)[0].trimEnd();
  let runJsonLike = first.startsWith('{') && !firstLine.endsWith('}');
  if (!runJsonLike && first.startsWith('{') && first.trimEnd() === firstLine) {
    // One line: a run JSON written on one line, or a single row.
    try {
      runJsonLike = Array.isArray((JSON.parse(firstLine) as { packages?: unknown }).packages);
    } catch {
      runJsonLike = false;
    }
  }
  if (runJsonLike) {
    const runJson = parseRunJson(label, text);
    return {
      $kind: 'PhaseRun',
      label: labelOf(label, null, runJson),
      path: label,
      phase: phaseOf(runJson, null),
      spec: null,
      runJson,
      results: resultsOfRunJson(runJson),
      fromDirectory: false,
      spend: null,
      damaged: [],
    };
  }
  return { $kind: 'BenchmarkLocal', label: path.basename(label), path: label, rows: readBenchmarkRows(label, text), damaged: [] };
}

/** Read one input: a run directory, a run JSON file or benchmark-local rows (JSONL). */
export function readInput(p: string): ReportInput {
  if (!existsSync(p)) throw new ReportError('FILE_NOT_FOUND', `${p}: no such run directory, run JSON or benchmark-local rows`);
  if (statSync(p).isDirectory()) return readRunDir(p);
  return inputFromText(p, readFileSync(p, 'utf8'));
}

/** Make labels unique (`name #2`). */
export function uniqueLabels(inputs: ReportInput[]): ReportInput[] {
  const seen = new Map<string, number>();
  for (const i of inputs) {
    const n = (seen.get(i.label) ?? 0) + 1;
    seen.set(i.label, n);
    if (n > 1) i.label = `${i.label} #${n}`;
  }
  return inputs;
}

/** Read every input (labels made unique). */
export function readInputs(paths: readonly string[]): ReportInput[] {
  if (paths.length === 0) throw new ReportError('NO_INPUTS', 'no inputs: give run directories, run JSON files or benchmark-local .jsonl files');
  return uniqueLabels(paths.map(readInput));
}

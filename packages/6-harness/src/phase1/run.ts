/**
 * A Phase I run from start to finish: pick the packages (sample, ids file or dataset;
 * shard), open or resume the run, do what is left in parallel, and write the original's
 * run JSON (every `checkpointEvery` packages and at the end) with its events. Resuming
 * the original's own `--out` file (no run directory) imports its rows, as it did.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '@smi/simulation';
import type { ModelPrice } from '../accounting.js';
import { type DiscoverySkips, discoverPackages, type PackageRef, selectPackages } from '../dataset.js';
import type { GenerateParams, ModelClient } from '../model/types.js';
import { type PyJson, PyFloat } from '../py-json.js';
import { checkCompatibility, loadRunJson, renderRunJson, type RunJson } from '../run/checkpoint.js';
import { executePackages } from '../run/executor.js';
import type { RunStore } from '../run/run-store.js';
import { announceRunStart, closeSession, openRun, type OpenedRun, runTotals, type RunTotals, statusOf, touchSession } from '../run/session.js';
import { openRunOptions, type RunControlOptions } from '../run/control.js';
import { gitCommit, harnessVersion, packageDirHash, packageVersions, type RunSpec } from '../run/spec.js';
import type { Outcome, PackageResult, RunStatus, StopReason } from '../run/types.js';
import type { Phase1Agent } from './agents.js';
import { phase1RunJson } from './report.js';
import { writeSampleFiles } from '../run/samples.js';
import { PHASE1_PROMPT_VERSION } from './truth.js';
import { PHASE1_MAX_ATTEMPTS, phase1Package, type ServerSupport, type StructuredMode } from './worker.js';
import { SmiError } from '@smi/bytecode';

/** Everything a Phase I run needs. */
export interface Phase1Options extends RunControlOptions {
  agent: Phase1Agent;
  /** The model of `real-openai-compatible`. */
  model?: ModelClient;
  params?: GenerateParams;
  structured?: StructuredMode;
  /** Samples per package (pass@k in the aggregate); the row scores the first (default 1). */
  epochs?: number;
  /** What the model costs (omit: cost unknown). */
  price?: ModelPrice;
  maxStructsInPrompt?: number;
  includeTypeLists?: boolean;
  budgetUsd?: number | null;
  /** Fields of the `agent_effective_config` event (the model's configuration, key redacted). */
  effectiveConfig?: { [key: string]: PyJson };
  onStart?: (info: { total: number; done: number; todo: number; resumed: boolean; skipped: DiscoverySkips; missing: string[] }) => void;
  onResult?: (result: PackageResult, counts: Record<Outcome, number>) => void;
}

/** How a Phase I session ended. */
export interface Phase1Outcome {
  runJson: RunJson;
  /** The run JSON as written (with `_checksum`). */
  text: string;
  status: RunStatus;
  stopReason: StopReason | null;
  stopDetail: string | null;
  totals: RunTotals;
  run: OpenedRun;
  /** Ids asked for that the corpus does not hold. */
  missing: string[];
  skipped: DiscoverySkips;
}

/** Why a Phase I run cannot start. */
export class Phase1Error extends SmiError<'NO_PACKAGES' | 'NEEDS_MODEL' | 'NEEDS_OUT' | 'NEEDS_PRICE'> {
  override readonly name = 'Phase1Error';
  constructor(code: 'NO_PACKAGES' | 'NEEDS_MODEL' | 'NEEDS_OUT' | 'NEEDS_PRICE', message: string) {
    super(code, message);
  }
}

/** The outcome of an imported row of the original (which did not record one). */
function importedOutcome(row: { [key: string]: PyJson }): Outcome {
  const err = row.error;
  if (typeof err === 'string') return /timeout/i.test(err) ? 'limit' : /extraction/i.test(err) ? 'infra_error' : /JSON|parse/i.test(err) ? 'unparseable' : 'model_error';
  const s = row.score as { fp?: unknown; fn?: unknown } | null;
  return s !== null && Number(s.fp) === 0 && Number(s.fn) === 0 ? 'correct' : 'wrong';
}

function num(v: PyJson | undefined): number {
  return v instanceof PyFloat ? v.value : typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}

/** Import the rows of the original's run file into a new run directory (resuming `--out` as it did). */
function importLegacy(store: RunStore, file: string, o: Phase1Options, index: ReadonlyMap<string, number>): number {
  const data = loadRunJson(file);
  checkCompatibility(data, { agent: o.agent, seed: o.seed, schema_version: 1 });
  let n = 0;
  for (const row of data.packages as { [key: string]: PyJson }[]) {
    const id = row.package_id as string;
    const at = index.get(id);
    if (at === undefined) {
      store.event('checkpoint_resume_skip', { package_id: id, reason: 'not in this run' });
      continue;
    }
    const s = row.score as { [key: string]: PyJson };
    const score = { tp: num(s.tp), fp: num(s.fp), fn: num(s.fn), precision: num(s.precision), recall: num(s.recall), f1: num(s.f1), missing_sample: s.missing_sample, extra_sample: s.extra_sample };
    const outcome = importedOutcome(row);
    store.writeResult({
      package_id: id,
      index: at,
      outcome,
      error: typeof row.error === 'string' ? row.error : null,
      timed_out: row.timed_out === true,
      elapsed_seconds: num(row.elapsed_seconds),
      row: { ...JSON.parse(JSON.stringify(row, (_k, v: unknown) => (v instanceof PyFloat ? v.value : typeof v === 'bigint' ? Number(v) : v))), score, outcome },
      usage: { calls: 0, cache_hits: 0, input: 0, output: 0, cached: 0, reasoning: 0, total: 0, cost_usd: null },
      session: 0,
      finished_at: new Date().toISOString(),
      details: { imported_from: file },
    });
    n++;
  }
  return n;
}

function countOutcomes(results: Iterable<PackageResult>): Record<Outcome, number> {
  const c: Record<Outcome, number> = { correct: 0, wrong: 0, unparseable: 0, limit: 0, model_error: 0, infra_error: 0 };
  for (const r of results) c[r.outcome]++;
  return c;
}

/** Run (or resume) Phase I. */
export async function runPhase1(o: Phase1Options): Promise<Phase1Outcome> {
  if (o.agent === 'real-openai-compatible' && o.model === undefined) throw new Phase1Error('NEEDS_MODEL', 'the real-openai-compatible agent needs a model (SMI_MODEL and an API key)');
  if (o.budgetUsd != null && o.price === undefined) throw new Phase1Error('NEEDS_PRICE', `--budget-usd needs the model's price: add it to a prices.yaml (--prices)`);
  const { packages, skipped } = discoverPackages(o.corpusRoot);
  const { picked, missing } = selectPackages(packages, { ...(o.ids ? { ids: o.ids.ids } : {}), samples: o.samples, seed: o.seed });
  if (picked.length === 0) throw new Phase1Error('NO_PACKAGES', `no packages to run under ${o.corpusRoot}${o.ids ? ` for the ${o.ids.ids.length} ids of ${o.ids.source}` : ''}`);
  const dirs = new Map(picked.map((p: PackageRef) => [p.packageId, p.packageDir]));
  const params = o.params ?? {};
  const spec: RunSpec = {
    spec_version: 1,
    benchmark: 'phase1',
    ids: picked.map((p) => p.packageId),
    package_hashes: Object.fromEntries(picked.map((p) => [p.packageId, packageDirHash(p.packageDir)])),
    seed: o.seed.toString(),
    agent: o.agent,
    model: o.model ? { id: o.model.model, base_url: o.model.baseUrl, params } : null,
    limits: {
      max_structs_in_prompt: o.maxStructsInPrompt ?? 200,
      per_package_timeout_seconds: o.perPackageTimeoutSeconds ?? 120,
      max_attempts: PHASE1_MAX_ATTEMPTS,
      include_type_lists: o.includeTypeLists ?? false,
      structured_output: o.model ? (o.structured ?? 'auto') : null,
    },
    prompt_version: PHASE1_PROMPT_VERSION,
    code: { git_commit: gitCommit(path.dirname(new URL(import.meta.url).pathname)), harness_version: harnessVersion(), packages: packageVersions() },
    epochs: Math.max(1, o.epochs ?? 1),
  };
  const startedAt = Math.floor(Date.now() / 1000);
  const metadata = {
    schema_version: 1,
    benchmark: 'phase1_key_struct_discovery',
    started_at_unix_seconds: startedAt,
    agent: o.agent,
    seed: o.seed >= BigInt(Number.MIN_SAFE_INTEGER) && o.seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(o.seed) : o.seed,
    corpus_root: o.corpusRoot,
    argv: o.argv ?? [],
    cwd: o.cwd ?? null,
    run_id: o.runId,
  };
  const legacy = o.resume === true && o.store.readSpec() === null && o.out != null && existsSync(o.out) ? o.out : null;
  const run = openRun(openRunOptions(o, spec, metadata, dirs));
  if (legacy !== null) {
    const index = new Map(spec.ids.map((id, i) => [id, i]));
    importLegacy(o.store, legacy, o, index);
    const reopened = o.store.results().results.filter((r) => dirs.has(r.package_id));
    for (const r of reopened) run.done.set(r.package_id, r);
    run.todo = run.todo.filter((j) => !run.done.has(j.packageId));
  }
  const firstStart = announceRunStart(o.store, run, { agent: o.agent, seed: metadata.seed, runId: o.runId, effectiveConfig: o.effectiveConfig });
  for (const f of run.damaged) o.store.event('checkpoint_resume_skip', { file: f, reason: 'unreadable result file (the package is done again)' });
  o.onStart?.({ total: run.ids.length, done: run.done.size, todo: run.todo.length, resumed: run.resumed, skipped, missing });

  const all = new Map(run.done);
  const info = {
    startedAt: firstStart,
    corpusRootName: path.basename(path.resolve(o.corpusRoot)),
    corpusGit: ((h) => (h === null ? null : { head: h }))(gitCommit(o.corpusRoot)),
    targetIdsFile: o.ids ? o.ids.source : null,
    targetIdsTotal: o.ids ? picked.length : null,
    seed: o.seed,
    agent: o.agent,
    model: o.model?.model ?? null,
  };
  const writeRun = (final: boolean): { runJson: RunJson; text: string } => {
    const runJson = phase1RunJson({ ...info, finishedAt: Math.floor(Date.now() / 1000) }, [...all.values()]);
    const text = renderRunJson(runJson);
    o.store.writeRunJson(text);
    if (final) writeSampleFiles(o.store, 'smi.phase1', [...all.values()]);
    if (o.out != null) writeFileAtomic(o.out, text);
    o.store.event('checkpoint_written', { path: o.out ?? (o.store.dir === null ? null : path.join(o.store.dir, 'run.json')), packages_count: all.size, final });
    return { runJson, text };
  };
  const support: ServerSupport = { jsonSchema: true };
  const settings = {
    agent: o.agent,
    seed: o.seed,
    maxStructsInPrompt: o.maxStructsInPrompt ?? 200,
    includeTypeLists: o.includeTypeLists ?? false,
    model: o.model ?? null,
    params,
    structured: o.structured ?? 'auto',
    epochs: Math.max(1, o.epochs ?? 1),
  };
  const spentBefore = o.model ? runTotals(o.store, run.state).spent_usd : 0;
  const checkpointEvery = o.checkpointEvery ?? 10;
  const outcome = await executePackages({
    store: o.store,
    session: run.session,
    jobs: run.todo,
    doneBefore: run.done.size,
    work: (job, ctx) => phase1Package(job, ctx, settings, support),
    concurrency: o.concurrency ?? 4,
    perPackageTimeoutMs: o.perPackageTimeoutSeconds === undefined ? 120_000 : o.perPackageTimeoutSeconds * 1000,
    maxRunMs: o.maxRunSeconds == null ? null : o.maxRunSeconds * 1000,
    parentPid: o.parentPid ?? null,
    ...(o.signal ? { signal: o.signal } : {}),
    budgetUsd: o.budgetUsd ?? null,
    spentBeforeUsd: spentBefore,
    // Mock agents call no model: they cost nothing, which is known.
    price: o.model ? o.price : { input: 0, output: 0 },
    continueOnError: o.continueOnError ?? false,
    maxErrors: o.maxErrors ?? 25,
    errorsBefore: run.errorsBefore,
    earlier: run.earlier,
    onResult: (result, finished) => {
      all.set(result.package_id, result);
      const r = result.row as Record<string, PyJson>;
      o.store.packageRow({ ...r, elapsed_seconds: new PyFloat(result.elapsed_seconds), outcome: result.outcome });
      touchSession(o.store, run, finished);
      if (checkpointEvery > 0 && finished % checkpointEvery === 0) writeRun(false);
      o.onResult?.(result, countOutcomes(all.values()));
    },
  });
  const allDone = run.ids.every((id) => all.has(id));
  const status = statusOf(allDone, outcome.stopReason);
  const { runJson, text } = writeRun(true);
  closeSession(o.store, run, outcome.finished, status, outcome.stopReason);
  const agg = runJson.aggregate as { [key: string]: PyJson };
  o.store.event('run_finished', {
    finished_at_unix_seconds: runJson.finished_at_unix_seconds as number,
    samples: all.size,
    errors: agg.errors,
    avg_f1: agg.avg_f1,
    status,
    stop_reason: outcome.stopReason,
  });
  return { runJson, text, status, stopReason: outcome.stopReason, stopDetail: outcome.stopDetail, totals: runTotals(o.store, run.state), run, missing, skipped };
}

/**
 * Sessions of a run: opening a run directory (new, or resumed when its spec matches),
 * deciding what is left to do (`--retry-errors` adds the failed packages back, keeping
 * their earlier tries; `--samples` over an ids file is a batch size), and closing the
 * session with the run's status. Totals of tokens, money and time come from every
 * session's records, so they carry across resumes.
 */
import type { PyJson } from '../py-json.js';
import type { PackageSpend } from './compare.js';
import type { PackageJob } from './executor.js';
import { RunStoreError, type RunStore } from './run-store.js';
import { inShard, type Shard } from './shard.js';
import { type RunSpec, specDifferences, specHash } from './spec.js';
import { type EarlierTry, isFailure, type LedgerEntry, type PackageResult, RETRYABLE_OUTCOMES, type RunState, type RunStatus, type StopReason } from './types.js';
import { SmiError } from '@smi/bytecode';

/** A resumed run whose spec differs from this one's. */
export class SpecMismatchError extends SmiError<'SPEC_MISMATCH'> {
  override readonly name = 'SpecMismatchError';
  constructor(
    readonly differences: string[],
    dir: string,
    details: string[] = differences,
  ) {
    super('SPEC_MISMATCH', `the run in ${dir} was made with a different spec (${details.join('; ')}); its results would not be comparable. Start a new run, or pass --force to resume it anyway`);
  }
}

/** A difference of two specs in words: `seed: 7 (run) vs 8 (now)`. */
function describeDifference(key: string, was: unknown, now: unknown): string {
  if (key === 'ids' && Array.isArray(was) && Array.isArray(now)) {
    const a = new Set(was as string[]);
    const added = (now as string[]).filter((x) => !a.has(x)).length;
    const removed = (was as string[]).filter((x) => !new Set(now as string[]).has(x)).length;
    return `packages: ${was.length} in the run, ${now.length} now (${added} new, ${removed} gone${added + removed === 0 ? ', order differs' : ''})`;
  }
  if (key === 'package_hashes') return 'package contents differ';
  const text = (v: unknown): string => {
    const t = JSON.stringify(v) ?? 'null';
    return t.length > 80 ? `${t.slice(0, 77)}...` : t;
  };
  return `${key}: ${text(was)} in the run, ${text(now)} now`;
}

/** How to open a run. */
export interface OpenRunOptions {
  store: RunStore;
  runId: string;
  spec: RunSpec;
  /** `run_metadata.json` of a new run. */
  metadata: { [key: string]: PyJson };
  resume: boolean;
  force: boolean;
  retryErrors: boolean;
  shard: Shard | null;
  /** Most packages this session does (`--samples` over an ids file), or `null`. */
  batch: number | null;
  argv: string[];
  /** Package directories by id. */
  dirs: ReadonlyMap<string, string>;
}

/** An opened run. */
export interface OpenedRun {
  state: RunState;
  /** 1-based number of this session. */
  session: number;
  specHash: string;
  /** Ids of this run (its shard), in spec order. */
  ids: string[];
  /** Results kept from earlier sessions, by id. */
  done: Map<string, PackageResult>;
  todo: PackageJob[];
  earlier: Map<string, EarlierTry[]>;
  errorsBefore: number;
  resumed: boolean;
  /** Result files that could not be read (their packages are done again). */
  damaged: string[];
  /** Spec keys that differed when `--force` resumed anyway. */
  forced: string[];
}

/** Open (create or resume) a run and start a session. */
export function openRun(o: OpenRunOptions): OpenedRun {
  const hash = specHash(o.spec);
  const existing = o.store.readSpec();
  let forced: string[] = [];
  if (existing !== null) {
    if (!o.resume) throw new RunStoreError('RUN_EXISTS', `${o.store.dir ?? 'the run'} holds a run already: pass --resume to continue it, or choose another --run-id / --run-dir`);
    if (existing.spec_hash !== hash) {
      const differences = specDifferences(existing.spec, o.spec);
      if (!o.force) {
        const keys = differences.length > 0 ? differences : ['spec_hash'];
        const rec = (x: RunSpec): Record<string, unknown> => x as unknown as Record<string, unknown>;
        throw new SpecMismatchError(
          keys,
          o.store.dir ?? 'memory',
          keys.map((k) => describeDifference(k, rec(existing.spec)[k], rec(o.spec)[k])),
        );
      }
      forced = differences;
    }
  }
  const prior = o.store.readState();
  const state: RunState = prior ?? { run_id: o.runId, benchmark: o.spec.benchmark, spec_hash: hash, status: 'started', stop_reason: null, shard: o.shard, sessions: [] };
  if (existing === null || forced.length > 0) o.store.writeSpec(o.spec, hash);
  if (existing === null) o.store.writeMetadata(o.metadata);
  state.spec_hash = hash;
  state.shard = o.shard;
  const ids = o.spec.ids.filter((id) => inShard(id, o.shard));
  const wanted = new Set(ids);
  const { results, damaged } = o.store.results();
  const done = new Map<string, PackageResult>();
  for (const r of results) if (wanted.has(r.package_id)) done.set(r.package_id, r);
  const earlier = new Map<string, EarlierTry[]>();
  if (o.retryErrors) {
    for (const [id, r] of [...done]) {
      if (!RETRYABLE_OUTCOMES.has(r.outcome)) continue;
      earlier.set(id, [...(r.earlier ?? []), { outcome: r.outcome, error: r.error, session: r.session, finished_at: r.finished_at }]);
      done.delete(id);
    }
  }
  const index = new Map(o.spec.ids.map((id, i) => [id, i]));
  let todo: PackageJob[] = ids.filter((id) => !done.has(id)).map((id) => ({ packageId: id, packageDir: o.dirs.get(id) ?? '', index: index.get(id) as number }));
  if (o.batch !== null && o.batch > 0) todo = todo.slice(0, o.batch);
  state.status = 'started';
  state.stop_reason = null;
  const now = new Date().toISOString();
  state.sessions.push({ started_at: now, ended_at: now, status: 'started', stop_reason: null, argv: o.argv, finished: 0 });
  o.store.writeState(state);
  return {
    state,
    session: state.sessions.length,
    specHash: hash,
    ids,
    done,
    todo,
    earlier,
    errorsBefore: [...done.values()].filter((r) => isFailure(r.outcome)).length,
    resumed: existing !== null,
    damaged,
    forced,
  };
}

/**
 * Write the `run_started` event of a session that just opened (and the agent's effective
 * config when there is one); returns the run's first start, in Unix seconds.
 */
export function announceRunStart(store: RunStore, run: OpenedRun, who: { agent: string; seed: number | bigint; runId: string; effectiveConfig?: { [key: string]: PyJson } | undefined }): number {
  const firstStart = Math.floor(Date.parse(run.state.sessions[0].started_at) / 1000);
  store.event('run_started', {
    started_at_unix_seconds: firstStart,
    agent: who.agent,
    seed: who.seed,
    run_id: who.runId,
    resumed: run.resumed,
    done: run.done.size,
    todo: run.todo.length,
    spec_hash: run.specHash,
  });
  if (who.effectiveConfig !== undefined) store.event('agent_effective_config', who.effectiveConfig);
  return firstStart;
}

/** Note a finished package in the session (its time so far survives a kill). */
export function touchSession(store: RunStore, run: OpenedRun, finished: number): void {
  const s = run.state.sessions[run.session - 1];
  s.ended_at = new Date().toISOString();
  s.finished = finished;
  store.writeState(run.state);
}

/** The status a session ends with. */
export function statusOf(allDone: boolean, stop: StopReason | null): RunStatus {
  if (stop === 'error' || stop === 'max_errors') return 'error';
  if (stop !== null) return 'cancelled';
  // A batch (`--samples` over an ids file) that left work for the next session.
  return allDone ? 'success' : 'started';
}

/** Close the session: the run's status, why it stopped, when. */
export function closeSession(store: RunStore, run: OpenedRun, finished: number, status: RunStatus, stop: StopReason | null): void {
  const s = run.state.sessions[run.session - 1];
  s.ended_at = new Date().toISOString();
  s.finished = finished;
  s.status = status;
  s.stop_reason = stop;
  run.state.status = status;
  run.state.stop_reason = stop;
  store.writeState(run.state);
}

/** Tokens, money and time of every session of a run. */
export interface RunTotals {
  sessions: number;
  /** Wall-clock seconds the sessions worked (a killed session counts to its last finished package). */
  wall_seconds: number;
  calls: number;
  cache_hits: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  /** Money actually paid (cache hits are free); `null` when a call had no price or its answer no usage. */
  spent_usd: number | null;
  /** Answers that gave no usage (their tokens and cost unknown). */
  unknown_usage_calls: number;
  /** Requests sent whose answers never came (a kill while they were in flight): counted at their estimate. */
  unanswered_calls: number;
}

/**
 * The calls of a ledger: every answered call, and every request sent whose answer never came
 * (the session was killed while it was in flight) at its estimate, marked `estimated`.
 */
function settledCalls(entries: readonly LedgerEntry[]): (LedgerEntry & { estimated?: true })[] {
  const answered = new Set(entries.filter((e) => e.sent !== true && e.id !== undefined).map((e) => e.id));
  const out: (LedgerEntry & { estimated?: true })[] = [];
  for (const e of entries) {
    if (e.sent !== true) out.push(e);
    else if (e.id === undefined || !answered.has(e.id)) {
      const { sent: _sent, ...call } = e;
      out.push({ ...call, cost_usd: e.estimate_usd ?? null, usage: { ...e.usage, unknown: true }, estimated: true });
    }
  }
  return out;
}

/** Totals of a run so far. */
export function runTotals(store: RunStore, state: RunState): RunTotals {
  const t: RunTotals = {
    sessions: state.sessions.length,
    wall_seconds: 0,
    calls: 0,
    cache_hits: 0,
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    reasoning_tokens: 0,
    spent_usd: 0,
    unknown_usage_calls: 0,
    unanswered_calls: 0,
  };
  for (const s of state.sessions) if (s.ended_at !== null) t.wall_seconds += Math.max(0, (Date.parse(s.ended_at) - Date.parse(s.started_at)) / 1000);
  t.wall_seconds = Math.round(t.wall_seconds * 1000) / 1000;
  for (const e of settledCalls(store.ledger())) {
    t.calls++;
    if (e.estimated === true) t.unanswered_calls++;
    if (e.cache === 'hit') t.cache_hits++;
    t.input_tokens += e.usage.input;
    t.output_tokens += e.usage.output;
    t.cached_tokens += e.usage.cached;
    t.reasoning_tokens += e.usage.reasoning;
    if (e.usage.unknown === true && e.cache !== 'hit' && e.estimated !== true) t.unknown_usage_calls++;
    t.spent_usd = t.spent_usd === null || e.cost_usd === null ? null : Math.round((t.spent_usd + e.cost_usd) * 1e9) / 1e9;
  }
  return t;
}

/** Tokens and dollars spent per package, from the usage ledger (what `smi compare` sets side by side). */
export function spendByPackage(store: RunStore): Map<string, PackageSpend> {
  const out = new Map<string, PackageSpend>();
  for (const e of settledCalls(store.ledger())) {
    const t = out.get(e.package_id) ?? { input_tokens: 0, output_tokens: 0, spent_usd: 0 };
    t.input_tokens += e.usage.input;
    t.output_tokens += e.usage.output;
    t.spent_usd = t.spent_usd === null || e.cost_usd === null ? null : Math.round((t.spent_usd + e.cost_usd) * 1e9) / 1e9;
    out.set(e.package_id, t);
  }
  return out;
}

/**
 * What a run records about each package, whatever the phase: the outcome (kept apart:
 * a failure never leaves the denominators), the phase's own row in the original's
 * format, tokens and cost, and the earlier tries of a package re-run with `--retry-errors`.
 */
import type { UsageTotals } from '../accounting.js';
import type { ModelUsage } from '../model/types.js';

/**
 * How a package ended: a scored answer (`correct`: exactly right; `wrong`), an answer
 * that could not be read (`unparseable`), a limit that fired (time, tokens), a model or
 * endpoint failure (`model_error`), or our own failure (`infra_error`: the package could
 * not be read or analysed).
 */
export type Outcome = 'correct' | 'wrong' | 'unparseable' | 'limit' | 'model_error' | 'infra_error';

/** Every outcome, in report order. */
export const OUTCOMES: readonly Outcome[] = ['correct', 'wrong', 'unparseable', 'limit', 'model_error', 'infra_error'];

/** Outcomes that `--retry-errors` runs again (an unparseable answer is the model's answer, not an error of the run). */
export const RETRYABLE_OUTCOMES: ReadonlySet<Outcome> = new Set(['limit', 'model_error', 'infra_error']);

/** Outcomes the original counted in `errors`. */
export function isFailure(o: Outcome): boolean {
  return o !== 'correct' && o !== 'wrong';
}

/** Tokens and cost of one package, as stored. */
export interface PackageUsage {
  calls: number;
  cache_hits: number;
  input: number;
  output: number;
  cached: number;
  reasoning: number;
  total: number;
  /** `null` when the model has no price, or an answer gave no usage. */
  cost_usd: number | null;
  /** An answer gave no usage: the counts are what the others reported, the cost unknown. */
  unknown?: true;
}

/** {@link UsageTotals} as stored. */
export function packageUsage(t: UsageTotals): PackageUsage {
  return { calls: t.calls, cache_hits: t.cacheHits, ...t.usage, cost_usd: t.costUsd };
}

/** An earlier try of a package (kept when `--retry-errors` runs it again). */
export interface EarlierTry {
  outcome: Outcome;
  error: string | null;
  session: number;
  finished_at: string;
}

/** The stored result of one package (`results/<id>.json`). */
export interface PackageResult {
  package_id: string;
  /** Position in the spec's ids (0-based): the run JSON lists packages in this order. */
  index: number;
  outcome: Outcome;
  error: string | null;
  timed_out: boolean;
  elapsed_seconds: number;
  /** The phase's row in the original's run-JSON format (plain JSON). */
  row: Record<string, unknown>;
  usage: PackageUsage;
  /** Session (1-based) that produced it. */
  session: number;
  finished_at: string;
  earlier?: EarlierTry[];
  /** What reproduces the answer: the model calls with their cache keys and answers. */
  details?: Record<string, unknown>;
}

/**
 * One model call, as the usage ledger keeps it (every call of every session, for run totals).
 * A request is written when it is sent (`sent: true`, with the most it may cost), its answer
 * when it comes back (the same `id`): a request whose answer never came (a kill) still counts,
 * at that estimate, as billed.
 */
export interface LedgerEntry {
  t: number;
  session: number;
  package_id: string;
  cache: 'hit' | 'write' | 'off';
  usage: ModelUsage;
  cost_usd: number | null;
  /** The call, shared by its `sent` entry and its answer. */
  id?: string;
  /** Written before the request went out: nothing is known of its answer yet. */
  sent?: true;
  /** The most the request may cost (its prompt and `max_tokens` at list price), `null` without a price. */
  estimate_usd?: number | null;
}

/** Status of a run directory. */
export type RunStatus = 'started' | 'success' | 'cancelled' | 'error';

/** Why a session stopped before its work was done. */
export type StopReason = 'interrupted' | 'deadline' | 'parent_died' | 'budget' | 'max_errors' | 'error';

/** One invocation working on a run. */
export interface Session {
  started_at: string;
  ended_at: string | null;
  status: RunStatus;
  stop_reason: StopReason | null;
  argv: string[];
  /** Packages this session finished. */
  finished: number;
}

/** `state.json` of a run directory. */
export interface RunState {
  run_id: string;
  benchmark: string;
  spec_hash: string;
  status: RunStatus;
  stop_reason: StopReason | null;
  /** `K/N` when this run is one shard of a larger one. */
  shard: { k: number; n: number } | null;
  sessions: Session[];
}

/**
 * Running the packages of a session: in parallel (`p-limit`), each under its own
 * timeout, the whole under a run deadline, a budget, an error limit, the parent process
 * and Ctrl-C/SIGTERM (the caller's signal). Every finished package is written at once
 * (atomically) with its events; a package cut short by the run stopping is not written,
 * so a resumed run does it again, and nothing is lost or counted twice.
 */
import pLimit from 'p-limit';
import { addCall, emptyTotals, type ModelPrice, paidFor, type UsageTotals } from '../accounting.js';
import { type GenerateResult, zeroUsage } from '../model/types.js';
import { type PyJson, PyFloat } from '../py-json.js';
import type { RunStore } from './run-store.js';
import { type EarlierTry, isFailure, type Outcome, type PackageResult, packageUsage, type StopReason } from './types.js';
import { errorMessage } from '@smi/bytecode';

/** A request sent (see {@link PackageContext.sendCall}). */
export interface CallTicket {
  readonly id: string;
  /** Dollars reserved for it until its answer comes (`0` without a price). */
  readonly reservedUsd: number;
}

/** `max_tokens` assumed for a request that sets none (a server's own limit is unknown). */
const DEFAULT_OUTPUT_ESTIMATE = 4096;

/** What a request may cost at most, in dollars, or `null` without a price. */
function estimateUsd(estimate: { promptChars: number; maxOutputTokens: number }, price: ModelPrice | undefined): number | null {
  if (price === undefined) return null;
  const input = Math.ceil(estimate.promptChars / 3);
  const output = estimate.maxOutputTokens > 0 ? estimate.maxOutputTokens : DEFAULT_OUTPUT_ESTIMATE;
  return Math.round(((input * price.input + output * price.output) / 1_000_000) * 1e9) / 1e9;
}

/** A package to do. */
export interface PackageJob {
  packageId: string;
  packageDir: string;
  /** Position in the spec's ids. */
  index: number;
}

/** What a package's work sees. */
export interface PackageContext {
  readonly packageId: string;
  /** 1-based number of the package in the run (as the original's events count). */
  readonly i: number;
  /** Aborted when the package's time is up or the run stops. */
  readonly signal: AbortSignal;
  /** Aborted only when the run stops (Ctrl-C, deadline, parent gone). */
  readonly runSignal: AbortSignal;
  /** When the package's time is up (`Date.now()` ms), or `null`. */
  readonly deadline: number | null;
  readonly session: number;
  /** Write an event about this package (`package_id` is added). */
  event(name: string, fields?: { [key: string]: PyJson }): void;
  /**
   * Before a model request goes out: written to the ledger as sent, and its most possible cost
   * (`promptChars` at ~3 characters a token, `maxOutputTokens`) reserved against
   * `--budget-usd`. `null` when the budget cannot pay for it: the run stops starting work and
   * the package must end as interrupted (it is done again when the run resumes).
   */
  sendCall(estimate: { promptChars: number; maxOutputTokens: number }): CallTicket | null;
  /** Count a model call (tokens, cost, cache) for the package and the run's ledger; `ticket`: its {@link sendCall}. */
  recordCall(result: Pick<GenerateResult, 'usage' | 'cache'>, ticket?: CallTicket | null): void;
  /**
   * A request given up while in flight (a timeout, the run stopping): whatever it cost is
   * unknown, so it counts as billed at its estimate (its ledger entry stays unanswered).
   */
  abandonCall(ticket: CallTicket): void;
}

/** What a package's work produced. */
export interface PackageWork {
  outcome: Outcome;
  error: string | null;
  timed_out: boolean;
  /** The phase's row (the executor adds `elapsed_seconds`, `error`, `timed_out`). */
  row: Record<string, unknown>;
  details?: Record<string, unknown>;
  /** Extra fields of the `package_finished` event. */
  eventFields?: { [key: string]: PyJson };
  /** `true` when the run stopped while this package was under way: not a result (redone on resume). */
  interrupted?: boolean;
}

/** A session's settings. */
export interface ExecuteOptions {
  store: RunStore;
  session: number;
  jobs: readonly PackageJob[];
  /** Packages finished before this session (event numbering goes on from there). */
  doneBefore: number;
  work: (job: PackageJob, ctx: PackageContext) => Promise<PackageWork>;
  concurrency: number;
  perPackageTimeoutMs: number | null;
  /** Stop this session after this long (in-flight packages are abandoned and redone on resume). */
  maxRunMs: number | null;
  /** Stop when this process is gone. */
  parentPid: number | null;
  /** The caller's stop (Ctrl-C, SIGTERM). */
  signal?: AbortSignal;
  /** Stop scheduling once this much is spent (needs a price). */
  budgetUsd: number | null;
  /** Spent by earlier sessions; `null`: unknown (an answer gave no usage), which a budget takes as spent. */
  spentBeforeUsd: number | null;
  price: ModelPrice | undefined;
  /** `false`: stop at the first failed package (the original's default). */
  continueOnError: boolean;
  maxErrors: number;
  errorsBefore: number;
  /** Earlier tries of packages being retried (`--retry-errors`). */
  earlier: ReadonlyMap<string, EarlierTry[]>;
  /** Called after each package (progress, checkpoints). */
  onResult?: (result: PackageResult, finishedThisSession: number) => void;
}

/** How a session ended. */
export interface ExecuteOutcome {
  finished: number;
  stopReason: StopReason | null;
  stopDetail: string | null;
  spentUsd: number | null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Run the jobs; resolves when all are done or the session stopped. */
export async function executePackages(options: ExecuteOptions): Promise<ExecuteOutcome> {
  const { store } = options;
  const stopAll = new AbortController();
  let stopReason: StopReason | null = null;
  let stopDetail: string | null = null;
  const stop = (reason: StopReason, detail: string, abortInFlight: boolean): void => {
    if (stopReason === null) {
      stopReason = reason;
      stopDetail = detail;
      store.event('shutdown', { reason, detail });
    }
    if (abortInFlight && !stopAll.signal.aborted) stopAll.abort(new Error(detail));
  };
  const onExternal = (): void => stop('interrupted', 'interrupted (Ctrl-C or SIGTERM)', true);
  if (options.signal?.aborted) onExternal();
  options.signal?.addEventListener('abort', onExternal, { once: true });
  const timers: NodeJS.Timeout[] = [];
  if (options.maxRunMs !== null) {
    const t = setTimeout(() => stop('deadline', `--max-run-seconds reached (${options.maxRunMs! / 1000} s)`, true), options.maxRunMs);
    t.unref();
    timers.push(t);
  }
  if (options.parentPid !== null) {
    const pid = options.parentPid;
    const t = setInterval(() => {
      if (!isAlive(pid)) stop('parent_died', `parent process ${pid} is gone`, true);
    }, 500);
    t.unref();
    timers.push(t);
  }

  let finished = 0;
  let errors = options.errorsBefore;
  let spent: number | null = options.price === undefined ? null : (options.spentBeforeUsd ?? 0);
  // A call whose cost is unknown (its answer gave no usage) may have spent anything: a budget
  // then starts no more packages rather than guess.
  let spendUnknown = options.price !== undefined && options.spentBeforeUsd === null;
  // What the requests in flight may still cost: a budget counts it as spent.
  let reserved = 0;
  let callSeq = 0;
  let next = options.doneBefore;
  const limit = pLimit(Math.max(1, options.concurrency));

  const runOne = async (job: PackageJob): Promise<void> => {
    // Let timers and signal handlers run between packages: work without I/O (a mock agent, a
    // local simulation) would otherwise hold the event loop until the last package, and
    // Ctrl-C, the run deadline and a dead parent would only be seen at the end.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (stopReason !== null) return;
    if (options.budgetUsd !== null && spendUnknown) {
      stop('budget', `--budget-usd ${options.budgetUsd}: the spend is unknown (a model answer gave no usage), so no more packages start`, false);
      return;
    }
    if (options.budgetUsd !== null && spent !== null && spent >= options.budgetUsd) {
      stop('budget', `--budget-usd ${options.budgetUsd} spent ($${spent.toFixed(4)})`, false);
      return;
    }
    const i = ++next;
    const started = performance.now();
    const deadline = options.perPackageTimeoutMs === null ? null : Date.now() + options.perPackageTimeoutMs;
    const signals = [stopAll.signal];
    if (options.perPackageTimeoutMs !== null) signals.push(AbortSignal.timeout(options.perPackageTimeoutMs));
    let totals: UsageTotals = emptyTotals(options.price !== undefined);
    const ctx: PackageContext = {
      packageId: job.packageId,
      i,
      signal: AbortSignal.any(signals),
      runSignal: stopAll.signal,
      deadline,
      session: options.session,
      event: (name, fields = {}) => store.event(name, { package_id: job.packageId, ...fields }),
      sendCall: (estimate) => {
        const usd = estimateUsd(estimate, options.price);
        if (options.budgetUsd !== null && (spendUnknown || (spent !== null && usd !== null && spent + reserved + usd > options.budgetUsd))) {
          stop(
            'budget',
            `--budget-usd ${options.budgetUsd}: $${(spent ?? 0).toFixed(4)} spent and $${reserved.toFixed(4)} in flight leave no room for another call (up to $${(usd ?? 0).toFixed(4)})`,
            false,
          );
          return null;
        }
        const ticket: CallTicket = { id: `${options.session}-${++callSeq}`, reservedUsd: usd ?? 0 };
        reserved = Math.round((reserved + ticket.reservedUsd) * 1e9) / 1e9;
        store.appendLedger({
          t: Math.floor(Date.now() / 1000),
          session: options.session,
          package_id: job.packageId,
          cache: 'off',
          usage: zeroUsage(),
          cost_usd: null,
          id: ticket.id,
          sent: true,
          estimate_usd: usd,
        });
        return ticket;
      },
      abandonCall: (ticket) => {
        reserved = Math.max(0, Math.round((reserved - ticket.reservedUsd) * 1e9) / 1e9);
        if (spent !== null) spent = Math.round((spent + ticket.reservedUsd) * 1e9) / 1e9;
        store.event('call_abandoned', { package_id: job.packageId, call: ticket.id, estimate_usd: ticket.reservedUsd });
      },
      recordCall: (r, ticket) => {
        if (ticket != null) reserved = Math.max(0, Math.round((reserved - ticket.reservedUsd) * 1e9) / 1e9);
        totals = addCall(totals, r.usage, r.cache === 'hit', options.price);
        const cost = paidFor(r.usage, r.cache === 'hit', options.price);
        if (spent !== null && cost !== null) spent = Math.round((spent + cost) * 1e9) / 1e9;
        if (r.usage.unknown === true && r.cache !== 'hit') {
          if (options.price !== undefined) spendUnknown = true;
          store.event('usage_unknown', { package_id: job.packageId, detail: 'the model answer gave no usage: its tokens and cost are unknown (recorded as null)' });
        }
        store.appendLedger({
          t: Math.floor(Date.now() / 1000),
          session: options.session,
          package_id: job.packageId,
          cache: r.cache,
          usage: r.usage,
          cost_usd: cost,
          ...(ticket != null ? { id: ticket.id } : {}),
        });
      },
    };
    store.event('package_started', { package_id: job.packageId, i });
    let work: PackageWork;
    try {
      work = await options.work(job, ctx);
    } catch (e) {
      // A bug of ours must not sink the run: the package records it as our failure.
      work = { outcome: 'infra_error', error: `internal error: ${errorMessage(e)}`, timed_out: false, row: {} };
    }
    // A package stopped by the run (Ctrl-C, the budget) is no result: it is done again on resume.
    if (work.interrupted === true && (stopAll.signal.aborted || stopReason === 'budget')) return;
    const elapsed = (performance.now() - started) / 1000;
    const earlier = options.earlier.get(job.packageId);
    const result: PackageResult = {
      package_id: job.packageId,
      index: job.index,
      outcome: work.outcome,
      error: work.error,
      timed_out: work.timed_out,
      elapsed_seconds: elapsed,
      row: { ...work.row, elapsed_seconds: elapsed, error: work.error, timed_out: work.timed_out },
      usage: packageUsage(totals),
      session: options.session,
      finished_at: new Date().toISOString(),
      ...(earlier !== undefined && earlier.length > 0 ? { earlier } : {}),
      ...(work.details !== undefined ? { details: work.details } : {}),
    };
    store.writeResult(result);
    finished++;
    store.event('package_finished', {
      package_id: job.packageId,
      i,
      elapsed_seconds: new PyFloat(elapsed),
      error: work.error,
      timed_out: work.timed_out,
      outcome: work.outcome,
      ...(work.eventFields ?? {}),
    });
    options.onResult?.(result, finished);
    if (isFailure(work.outcome)) {
      errors++;
      if (!options.continueOnError) stop('error', `package ${job.packageId} failed (${work.outcome}: ${work.error ?? 'no answer'}); --continue-on-error goes on past failures`, false);
      else if (errors > options.maxErrors) stop('max_errors', `too many errors: ${errors} > --max-errors ${options.maxErrors} (last: ${work.error ?? work.outcome})`, false);
    }
  };

  try {
    await Promise.all(options.jobs.map((job) => limit(() => runOne(job))));
  } finally {
    for (const t of timers) clearTimeout(t);
    options.signal?.removeEventListener('abort', onExternal);
  }
  return { finished, stopReason, stopDetail, spentUsd: spent };
}

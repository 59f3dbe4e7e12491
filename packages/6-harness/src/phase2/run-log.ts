/**
 * What a package's result keeps of its simulations, for the transcript (`details.runs`):
 * each plan as run (its attempt and variant), whether it ran, its error or abort and what
 * it created, every one up to {@link MAX_LOGGED_RUNS} (the rest counted in `runs_omitted`), and the
 * transaction of the best run (digest, effects, events) in `details.transaction`.
 */
import { scoreInhabitation } from './score.js';
import type { PlanRun } from './plan-sim.js';
import { betterRun, type VariantName } from './worker.js';
import type { Json } from '@smi/bytecode';

/**
 * Simulations a package's result lists at most: a limit for runaway searches, not a sample
 * (every run of the original's searches is kept; a run that created a target always is).
 */
export const MAX_LOGGED_RUNS = 2000;

/** The log of one package's simulations (one per epoch). */
export class SimulationLog {
  private readonly runs: Json[] = [];
  private omitted = 0;
  private best: { hits: number; run: PlanRun } | null = null;

  constructor(
    private readonly targets: readonly string[],
    private readonly epoch: number,
  ) {}

  /** `phase2Package`'s `onRun`. */
  readonly onRun = (spec: Json, variant: VariantName, run: PlanRun, planAttempt: number): void => {
    const hits = scoreInhabitation(this.targets, run.createdTypes).created_hits;
    if (betterRun(hits, run, this.best)) this.best = { hits, run };
    if (this.runs.length >= MAX_LOGGED_RUNS && hits === 0) {
      this.omitted++;
      return;
    }
    this.runs.push({
      epoch: this.epoch,
      plan_attempt: planAttempt,
      variant,
      ok: run.ok,
      tx_build_ok: run.txBuildOk,
      error: run.error,
      abort_code: run.abortCode,
      abort_location: run.abortLocation,
      created_types: run.createdTypes,
      hits,
      gas_budget_used: run.gasBudgetUsed,
      plan: spec,
    });
  };

  /** The fields this log adds to the result's `details`. */
  details(): { runs: Json[]; runs_omitted?: number; transaction?: Json } {
    const tx = this.best?.run.transaction ?? null;
    return { runs: this.runs, ...(this.omitted > 0 ? { runs_omitted: this.omitted } : {}), ...(tx !== null ? { transaction: tx as unknown as Json } : {}) };
  }
}

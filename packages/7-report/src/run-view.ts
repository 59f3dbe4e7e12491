/**
 * What a report shows of a Phase I or Phase II run: one line per package with its metric
 * (F1, or hit rate), outcome, tokens, cost, latency and turns; the run's aggregate (its run
 * JSON's, else computed from the packages) and what it spent.
 */
import type { PackageResult, RunSpec } from '@smi/harness';
import type { RunSpend } from './inputs.js';

/** One package of a phase run. */
export interface RunPackage {
  package_id: string;
  outcome: string;
  /** F1 (Phase I) or hit rate (Phase II); `null` for a Phase II package without targets. */
  metric: number | null;
  precision?: number;
  recall?: number;
  /** Phase II: targets and hits. */
  targets?: number;
  hits?: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  elapsed_seconds: number;
  /** Model calls (need_more rounds and retries included). */
  turns: number;
  error: string | null;
}

/** A phase run, summarised. */
export interface RunView {
  label: string;
  phase: 'phase1' | 'phase2';
  agent: string;
  model: string | null;
  spec: RunSpec | null;
  packages: RunPackage[];
  /** Mean per-package metric, the micro metric and counts by outcome. */
  /** The mean of the packages' metric; Phase II: over the packages with targets. */
  mean_metric: number;
  /** Phase II: packages with targets (those the mean is over). */
  packages_scored: number;
  micro_metric: number;
  outcomes: Record<string, number>;
  spend: RunSpend;
  aggregate: Record<string, unknown> | null;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function packageOf(phase: 'phase1' | 'phase2', r: PackageResult): RunPackage {
  const score = (r.row.score ?? {}) as Record<string, unknown>;
  const base = {
    package_id: r.package_id,
    outcome: r.outcome,
    input_tokens: r.usage.input,
    output_tokens: r.usage.output,
    cost_usd: r.usage.cost_usd,
    elapsed_seconds: r.elapsed_seconds,
    turns: r.usage.calls,
    error: r.error,
  };
  if (phase === 'phase1') return { ...base, metric: num(score.f1), precision: num(score.precision), recall: num(score.recall) };
  const targets = num(score.targets);
  const hits = num(score.created_hits);
  return { ...base, metric: targets === 0 ? null : hits / targets, targets, hits };
}

/** Summarise a phase run. */
export function runView(input: {
  label: string;
  phase: 'phase1' | 'phase2';
  spec: RunSpec | null;
  runJson: Record<string, unknown> | null;
  results: readonly PackageResult[];
  spend: RunSpend | null;
}): RunView {
  const packages = input.results.map((r) => packageOf(input.phase, r));
  // A Phase II package without targets has no hit rate: it is not a 0 in the mean (the
  // original's avg_hit_rate counted it so; that figure stays in `aggregate`).
  const scored = packages.filter((p) => p.metric !== null);
  let mean = scored.length === 0 ? 0 : scored.reduce((s, p) => s + (p.metric ?? 0), 0) / scored.length;
  let micro: number;
  if (input.phase === 'phase2') {
    const t = packages.reduce((s, p) => s + (p.targets ?? 0), 0);
    micro = t === 0 ? 0 : packages.reduce((s, p) => s + (p.hits ?? 0), 0) / t;
  } else {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const r of input.results) {
      const s = (r.row.score ?? {}) as Record<string, unknown>;
      tp += num(s.tp);
      fp += num(s.fp);
      fn += num(s.fn);
    }
    micro = 2 * tp + fp + fn === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  const outcomes: Record<string, number> = {};
  for (const p of packages) outcomes[p.outcome] = (outcomes[p.outcome] ?? 0) + 1;
  const spend: RunSpend = input.spend ?? {
    calls: packages.reduce((s, p) => s + p.turns, 0),
    cache_hits: 0,
    input_tokens: packages.reduce((s, p) => s + p.input_tokens, 0),
    output_tokens: packages.reduce((s, p) => s + p.output_tokens, 0),
    spent_usd: packages.some((p) => p.cost_usd === null) ? null : packages.reduce((s, p) => s + (p.cost_usd ?? 0), 0),
    wall_seconds: packages.reduce((s, p) => s + p.elapsed_seconds, 0),
  };
  const agent = input.spec?.agent ?? (typeof input.runJson?.agent === 'string' ? input.runJson.agent : 'unknown');
  const aggregate = (input.runJson?.aggregate as Record<string, unknown> | undefined) ?? null;
  // The run JSON's own figures, when it has them (they are what the run reported).
  const [meanKey, microKey] = input.phase === 'phase1' ? ['avg_f1', 'micro_f1'] : ['avg_hit_rate', 'micro_hit_rate'];
  if (aggregate !== null && typeof aggregate[meanKey] === 'number' && aggregate.packages_total === packages.length) {
    if (input.phase === 'phase1') mean = aggregate[meanKey] as number;
    if (typeof aggregate[microKey] === 'number') micro = aggregate[microKey] as number;
  }
  return {
    label: input.label,
    phase: input.phase,
    agent,
    model: input.spec?.model?.id ?? null,
    spec: input.spec,
    packages,
    mean_metric: mean,
    packages_scored: scored.length,
    micro_metric: micro,
    outcomes,
    spend,
    aggregate,
  };
}

/** Phase II: what the mean is over when some packages have no targets (`null` when all have). */
export function meanNote(r: RunView, pct: (x: number) => string): string | null {
  const unscored = r.packages.length - r.packages_scored;
  if (unscored === 0) return null;
  const original = typeof r.aggregate?.avg_hit_rate === 'number' ? ` (the run JSON's avg_hit_rate counts them so: ${pct(r.aggregate.avg_hit_rate)})` : '';
  return `${r.label}: the mean is over the ${r.packages_scored} packages with target types; ${unscored} without any are not counted as 0${original}.`;
}

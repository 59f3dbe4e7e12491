/**
 * Two runs of the same benchmark side by side (`smi compare A B`): which packages flipped
 * (fixed: not all-correct in A, all-correct in B; broken: the reverse), the metric delta with a
 * paired bootstrap 95% interval over the packages both ran, and token and cost deltas over
 * the same packages. Runs
 * whose specs differ in what decides results are refused unless the difference is named as
 * the point of the comparison (`allow: ['model']`); the code version is reported, never refused.
 */
import { bootstrapInterval } from '../phase1/judge.js';
import { plain, type PyJson } from '../py-json.js';
import type { RunJson } from './checkpoint.js';
import { specDifferences, type RunSpec } from './spec.js';
import { SmiError } from '@smi/bytecode';

/** One side of a comparison. */
export interface ComparedRun {
  /** Where it came from, for messages. */
  label: string;
  runJson: RunJson;
  /** Its spec (a run directory has one; a bare run JSON has none). */
  spec: RunSpec | null;
  /** Tokens and dollars it spent, when known. */
  totals?: { input_tokens: number; output_tokens: number; spent_usd: number | null };
  /** The same per package (from a run directory's usage ledger): deltas are taken over the packages both runs have. */
  byPackage?: ReadonlyMap<string, PackageSpend>;
}

/** Tokens and dollars spent on one package. */
export interface PackageSpend {
  input_tokens: number;
  output_tokens: number;
  spent_usd: number | null;
}

/** Why two runs cannot be compared. */
export class CompareError extends SmiError<'DIFFERENT_BENCHMARKS' | 'SPECS_DIFFER' | 'NO_COMMON_PACKAGES'> {
  override readonly name = 'CompareError';
  constructor(code: 'DIFFERENT_BENCHMARKS' | 'SPECS_DIFFER' | 'NO_COMMON_PACKAGES', message: string) {
    super(code, message);
  }
}

/** The comparison. */
export interface RunComparison {
  benchmark: 'phase1' | 'phase2';
  /** `f1` (Phase I) or `hit_rate` (Phase II), per package. */
  metric: 'f1' | 'hit_rate';
  a: string;
  b: string;
  spec_differences: string[];
  packages_common: number;
  only_in_a: string[];
  only_in_b: string[];
  fixed: string[];
  broken: string[];
  mean_a: number;
  mean_b: number;
  delta: number;
  /** Paired bootstrap 95% interval of the mean per-package delta (1,000 resamples, seed 0). */
  delta_ci95: [number, number] | null;
  correct_a: number;
  correct_b: number;
  /** Over the common packages (`null` when a side's spend per package is unknown and the runs' packages differ). */
  tokens: { input_delta: number; output_delta: number } | null;
  cost_usd_delta: number | null;
}

/** What never decides results (reported, not refused). */
const INFORMATIONAL = new Set(['code']);

type Row = { package_id: string; value: number; correct: boolean };

function rowsOf(run: RunJson, phase: 'phase1' | 'phase2'): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const r of plain(run.packages as PyJson) as Record<string, unknown>[]) {
    const id = String(r.package_id);
    const score = (r.score ?? {}) as Record<string, number>;
    // A package whose run failed is not correct, even when its truth is empty (nothing to miss):
    // the outcome decides; rows without one (older runs) are judged by their score.
    const scoredCorrect = Number(score.fp ?? 1) === 0 && Number(score.fn ?? 1) === 0;
    if (phase === 'phase1') out.set(id, { package_id: id, value: Number(score.f1 ?? 0), correct: typeof r.outcome === 'string' ? r.outcome === 'correct' : scoredCorrect });
    else {
      const targets = Number(score.targets ?? 0);
      const hits = Number(score.created_hits ?? 0);
      out.set(id, { package_id: id, value: targets === 0 ? 0 : hits / targets, correct: targets > 0 && hits >= targets });
    }
  }
  return out;
}

const phaseOf = (run: RunJson): 'phase1' | 'phase2' => (run.schema_version === 2 ? 'phase2' : 'phase1');
const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Compare `a` and `b` (`allow`: spec keys whose difference is the point, e.g. `model`, `agent`). */
export function compareRuns(a: ComparedRun, b: ComparedRun, allow: readonly string[] = []): RunComparison {
  const phase = phaseOf(a.runJson);
  if (phaseOf(b.runJson) !== phase) throw new CompareError('DIFFERENT_BENCHMARKS', `${a.label} is a ${phase} run, ${b.label} a ${phaseOf(b.runJson)} run`);
  const differences = a.spec && b.spec ? specDifferences(a.spec, b.spec) : [];
  const deciding = differences.filter((k) => !INFORMATIONAL.has(k) && !allow.includes(k));
  if (deciding.length > 0) {
    throw new CompareError('SPECS_DIFFER', `the runs differ in ${deciding.join(', ')}, which decide results; name the difference you are comparing with --allow (e.g. --allow ${deciding.join(',')})`);
  }
  const ra = rowsOf(a.runJson, phase);
  const rb = rowsOf(b.runJson, phase);
  const common = [...ra.keys()].filter((id) => rb.has(id)).sort();
  if (common.length === 0) throw new CompareError('NO_COMMON_PACKAGES', `${a.label} and ${b.label} have no package in common`);
  const va = common.map((id) => (ra.get(id) as Row).value);
  const vb = common.map((id) => (rb.get(id) as Row).value);
  const deltas = common.map((_, i) => vb[i] - va[i]);
  const fixed = common.filter((id) => !(ra.get(id) as Row).correct && (rb.get(id) as Row).correct);
  const broken = common.filter((id) => (ra.get(id) as Row).correct && !(rb.get(id) as Row).correct);
  return {
    benchmark: phase,
    metric: phase === 'phase1' ? 'f1' : 'hit_rate',
    a: a.label,
    b: b.label,
    spec_differences: differences,
    packages_common: common.length,
    only_in_a: [...ra.keys()].filter((id) => !rb.has(id)).sort(),
    only_in_b: [...rb.keys()].filter((id) => !ra.has(id)).sort(),
    fixed,
    broken,
    mean_a: mean(va),
    mean_b: mean(vb),
    delta: mean(deltas),
    delta_ci95: bootstrapInterval(deltas),
    correct_a: common.filter((id) => (ra.get(id) as Row).correct).length,
    correct_b: common.filter((id) => (rb.get(id) as Row).correct).length,
    ...spendDeltas(a, b, common, ra.size === common.length && rb.size === common.length),
  };
}

/** Tokens and dollars of `run` over `ids` (its whole totals when `whole`: the runs have the same packages); `null` when unknown. */
function spendOver(run: ComparedRun, ids: readonly string[], whole: boolean): PackageSpend | null {
  if (run.byPackage !== undefined) {
    const t: PackageSpend = { input_tokens: 0, output_tokens: 0, spent_usd: 0 };
    for (const id of ids) {
      const p = run.byPackage.get(id);
      if (p === undefined) continue;
      t.input_tokens += p.input_tokens;
      t.output_tokens += p.output_tokens;
      t.spent_usd = t.spent_usd === null || p.spent_usd === null ? null : t.spent_usd + p.spent_usd;
    }
    return t;
  }
  return whole && run.totals !== undefined ? run.totals : null;
}

function spendDeltas(a: ComparedRun, b: ComparedRun, common: readonly string[], same: boolean): Pick<RunComparison, 'tokens' | 'cost_usd_delta'> {
  const sa = spendOver(a, common, same);
  const sb = spendOver(b, common, same);
  if (sa === null || sb === null) return { tokens: null, cost_usd_delta: null };
  return {
    tokens: { input_delta: sb.input_tokens - sa.input_tokens, output_delta: sb.output_tokens - sa.output_tokens },
    cost_usd_delta: sa.spent_usd !== null && sb.spent_usd !== null ? Math.round((sb.spent_usd - sa.spent_usd) * 1e9) / 1e9 : null,
  };
}

/** The comparison as text. */
export function comparisonText(c: RunComparison): string {
  const f = (x: number): string => x.toFixed(3);
  const ci = c.delta_ci95 ? ` (95% CI ${f(c.delta_ci95[0])} … ${f(c.delta_ci95[1])})` : '';
  const lines = [
    `${c.benchmark}: ${c.a} → ${c.b} over ${c.packages_common} common packages${c.spec_differences.length ? ` (specs differ in ${c.spec_differences.join(', ')})` : ''}`,
    `mean ${c.metric}: ${f(c.mean_a)} → ${f(c.mean_b)}, delta ${c.delta >= 0 ? '+' : ''}${f(c.delta)}${ci}`,
    `all-correct packages: ${c.correct_a} → ${c.correct_b}; fixed ${c.fixed.length}, broken ${c.broken.length}`,
  ];
  for (const id of c.fixed) lines.push(`  fixed  ${id}`);
  for (const id of c.broken) lines.push(`  broken ${id}`);
  if (c.only_in_a.length || c.only_in_b.length) lines.push(`only in ${c.a}: ${c.only_in_a.length}; only in ${c.b}: ${c.only_in_b.length}`);
  if (c.tokens) lines.push(`tokens: input ${c.tokens.input_delta >= 0 ? '+' : ''}${c.tokens.input_delta}, output ${c.tokens.output_delta >= 0 ? '+' : ''}${c.tokens.output_delta}`);
  if (c.cost_usd_delta !== null) lines.push(`cost: ${c.cost_usd_delta >= 0 ? '+' : '-'}$${Math.abs(c.cost_usd_delta).toFixed(4)}`);
  return lines.join('\n') + '\n';
}

/**
 * What a report shows of `smi benchmark-local` rows: the summary (Tier A/B rates and the
 * failure taxonomy: stage, E-code, abort category, provenance of the hits), one line per
 * package, and each package's rows for the drill-down.
 */
import { type BenchmarkRow, type BenchmarkSummary, SummaryBuilder } from '@smi/inhabit';

/** One package of a benchmark-local run. */
export interface BenchmarkPackage {
  package_id: string;
  functions: number;
  tier_a_hits: number;
  tier_b_hits: number;
  tier_a_rate: number;
  tier_b_rate: number;
  /** The most frequent failure stage of its misses, if any. */
  top_failure: string | null;
}

/** A benchmark-local input, summarised. */
export interface BenchmarkView {
  label: string;
  summary: BenchmarkSummary;
  packages: BenchmarkPackage[];
  /** Rows by package id, in file order. */
  rows: Map<string, BenchmarkRow[]>;
}

const rate = (n: number, d: number): number => (d === 0 ? 0 : n / d);

/** Summarise benchmark-local rows. */
export function benchmarkView(label: string, rows: readonly BenchmarkRow[]): BenchmarkView {
  const b = new SummaryBuilder();
  const byPackage = new Map<string, BenchmarkRow[]>();
  for (const r of rows) {
    b.add(r);
    const list = byPackage.get(r.target_package) ?? [];
    list.push(r);
    byPackage.set(r.target_package, list);
  }
  const summary = b.build();
  const packages: BenchmarkPackage[] = [];
  for (const [id, list] of byPackage) {
    const p = summary.per_package[id];
    const stages = new Map<string, number>();
    for (const r of list) if (r.failure_stage !== undefined) stages.set(r.failure_stage, (stages.get(r.failure_stage) ?? 0) + 1);
    const top = [...stages].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0];
    packages.push({
      package_id: id,
      functions: p.functions,
      tier_a_hits: p.tier_a_hits,
      tier_b_hits: p.tier_b_hits,
      tier_a_rate: rate(p.tier_a_hits, p.functions),
      tier_b_rate: rate(p.tier_b_hits, p.functions),
      top_failure: top === undefined ? null : top[0],
    });
  }
  packages.sort((x, y) => y.tier_b_rate - x.tier_b_rate || y.tier_a_rate - x.tier_a_rate || x.package_id.localeCompare(y.package_id));
  return { label, summary, packages, rows: byPackage };
}

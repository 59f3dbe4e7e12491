/**
 * What a report shows of `smi benchmark-local` rows: the summary (the headline: real hits
 * once per function of an original package; the loose Tier A/B rates; the splits of the
 * Tier B hits by kind, checks, provenance and class; the failure taxonomy), one line per
 * package, each package's rows for the drill-down, and what older rows left unclassified.
 */
import { type BenchmarkRow, type BenchmarkSummary, SummaryBuilder } from '@smi/inhabit';
import { countKinds, type HeadlineGaps, headlineGaps, type ReportKind, type SplitName, splitsOf } from './hit-kinds.js';

/** One package of a benchmark-local run. */
export interface BenchmarkPackage {
  package_id: string;
  functions: number;
  tier_a_hits: number;
  tier_b_hits: number;
  /** Loose rates: over every row of the package. */
  tier_a_rate: number;
  tier_b_rate: number;
  /** Functions counted once per original package (rows without `duplicate_of`). */
  functions_dedup: number;
  real_hits: number;
  real_structured_hits: number;
  /** Over `functions_dedup`; `null` when every row of the package is a duplicate. */
  real_rate: number | null;
  real_structured_rate: number | null;
  /** Tier B hits by kind (duplicates included: they sum to `tier_b_hits`). */
  hits_by_kind: Partial<Record<ReportKind, number>>;
  /** The most frequent failure stage of its misses, if any. */
  top_failure: string | null;
}

/** A benchmark-local input, summarised. */
export interface BenchmarkView {
  label: string;
  summary: BenchmarkSummary;
  /** Tier B hits by kind, as the report counts them (older rows' missing fields kept apart). */
  kinds: Partial<Record<ReportKind, number>>;
  /** Tier B hits by kind (labelled), checks, provenance and class; a field older rows lack is `not recorded`. */
  splits: Record<SplitName, Record<string, number>>;
  /** What the headline could not classify (older rows): in words, and which figures are lower bounds. */
  gaps: HeadlineGaps;
  packages: BenchmarkPackage[];
  /** Rows by package id, in file order. */
  rows: Map<string, BenchmarkRow[]>;
}

const rate = (n: number, d: number): number => (d === 0 ? 0 : n / d);
const rateOrNull = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** Packages by real structured rate, then real rate (packages with nothing counted last), then the loose rates. */
function byHeadline(x: BenchmarkPackage, y: BenchmarkPackage): number {
  return (
    (y.real_structured_rate ?? -1) - (x.real_structured_rate ?? -1) ||
    (y.real_rate ?? -1) - (x.real_rate ?? -1) ||
    y.tier_b_rate - x.tier_b_rate ||
    y.tier_a_rate - x.tier_a_rate ||
    x.package_id.localeCompare(y.package_id)
  );
}

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
  const kinds = countKinds(rows);
  const packages: BenchmarkPackage[] = [];
  for (const [id, list] of byPackage) {
    const p = summary.per_package[id];
    // A package that could not be read has no functions: the summary lists it apart
    // (`packages_failed_to_load`), not among the packages benchmarked.
    if (p === undefined) continue;
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
      functions_dedup: p.functions_dedup,
      real_hits: p.real_hits,
      real_structured_hits: p.real_structured_hits,
      real_rate: rateOrNull(p.real_hits, p.functions_dedup),
      real_structured_rate: rateOrNull(p.real_structured_hits, p.functions_dedup),
      hits_by_kind: countKinds(list),
      top_failure: top === undefined ? null : top[0],
    });
  }
  packages.sort(byHeadline);
  return { label, summary, kinds, splits: splitsOf(rows), gaps: headlineGaps(rows, kinds), packages, rows: byPackage };
}

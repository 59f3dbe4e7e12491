/**
 * What each Tier B hit is worth, as the report splits them: the kinds of `@smi/inhabit`'s
 * summary (real hits by class; relaxed, synthesized and permissive-crypto hits), and for
 * rows written before a field existed the two kinds the report cannot place: a strict hit
 * whose row does not say its class, and a hit whose row does not say its checks. Such rows
 * are counted by what they do say, never guessed into a class.
 */
import { type BenchmarkRow, HIT_KINDS } from '@smi/inhabit';

/** A kind of Tier B hit of the summary. */
export type SummaryKind = (typeof HIT_KINDS)[number];

/** A kind the report shows: the summary's, or a kind an older row's missing field leaves open. */
export type ReportKind = SummaryKind | 'real_unclassified' | 'unknown_checks';

/** Every kind, in the order bars stack and legends list them. */
export const REPORT_KINDS: readonly ReportKind[] = [...HIT_KINDS.slice(0, 3), 'real_unclassified', ...HIT_KINDS.slice(3), 'unknown_checks'];

/** The summary's six kinds (a chart's legend always lists them). */
export const SUMMARY_KINDS: readonly ReportKind[] = HIT_KINDS;

/** How each kind is named in charts and tables. */
export const KIND_LABELS: Record<ReportKind, string> = {
  real_structured: 'real structured',
  real_pure_only: 'real pure-only',
  real_no_args: 'real no-args',
  real_unclassified: 'real, class not recorded',
  relaxed: 'relaxed',
  synthesized: 'synthesized',
  permissive_crypto: 'permissive crypto',
  unknown_checks: 'checks not recorded',
};

/** Bar colours: greens for real hits (darkest for structured), warm colours for the others. */
export const KIND_COLORS: Record<ReportKind, string> = {
  real_structured: '#1f7a45',
  real_pure_only: '#52b07a',
  real_no_args: '#a8dcb9',
  real_unclassified: '#7f9c8a',
  relaxed: '#e0b44b',
  synthesized: '#9b6fd0',
  permissive_crypto: '#d0625a',
  unknown_checks: '#a3abb8',
};

/**
 * The kind of a Tier B hit row (`null` for other rows). For a row with every field this is
 * `@smi/inhabit`'s `hitKind`; a row without `tier_b_details.checks` (the summary counts it
 * relaxed) is `unknown_checks`, a strict one without `hit_class` (the summary counts it
 * no-args) is `real_unclassified`.
 */
export function reportKind(row: BenchmarkRow): ReportKind | null {
  if (row.status !== 'tier_b_hit') return null;
  if (row.provenance === 'synthesized') return 'synthesized';
  const checks = row.tier_b_details?.checks;
  if (checks === undefined) return 'unknown_checks';
  if (checks !== 'strict') return 'relaxed';
  if (row.permissive_crypto === true) return 'permissive_crypto';
  return row.hit_class === undefined ? 'real_unclassified' : `real_${row.hit_class}`;
}

/** Counts of the kinds of some rows' Tier B hits. */
export function countKinds(rows: readonly BenchmarkRow[]): Partial<Record<ReportKind, number>> {
  const out: Partial<Record<ReportKind, number>> = {};
  for (const r of rows) {
    const k = reportKind(r);
    if (k !== null) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** What the headline of some rows could not classify (rows older than a field). */
export interface HeadlineGaps {
  /** In words, one sentence each; empty when nothing. */
  caveats: string[];
  /** The real hits may be more than counted (hits that do not record their checks are not counted). */
  real_lower_bound: boolean;
  /** The real structured hits may be more than counted (hits without hit_class or checks are not counted). */
  real_structured_lower_bound: boolean;
}

/** What the headline of some rows could not classify. */
export function headlineGaps(rows: readonly BenchmarkRow[], kinds: Partial<Record<ReportKind, number>>): HeadlineGaps {
  const caveats: string[] = [];
  const count = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  const unclassified = kinds.real_unclassified ?? 0;
  if (unclassified > 0)
    caveats.push(
      `${count(unclassified, 'strict Tier B hit does', 'strict Tier B hits do')} not record hit_class (rows older than the field): counted as real hits but not as structured, so the real structured figure is a lower bound.`,
    );
  const unchecked = kinds.unknown_checks ?? 0;
  if (unchecked > 0)
    caveats.push(
      `${count(unchecked, 'Tier B hit does not record the checks it', 'Tier B hits do not record the checks they')} ran with (tier_b_details.checks): not counted as real hits, so the real figures are lower bounds.`,
    );
  // Rows that ran Tier B record hit_class since rows record duplicate_of: a file with neither predates both.
  const ranTierB = rows.some((r) => r.tier_b_details !== undefined);
  const recorded = rows.some((r) => r.hit_class !== undefined || r.duplicate_of !== undefined);
  if (ranTierB && !recorded)
    caveats.push(
      'No row records hit_class or duplicate_of (rows older than these fields): a function an upgrade repeats may be counted once per version, in the functions counted once and in the hits.',
    );
  return { caveats, real_lower_bound: unchecked > 0, real_structured_lower_bound: unchecked > 0 || unclassified > 0 };
}

/** The value a split shows for a field an older row does not record. */
const NOT_RECORDED = 'not recorded';

/** The splits of Tier B hits: each dimension with its values in the order shown. */
export const SPLITS = [
  { name: 'kind', values: REPORT_KINDS.map((k) => KIND_LABELS[k]), colors: REPORT_KINDS.map((k) => KIND_COLORS[k]) },
  { name: 'checks', values: ['strict', 'relaxed', NOT_RECORDED], colors: ['#1f7a45', '#e0b44b', '#a3abb8'] },
  { name: 'provenance', values: ['chain', 'init_state', 'synthesized', NOT_RECORDED], colors: ['#2f6fde', '#52a7d8', '#9b6fd0', '#a3abb8'] },
  { name: 'class', values: ['structured', 'pure_only', 'no_args', NOT_RECORDED], colors: ['#1f7a45', '#52b07a', '#a8dcb9', '#a3abb8'] },
] as const;

/** A split's name. */
export type SplitName = (typeof SPLITS)[number]['name'];

/**
 * Tier B hits by kind (labelled), checks, provenance and class. For rows with every field
 * these are the summary's `hits_by_kind`, `hits_by_checks`, `hits_by_provenance` and
 * `hits_by_class`; a field a row does not record counts as {@link NOT_RECORDED} rather
 * than as the summary's default.
 */
export function splitsOf(rows: readonly BenchmarkRow[]): Record<SplitName, Record<string, number>> {
  const out: Record<SplitName, Record<string, number>> = { kind: {}, checks: {}, provenance: {}, class: {} };
  const bump = (r: Record<string, number>, k: string): void => {
    r[k] = (r[k] ?? 0) + 1;
  };
  for (const r of rows) {
    const kind = reportKind(r);
    if (kind === null) continue;
    bump(out.kind, KIND_LABELS[kind]);
    bump(out.checks, r.tier_b_details?.checks ?? NOT_RECORDED);
    bump(out.provenance, r.provenance ?? NOT_RECORDED);
    bump(out.class, r.hit_class ?? NOT_RECORDED);
  }
  return out;
}

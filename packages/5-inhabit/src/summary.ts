/**
 * The summary of a run: the headline (real hits, counted once per function of an original
 * package), the loose Tier A/B hit rates with their splits (checks, provenance, hit
 * class), counts by stage, E-code and abort category, per package; as JSON and as the
 * table `smi benchmark-local` prints on stderr (and, with `--error-distribution`, the
 * taxonomy by phase).
 */
import type { GraphStats } from './constructor-graph.js';
import { HIT_KINDS, type HitKind, hitKind, isRealHit } from './hit-class.js';
import type { BenchmarkRow } from './row.js';
import { ABORT_CATEGORIES, ERROR_CODES, type ErrorCode, type Phase } from './taxonomy.js';

/**
 * What the benchmark measures, counted as a skeptical reviewer would: Tier B hits that ran
 * with Sui's rules on inputs that were not forged, once per function of an original
 * package (`functions_dedup`: rows without `duplicate_of`), and of those the hits that
 * pass a struct or object.
 */
export interface Headline {
  real_hits: number;
  real_rate: number;
  real_structured_hits: number;
  real_structured_rate: number;
  functions_dedup: number;
}

/** Counts of one package. */
export interface PackageSummary {
  functions: number;
  tier_a_hits: number;
  /** Loose: every Tier B hit, whatever its checks and provenance. */
  tier_b_hits: number;
  /** Functions counted once per original package (rows without `duplicate_of`). */
  functions_dedup: number;
  real_hits: number;
  real_structured_hits: number;
  /** Tier B hits by kind (see {@link HitKind}). */
  hits_by_kind: Partial<Record<HitKind, number>>;
}

/** The summary JSON. */
export interface BenchmarkSummary {
  /** The figures that count (see {@link Headline}). */
  headline: Headline;
  rows: number;
  tier_a_hits: number;
  /** Loose: every Tier B hit, duplicates, relaxed and synthesized ones included. */
  tier_b_hits: number;
  tier_a_rate: number;
  /** Loose rate: `tier_b_hits / rows`. The headline's `real_rate` is the one that counts. */
  tier_b_rate: number;
  by_status: Record<string, number>;
  by_stage: Record<string, number>;
  by_error_code: Record<string, number>;
  by_abort_category: Record<string, number>;
  /** Tier B hits by how their inputs were obtained. */
  hits_by_provenance: Record<string, number>;
  /** Tier B hits by the rules they ran with (`strict`, `relaxed`). */
  hits_by_checks: Record<string, number>;
  /** Tier B hits by the kind of arguments they passed. */
  hits_by_class: Record<string, number>;
  /** Tier B hits by kind: real ones by class, the others by why they are not real. */
  hits_by_kind: Record<string, number>;
  per_package: Record<string, PackageSummary>;
  /**
   * Target packages that could not be read (a module that does not deserialize, ...), with the
   * reader's status: their functions are unknown, so they are listed here, not counted as functions.
   */
  packages_failed_to_load?: { package: string; error_code: string; reason: string }[];
  /** `not_run` when the run stopped before Tier B (`--tier-a-only`, `--static-only`). */
  tier_b?: 'not_run';
  /** Target packages of the framework (0x1, 0x2, 0x3) not benchmarked (without `--include-framework`). */
  framework_skipped?: string[];
  /**
   * The packages behind A1 failures (E101: a module of the target does not link because a
   * package it needs is not in the corpus), each with the functions it blocks, most first:
   * give them with `--corpus DIR` and those functions are benchmarked.
   */
  missing_dependencies?: MissingDependency[];
  graph?: GraphStats;
  /** The `init`s of the corpus's packages that ran to build the state, and those that failed (which module, why). */
  inits?: InitsSummary;
  elapsed_ms?: number;
  functions_per_second?: number;
  interrupted?: true;
}

/** A package no loaded corpus has, and how many functions its absence stops at A1. */
export interface MissingDependency {
  package: string;
  functions: number;
}

/** One `init` that failed: its module, the code of its error and the error. */
export interface FailedInit {
  package: string;
  module: string;
  error_code: string;
  message: string;
}

/** The inits of a run. */
export interface InitsSummary {
  run: number;
  failed: number;
  /** Each init that failed, in the order they ran (left out when none did). */
  failures?: FailedInit[];
}

/** The package a row's A1 failure (E101, `… does not link: 0x…::m is not loaded`) misses, or `null`. */
function missingPackageOf(row: BenchmarkRow): string | null {
  if (row.failure_stage !== 'A1' || row.error_code !== 'E101' || row.target_function === '') return null;
  return /does not link: (0x[0-9a-fA-F]+)::\w+ is not loaded/.exec(row.failure_reason ?? '')?.[1] ?? null;
}

function bump(r: Record<string, number>, k: string): void {
  r[k] = (r[k] ?? 0) + 1;
}

function rate(n: number, d: number): number {
  return d === 0 ? 0 : Math.round((10000 * n) / d) / 10000;
}

/** Accumulates rows into a summary. */
export class SummaryBuilder {
  private readonly s: BenchmarkSummary = {
    headline: { real_hits: 0, real_rate: 0, real_structured_hits: 0, real_structured_rate: 0, functions_dedup: 0 },
    rows: 0,
    tier_a_hits: 0,
    tier_b_hits: 0,
    tier_a_rate: 0,
    tier_b_rate: 0,
    by_status: {},
    by_stage: {},
    by_error_code: {},
    by_abort_category: {},
    hits_by_provenance: {},
    hits_by_checks: {},
    hits_by_class: {},
    hits_by_kind: {},
    per_package: {},
  };
  /** Functions stopped at A1 by each missing package. */
  private readonly missing = new Map<string, number>();

  add(row: BenchmarkRow): void {
    const s = this.s;
    if (row.target_function === '' && row.failure_reason?.startsWith('package failed to load: ')) {
      (s.packages_failed_to_load ??= []).push({ package: row.target_package, error_code: row.error_code ?? 'UNKNOWN', reason: row.failure_reason.slice('package failed to load: '.length) });
      return;
    }
    s.rows++;
    bump(s.by_status, row.status);
    const pkg = (s.per_package[row.target_package] ??= { functions: 0, tier_a_hits: 0, tier_b_hits: 0, functions_dedup: 0, real_hits: 0, real_structured_hits: 0, hits_by_kind: {} });
    pkg.functions++;
    const counted = row.duplicate_of === undefined;
    if (counted) {
      s.headline.functions_dedup++;
      pkg.functions_dedup++;
      if (isRealHit(row)) {
        s.headline.real_hits++;
        pkg.real_hits++;
        if (row.hit_class === 'structured') {
          s.headline.real_structured_hits++;
          pkg.real_structured_hits++;
        }
      }
    }
    const a = row.status === 'tier_a_hit' || row.status === 'tier_b_hit';
    if (a) {
      s.tier_a_hits++;
      pkg.tier_a_hits++;
    }
    if (row.status === 'tier_b_hit') {
      s.tier_b_hits++;
      pkg.tier_b_hits++;
      bump(s.hits_by_provenance, row.provenance ?? 'chain');
      bump(s.hits_by_checks, row.tier_b_details?.checks ?? 'strict');
      bump(s.hits_by_class, row.hit_class ?? 'no_args');
      const kind = hitKind(row) as HitKind;
      bump(s.hits_by_kind, kind);
      bump(pkg.hits_by_kind as Record<string, number>, kind);
    }
    const missing = missingPackageOf(row);
    if (missing !== null) this.missing.set(missing, (this.missing.get(missing) ?? 0) + 1);
    if (row.failure_stage !== undefined) bump(s.by_stage, row.failure_stage);
    if (row.error_code !== undefined) bump(s.by_error_code, row.error_code);
    if (row.abort !== undefined) bump(s.by_abort_category, row.abort.category);
  }

  /** The summary so far, with the extra facts given. */
  build(extra: Partial<Pick<BenchmarkSummary, 'graph' | 'inits' | 'elapsed_ms' | 'interrupted' | 'tier_b' | 'framework_skipped'>> = {}): BenchmarkSummary {
    const missing = [...this.missing].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([pkg, functions]) => ({ package: pkg, functions }));
    const s: BenchmarkSummary = { ...this.s, headline: { ...this.s.headline }, ...(missing.length > 0 ? { missing_dependencies: missing } : {}), ...extra };
    const h = s.headline;
    h.real_rate = rate(h.real_hits, h.functions_dedup);
    h.real_structured_rate = rate(h.real_structured_hits, h.functions_dedup);
    s.tier_a_rate = rate(s.tier_a_hits, s.rows);
    s.tier_b_rate = rate(s.tier_b_hits, s.rows);
    if (extra.elapsed_ms !== undefined && extra.elapsed_ms > 0) s.functions_per_second = Math.round((100000 * s.rows) / extra.elapsed_ms) / 100;
    return s;
  }
}

function pct(n: number, d: number): string {
  return d === 0 ? '0.0%' : `${((100 * n) / d).toFixed(1)}%`;
}

function table(title: string, entries: [string, number][], total: number, describe: (k: string) => string = () => ''): string[] {
  if (entries.length === 0) return [];
  const lines = [title];
  for (const [k, v] of entries) lines.push(`  ${k.padEnd(22)} ${String(v).padStart(6)}  ${pct(v, total).padStart(6)}${describe(k) ? `  ${describe(k)}` : ''}`);
  return lines;
}

/** Missing packages and failed inits listed in the text (the JSON has them all). */
const SHOWN = 5;

/** The summary as text (the table printed on stderr). */
export function summaryText(s: BenchmarkSummary, options: { errorDistribution?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(
    `benchmark-local: ${s.rows} functions${s.interrupted ? ' (interrupted)' : ''}${s.elapsed_ms !== undefined ? ` in ${(s.elapsed_ms / 1000).toFixed(1)} s` : ''}${s.functions_per_second !== undefined ? ` (${s.functions_per_second} functions/s)` : ''}`,
  );
  const h = s.headline;
  lines.push(`headline (real hits: strict, not synthesized; each function once per original package: ${h.functions_dedup})`);
  lines.push(`  real hits              ${String(h.real_hits).padStart(6)}  ${pct(h.real_hits, h.functions_dedup).padStart(6)}`);
  lines.push(`  real structured hits   ${String(h.real_structured_hits).padStart(6)}  ${pct(h.real_structured_hits, h.functions_dedup).padStart(6)}`);
  const broken = s.packages_failed_to_load ?? [];
  if (broken.length > 0) {
    lines.push(`packages that could not be read (not counted: their functions are unknown): ${broken.length}`);
    // The reason names the code already when it comes from a module (`module m: MALFORMED: …`): not twice.
    for (const b of broken.slice(0, 5)) lines.push(`  ${b.package}: ${b.reason.includes(`${b.error_code}: `) ? b.reason : `${b.error_code}: ${b.reason}`}`);
    if (broken.length > 5) lines.push(`  … and ${broken.length - 5} more (the summary JSON lists them)`);
  }
  lines.push(`loose (every row: ${s.rows})`);
  lines.push(`  Tier A hits            ${String(s.tier_a_hits).padStart(6)}  ${pct(s.tier_a_hits, s.rows).padStart(6)}`);
  lines.push(
    s.tier_b === 'not_run'
      ? '  Tier B hits            not run (--tier-a-only or --static-only)'
      : `  Tier B hits            ${String(s.tier_b_hits).padStart(6)}  ${pct(s.tier_b_hits, s.rows).padStart(6)}`,
  );
  if (s.framework_skipped !== undefined && s.framework_skipped.length > 0) {
    lines.push(`framework packages not benchmarked: ${s.framework_skipped.map((id) => `0x${id.slice(2).replace(/^0+(?=.)/, '')}`).join(', ')} (--include-framework benchmarks them)`);
  }
  const stageOrder = ['A1', 'A2', 'A3', 'A4', 'A5', 'B1', 'B2'];
  lines.push(
    ...table(
      'by failure stage',
      stageOrder.filter((k) => s.by_stage[k] !== undefined).map((k) => [k, s.by_stage[k]]),
      s.rows,
    ),
  );
  lines.push(
    ...table(
      'by error code',
      Object.entries(s.by_error_code).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      s.rows,
      (k) => ERROR_CODES[k as ErrorCode]?.description ?? '',
    ),
  );
  const missing = s.missing_dependencies ?? [];
  if (missing.length > 0) {
    lines.push('A1 failures by missing package (not in the corpus: --corpus DIR loads it)');
    for (const m of missing.slice(0, SHOWN)) lines.push(`  ${m.package}  blocks ${m.functions} function${m.functions === 1 ? '' : 's'}`);
    if (missing.length > SHOWN) lines.push(`  +${missing.length - SHOWN} more (the summary JSON lists them)`);
  }
  const failedInits = s.inits?.failures ?? [];
  if (failedInits.length > 0) {
    lines.push(`module inits that failed: ${failedInits.length} of ${s.inits?.run ?? failedInits.length} (what they would have created is not in the state)`);
    for (const f of failedInits.slice(0, SHOWN)) lines.push(`  ${f.package}::${f.module}  ${f.error_code}`);
    if (failedInits.length > SHOWN) lines.push(`  +${failedInits.length - SHOWN} more (the summary JSON lists them)`);
  }
  lines.push(
    ...table(
      'B failures by abort category',
      ABORT_CATEGORIES.filter((k) => s.by_abort_category[k] !== undefined).map((k) => [k, s.by_abort_category[k]]),
      s.rows,
    ),
  );
  lines.push(
    ...table(
      'Tier B hits by kind',
      HIT_KINDS.filter((k) => s.hits_by_kind[k] !== undefined).map((k) => [k, s.hits_by_kind[k]]),
      s.tier_b_hits,
    ),
  );
  lines.push(
    ...table(
      'Tier B hits by checks',
      ['strict', 'relaxed'].filter((k) => s.hits_by_checks[k] !== undefined).map((k) => [k, s.hits_by_checks[k]]),
      s.tier_b_hits,
    ),
  );
  lines.push(
    ...table(
      'Tier B hits by provenance',
      ['chain', 'init_state', 'synthesized'].filter((k) => s.hits_by_provenance[k] !== undefined).map((k) => [k, s.hits_by_provenance[k]]),
      s.tier_b_hits,
    ),
  );
  lines.push(
    ...table(
      'Tier B hits by class',
      ['structured', 'pure_only', 'no_args'].filter((k) => s.hits_by_class[k] !== undefined).map((k) => [k, s.hits_by_class[k]]),
      s.tier_b_hits,
    ),
  );
  if (options.errorDistribution) {
    const byPhase: Record<string, number> = {};
    for (const [code, n] of Object.entries(s.by_error_code)) byPhase[ERROR_CODES[code as ErrorCode].phase] = (byPhase[ERROR_CODES[code as ErrorCode].phase] ?? 0) + n;
    const phases: Phase[] = ['Resolution', 'TypeCheck', 'Synthesis', 'Execution', 'Validation'];
    lines.push(
      ...table(
        'error distribution by phase',
        phases.filter((p) => byPhase[p] !== undefined).map((p) => [p, byPhase[p]]),
        s.rows,
      ),
    );
  }
  lines.push('per package (functions, Tier A, Tier B loose; functions once per original package, real hits, real structured hits)');
  for (const [id, p] of Object.entries(s.per_package)) {
    lines.push(
      `  ${id.slice(0, 10)}…${id.slice(-4)}  ${String(p.functions).padStart(5)}  ${String(p.tier_a_hits).padStart(5)} ${pct(p.tier_a_hits, p.functions).padStart(6)}  ${String(p.tier_b_hits).padStart(5)} ${pct(p.tier_b_hits, p.functions).padStart(6)}` +
        ` | ${String(p.functions_dedup).padStart(5)}  ${String(p.real_hits).padStart(5)} ${pct(p.real_hits, p.functions_dedup).padStart(6)}  ${String(p.real_structured_hits).padStart(5)} ${pct(p.real_structured_hits, p.functions_dedup).padStart(6)}`,
    );
  }
  if (s.graph !== undefined) {
    const g = s.graph;
    lines.push(
      `constructor graph: total_types=${g.total_types} types_with_constructors=${g.types_with_constructors} total_constructors=${g.total_constructors} types_with_producers=${g.types_with_producers} total_producers=${g.total_producers}`,
    );
  }
  return lines.join('\n') + '\n';
}

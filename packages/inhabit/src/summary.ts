/**
 * The summary of a run: totals, Tier A/B hit rates, counts by stage, E-code, abort
 * category and provenance, per package; as JSON and as the table `smi benchmark-local`
 * prints on stderr (and, with `--error-distribution`, the taxonomy by phase).
 */
import type { GraphStats } from './constructor-graph.js';
import type { BenchmarkRow } from './row.js';
import { ABORT_CATEGORIES, ERROR_CODES, type ErrorCode, type Phase } from './taxonomy.js';

/** Counts of one package. */
export interface PackageSummary {
  functions: number;
  tier_a_hits: number;
  tier_b_hits: number;
}

/** The summary JSON. */
export interface BenchmarkSummary {
  rows: number;
  tier_a_hits: number;
  tier_b_hits: number;
  tier_a_rate: number;
  tier_b_rate: number;
  by_status: Record<string, number>;
  by_stage: Record<string, number>;
  by_error_code: Record<string, number>;
  by_abort_category: Record<string, number>;
  /** Tier B hits by how their inputs were obtained. */
  hits_by_provenance: Record<string, number>;
  per_package: Record<string, PackageSummary>;
  graph?: GraphStats;
  inits?: { run: number; failed: number };
  elapsed_ms?: number;
  functions_per_second?: number;
  interrupted?: true;
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
    per_package: {},
  };

  add(row: BenchmarkRow): void {
    const s = this.s;
    s.rows++;
    bump(s.by_status, row.status);
    const pkg = (s.per_package[row.target_package] ??= { functions: 0, tier_a_hits: 0, tier_b_hits: 0 });
    pkg.functions++;
    const a = row.status === 'tier_a_hit' || row.status === 'tier_b_hit';
    if (a) {
      s.tier_a_hits++;
      pkg.tier_a_hits++;
    }
    if (row.status === 'tier_b_hit') {
      s.tier_b_hits++;
      pkg.tier_b_hits++;
      bump(s.hits_by_provenance, row.provenance ?? 'chain');
    }
    if (row.failure_stage !== undefined) bump(s.by_stage, row.failure_stage);
    if (row.error_code !== undefined) bump(s.by_error_code, row.error_code);
    if (row.abort !== undefined) bump(s.by_abort_category, row.abort.category);
  }

  /** The summary so far, with the extra facts given. */
  build(extra: Partial<Pick<BenchmarkSummary, 'graph' | 'inits' | 'elapsed_ms' | 'interrupted'>> = {}): BenchmarkSummary {
    const s: BenchmarkSummary = { ...this.s, ...extra };
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

/** The summary as text (the table printed on stderr). */
export function summaryText(s: BenchmarkSummary, options: { errorDistribution?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(`benchmark-local: ${s.rows} functions${s.interrupted ? ' (interrupted)' : ''}${s.elapsed_ms !== undefined ? ` in ${(s.elapsed_ms / 1000).toFixed(1)} s` : ''}${s.functions_per_second !== undefined ? ` (${s.functions_per_second} functions/s)` : ''}`);
  lines.push(`  Tier A hits            ${String(s.tier_a_hits).padStart(6)}  ${pct(s.tier_a_hits, s.rows).padStart(6)}`);
  lines.push(`  Tier B hits            ${String(s.tier_b_hits).padStart(6)}  ${pct(s.tier_b_hits, s.rows).padStart(6)}`);
  const stageOrder = ['A1', 'A2', 'A3', 'A4', 'A5', 'B1', 'B2'];
  lines.push(...table('by failure stage', stageOrder.filter((k) => s.by_stage[k] !== undefined).map((k) => [k, s.by_stage[k]]), s.rows));
  lines.push(
    ...table(
      'by error code',
      Object.entries(s.by_error_code).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      s.rows,
      (k) => ERROR_CODES[k as ErrorCode]?.description ?? '',
    ),
  );
  lines.push(...table('B failures by abort category', ABORT_CATEGORIES.filter((k) => s.by_abort_category[k] !== undefined).map((k) => [k, s.by_abort_category[k]]), s.rows));
  lines.push(...table('Tier B hits by provenance', ['chain', 'init_state', 'synthesized'].filter((k) => s.hits_by_provenance[k] !== undefined).map((k) => [k, s.hits_by_provenance[k]]), s.tier_b_hits));
  if (options.errorDistribution) {
    const byPhase: Record<string, number> = {};
    for (const [code, n] of Object.entries(s.by_error_code)) byPhase[ERROR_CODES[code as ErrorCode].phase] = (byPhase[ERROR_CODES[code as ErrorCode].phase] ?? 0) + n;
    const phases: Phase[] = ['Resolution', 'TypeCheck', 'Synthesis', 'Execution', 'Validation'];
    lines.push(...table('error distribution by phase', phases.filter((p) => byPhase[p] !== undefined).map((p) => [p, byPhase[p]]), s.rows));
  }
  lines.push('per package (functions, Tier A, Tier B)');
  for (const [id, p] of Object.entries(s.per_package)) {
    lines.push(`  ${id.slice(0, 10)}…${id.slice(-4)}  ${String(p.functions).padStart(5)}  ${String(p.tier_a_hits).padStart(5)} ${pct(p.tier_a_hits, p.functions).padStart(6)}  ${String(p.tier_b_hits).padStart(5)} ${pct(p.tier_b_hits, p.functions).padStart(6)}`);
  }
  if (s.graph !== undefined) {
    const g = s.graph;
    lines.push(`constructor graph: total_types=${g.total_types} types_with_constructors=${g.types_with_constructors} total_constructors=${g.total_constructors} types_with_producers=${g.types_with_producers} total_producers=${g.total_producers}`);
  }
  return lines.join('\n') + '\n';
}

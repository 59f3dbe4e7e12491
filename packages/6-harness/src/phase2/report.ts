/**
 * Phase II's run JSON (`schema_version: 2`), as the original wrote it: its top-level fields,
 * its rows (in run order) and its aggregate (`avg_hit_rate`, `max_hit_rate`, `errors`, ...),
 * plus the metrics of `metrics.py` (`planning_only_hit_rate`, `causality_success_rate`,
 * `formatting_only_failures`, ...) and what the original lacked: micro hit rate, outcomes,
 * synthetic (mock) rows counted apart.
 */
import { type PyJson, PyFloat } from '../py-json.js';
import type { RunJson } from '../run/checkpoint.js';
import { isFailure, OUTCOMES, type Outcome, type PackageResult } from '../run/types.js';
import { passAtKJson, seedJson } from '../phase1/report.js';
import { passAtKTable } from '../run/pass-at-k.js';

/** The run-level fields of a Phase II run JSON. */
export interface Phase2RunInfo {
  startedAt: number;
  finishedAt: number;
  corpusRootName: string;
  seed: bigint;
  agent: string;
  simulationMode: string;
  sender: string;
  gasBudget: bigint;
  /** The node's endpoint (dry-run and dev-inspect modes). */
  rpcUrl?: string;
  /** The gas coin that paid on the node. */
  gasCoin?: string | null;
  /** The model of a model agent (`null` for the others). */
  model?: string | null;
  /** Locally: the sender ran the inits, so the init state's capabilities were usable (an upper bound). */
  senderIsPublisher?: boolean;
}

const f = (x: number): PyFloat => new PyFloat(x);

type Score = { targets: number; created_distinct: number; created_hits: number; missing: number };

function toPy(v: unknown): PyJson {
  if (v === undefined) return null;
  if (typeof v === 'number' && !Number.isInteger(v)) return f(v);
  if (Array.isArray(v)) return v.map(toPy);
  if (typeof v === 'object' && v !== null && !(v instanceof PyFloat)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPy(x)]));
  return v as PyJson;
}

function rowJson(r: PackageResult): { [key: string]: PyJson } {
  const row = toPy(r.row) as { [key: string]: PyJson };
  return { ...row, elapsed_seconds: f(r.elapsed_seconds), error: r.error, timed_out: r.timed_out, outcome: r.outcome, causality_score: f(Number(r.row.causality_score ?? 1)) };
}

type EpochSummary = { all_hit: boolean; created_hits: number; targets: number };

/** pass@k over packages (k = 1…epochs) and the mean hit rate over every epoch, when rows have epochs. */
function epochAggregate(rows: readonly Record<string, unknown>[]): { [key: string]: PyJson } {
  const withEpochs = rows.map((r) => r.epochs as EpochSummary[] | undefined).filter((e): e is EpochSummary[] => Array.isArray(e) && e.length > 0);
  const table = passAtKTable(withEpochs.map((e) => e.map((x) => x.all_hit)));
  if (table === null) return {};
  const rates = withEpochs.flatMap((e) => e.map((x) => (x.targets === 0 ? 0 : x.created_hits / x.targets)));
  return { epochs: table.epochs, pass_at_k: passAtKJson(table.passAtK), mean_epoch_hit_rate: f(rates.reduce((a, b) => a + b, 0) / rates.length) };
}

/** chain-search: how many target types missed for each cause (absent for the other agents). */
function missCauses(rows: readonly Record<string, unknown>[]): { miss_causes?: { [key: string]: PyJson } } {
  const out: Record<string, number> = {};
  let any = false;
  for (const r of rows) {
    const c = (r.chain_search as { miss_causes?: Record<string, string> } | undefined)?.miss_causes;
    if (c === undefined) continue;
    any = true;
    for (const cause of Object.values(c)) out[cause] = (out[cause] ?? 0) + 1;
  }
  return any ? { miss_causes: Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1))) } : {};
}

/** Aggregates of Phase II results (the original's keys first). */
export function phase2Aggregate(results: readonly PackageResult[]): { [key: string]: PyJson } {
  const scores = results.map((r) => r.row.score as Score);
  const rates = scores.map((s) => (s.targets === 0 ? 0 : s.created_hits / s.targets));
  const outcomes: Record<Outcome, number> = { correct: 0, wrong: 0, unparseable: 0, limit: 0, model_error: 0, infra_error: 0 };
  for (const r of results) outcomes[r.outcome]++;
  const targets = scores.reduce((a, s) => a + s.targets, 0);
  const hits = scores.reduce((a, s) => a + s.created_hits, 0);
  const rows = results.map((r) => r.row as Record<string, unknown>);
  const dryOk = rows.filter((r) => r.dry_run_ok === true).length;
  const planningOnly = rows.filter((r) => r.dry_run_ok !== true);
  const planningHits = planningOnly.filter((r) => (r.score as Score).created_hits > 0).length;
  const causalValid = rows.filter((r) => r.causality_valid === true).length;
  return {
    avg_hit_rate: f(rates.length === 0 ? 0 : rates.reduce((a, b) => a + b, 0) / rates.length),
    max_hit_rate: f(rates.length === 0 ? 0 : Math.max(...rates)),
    errors: results.filter((r) => isFailure(r.outcome)).length,
    packages_total: results.length,
    packages_with_hits: scores.filter((s) => s.created_hits > 0).length,
    timeouts: results.filter((r) => r.timed_out).length,
    total_prompt_tokens: results.reduce((a, r) => a + r.usage.input, 0),
    total_completion_tokens: results.reduce((a, r) => a + r.usage.output, 0),
    // Unknown when any package's cost is (a model without a price, an answer without usage).
    total_cost_usd: results.some((r) => r.usage.cost_usd === null) ? null : f(results.reduce((a, r) => a + (r.usage.cost_usd ?? 0), 0)),
    micro_hit_rate: f(targets === 0 ? 0 : hits / targets),
    targets,
    hits,
    dry_run_ok: dryOk,
    created_distinct_sum: scores.reduce((a, s) => a + s.created_distinct, 0),
    planning_only_packages: planningOnly.length,
    planning_only_hit_rate: f(planningOnly.length === 0 ? 0 : planningHits / planningOnly.length),
    formatting_only_failures: rows.filter((r) => Number(r.schema_violation_count ?? 0) > 0 && Number(r.semantic_failure_count ?? 0) === 0 && (r.score as Score).created_hits === 0).length,
    causality_valid_count: causalValid,
    causality_success_rate: f(rows.length === 0 ? 0 : causalValid / rows.length),
    synthetic_packages: rows.filter((r) => r.synthetic === true).length,
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, outcomes[o]])),
    ...missCauses(rows),
    ...epochAggregate(rows),
  };
}

/** The run JSON of `results` (in run order). */
export function phase2RunJson(info: Phase2RunInfo, results: readonly PackageResult[]): RunJson {
  const ordered = [...results].sort((a, b) => a.index - b.index);
  return {
    schema_version: 2,
    started_at_unix_seconds: info.startedAt,
    finished_at_unix_seconds: info.finishedAt,
    corpus_root_name: info.corpusRootName,
    samples: ordered.length,
    seed: seedJson(info.seed),
    agent: info.agent,
    rpc_url: info.rpcUrl ?? (info.simulationMode === 'local' || info.simulationMode === 'build-only' ? `smi-local:${info.simulationMode}` : info.simulationMode),
    sender: info.sender,
    gas_budget: Number(info.gasBudget),
    gas_coin: info.gasCoin ?? null,
    simulation_mode: info.simulationMode,
    model: info.model ?? null,
    ...(info.senderIsPublisher !== undefined ? { sender_is_publisher: info.senderIsPublisher } : {}),
    aggregate: phase2Aggregate(ordered),
    packages: ordered.map(rowJson),
  };
}

/** A short text summary of a Phase II run JSON. */
export function phase2SummaryText(runJson: RunJson): string {
  const a = runJson.aggregate as { [key: string]: PyJson };
  const n = (v: PyJson | undefined): string => (v instanceof PyFloat ? v.value.toFixed(3) : String(v));
  const o = a.outcomes as Record<string, number>;
  return (
    [
      `packages: ${String(a.packages_total)}  with hits: ${String(a.packages_with_hits)}  errors: ${String(a.errors)}  synthetic: ${String(a.synthetic_packages)}`,
      `hit rate  macro ${n(a.avg_hit_rate)}  micro ${n(a.micro_hit_rate)} (${String(a.hits)}/${String(a.targets)} target types)  max ${n(a.max_hit_rate)}`,
      `dry runs ok: ${String(a.dry_run_ok)}  causality valid: ${String(a.causality_valid_count)}  planning-only hit rate ${n(a.planning_only_hit_rate)}`,
      `outcomes: ${OUTCOMES.map((k) => `${k} ${o[k]}`).join(', ')}`,
      ...(a.pass_at_k
        ? [
            `epochs ${String(a.epochs)}: ${Object.entries(a.pass_at_k as Record<string, PyJson>)
              .map(([k, v]) => `pass@${k} ${n(v)}`)
              .join('  ')}`,
          ]
        : []),
    ].join('\n') + '\n'
  );
}

/** Phase II's run JSON over merged shards: run-level fields from one shard's run JSON, rows and aggregate from all results. */
export function phase2MergedRunJson(base: RunJson, results: readonly PackageResult[], span: { startedAt: number; finishedAt: number }): RunJson {
  const seed = base.seed;
  const mode = String(base.simulation_mode);
  const rpc = String(base.rpc_url);
  return phase2RunJson(
    {
      startedAt: span.startedAt,
      finishedAt: span.finishedAt,
      corpusRootName: String(base.corpus_root_name),
      seed: typeof seed === 'bigint' ? seed : BigInt(Number(seed)),
      agent: String(base.agent),
      simulationMode: mode,
      sender: String(base.sender),
      gasBudget: BigInt(Number(base.gas_budget)),
      ...(rpc.startsWith('smi-local:') || rpc === mode ? {} : { rpcUrl: rpc }),
      gasCoin: typeof base.gas_coin === 'string' ? base.gas_coin : null,
      model: typeof base.model === 'string' ? base.model : null,
      ...(typeof base.sender_is_publisher === 'boolean' ? { senderIsPublisher: base.sender_is_publisher } : {}),
    },
    results,
  );
}

/**
 * Phase I's run JSON (`schema_version: 1`), as the original wrote it, from the stored
 * results: its top-level fields, its rows (in run order), and its `aggregate` (macro
 * averages and `errors`), plus what the original lacked: `packages_total`, `timeouts`,
 * the outcomes apart, micro averages, a bootstrap interval of the macro F1, and tokens
 * and cost at list price (the same whether answers came from the cache or not).
 */
import { type PyJson, PyFloat } from '../py-json.js';
import type { RunJson } from '../run/checkpoint.js';
import { passAtKTable } from '../run/pass-at-k.js';
import { isFailure, OUTCOMES, type Outcome, type PackageResult } from '../run/types.js';
import { bootstrapInterval, type KeyTypeScore, mean, microScores } from './judge.js';

/** The run-level fields of a Phase I run JSON. */
export interface Phase1RunInfo {
  startedAt: number;
  finishedAt: number;
  corpusRootName: string;
  corpusGit: { head: string } | null;
  targetIdsFile: string | null;
  targetIdsTotal: number | null;
  seed: bigint;
  agent: string;
  /** The model a model agent asked (`null` for the mocks): in the run JSON, not only in spec.json (which `--no-log` does not write). */
  model?: string | null;
}

const f = (x: number): PyFloat => new PyFloat(x);

function rowJson(r: PackageResult): { [key: string]: PyJson } {
  const row = r.row as Record<string, unknown>;
  const s = row.score as KeyTypeScore;
  return {
    ...(row as { [key: string]: PyJson }),
    package_id: r.package_id,
    score: { ...(s as unknown as { [key: string]: PyJson }), precision: f(s.precision), recall: f(s.recall), f1: f(s.f1) },
    elapsed_seconds: f(r.elapsed_seconds),
    error: r.error,
    timed_out: r.timed_out,
    outcome: r.outcome,
    usage: {
      calls: r.usage.calls,
      prompt_tokens: r.usage.input,
      completion_tokens: r.usage.output,
      cached_tokens: r.usage.cached,
      reasoning_tokens: r.usage.reasoning,
      cost_usd: r.usage.cost_usd === null ? null : f(r.usage.cost_usd),
    },
  };
}

/** Aggregates of Phase I results. */
export function phase1Aggregate(results: readonly PackageResult[], seed: bigint): { [key: string]: PyJson } {
  const scores = results.map((r) => (r.row as { score: KeyTypeScore }).score);
  const micro = microScores(scores);
  const ci = bootstrapInterval(
    scores.map((s) => s.f1),
    1000,
    Number(BigInt.asUintN(32, seed)),
  );
  const outcomes: Record<Outcome, number> = { correct: 0, wrong: 0, unparseable: 0, limit: 0, model_error: 0, infra_error: 0 };
  for (const r of results) outcomes[r.outcome]++;
  let cost: number | null = 0;
  const tokens = { calls: 0, input: 0, output: 0, cached: 0, reasoning: 0 };
  for (const r of results) {
    tokens.calls += r.usage.calls;
    tokens.input += r.usage.input;
    tokens.output += r.usage.output;
    tokens.cached += r.usage.cached;
    tokens.reasoning += r.usage.reasoning;
    cost = cost === null || r.usage.cost_usd === null ? null : Math.round((cost + r.usage.cost_usd) * 1e9) / 1e9;
  }
  return {
    avg_precision: f(mean(scores.map((s) => s.precision))),
    avg_recall: f(mean(scores.map((s) => s.recall))),
    avg_f1: f(mean(scores.map((s) => s.f1))),
    errors: results.filter((r) => isFailure(r.outcome)).length,
    packages_total: results.length,
    timeouts: results.filter((r) => r.timed_out).length,
    micro_precision: f(micro.precision),
    micro_recall: f(micro.recall),
    micro_f1: f(micro.f1),
    avg_f1_ci95: ci === null ? null : [f(ci[0]), f(ci[1])],
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, outcomes[o]])),
    model_calls: tokens.calls,
    total_prompt_tokens: tokens.input,
    total_completion_tokens: tokens.output,
    total_cached_tokens: tokens.cached,
    total_reasoning_tokens: tokens.reasoning,
    cost_usd: cost === null ? null : f(cost),
    ...epochAggregate(results.map((r) => r.row)),
  };
}

type EpochSummary = { correct: boolean; f1: number | PyFloat };

/** With `--epochs K`: pass@k over packages (k = 1…K, a sample passes when it is correct) and the mean F1 over every sample. */
function epochAggregate(rows: readonly Record<string, unknown>[]): { [key: string]: PyJson } {
  const withEpochs = rows.map((r) => r.epochs as EpochSummary[] | undefined).filter((e): e is EpochSummary[] => Array.isArray(e) && e.length > 0);
  const table = passAtKTable(withEpochs.map((e) => e.map((x) => x.correct)));
  if (table === null) return {};
  const f1s = withEpochs.flatMap((e) => e.map((x) => (x.f1 instanceof PyFloat ? x.f1.value : x.f1)));
  return { epochs: table.epochs, pass_at_k: passAtKJson(table.passAtK), mean_epoch_f1: f(f1s.reduce((a, b) => a + b, 0) / f1s.length) };
}

/** pass@k as the run JSON writes it: `{"1": 0.5, "2": 1.0, ...}`. */
export function passAtKJson(passAtK: ReadonlyMap<number, number>): { [key: string]: PyJson } {
  return Object.fromEntries([...passAtK].map(([k, v]) => [String(k), f(v)]));
}

/** The seed as a Python int (a JSON number, exact however large). */
export function seedJson(seed: bigint): number | bigint {
  return seed >= BigInt(Number.MIN_SAFE_INTEGER) && seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : seed;
}

/** The run JSON of `results` (in run order). */
export function phase1RunJson(info: Phase1RunInfo, results: readonly PackageResult[]): RunJson {
  const ordered = [...results].sort((a, b) => a.index - b.index);
  return {
    schema_version: 1,
    started_at_unix_seconds: info.startedAt,
    finished_at_unix_seconds: info.finishedAt,
    corpus_root_name: info.corpusRootName,
    corpus_git: info.corpusGit,
    target_ids_file: info.targetIdsFile,
    target_ids_total: info.targetIdsTotal,
    samples: ordered.length,
    seed: seedJson(info.seed),
    agent: info.agent,
    model: info.model ?? null,
    aggregate: phase1Aggregate(ordered, info.seed),
    packages: ordered.map(rowJson),
  };
}

/** A short text summary of a run JSON's aggregate. */
export function phase1SummaryText(runJson: RunJson): string {
  const a = runJson.aggregate as { [key: string]: PyJson };
  const n = (v: PyJson | undefined): string => (v instanceof PyFloat ? v.value.toFixed(3) : v === null || v === undefined ? 'n/a' : String(v));
  const o = a.outcomes as Record<string, number>;
  const ci = a.avg_f1_ci95 as PyFloat[] | null;
  const lines = [
    `packages: ${String(a.packages_total)}  errors: ${String(a.errors)}  timeouts: ${String(a.timeouts)}`,
    `macro  precision ${n(a.avg_precision)}  recall ${n(a.avg_recall)}  F1 ${n(a.avg_f1)}${ci ? `  (95% CI ${ci[0].value.toFixed(3)}-${ci[1].value.toFixed(3)})` : ''}`,
    `micro  precision ${n(a.micro_precision)}  recall ${n(a.micro_recall)}  F1 ${n(a.micro_f1)}`,
    `outcomes: ${OUTCOMES.map((k) => `${k} ${o[k]}`).join(', ')}`,
  ];
  if ((a.model_calls as number) > 0) {
    lines.push(
      `model: ${String(a.model_calls)} calls, ${String(a.total_prompt_tokens)} prompt + ${String(a.total_completion_tokens)} completion tokens, cost ${a.cost_usd === null ? 'unknown (no price)' : `$${(a.cost_usd as PyFloat).value.toFixed(4)}`}`,
    );
  }
  if (a.pass_at_k) {
    lines.push(
      `epochs ${String(a.epochs)}: ${Object.entries(a.pass_at_k as Record<string, PyJson>)
        .map(([k, v]) => `pass@${k} ${n(v)}`)
        .join('  ')}  mean F1 ${n(a.mean_epoch_f1)}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** Phase I's run JSON over merged shards: run-level fields from one shard's run JSON, rows and aggregate from all results. */
export function phase1MergedRunJson(base: RunJson, results: readonly PackageResult[], span: { startedAt: number; finishedAt: number }): RunJson {
  const seed = base.seed;
  return phase1RunJson(
    {
      startedAt: span.startedAt,
      finishedAt: span.finishedAt,
      corpusRootName: String(base.corpus_root_name),
      corpusGit: (base.corpus_git ?? null) as { head: string } | null,
      targetIdsFile: typeof base.target_ids_file === 'string' ? base.target_ids_file : null,
      targetIdsTotal: typeof base.target_ids_total === 'number' ? base.target_ids_total : null,
      seed: typeof seed === 'bigint' ? seed : BigInt(Number(seed)),
      agent: String(base.agent),
      model: typeof base.model === 'string' ? base.model : null,
    },
    results,
  );
}

/** `report.md`: the report's figures and tables as Markdown (charts stay in the HTML). */
import type { BenchmarkView } from './benchmark-view.js';
import { int, pct, usd } from './html.js';
import { metricName } from './run-section.js';
import type { RunView } from './run-view.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function mdTable(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

function counts(title: string, c: Record<string, number>, total: number): string[] {
  const entries = Object.entries(c).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (entries.length === 0) return [];
  return [``, `**${title}**`, ``, ...mdTable([title, 'rows', 'share'], entries.map(([k, n]) => [k, int(n), pct(total === 0 ? 0 : n / total)]))];
}

function benchmarkMd(v: BenchmarkView): string[] {
  const s = v.summary;
  const out = [`## benchmark-local: ${v.label}`, ``, `${int(s.rows)} functions in ${int(v.packages.length)} packages: Tier A ${int(s.tier_a_hits)} (${pct(s.tier_a_rate)}), Tier B ${int(s.tier_b_hits)} (${pct(s.tier_b_rate)}).`];
  out.push(...counts('failure stage', s.by_stage, s.rows), ...counts('error code', s.by_error_code, s.rows), ...counts('abort category', s.by_abort_category, s.rows), ...counts('provenance of Tier B hits', s.hits_by_provenance, s.tier_b_hits));
  out.push(``, `**Packages**`, ``);
  out.push(...mdTable(['package', 'functions', 'Tier A', 'Tier B', 'Tier B rate', 'most frequent failure stage'], v.packages.map((p) => [p.package_id, int(p.functions), int(p.tier_a_hits), int(p.tier_b_hits), pct(p.tier_b_rate), p.top_failure ?? '—'])));
  return out;
}

function runsMd(phase: 'phase1' | 'phase2', runs: readonly RunView[]): string[] {
  const m = metricName(phase);
  const out = [`## ${phase === 'phase1' ? 'Phase I: key types' : 'Phase II: creating the key types'}`, ``];
  out.push(
    ...mdTable(
      ['run', 'agent', 'model', 'packages', `mean ${m}`, `micro ${m}`, ...Object.keys(runs[0]?.outcomes ?? {}).length ? ['outcomes'] : [], 'input tokens', 'output tokens', 'cost'],
      runs.map((r) => [
        r.label,
        r.agent,
        r.model ?? '—',
        int(r.packages.length),
        pct(r.mean_metric),
        pct(r.micro_metric),
        Object.entries(r.outcomes)
          .map(([k, n]) => `${k} ${n}`)
          .join(', '),
        int(r.spend.input_tokens),
        int(r.spend.output_tokens),
        usd(r.spend.spent_usd),
      ]),
    ),
  );
  for (const r of runs) {
    out.push(``, `### Packages — ${r.label}`, ``);
    out.push(...mdTable(['package', 'outcome', m, 'tokens', 'cost', 'latency (s)', 'turns', 'error'], r.packages.map((p) => [p.package_id, p.outcome, pct(p.metric), int(p.input_tokens + p.output_tokens), usd(p.cost_usd), p.elapsed_seconds.toFixed(2), int(p.turns), p.error ?? ''])));
  }
  return out;
}

/** The Markdown report. */
export function markdownReport(o: { title: string; generated: string; inputs: readonly string[]; benchmarks: readonly BenchmarkView[]; phases: readonly { phase: 'phase1' | 'phase2'; runs: readonly RunView[] }[] }): string {
  const out = [`# ${o.title}`, ``, `Generated ${o.generated} from ${o.inputs.map((i) => `\`${i}\``).join(', ')}. The HTML report beside this file has the charts, the per-row drill-down and the transcripts.`, ``];
  for (const b of o.benchmarks) out.push(...benchmarkMd(b), ``);
  for (const p of o.phases) out.push(...runsMd(p.phase, p.runs), ``);
  return out.join('\n');
}

/** `report.md`: the report's figures and tables as Markdown (charts stay in the HTML). */
import { boundRate, PACKAGE_COLUMNS, packageBounds, REAL_HIT_DEFINITION } from './benchmark-section.js';
import type { BenchmarkView } from './benchmark-view.js';
import { SPLITS } from './hit-kinds.js';
import { int, pct, usd } from './html.js';
import { metricName } from './run-section.js';
import { meanNote, type RunView } from './run-view.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function mdTable(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

function counts(title: string, c: Record<string, number>, total: number, unit = 'rows', order: readonly string[] = []): string[] {
  const entries = Object.entries(c).sort((a, b) => {
    const [x, y] = [order.indexOf(a[0]), order.indexOf(b[0])];
    return (x < 0 ? order.length : x) - (y < 0 ? order.length : y) || b[1] - a[1] || a[0].localeCompare(b[0]);
  });
  if (entries.length === 0) return [];
  return [
    ``,
    `**${title}**`,
    ``,
    ...mdTable(
      [title, unit, 'share'],
      entries.map(([k, n]) => [k, int(n), pct(total === 0 ? 0 : n / total)]),
    ),
  ];
}

function headlineMd(v: BenchmarkView): string[] {
  const h = v.summary.headline;
  const out = [``, `**Headline: real hits, each function once**`, ``, REAL_HIT_DEFINITION, ``];
  out.push(
    ...mdTable(
      ['', 'hits', 'functions counted once', 'rate'],
      [
        ['real hits', int(h.real_hits), int(h.functions_dedup), boundRate(h.real_rate, v.gaps.real_lower_bound)],
        ['real structured hits', int(h.real_structured_hits), int(h.functions_dedup), boundRate(h.real_structured_rate, v.gaps.real_structured_lower_bound)],
      ],
    ),
  );
  for (const c of v.gaps.caveats) out.push(``, `> Not classified: ${c}`);
  return out;
}

function benchmarkMd(v: BenchmarkView): string[] {
  const s = v.summary;
  const h = s.headline;
  const out = [
    `## benchmark-local: ${v.label}`,
    ``,
    `Real hit rate ${boundRate(h.real_rate, v.gaps.real_lower_bound)} (${int(h.real_hits)} of ${int(h.functions_dedup)} functions counted once), real structured hit rate ${boundRate(h.real_structured_rate, v.gaps.real_structured_lower_bound)} (${int(h.real_structured_hits)}).`,
  ];
  out.push(...headlineMd(v));
  out.push(
    ``,
    `**Loose: every row, every Tier B hit**`,
    ``,
    `${int(s.rows)} rows (functions, duplicates included) in ${int(v.packages.length)} packages: Tier A ${int(s.tier_a_hits)} (${pct(s.tier_a_rate)}), Tier B ${int(s.tier_b_hits)} (${pct(s.tier_b_rate)}).`,
  );
  for (const d of SPLITS) out.push(...counts(`Tier B hits by ${d.name}`, v.splits[d.name], s.tier_b_hits, 'hits', d.values));
  out.push(...counts('failure stage', s.by_stage, s.rows), ...counts('error code', s.by_error_code, s.rows), ...counts('abort category', s.by_abort_category, s.rows));
  out.push(``, `**Packages** (by real structured rate, then real rate)`, ``);
  out.push(
    ...mdTable(
      PACKAGE_COLUMNS,
      v.packages.map((p) => [
        p.package_id,
        int(p.functions),
        int(p.functions_dedup),
        int(p.real_structured_hits),
        boundRate(p.real_structured_rate, packageBounds(p).structured),
        int(p.real_hits),
        boundRate(p.real_rate, packageBounds(p).real),
        int(p.tier_a_hits),
        pct(p.tier_a_rate),
        int(p.tier_b_hits),
        pct(p.tier_b_rate),
        p.top_failure ?? '—',
      ]),
    ),
  );
  return out;
}

/** Several benchmark-local inputs side by side: the headline rates first, then the loose ones. */
function benchmarksSideBySide(views: readonly BenchmarkView[]): string[] {
  return [
    `## benchmark-local side by side`,
    ``,
    ...mdTable(
      ['input', 'functions counted once', 'real structured hits', 'real structured rate', 'real hits', 'real rate', 'rows', 'Tier A rate (loose)', 'Tier B rate (loose)'],
      views.map((v) => {
        const h = v.summary.headline;
        return [
          v.label,
          int(h.functions_dedup),
          int(h.real_structured_hits),
          boundRate(h.real_structured_rate, v.gaps.real_structured_lower_bound),
          int(h.real_hits),
          boundRate(h.real_rate, v.gaps.real_lower_bound),
          int(v.summary.rows),
          pct(v.summary.tier_a_rate),
          pct(v.summary.tier_b_rate),
        ];
      }),
    ),
    ``,
  ];
}

function runsMd(phase: 'phase1' | 'phase2', runs: readonly RunView[]): string[] {
  const m = metricName(phase);
  const out = [`## ${phase === 'phase1' ? 'Phase I: key types' : 'Phase II: creating the key types'}`, ``];
  out.push(
    ...mdTable(
      ['run', 'agent', 'model', 'packages', `mean ${m}`, `micro ${m}`, ...(Object.keys(runs[0]?.outcomes ?? {}).length ? ['outcomes'] : []), 'input tokens', 'output tokens', 'cost'],
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
  if (phase === 'phase2') {
    for (const r of runs) {
      const note = meanNote(r, pct);
      if (note !== null) out.push(``, note);
    }
  }
  for (const r of runs) {
    out.push(``, `### Packages — ${r.label}`, ``);
    out.push(
      ...mdTable(
        ['package', 'outcome', m, 'tokens', 'cost', 'latency (s)', 'turns', 'error'],
        r.packages.map((p) => [p.package_id, p.outcome, pct(p.metric), int(p.input_tokens + p.output_tokens), usd(p.cost_usd), p.elapsed_seconds.toFixed(2), int(p.turns), p.error ?? '']),
      ),
    );
  }
  return out;
}

/** The Markdown report. */
export function markdownReport(o: {
  title: string;
  generated: string;
  inputs: readonly string[];
  benchmarks: readonly BenchmarkView[];
  phases: readonly { phase: 'phase1' | 'phase2'; runs: readonly RunView[] }[];
}): string {
  const out = [
    `# ${o.title}`,
    ``,
    `Generated ${o.generated} from ${o.inputs.map((i) => `\`${i}\``).join(', ')}. The HTML report beside this file has the charts, the per-row drill-down and the transcripts.`,
    ``,
  ];
  if (o.benchmarks.length > 1) out.push(...benchmarksSideBySide(o.benchmarks));
  for (const b of o.benchmarks) out.push(...benchmarkMd(b), ``);
  for (const p of o.phases) out.push(...runsMd(p.phase, p.runs), ``);
  return out.join('\n');
}

/**
 * The Phase I / Phase II part of a report, one per phase: the runs side by side (agent,
 * model, mean and micro metric, outcomes, tokens, cost, latency, turns) with charts, then
 * per run a table of packages whose rows open the package's transcript.
 */
import { OUTCOMES, type PackageResult } from '@smi/harness';
import { boxPlots, type Chart, type Datum, groupedBars, histogram, renderChart, stackedBars } from './charts.js';
import { cards, esc, figure, int, jsonBlock, pct, shortId, table, usd } from './html.js';
import { meanNote, type RunView } from './run-view.js';
import { transcriptOf } from './transcript.js';

const OUTCOME_COLORS = ['#1f8a4c', '#9aa5b8', '#e0b44b', '#8e6bd1', '#e07b39', '#c4372c'];

/** Name of a phase's metric. */
export function metricName(phase: 'phase1' | 'phase2'): string {
  return phase === 'phase1' ? 'F1' : 'hit rate';
}

const avg = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

/** The charts of the runs of one phase. */
export async function runCharts(phase: 'phase1' | 'phase2', runs: readonly RunView[]): Promise<Chart[]> {
  const m = metricName(phase);
  const charts: Chart[] = [];
  // Each run keeps its colour in every chart, whatever data the chart has of it.
  const seriesOrder = runs.map((r) => r.label);
  const means: Datum[] = runs.flatMap((r) => [
    { metric: `mean ${m}`, series: r.label, value: r.mean_metric },
    { metric: `micro ${m}`, series: r.label, value: r.micro_metric },
  ]);
  charts.push(await renderChart(`${phase}-metric`, `${m} by run`, groupedBars(means, { x: 'metric', y: 'value', series: 'series', yTitle: m, percent: true, width: 260, seriesOrder })));
  const dist: Datum[] = runs.flatMap((r) => r.packages.filter((p) => p.metric !== null).map((p) => ({ series: r.label, value: p.metric })));
  charts.push(await renderChart(`${phase}-distribution`, `Distribution of the per-package ${m}`, histogram(dist, { title: m, seriesOrder })));
  const outcomes: Datum[] = runs.flatMap((r) => OUTCOMES.map((o) => ({ run: r.label, outcome: o, count: r.outcomes[o] ?? 0 })));
  charts.push(await renderChart(`${phase}-outcomes`, 'Outcomes by run', stackedBars(outcomes, { y: 'run', part: 'outcome', parts: OUTCOMES, colors: OUTCOME_COLORS, xTitle: 'packages' })));
  const latency: Datum[] = runs.flatMap((r) => r.packages.map((p) => ({ series: r.label, value: p.elapsed_seconds })));
  charts.push(await renderChart(`${phase}-latency`, 'Latency per package (seconds)', boxPlots(latency, { xTitle: 'seconds', seriesOrder })));
  if (runs.some((r) => r.spend.input_tokens + r.spend.output_tokens > 0)) {
    const tokens: Datum[] = runs.flatMap((r) => [
      { kind: 'input tokens', series: r.label, value: r.spend.input_tokens },
      { kind: 'output tokens', series: r.label, value: r.spend.output_tokens },
    ]);
    charts.push(await renderChart(`${phase}-tokens`, 'Tokens by run', groupedBars(tokens, { x: 'kind', y: 'value', series: 'series', yTitle: 'tokens', width: 260, seriesOrder })));
  }
  if (runs.some((r) => r.packages.some((p) => p.turns > 0))) {
    const turns: Datum[] = runs.flatMap((r) => r.packages.map((p) => ({ series: r.label, value: p.turns })));
    charts.push(await renderChart(`${phase}-turns`, 'Model calls per package (turns)', boxPlots(turns, { xTitle: 'calls', seriesOrder })));
  }
  return charts;
}

function runsTable(phase: 'phase1' | 'phase2', runs: readonly RunView[]): string {
  const m = metricName(phase);
  return table(
    `${phase}-runs`,
    [
      { title: 'run' },
      { title: 'agent' },
      { title: 'model' },
      { title: 'packages', num: true },
      { title: `mean ${m}`, num: true },
      { title: `micro ${m}`, num: true },
      { title: 'correct', num: true },
      { title: 'failed', num: true },
      { title: 'input tokens', num: true },
      { title: 'output tokens', num: true },
      { title: 'cost', num: true },
      { title: 'mean latency (s)', num: true },
      { title: 'mean turns', num: true },
    ],
    runs.map((r) => {
      const failed = r.packages.filter((p) => p.outcome !== 'correct' && p.outcome !== 'wrong').length;
      const latency = avg(r.packages.map((p) => p.elapsed_seconds));
      const turns = avg(r.packages.map((p) => p.turns));
      return {
        cells: [
          { text: r.label },
          { text: r.agent },
          { text: r.model ?? '—' },
          { text: int(r.packages.length), value: r.packages.length, num: true },
          { text: pct(r.mean_metric), value: r.mean_metric, num: true },
          { text: pct(r.micro_metric), value: r.micro_metric, num: true },
          { text: int(r.outcomes.correct ?? 0), value: r.outcomes.correct ?? 0, num: true },
          { text: int(failed), value: failed, num: true },
          { text: int(r.spend.input_tokens), value: r.spend.input_tokens, num: true },
          { text: int(r.spend.output_tokens), value: r.spend.output_tokens, num: true },
          { text: usd(r.spend.spent_usd), value: r.spend.spent_usd ?? -1, num: true },
          { text: latency.toFixed(2), value: latency, num: true },
          { text: turns.toFixed(1), value: turns, num: true },
        ],
      };
    }),
  );
}

function packagesTable(phase: 'phase1' | 'phase2', run: RunView, ri: number, results: readonly PackageResult[], data: string[]): string {
  const m = metricName(phase);
  const byId = new Map(results.map((r) => [r.package_id, r]));
  const rows = run.packages.map((p, pi) => {
    const id = `${phase}-${ri}-t-${pi}`;
    const result = byId.get(p.package_id);
    if (result !== undefined) data.push(jsonBlock(id, transcriptOf(result)));
    const detailCells =
      phase === 'phase1'
        ? [
            { text: pct(p.precision ?? 0), value: p.precision ?? 0, num: true },
            { text: pct(p.recall ?? 0), value: p.recall ?? 0, num: true },
          ]
        : [
            { text: int(p.hits ?? 0), value: p.hits ?? 0, num: true },
            { text: int(p.targets ?? 0), value: p.targets ?? 0, num: true },
          ];
    return {
      ...(result !== undefined ? { detail: id } : {}),
      package: p.package_id,
      cells: [
        { text: shortId(p.package_id), value: p.package_id, cls: 'mono', title: p.package_id },
        { text: p.outcome, cls: `outcome-${p.outcome}` },
        { text: pct(p.metric), value: p.metric ?? -1, num: true },
        ...detailCells,
        { text: int(p.input_tokens + p.output_tokens), value: p.input_tokens + p.output_tokens, num: true },
        { text: usd(p.cost_usd), value: p.cost_usd ?? -1, num: true },
        { text: p.elapsed_seconds.toFixed(2), value: p.elapsed_seconds, num: true },
        { text: int(p.turns), value: p.turns, num: true },
        { text: p.error ?? '', title: p.error ?? '', cls: 'err' },
      ],
    };
  });
  const detailColumns =
    phase === 'phase1'
      ? [
          { title: 'precision', num: true },
          { title: 'recall', num: true },
        ]
      : [
          { title: 'hits', num: true },
          { title: 'targets', num: true },
        ];
  return table(
    `${phase}-table-${ri}`,
    [
      { title: 'package' },
      { title: 'outcome' },
      { title: m, num: true },
      ...detailColumns,
      { title: 'tokens', num: true },
      { title: 'cost', num: true },
      { title: 'latency (s)', num: true },
      { title: 'turns', num: true },
      { title: 'error' },
    ],
    rows,
  );
}

/** The HTML of one phase's runs (charts given) and their transcripts. */
export function runHtml(phase: 'phase1' | 'phase2', runs: readonly RunView[], results: readonly (readonly PackageResult[])[], charts: readonly Chart[]): { html: string; data: string } {
  const data: string[] = [];
  const m = metricName(phase);
  const out: string[] = [`<section class="block" id="${phase}"><h2>${phase === 'phase1' ? 'Phase I: key types' : 'Phase II: creating the key types'}</h2>`];
  if (runs.length === 1) {
    const r = runs[0];
    out.push(
      cards([
        ['packages', int(r.packages.length)],
        [`mean ${m}`, pct(r.mean_metric)],
        [`micro ${m}`, pct(r.micro_metric)],
        ['correct', int(r.outcomes.correct ?? 0)],
        ['tokens', int(r.spend.input_tokens + r.spend.output_tokens)],
        ['cost', usd(r.spend.spent_usd)],
      ]),
    );
  }
  out.push(`<h3>Runs</h3>`, runsTable(phase, runs));
  if (phase === 'phase2') {
    for (const r of runs) {
      const note = meanNote(r, pct);
      if (note !== null) out.push(`<p class="note">${esc(note)}</p>`);
    }
  }
  out.push(`<div class="charts">${charts.map(figure).join('')}</div>`);
  runs.forEach((r, ri) => {
    out.push(
      `<h3>Packages — ${esc(r.label)}</h3><p class="note">Click a column to sort; click a package for its transcript (prompts, answers, need_more rounds, plans, the simulator's effects or error).</p>`,
    );
    out.push(packagesTable(phase, r, ri, results[ri], data));
  });
  out.push('</section>');
  return { html: out.join('\n'), data: data.join('\n') };
}

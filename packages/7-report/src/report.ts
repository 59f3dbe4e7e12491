/**
 * `buildReport`: inputs in, one self-contained HTML page (charts as SVG, tables, drill-down
 * and transcripts as inert JSON parsed on demand; nothing fetched from the network) and the
 * same figures as Markdown out.
 */
import { type BenchmarkView, benchmarkView } from './benchmark-view.js';
import { benchmarkCharts } from './benchmark-charts.js';
import { benchmarkHtml } from './benchmark-section.js';
import { ReportError } from './errors.js';
import { glossaryHtml } from './glossary.js';
import { page } from './html.js';
import type { ReportInput } from './inputs.js';
import { markdownReport } from './markdown.js';
import { runCharts, runHtml } from './run-section.js';
import { type RunView, runView } from './run-view.js';

/** Options of a report. */
export interface ReportOptions {
  title?: string;
  /** When it was made (default: now; tests pass a fixed time). */
  generatedAt?: Date;
}

/** A finished report. */
export interface Report {
  html: string;
  markdown: string;
  /** Charts rendered (their ids). */
  charts: string[];
  /** What it covered. */
  summary: { benchmark_local: number; phase1: number; phase2: number; packages: number; transcripts: number };
}

/** Make the report of some inputs. */
export async function buildReport(inputs: readonly ReportInput[], options: ReportOptions = {}): Promise<Report> {
  if (inputs.length === 0) throw new ReportError('NO_INPUTS', 'no inputs to report on');
  const title = options.title ?? 'SMI report';
  const generated = (options.generatedAt ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const benchmarks: BenchmarkView[] = [];
  const phases: { phase: 'phase1' | 'phase2'; runs: RunView[]; inputs: Extract<ReportInput, { $kind: 'PhaseRun' }>[] }[] = [];
  for (const i of inputs) {
    if (i.$kind === 'BenchmarkLocal') {
      benchmarks.push(benchmarkView(i.label, i.rows));
      continue;
    }
    let group = phases.find((p) => p.phase === i.phase);
    if (group === undefined) {
      group = { phase: i.phase, runs: [], inputs: [] };
      phases.push(group);
    }
    group.runs.push(runView(i));
    group.inputs.push(i);
  }
  phases.sort((a, b) => a.phase.localeCompare(b.phase));
  const body: string[] = [];
  const data: string[] = [];
  const nav: [string, string][] = [];
  const chartIds: string[] = [];
  let transcripts = 0;
  if (benchmarks.length > 0) {
    const charts = await benchmarkCharts(benchmarks);
    const part = benchmarkHtml(benchmarks, charts);
    body.push(part.html);
    data.push(part.data);
    nav.push(['benchmark-local', 'benchmark-local']);
    chartIds.push(...charts.map((c) => c.id));
  }
  for (const g of phases) {
    const charts = await runCharts(g.phase, g.runs);
    const part = runHtml(
      g.phase,
      g.runs,
      g.inputs.map((i) => i.results),
      charts,
    );
    body.push(part.html);
    data.push(part.data);
    nav.push([g.phase, g.phase === 'phase1' ? 'Phase I' : 'Phase II']);
    chartIds.push(...charts.map((c) => c.id));
    transcripts += g.inputs.reduce((s, i) => s + i.results.length, 0);
  }
  // What the tiers, statuses, stages, codes, categories and outcomes of the page mean.
  body.push(glossaryHtml(benchmarks, phases.length > 0));
  nav.push(['glossary', 'Glossary']);
  const damaged = inputs.flatMap((i) => i.damaged.map((d) => `${i.label}: ${d}`));
  const subtitle = [`Generated ${generated} from ${inputs.length} input${inputs.length === 1 ? '' : 's'}: ${inputs.map((i) => i.label).join(', ')}`];
  if (damaged.length > 0) subtitle.push(`Unreadable results (not in this report): ${damaged.join('; ')}`);
  const html = page({ title, subtitle, nav, body: body.join('\n'), data: data.join('\n') });
  const markdown = markdownReport({ title, generated, inputs: inputs.map((i) => i.label), benchmarks, phases });
  const packages = benchmarks.reduce((s, b) => s + b.packages.length, 0) + phases.reduce((s, g) => s + g.runs.reduce((t, r) => t + r.packages.length, 0), 0);
  return {
    html,
    markdown,
    charts: chartIds,
    summary: {
      benchmark_local: benchmarks.length,
      phase1: phases.find((p) => p.phase === 'phase1')?.runs.length ?? 0,
      phase2: phases.find((p) => p.phase === 'phase2')?.runs.length ?? 0,
      packages,
      transcripts,
    },
  };
}

/**
 * The charts of the benchmark-local inputs: the hit rates (headline first, then loose) of
 * every input side by side, the splits of the Tier B hits (kind, checks, provenance,
 * class), the failure taxonomy (stage, E-code, abort category), and per package its Tier B
 * hits by kind and its functions by loose tier.
 */
import { ABORT_CATEGORIES, ERROR_CODES, STAGE_CODES } from '@smi/inhabit';
import type { BenchmarkView } from './benchmark-view.js';
import { type Chart, type Datum, groupedBars, renderChart, stackedBars, stackedDimensions } from './charts.js';
import { KIND_COLORS, KIND_LABELS, type ReportKind, REPORT_KINDS, SPLITS, SUMMARY_KINDS } from './hit-kinds.js';
import { shortId } from './html.js';

/** The taxonomy dimensions, as charted. */
const TAXONOMY = ['failure stage', 'error code', 'abort category'] as const;

/** The rates charted, in order: the headline's, then the loose ones. */
const RATES = ['real structured', 'real', 'Tier B (loose)', 'Tier A (loose)'] as const;

/** Packages a per-package chart shows at most (the table lists all). */
const MAX_CHART_PACKAGES = 40;

/** The rates of each input (`RATES`, by `series`). */
export function rateData(views: readonly BenchmarkView[]): Datum[] {
  return views.flatMap((v) => {
    const s = v.summary;
    const rates = [s.headline.real_structured_rate, s.headline.real_rate, s.tier_b_rate, s.tier_a_rate];
    return RATES.map((rate, i) => ({ rate, series: v.label, value: rates[i] }));
  });
}

/** The kinds a per-package chart's legend lists: the summary's six, and the older rows' kinds when present. */
function chartKinds(v: BenchmarkView): ReportKind[] {
  return REPORT_KINDS.filter((k) => SUMMARY_KINDS.includes(k) || (v.kinds[k] ?? 0) > 0);
}

/** The packages a per-package chart shows: those with most Tier B hits (then functions), in the table's order. */
function chartPackages(v: BenchmarkView): BenchmarkView['packages'] {
  if (v.packages.length <= MAX_CHART_PACKAGES) return v.packages;
  const keep = new Set([...v.packages].sort((a, b) => b.tier_b_hits - a.tier_b_hits || b.functions - a.functions).slice(0, MAX_CHART_PACKAGES));
  return v.packages.filter((p) => keep.has(p));
}

/** The segments of the per-package bars: each package's Tier B hits of each kind (zeros included). */
export function kindBars(v: BenchmarkView): Datum[] {
  const kinds = chartKinds(v);
  return chartPackages(v).flatMap((p) => kinds.map((k) => ({ package: shortId(p.package_id), kind: KIND_LABELS[k], count: p.hits_by_kind[k] ?? 0 })));
}

function splitData(views: readonly BenchmarkView[]): Datum[] {
  return views.flatMap((v) => SPLITS.flatMap((d) => Object.entries(v.splits[d.name]).map(([value, count]) => ({ series: v.label, dimension: d.name, value, count }))));
}

function taxonomyData(views: readonly BenchmarkView[]): Datum[] {
  const out: Datum[] = [];
  for (const v of views) {
    const s = v.summary;
    const add = (dimension: string, counts: Record<string, number>) => {
      for (const [value, count] of Object.entries(counts)) out.push({ series: v.label, dimension, value, count });
    };
    add(TAXONOMY[0], s.by_stage);
    add(TAXONOMY[1], s.by_error_code);
    add(TAXONOMY[2], s.by_abort_category);
  }
  return out;
}

/** The charts of the benchmark-local inputs. */
export async function benchmarkCharts(views: readonly BenchmarkView[]): Promise<Chart[]> {
  const charts = [
    await renderChart(
      'bl-rates',
      'Hit rates: real (each function once) and loose (every row)',
      groupedBars(rateData(views), { x: 'rate', y: 'value', series: 'series', yTitle: 'share of functions', percent: true, width: 360, xOrder: RATES, seriesOrder: views.map((v) => v.label) }),
    ),
  ];
  const splits = splitData(views);
  if (splits.length > 0) {
    // Each split's legend lists the values some input has, in the split's order with its colours.
    const dims = SPLITS.map((d) => {
      const values = new Set(splits.filter((r) => r.dimension === d.name).map((r) => String(r.value)));
      const known: readonly string[] = d.values;
      const present = [
        ...d.values.map((value, i) => ({ value, color: d.colors[i] })).filter((x) => values.has(x.value)),
        ...[...values].filter((v) => !known.includes(v)).map((value) => ({ value, color: '#5b6577' })),
      ];
      return { name: `Tier B hits by ${d.name}`, values: present.map((x) => x.value), colors: present.map((x) => x.color) };
    });
    const data = splits.map((r) => ({ ...r, dimension: `Tier B hits by ${String(r.dimension)}` }));
    charts.push(await renderChart('bl-splits', 'Tier B hits split (loose: every hit)', stackedDimensions(data, dims, { xTitle: 'Tier B hits' })));
  }
  const taxonomy = taxonomyData(views);
  // Each dimension's values in the taxonomy's order (stages A1…B2, codes E101…, the categories' order), the ones the data has:
  // the legend lists them in the order they stack, left to right, and each keeps its colour from report to report.
  const canonical: Record<(typeof TAXONOMY)[number], readonly string[]> = { 'failure stage': Object.keys(STAGE_CODES), 'error code': Object.keys(ERROR_CODES), 'abort category': ABORT_CATEGORIES };
  const dims = TAXONOMY.filter((d) => taxonomy.some((r) => r.dimension === d)).map((name) => {
    const present = new Set(taxonomy.filter((r) => r.dimension === name).map((r) => String(r.value)));
    return { name, values: canonical[name].filter((v) => present.has(v)) };
  });
  if (dims.length > 0) charts.push(await renderChart('bl-taxonomy', 'Failure taxonomy', stackedDimensions(taxonomy, dims)));
  const first = views[0];
  const shown = chartPackages(first);
  const of = `${views.length > 1 ? ` — ${first.label}` : ''}${first.packages.length > shown.length ? ` (the ${shown.length} with most Tier B hits)` : ''}`;
  const kinds = chartKinds(first);
  charts.push(
    await renderChart(
      'bl-kinds',
      `Tier B hits by kind, per package (every hit, duplicates included)${of}`,
      stackedBars(kindBars(first), { y: 'package', part: 'kind', parts: kinds.map((k) => KIND_LABELS[k]), colors: kinds.map((k) => KIND_COLORS[k]), xTitle: 'Tier B hits', legendColumns: 3 }),
    ),
  );
  const parts = ['Tier B hit', 'Tier A only', 'miss'];
  const tiers: Datum[] = shown.flatMap((p) => [
    { package: shortId(p.package_id), part: parts[0], count: p.tier_b_hits },
    { package: shortId(p.package_id), part: parts[1], count: p.tier_a_hits - p.tier_b_hits },
    { package: shortId(p.package_id), part: parts[2], count: p.functions - p.tier_a_hits },
  ]);
  charts.push(
    await renderChart(
      'bl-packages',
      `Functions by package, loose tiers${of}`,
      stackedBars(tiers, { y: 'package', part: 'part', parts, colors: ['#1f8a4c', '#e0b44b', '#c9ced8'], xTitle: 'functions (every row)' }),
    ),
  );
  return charts;
}

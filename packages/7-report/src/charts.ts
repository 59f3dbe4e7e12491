/**
 * The report's charts: Vega-Lite specifications compiled and rendered to SVG in Node by
 * Vega itself (no browser, no network), so the HTML file carries finished pictures.
 */
import type { TopLevelSpec } from 'vega-lite';

/**
 * Vega and Vega-Lite, loaded when the first chart is drawn: together they take about half a
 * second to load, which every process importing this package (the `smi` CLI, for one error
 * class) paid before drawing anything.
 */
let renderers: Promise<[typeof import('vega'), typeof import('vega-lite')]> | null = null;

/** A chart of the report: its id (for the page), title and SVG. */
export interface Chart {
  id: string;
  title: string;
  svg: string;
}

/** Rows of a chart's data. */
export type Datum = Record<string, string | number | null>;

const CONFIG = {
  background: 'white',
  font: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  title: { fontSize: 14, anchor: 'start' as const },
  range: { category: { scheme: 'tableau10' } },
};

/** Render a Vega-Lite spec to SVG. */
export async function renderChart(id: string, title: string, spec: TopLevelSpec): Promise<Chart> {
  renderers ??= Promise.all([import('vega'), import('vega-lite')]);
  const [vega, { compile }] = await renderers;
  const vl = compile({ ...spec, config: { ...CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(vl), { renderer: 'none', logLevel: vega.Error });
  try {
    const svg = await view.toSVG();
    return { id, title, svg };
  } finally {
    view.finalize();
  }
}

/** Colours of runs, in their order: the same run has the same colour in every chart. */
export const SERIES_COLORS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#eeca3b', '#9d755d', '#ff9da6', '#bab0ac'] as const;

/** A colour scale that gives each of `series` its colour whatever data a chart has (none: Vega-Lite's own). */
function seriesScale(series: readonly string[] | undefined): { scale?: { domain: string[]; range: string[] } } {
  if (series === undefined || series.length === 0) return {};
  return { scale: { domain: [...series], range: series.map((_, i) => SERIES_COLORS[i % SERIES_COLORS.length]) } };
}

/** A grouped bar chart: `y` by `x` (groups in `xOrder` when given), one bar per `series` in each group. */
export function groupedBars(
  data: Datum[],
  o: { x: string; y: string; series: string; yTitle: string; percent?: boolean; width?: number; xOrder?: readonly string[]; seriesOrder?: readonly string[] },
): TopLevelSpec {
  return {
    data: { values: data },
    width: o.width ?? 360,
    height: 220,
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: o.x, type: 'nominal', title: null, axis: { labelAngle: 0 }, ...(o.xOrder ? { sort: [...o.xOrder] } : {}) },
      xOffset: { field: o.series, type: 'nominal' },
      y: { field: o.y, type: 'quantitative', title: o.yTitle, ...(o.percent ? { axis: { format: '.0%' }, scale: { domain: [0, 1] } } : {}) },
      color: { field: o.series, type: 'nominal', title: null, legend: { orient: 'bottom', direction: 'vertical' }, ...seriesScale(o.seriesOrder) },
    },
  };
}

/** A dimension of {@link stackedDimensions}: its values in a fixed order with fixed colours, or (without) by count with the default palette. */
export interface Dimension {
  name: string;
  values?: readonly string[];
  colors?: readonly string[];
}

/**
 * The order of the values of a stack: `values` (those given first, in their order), else by
 * total count, largest first (ties by name). The legend lists them in this order and the
 * bars stack in it, from the axis outwards (left to right).
 */
export function stackOrder(data: readonly Datum[], field: string, values?: readonly string[]): string[] {
  const totals = new Map<string, number>();
  for (const r of data) {
    const v = String(r[field]);
    totals.set(v, (totals.get(v) ?? 0) + (typeof r.count === 'number' ? r.count : 0));
  }
  const known = [...(values ?? [])];
  const rest = [...totals.keys()].filter((v) => !known.includes(v)).sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || a.localeCompare(b));
  return [...known, ...rest];
}

/**
 * Stacked horizontal bars, one chart per dimension stacked vertically, each with its own
 * colours and legend: `count` of each `value` of a `dimension`, one bar per `series`. The
 * legend lists the values in the order they stack, left to right ({@link stackOrder}).
 */
export function stackedDimensions(data: Datum[], dimensions: readonly Dimension[], o: { xTitle?: string } = {}): TopLevelSpec {
  return {
    vconcat: dimensions.map((d) => {
      const rows = data.filter((r) => r.dimension === d.name);
      const values = stackOrder(rows, 'value', d.values);
      return {
        title: d.name,
        data: { values: rows },
        width: 460,
        transform: [{ calculate: `indexof(${JSON.stringify(values)}, datum.value)`, as: 'value_order' }],
        mark: { type: 'bar', tooltip: true },
        encoding: {
          y: { field: 'series', type: 'nominal', title: null },
          x: { field: 'count', type: 'quantitative', title: o.xTitle ?? 'rows', stack: 'zero', axis: { tickMinStep: 1 } },
          color: {
            field: 'value',
            type: 'nominal',
            title: null,
            legend: { columns: 3, orient: 'right', direction: 'horizontal' },
            scale: { domain: values, ...(d.colors ? { range: [...d.colors] } : {}) },
          },
          order: { field: 'value_order', type: 'quantitative' },
        },
      };
    }),
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
  } as TopLevelSpec;
}

/** Horizontal stacked bars: one bar per `y`, parts by `part` (in the order given). */
export function stackedBars(
  data: Datum[],
  o: { y: string; part: string; parts: readonly string[]; colors?: readonly string[]; xTitle: string; height?: number; sortByPart?: string; legendColumns?: number },
): TopLevelSpec {
  return {
    data: { values: data },
    width: 460,
    ...(o.height !== undefined ? { height: o.height } : {}),
    transform: [{ calculate: `indexof(${JSON.stringify(o.parts)}, datum.${o.part})`, as: 'part_order' }],
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: o.y, type: 'nominal', title: null, sort: null },
      x: { field: 'count', type: 'quantitative', title: o.xTitle, stack: 'zero', axis: { tickMinStep: 1 } },
      color: {
        field: o.part,
        type: 'nominal',
        title: null,
        scale: { domain: [...o.parts], ...(o.colors ? { range: [...o.colors] } : {}) },
        legend: { orient: 'bottom', ...(o.legendColumns ? { columns: o.legendColumns } : {}) },
      },
      order: { field: 'part_order', type: 'quantitative' },
    },
  } as TopLevelSpec;
}

/** A bin of a histogram: [start, end) (the last one closed), with its count. */
export interface HistogramBin {
  start: number;
  end: number;
  count: number;
}

/**
 * Bins of equal width `step` over the whole range [min, max]: every bin is there, empty ones
 * with count 0. A value on an inner edge goes to the bin it starts; `max` to the last bin;
 * values outside the range to the nearest end bin.
 */
export function histogramBins(values: readonly number[], o: { min?: number; max?: number; step?: number } = {}): HistogramBin[] {
  const min = o.min ?? 0;
  const max = o.max ?? 1;
  const step = o.step ?? 0.1;
  const n = Math.max(1, Math.round((max - min) / step));
  const bins: HistogramBin[] = Array.from({ length: n }, (_, i) => ({ start: round(min + i * step), end: round(min + (i + 1) * step), count: 0 }));
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    // The epsilon keeps 0.3 (0.3 / 0.1 = 2.9999…) in the bin that starts at 0.3.
    const i = Math.min(n - 1, Math.max(0, Math.floor((v - min) / step + 1e-9)));
    bins[i].count++;
  }
  return bins;
}

const round = (x: number): number => Math.round(x * 1e9) / 1e9;

/**
 * A histogram of `value` in [0, 1] on a continuous axis: ten bins of width 0.1, every one
 * drawn (an empty bin is a bar of height 0) and its edges labelled; the bars of each `series`
 * side by side inside each bin, in `seriesOrder`.
 */
export function histogram(data: Datum[], o: { title: string; seriesOrder?: readonly string[] }): TopLevelSpec {
  // The series the data has, in `seriesOrder` (a run without values here takes no slot; colours still follow `seriesOrder`).
  const present = new Set(data.map((r) => String(r.series)));
  const series = [...(o.seriesOrder ?? []).filter((s) => present.has(s)), ...[...present].filter((s) => !(o.seriesOrder ?? []).includes(s)).sort()];
  const rows: Datum[] = [];
  series.forEach((name, si) => {
    const values = data.filter((r) => String(r.series) === name && typeof r.value === 'number').map((r) => r.value as number);
    for (const b of histogramBins(values)) {
      const width = (b.end - b.start) / series.length;
      // A small gap at each bin's edges keeps neighbouring bins apart.
      const pad = series.length === 1 ? width * 0.04 : 0;
      rows.push({ series: name, bin: `${b.start.toFixed(1)}–${b.end.toFixed(1)}`, x: b.start + si * width + pad, x2: b.start + (si + 1) * width - pad, count: b.count });
    }
  });
  const edges = histogramBins([]).flatMap((b, i) => (i === 0 ? [b.start, b.end] : [b.end]));
  return {
    data: { values: rows },
    width: 460,
    height: 200,
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: o.title, scale: { domain: [0, 1], nice: false, zero: false }, axis: { values: edges, format: '.1f', grid: false } },
      x2: { field: 'x2' },
      y: { field: 'count', type: 'quantitative', title: 'packages', axis: { tickMinStep: 1 } },
      y2: { datum: 0 },
      color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom', direction: 'vertical' }, ...seriesScale(o.seriesOrder) },
      tooltip: [
        { field: 'series', type: 'nominal' },
        { field: 'bin', type: 'nominal', title: o.title },
        { field: 'count', type: 'quantitative', title: 'packages' },
      ],
    },
  } as TopLevelSpec;
}

/** Box plots of `value` by `series` (latency, turns). */
export function boxPlots(data: Datum[], o: { xTitle: string; seriesOrder?: readonly string[] }): TopLevelSpec {
  return {
    data: { values: data },
    width: 460,
    mark: { type: 'boxplot', extent: 1.5 },
    encoding: {
      y: { field: 'series', type: 'nominal', title: null },
      x: { field: 'value', type: 'quantitative', title: o.xTitle, scale: { zero: true } },
      color: { field: 'series', type: 'nominal', legend: null, ...seriesScale(o.seriesOrder) },
    },
  } as TopLevelSpec;
}

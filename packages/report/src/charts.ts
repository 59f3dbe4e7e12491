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
export function groupedBars(data: Datum[], o: { x: string; y: string; series: string; yTitle: string; percent?: boolean; width?: number; xOrder?: readonly string[]; seriesOrder?: readonly string[] }): TopLevelSpec {
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
 * Stacked horizontal bars, one chart per dimension stacked vertically, each with its own
 * colours and legend: `count` of each `value` of a `dimension`, one bar per `series`.
 */
export function stackedDimensions(data: Datum[], dimensions: readonly Dimension[], o: { xTitle?: string } = {}): TopLevelSpec {
  return {
    vconcat: dimensions.map((d) => ({
      title: d.name,
      data: { values: data.filter((r) => r.dimension === d.name) },
      width: 460,
      ...(d.values ? { transform: [{ calculate: `indexof(${JSON.stringify(d.values)}, datum.value)`, as: 'value_order' }] } : {}),
      mark: { type: 'bar', tooltip: true },
      encoding: {
        y: { field: 'series', type: 'nominal', title: null },
        x: { field: 'count', type: 'quantitative', title: o.xTitle ?? 'rows', stack: 'zero', axis: { tickMinStep: 1 } },
        color: { field: 'value', type: 'nominal', title: null, legend: { columns: 3, orient: 'right', direction: 'horizontal' }, ...(d.values ? { scale: { domain: [...d.values], ...(d.colors ? { range: [...d.colors] } : {}) } } : {}) },
        order: d.values ? { field: 'value_order', type: 'quantitative' } : { field: 'count', type: 'quantitative', sort: 'descending' },
      },
    })),
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
  } as TopLevelSpec;
}

/** Horizontal stacked bars: one bar per `y`, parts by `part` (in the order given). */
export function stackedBars(data: Datum[], o: { y: string; part: string; parts: readonly string[]; colors?: readonly string[]; xTitle: string; height?: number; sortByPart?: string; legendColumns?: number }): TopLevelSpec {
  return {
    data: { values: data },
    width: 460,
    ...(o.height !== undefined ? { height: o.height } : {}),
    transform: [{ calculate: `indexof(${JSON.stringify(o.parts)}, datum.${o.part})`, as: 'part_order' }],
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: o.y, type: 'nominal', title: null, sort: null },
      x: { field: 'count', type: 'quantitative', title: o.xTitle, stack: 'zero', axis: { tickMinStep: 1 } },
      color: { field: o.part, type: 'nominal', title: null, scale: { domain: [...o.parts], ...(o.colors ? { range: [...o.colors] } : {}) }, legend: { orient: 'bottom', ...(o.legendColumns ? { columns: o.legendColumns } : {}) } },
      order: { field: 'part_order', type: 'quantitative' },
    },
  } as TopLevelSpec;
}

/** A histogram of `value` in [0, 1], bars of each `series` side by side. */
export function histogram(data: Datum[], o: { title: string; seriesOrder?: readonly string[] }): TopLevelSpec {
  return {
    data: { values: data },
    width: 460,
    height: 200,
    transform: [{ bin: { extent: [0, 1], step: 0.1 }, field: 'value', as: ['bin_start', 'bin_end'] }, { calculate: "format(datum.bin_start, '.1f') + '–' + format(datum.bin_end, '.1f')", as: 'bin' }],
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'bin', type: 'ordinal', title: o.title, axis: { labelAngle: 0 } },
      xOffset: { field: 'series', type: 'nominal' },
      y: { aggregate: 'count', type: 'quantitative', title: 'packages' },
      color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom', direction: 'vertical' }, ...seriesScale(o.seriesOrder) },
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

/**
 * The report's charts as read (issue 31, section 3): histograms on a continuous axis (bins of
 * equal width over the whole range, empty ones drawn with height 0, every edge labelled);
 * legends in the order the bars stack (checked on the rendered SVG: the legend's entries in
 * order, the segments of each bar from left to right); and a glossary with an entry for every
 * stage, E-code, abort category, row status and outcome a report can show.
 */
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '@smi/harness';
import { ABORT_CATEGORIES, type BenchmarkRow, ERROR_CODES, STAGE_CODES } from '@smi/inhabit';
import { benchmarkView, buildReport, inputFromText } from '@smi/report';
import { benchmarkCharts } from '../src/benchmark-charts.js';
import { type Datum, histogram, histogramBins, renderChart, stackedBars, stackedDimensions, stackOrder } from '../src/charts.js';
import { glossarySections, STATUSES } from '../src/glossary.js';
import { headlineRows } from './headline-rows.js';

const LEGEND = /aria-roledescription="legend" aria-label="Symbol legend for fill color with \d+ values?: ([^"]*)"/g;

/** Each legend of an SVG: its entries in order (Vega's own label of the legend). */
function legends(svg: string): string[][] {
  return [...svg.matchAll(LEGEND)].map((m) => m[1].split(', '));
}

/** The bars of a piece of SVG: their fields (from the aria-label) and top-left corner. */
function bars(svg: string): { fields: Record<string, string>; x: number; y: number }[] {
  return [...svg.matchAll(/<path aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="bar" d="M([-\d.e]+),([-\d.e]+)/g)].map((m) => ({
    fields: Object.fromEntries(m[1].split('; ').map((kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)])),
    x: Number(m[2]),
    y: Number(m[3]),
  }));
}

/**
 * Each legend of a chart with the bars it is the legend of (a view's marks come before its
 * legend), and those bars as rows (by their y), each from left to right: the values of its
 * segments (`field`), zero-width ones left out.
 */
function stacks(svg: string, field: string): { legend: string[]; rows: string[][] }[] {
  const found = [...svg.matchAll(LEGEND)];
  return found.map((m, i) => {
    const piece = svg.slice(i === 0 ? 0 : (found[i - 1].index ?? 0), m.index);
    const byY = new Map<number, { x: number; v: string }[]>();
    for (const b of bars(piece)) {
      const count = Number(Object.entries(b.fields).find(([k]) => !['series', 'value', 'value_order', 'part_order', 'package', 'run', field].includes(k))?.[1] ?? '0');
      if (!(count > 0)) continue;
      const at = byY.get(b.y) ?? [];
      at.push({ x: b.x, v: b.fields[field] });
      byY.set(b.y, at);
    }
    return { legend: m[1].split(', '), rows: [...byY.values()].map((r) => r.sort((a, b) => a.x - b.x).map((s) => s.v)) };
  });
}

/** `true` when `sub` appears in `order` in the same relative order. */
const inOrder = (sub: readonly string[], order: readonly string[]): boolean => sub.every((v, i) => i === 0 || order.indexOf(sub[i - 1]) < order.indexOf(v));

describe('histogram bins', () => {
  it('are of equal width over the whole range, empty ones included', () => {
    const bins = histogramBins([0, 0.05, 0.3, 0.95, 1]);
    expect(bins).toHaveLength(10);
    expect(bins.map((b) => b.start)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    expect(bins.map((b) => b.end)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    for (const b of bins) expect(b.end - b.start).toBeCloseTo(0.1, 12);
    // 0.3 in the bin it starts (0.3 / 0.1 is 2.999… in floating point); 1 in the last bin.
    expect(bins.map((b) => b.count)).toEqual([2, 0, 0, 1, 0, 0, 0, 0, 0, 2]);
    expect(histogramBins([]).every((b) => b.count === 0)).toBe(true);
    // Out of range: the nearest end bin; not a number: left out.
    expect(histogramBins([-0.2, 1.5, Number.NaN]).map((b) => b.count)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(histogramBins([2.5], { min: 0, max: 5, step: 1 }).map((b) => [b.start, b.count])).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 0],
      [4, 0],
    ]);
  });

  it('a histogram draws every bin on a continuous axis labelled at every edge', async () => {
    const data: Datum[] = [
      { series: 'run A', value: 0.15 },
      { series: 'run A', value: 0.92 },
      { series: 'run B', value: 1 },
    ];
    const spec = histogram(data, { title: 'F1', seriesOrder: ['run A', 'run B'] }) as unknown as { data: { values: Datum[] }; encoding: { x: { type: string; scale: { domain: number[] } } } };
    expect(spec.encoding.x.type).toBe('quantitative');
    expect(spec.encoding.x.scale.domain).toEqual([0, 1]);
    const rows = spec.data.values;
    expect(rows).toHaveLength(2 * 10);
    expect(rows.filter((r) => r.count === 0)).toHaveLength(20 - 3);
    // Run A's bar comes first inside each bin; the bars tile the bin.
    const bin = rows.filter((r) => r.bin === '0.1–0.2');
    expect(bin.map((r) => [r.series, r.count])).toEqual([
      ['run A', 1],
      ['run B', 0],
    ]);
    expect(Number(bin[0].x)).toBeCloseTo(0.1, 9);
    expect(Number(bin[1].x2)).toBeCloseTo(0.2, 9);
    const svg = (await renderChart('h', 'h', spec as never)).svg;
    expect(bars(svg)).toHaveLength(20);
    const labels = [...svg.matchAll(/<text[^>]*>(\d\.\d)<\/text>/g)].map((m) => m[1]);
    for (const edge of ['0.0', '0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1.0']) expect(labels).toContain(edge);
  });
});

describe('legends in stacking order', () => {
  it('a stack orders its values as given, then by total count', () => {
    const data: Datum[] = [
      { value: 'b', count: 1 },
      { value: 'c', count: 5 },
      { value: 'a', count: 3 },
      { value: 'c', count: 1 },
    ];
    expect(stackOrder(data, 'value')).toEqual(['c', 'a', 'b']);
    expect(stackOrder(data, 'value', ['b'])).toEqual(['b', 'c', 'a']);
  });

  it('every legend lists its values in the order the bars stack, left to right', async () => {
    // Counts whose order differs from the values' names and from their given order.
    const taxonomy: Datum[] = [
      { series: 'r1', dimension: 'stage', value: 'B2', count: 9 },
      { series: 'r1', dimension: 'stage', value: 'A1', count: 2 },
      { series: 'r1', dimension: 'stage', value: 'A3', count: 5 },
      { series: 'r2', dimension: 'stage', value: 'A1', count: 7 },
      { series: 'r2', dimension: 'stage', value: 'B1', count: 1 },
      // No order given: by count, largest first (the legend too, not by name).
      { series: 'r1', dimension: 'code', value: 'E403', count: 8 },
      { series: 'r1', dimension: 'code', value: 'E101', count: 4 },
    ];
    const dims = stackedDimensions(taxonomy, [{ name: 'stage', values: ['A1', 'A3', 'B1', 'B2'] }, { name: 'code' }]);
    const svg = (await renderChart('t', 't', dims)).svg;
    const [stage, code] = legends(svg);
    expect(stage).toEqual(['A1', 'A3', 'B1', 'B2']);
    expect(code).toEqual(['E403', 'E101']);
    const found = stacks(svg, 'value');
    expect(found.map((f) => f.rows.length)).toEqual([2, 1]);
    for (const f of found) for (const r of f.rows) expect(inOrder(r, f.legend) && r.every((v) => f.legend.includes(v)), r.join(' ')).toBe(true);
    expect(found[0].rows).toContainEqual(['A1', 'A3', 'B2']);

    const parts = ['hit', 'partial', 'miss'];
    const stacked = stackedBars(
      [
        { package: 'p', part: 'miss', count: 5 },
        { package: 'p', part: 'hit', count: 1 },
        { package: 'p', part: 'partial', count: 3 },
        { package: 'q', part: 'partial', count: 2 },
        { package: 'q', part: 'miss', count: 1 },
      ],
      { y: 'package', part: 'part', parts, xTitle: 'functions' },
    );
    const svg2 = (await renderChart('s', 's', stacked)).svg;
    expect(legends(svg2)).toEqual([parts]);
    const rows2 = stacks(svg2, 'part')[0].rows;
    expect(rows2).toEqual(
      expect.arrayContaining([
        ['hit', 'partial', 'miss'],
        ['partial', 'miss'],
      ]),
    );
  });

  it('the benchmark-local charts: legends in stacking order, the taxonomy in the taxonomy’s order', async () => {
    const rows: BenchmarkRow[] = [
      ...headlineRows(),
      // Failures whose counts are not in the taxonomy's order.
      ...[1, 2, 3].map((i) => ({
        target_package: '0x' + 'c3'.repeat(32),
        target_module: 'm',
        target_function: `b${i}`,
        status: 'tier_a_hit' as const,
        failure_stage: 'B2' as const,
        error_code: 'E403' as const,
        abort: { category: 'object_error' as const },
      })),
      { target_package: '0x' + 'c3'.repeat(32), target_module: 'm', target_function: 'a', status: 'miss' as const, failure_stage: 'A1' as const, error_code: 'E101' as const },
    ] as BenchmarkRow[];
    const charts = await benchmarkCharts([benchmarkView('rows.jsonl', rows)]);
    const taxonomy = charts.find((c) => c.id === 'bl-taxonomy');
    expect(taxonomy).toBeDefined();
    const [stage, code] = legends(taxonomy?.svg ?? '');
    expect(stage).toEqual(Object.keys(STAGE_CODES).filter((s) => stage.includes(s)));
    expect(code).toEqual(Object.keys(ERROR_CODES).filter((c) => code.includes(c)));
    expect(stage.slice(0, 1)).toEqual(['A1']);
    for (const c of charts.filter((x) => ['bl-taxonomy', 'bl-splits', 'bl-kinds', 'bl-packages'].includes(x.id))) {
      const field = c.id === 'bl-kinds' ? 'kind' : c.id === 'bl-packages' ? 'part' : 'value';
      const found = stacks(c.svg, field);
      expect(found.length, c.id).toBeGreaterThan(0);
      for (const f of found) for (const r of f.rows) expect(inOrder(r, f.legend) && r.every((v) => f.legend.includes(v)), `${c.id}: ${r.join(' ')} vs ${f.legend.join(' ')}`).toBe(true);
    }
  });
});

describe('the glossary', () => {
  it('has an entry for every stage, code, category, status and outcome a report can show', () => {
    const v = benchmarkView('rows.jsonl', [
      ...headlineRows(),
      { target_package: '0x' + 'd4'.repeat(32), target_module: '', target_function: '', status: 'miss', failure_stage: 'A1', error_code: 'BAD_MAGIC' } as BenchmarkRow,
    ]);
    const sections = glossarySections([v], true);
    const terms = new Set(sections.flatMap((s) => s.entries.map((e) => e.term)));
    const every = [...Object.keys(STAGE_CODES), ...Object.keys(ERROR_CODES), ...ABORT_CATEGORIES, ...Object.keys(STATUSES), ...OUTCOMES, 'Tier A', 'Tier B', 'BAD_MAGIC'];
    for (const t of every) expect(terms.has(t), t).toBe(true);
    for (const s of sections) for (const e of s.entries) expect(e.meaning.length, e.term).toBeGreaterThan(10);
    // Every code the data has is there.
    for (const code of Object.keys(v.summary.by_error_code)) expect(terms.has(code), code).toBe(true);
    for (const stage of Object.keys(v.summary.by_stage)) expect(terms.has(stage), stage).toBe(true);
    // Counts are the data's.
    const codes = sections.find((s) => s.title === 'Error codes')?.entries ?? [];
    expect(codes.find((e) => e.term === 'BAD_MAGIC')?.count).toBe(1);
  });

  it('is on the page, after the sections it explains, and in the navigation', async () => {
    const text = headlineRows()
      .map((r) => JSON.stringify(r))
      .join('\n');
    const report = await buildReport([inputFromText('rows.jsonl', text)], { generatedAt: new Date('2026-11-27T00:00:00Z') });
    expect(report.html).toContain('<section class="block" id="glossary"><h2>Glossary</h2>');
    expect(report.html).toContain('<a href="#glossary">Glossary</a>');
    expect(report.html.indexOf('id="glossary"')).toBeGreaterThan(report.html.indexOf('id="benchmark-local"'));
    for (const t of ['Tier A', 'Tier B', 'A1', 'B2', 'E101', 'E403', 'assertion_failed']) expect(report.html).toContain(`data-term="${t}"`);
  });
});

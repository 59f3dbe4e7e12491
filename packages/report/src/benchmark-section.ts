/**
 * The benchmark-local part of a report: Tier A/B hit rates, the failure taxonomy as
 * stacked bars (stage, E-code, abort category, provenance of the hits), hits by package,
 * and per input a table of packages sortable by hit rate whose rows open the package's
 * functions (each with its transactions and error).
 */
import type { BenchmarkView } from './benchmark-view.js';
import { type Chart, type Datum, groupedBars, renderChart, stackedBars, stackedDimensions } from './charts.js';
import { cards, esc, figure, int, jsonBlock, pct, shortId, table } from './html.js';

/** The taxonomy dimensions, as charted. */
export const TAXONOMY = ['failure stage', 'error code', 'abort category', 'provenance of Tier B hits'] as const;

/** Packages a "hits by package" chart shows at most (the table lists all). */
export const MAX_CHART_PACKAGES = 40;

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
    add(TAXONOMY[3], s.hits_by_provenance);
  }
  return out;
}


/** The charts of the benchmark-local inputs. */
export async function benchmarkCharts(views: readonly BenchmarkView[]): Promise<Chart[]> {
  const tiers: Datum[] = views.flatMap((v) => [
    { tier: 'Tier A', series: v.label, rate: v.summary.tier_a_rate },
    { tier: 'Tier B', series: v.label, rate: v.summary.tier_b_rate },
  ]);
  const charts = [await renderChart('bl-tiers', 'Tier A and Tier B hit rates', groupedBars(tiers, { x: 'tier', y: 'rate', series: 'series', yTitle: 'share of functions', percent: true, width: 260 }))];
  const taxonomy = taxonomyData(views);
  const dims = TAXONOMY.filter((d) => taxonomy.some((r) => r.dimension === d));
  if (dims.length > 0) charts.push(await renderChart('bl-taxonomy', 'Failure taxonomy', stackedDimensions(taxonomy, dims)));
  const first = views[0];
  const top = [...first.packages].sort((a, b) => b.functions - a.functions).slice(0, MAX_CHART_PACKAGES);
  const parts = ['Tier B hit', 'Tier A only', 'miss'];
  const data: Datum[] = top.flatMap((p) => [
    { package: shortId(p.package_id), part: parts[0], count: p.tier_b_hits },
    { package: shortId(p.package_id), part: parts[1], count: p.tier_a_hits - p.tier_b_hits },
    { package: shortId(p.package_id), part: parts[2], count: p.functions - p.tier_a_hits },
  ]);
  const more = first.packages.length > top.length ? ` (the ${top.length} with most functions)` : '';
  charts.push(await renderChart('bl-packages', `Functions by package${views.length > 1 ? ` — ${first.label}` : ''}${more}`, stackedBars(data, { y: 'package', part: 'part', parts, colors: ['#1f8a4c', '#e0b44b', '#c9ced8'], xTitle: 'functions' })));
  return charts;
}

/** The HTML of the benchmark-local inputs (charts given) and their drill-down data. */
export function benchmarkHtml(views: readonly BenchmarkView[], charts: readonly Chart[]): { html: string; data: string } {
  const blocks: string[] = [];
  const data: string[] = [];
  blocks.push(`<section class="block" id="benchmark-local"><h2>benchmark-local: type inhabitation</h2>`);
  for (const v of views) {
    const s = v.summary;
    const prov = Object.entries(s.hits_by_provenance)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    blocks.push(`<h3>${esc(v.label)}</h3>`);
    blocks.push(cards([['functions', int(s.rows)], ['packages', int(v.packages.length)], ['Tier A hit rate', pct(s.tier_a_rate)], ['Tier B hit rate', pct(s.tier_b_rate)], ['Tier B hits by provenance', prov || '—']]));
  }
  blocks.push(`<div class="charts">${charts.map(figure).join('')}</div>`);
  views.forEach((v, vi) => {
    const rows = v.packages.map((p, pi) => {
      const id = `bl-${vi}-p-${pi}`;
      data.push(jsonBlock(id, v.rows.get(p.package_id) ?? []));
      return {
        detail: id,
        package: p.package_id,
        cells: [
          { text: shortId(p.package_id), value: p.package_id, cls: 'mono', title: p.package_id },
          { text: int(p.functions), value: p.functions, num: true },
          { text: int(p.tier_a_hits), value: p.tier_a_hits, num: true },
          { text: pct(p.tier_a_rate), value: p.tier_a_rate, num: true },
          { text: int(p.tier_b_hits), value: p.tier_b_hits, num: true },
          { text: pct(p.tier_b_rate), value: p.tier_b_rate, num: true },
          { text: p.top_failure ?? '—' },
        ],
      };
    });
    blocks.push(`<h3>Packages — ${esc(v.label)}</h3><p class="note">Click a column to sort; click a package to see its functions, each with its transactions and error.</p>`);
    blocks.push(
      table(
        `bl-table-${vi}`,
        [{ title: 'package' }, { title: 'functions', num: true }, { title: 'Tier A hits', num: true }, { title: 'Tier A rate', num: true }, { title: 'Tier B hits', num: true }, { title: 'Tier B rate', num: true }, { title: 'most frequent failure stage' }],
        rows,
      ),
    );
  });
  blocks.push('</section>');
  return { html: blocks.join('\n'), data: data.join('\n') };
}

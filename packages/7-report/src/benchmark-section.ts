/**
 * The benchmark-local part of a report: per input the headline (real hit rate and real
 * structured hit rate, each function counted once), then the loose Tier A/B rates, then
 * the splits of the Tier B hits (kind, checks, provenance, class); the inputs side by side
 * when there are several; the charts; and per input a table of packages sorted by real
 * structured rate whose rows open the package's functions (each with its transactions).
 */
import type { BenchmarkPackage, BenchmarkView } from './benchmark-view.js';
import type { Chart } from './charts.js';
import { SPLITS } from './hit-kinds.js';
import { type Cell, cards, esc, figure, int, jsonBlock, pct, shortId, table } from './html.js';

/** What a real hit is, in one line (the report and report.md both say it). */
export const REAL_HIT_DEFINITION =
  'A real hit is a Tier B hit that ran with Sui’s strict checks, on inputs not synthesized, without permissive crypto; each function is counted once per original package (an older version’s row for a function a newer version has, duplicate_of, is left out).';

const share = (n: number, d: number): string => pct(d === 0 ? 0 : n / d);

/** A rate, marked `≥` when it is a lower bound (older rows the headline could not classify). */
export function boundRate(rate: number | null, lowerBound: boolean): string {
  return lowerBound && rate !== null ? `≥ ${pct(rate)}` : pct(rate);
}

/** Which of a package's real rates are lower bounds (some of its hits do not record checks or class). */
export function packageBounds(p: BenchmarkPackage): { real: boolean; structured: boolean } {
  const unchecked = (p.hits_by_kind.unknown_checks ?? 0) > 0;
  return { real: unchecked, structured: unchecked || (p.hits_by_kind.real_unclassified ?? 0) > 0 };
}

/** A split as text: `value n (share) · …`, in the split's order. */
function splitText(counts: Record<string, number>, order: readonly string[], total: number): string {
  const keys = [...order.filter((k) => counts[k] !== undefined), ...Object.keys(counts).filter((k) => !order.includes(k))];
  return keys.map((k) => `${k} ${int(counts[k])} (${share(counts[k], total)})`).join(' · ') || '—';
}

function headlineCards(v: BenchmarkView): string {
  const h = v.summary.headline;
  const s = v.summary;
  const out = [
    cards(
      [
        ['real hit rate', boundRate(h.real_rate, v.gaps.real_lower_bound), `${int(h.real_hits)} of ${int(h.functions_dedup)} functions counted once`],
        ['real structured hit rate', boundRate(h.real_structured_rate, v.gaps.real_structured_lower_bound), `${int(h.real_structured_hits)} of ${int(h.functions_dedup)} functions counted once`],
        ['functions counted once', int(h.functions_dedup), `of ${int(s.rows)} rows; ${int(s.rows - h.functions_dedup)} duplicates left out`],
      ],
      'headline',
    ),
  ];
  for (const c of v.gaps.caveats) out.push(`<p class="caveat">Not classified: ${esc(c)}</p>`);
  return out.join('\n');
}

function looseCards(v: BenchmarkView): string {
  const s = v.summary;
  return cards(
    [
      ['Tier A hit rate (loose)', pct(s.tier_a_rate), `${int(s.tier_a_hits)} of ${int(s.rows)} rows`],
      ['Tier B hit rate (loose)', pct(s.tier_b_rate), `${int(s.tier_b_hits)} of ${int(s.rows)} rows`],
      ['rows (functions, duplicates included)', int(s.rows)],
      ['packages', int(v.packages.length)],
    ],
    'loose',
  );
}

function splitsTable(v: BenchmarkView): string {
  const total = v.summary.tier_b_hits;
  const rows = SPLITS.map((d) => `<tr><th>by ${esc(d.name)}</th><td>${esc(splitText(v.splits[d.name], d.values, total))}</td></tr>`);
  return `<table class="splits">${rows.join('')}</table>`;
}

const rateCell = (r: number | null, lowerBound = false): Cell => ({ text: boundRate(r, lowerBound), value: r ?? -1, num: true });
const intCell = (n: number): Cell => ({ text: int(n), value: n, num: true });

/** The inputs side by side: the headline rates first, then the loose ones. */
function inputsTable(views: readonly BenchmarkView[]): string {
  const rows = views.map((v) => {
    const h = v.summary.headline;
    const s = v.summary;
    return {
      cells: [
        { text: v.label },
        intCell(h.functions_dedup),
        intCell(h.real_structured_hits),
        rateCell(h.real_structured_rate, v.gaps.real_structured_lower_bound),
        intCell(h.real_hits),
        rateCell(h.real_rate, v.gaps.real_lower_bound),
        intCell(s.rows),
        rateCell(s.tier_a_rate),
        rateCell(s.tier_b_rate),
      ],
    };
  });
  const columns = ['input', 'functions counted once', 'real structured hits', 'real structured rate', 'real hits', 'real rate', 'rows', 'Tier A rate (loose)', 'Tier B rate (loose)'];
  return table(
    'bl-inputs',
    columns.map((title, i) => ({ title, num: i > 0 })),
    rows,
  );
}

/** The columns of a package table (the browser test finds them by title). */
export const PACKAGE_COLUMNS = [
  'package',
  'functions',
  'counted once',
  'real structured hits',
  'real structured rate',
  'real hits',
  'real rate',
  'Tier A hits (loose)',
  'Tier A rate (loose)',
  'Tier B hits (loose)',
  'Tier B rate (loose)',
  'most frequent failure stage',
] as const;

function packageCells(p: BenchmarkPackage): Cell[] {
  const bounds = packageBounds(p);
  return [
    { text: shortId(p.package_id), value: p.package_id, cls: 'mono', title: p.package_id },
    intCell(p.functions),
    intCell(p.functions_dedup),
    intCell(p.real_structured_hits),
    rateCell(p.real_structured_rate, bounds.structured),
    intCell(p.real_hits),
    rateCell(p.real_rate, bounds.real),
    intCell(p.tier_a_hits),
    rateCell(p.tier_a_rate),
    intCell(p.tier_b_hits),
    rateCell(p.tier_b_rate),
    { text: p.top_failure ?? '—' },
  ];
}

/** The HTML of the benchmark-local inputs (charts given) and their drill-down data. */
export function benchmarkHtml(views: readonly BenchmarkView[], charts: readonly Chart[]): { html: string; data: string } {
  const blocks: string[] = [];
  const data: string[] = [];
  blocks.push(`<section class="block" id="benchmark-local"><h2>benchmark-local: type inhabitation</h2>`);
  blocks.push(`<p class="definition">${esc(REAL_HIT_DEFINITION)} Loose figures count every Tier B hit over every row.</p>`);
  if (views.length > 1) blocks.push(`<h3>Inputs side by side</h3>`, inputsTable(views));
  for (const v of views) {
    blocks.push(`<h3>${esc(v.label)}</h3>`);
    blocks.push(`<h4>Headline: real hits, each function once</h4>`, headlineCards(v));
    blocks.push(`<h4>Loose: every row, every Tier B hit</h4>`, looseCards(v));
    blocks.push(`<h4>Tier B hits split (${int(v.summary.tier_b_hits)} loose hits)</h4>`, splitsTable(v));
  }
  blocks.push(`<div class="charts">${charts.map(figure).join('')}</div>`);
  views.forEach((v, vi) => {
    const rows = v.packages.map((p, pi) => {
      const id = `bl-${vi}-p-${pi}`;
      data.push(jsonBlock(id, v.rows.get(p.package_id) ?? []));
      return { detail: id, package: p.package_id, cells: packageCells(p) };
    });
    blocks.push(
      `<h3>Packages — ${esc(v.label)}</h3><p class="note">Sorted by real structured rate, then real rate (over the functions counted once; — when every row of a package is a duplicate). Click a column to sort; click a package to see its functions, each with its hit class, checks, provenance, duplicate_of, transactions and error.</p>`,
    );
    blocks.push(
      table(
        `bl-table-${vi}`,
        PACKAGE_COLUMNS.map((title, i) => ({ title, num: i > 0 && i < PACKAGE_COLUMNS.length - 1 })),
        rows,
      ),
    );
  });
  blocks.push('</section>');
  return { html: blocks.join('\n'), data: data.join('\n') };
}

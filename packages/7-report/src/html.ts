/** Small HTML helpers: escaping, inert JSON blocks, tables, cards and the page frame. */
import { PAGE_CSS, PAGE_SCRIPT } from './page-assets.js';

/** Escape text for HTML. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A JSON block the page parses only when asked (`</script>` cannot close it early). */
export function jsonBlock(id: string, value: unknown): string {
  const text = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${esc(id)}">${text}</script>`;
}

/** A table cell: text shown, with an optional sort value and class. */
export interface Cell {
  text: string;
  /** What sorting uses (a number sorts numerically). */
  value?: number | string;
  num?: boolean;
  cls?: string;
  title?: string;
}

/** A column header. */
export interface Column {
  title: string;
  num?: boolean;
}

/** A table row with its cells, and the JSON block its click opens. */
export interface Row {
  cells: Cell[];
  detail?: string;
  package?: string;
}

/** A sortable table. */
export function table(id: string, columns: readonly Column[], rows: readonly Row[]): string {
  const head = columns.map((c) => `<th${c.num ? ' class="num"' : ''}>${esc(c.title)}</th>`).join('');
  const body = rows
    .map((r) => {
      const attrs = `${r.detail ? ` data-detail="${esc(r.detail)}"` : ''}${r.package ? ` data-package="${esc(r.package)}"` : ''}`;
      const cells = r.cells
        .map((c) => {
          const cls = [c.num ? 'num' : '', c.cls ?? ''].filter((s) => s !== '').join(' ');
          const value = c.value !== undefined ? ` data-value="${esc(String(c.value))}"` : '';
          const title = c.title ? ` title="${esc(c.title)}"` : '';
          return `<td${cls ? ` class="${cls}"` : ''}${value}${title}>${esc(c.text)}</td>`;
        })
        .join('');
      return `<tr${attrs}>${cells}</tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table class="data" id="${esc(id)}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** Key figures as cards: label, value and an optional detail line; `cls` marks a group (`headline`, `loose`). */
export function cards(items: readonly (readonly [string, string, string?])[], cls?: string): string {
  const card = (i: (typeof items)[number]): string => `<div class="card"><b>${esc(i[1])}</b><span>${esc(i[0])}</span>${i[2] !== undefined ? `<small>${esc(i[2])}</small>` : ''}</div>`;
  return `<div class="cards${cls ? ` ${esc(cls)}` : ''}">${items.map(card).join('')}</div>`;
}

/** A rendered chart in a figure. */
export function figure(chart: { id: string; title: string; svg: string }): string {
  return `<figure class="chart" id="${esc(chart.id)}"><figcaption>${esc(chart.title)}</figcaption>${chart.svg}</figure>`;
}

/** The whole page. */
export function page(o: { title: string; subtitle: string[]; nav: [string, string][]; body: string; data: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header><h1>${esc(o.title)}</h1>${o.subtitle.map((s) => `<p>${esc(s)}</p>`).join('')}</header>
<nav>${o.nav.map(([href, text]) => `<a href="#${esc(href)}">${esc(text)}</a>`).join('')}</nav>
<main>
${o.body}
</main>
<aside id="drawer" aria-hidden="true"><header><h2></h2><button class="close" type="button">Close (Esc)</button></header><div class="body"></div></aside>
${o.data}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** A number as a percentage. */
export function pct(x: number | null): string {
  return x === null ? '—' : `${(100 * x).toFixed(1)}%`;
}

/** A number with thousands separators. */
export function int(n: number): string {
  return n.toLocaleString('en-US');
}

/** Dollars, or "—" when unknown. */
export function usd(x: number | null): string {
  return x === null ? '—' : `$${x.toFixed(x < 1 ? 4 : 2)}`;
}

/** A package id as tables show it: `0x2` for framework ids, `0x1eabed72…89b2fb` for others. */
export function shortId(id: string): string {
  const m = /^0x0*([0-9a-f]{1,4})$/i.exec(id);
  if (m) return `0x${m[1]}`;
  return id.length > 22 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
}

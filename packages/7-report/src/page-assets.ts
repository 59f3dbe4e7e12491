/**
 * The report page's style and its small script: sortable tables (click a header; again to
 * reverse), a drawer that shows a package's rows or transcript, parsed from an inert JSON
 * block only when asked for (so a 1,000-package report opens at once), and Escape to close.
 */

export const PAGE_CSS = `
:root { --fg:#1d2433; --muted:#5b6577; --line:#e3e7ee; --bg:#f7f8fa; --accent:#2f6fde; --ok:#1f8a4c; --bad:#c4372c; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg); background:var(--bg); }
header { padding:20px 28px 12px; background:#fff; border-bottom:1px solid var(--line); }
header h1 { margin:0 0 4px; font-size:22px; }
header p { margin:2px 0; color:var(--muted); }
nav { padding:8px 28px; background:#fff; border-bottom:1px solid var(--line); position:sticky; top:0; z-index:5; }
nav a { margin-right:16px; color:var(--accent); text-decoration:none; }
main { padding:12px 28px 60px; }
section.block { background:#fff; border:1px solid var(--line); border-radius:8px; padding:16px 20px; margin:16px 0; }
h2 { margin:0 0 12px; font-size:18px; } h3 { margin:18px 0 8px; font-size:15px; }
.cards { display:flex; flex-wrap:wrap; gap:10px; margin-bottom:12px; }
.card { border:1px solid var(--line); border-radius:6px; padding:8px 12px; min-width:120px; }
.card b { display:block; font-size:18px; } .card span { color:var(--muted); font-size:12px; }
.card small { display:block; color:var(--muted); font-size:11px; margin-top:2px; }
.cards.headline .card { border-color:#9fd3b4; background:#f1faf4; min-width:200px; }
.cards.headline .card b { font-size:26px; color:var(--ok); }
.cards.loose .card b { font-size:16px; }
h4 { margin:14px 0 6px; font-size:13px; color:var(--muted); text-transform:uppercase; letter-spacing:.03em; }
p.definition { margin:0 0 10px; max-width:980px; }
p.caveat { margin:4px 0 8px; padding:6px 10px; border-left:3px solid #e0b44b; background:#fdf8ea; max-width:980px; font-size:13px; }
table.splits { border-collapse:collapse; font-size:13px; margin-bottom:8px; }
table.splits th { text-align:left; font-weight:600; padding:3px 12px 3px 0; white-space:nowrap; vertical-align:top; }
table.splits td { padding:3px 0; }
.charts { display:flex; flex-wrap:wrap; gap:18px; align-items:flex-start; }
figure.chart { margin:0; } figure.chart figcaption { font-weight:600; margin-bottom:4px; }
figure.chart svg { max-width:100%; height:auto; }
.note { color:var(--muted); font-size:12px; }
table.glossary { border-collapse:collapse; font-size:13px; margin-bottom:8px; width:100%; max-width:1100px; }
table.glossary th, table.glossary td { text-align:left; padding:4px 10px 4px 0; border-bottom:1px solid var(--line); vertical-align:top; }
table.glossary tbody th { white-space:nowrap; font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:12px; }
table.glossary td.num, table.glossary th.num { text-align:right; font-variant-numeric:tabular-nums; }
table.glossary tr.absent { color:var(--muted); opacity:.7; }
table.data { border-collapse:collapse; width:100%; font-size:13px; }
table.data th, table.data td { padding:5px 8px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
table.data td.err { max-width:420px; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
table.data td.num, table.data th.num { text-align:right; font-variant-numeric:tabular-nums; }
table.data th { position:sticky; top:0; background:#fff; cursor:pointer; user-select:none; }
table.data td.mono { white-space:nowrap; }
table.data th[aria-sort=ascending]::after { content:" ▲"; font-size:10px; } table.data th[aria-sort=descending]::after { content:" ▼"; font-size:10px; }
table.data tbody tr.clickable { cursor:pointer; } table.data tbody tr.clickable:hover { background:#eef3fd; }
table.data tbody tr.selected { background:#e0eafc; }
.mono { font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:12px; }
.outcome-correct, .status-tier_b_hit { color:var(--ok); font-weight:600; } .status-tier_a_hit { color:#8a6d1f; font-weight:600; }
.outcome-infra_error, .outcome-model_error, .outcome-limit, .outcome-unparseable { color:var(--bad); }
.scroll { max-height:520px; overflow:auto; border:1px solid var(--line); border-radius:6px; }
aside#drawer { position:fixed; top:0; right:0; width:min(760px, 96vw); height:100vh; background:#fff; border-left:1px solid var(--line); box-shadow:-6px 0 18px rgba(0,0,0,.08); transform:translateX(105%); transition:transform .15s; z-index:10; display:flex; flex-direction:column; }
aside#drawer.open { transform:none; }
aside#drawer header { display:flex; justify-content:space-between; align-items:center; padding:12px 16px; }
aside#drawer header h2 { margin:0; font-size:16px; word-break:break-all; }
aside#drawer .body { overflow:auto; padding:8px 16px 40px; flex:1; }
aside#drawer button.close { border:1px solid var(--line); background:#fff; border-radius:4px; padding:4px 10px; cursor:pointer; }
details.step { border:1px solid var(--line); border-radius:6px; margin:8px 0; }
details.step summary { padding:6px 10px; cursor:pointer; font-weight:600; }
details.step pre { margin:0; padding:8px 10px; background:#f6f8fb; white-space:pre-wrap; word-break:break-word; font-size:12px; max-height:420px; overflow:auto; }
details.step.kind-error summary, details.step.kind-failed summary { color:var(--bad); }
`;

export const PAGE_SCRIPT = `
(function () {
  'use strict';
  function cellValue(td) {
    var v = td.getAttribute('data-value');
    if (v === null) v = td.textContent || '';
    var n = Number(v);
    return v !== '' && !isNaN(n) ? n : v.toLowerCase();
  }
  function sortBy(th) {
    var table = th.closest('table');
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var dir = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
    table.querySelectorAll('th[aria-sort]').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a.cells[index]), y = cellValue(b.cells[index]);
      var c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return dir === 'ascending' ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll('table.data th').forEach(function (th) {
    th.addEventListener('click', function () { sortBy(th); });
  });
  var drawer = document.getElementById('drawer');
  var drawerTitle = drawer.querySelector('h2');
  var drawerBody = drawer.querySelector('.body');
  var cache = {};
  function data(id) {
    if (!(id in cache)) {
      var el = document.getElementById(id);
      cache[id] = el ? JSON.parse(el.textContent) : null;
    }
    return cache[id];
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function step(kind, title, text, open) {
    var d = el('details', { class: 'step kind-' + kind });
    if (open) d.open = true;
    d.appendChild(el('summary', {}, title));
    d.appendChild(el('pre', {}, text));
    return d;
  }
  function showTranscript(t) {
    drawerTitle.textContent = t.package_id + ' · ' + t.outcome;
    drawerBody.textContent = '';
    if (t.error) drawerBody.appendChild(el('p', { class: 'note' }, 'error: ' + t.error));
    t.steps.forEach(function (s, i) { drawerBody.appendChild(step(s.kind, s.title, s.text, i < 2 || s.kind === 'error')); });
  }
  function shortId(id) { return id.length > 22 ? id.slice(0, 10) + '…' + id.slice(-6) : id; }
  function showRows(pkg, rows) {
    drawerTitle.textContent = pkg + ' · ' + rows.length + ' functions';
    drawerBody.textContent = '';
    rows.forEach(function (r) {
      var checks = r.tier_b_details && r.tier_b_details.checks;
      var what = [r.status, r.failure_stage, r.error_code, r.abort ? 'abort ' + r.abort.category : null,
        r.hit_class ? 'class ' + r.hit_class : null, checks ? 'checks ' + checks : null,
        r.provenance ? 'provenance ' + r.provenance : null, r.permissive_crypto ? 'permissive crypto' : null,
        r.duplicate_of ? 'duplicate of ' + shortId(r.duplicate_of) : null].filter(Boolean).join(' · ');
      var d = step(r.status, r.target_module + '::' + r.target_function + ' — ' + what, JSON.stringify(r, null, 2), false);
      d.setAttribute('data-function', r.target_module + '::' + r.target_function);
      drawerBody.appendChild(d);
    });
  }
  function open(tr) {
    var id = tr.getAttribute('data-detail');
    var d = data(id);
    if (d === null) return;
    document.querySelectorAll('tr.selected').forEach(function (r) { r.classList.remove('selected'); });
    tr.classList.add('selected');
    if (Array.isArray(d)) showRows(tr.getAttribute('data-package'), d); else showTranscript(d);
    drawer.classList.add('open');
    drawer.setAttribute('aria-hidden', 'false');
  }
  document.querySelectorAll('tr[data-detail]').forEach(function (tr) {
    tr.classList.add('clickable');
    tr.addEventListener('click', function () { open(tr); });
  });
  function close() { drawer.classList.remove('open'); drawer.setAttribute('aria-hidden', 'true'); }
  drawer.querySelector('button.close').addEventListener('click', close);
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') close(); });
})();
`;

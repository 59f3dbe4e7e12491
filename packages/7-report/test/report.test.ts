/**
 * Reports of real runs (made from the shared corpus): inputs read and checked, the
 * figures each kind shows, transcripts with prompts, answers, need_more rounds and the
 * simulator's outcome, report.md, and clear errors for bad inputs. And the benchmark-local
 * headline on a small rows file with known counts (a duplicate_of row, a relaxed hit, a
 * synthesized hit, permissive crypto): the figures, the per-package bars by kind, the
 * HTML and report.md, older rows without the new fields, two inputs side by side.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHASE1_INSTRUCTIONS } from '@smi/harness';
import { rowLine } from '@smi/inhabit';
import { benchmarkView, buildReport, inputFromText, ReportError, readInput, readInputs, transcriptOf } from '@smi/report';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { kindBars, rateData } from '../src/benchmark-charts.js';
import { headlineRows, NEW, OLD, oldHeadlineRows, OTHER } from './headline-rows.js';
import { makeRuns, type ReportRuns } from './runs.js';

describeWithFixtures('smi report', ['corpus'], () => {
  let dir: string;
  let runs: ReportRuns;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smi-report-'));
    runs = await makeRuns(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each kind of input', () => {
    const [rows, p1, p1mock, p2, p2model] = readInputs([runs.rows, runs.phase1Model, runs.phase1Mock, runs.phase2Baseline, runs.phase2Model]);
    expect(rows.$kind).toBe('BenchmarkLocal');
    if (rows.$kind === 'BenchmarkLocal') expect(new Set(rows.rows.map((r) => r.target_package)).size).toBe(2);
    for (const [i, phase] of [
      [p1, 'phase1'],
      [p1mock, 'phase1'],
      [p2, 'phase2'],
      [p2model, 'phase2'],
    ] as const) {
      expect(i.$kind).toBe('PhaseRun');
      if (i.$kind === 'PhaseRun') {
        expect(i.phase).toBe(phase);
        expect(i.fromDirectory).toBe(true);
      }
    }
    expect(p1.label).toBe('phase1-model (real-openai-compatible · fake-model)');
    expect(p1mock.label).toBe('phase1-mock (mock-noisy)');
  });

  it('a report covers every package of every input, with the run JSON figures', async () => {
    const inputs = readInputs([runs.rows, runs.phase1Model, runs.phase1Mock, runs.phase2Baseline]);
    const r = await buildReport(inputs, { title: 'Test report', generatedAt: new Date('2026-11-27T00:00:00Z') });
    expect(r.charts).toEqual([
      'bl-rates',
      'bl-splits',
      'bl-taxonomy',
      'bl-kinds',
      'bl-packages',
      'phase1-metric',
      'phase1-distribution',
      'phase1-outcomes',
      'phase1-latency',
      'phase1-tokens',
      'phase1-turns',
      'phase2-metric',
      'phase2-distribution',
      'phase2-outcomes',
      'phase2-latency',
    ]);
    expect(r.summary).toMatchObject({ benchmark_local: 1, phase1: 2, phase2: 1, packages: 2 + 4 + 4 + 12 });
    // Self-contained: no network URL is loaded (SVG namespaces are names, not fetches).
    expect(r.html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/);
    expect(r.html.match(/<svg /g)?.length).toBe(r.charts.length);
    // The figures are the run JSON's.
    const p2 = readInput(runs.phase2Baseline);
    if (p2.$kind !== 'PhaseRun') throw new Error('not a run');
    const agg = p2.runJson?.aggregate as { avg_hit_rate: number; micro_hit_rate: number };
    // Phase II's mean is over the packages with target types (the run JSON's avg_hit_rate counts the others as 0, and is said beside it).
    const scores = p2.results.map((x) => x.row.score as { targets: number; created_hits: number }).filter((x) => x.targets > 0);
    const mean = scores.reduce((a, x) => a + x.created_hits / x.targets, 0) / scores.length;
    expect(scores.length).toBeLessThan(p2.results.length);
    expect(r.markdown).toContain(`| ${(100 * mean).toFixed(1)}% | ${(100 * agg.micro_hit_rate).toFixed(1)}% |`);
    expect(r.markdown).toContain(
      `the mean is over the ${scores.length} packages with target types; ${p2.results.length - scores.length} without any are not counted as 0 (the run JSON's avg_hit_rate counts them so: ${(100 * agg.avg_hit_rate).toFixed(1)}%)`,
    );
    expect(r.markdown).toContain('**failure stage**');
    expect(r.markdown).toContain('### Packages — phase1-model (real-openai-compatible · fake-model)');
    // Failures stay in the tables: the unparseable answer is a row.
    expect(r.markdown).toMatch(/\| 0x7f6b380d[0-9a-f]+ \| unparseable \|/);
  });

  it('transcripts show prompts, answers, need_more rounds, plans and the simulator’s error', () => {
    const p1 = readInput(runs.phase1Model);
    if (p1.$kind !== 'PhaseRun') throw new Error('not a run');
    const t1 = transcriptOf(p1.results[0]);
    expect(t1.steps.map((s) => s.kind)).toEqual(['prompt', 'answer', 'row']);
    expect(t1.steps[0].text.startsWith(PHASE1_INSTRUCTIONS)).toBe(true);
    expect(t1.steps[1].text).toBe(JSON.stringify({ key_types: [`${p1.results[0].package_id}::pool::Pool`] }));
    const p2 = readInput(runs.phase2Model);
    if (p2.$kind !== 'PhaseRun') throw new Error('not a run');
    const t2 = transcriptOf(p2.results[0]);
    const kinds = t2.steps.map((s) => s.kind);
    expect(kinds.slice(0, 4)).toEqual(['prompt', 'answer', 'prompt', 'answer']);
    expect(t2.steps[1].text).toContain('need_more');
    expect(t2.steps[2].title).toMatch(/^call 2 · plan/);
    expect(t2.steps[3].text).toContain('coin::zero');
    const sims = t2.steps.filter((s) => s.kind === 'simulation');
    expect(sims.length).toBeGreaterThan(0);
    expect(sims[0].text).toMatch(/^error: result 0.0 has no drop ability and was not used/);
    expect(kinds).toContain('plan');
  });

  it('bad inputs are named, with the line', () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"target_package":"0x1","target_module":"m","target_function":"f","status":"miss"}\n{"oops": 1}\n');
    expect(() => readInput(bad)).toThrow(ReportError);
    expect(() => readInput(bad)).toThrow(/bad\.jsonl:2: not a benchmark-local row/);
    expect(() => readInput(path.join(dir, 'nope'))).toThrow(expect.objectContaining({ code: 'FILE_NOT_FOUND' }));
    expect(() => readInput(dir)).toThrow(expect.objectContaining({ code: 'INPUT_UNKNOWN' }));
    expect(() => readInputs([])).toThrow(expect.objectContaining({ code: 'NO_INPUTS' }));
  });
});

const short = (id: string): string => `${id.slice(0, 10)}…${id.slice(-6)}`;
const jsonl = (rows: ReturnType<typeof headlineRows>): string => rows.map(rowLine).join('');

describe('the benchmark-local headline', () => {
  it('counts real hits once per function of an original package, beside the loose rates and the splits', () => {
    const v = benchmarkView('rows.jsonl', headlineRows());
    expect(v.summary.headline).toEqual({ real_hits: 3, real_rate: 0.375, real_structured_hits: 1, real_structured_rate: 0.125, functions_dedup: 8 });
    expect(v.summary).toMatchObject({ rows: 10, tier_a_hits: 9, tier_b_hits: 7, tier_a_rate: 0.9, tier_b_rate: 0.7 });
    expect(v.gaps).toEqual({ caveats: [], real_lower_bound: false, real_structured_lower_bound: false });
    expect(v.kinds).toEqual({ real_structured: 2, real_pure_only: 1, real_no_args: 1, relaxed: 1, synthesized: 1, permissive_crypto: 1 });
    // Rows with every field: the report's splits are the summary's.
    expect(v.splits.checks).toEqual(v.summary.hits_by_checks);
    expect(v.splits.provenance).toEqual(v.summary.hits_by_provenance);
    expect(v.splits.class).toEqual(v.summary.hits_by_class);
    expect(v.splits.checks).toEqual({ strict: 6, relaxed: 1 });
    expect(v.splits.provenance).toEqual({ chain: 5, synthesized: 1, init_state: 1 });
    expect(v.splits.class).toEqual({ structured: 5, pure_only: 1, no_args: 1 });
    expect(v.splits.kind).toEqual({ 'real structured': 2, 'real pure-only': 1, 'real no-args': 1, relaxed: 1, synthesized: 1, 'permissive crypto': 1 });
    // Packages by real structured rate, then real rate; the older version (every row a duplicate) last.
    expect(v.packages.map((p) => [p.package_id, p.functions, p.functions_dedup, p.real_hits, p.real_structured_hits, p.real_rate, p.real_structured_rate, p.tier_b_hits])).toEqual([
      [NEW, 5, 5, 2, 1, 0.4, 0.2, 4],
      [OTHER, 3, 3, 1, 0, 1 / 3, 0, 2],
      [OLD, 2, 0, 0, 0, null, null, 1],
    ]);
  });

  it('a stacked bar per package of its Tier B hits by kind', () => {
    const segments = kindBars(benchmarkView('rows.jsonl', headlineRows())).filter((d) => d.count !== 0);
    expect(segments).toEqual([
      { package: short(NEW), kind: 'real structured', count: 1 },
      { package: short(NEW), kind: 'real pure-only', count: 1 },
      { package: short(NEW), kind: 'relaxed', count: 1 },
      { package: short(NEW), kind: 'synthesized', count: 1 },
      { package: short(OTHER), kind: 'real no-args', count: 1 },
      { package: short(OTHER), kind: 'permissive crypto', count: 1 },
      { package: short(OLD), kind: 'real structured', count: 1 },
    ]);
    // Every package has a bar with the six kinds (zeros included), so the legend lists them all.
    expect(kindBars(benchmarkView('rows.jsonl', headlineRows()))).toHaveLength(3 * 6);
  });

  it('the HTML shows the headline first, then the loose rates, then the splits and the bars', async () => {
    const r = await buildReport([inputFromText('rows.jsonl', jsonl(headlineRows()))], { generatedAt: new Date('2026-11-27T00:00:00Z') });
    expect(r.charts).toEqual(['bl-rates', 'bl-splits', 'bl-taxonomy', 'bl-kinds', 'bl-packages']);
    const at = (s: string): number => {
      const i = r.html.indexOf(s);
      expect(i, s).toBeGreaterThan(0);
      return i;
    };
    expect(at('<b>37.5%</b><span>real hit rate</span><small>3 of 8 functions counted once</small>')).toBeLessThan(at('<b>90.0%</b><span>Tier A hit rate (loose)</span>'));
    expect(at('<b>12.5%</b><span>real structured hit rate</span><small>1 of 8 functions counted once</small>')).toBeLessThan(
      at('<b>70.0%</b><span>Tier B hit rate (loose)</span><small>7 of 10 rows</small>'),
    );
    expect(at('<b>8</b><span>functions counted once</span><small>of 10 rows; 2 duplicates left out</small>')).toBeLessThan(at('<th>by kind</th>'));
    expect(at('A real hit is a Tier B hit that ran with Sui’s strict checks')).toBeLessThan(at('<h4>Headline'));
    expect(r.html).toContain('<th>by checks</th><td>strict 6 (85.7%) · relaxed 1 (14.3%)</td>');
    expect(r.html).not.toContain('Not classified');
    // The bars by kind have a legend naming the kinds.
    const kinds = r.html.slice(at('id="bl-kinds"'), at('id="bl-packages"'));
    for (const k of ['real structured', 'real pure-only', 'real no-args', 'relaxed', 'synthesized', 'permissive crypto']) expect(kinds).toContain(`>${k}</text>`);
    // The package table: rows by real structured rate, with the new columns.
    const table = r.html.slice(at('id="bl-table-0"'));
    expect(table.indexOf(`title="${NEW}"`)).toBeLessThan(table.indexOf(`title="${OTHER}"`));
    expect(table.indexOf(`title="${OTHER}"`)).toBeLessThan(table.indexOf(`title="${OLD}"`));
    expect(table).toContain(
      '<th class="num">counted once</th><th class="num">real structured hits</th><th class="num">real structured rate</th><th class="num">real hits</th><th class="num">real rate</th>',
    );
  });

  it('report.md: the headline first, then the loose figures and the splits', async () => {
    const r = await buildReport([inputFromText('rows.jsonl', jsonl(headlineRows()))], { generatedAt: new Date('2026-11-27T00:00:00Z') });
    const md = r.markdown;
    expect(md).toContain('Real hit rate 37.5% (3 of 8 functions counted once), real structured hit rate 12.5% (1).');
    expect(md).toContain('| real hits | 3 | 8 | 37.5% |');
    expect(md).toContain('| real structured hits | 1 | 8 | 12.5% |');
    expect(md.indexOf('**Headline')).toBeLessThan(md.indexOf('**Loose'));
    expect(md).toContain('10 rows (functions, duplicates included) in 3 packages: Tier A 9 (90.0%), Tier B 7 (70.0%).');
    expect(md.indexOf('**Loose')).toBeLessThan(md.indexOf('**Tier B hits by kind**'));
    expect(md).toContain(
      '| real structured | 2 | 28.6% |\n| real pure-only | 1 | 14.3% |\n| real no-args | 1 | 14.3% |\n| relaxed | 1 | 14.3% |\n| synthesized | 1 | 14.3% |\n| permissive crypto | 1 | 14.3% |',
    );
    for (const t of ['**Tier B hits by checks**', '**Tier B hits by provenance**', '**Tier B hits by class**']) expect(md).toContain(t);
    expect(md).toContain(`| ${NEW} | 5 | 5 | 1 | 20.0% | 2 | 40.0% | 4 | 80.0% | 4 | 80.0% | A3 |`);
    expect(md).toContain(`| ${OLD} | 2 | 0 | 0 | — | 0 | — | 2 | 100.0% | 1 | 50.0% | B2 |`);
  });

  it('older rows without hit_class, duplicate_of or checks still render, and the headline says what it could not classify', async () => {
    const v = benchmarkView('old.jsonl', oldHeadlineRows());
    expect(v.summary.headline).toMatchObject({ real_hits: 3, real_structured_hits: 0, functions_dedup: 10 });
    expect(v.kinds).toEqual({ real_unclassified: 3, relaxed: 1, synthesized: 1, permissive_crypto: 1, unknown_checks: 1 });
    expect(v.splits.checks).toEqual({ strict: 5, relaxed: 1, 'not recorded': 1 });
    expect(v.splits.class).toEqual({ 'not recorded': 7 });
    expect(v.gaps.real_lower_bound).toBe(true);
    expect(v.gaps.real_structured_lower_bound).toBe(true);
    expect(v.gaps.caveats).toHaveLength(3);
    expect(v.gaps.caveats[0]).toMatch(/^3 strict Tier B hits do not record hit_class/);
    expect(v.gaps.caveats[1]).toMatch(/^1 Tier B hit does not record the checks it ran with/);
    expect(v.gaps.caveats[2]).toMatch(/^No row records hit_class or duplicate_of/);
    const r = await buildReport([inputFromText('old.jsonl', jsonl(oldHeadlineRows()))], { generatedAt: new Date('2026-11-27T00:00:00Z') });
    expect(r.html).toContain('<b>≥ 30.0%</b><span>real hit rate</span>');
    expect(r.html).toContain('<b>≥ 0.0%</b><span>real structured hit rate</span>');
    expect(r.html).toContain('<p class="caveat">Not classified: 3 strict Tier B hits do not record hit_class');
    const kinds = r.html.slice(r.html.indexOf('id="bl-kinds"'), r.html.indexOf('id="bl-packages"'));
    expect(kinds).toContain('>real, class not recorded</text>');
    expect(kinds).toContain('>checks not recorded</text>');
    expect(r.markdown).toContain('| real hits | 3 | 10 | ≥ 30.0% |');
    expect(r.markdown).toContain('> Not classified: 1 Tier B hit does not record the checks it ran with');
  });

  it('several inputs: the headline rates side by side, not only the loose rate', async () => {
    const inputs = [inputFromText('new.jsonl', jsonl(headlineRows())), inputFromText('old.jsonl', jsonl(oldHeadlineRows()))];
    const r = await buildReport(inputs, { generatedAt: new Date('2026-11-27T00:00:00Z') });
    expect(rateData([benchmarkView('new.jsonl', headlineRows()), benchmarkView('old.jsonl', oldHeadlineRows())])).toEqual([
      { rate: 'real structured', series: 'new.jsonl', value: 0.125 },
      { rate: 'real', series: 'new.jsonl', value: 0.375 },
      { rate: 'Tier B (loose)', series: 'new.jsonl', value: 0.7 },
      { rate: 'Tier A (loose)', series: 'new.jsonl', value: 0.9 },
      { rate: 'real structured', series: 'old.jsonl', value: 0 },
      { rate: 'real', series: 'old.jsonl', value: 0.3 },
      { rate: 'Tier B (loose)', series: 'old.jsonl', value: 0.7 },
      { rate: 'Tier A (loose)', series: 'old.jsonl', value: 0.9 },
    ]);
    expect(r.html).toContain('id="bl-inputs"');
    expect(r.markdown).toContain('| new.jsonl | 8 | 1 | 12.5% | 3 | 37.5% | 10 | 90.0% | 70.0% |');
    expect(r.markdown).toContain('| old.jsonl | 10 | 0 | ≥ 0.0% | 3 | ≥ 30.0% | 10 | 90.0% | 70.0% |');
    expect(r.markdown.indexOf('## benchmark-local side by side')).toBeLessThan(r.markdown.indexOf('## benchmark-local: new.jsonl'));
  });
});

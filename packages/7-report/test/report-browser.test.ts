/**
 * The report in a real browser (headless Chromium driven by playwright-core): every chart
 * rendered (SVG marks present), the benchmark-local headline before the loose rates, no
 * console errors, sorting by clicking a header, and the drill-down to a package's rows and
 * to a transcript by clicking; screenshots of each
 * report kind are saved (to `$SMI_REPORT_SCREENSHOTS` when set, else a temp folder).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildReport, readInputs } from '@smi/report';
import { PACKAGE_COLUMNS } from '../src/benchmark-section.js';
import { describeWithBrowser } from '../../../test-support/browser.js';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { makeRuns, type ReportRuns } from './runs.js';

/** Needs the shared corpus and Chromium: either missing skips, or fails under `SMI_REQUIRE_FIXTURES=1`. */
function describeBoth(name: string, body: (chromium: string) => void): void {
  describeWithFixtures(name, ['corpus'], () => describeWithBrowser('with Chromium', body));
}

describeBoth('the report in headless Chromium', (executablePath) => {
  let dir: string;
  let runs: ReportRuns;
  let browser: Browser;
  const shots = process.env.SMI_REPORT_SCREENSHOTS;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smi-report-browser-'));
    runs = await makeRuns(dir);
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Write the report of `inputs`, open it, and collect console errors. */
  async function open(name: string, inputs: string[]): Promise<{ page: Page; errors: string[]; charts: string[] }> {
    const report = await buildReport(readInputs(inputs), { title: `SMI report: ${name}`, generatedAt: new Date('2026-11-27T00:00:00Z') });
    const file = path.join(dir, `${name}.html`);
    writeFileSync(file, report.html);
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    // Offline: any request other than the file itself fails the test.
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await page.goto(pathToFileURL(file).href);
    return { page, errors, charts: report.charts };
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const target = shots ?? path.join(dir, 'shots');
    mkdirSync(target, { recursive: true });
    await page.screenshot({ path: path.join(target, `${name}.png`) });
  }

  /** Every chart has SVG marks (bars, boxes, symbols). */
  async function expectCharts(page: Page, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const marks = await page.locator(`#${id} svg g[class*="mark-"] path, #${id} svg g[class*="mark-"] rect, #${id} svg g[class*="mark-"] line`).count();
      expect(marks, `chart ${id}`).toBeGreaterThan(0);
      expect(await page.locator(`#${id} svg`).boundingBox(), `chart ${id} has a size`).not.toBeNull();
    }
  }

  async function columnValues(page: Page, table: string, column: number): Promise<number[]> {
    return page.locator(`#${table} tbody tr > td:nth-child(${column + 1})`).evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));
  }

  it('benchmark-local: the headline first, charts, sorting by hit rate, drill-down to a row with its class, checks, provenance and transactions', async () => {
    const { page, errors, charts } = await open('benchmark-local', [runs.rows]);
    expect(charts).toEqual(['bl-rates', 'bl-splits', 'bl-taxonomy', 'bl-kinds', 'bl-packages']);
    await expectCharts(page, charts);
    // The headline cards come before the loose ones, and each says its denominator.
    const labels = await page.locator('#benchmark-local .card span').allTextContents();
    expect(labels.slice(0, 4)).toEqual(['real hit rate', 'real structured hit rate', 'functions counted once', 'Tier A hit rate (loose)']);
    expect(await page.locator('#benchmark-local .cards.headline .card small').first().textContent()).toMatch(/^\d+ of \d+ functions counted once$/);
    // The bars by kind name the kinds in their legend.
    for (const k of ['real structured', 'real pure-only', 'real no-args', 'relaxed', 'synthesized', 'permissive crypto'])
      expect(await page.locator('#bl-kinds svg text', { hasText: new RegExp(`^${k}$`) }).count(), k).toBe(1);
    // The glossary: the navigation reaches it; every stage and code the taxonomy chart shows is defined there.
    await page.locator('nav a[href="#glossary"]').click();
    await expect.poll(() => page.locator('#glossary').isVisible()).toBe(true);
    for (const t of ['Tier A', 'Tier B', 'A1', 'B2', 'E101', 'E403']) expect(await page.locator(`#glossary tr[data-term="${t}"] td`).count(), t).toBeGreaterThan(0);
    for (const t of await page.locator('#bl-taxonomy .role-legend-label text').allTextContents()) expect(await page.locator(`#glossary tr[data-term="${t}"]`).count(), t).toBe(1);
    await screenshot(page, 'report-benchmark-local');
    // The table opens sorted by real structured rate; sort by the loose Tier B rate: descending, then ascending.
    const structured = PACKAGE_COLUMNS.indexOf('real structured rate');
    const first = await columnValues(page, 'bl-table-0', structured);
    expect(first).toEqual([...first].sort((a, b) => b - a));
    const loose = PACKAGE_COLUMNS.indexOf('Tier B rate (loose)');
    const header = page.locator('#bl-table-0 th', { hasText: 'Tier B rate (loose)' });
    await header.click();
    const down = await columnValues(page, 'bl-table-0', loose);
    expect(down).toEqual([...down].sort((a, b) => b - a));
    await header.click();
    const up = await columnValues(page, 'bl-table-0', loose);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    expect(await page.locator('#bl-table-0 th[aria-sort=ascending]').textContent()).toBe('Tier B rate (loose)');
    await header.click();
    // Drill down: the package's functions, then one row with its transactions.
    const top = page.locator('#bl-table-0 tbody tr').first();
    const functions = Number(await top.locator('td').nth(1).getAttribute('data-value'));
    await top.click();
    await expect.poll(() => page.locator('#drawer.open').count()).toBe(1);
    expect(await page.locator('#drawer details.step').count()).toBe(functions);
    const hit = page.locator('#drawer details.step.kind-tier_b_hit').first();
    expect(await hit.locator('summary').textContent()).toMatch(/ — tier_b_hit · class (structured|pure_only|no_args) · checks (strict|relaxed) · provenance (chain|init_state|synthesized)/);
    await hit.locator('summary').click();
    const text = await hit.locator('pre').textContent();
    expect(JSON.parse(text ?? '')).toMatchObject({ status: 'tier_b_hit', hit_class: expect.any(String), transactions: expect.any(Array) });
    await screenshot(page, 'report-benchmark-local-drilldown');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#drawer.open').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('Phase I: two runs side by side, a transcript with the prompt and the answer', async () => {
    const { page, errors, charts } = await open('phase1', [runs.phase1Model, runs.phase1Mock]);
    expect(charts).toEqual(['phase1-metric', 'phase1-distribution', 'phase1-outcomes', 'phase1-latency', 'phase1-tokens', 'phase1-turns']);
    await expectCharts(page, charts);
    expect(await page.locator('#phase1-runs tbody tr').count()).toBe(2);
    await screenshot(page, 'report-phase1');
    // The unparseable package's transcript: the model's answer as it came.
    await page.locator('#phase1-table-0 tbody tr', { hasText: 'unparseable' }).click();
    await expect.poll(() => page.locator('#drawer.open').count()).toBe(1);
    expect(await page.locator('#drawer h2').textContent()).toMatch(/· unparseable$/);
    expect(await page.locator('#drawer details.step.kind-answer pre').first().textContent()).toBe('I cannot tell which structs are key types.');
    expect(await page.locator('#drawer details.step.kind-prompt summary').first().textContent()).toMatch(/^call 1 · answer · attempt 1 · prompt$/);
    expect(errors).toEqual([]);
  });

  it('Phase II: the transcript shows the need_more round, the plan and the simulator’s error', async () => {
    const { page, errors, charts } = await open('phase2', [runs.phase2Baseline, runs.phase2Model]);
    await expectCharts(page, charts);
    await page.locator('#phase2-table-1 tbody tr').first().click();
    await expect.poll(() => page.locator('#drawer.open').count()).toBe(1);
    const answers = await page.locator('#drawer details.step.kind-answer summary').allTextContents();
    expect(answers[0]).toMatch(/^call 1 · plan · attempt 1 · answer/);
    await page.locator('#drawer details.step.kind-answer summary').first().click();
    expect(await page.locator('#drawer details.step.kind-answer pre').first().textContent()).toContain('need_more');
    const sim = page.locator('#drawer details.step.kind-simulation').first();
    await sim.locator('summary').click();
    expect(await sim.locator('pre').textContent()).toContain('has no drop ability and was not used');
    await screenshot(page, 'report-phase2-transcript');
    expect(errors).toEqual([]);
  });
});

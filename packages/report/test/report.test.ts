/**
 * Reports of real runs (made from the shared corpus): inputs read and checked, the
 * figures each kind shows, transcripts with prompts, answers, need_more rounds and the
 * simulator's outcome, report.md, and clear errors for bad inputs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PHASE1_INSTRUCTIONS } from '@smi/harness';
import { buildReport, ReportError, readInput, readInputs, transcriptOf } from '@smi/report';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
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
    expect(r.charts).toEqual(['bl-tiers', 'bl-taxonomy', 'bl-packages', 'phase1-metric', 'phase1-distribution', 'phase1-outcomes', 'phase1-latency', 'phase1-tokens', 'phase1-turns', 'phase2-metric', 'phase2-distribution', 'phase2-outcomes', 'phase2-latency']);
    expect(r.summary).toMatchObject({ benchmark_local: 1, phase1: 2, phase2: 1, packages: 2 + 4 + 4 + 12 });
    // Self-contained: no network URL is loaded (SVG namespaces are names, not fetches).
    expect(r.html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/);
    expect(r.html.match(/<svg /g)?.length).toBe(r.charts.length);
    // The figures are the run JSON's.
    const p2 = readInput(runs.phase2Baseline);
    if (p2.$kind !== 'PhaseRun') throw new Error('not a run');
    const agg = p2.runJson?.aggregate as { avg_hit_rate: number; micro_hit_rate: number };
    expect(r.markdown).toContain(`| ${(100 * agg.avg_hit_rate).toFixed(1)}% | ${(100 * agg.micro_hit_rate).toFixed(1)}% |`);
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

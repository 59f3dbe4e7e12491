/**
 * Phase II runs over the shared corpus on local simulations, for each model-free agent: the
 * original's run JSON (schema_version 2, valid by its own validator, checksum), mock results
 * as expected, a plan file, and a resumed run identical to an uninterrupted one.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { phase2Options } from '../../../test-support/phase2-options.js';
import path from 'node:path';
import { DiskRunStore, MemoryRunStore, mergeRuns, parseRunJson, parseShard, plain, readPlanFile, RUN_JSON_BUILDERS, runPhase2, phase2SummaryText } from '../src/index.js';
import { validateRunJson } from '../src/run/checkpoint.js';
import { stable, tempDir } from './support.js';

type Row = { package_id: string; score: { targets: number; created_hits: number }; synthetic: boolean; error: string | null };

describeWithFixtures('Phase II runs on the shared corpus', ['fixtures', 'harness'], () => {
  it('mock-empty and mock-perfect: nothing created, or every target claimed and labelled synthetic; the run JSON is the original schema_version 2', async () => {
    const empty = await runPhase2(phase2Options({ agent: 'mock-empty' }));
    validateRunJson(parseRunJson(empty.text, 'run.json', { phase: 2 }), 2);
    const er = plain(empty.runJson.packages as never) as Row[];
    expect(er).toHaveLength(12);
    expect(er.every((r) => r.score.created_hits === 0 && !r.synthetic)).toBe(true);
    const perfect = await runPhase2(phase2Options({ agent: 'mock-perfect' }));
    const pr = plain(perfect.runJson.packages as never) as Row[];
    expect(pr.every((r) => r.synthetic && r.score.created_hits === r.score.targets)).toBe(true);
    const agg = plain(perfect.runJson.aggregate as never) as Record<string, number>;
    expect(agg.synthetic_packages).toBe(12);
    expect(phase2SummaryText(perfect.runJson)).toMatch(/synthetic: 12/);
    console.info(`[phase2 run] mock-perfect: ${phase2SummaryText(perfect.runJson).trim().replace(/\n/g, ' | ')}`);
    // The figures printed: 130 target types over 12 packages, all claimed; 10 packages have targets.
    expect(agg).toMatchObject({ packages_total: 12, packages_with_hits: 10, targets: 130, hits: 130, micro_hit_rate: 1, dry_run_ok: 12, errors: 0, causality_valid_count: 12 });
    expect(agg.outcomes).toEqual({ correct: 10, wrong: 2, unparseable: 0, limit: 0, model_error: 0, infra_error: 0 });
  }, 120_000);

  it('mock-planfile: the original plan file (its packages are not in this corpus: no plan, said so); baseline-search figures', async () => {
    const planFile = readPlanFile(readFileSync(fixturePath('fixtures', 'harness', 'fixtures', 'phase2_plans_two_packages.json'), 'utf8'), 'plans');
    expect(planFile.size).toBe(2);
    const r = await runPhase2(phase2Options({ agent: 'mock-planfile', planFile, samples: 3, seed: 1n }));
    expect((plain(r.runJson.packages as never) as Row[]).every((x) => x.error === 'the agent gave no plan')).toBe(true);
    const store = new MemoryRunStore();
    const base = await runPhase2(phase2Options({ agent: 'baseline-search', store }));
    console.info(`[phase2 run] baseline-search: ${phase2SummaryText(base.runJson).trim().replace(/\n/g, ' | ')}`);
    // The figures printed (local simulations are deterministic): one target type of 130 is
    // created, in 0x2; every other package fails for want of an object or gives no plan.
    const baseAgg = plain(base.runJson.aggregate as never) as Record<string, unknown>;
    expect(baseAgg).toMatchObject({ packages_total: 12, packages_with_hits: 1, targets: 130, hits: 1, dry_run_ok: 1, errors: 0, planning_only_packages: 11, synthetic_packages: 0 });
    expect(baseAgg.outcomes).toEqual({ correct: 0, wrong: 12, unparseable: 0, limit: 0, model_error: 0, infra_error: 0 });
    const shortId = (id: string): string => (/^0x0{60}/.test(id) ? `0x${id.replace(/^0x0+/, '')}` : id.slice(0, 10));
    expect((plain(base.runJson.packages as never) as Row[]).map((r) => [shortId(r.package_id), r.score.targets, r.score.created_hits])).toEqual([
      ['0x1', 0, 0],
      ['0x2', 43, 1],
      ['0x3', 6, 0],
      ['0xb', 1, 0],
      ['0xdee9', 7, 0],
      ['0x1eabed72', 10, 0],
      ['0x7f6b380d', 0, 0],
      ['0x826915f8', 20, 0],
      ['0xb2345915', 7, 0],
      ['0xc5b2a504', 20, 0],
      ['0xc6faf370', 13, 0],
      ['0xca441b44', 3, 0],
    ]);
    // Every simulation is kept in the result (not the first 20): a hit is always among them.
    const results = store.results().results;
    const runsOf = (r: (typeof results)[number]): { hits: number }[] => (r.details as { runs?: { hits: number }[] } | undefined)?.runs ?? [];
    expect(Math.max(...results.map((r) => runsOf(r).length))).toBeGreaterThan(20);
    for (const r of results) {
      expect((r.details as { runs_omitted?: number } | undefined)?.runs_omitted).toBeUndefined();
      const hits = (r.row as { score: { created_hits: number } }).score.created_hits;
      if (hits > 0) expect(Math.max(...runsOf(r).map((x) => x.hits))).toBe(hits);
    }
    for (const row of plain(base.runJson.packages as never) as (Row & { dry_run_ok: boolean })[]) {
      expect(row.score.created_hits).toBeLessThanOrEqual(row.score.targets);
      if (row.score.created_hits > 0) expect(row.dry_run_ok).toBe(true);
    }
    // The run's samples and junit.xml hold every package, outcomes as in the run JSON.
    const baseRows = plain(base.runJson.packages as never) as (Row & { package_id: string })[];
    const outcomes = results.sort((a, b) => a.index - b.index).map((r) => r.outcome);
    const lines = (store.files.get('samples.jsonl') ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { package_id: string; outcome: string; score_created_hits: number });
    expect(lines.map((l) => l.package_id)).toEqual(baseRows.map((r) => r.package_id));
    expect(lines.map((l) => l.outcome)).toEqual(outcomes);
    expect(lines.map((l) => l.score_created_hits)).toEqual(baseRows.map((r) => r.score.created_hits));
    const csv = (store.files.get('samples.csv') ?? '').trim().split('\r\n');
    expect(csv).toHaveLength(baseRows.length + 1);
    expect(csv[0].split(',').slice(0, 3)).toEqual(['package_id', 'index', 'outcome']);
    const junit = store.files.get('junit.xml') ?? '';
    expect(junit.match(/<testcase /g)).toHaveLength(baseRows.length);
    expect(Number(/<testsuite [^>]*failures="(\d+)"/.exec(junit)?.[1])).toBe(outcomes.filter((o) => o === 'wrong').length);
    expect(Number(/<testsuite [^>]*errors="(\d+)"/.exec(junit)?.[1])).toBe(outcomes.filter((o) => o !== 'wrong' && o !== 'correct').length);
    // The original's counters and evaluation fields, recounted from the simulations kept.
    type EvalRow = Row & {
      dry_run_ok: boolean;
      plan_attempts: number;
      semantic_failure_count: number;
      semantic_failure_attempts_until_first_success: number | null;
      scoring_criteria: { score: number; creates_target_type: boolean; executes_cleanly: boolean };
      failure: { phase: string; code: string | null } | null;
      evaluation_result: { ok: boolean; score: number };
      execution_trace: { execution_attempted: boolean };
    };
    const byId = new Map(results.map((r) => [r.package_id, r]));
    for (const row of plain(base.runJson.packages as never) as EvalRow[]) {
      const runs = (byId.get(row.package_id)?.details as { runs?: { plan_attempt: number; ok: boolean }[] } | undefined)?.runs ?? [];
      const attempts = [...new Set(runs.map((x) => x.plan_attempt))];
      const failed = attempts.filter((a) => !runs.some((x) => x.plan_attempt === a && x.ok));
      expect(row.semantic_failure_count).toBe(failed.length);
      const firstOk = attempts.find((a) => runs.some((x) => x.plan_attempt === a && x.ok));
      expect(row.semantic_failure_attempts_until_first_success).toBe(firstOk === undefined ? null : attempts.indexOf(firstOk));
      expect(row.scoring_criteria.creates_target_type).toBe(row.score.created_hits > 0);
      expect([0, 0.25, 0.5, 0.75, 1]).toContain(row.scoring_criteria.score);
      expect(row.failure === null).toBe(row.score.targets > 0 && row.score.created_hits === row.score.targets);
      expect(row.evaluation_result.ok).toBe(row.failure === null && row.score.targets > 0);
      expect(row.execution_trace.execution_attempted).toBe(
        runs.some((x) => x.ok) ||
          row.dry_run_ok ||
          (runs.length > 0 && row.failure?.phase !== 'build' && row.failure?.phase !== 'resolution' && row.failure?.phase !== 'typecheck' && row.failure?.phase !== 'synthesis'),
      );
    }
  }, 120_000);

  it('a run stopped after some packages resumes to the same run JSON as one that was not', async () => {
    const whole = await runPhase2(phase2Options({ agent: 'baseline-search', store: new MemoryRunStore() }));
    const dir = tempDir();
    const stop = new AbortController();
    let n = 0;
    const first = await runPhase2(phase2Options({ agent: 'baseline-search', store: DiskRunStore.at(dir), signal: stop.signal, onResult: () => (++n === 4 ? stop.abort() : undefined) }));
    expect(first.status).not.toBe('success');
    const again = await runPhase2(phase2Options({ agent: 'baseline-search', store: DiskRunStore.existing(dir), resume: true }));
    expect(again.status).toBe('success');
    expect(stable(again.runJson)).toEqual(stable(whole.runJson));
  }, 180_000);

  it('shards of a run, merged (smi merge), are the run JSON one run writes', async () => {
    const whole = await runPhase2(phase2Options({ agent: 'baseline-search', store: new MemoryRunStore() }));
    const root = tempDir();
    const shards = [1, 2].map((k) => path.join(root, `shard${k}`));
    for (const [i, dir] of shards.entries()) {
      const r = await runPhase2(phase2Options({ agent: 'baseline-search', store: DiskRunStore.at(dir), runId: `s${i}`, shard: parseShard(`${i + 1}/2`) }));
      expect(r.status).toBe('success');
    }
    const merged = mergeRuns(shards, path.join(root, 'merged'), RUN_JSON_BUILDERS);
    expect(merged.packages).toBe(12);
    expect(stable(merged.text)).toEqual(stable(whole.runJson));
    validateRunJson(parseRunJson(merged.text, 'run.json', { phase: 2 }), 2);
  }, 180_000);
});

/**
 * Phase II runs over the shared corpus on local simulations, for each model-free agent: the
 * original's run JSON (schema_version 2, valid by its own validator, checksum), mock results
 * as expected, a plan file, and a resumed run identical to an uninterrupted one.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { fromFixtures } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { DiskRunStore, MemoryRunStore, parseRunJson, plain, readPlanFile, runPhase2, validateRunJson, phase2SummaryText, type Phase2Options } from '../src/index.js';
import { stable, tempDir } from './support.js';

const CORPUS = fixturePath('corpus');

function options(extra: Partial<Phase2Options>): Phase2Options {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  return {
    corpusRoot: CORPUS,
    samples: 0,
    seed: 0n,
    agent: 'mock-empty',
    framework: packages.filter((p) => BigInt(p.id) <= 0xdee9n),
    protocolConfig,
    simulationMode: 'local',
    sender: '0x' + 'a11ce'.padStart(64, '0'),
    publisher: '0x' + 'b0b'.padStart(64, '0'),
    senderCoins: 2,
    coinBalance: 100_000_000_000n,
    gasBudget: 10_000_000n,
    gasBudgetLadder: [50_000_000n],
    maxHeuristicVariants: 4,
    baselineMaxCandidates: 25,
    store: new MemoryRunStore(),
    runId: 'p2',
    continueOnError: true,
    ...extra,
  };
}

type Row = { package_id: string; score: { targets: number; created_hits: number }; synthetic: boolean; error: string | null };

describeWithFixtures('Phase II runs on the shared corpus', ['fixtures', 'harness'], () => {
  it('mock-empty and mock-perfect: nothing created, or every target claimed and labelled synthetic; the run JSON is the original schema_version 2', async () => {
    const empty = await runPhase2(options({ agent: 'mock-empty' }));
    validateRunJson(parseRunJson(empty.text, 'run.json', { phase: 2 }), 2);
    const er = plain(empty.runJson.packages as never) as Row[];
    expect(er).toHaveLength(12);
    expect(er.every((r) => r.score.created_hits === 0 && !r.synthetic)).toBe(true);
    const perfect = await runPhase2(options({ agent: 'mock-perfect' }));
    const pr = plain(perfect.runJson.packages as never) as Row[];
    expect(pr.every((r) => r.synthetic && r.score.created_hits === r.score.targets)).toBe(true);
    const agg = plain(perfect.runJson.aggregate as never) as Record<string, number>;
    expect(agg.synthetic_packages).toBe(12);
    expect(phase2SummaryText(perfect.runJson)).toMatch(/synthetic: 12/);
    console.info(`[phase2 run] mock-perfect: ${phase2SummaryText(perfect.runJson).trim().replace(/\n/g, ' | ')}`);
  }, 120_000);

  it('mock-planfile: the original plan file (its packages are not in this corpus: no plan, said so); baseline-search figures', async () => {
    const planFile = readPlanFile(readFileSync(fixturePath('fixtures', 'harness', 'fixtures', 'phase2_plans_two_packages.json'), 'utf8'), 'plans');
    expect(planFile.size).toBe(2);
    const r = await runPhase2(options({ agent: 'mock-planfile', planFile, samples: 3, seed: 1n }));
    expect((plain(r.runJson.packages as never) as Row[]).every((x) => x.error === 'the agent gave no plan')).toBe(true);
    const base = await runPhase2(options({ agent: 'baseline-search' }));
    console.info(`[phase2 run] baseline-search: ${phase2SummaryText(base.runJson).trim().replace(/\n/g, ' | ')}`);
    for (const row of plain(base.runJson.packages as never) as (Row & { dry_run_ok: boolean })[]) {
      expect(row.score.created_hits).toBeLessThanOrEqual(row.score.targets);
      if (row.score.created_hits > 0) expect(row.dry_run_ok).toBe(true);
    }
  }, 120_000);

  it('a run stopped after some packages resumes to the same run JSON as one that was not', async () => {
    const whole = await runPhase2(options({ agent: 'baseline-search', store: new MemoryRunStore() }));
    const dir = tempDir();
    const stop = new AbortController();
    let n = 0;
    const first = await runPhase2(options({ agent: 'baseline-search', store: DiskRunStore.at(dir), signal: stop.signal, onResult: () => (++n === 4 ? stop.abort() : undefined) }));
    expect(first.status).not.toBe('success');
    const again = await runPhase2(options({ agent: 'baseline-search', store: DiskRunStore.existing(dir), resume: true }));
    expect(again.status).toBe('success');
    expect(stable(again.runJson)).toEqual(stable(whole.runJson));
  }, 180_000);
});

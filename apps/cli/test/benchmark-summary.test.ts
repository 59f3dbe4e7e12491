/**
 * `smi benchmark-local`'s summary explains itself: the packages behind A1 failures (a
 * dependency not in any loaded corpus) with the functions each blocks, the module inits
 * that failed with their error code, the constructor graph once; the same data in the
 * `--json` summary (snake_case).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { requireBuiltCli, runSmi, type SpawnRun } from './support/spawn-cli.js';

/** A package of the shared corpus whose dependencies 0x714a… and 0xbe21… live in corpus-deps. */
const CLMM = fixturePath('corpus', '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb');
const MISSING = ['0x714a63a0dba6da4f017b42d5d0fb78867f18bcde904868e51d951a5a6f5b7f57', '0xbe21a06129308e0495431d12286127897aff07a8ade3970495a4404d97f9eaaa'];

interface Summary {
  missing_dependencies?: { package: string; functions: number }[];
  inits: { run: number; failed: number; failures?: { package: string; module: string; error_code: string; message: string }[] };
  by_stage: Record<string, number>;
}

describeWithFixtures('smi benchmark-local: a summary that explains itself', ['corpus-deps'], () => {
  let run: SpawnRun;
  let summary: Summary;
  beforeAll(async () => {
    requireBuiltCli();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-bench-summary-'));
    run = await runSmi(['benchmark-local', '--target-corpus', CLMM, '--static-only', '--jobs', '1', '--output', path.join(dir, 'rows.jsonl'), '--json']);
    summary = JSON.parse(run.stdout) as Summary;
  }, 120_000);

  it('names the missing packages behind the A1 failures, with the functions each blocks (JSON and text)', () => {
    expect(run.code, run.stderr).toBe(0);
    const missing = summary.missing_dependencies ?? [];
    expect(missing.map((m) => m.package).sort()).toEqual(MISSING);
    // Most blocked first; together they are every A1 failure.
    expect(missing[0].functions).toBeGreaterThanOrEqual(missing[1].functions);
    expect(missing.reduce((n, m) => n + m.functions, 0)).toBe(summary.by_stage.A1);
    expect(run.stderr).toMatch(/A1 failures by missing package \(not in the corpus: --corpus DIR loads it\)/);
    for (const m of missing) expect(run.stderr).toContain(`  ${m.package}  blocks ${m.functions} functions`);
  });

  it('lists the module inits that failed with their error code, a few in the text and "+N more"', () => {
    const failures = summary.inits.failures ?? [];
    expect(summary.inits.failed).toBe(failures.length);
    expect(failures.length).toBeGreaterThan(5);
    expect(failures.map((f) => f.module)).toContain('config');
    for (const f of failures) {
      expect(f.error_code).toBe('MISSING_DEPENDENCY');
      // The code is its own field, not repeated at the head of the message.
      expect(f.message.startsWith('MISSING_DEPENDENCY')).toBe(false);
      expect(f.message).toMatch(/is not loaded/);
    }
    expect(run.stderr).toContain(`module inits that failed: ${failures.length} of ${summary.inits.run}`);
    expect(run.stderr).toContain(`  ${failures[0].package}::${failures[0].module}  MISSING_DEPENDENCY`);
    expect(run.stderr).toContain(`  +${failures.length - 5} more (the summary JSON lists them)`);
  });

  it('prints the constructor graph line once', () => {
    expect(run.stderr.match(/constructor graph: /g)).toHaveLength(1);
  });

  it('with the dependencies loaded, nothing is missing', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-bench-summary-'));
    const r = await runSmi([
      'benchmark-local',
      '--target-corpus',
      CLMM,
      '--corpus',
      fixturePath('corpus-deps'),
      '--static-only',
      '--jobs',
      '1',
      '--quiet',
      '--output',
      path.join(dir, 'rows.jsonl'),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.missing_dependencies).toBeUndefined();
    expect(s.by_stage.A1 ?? 0).toBe(0);
  }, 120_000);
});

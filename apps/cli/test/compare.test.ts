/** `smi compare` on real runs: two agents over the shared corpus, flips and the bootstrap interval; refusals. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { runSmi } from './support/spawn-cli.js';

describeWithFixtures('smi compare', ['corpus'], () => {
  it('mock-random vs mock-perfect: packages fixed, F1 delta with its interval; different agents refused without --allow; Phase I vs Phase II refused', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-compare-'));
    const phase1 = (agent: string, out: string) =>
      runSmi(['phase1', '--corpus-root', fixturePath('corpus'), '--samples', '0', '--agent', agent, '--run-dir', path.join(dir, out), '--quiet'], { cwd: dir });
    expect((await phase1('mock-random', 'a')).code).toBe(0);
    expect((await phase1('mock-perfect', 'b')).code).toBe(0);
    const refused = await runSmi(['compare', 'a', 'b', '--json'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error_code: 'SPECS_DIFFER', message: expect.stringMatching(/agent/) });
    const r = await runSmi(['compare', 'a', 'b', '--allow', 'agent', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout) as {
      packages_common: number;
      broken: string[];
      fixed: string[];
      mean_a: number;
      mean_b: number;
      delta: number;
      delta_ci95: [number, number];
      spec_differences: string[];
    };
    expect(c.packages_common).toBe(12);
    expect(c.broken).toEqual([]);
    expect(c.fixed.length).toBeGreaterThan(0);
    expect(c.mean_b).toBe(1);
    expect(c.delta).toBeCloseTo(1 - c.mean_a, 10);
    expect(c.delta_ci95[0]).toBeLessThanOrEqual(c.delta);
    expect(c.delta_ci95[1]).toBeGreaterThanOrEqual(c.delta);
    expect(c.spec_differences).toContain('agent');
    const text = await runSmi(['compare', 'a', 'b', '--allow', 'agent'], { cwd: dir });
    expect(text.stdout).toMatch(/mean f1: 0\.\d{3} → 1\.000, delta \+0\.\d{3} \(95% CI/);
    expect((await runSmi(['phase2', '--corpus-root', fixturePath('corpus'), '--samples', '2', '--agent', 'mock-empty', '--run-dir', path.join(dir, 'p2'), '--quiet'], { cwd: dir })).code).toBe(0);
    const mixed = await runSmi(['compare', 'a', 'p2', '--json'], { cwd: dir });
    expect(JSON.parse(mixed.stdout)).toMatchObject({ error_code: 'DIFFERENT_BENCHMARKS' });
  }, 120_000);
});

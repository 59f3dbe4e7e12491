/** `smi phase2` from the command line: errors that name what is missing, a run directory resumed, the run JSON. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

const CORPUS = fixturePath('corpus');

describeWithFixtures('smi phase2', ['fixtures', 'harness'], () => {
  it('modes that need a fullnode, and a plan agent without plans, are clear errors (exit 2)', async () => {
    const net = await smi('phase2', '--corpus-root', CORPUS, '--simulation-mode', 'dry-run', '--no-log', '--json');
    expect(net.code).toBe(2);
    expect(JSON.parse(net.stdout)).toMatchObject({ status: 'error', error_code: 'NEEDS_NETWORK' });
    const plans = await smi('phase2', '--corpus-root', CORPUS, '--agent', 'mock-planfile', '--no-log');
    expect(plans.code).toBe(2);
    expect(plans.stderr).toMatch(/needs --plan-file/);
    const bad = await smi('phase2', '--corpus-root', CORPUS, '--agent', 'mock-planfile', '--plan-file', fixturePath('corpus', 'manifest.txt'), '--no-log', '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error_code: 'BAD_PLAN_FILE' });
  });

  it('a run directory, resumed after a batch, ends with every package and the original run JSON', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'smi-phase2-')), 'run');
    const first = await smi('phase2', '--corpus-root', CORPUS, '--samples', '0', '--agent', 'baseline-search', '--run-dir', dir, '--max-run-seconds', '0.001', '--quiet', '--json');
    expect([0, 1]).toContain(first.code);
    const again = await smi('phase2', '--corpus-root', CORPUS, '--samples', '0', '--agent', 'baseline-search', '--run-dir', dir, '--resume', '--quiet', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'success', done: 12 });
    const run = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as { schema_version: number; packages: unknown[]; simulation_mode: string };
    expect(run).toMatchObject({ schema_version: 2, simulation_mode: 'local' });
    expect(run.packages).toHaveLength(12);
  }, 120_000);
});

/** `smi phase2` from the command line: errors that name what is missing, a run directory resumed, the run JSON. */
import { canonicalAddress } from '@smi/bytecode';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { promptOf, startFakeOpenAi } from '../../../test-support/fake-openai.js';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { modelEnv } from './support/model-env.js';
import { smi, smiIn } from './support/run-cli.js';
import { runSmi } from './support/spawn-cli.js';

const CORPUS = fixturePath('corpus');

describeWithFixtures('smi phase2', ['fixtures', 'harness'], () => {
  it('options of the node modes used wrongly, and a plan agent without plans, are clear errors (exit 2)', async () => {
    const net = await smi('phase2', '--corpus-root', CORPUS, '--simulation-mode', 'dry-run', '--agent', 'helper-package', '--no-log', '--json');
    expect(net.code).toBe(2);
    expect(JSON.parse(net.stdout)).toMatchObject({ status: 'error', error_code: 'NEEDS_LOCAL' });
    const chain = await smi('phase2', '--corpus-root', CORPUS, '--simulation-mode', 'dry-run', '--agent', 'chain-search', '--no-log', '--json');
    expect(chain.code).toBe(2);
    expect(JSON.parse(chain.stdout)).toMatchObject({ status: 'error', error_code: 'NEEDS_LOCAL' });
    const coin = await smi('phase2', '--corpus-root', CORPUS, '--gas-coin', '0x5', '--no-log', '--json');
    expect(coin.code).toBe(2);
    expect(JSON.parse(coin.stdout)).toMatchObject({ status: 'error', error_code: 'NEEDS_NETWORK' });
    const plans = await smi('phase2', '--corpus-root', CORPUS, '--agent', 'mock-planfile', '--no-log');
    expect(plans.code).toBe(2);
    expect(plans.stderr).toMatch(/needs --plan-file/);
    const bad = await smi('phase2', '--corpus-root', CORPUS, '--agent', 'mock-planfile', '--plan-file', fixturePath('corpus', 'manifest.txt'), '--no-log', '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error_code: 'BAD_PLAN_FILE' });
  });

  it("manifest-filter reads the original's own run JSON (schema_version 1) as ours; another version is exit 2", async () => {
    const golden = fixturePath('fixtures', 'harness', 'tests', 'fixtures', 'phase2_golden_run.json');
    const two = await smi('manifest-filter', golden, '--min-targets', '2');
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toBe('0x0000000000000000000000000000000000000000000000000000000000000001\n');
    const one = await smi('manifest-filter', golden, '--min-targets', '1', '--json');
    expect(JSON.parse(one.stdout)).toMatchObject({ count: 2 });
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-filter-'));
    const v3 = path.join(dir, 'v3.json');
    writeFileSync(v3, JSON.stringify({ schema_version: 3, packages: [] }));
    const bad = await smi('manifest-filter', v3, '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error_code: 'INVALID_FILE' });
  });

  it('--subset is --dataset (the original ignored it); --prefer-signal-package-ids runs results/signal_ids_hit_ge_1.txt, else samples and says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-subset-'));
    // Runs from other directories find the shared data by SMI_FIXTURES, as a user's would.
    const before = process.env.SMI_FIXTURES;
    process.env.SMI_FIXTURES = FIXTURES_ROOT;
    try {
      const idsOf = (file: string): string[] => (JSON.parse(readFileSync(file, 'utf8')) as { packages: { package_id: string }[] }).packages.map((p) => p.package_id);
      // A dataset of three corpus packages, in a manifests directory of our own.
      const manifests = path.join(dir, 'manifests');
      mkdirSync(path.join(manifests, 'datasets'), { recursive: true });
      const three = ['0x2', '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb', '0x1'].map(canonicalAddress);
      writeFileSync(path.join(manifests, 'datasets', 'three.txt'), three.join('\n') + '\n');
      const byDataset = await smi('phase2', '--corpus-root', CORPUS, '--manifests', manifests, '--dataset', 'three', '--samples', '0', '--no-log', '--quiet', '--out', path.join(dir, 'd.json'));
      expect(byDataset.code, byDataset.stderr).toBe(0);
      const bySubset = await smi('phase2', '--corpus-root', CORPUS, '--manifests', manifests, '--subset', 'three', '--samples', '0', '--no-log', '--quiet', '--out', path.join(dir, 's.json'));
      expect(bySubset.code, bySubset.stderr).toBe(0);
      expect(idsOf(path.join(dir, 'd.json'))).toEqual(three);
      expect(idsOf(path.join(dir, 's.json'))).toEqual(three);
      const both = await smi('phase2', '--corpus-root', CORPUS, '--subset', 'a', '--dataset', 'b', '--no-log', '--json');
      expect(both.code).toBe(2);
      // A baseline run's hits become the signal file; a run preferring it does exactly those packages.
      const base = path.join(dir, 'base.json');
      expect((await smi('phase2', '--corpus-root', CORPUS, '--samples', '0', '--agent', 'baseline-search', '--no-log', '--quiet', '--out', base)).code).toBe(0);
      mkdirSync(path.join(dir, 'results'));
      const filtered = await smiIn(dir, 'manifest-filter', base, '--min-targets', '1', '--min-hits', '1', '--out-manifest', path.join('results', 'signal_ids_hit_ge_1.txt'));
      expect(filtered.code, filtered.stderr).toBe(0);
      const signal = readFileSync(path.join(dir, 'results', 'signal_ids_hit_ge_1.txt'), 'utf8')
        .trim()
        .split('\n');
      const hit = (JSON.parse(readFileSync(base, 'utf8')) as { packages: { package_id: string; score: { created_hits: number } }[] }).packages
        .filter((p) => p.score.created_hits > 0)
        .map((p) => p.package_id);
      expect(signal).toEqual(hit);
      const preferred = await smiIn(dir, 'phase2', '--corpus-root', CORPUS, '--prefer-signal-package-ids', '--samples', '0', '--no-log', '--quiet', '--out', 'p.json');
      expect(preferred.code, preferred.stderr).toBe(0);
      expect(idsOf(path.join(dir, 'p.json'))).toEqual(signal);
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'smi-nosignal-'));
      const sampled = await smiIn(elsewhere, 'phase2', '--corpus-root', CORPUS, '--prefer-signal-package-ids', '--samples', '2', '--no-log', '--out', 'p.json');
      expect(sampled.code).toBe(0);
      expect(sampled.stderr).toMatch(/signal_ids_hit_ge_1\.txt does not exist; sampling instead/);
      expect(idsOf(path.join(elsewhere, 'p.json'))).toHaveLength(2);
    } finally {
      if (before === undefined) delete process.env.SMI_FIXTURES;
      else process.env.SMI_FIXTURES = before;
    }
  }, 120_000);

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

  it('a model agent from the command line: progressive exposure, calls cached, a rerun answered from the cache; no model configured is exit 2', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-phase2-llm-'));
    const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';
    const server = await startFakeOpenAi((req) =>
      promptOf(req).includes('### Progressive Exposure') && req.index === 0
        ? { content: null, toolCalls: [{ name: 'need_more', arguments: JSON.stringify({ targets: [`${ORACLE}::oracle`] }) }] }
        : { content: JSON.stringify({ calls: [] }) },
    );
    try {
      const args = [
        'phase2',
        '--corpus-root',
        CORPUS,
        '--package-ids-file',
        '-',
        '--samples',
        '0',
        '--agent',
        'real-openai-compatible',
        '--max-plan-attempts',
        '2',
        '--epochs',
        '2',
        '--json',
        '--quiet',
      ];
      const first = await runSmi([...args, '--run-dir', path.join(dir, 'a')], { stdin: `${ORACLE}\n`, env: modelEnv(server.url, path.join(dir, 'cache')), cwd: dir });
      expect(first.code, first.stderr).toBe(0);
      const summary = JSON.parse(first.stdout) as { status: string; aggregate: { epochs: number; pass_at_k: Record<string, number>; packages_total: number } };
      expect(summary).toMatchObject({ status: 'success', aggregate: { epochs: 2, packages_total: 1 } });
      const calls = server.requests.length;
      // need_more, then a plan per attempt, for each epoch.
      expect(calls).toBeGreaterThanOrEqual(4);
      const run = JSON.parse(readFileSync(path.join(dir, 'a', 'run.json'), 'utf8')) as { packages: { need_more_rounds: number; requested_functions: string[]; epochs: unknown[] }[] };
      expect(run.packages[0].need_more_rounds).toBe(1);
      expect(run.packages[0].requested_functions.length).toBeGreaterThan(0);
      expect(run.packages[0].epochs).toHaveLength(2);
      const again = await runSmi([...args, '--run-dir', path.join(dir, 'b')], { stdin: `${ORACLE}\n`, env: modelEnv(server.url, path.join(dir, 'cache')), cwd: dir });
      expect(again.code, again.stderr).toBe(0);
      expect(server.requests.length).toBe(calls);
      const nomodel = await runSmi(['phase2', '--corpus-root', CORPUS, '--agent', 'helper-package', '--no-log', '--json'], {
        env: { SMI_API_KEY: '', SMI_MODEL: '', SMI_API_BASE_URL: '', OPENAI_API_KEY: '', OPENROUTER_API_KEY: '' },
        cwd: dir,
      });
      expect(nomodel.code).toBe(2);
      expect(JSON.parse(nomodel.stdout)).toMatchObject({ status: 'error' });
    } finally {
      await server.close();
    }
  }, 180_000);
});

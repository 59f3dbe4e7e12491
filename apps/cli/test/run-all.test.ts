/**
 * `smi run-all` through the built binary: Phase I (mock-empty), the Phase II manifest and
 * Phase II (baseline-search) into one directory, the files named as the original named
 * them, one JSON summary line; bad input stops before anything runs; Ctrl-C keeps what
 * the finished stages wrote.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRunJson } from '@smi/harness';
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { CLI, REPO, requireBuiltCli, runSmi } from './support/spawn-cli.js';

const CORPUS = fixturePath('corpus');
const FILES = ['phase1.json', 'phase2_ids.txt', 'phase2_plan.json', 'phase2_viability.json', 'phase2_execution.json'];

const scratch = (): string => path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-run-all-')), 'out');

interface PhaseSummary {
  status: string;
  stop_reason: string | null;
  packages: number;
  done: number;
  aggregate: Record<string, unknown>;
}

interface Summary {
  status: string;
  stopped_at: string | null;
  stop_reason: string | null;
  out_dir: string;
  files: Record<string, string | null>;
  phase1: PhaseSummary | null;
  manifest: { selected: number; packages_total: number } | null;
  phase2: PhaseSummary | null;
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

describeWithFixtures('smi run-all', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());

  it('runs Phase I, the manifest and Phase II into --out-dir and prints one JSON summary line', async () => {
    const out = scratch();
    const r = await runSmi(['run-all', '--corpus-root', CORPUS, '--out-dir', out, '--samples', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    for (const f of FILES) expect(existsSync(path.join(out, f)), f).toBe(true);

    // Phase I: a valid run JSON (its fields and checksum checked) of the mock-empty agent over the whole corpus.
    const p1 = parseRunJson(readFileSync(path.join(out, 'phase1.json'), 'utf8'), 'phase1.json', { phase: 1 });
    expect(p1).toMatchObject({ schema_version: 1, agent: 'mock-empty' });
    expect((p1.packages as unknown[]).length).toBe(12);

    // The manifest: ids, their plans, the viability report.
    const ids = readFileSync(path.join(out, 'phase2_ids.txt'), 'utf8').trim().split('\n');
    expect(ids.length).toBeGreaterThan(0);
    expect(Object.keys(readJson(path.join(out, 'phase2_plan.json'))).sort()).toEqual([...ids].sort());
    expect(readJson(path.join(out, 'phase2_viability.json'))).toMatchObject({ stats: { packages_total: 12, packages_selected: ids.length } });

    // Phase II: baseline-search on exactly the manifest's packages, simulated locally.
    const p2 = parseRunJson(readFileSync(path.join(out, 'phase2_execution.json'), 'utf8'), 'phase2_execution.json', { phase: 2 });
    expect(p2).toMatchObject({ schema_version: 2, agent: 'baseline-search', simulation_mode: 'local' });
    expect((p2.packages as { package_id: string }[]).map((p) => p.package_id).sort()).toEqual([...ids].sort());

    // The summary line: the paths and both aggregates, as the files hold them.
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const s = JSON.parse(lines[0]) as Summary;
    expect(s).toMatchObject({ status: 'success', stopped_at: null, stop_reason: null, out_dir: out, manifest: { selected: ids.length, packages_total: 12 } });
    expect(s.files).toEqual({
      phase1: path.join(out, 'phase1.json'),
      phase2_ids: path.join(out, 'phase2_ids.txt'),
      phase2_plan: path.join(out, 'phase2_plan.json'),
      phase2_viability: path.join(out, 'phase2_viability.json'),
      phase2_execution: path.join(out, 'phase2_execution.json'),
    });
    expect(s.phase1).toMatchObject({ status: 'success', packages: 12, done: 12 });
    expect(s.phase1?.aggregate).toEqual(JSON.parse(JSON.stringify(readJson(path.join(out, 'phase1.json')).aggregate)));
    expect(s.phase2).toMatchObject({ status: 'success', packages: ids.length, done: ids.length });
    expect(s.phase2?.aggregate).toEqual(JSON.parse(JSON.stringify(readJson(path.join(out, 'phase2_execution.json')).aggregate)));

    // Progress on stderr, stage by stage.
    expect(r.stderr).toMatch(/^run-all: phase1 \(1\/3\): 12 packages, agent mock-empty$/m);
    expect(r.stderr).toMatch(/^run-all: phase1 done → /m);
    expect(r.stderr).toMatch(/^run-all: phase2-manifest \(2\/3\) done: \d+ of 12 packages have a candidate plan/m);
    expect(r.stderr).toMatch(/^run-all: phase2 \(3\/3\): \d+ packages, agent baseline-search, simulation local$/m);
    expect(r.stderr).toMatch(/^run-all: done; results in /m);
  }, 120_000);

  it('--samples limits Phase I and the manifest; --simulation-mode build-only; --quiet prints nothing but the summary', async () => {
    const out = scratch();
    const r = await runSmi(['run-all', '--corpus-root', CORPUS, '--out-dir', out, '--samples', '3', '--simulation-mode', 'build-only', '--quiet', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.phase1).toMatchObject({ packages: 3 });
    expect(s.manifest?.packages_total).toBe(3);
    const p2 = readJson(path.join(out, 'phase2_execution.json'));
    expect(p2).toMatchObject({ simulation_mode: 'build-only', agent: 'baseline-search' });
    expect((p2.packages as unknown[]).length).toBe(s.manifest?.selected);
  }, 120_000);

  it('bad input is exit 2 with a clear error before anything runs, --out-dir left unmade', async () => {
    const out = scratch();
    const [noOut, noCorpus, network, sender, samples] = await Promise.all([
      runSmi(['run-all', '--corpus-root', CORPUS, '--json']),
      runSmi(['run-all', '--corpus-root', path.join(os.tmpdir(), 'smi-no-such-corpus'), '--out-dir', out, '--json']),
      runSmi(['run-all', '--corpus-root', CORPUS, '--out-dir', out, '--simulation-mode', 'dry-run', '--json']),
      runSmi(['run-all', '--corpus-root', CORPUS, '--out-dir', out, '--sender', 'alice']),
      runSmi(['run-all', '--corpus-root', CORPUS, '--out-dir', out, '--samples', '-1', '--json']),
    ]);
    expect(JSON.parse(noOut.stdout)).toMatchObject({ status: 'error', error_code: 'MISSING_ARGUMENT' });
    expect(JSON.parse(noOut.stdout).message).toMatch(/--out-dir/);
    expect(JSON.parse(noCorpus.stdout)).toMatchObject({ status: 'error', error_code: 'NOT_A_DIRECTORY' });
    expect(JSON.parse(network.stdout)).toMatchObject({ status: 'error', error_code: 'NEEDS_NETWORK' });
    expect(sender.stderr).toBe('smi: error: --sender alice: not an address\n');
    expect(JSON.parse(samples.stdout)).toMatchObject({ status: 'error', error_code: 'INVALID_NUMBER' });
    for (const r of [noOut, noCorpus, network, sender, samples]) expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  it('Ctrl-C stops at the next stage (exit 130); the files of the finished stages are kept', async () => {
    const out = scratch();
    const child = spawn(process.execPath, [CLI, 'run-all', '--corpus-root', CORPUS, '--out-dir', out, '--samples', '0', '--json'], {
      cwd: REPO,
      env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT },
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('run-all: phase1 (1/3)')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code, stderr).toBe(130);
    const s = JSON.parse(stdout) as Summary;
    expect(s).toMatchObject({ status: 'stopped', stop_reason: 'interrupted' });
    expect(s.files.phase1).toBe(path.join(out, 'phase1.json'));
    expect(s.files.phase2_execution).toBeNull();
    expect(existsSync(path.join(out, 'phase2_execution.json'))).toBe(false);
    expect(parseRunJson(readFileSync(path.join(out, 'phase1.json'), 'utf8'), 'phase1.json', { phase: 1 })).toMatchObject({ agent: 'mock-empty' });
    expect(stderr).toMatch(/^run-all: stopped at [a-z0-9-]+ \(interrupted\)/m);
  }, 120_000);
});

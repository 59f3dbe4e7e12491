/**
 * `smi conformance ir-vm` and `smi conformance ir-compiler`: the upstream IR transactional
 * suites from the command line (`--json`, `--filter`, `--no-verify`, text summary).
 */
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

interface Summary {
  suite: string;
  files: number;
  tasks: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: { file: string; task: string; expected: string; got: string }[];
  skips: { file: string; task: string; reason: string }[];
  notes: string[];
}

const IR_VM = ['fixtures', 'ir-tests', 'move-vm-transactional-tests'];
const IR_COMPILER = ['fixtures', 'ir-tests', 'move-ir-compiler-transactional-tests'];

describeWithFixtures('smi conformance ir-vm', IR_VM, () => {
  it('--json prints one line: the whole suite', async () => {
    const r = await smi('conformance', 'ir-vm', '--json', '--dir', fixturePath(...IR_VM));
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const s = JSON.parse(r.stdout) as Summary;
    expect(Object.keys(s).slice(0, 7)).toEqual(['suite', 'files', 'tasks', 'passed', 'failed', 'skipped', 'failures']);
    expect(s).toMatchObject({ suite: 'ir-vm', files: 114, tasks: 377, passed: 377, failed: 0, skipped: 0, failures: [] });
  });

  it('--filter, --no-verify and the text summary', async () => {
    const r = await smi('conformance', 'ir-vm', '--filter', 'borrow_in_loop', '--no-verify', '--quiet', '--dir', fixturePath(...IR_VM));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('ir-vm: 1 files, 3 tasks, 0 passed, 0 failed, 3 skipped');
    expect(r.stdout).toContain('skip tests/references/borrow_in_loop.mvir task 0: the bytecode verifier rejects this module upstream');
    const verified = await smi('conformance', 'ir-vm', '--filter', 'borrow_in_loop', '--json', '--dir', fixturePath(...IR_VM));
    expect(JSON.parse(verified.stdout)).toMatchObject({ files: 1, tasks: 3, passed: 3, failed: 0, skipped: 0 });
  });

  it('a missing suite directory is bad input: exit 2', async () => {
    const r = await smi('conformance', 'ir-vm', '--dir', fixturePath('fixtures', 'no-such-suite'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/suite directory not found/);
  });
});

describeWithFixtures('smi conformance ir-compiler', IR_COMPILER, () => {
  it('--json: every task of the IR compiler suite matches', async () => {
    const r = await smi('conformance', 'ir-compiler', '--json', '--dir', fixturePath(...IR_COMPILER));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ suite: 'ir-compiler', files: 48, tasks: 94, passed: 94, failed: 0, skipped: 0, failures: [] });
  });
});

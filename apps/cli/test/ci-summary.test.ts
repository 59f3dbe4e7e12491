/**
 * .ci/summary.mjs, CI's reading of vitest's JSON report: under CI a skipped or todo test fails
 * the run and is named; outside CI it is only listed; failed tests always fail it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = path.join(REPO, '.ci', 'summary.mjs');

type Status = 'passed' | 'failed' | 'pending' | 'todo';

/** A vitest JSON report with one file holding `tests`. */
function report(tests: [title: string, status: Status][]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'smi-ci-summary-'));
  const file = path.join(dir, 'vitest.json');
  const count = (s: Status): number => tests.filter(([, t]) => t === s).length;
  writeFileSync(
    file,
    JSON.stringify({
      numPassedTests: count('passed'),
      numFailedTests: count('failed'),
      numPendingTests: count('pending'),
      numTodoTests: count('todo'),
      testResults: [
        {
          name: path.join(REPO, 'packages/x/test/a.test.ts'),
          status: count('failed') > 0 ? 'failed' : 'passed',
          assertionResults: tests.map(([title, status]) => ({ ancestorTitles: ['suite'], title, fullName: `suite ${title}`, status })),
        },
      ],
    }),
  );
  return file;
}

function summary(file: string, env: Record<string, string>): { code: number | null; out: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CI' && k !== 'SMI_REQUIRE_FIXTURES'));
  const r = spawnSync(process.execPath, [SCRIPT, file], { cwd: REPO, env: { ...clean, ...env }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('.ci/summary.mjs', () => {
  const skipped = report([
    ['runs', 'passed'],
    ['needs fixtures', 'pending'],
    ['later', 'todo'],
  ]);

  it('under CI (SMI_REQUIRE_FIXTURES=1 or CI=true) a skipped or todo test fails the run, named', () => {
    for (const env of [{ SMI_REQUIRE_FIXTURES: '1' }, { CI: 'true' }] as Record<string, string>[]) {
      const r = summary(skipped, env);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain('Tests: 1 passed, 0 failed, 2 skipped');
      expect(r.out).toContain('packages/x/test/a.test.ts > suite needs fixtures');
      expect(r.out).toContain('packages/x/test/a.test.ts > suite later (todo)');
    }
  });

  it('outside CI skipped tests are listed and the run passes; a failed test fails it, named', () => {
    const r = summary(skipped, {});
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('suite needs fixtures');
    const failed = summary(
      report([
        ['runs', 'passed'],
        ['breaks', 'failed'],
      ]),
      {},
    );
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('Tests: 1 passed, 1 failed, 0 skipped');
    expect(failed.out).toContain('packages/x/test/a.test.ts > suite breaks');
  });

  it('all passed under CI: exit 0', () => {
    const r = summary(report([['runs', 'passed']]), { CI: 'true' });
    expect(r.code, r.out).toBe(0);
    expect(r.out.trim()).toBe('Tests: 1 passed, 0 failed, 0 skipped');
  });
});

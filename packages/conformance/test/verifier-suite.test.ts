import { expect, it } from 'vitest';
import { runIrVmSuite } from '@smi/conformance';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const SUITE = ['fixtures', 'ir-tests', 'bytecode-verifier-transactional-tests'];

describeWithFixtures('verifier: bytecode-verifier-transactional-tests', SUITE, () => {
  it('publishes every module through our verifier and matches the snapshots', async () => {
    const s = await runIrVmSuite(fixturePath(...SUITE), { suite: 'verifier', frameworkDir: fixturePath('fixtures', 'framework') });
    // eslint-disable-next-line no-console
    console.log(`verifier: ${s.files} files, ${s.tasks} tasks, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n${s.notes.join('\n')}`);
    expect(s.suite).toBe('verifier');
    expect(s.failures.map((f) => `${f.file} ${f.task}`)).toEqual([]);
    // Skipped: `view-abstract-state` prints the reference-safety checker's internal state.
    expect(new Set(s.skips.map((k) => k.reason))).toEqual(new Set(["the runner does not support the 'view-abstract-state' command"]));
    expect(s.passed / s.tasks).toBeGreaterThanOrEqual(0.8);
    expect(s.passed).toBe(1396);
  });
});

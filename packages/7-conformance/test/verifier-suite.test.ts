import { expect, it } from 'vitest';
import { runIrVmSuite } from '@smi/conformance';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const SUITE = ['fixtures', 'ir-tests', 'bytecode-verifier-transactional-tests'];

describeWithFixtures('verifier: bytecode-verifier-transactional-tests', SUITE, () => {
  it('publishes every module through our verifier and matches the snapshots', async () => {
    const s = await runIrVmSuite(fixturePath(...SUITE), { suite: 'verifier', frameworkDir: fixturePath('fixtures', 'framework') });
    console.log(`verifier: ${s.files} files, ${s.tasks} tasks, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n${s.notes.join('\n')}`);
    expect(s.suite).toBe('verifier');
    expect(s.failures.map((f) => `${f.file} ${f.task}`)).toEqual([]);
    // Every task runs, and every transcript is the snapshot byte for byte (`view-abstract-state`
    // answers as upstream's runner does under the default reference-safety analysis).
    expect(s.skipped).toBe(0);
    expect(s.passed).toBe(s.tasks);
    expect(s.tasks).toBe(1430);
    expect(s.notes).toContain(`${s.files} of ${s.files} transcripts are byte-identical to the snapshots`);
  });
});

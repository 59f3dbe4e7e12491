/**
 * The `ir-compiler` suite: upstream's `move-ir-compiler-transactional-tests` through
 * `@smi/move-ir`'s runner, summarised as `smi conformance ir-compiler` reports it.
 */
import { expect, it } from 'vitest';
import { runIrCompilerSuite } from '@smi/conformance';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const SUITE = ['fixtures', 'ir-tests', 'move-ir-compiler-transactional-tests'];

describeWithFixtures('ir-compiler: move-ir-compiler-transactional-tests', SUITE, () => {
  it('matches every task of every snapshot', async () => {
    const s = await runIrCompilerSuite(fixturePath(...SUITE));
    console.log(`ir-compiler: ${s.files} files, ${s.tasks} tasks, ${s.passed} passed, ${s.failed} failed\n${s.notes.join('\n')}`);
    expect({ suite: s.suite, files: s.files, tasks: s.tasks, passed: s.passed, failed: s.failed, skipped: s.skipped }).toEqual({
      suite: 'ir-compiler',
      files: 48,
      tasks: 94,
      passed: 94,
      failed: 0,
      skipped: 0,
    });
    expect(s.failures).toEqual([]);
    expect(s.notes).toEqual(['48 of 48 transcripts are byte-identical to the snapshots']);
  });

  it('--filter keeps the files whose path contains it', async () => {
    const all = await runIrCompilerSuite(fixturePath(...SUITE));
    const some = await runIrCompilerSuite(fixturePath(...SUITE), { filter: 'bytecode-generation/' });
    expect(some.files).toBeGreaterThan(0);
    expect(some.files).toBeLessThan(all.files);
    const seen: string[] = [];
    await runIrCompilerSuite(fixturePath(...SUITE), { filter: 'bytecode-generation/', onFile: (f) => seen.push(f) });
    expect(seen.length).toBe(some.files);
    expect(seen.every((f) => f.includes('bytecode-generation/'))).toBe(true);
  });
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runIrVmSuite } from '@smi/conformance';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const OWN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ir');

describeWithFixtures('our own Move IR tests (test/ir)', ['fixtures', 'framework'], () => {
  it('every task matches its reviewed snapshot', async () => {
    const s = await runIrVmSuite(OWN, { suite: 'own-ir', frameworkDir: fixturePath('fixtures', 'framework') });
    expect(s.failures).toEqual([]);
    expect(s.skipped).toBe(0);
    expect(s.files).toBeGreaterThanOrEqual(2);
    expect(s.passed).toBe(s.tasks);
  });
});

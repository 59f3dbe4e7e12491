/**
 * The upstream `move-ir-compiler-transactional-tests` suite: every `.mvir` file is run
 * task by task (assemble, disassemble with source names, publish) and each task's output
 * is compared with the `.snap` beside it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { checkAgainstSnapshot } from '@smi/move-ir';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const SUITE = ['fixtures', 'ir-tests', 'move-ir-compiler-transactional-tests'];

function mvirFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) return mvirFiles(p);
      return p.endsWith('.mvir') ? [p] : [];
    });
}

describeWithFixtures('move-ir-compiler-transactional-tests', SUITE, () => {
  it('matches the snapshots task by task', () => {
    const root = fixturePath(...SUITE);
    const files = mvirFiles(root);
    let tasks = 0;
    let matched = 0;
    const failures: string[] = [];
    for (const file of files) {
      const check = checkAgainstSnapshot(readFileSync(file, 'utf8'), readFileSync(file.replace(/\.mvir$/, '.snap'), 'utf8'));
      const rel = path.relative(root, file);
      if (!check.processedMatches) failures.push(`${rel}: task count differs from the snapshot`);
      for (const c of check.comparisons) {
        tasks++;
        if (c.matched) matched++;
        else failures.push(`${rel} task ${c.number}: ${c.reason}\n--- expected\n${c.expected ?? '(none)'}\n--- actual\n${c.actual ?? '(none)'}`);
      }
    }
    console.log(`files ${files.length}, tasks ${tasks}, matched ${matched}`);
    if (failures.length > 0) console.log(failures.join('\n\n'));
    expect({ files: files.length, tasks, matched }).toEqual({ files: 48, tasks: 94, matched: 94 });
    expect(failures).toEqual([]);
  });
});

/**
 * The `ir-compiler` suite: upstream's `move-ir-compiler-transactional-tests`. Every `.mvir`
 * file runs task by task on `@smi/move-ir`'s runner (assemble, disassemble with the source
 * names upstream's source map gives, publish) and each task's output is compared with the
 * `.snap` beside it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkAgainstSnapshot } from '@smi/move-ir';
import { findMvirFiles } from './ir-vm.js';
import { emptySummary, type SuiteOptions, type SuiteSummary, untilStopped } from './summary.js';

/**
 * Runs the suite under `dir` (the folder holding `tests/`, or `tests/` itself). A task
 * passes when its output equals the snapshot's (trailing whitespace aside); a file whose
 * task count differs from the snapshot's `processed N tasks` is reported as a failure of
 * task `count`.
 */
export async function runIrCompilerSuite(dir: string, options: SuiteOptions = {}): Promise<SuiteSummary> {
  const files = findMvirFiles(dir).filter((f) => options.filter === undefined || path.relative(dir, f).includes(options.filter));
  const summary = emptySummary('ir-compiler');
  let identical = 0;
  let run = 0;
  for await (const [i, f] of untilStopped(files, summary, options.signal)) {
    run++;
    const rel = path.relative(dir, f);
    const snapText = readFileSync(f.replace(/\.mvir$/, '.snap'), 'utf8');
    const check = checkAgainstSnapshot(readFileSync(f, 'utf8'), snapText);
    if (!check.processedMatches) {
      summary.tasks++;
      summary.failed++;
      summary.failures.push({ file: rel, task: 'count', expected: 'the snapshot task count', got: `${check.outcomes.length} tasks` });
    }
    for (const c of check.comparisons) {
      summary.tasks++;
      if (c.matched) summary.passed++;
      else {
        summary.failed++;
        summary.failures.push({ file: rel, task: `task ${c.number}`, expected: c.expected ?? '(no output)', got: `${c.actual ?? '(no output)'}\n[${c.reason}]` });
      }
    }
    const body = snapText.replace(/\r\n/g, '\n').replace(/^---\n[\s\S]*?\n---\n/, '');
    if (body.trimEnd() === check.transcript.trimEnd()) identical++;
    options.onFile?.(rel, i + 1, files.length);
  }
  summary.files = run;
  summary.notes.push(`${identical} of ${run} transcripts are byte-identical to the snapshots`);
  return summary;
}

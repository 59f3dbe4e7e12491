/**
 * The `ir-vm` suite: upstream's `move-vm-transactional-tests` (`.mvir` files and their
 * `.snap` transcripts) run on our assembler and VM through {@link IrVmAdapter}, with Sui's
 * move-stdlib at 0x1 standing in for the core Move stdlib upstream compiles from source.
 *
 * A task passes when its observable outcome matches the snapshot: the same output, or —
 * for errors — the same error block up to its `message` line (status, sub-status,
 * location, indices and offsets must agree; messages are counted apart, in `notes`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadBundleFile, type MovePackage } from '@smi/bytecode';
import { parseSnapshot, runTransactionalTestFile, type TaskOutcome } from '@smi/move-ir';
import { IrVmAdapter, type ModuleVerifier } from './ir-vm-adapter.js';
import { bytecodeVerifier } from './ir-vm-verifier.js';
import { emptySummary, type SuiteOptions, type SuiteSummary, untilStopped } from './summary.js';

/** Options of {@link runIrVmSuite}. */
export interface IrVmSuiteOptions extends SuiteOptions {
  /** Folder of the framework bundles (`move-stdlib` is read from it). */
  frameworkDir: string;
  /**
   * The bytecode verifier run at publish: default {@link bytecodeVerifier} (upstream's test
   * limits); `null` publishes unverified (tasks that need the verifier are then skipped).
   */
  verifier?: ModuleVerifier | null;
  /** Name of the suite in the summary (default `ir-vm`; the verifier suite runs through here too). */
  suite?: string;
}

const UNSUPPORTED = /^Error: unsupported command '([^']+)'/;

/** The verdict on one task. */
export interface IrTaskVerdict {
  file: string;
  task: number;
  status: 'pass' | 'fail' | 'skip';
  /** Why it failed or was skipped; for passes, `message differs` when only that did. */
  reason: string;
  expected: string | undefined;
  got: string | undefined;
}

/** Every `.mvir` file under `dir`, sorted, as absolute paths. */
export function findMvirFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) return findMvirFiles(p);
      return p.endsWith('.mvir') ? [p] : [];
    });
}

/** Snapshots without a `.mvir` beside them (upstream's Move-source tests), relative to `dir`. */
export function snapshotsWithoutIr(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((e) => {
        const p = path.join(d, e);
        if (statSync(p).isDirectory()) return walk(p);
        if (p.endsWith('@regex.snap')) return [];
        return p.endsWith('.snap') && !statSync(p.replace(/\.snap$/, '.mvir'), { throwIfNoEntry: false }) ? [p] : [];
      });
  return walk(dir).map((p) => path.relative(dir, p));
}

/** Snapshots of upstream's regex-based reference-safety configuration (`<test>@regex.snap`), relative to `dir`. */
function regexSnapshots(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((e) => {
        const p = path.join(d, e);
        return statSync(p).isDirectory() ? walk(p) : p.endsWith('@regex.snap') ? [p] : [];
      });
  return walk(dir).map((p) => path.relative(dir, p));
}

/** The parts of an `Error: ...VMError: {..}` output that must agree. */
interface ErrorBlock {
  prefix: string;
  majorStatus: string;
  subStatus: string;
  location: string;
  indices: string;
  offsets: string;
  message: string | undefined;
}

const BLOCK = /^([\s\S]*?)\{\n {4}major_status: (\w+),\n {4}sub_status: (.*),\n {4}location: (.*),\n {4}indices: (.*),\n {4}offsets: (.*),(?:\n {4}message: (.*),)?\n\}$/;

/** Reads the VMError block of an output, or `undefined` when it has none. */
export function parseErrorBlock(output: string): ErrorBlock | undefined {
  const m = BLOCK.exec(output.trimEnd());
  if (m === null) return undefined;
  return { prefix: m[1], majorStatus: m[2], subStatus: m[3], location: m[4], indices: m[5], offsets: m[6], message: m[7] };
}

/**
 * Compares one task's output with the snapshot's: `reason` is empty when they agree, and
 * `messageOnly` tells that only the error message differs.
 */
export function compareTaskOutput(expected: string | undefined, got: string | undefined): { reason: string; messageOnly: boolean } {
  const e = expected?.trimEnd();
  const g = got?.trimEnd();
  if (e === g) return { reason: '', messageOnly: false };
  if (e === undefined) return { reason: 'unexpected output (the snapshot has none)', messageOnly: false };
  if (g === undefined) return { reason: 'no output (the snapshot has some)', messageOnly: false };
  const eb = parseErrorBlock(e);
  const gb = parseErrorBlock(g);
  if (eb === undefined || gb === undefined) return { reason: 'output differs', messageOnly: false };
  for (const key of ['prefix', 'majorStatus', 'subStatus', 'location', 'indices', 'offsets'] as const) {
    if (eb[key] !== gb[key]) return { reason: `${key} differs: expected ${eb[key]}, got ${gb[key]}`, messageOnly: false };
  }
  return { reason: '', messageOnly: true };
}

const PUBLISH_FAILED = /^Error: Unable to publish module '[0-9a-f]{64}::\w+'\. Got VMError: /;

/** The result of one file: a verdict per task, and whether the whole transcript is the snapshot's. */
export interface IrVmFileRun {
  verdicts: IrTaskVerdict[];
  transcriptIdentical: boolean;
}

/**
 * Runs one file and judges each task against the snapshot (`snapText`, the `.snap` file).
 * `verifier`: default {@link bytecodeVerifier}, `null` for none. Without a verifier, a task
 * whose module the snapshot shows rejected at publish (with a status other than those of
 * the natives and linkage checks this runner makes itself) is skipped, and so is every
 * later failing task of the file: they depend on it.
 */
export function runIrVmFile(text: string, snapText: string, file: string, stdlib: MovePackage, verifier: ModuleVerifier | null = bytecodeVerifier()): IrVmFileRun {
  let adapter: IrVmAdapter | undefined;
  const run = runTransactionalTestFile(text, (init) => {
    adapter = new IrVmAdapter({ stdlib, verifier }, init);
    return adapter;
  });
  const snapshot = parseSnapshot(snapText);
  const byNumber = new Map(snapshot.tasks.map((t) => [t.number, t]));
  let needsVerifier: number | undefined;
  const verdicts = run.outcomes.map(({ task, output }: TaskOutcome): IrTaskVerdict => {
    const expected = byNumber.get(task.number)?.output;
    const verdict = (status: IrTaskVerdict['status'], reason: string): IrTaskVerdict => ({ file, task: task.number, status, reason, expected, got: output });
    const skip = adapter?.skips.get(task.number);
    if (skip !== undefined) return verdict('skip', skip);
    const { reason, messageOnly } = compareTaskOutput(expected, output);
    if (reason === '') return verdict('pass', messageOnly ? 'message differs' : '');
    if (verifier === null) {
      const status = expected === undefined ? undefined : parseErrorBlock(expected)?.majorStatus;
      if (expected !== undefined && PUBLISH_FAILED.test(expected) && status !== 'MISSING_DEPENDENCY' && !PUBLISH_FAILED.test(output ?? '')) {
        needsVerifier ??= task.number;
        return verdict('skip', `the bytecode verifier rejects this module upstream (${status ?? '?'}); no verifier was given`);
      }
      if (needsVerifier !== undefined) {
        return verdict('skip', `depends on task ${needsVerifier}, whose module the bytecode verifier rejects upstream; no verifier was given`);
      }
    }
    return verdict('fail', reason);
  });
  const body = snapText.replace(/\r\n/g, '\n').replace(/^---\n[\s\S]*?\n---\n/, '');
  // insta stores snapshots without their trailing newlines.
  return { verdicts, transcriptIdentical: body.trimEnd() === run.transcript.trimEnd() };
}

/**
 * Runs the `move-vm-transactional-tests` suite under `dir` (the folder holding `tests/`,
 * or `tests/` itself). Failures carry the task as `task K`.
 */
export async function runIrVmSuite(dir: string, options: IrVmSuiteOptions): Promise<SuiteSummary & { verdicts: IrTaskVerdict[] }> {
  const stdlib = loadBundleFile(path.join(options.frameworkDir, 'move-stdlib'));
  const files = findMvirFiles(dir).filter((f) => options.filter === undefined || path.relative(dir, f).includes(options.filter));
  const summary = emptySummary(options.suite ?? 'ir-vm');
  const verdicts: IrTaskVerdict[] = [];
  const verifier = options.verifier === null ? null : (options.verifier ?? bytecodeVerifier());
  let identical = 0;
  let run = 0;
  for await (const [i, f] of untilStopped(files, summary, options.signal)) {
    run++;
    const rel = path.relative(dir, f);
    const fileRun = runIrVmFile(readFileSync(f, 'utf8'), readFileSync(f.replace(/\.mvir$/, '.snap'), 'utf8'), rel, stdlib, verifier);
    verdicts.push(...fileRun.verdicts);
    if (fileRun.transcriptIdentical) identical++;
    options.onFile?.(rel, i + 1, files.length);
  }
  summary.files = run;
  summary.tasks = verdicts.length;
  let messageOnly = 0;
  for (const v of verdicts) {
    // A command the runner cannot express yet is a skip, not a failure.
    const unsupported = v.status === 'fail' && v.got !== undefined ? UNSUPPORTED.exec(v.got) : null;
    if (unsupported) {
      v.status = 'skip';
      v.reason = `the runner does not support the '${unsupported[1]}' command`;
    }
    if (v.status === 'pass') {
      summary.passed++;
      if (v.reason === 'message differs') messageOnly++;
    } else if (v.status === 'skip') {
      summary.skipped++;
      summary.skips.push({ file: v.file, task: `task ${v.task}`, reason: v.reason });
    } else {
      summary.failed++;
      summary.failures.push({ file: v.file, task: `task ${v.task}`, expected: v.expected ?? '(no output)', got: `${v.got ?? '(no output)'}\n[${v.reason}]` });
    }
  }
  summary.notes.push(`${identical} of ${run} transcripts are byte-identical to the snapshots`);
  summary.notes.push(`${messageOnly} passing tasks differ from the snapshot only in the error's message line`);
  if (verifier === null) summary.notes.push('modules were published without bytecode verification');
  const moveTests = snapshotsWithoutIr(dir).filter((f) => options.filter === undefined || f.includes(options.filter));
  if (moveTests.length > 0) summary.notes.push(`${moveTests.length} snapshots of Move-source tests (no .mvir beside them) are not part of this suite`);
  const regex = regexSnapshots(dir).filter((f) => options.filter === undefined || f.includes(options.filter));
  if (regex.length > 0) summary.notes.push(`${regex.length} @regex snapshots (upstream's alternative, regex-based reference-safety analysis) are not part of this suite`);
  return { ...summary, verdicts };
}

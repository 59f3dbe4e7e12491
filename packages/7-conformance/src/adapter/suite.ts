/**
 * The `adapter` suite: upstream's `sui-adapter-transactional-tests` (`.move` files with
 * `//#` tasks and `.snap` transcripts) run on {@link SimulationEnvironment} through the
 * adapter runner, each task judged against its snapshot block ({@link compareTask}).
 *
 * A task the runner cannot run (a task kind it does not model, source the offline
 * compiler cannot build against bytecode stubs) is skipped with its reason, and so is
 * every later task of the file that then fails: it depends on the skipped one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadSnapshotFile, type MovePackage, errorMessage } from '@smi/bytecode';
import { parseSnapshot } from '@smi/move-ir';
import { loadProtocolConfig, type ProtocolConfig } from '@smi/move-vm';
import { loadFrameworkDir } from '@smi/simulation';
import { emptySummary, type SuiteOptions, type SuiteSummary, untilStopped } from '../summary.js';
import { compareTask, expectedOutput, type ComparisonCategory } from './compare.js';
import { runAdapterFile, type AdapterRunnerOptions } from './runner.js';

/** Options of {@link runAdapterSuite}. */
export interface AdapterSuiteOptions extends SuiteOptions {
  /** Fixtures root (`$SMI_FIXTURES`): the framework and protocol configs are read from it. */
  fixturesRoot: string;
  /** On-disk cache of compiled test packages (default: none). */
  cacheDir?: string | null;
  /** Top-level folders to leave out. */
  exclude?: readonly string[];
}

/** The verdict on one task. */
export interface AdapterVerdict {
  file: string;
  task: number;
  status: 'pass' | 'fail' | 'skip';
  reason: string;
  /** The category of a failure or a skip (for the breakdown). */
  category: string;
  expected: string | undefined;
  got: string | undefined;
  gas: 'match' | 'differs' | null;
  eventContents: 'match' | 'differs' | null;
}

/** Counts of one folder. */
export interface FolderCounts {
  files: number;
  tasks: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** The adapter suite's summary: the common shape plus breakdowns. */
export interface AdapterSuiteSummary extends SuiteSummary {
  /** Failures and skips by category. */
  breakdown: { failures: Record<string, number>; skips: Record<string, number> };
  /** Counts per top-level folder. */
  folders: Record<string, FolderCounts>;
  /** Gas lines compared (`matched` of `compared`). */
  gas: { compared: number; matched: number };
}

/** Every `.move` test file under `dir` that has a `.snap` beside it, sorted. */
export function findAdapterTests(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) return findAdapterTests(p);
      return p.endsWith('.move') && statSync(p.replace(/\.move$/, '.snap'), { throwIfNoEntry: false }) ? [p] : [];
    });
}

const ECHOES_BODY = new Set(['programmable', 'bench']);

/** A skip reason's category: its text up to the first colon (or all of it). */
function skipCategory(reason: string): string {
  if (reason.startsWith('depends on task')) return 'depends on a skipped task';
  if (reason.startsWith("the runner does not support the '")) return `unsupported task: ${/'([^']+)'/.exec(reason)?.[1] ?? '?'}`;
  return `unsupported: ${reason.replace(/\d+/g, 'N').slice(0, 80)}`;
}

/** Run one test file and judge its tasks. */
export async function runAdapterTestFile(file: string, rel: string, options: AdapterRunnerOptions): Promise<AdapterVerdict[]> {
  const text = readFileSync(file, 'utf8');
  const snapText = readFileSync(file.replace(/\.move$/, '.snap'), 'utf8');
  const snap = parseSnapshot(snapText);
  const blocks = new Map(snap.tasks.map((t) => [t.number, t.output]));
  // The init task's output is under `init:` rather than a task header.
  const init = /\ninit:\n([\s\S]*?)(?:\n\ntask \d+, |\s*$)/.exec(snapText.replace(/\r\n/g, '\n'));
  if (init !== null) blocks.set(0, init[1].trimEnd());
  let runs;
  try {
    runs = await runAdapterFile(text, options);
  } catch (e) {
    const msg = errorMessage(e);
    return [{ file: rel, task: 0, status: 'fail', reason: `the file did not run: ${msg}`, category: 'runner error', expected: undefined, got: msg, gas: null, eventContents: null }];
  }
  const out: AdapterVerdict[] = [];
  let skipped: { task: number; reason: string } | null = null;
  for (const r of runs) {
    const expected = expectedOutput(blocks.get(r.task.number), r.task.body, ECHOES_BODY.has(r.task.command));
    const base = { file: rel, task: r.task.number, expected, got: r.output, gas: null, eventContents: null };
    if (r.skip !== null) {
      skipped ??= { task: r.task.number, reason: r.skip };
      out.push({ ...base, status: 'skip', reason: r.skip, category: skipCategory(r.skip) });
      continue;
    }
    const c = compareTask(expected, r.output);
    if (c.pass) {
      out.push({ ...base, status: 'pass', reason: '', category: '', gas: c.gas, eventContents: c.eventContents });
    } else if (skipped !== null) {
      const reason = `depends on task ${skipped.task}, which was skipped (${skipped.reason.slice(0, 120)})`;
      out.push({ ...base, status: 'skip', reason, category: skipCategory(reason) });
    } else {
      out.push({ ...base, status: 'fail', reason: c.reason, category: c.category ?? 'output differs', gas: c.gas, eventContents: c.eventContents });
    }
  }
  return out;
}

/** The runner's options for a fixtures root (framework bundles, protocol configs by version). */
export function adapterRunnerOptions(fixturesRoot: string, cacheDir: string | null = null): AdapterRunnerOptions {
  const latest: MovePackage[] = loadFrameworkDir(path.join(fixturesRoot, 'fixtures', 'framework')).map((p) => p.pkg);
  const configs = new Map<number | undefined, ProtocolConfig>();
  const frameworks = new Map<number | undefined, MovePackage[]>();
  return {
    // Upstream's genesis uses the newest framework snapshot not above the protocol version
    // (`load_bytecode_snapshot`), the built-in framework when there is none.
    packages: (v) => {
      let p = frameworks.get(v);
      if (p === undefined) {
        const root = path.join(fixturesRoot, 'fixtures', 'framework-snapshots');
        const versions = existsSync(root)
          ? readdirSync(root)
              .filter((d) => /^\d+$/.test(d))
              .map(Number)
          : [];
        const pick = v === undefined ? undefined : versions.filter((n) => n <= v).sort((a, b) => b - a)[0];
        const dir = pick === undefined ? null : path.join(root, String(pick));
        p =
          dir !== null
            ? readdirSync(dir)
                .sort()
                .map((f) => loadSnapshotFile(path.join(dir, f)))
            : latest;
        frameworks.set(v, p);
      }
      return p;
    },
    cacheDir,
    protocolConfig: (v) => {
      let c = configs.get(v);
      if (c === undefined) {
        c = loadProtocolConfig(fixturesRoot, v);
        configs.set(v, c);
      }
      return c;
    },
  };
}

function bump(r: Record<string, number>, k: string): void {
  r[k] = (r[k] ?? 0) + 1;
}

/**
 * Runs the adapter suite under `dir` (`fixtures/adapter-tests`). Failures carry the task
 * as `task K` and the reason; the summary adds breakdowns by category and by folder and
 * the gas agreement (reported, not required).
 */
export async function runAdapterSuite(dir: string, options: AdapterSuiteOptions): Promise<AdapterSuiteSummary & { verdicts: AdapterVerdict[] }> {
  const runner = adapterRunnerOptions(options.fixturesRoot, options.cacheDir ?? null);
  const excluded = new Set(options.exclude ?? []);
  const files = findAdapterTests(dir).filter((f) => {
    const rel = path.relative(dir, f);
    return (options.filter === undefined || rel.includes(options.filter)) && !excluded.has(rel.split(path.sep)[0]);
  });
  const summary: AdapterSuiteSummary = { ...emptySummary('adapter'), breakdown: { failures: {}, skips: {} }, folders: {}, gas: { compared: 0, matched: 0 } };
  const verdicts: AdapterVerdict[] = [];
  let eventsCompared = 0;
  let eventsMatched = 0;
  let run = 0;
  for await (const [i, f] of untilStopped(files, summary, options.signal)) {
    run++;
    const rel = path.relative(dir, f);
    const folder = rel.split(path.sep)[0];
    const counts = (summary.folders[folder] ??= { files: 0, tasks: 0, passed: 0, failed: 0, skipped: 0 });
    counts.files++;
    const vs = await runAdapterTestFile(f, rel, runner);
    for (const v of vs) {
      verdicts.push(v);
      counts.tasks++;
      if (v.gas !== null) {
        summary.gas.compared++;
        if (v.gas === 'match') summary.gas.matched++;
      }
      if (v.eventContents !== null) {
        eventsCompared++;
        if (v.eventContents === 'match') eventsMatched++;
      }
      if (v.status === 'pass') {
        summary.passed++;
        counts.passed++;
      } else if (v.status === 'skip') {
        summary.skipped++;
        counts.skipped++;
        summary.skips.push({ file: v.file, task: `task ${v.task}`, reason: v.reason });
        bump(summary.breakdown.skips, v.category);
      } else {
        summary.failed++;
        counts.failed++;
        summary.failures.push({ file: v.file, task: `task ${v.task}`, expected: v.expected ?? '(no output)', got: `${v.got ?? '(no output)'}\n[${v.reason}]` });
        bump(summary.breakdown.failures, v.category as ComparisonCategory);
      }
    }
    options.onFile?.(rel, i + 1, files.length);
  }
  summary.files = run;
  summary.tasks = verdicts.length;
  summary.notes.push(`gas summaries agree on ${summary.gas.matched} of ${summary.gas.compared} compared transactions (gas is reported, not required)`);
  summary.notes.push(`event contents (BCS) agree on ${eventsMatched} of ${eventsCompared} tasks with events (reported, not required)`);
  return { ...summary, verdicts };
}

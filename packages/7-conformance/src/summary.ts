/**
 * The result of running a conformance suite, in the JSON shape `smi conformance --json`
 * prints: counts plus one entry per failing task.
 */

/** One task that did not match its expected output. */
export interface SuiteFailure {
  /** File of the test, relative to the suite directory. */
  file: string;
  /** Task name or number within the file. */
  task: string;
  expected: string;
  got: string;
}

/** A task the runner cannot express yet, with the reason. */
export interface SuiteSkip {
  file: string;
  task: string;
  reason: string;
}

/** Summary of one suite run. */
export interface SuiteSummary {
  suite: string;
  files: number;
  tasks: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: SuiteFailure[];
  /** Why each skipped task was skipped. */
  skips: SuiteSkip[];
  /** Extra figures reported beside the pass counts (e.g. gas agreement). */
  notes: string[];
  /**
   * Tasks no runner can execute (e.g. hand-written traces without bytecode), with why: not
   * counted in `tasks`, `passed`, `failed` or `skipped`.
   */
  notExecutable?: SuiteSkip[];
  /** Set when `signal` stopped the run: the counts cover the files run before it. */
  interrupted?: true;
}

/** An empty summary for `suite`. */
export function emptySummary(suite: string): SuiteSummary {
  return { suite, files: 0, tasks: 0, passed: 0, failed: 0, skipped: 0, failures: [], skips: [], notes: [] };
}

/** Options every runner takes. */
export interface SuiteOptions {
  /** Only files whose relative path contains this substring. */
  filter?: string;
  /** Called after each file (progress). */
  onFile?: (file: string, done: number, total: number) => void;
  /**
   * Checked between two files (after yielding to the event loop, so that a signal can
   * arrive): when aborted, the run stops and its summary covers the files run, with
   * `interrupted: true`.
   */
  signal?: AbortSignal;
}

/**
 * The files of a run with their index, one at a time, until `signal` is aborted (then
 * `summary.interrupted` is set). Without a signal the files are not delayed at all.
 */
export async function* untilStopped<T>(files: readonly T[], summary: SuiteSummary, signal: AbortSignal | undefined): AsyncGenerator<[number, T]> {
  for (const [i, f] of files.entries()) {
    if (signal !== undefined) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) {
        summary.interrupted = true;
        return;
      }
    }
    yield [i, f];
  }
}

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
}

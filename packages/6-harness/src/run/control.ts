/** The settings every phase's run shares: what to run, where the run is kept, and its limits. */
import type { PyJson } from '../py-json.js';
import type { RunStore } from './run-store.js';
import type { OpenRunOptions } from './session.js';
import type { RunSpec } from './spec.js';
import type { Shard } from './shard.js';

/** Options common to `runPhase1` and `runPhase2`. */
export interface RunControlOptions {
  corpusRoot: string;
  /** Packages to sample (`<= 0`: all); over an ids list, a batch size per session. */
  samples: number;
  seed: bigint;
  /** Ids in order (an ids file or a dataset), instead of sampling. */
  ids?: { ids: string[]; source: string };
  perPackageTimeoutSeconds?: number;
  concurrency?: number;
  maxRunSeconds?: number | null;
  parentPid?: number | null;
  continueOnError?: boolean;
  maxErrors?: number;
  /** Write the run JSON every N packages (0: only at the end). */
  checkpointEvery?: number;
  store: RunStore;
  runId: string;
  resume?: boolean;
  force?: boolean;
  retryErrors?: boolean;
  shard?: Shard | null;
  argv?: string[];
  /** The directory the command line ran in (its relative paths are from there), for `smi rescore`. */
  cwd?: string;
  /** Also write the run JSON here (the original's `--out`). */
  out?: string | null;
  signal?: AbortSignal;
}

/** What `openRun` needs, from a phase's shared options. */
export function openRunOptions(o: RunControlOptions, spec: RunSpec, metadata: { [key: string]: PyJson }, dirs: ReadonlyMap<string, string>): OpenRunOptions {
  return {
    store: o.store,
    runId: o.runId,
    spec,
    metadata,
    resume: o.resume ?? false,
    force: o.force ?? false,
    retryErrors: o.retryErrors ?? false,
    shard: o.shard ?? null,
    batch: o.ids !== undefined && o.samples > 0 ? o.samples : null,
    argv: o.argv ?? [],
    dirs,
  };
}

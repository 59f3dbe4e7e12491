/**
 * The command-line options every benchmark phase shares (what to run, where the run is kept,
 * its limits), read once for `smi phase1` and `smi phase2`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fixturesRootNamed } from './framework.js';
import path from 'node:path';
import { datasetIds, parseIdsText, parseShard, type RunControlOptions, type RunStore } from '@smi/harness';
import { UsageError } from './errors.js';
import { type CliIo, readInput, resolveInputPath, resolvePath } from './io.js';

/** The shared arguments. */
export interface RunControlArgs {
  'corpus-root': string;
  samples: number;
  seed: string;
  'package-ids-file'?: string;
  dataset?: string;
  /** Phase II: the original's deprecated alias of `dataset`. */
  subset?: string;
  /** Phase II: without ids, run `results/signal_ids_hit_ge_1.txt` when it exists (the original's). */
  'prefer-signal-package-ids'?: boolean;
  manifests?: string;
  'per-package-timeout-seconds': number;
  'continue-on-error': boolean;
  'max-errors': number;
  'checkpoint-every': number;
  concurrency: number;
  'max-run-seconds'?: number;
  'parent-pid'?: number;
  'retry-errors': boolean;
  force: boolean;
  resume: boolean;
  shard?: string;
  out?: string;
}

function seedOf(text: string): bigint {
  if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`--seed ${text}: expected an integer`, 'INVALID_NUMBER');
  return BigInt(text.trim());
}

/** Where `--prefer-signal-package-ids` looks (the original's path, from the working directory). */
const SIGNAL_IDS_FILE = path.join('results', 'signal_ids_hit_ge_1.txt');

/** The ids to run (`--package-ids-file`, `--dataset`/`--subset`, `--prefer-signal-package-ids`), or `undefined` to sample. */
async function packageIdsOf(io: CliIo, args: RunControlArgs): Promise<{ ids: string[]; source: string } | undefined> {
  if (args.subset !== undefined) {
    // The original read --subset and then ignored it; it means --dataset.
    if (args.dataset !== undefined) throw new UsageError('give either --dataset or --subset (its deprecated alias)', 'USAGE');
    return packageIdsOf(io, { ...args, dataset: args.subset, subset: undefined });
  }
  if (args['package-ids-file'] !== undefined && args.dataset !== undefined) throw new UsageError('give either --package-ids-file or --dataset', 'USAGE');
  if (args['package-ids-file'] !== undefined) {
    const text = (await readInput(io, args['package-ids-file'], '--package-ids-file')).toString('utf8');
    return { ids: parseIdsText(text), source: args['package-ids-file'] === '-' ? '<stdin>' : path.basename(args['package-ids-file']) };
  }
  if (args.dataset !== undefined) {
    const manifests = args.manifests !== undefined ? resolvePath(io, args.manifests) : path.join(fixturesRootNamed(io), 'fixtures', 'harness', 'manifests');
    return { ids: datasetIds(manifests, args.dataset), source: `${args.dataset}.txt` };
  }
  if (args['prefer-signal-package-ids'] === true) {
    const file = resolvePath(io, SIGNAL_IDS_FILE);
    if (existsSync(file)) return { ids: parseIdsText(readFileSync(file, 'utf8')), source: SIGNAL_IDS_FILE };
    io.stderr(
      `warning: --prefer-signal-package-ids: ${SIGNAL_IDS_FILE} does not exist; sampling instead (write it with smi manifest-filter <run.json> --min-hits 1 --out-manifest ${SIGNAL_IDS_FILE})\n`,
    );
  }
  return undefined;
}

/** The shared options of a run, from the arguments and where the run is kept. */
export async function runControlOf(io: CliIo, args: RunControlArgs, where: { store: RunStore; runId: string }, invocation: readonly string[]): Promise<RunControlOptions> {
  if (args['retry-errors'] && !args.resume) throw new UsageError('--retry-errors continues a run: add --resume', 'USAGE');
  const ids = await packageIdsOf(io, args);
  return {
    corpusRoot: resolveInputPath(io, args['corpus-root']),
    samples: args.samples,
    seed: seedOf(args.seed),
    ...(ids ? { ids } : {}),
    perPackageTimeoutSeconds: args['per-package-timeout-seconds'],
    concurrency: args.concurrency,
    maxRunSeconds: args['max-run-seconds'] ?? null,
    parentPid: args['parent-pid'] ?? null,
    continueOnError: args['continue-on-error'],
    maxErrors: args['max-errors'],
    checkpointEvery: args['checkpoint-every'],
    store: where.store,
    runId: where.runId,
    resume: args.resume,
    force: args.force,
    retryErrors: args['retry-errors'],
    shard: args.shard === undefined ? null : parseShard(args.shard),
    argv: ['smi', ...invocation],
    cwd: io.cwd,
    out: args.out === undefined || args.out === '-' ? null : resolvePath(io, args.out),
    ...(io.signal ? { signal: io.signal } : {}),
  };
}

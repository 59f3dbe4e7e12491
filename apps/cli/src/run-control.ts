/**
 * The command-line options every benchmark phase shares (what to run, where the run is kept,
 * its limits), read once for `smi phase1` and `smi phase2`.
 */
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

/** The ids to run (`--package-ids-file`, `--dataset`), or `undefined` to sample. */
export async function packageIdsOf(io: CliIo, args: RunControlArgs): Promise<{ ids: string[]; source: string } | undefined> {
  if (args['package-ids-file'] !== undefined && args.dataset !== undefined) throw new UsageError('give either --package-ids-file or --dataset', 'USAGE');
  if (args['package-ids-file'] !== undefined) {
    const text = (await readInput(io, args['package-ids-file'], '--package-ids-file')).toString('utf8');
    return { ids: parseIdsText(text), source: args['package-ids-file'] === '-' ? '<stdin>' : path.basename(args['package-ids-file']) };
  }
  if (args.dataset !== undefined) {
    const manifests = resolvePath(io, args.manifests ?? path.join(process.env.SMI_FIXTURES ?? '../shared', 'fixtures', 'harness', 'manifests'));
    return { ids: datasetIds(manifests, args.dataset), source: `${args.dataset}.txt` };
  }
  return undefined;
}

/** The shared options of a run, from the arguments and where the run is kept. */
export async function runControlOf(
  io: CliIo,
  args: RunControlArgs,
  where: { store: RunStore; runId: string },
  invocation: readonly string[],
): Promise<RunControlOptions> {
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
    out: args.out === undefined || args.out === '-' ? null : resolvePath(io, args.out),
    ...(io.signal ? { signal: io.signal } : {}),
  };
}

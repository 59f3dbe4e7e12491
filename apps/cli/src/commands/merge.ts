/**
 * `smi merge`: join the run directories of the shards of one run (`--shard K/N`) into
 * the directory one run would have written, with its run JSON.
 */
import path from 'node:path';
import { mergeRuns, RUN_JSON_BUILDERS } from '@smi/harness';
import { defineCommand } from '../command.js';
import { jsonLine, resolveInputPath, resolvePath, writeOutput } from '../io.js';
import { header } from './registry.js';

interface MergeArgs {
  runs: string[];
  'out-dir': string;
  out?: string;
  'allow-partial': boolean;
}

/** `smi merge`. */
export const mergeCommand = defineCommand<MergeArgs>({
  ...header('merge'),
  positionals: { runs: { type: 'string', array: true, describe: 'Run directories of the shards' } },
  options: {
    'out-dir': { type: 'string', demandOption: true, describe: 'The merged run directory (new)' },
    out: { type: 'string', describe: 'Also write the merged run JSON here, or - for standard output', file: 'write' },
    'allow-partial': { type: 'boolean', default: false, describe: 'Merge even when some packages of the run have no result' },
  },
  examples: [
    {
      command:
        '$0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-noisy --shard 1/2 --run-dir s1 --quiet && $0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-noisy --shard 2/2 --run-dir s2 --quiet && $0 merge s1 s2 --out-dir merged --out merged.json',
      describe: 'two shards of a run, then one run directory (and run JSON) from both',
    },
  ],
  run: (args, io) => {
    const dirs = args.runs.map((r) => resolveInputPath(io, r));
    const outDir = resolvePath(io, args['out-dir']);
    const merged = mergeRuns(dirs, outDir, RUN_JSON_BUILDERS, { allowPartial: args['allow-partial'], argv: ['smi', ...args.invocation] });
    if (args.out !== undefined) writeOutput(io, args.out, merged.text);
    if (args.json) io.stdout(jsonLine({ status: 'ok', run_dir: outDir, packages: merged.packages, missing: merged.missing.length }));
    else if (args.out !== '-')
      io.stdout(
        `merged ${dirs.length} runs: ${merged.packages} packages${merged.missing.length > 0 ? ` (${merged.missing.length} without a result)` : ''} into ${path.relative(io.cwd, outDir) || '.'}\n`,
      );
    return 0;
  },
});

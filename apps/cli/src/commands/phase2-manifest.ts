/**
 * `smi phase2-manifest` (the original's `smi-phase2-manifest`): the packages of a corpus that
 * baseline-search can plan for, their plan file, and a viability report; and `smi
 * manifest-filter` (`smi-phase2-filter-manifest`): the packages of a Phase II run with enough
 * targets, as an ids file.
 */
import { filterManifest, phase2Manifest } from '@smi/harness';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { jsonLine, readInput, resolveInputPath, writeOutput } from '../io.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

/** `smi phase2-manifest`. */
export const phase2ManifestCommand = defineCommand<{
  'corpus-root': string;
  'out-ids': string;
  'out-plan': string;
  'out-report'?: string;
  'max-calls-per-package': number;
  limit?: number;
  'rust-bin'?: string;
}>({
  ...header('phase2-manifest'),
  options: {
    'corpus-root': { type: 'string', demandOption: true, describe: 'Corpus in the sui-packages layout' },
    'out-ids': { type: 'string', demandOption: true, describe: 'Selected package ids, one per line (- for standard output)', file: 'write' },
    'out-plan': { type: 'string', demandOption: true, describe: 'Plan file {package_id: {"calls": [...]}} for --agent mock-planfile (- for standard output)', file: 'write' },
    'out-report': { type: 'string', describe: 'Report: stats, rejection reasons, viability, samples (- for standard output)', file: 'write' },
    'max-calls-per-package': { type: 'number', default: 1, describe: 'Candidates kept per package (the plan file takes the first)' },
    limit: { type: 'number', describe: 'Scan at most this many packages' },
    'rust-bin': { type: 'string', hidden: true, describe: 'Ignored: smi reads the bytecode itself' },
  },
  examples: [
    { command: '$0 phase2-manifest --corpus-root ../shared/corpus --out-ids ids.txt --out-plan plans.json --out-report report.json', describe: 'the shared corpus' },
    { command: '$0 phase2-manifest --corpus-root ../shared/corpus --out-ids ids.txt --out-plan - | head -c 300', describe: 'the plan file on standard output' },
  ],
  epilog: 'With --json: {"ids","selected","packages_total"} on one line. The plan file feeds `smi phase2 --agent mock-planfile --plan-file`.',
  run: async (args, io) => {
    if ([args['out-ids'], args['out-plan'], args['out-report']].filter((x) => x === '-').length > 1) throw new UsageError('only one of --out-ids, --out-plan, --out-report can be -', 'USAGE');
    if (args.json && [args['out-ids'], args['out-plan'], args['out-report']].includes('-')) throw new UsageError('--json and an output to - both print on standard output', 'USAGE');
    const m = phase2Manifest(resolveInputPath(io, args['corpus-root']), { maxCallsPerPackage: args['max-calls-per-package'], limit: args.limit ?? null });
    writeOutput(io, args['out-ids'], m.ids.join('\n') + (m.ids.length > 0 ? '\n' : ''));
    writeOutput(io, args['out-plan'], JSON.stringify(m.plan, null, 2) + '\n');
    if (args['out-report'] !== undefined) writeOutput(io, args['out-report'], JSON.stringify(m.report, null, 2) + '\n');
    const stats = m.report.stats as { packages_total: number; packages_selected: number };
    if (args.json) io.stdout(jsonLine({ ids: args['out-ids'], selected: stats.packages_selected, packages_total: stats.packages_total }));
    else if (!args.quiet) io.stderr(`phase2-manifest: ${stats.packages_selected} of ${stats.packages_total} packages have a candidate plan\n`);
    return 0;
  },
});

/** `smi manifest-filter`. */
export const manifestFilterCommand = defineCommand<{ 'run-json': string; 'min-targets': number; 'min-hits': number; 'out-manifest': string }>({
  ...header('manifest-filter'),
  positionals: { 'run-json': { type: 'string', demandOption: true, describe: 'A Phase II run JSON (run.json of a run directory, or --out), or - for standard input', file: 'read' } },
  options: {
    'min-targets': { type: 'number', default: 2, describe: 'Keep packages with at least this many target key types' },
    'min-hits': { type: 'number', default: 0, describe: 'And at least this many of them created (1: the packages with signal, for phase2 --prefer-signal-package-ids)' },
    'out-manifest': { type: 'string', default: '-', describe: 'Ids file to write (- for standard output)', file: 'write' },
  },
  examples: [
    {
      command: '$0 phase2 --corpus-root ../shared/corpus --samples 0 --no-log --quiet --out p2.json && $0 manifest-filter p2.json --min-targets 2',
      describe: 'the packages of a run with two targets or more',
    },
    {
      command:
        '$0 phase2 --corpus-root ../shared/corpus --samples 0 --agent baseline-search --run-dir runs/base --quiet && mkdir -p results && $0 manifest-filter runs/base/run.json --min-targets 1 --min-hits 1 --out-manifest results/signal_ids_hit_ge_1.txt && cat results/signal_ids_hit_ge_1.txt',
      describe: 'the packages a run hit, where phase2 --prefer-signal-package-ids reads them',
    },
  ],
  run: async (args, io) => {
    const text = (await readInput(io, args['run-json'], 'run JSON')).toString('utf8');
    let data: { packages?: unknown; schema_version?: unknown };
    try {
      data = JSON.parse(text) as typeof data;
    } catch (e) {
      throw new UsageError(`${args['run-json']}: not JSON (${errorMessage(e)})`, 'INVALID_JSON');
    }
    // schema_version 1 is the original's own run JSON (its golden runs), 2 ours: the rows agree.
    if ((data.schema_version !== 1 && data.schema_version !== 2) || !Array.isArray(data.packages))
      throw new UsageError(`${args['run-json']}: not a Phase II run JSON (schema_version 1 or 2, with packages)`, 'INVALID_FILE');
    const ids = filterManifest(data, args['min-targets'], args['min-hits']);
    // Under --json the ids are in the JSON line; a file named by --out-manifest is written as well.
    if (!args.json || args['out-manifest'] !== '-') writeOutput(io, args['out-manifest'], ids.join('\n') + (ids.length > 0 ? '\n' : ''));
    if (args.json) io.stdout(jsonLine({ ids, count: ids.length, out: args['out-manifest'] === '-' ? null : args['out-manifest'] }));
    return 0;
  },
});

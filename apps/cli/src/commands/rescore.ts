/**
 * `smi rescore <run-dir>`: a run scored again from what it recorded, without calling a
 * model. The run's own command line (its `run_metadata.json`) runs again over the same
 * packages (its spec's ids) into a new run directory, a model agent answering only with the
 * answers the run recorded (`--replay-run`): the scoring, the simulation and the report are
 * today's, the answers the same. Then the two runs are compared, as `smi compare` does.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compareRuns, comparisonText, DiskRunStore, loadRunJson } from '@smi/harness';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { jsonLine, resolvePath } from '../io.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface RescoreArgs {
  'run-dir-in': string;
  'run-dir'?: string;
}

/** Options of the recorded command line that the rescore replaces (value-taking ones first). */
const DROPPED_WITH_VALUE = new Set([
  '--run-dir',
  '--log-dir',
  '--run-id',
  '--out',
  '--replay-run',
  '--shard',
  '--max-run-seconds',
  '--parent-pid',
  '--samples',
  '--package-ids-file',
  '--dataset',
  '--subset',
  '--manifests',
  '--budget-usd',
]);
const DROPPED_FLAGS = new Set(['--resume', '--retry-errors', '--force', '--no-log', '--replay', '--prefer-signal-package-ids', '--json', '--quiet', '--no-quiet', '--no-json']);

/** The recorded command line without the options the rescore sets itself. */
function rescoreArgv(recorded: readonly string[]): string[] {
  const args = recorded[0] === 'smi' ? recorded.slice(1) : [...recorded];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (DROPPED_FLAGS.has(name)) continue;
    if (DROPPED_WITH_VALUE.has(name)) {
      if (!a.includes('=')) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** `smi rescore`. */
export const rescoreCommand = defineCommand<RescoreArgs>({
  ...header('rescore'),
  positionals: { 'run-dir-in': { type: 'string', describe: 'The run directory to rescore (a phase1 or phase2 run kept with --run-dir or --log-dir)' } },
  options: {
    'run-dir': { type: 'string', describe: 'Where the rescored run goes (default: <run>-rescored; it must not hold a run)' },
  },
  examples: [
    {
      command: '$0 phase1 --corpus-root ../shared/corpus --samples 4 --agent mock-random --run-dir runs/a --quiet && $0 rescore runs/a',
      describe: "a run scored again by today's code from its records (a model run answers from its recorded answers, no key), into runs/a-rescored, compared with the original",
    },
    {
      command: '$0 phase2 --corpus-root ../shared/corpus --samples 3 --agent baseline-search --run-dir runs/p2 --quiet && $0 rescore runs/p2 --run-dir runs/p2-v2 --json',
      describe: 'a Phase II run the same way, into a directory named, as one JSON line',
    },
  ],
  run: async (args, io) => {
    const dir = resolvePath(io, args['run-dir-in']);
    if (!existsSync(path.join(dir, 'spec.json'))) throw new UsageError(`${args['run-dir-in']}: not a run directory (no spec.json)`, 'FILE_NOT_FOUND');
    const store = DiskRunStore.existing(dir);
    const spec = store.readSpec()?.spec;
    if (spec === undefined) throw new UsageError(`${args['run-dir-in']}: its spec.json cannot be read`, 'INVALID_FILE');
    let meta: { argv?: unknown; cwd?: unknown };
    try {
      meta = JSON.parse(readFileSync(path.join(dir, 'run_metadata.json'), 'utf8')) as typeof meta;
    } catch (e) {
      throw new UsageError(`${args['run-dir-in']}: run_metadata.json cannot be read (${errorMessage(e)})`, 'INVALID_FILE');
    }
    const recorded = Array.isArray(meta.argv) ? meta.argv.map(String) : [];
    const base = rescoreArgv(recorded);
    const command = base[0];
    if (command !== 'phase1' && command !== 'phase2')
      throw new UsageError(`${args['run-dir-in']}: its recorded command line is not a phase1 or phase2 run (${recorded.join(' ') || 'none recorded'})`, 'INVALID_FILE');
    const target = args['run-dir'] !== undefined ? resolvePath(io, args['run-dir']) : `${dir.replace(/[\\/]+$/, '')}-rescored`;
    if (existsSync(target) && readdirSync(target).length > 0) throw new UsageError(`${target} is not empty: name another with --run-dir`, 'USAGE');
    mkdirSync(target, { recursive: true });
    // The same packages, in the same order, whatever the sampling said then.
    const idsFile = path.join(target, 'rescored_ids.txt');
    writeFileSync(idsFile, spec.ids.join('\n') + '\n');
    const argv = [...base, '--package-ids-file', idsFile, '--samples', '0', '--run-dir', target, '--quiet', ...(spec.model !== null ? ['--replay-run', dir] : [])];
    // Relative paths of the recorded command line are from where it ran.
    const cwd = typeof meta.cwd === 'string' && existsSync(meta.cwd) ? meta.cwd : io.cwd;
    const { runCli } = await import('../main.js');
    let err = '';
    const code = await runCli(argv, { ...io, cwd, stdout: () => undefined, stderr: (t) => void (err += t) });
    if (code === EXIT.interrupted || code === EXIT.terminated) {
      io.stderr(`rescore: interrupted; continue it with: smi ${argv.join(' ')} --resume\n`);
      return code;
    }
    if (code !== EXIT.ok && code !== EXIT.failure) {
      io.stderr(err);
      throw new UsageError(`the rescore of ${args['run-dir-in']} did not run (smi ${argv.join(' ')})`, 'RESCORE_FAILED');
    }
    const phase = command === 'phase2' ? 2 : 1;
    const before = { label: args['run-dir-in'], runJson: loadRunJson(path.join(dir, 'run.json'), { phase }), spec };
    const after = { label: path.relative(io.cwd, target) || target, runJson: loadRunJson(path.join(target, 'run.json'), { phase }), spec: DiskRunStore.existing(target).readSpec()?.spec ?? null };
    // The specs differ where the rescore meant them to: its ids, the code that scored, the
    // model answering from the records.
    const comparison = compareRuns(before, after, ['ids', 'code', 'model']);
    if (args.json) io.stdout(jsonLine({ status: 'ok', run_dir: target, command: ['smi', ...argv], comparison: JSON.parse(JSON.stringify(comparison)) as unknown }));
    else if (!args.quiet) io.stderr(`rescored into ${target}\n` + comparisonText(comparison));
    return code;
  },
});

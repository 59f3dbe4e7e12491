/**
 * `smi run-all` (the original's `smi-bench run-all`): Phase I with the mock-empty agent, the
 * Phase II manifest over the same number of packages, then Phase II with baseline-search on
 * the packages the manifest selected, every result in one directory. A thin composition of
 * what `smi phase1`, `smi phase2-manifest` and `smi phase2` run, each stage's run kept in
 * memory (the original's `--no-log`) and its run JSON written into `--out-dir`.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { phase1SummaryText, phase2Manifest, phase2SummaryText, type RunJson, runPhase1, runPhase2, type RunStatus, type StopReason } from '@smi/harness';
import { defineCommand, type GlobalArgs } from '../command.js';
import { EXIT, type InterruptedError, UsageError } from '../errors.js';
import { runStoreFor } from '../harness-setup.js';
import { type CliIo, jsonLine, resolveInputPath, resolvePath, stopRequested, writeOutput } from '../io.js';
import { Progress } from '../progress.js';
import { runControlOf } from '../run-control.js';
import { missingDependenciesWarning, SIMULATION_OPTIONS, type SimulationArgs, simulationSettingsOf } from './phase2-support.js';
import { header } from './registry.js';

/** Arguments of `smi run-all`. */
interface RunAllArgs extends SimulationArgs {
  'rpc-url'?: string;
  'corpus-root': string;
  'out-dir': string;
  samples: number;
  seed: string;
}

/** The files of `--out-dir`, named as the original named them. */
const RUN_ALL_FILES = {
  phase1: 'phase1.json',
  phase2_ids: 'phase2_ids.txt',
  phase2_plan: 'phase2_plan.json',
  phase2_viability: 'phase2_viability.json',
  phase2_execution: 'phase2_execution.json',
} as const;

type FileKey = keyof typeof RUN_ALL_FILES;
type Stage = 'phase1' | 'phase2-manifest' | 'phase2';

/** What one phase's session ended with, as the summary line shows it. */
interface PhaseSummary {
  status: RunStatus;
  stop_reason: StopReason | null;
  packages: number;
  done: number;
  aggregate: unknown;
}

function phaseSummary(result: { runJson: RunJson; status: RunStatus; stopReason: StopReason | null }, packages: number): PhaseSummary {
  return {
    status: result.status,
    stop_reason: result.stopReason,
    packages,
    done: (result.runJson.packages as unknown[]).length,
    aggregate: JSON.parse(JSON.stringify(result.runJson.aggregate)) as unknown,
  };
}

/** The exit status of a session stopped by Ctrl-C or SIGTERM. */
function interruptedExit(io: CliIo): number {
  return (io.signal?.reason as InterruptedError | undefined)?.exitCode ?? EXIT.interrupted;
}

/**
 * The run control of one stage: its run in memory (`--no-log`), the stage command's
 * defaults for the limits, and its run JSON written to `out`.
 */
async function stageControl(
  io: CliIo,
  args: RunAllArgs & GlobalArgs,
  benchmark: 'phase1' | 'phase2',
  stage: { out: string; samples: number; concurrency: number; continueOnError: boolean; maxErrors: number; idsFile?: string },
): ReturnType<typeof runControlOf> {
  const where = runStoreFor(io, { log: false, 'log-dir': 'logs', resume: false }, benchmark, benchmark);
  return runControlOf(
    io,
    {
      'corpus-root': args['corpus-root'],
      samples: stage.samples,
      seed: args.seed,
      ...(stage.idsFile !== undefined ? { 'package-ids-file': stage.idsFile } : {}),
      'per-package-timeout-seconds': 120,
      'continue-on-error': stage.continueOnError,
      'max-errors': stage.maxErrors,
      'checkpoint-every': 10,
      concurrency: stage.concurrency,
      'retry-errors': false,
      force: false,
      resume: false,
      out: stage.out,
    },
    where,
    args.invocation,
  );
}

/** `smi run-all`. */
export const runAllCommand = defineCommand<RunAllArgs>({
  ...header('run-all'),
  options: {
    'corpus-root': { type: 'string', demandOption: true, describe: 'Corpus in the sui-packages layout (packages found at any depth)' },
    'out-dir': { type: 'string', demandOption: true, describe: `Directory for ${Object.values(RUN_ALL_FILES).join(', ')} (made if missing)` },
    samples: { type: 'number', default: 100, describe: 'Phase I samples this many packages and the manifest scans this many (0: all); Phase II runs every package the manifest selected' },
    seed: { type: 'string', default: '0', describe: 'Seed of the Phase I sampling and of its mock agent (any integer)' },
    ...SIMULATION_OPTIONS,
    'rpc-url': { type: 'string', describe: "Accepted for the original's command lines; run-all simulates locally (smi phase2 --simulation-mode dry-run runs plans on a node)" },
  },
  examples: [
    { command: '$0 run-all --corpus-root ../shared/corpus --out-dir results --samples 3', describe: 'both phases on a sample of 3 packages; the five files in results/' },
    {
      command: '$0 run-all --corpus-root ../shared/corpus --out-dir results --samples 0 --simulation-mode build-only --quiet --json',
      describe: 'every package, Phase II plans built but not run; one JSON line with the paths and both aggregates',
    },
  ],
  epilog:
    'Stages: smi phase1 --agent mock-empty --samples N --no-log --out phase1.json; smi phase2-manifest --limit N (N > 0) --out-ids phase2_ids.txt --out-plan phase2_plan.json --out-report phase2_viability.json; ' +
    'smi phase2 --package-ids-file phase2_ids.txt --agent baseline-search --baseline-max-candidates 20 --continue-on-error --max-errors 1000 --no-log --out phase2_execution.json. ' +
    'The original chose dry-run when --sender was set and build-only otherwise; here plans run on the local simulator unless --simulation-mode build-only. ' +
    'When the manifest selects no package, Phase II is skipped. With --json: {"status","stopped_at","stop_reason","out_dir","files","phase1","manifest","phase2"} on one line. ' +
    'Exit 0 when every stage finished, 1 when a phase stopped on failures, 2 on bad input (nothing run), 130/143 when interrupted (the files of the finished stages, and the run JSON of the stopped one, are kept).',
  longRunning: true,
  run: async (args, io) => {
    if (!Number.isInteger(args.samples) || args.samples < 0) throw new UsageError(`--samples ${args.samples}: expected a non-negative integer`, 'INVALID_NUMBER');
    const outDirAbs = resolvePath(io, args['out-dir']);
    if (existsSync(outDirAbs) && !statSync(outDirAbs).isDirectory()) throw new UsageError(`--out-dir ${args['out-dir']}: not a directory`, 'NOT_A_DIRECTORY');
    // Every bad value is an error before Phase I starts.
    const simulation = simulationSettingsOf(io, args);
    const file = (key: FileKey): string => path.join(args['out-dir'], RUN_ALL_FILES[key]);
    /** The path of a run JSON, when its phase wrote one. */
    const ifWritten = (key: FileKey): string | null => (existsSync(resolvePath(io, file(key))) ? file(key) : null);
    const say = (msg: string): void => {
      if (!args.quiet) io.stderr(`run-all: ${msg}\n`);
    };
    const written: Record<FileKey, string | null> = { phase1: null, phase2_ids: null, phase2_plan: null, phase2_viability: null, phase2_execution: null };
    const summary: { phase1: PhaseSummary | null; manifest: { selected: number; packages_total: number } | null; phase2: PhaseSummary | null } = { phase1: null, manifest: null, phase2: null };
    const finish = (stoppedAt: Stage | null, stopReason: StopReason | null, code: number): number => {
      if (args.json) {
        io.stdout(jsonLine({ status: stoppedAt === null ? 'success' : 'stopped', stopped_at: stoppedAt, stop_reason: stopReason, out_dir: args['out-dir'], files: written, ...summary }));
      }
      if (stoppedAt === null) say(`done; results in ${args['out-dir']}`);
      else say(`stopped at ${stoppedAt} (${stopReason ?? 'failure'}); the files of the finished stages are kept in ${args['out-dir']}`);
      return code;
    };
    const stopped = (stage: Stage, reason: StopReason): number => finish(stage, reason, reason === 'interrupted' ? interruptedExit(io) : EXIT.failure);
    // Between stages: a Ctrl-C or SIGTERM that came during the last one stops before the next.
    const interrupted = async (): Promise<boolean> => (await stopRequested(io)) !== null;

    // 1. Phase I: the mock-empty agent over a sample (an infrastructure and dataset check).
    const p1Control = await stageControl(io, args, 'phase1', { out: file('phase1'), samples: args.samples, concurrency: 4, continueOnError: false, maxErrors: 25 });
    let p1Progress: Progress | null = null;
    const p1 = await runPhase1({
      ...p1Control,
      agent: 'mock-empty',
      onStart: (info) => {
        // Made once the corpus is known good, before the first file is written.
        mkdirSync(outDirAbs, { recursive: true });
        say(`phase1 (1/3): ${info.total} packages, agent mock-empty`);
        p1Progress = new Progress(io, 'run-all: phase1', info.total, args.quiet);
      },
      onResult: () => (p1Progress as Progress | null)?.tick(),
    });
    (p1Progress as Progress | null)?.finish();
    written.phase1 = ifWritten('phase1');
    summary.phase1 = phaseSummary(p1, p1.run.ids.length);
    if (!args.quiet) io.stderr(phase1SummaryText(p1.runJson));
    if (p1.stopReason !== null) return stopped('phase1', p1.stopReason);
    say(`phase1 done → ${file('phase1')}`);
    if (await interrupted()) return stopped('phase2-manifest', 'interrupted');

    // 2. The Phase II manifest: the packages baseline-search can plan for, among the first --samples.
    const manifest = phase2Manifest(resolveInputPath(io, args['corpus-root']), { limit: args.samples > 0 ? args.samples : null });
    writeOutput(io, file('phase2_ids'), manifest.ids.join('\n') + (manifest.ids.length > 0 ? '\n' : ''));
    written.phase2_ids = file('phase2_ids');
    writeOutput(io, file('phase2_plan'), JSON.stringify(manifest.plan, null, 2) + '\n');
    written.phase2_plan = file('phase2_plan');
    writeOutput(io, file('phase2_viability'), JSON.stringify(manifest.report, null, 2) + '\n');
    written.phase2_viability = file('phase2_viability');
    const stats = manifest.report.stats as { packages_total: number; packages_selected: number };
    summary.manifest = { selected: stats.packages_selected, packages_total: stats.packages_total };
    say(`phase2-manifest (2/3) done: ${stats.packages_selected} of ${stats.packages_total} packages have a candidate plan → ${written.phase2_ids}`);
    if (await interrupted()) return stopped('phase2', 'interrupted');
    if (manifest.ids.length === 0) {
      say('phase2 (3/3) skipped: the manifest selected no package');
      return finish(null, null, EXIT.ok);
    }

    // 3. Phase II: baseline-search on every selected package.
    const p2Control = await stageControl(io, args, 'phase2', {
      out: file('phase2_execution'),
      samples: 0,
      idsFile: file('phase2_ids'),
      concurrency: 1,
      continueOnError: true,
      maxErrors: 1000,
    });
    let p2Progress: Progress | null = null;
    let hits = 0;
    const p2 = await runPhase2({
      ...p2Control,
      ...simulation,
      agent: 'baseline-search',
      baselineMaxCandidates: 20,
      onStart: (info) => {
        say(`phase2 (3/3): ${info.total} packages, agent baseline-search, simulation ${simulation.simulationMode}`);
        if (!args.quiet) io.stderr(missingDependenciesWarning('run-all: phase2', info.missingDependencies));
        p2Progress = new Progress(io, 'run-all: phase2', info.total, args.quiet);
      },
      onResult: (r) => {
        hits += Number((r.row.score as { created_hits: number }).created_hits);
        (p2Progress as Progress | null)?.tick(`${hits} target types created`);
      },
    });
    (p2Progress as Progress | null)?.finish();
    written.phase2_execution = ifWritten('phase2_execution');
    summary.phase2 = phaseSummary(p2, manifest.ids.length);
    if (!args.quiet) io.stderr(phase2SummaryText(p2.runJson));
    if (p2.stopReason !== null) return stopped('phase2', p2.stopReason);
    say(`phase2 done → ${file('phase2_execution')}`);
    return finish(null, null, EXIT.ok);
  },
});

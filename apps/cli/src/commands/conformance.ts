/**
 * `smi conformance <suite> --dir <dir>`: run an upstream conformance suite and print a
 * summary (`--json`: one line `{"suite","files","tasks","passed","failed","skipped","failures":[...]}`).
 * Suites: `traces` (VM execution traces), `ir-vm` (Move VM transactional tests in IR, on
 * our assembler, verifier and VM), `ir-compiler` (Move IR compiler transactional tests),
 * `replay` (mainnet transactions from sui-replay snapshots, compared object by object),
 * `adapter` (Sui adapter transactional tests: Move sources compiled offline, PTBs run on
 * SimulationEnvironment, effects compared with the `.snap` transcripts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runAdapterSuite, runIrCompilerSuite, runIrVmSuite, runReplaySuite, runTraceSuite, type SuiteSummary } from '@smi/conformance';
import { defaultFrameworkDir, fixturesRootNamed } from '../framework.js';
import { snakeKeys } from '../snake-json.js';
import { defineCommand, type GlobalArgs } from '../command.js';
import { EXIT, InterruptedError } from '../errors.js';
import { type CliIo, jsonLine, resolvePath, UsageError } from '../io.js';
import { Progress } from '../progress.js';
import { header } from './registry.js';

/** Suites and the fixture folder each one reads by default (under `$SMI_FIXTURES/fixtures`). */
const SUITES: Readonly<Record<string, string>> = {
  traces: 'vm-traces',
  'ir-vm': 'ir-tests/move-vm-transactional-tests',
  'ir-compiler': 'ir-tests/move-ir-compiler-transactional-tests',
  verifier: 'ir-tests/bytecode-verifier-transactional-tests',
  replay: 'replay',
  adapter: 'adapter-tests',
};

interface ConformanceArgs {
  suite: string;
  dir?: string;
  filter?: string;
  framework?: string;
  verify: boolean;
  cache?: string;
}

async function run(io: CliIo, args: ConformanceArgs & GlobalArgs): Promise<SuiteSummary> {
  const fixtures = path.join(fixturesRootNamed(io), 'fixtures');
  const dir = args.dir ? resolvePath(io, args.dir) : path.join(fixtures, SUITES[args.suite]);
  if (!existsSync(dir)) throw new UsageError(`suite directory not found: ${dir}`, 'NOT_A_DIRECTORY');
  let progress: Progress | null = null;
  const onFile = (file: string, _done: number, total: number) => {
    progress ??= new Progress(io, `conformance ${args.suite}`, total, args.quiet);
    progress.tick(file);
  };
  const common = { filter: args.filter, onFile, signal: io.signal };
  const frameworkDir = args.framework ? resolvePath(io, args.framework) : defaultFrameworkDir(io);
  try {
    switch (args.suite) {
      case 'traces': {
        const { outcomes: _outcomes, ...summary } = await runTraceSuite(dir, frameworkDir, common);
        return summary;
      }
      case 'ir-vm':
      case 'verifier': {
        // The verifier suite is transactional too: its modules are published (and verified) on the VM.
        const { verdicts: _verdicts, ...summary } = await runIrVmSuite(dir, {
          ...common,
          suite: args.suite,
          frameworkDir,
          verifier: args.verify ? undefined : null,
        });
        return summary;
      }
      case 'ir-compiler':
        return await runIrCompilerSuite(dir, common);
      case 'replay': {
        const { reports: _reports, ...summary } = await runReplaySuite(dir, { ...common, fixturesRoot: path.dirname(fixtures) });
        return summary;
      }
      case 'adapter': {
        const cacheDir = args.cache ? resolvePath(io, args.cache) : null;
        const { verdicts: _verdicts, ...summary } = await runAdapterSuite(dir, { ...common, fixturesRoot: path.dirname(fixtures), cacheDir });
        return summary;
      }
      default:
        throw new UsageError(`unknown suite ${args.suite} (known: ${Object.keys(SUITES).join(', ')})`, 'INVALID_CHOICE');
    }
  } finally {
    (progress as Progress | null)?.finish();
  }
}

/** `smi conformance`. */
export const conformanceCommand = defineCommand<ConformanceArgs>({
  ...header('conformance'),
  positionals: { suite: { type: 'string', demandOption: true, choices: Object.keys(SUITES), describe: 'Suite to run' } },
  options: {
    dir: { type: 'string', describe: 'Suite directory (default: the fixture folder under $SMI_FIXTURES/fixtures)' },
    filter: { type: 'string', describe: 'Only files whose path contains this substring' },
    framework: { type: 'string', describe: 'Framework bundles directory (traces, ir-vm: move-stdlib is read from it)' },
    verify: { type: 'boolean', default: true, describe: 'ir-vm: run the bytecode verifier at publish (--no-verify skips the tasks that need it)' },
    cache: { type: 'string', describe: 'adapter: directory caching the compiled test packages between runs' },
  },
  examples: [
    { command: '$0 conformance traces --json', describe: 'VM execution traces against upstream, one JSON line' },
    { command: '$0 conformance ir-vm --filter enums/', describe: 'part of the Move VM transactional suite' },
    { command: '$0 conformance ir-compiler --quiet', describe: 'the IR compiler suite, without progress' },
    { command: '$0 conformance adapter --filter programmable/split_coins --json', describe: 'Sui adapter tests of one folder' },
  ],
  epilog:
    'With --json (snake_case keys): {"suite","files","tasks","passed","failed","skipped","failures":[{"file","task","expected","got"}],"skips","notes","not_executable"}. ' +
    'Exit 1 when a task fails. Ctrl-C stops after the current file and prints the summary of the files run ("interrupted": true), exit 130.',
  longRunning: true,
  run: async (args, io) => {
    const summary = await run(io, args);
    // An empty run passes nothing: say so rather than report a clean 0 of 0.
    if (summary.files === 0 && !summary.interrupted) {
      const where = args.dir ?? SUITES[args.suite];
      throw new UsageError(`no ${args.suite} tests in ${where}${args.filter === undefined ? '' : ` match --filter ${args.filter}`}`, 'NO_TESTS');
    }
    if (args.json) {
      const { skips: _skips, notes: _notes, ...shape } = summary;
      io.stdout(jsonLine(snakeKeys({ ...shape, skips: summary.skips, notes: summary.notes })));
    } else {
      const cut = summary.interrupted ? ' (interrupted)' : '';
      io.stdout(`${summary.suite}: ${summary.files} files, ${summary.tasks} tasks, ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped${cut}\n`);
      const indent = (t: string): string => t.replace(/\n/g, '\n      ');
      for (const f of summary.failures) io.stdout(`  FAIL ${f.file} ${f.task}: expected ${indent(f.expected)}; got ${indent(f.got)}\n`);
      for (const s of summary.skips) io.stdout(`  skip ${s.file} ${s.task}: ${s.reason}\n`);
      for (const n of summary.notes) io.stdout(`  note: ${n}\n`);
    }
    if (summary.interrupted) {
      const reason: unknown = io.signal?.reason;
      return reason instanceof InterruptedError ? reason.exitCode : EXIT.interrupted;
    }
    return summary.failed > 0 ? 1 : 0;
  },
});

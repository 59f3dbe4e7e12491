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
import type { Argv } from 'yargs';
import { runAdapterSuite, runIrCompilerSuite, runIrVmSuite, runReplaySuite, runTraceSuite, type SuiteSummary } from '@smi/conformance';
import { defaultFrameworkDir } from '../framework.js';
import { type CliIo, jsonLine, resolvePath, UsageError } from '../io.js';
import { Progress } from '../progress.js';

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
  json: boolean;
  quiet: boolean;
}

async function run(io: CliIo, args: ConformanceArgs): Promise<SuiteSummary> {
  const fixtures = path.join(resolvePath(io, process.env.SMI_FIXTURES ?? '../shared'), 'fixtures');
  const dir = args.dir ? resolvePath(io, args.dir) : path.join(fixtures, SUITES[args.suite]);
  if (!existsSync(dir)) throw new UsageError(`suite directory not found: ${dir}`);
  let progress: Progress | null = null;
  const onFile = (file: string, done: number, total: number) => {
    progress ??= new Progress(io, `conformance ${args.suite}`, total, args.quiet || args.json);
    progress.tick(file);
  };
  switch (args.suite) {
    case 'traces': {
      const framework = args.framework ? resolvePath(io, args.framework) : defaultFrameworkDir(io);
      const { outcomes: _outcomes, ...summary } = runTraceSuite(dir, framework, { filter: args.filter, onFile });
      return summary;
    }
    case 'ir-vm':
    case 'verifier': {
      // The verifier suite is transactional too: its modules are published (and verified) on the VM.
      const frameworkDir = args.framework ? resolvePath(io, args.framework) : defaultFrameworkDir(io);
      const { verdicts: _verdicts, ...summary } = runIrVmSuite(dir, {
        suite: args.suite,
        frameworkDir,
        filter: args.filter,
        onFile,
        verifier: args.verify ? undefined : null,
      });
      return summary;
    }
    case 'ir-compiler':
      return runIrCompilerSuite(dir, { filter: args.filter, onFile });
    case 'replay': {
      const { reports: _reports, ...summary } = runReplaySuite(dir, { fixturesRoot: path.dirname(fixtures), filter: args.filter, onFile });
      return summary;
    }
    case 'adapter': {
      const { verdicts: _verdicts, ...summary } = await runAdapterSuite(dir, { fixturesRoot: path.dirname(fixtures), filter: args.filter, onFile, cacheDir: args.cache ? resolvePath(io, args.cache) : null });
      return summary;
    }
    default:
      throw new UsageError(`unknown suite ${args.suite} (known: ${Object.keys(SUITES).join(', ')})`);
  }
}

/** Register the command. */
export function conformanceCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    command: 'conformance <suite>',
    describe: 'Run an upstream conformance suite against SMI and summarise the result',
    builder: (y: Argv) =>
      y
        .positional('suite', { type: 'string', demandOption: true, choices: Object.keys(SUITES), describe: 'Suite to run' })
        .option('dir', { type: 'string', describe: 'Suite directory (default: the fixture folder under $SMI_FIXTURES/fixtures)' })
        .option('filter', { type: 'string', describe: 'Only files whose path contains this substring' })
        .option('framework', { type: 'string', describe: 'Framework bundles directory (traces, ir-vm: move-stdlib is read from it)' })
        .option('verify', { type: 'boolean', default: true, describe: 'ir-vm: run the bytecode verifier at publish (--no-verify skips the tasks that need it)' })
        .option('cache', { type: 'string', describe: 'adapter: directory caching the compiled test packages between runs' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line' })
        .option('quiet', { type: 'boolean', default: false, describe: 'No progress output' })
        .example('$0 conformance traces --json', '')
        .example('$0 conformance ir-vm --filter enums/', '')
        .example('$0 conformance ir-compiler --json', '')
        .example('$0 conformance adapter --filter programmable/ --json', ''),
    handler: async (args: ConformanceArgs) => {
      const summary = await run(io, args);
      if (args.json) {
        const { skips: _skips, notes: _notes, ...shape } = summary;
        io.stdout(jsonLine({ ...shape, skips: summary.skips, notes: summary.notes }));
      } else {
        io.stdout(
          `${summary.suite}: ${summary.files} files, ${summary.tasks} tasks, ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped\n`,
        );
        const indent = (t: string): string => t.replace(/\n/g, '\n      ');
        for (const f of summary.failures) io.stdout(`  FAIL ${f.file} ${f.task}: expected ${indent(f.expected)}; got ${indent(f.got)}\n`);
        for (const s of summary.skips) io.stdout(`  skip ${s.file} ${s.task}: ${s.reason}\n`);
        for (const n of summary.notes) io.stdout(`  note: ${n}\n`);
      }
      setExit(summary.failed > 0 ? 1 : 0);
    },
  };
}

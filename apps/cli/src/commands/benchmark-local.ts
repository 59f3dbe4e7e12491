/**
 * `smi benchmark-local`: type inhabitation of every public or entry function of a corpus
 * (Tier A static stages, Tier B real transactions), one JSONL row per function, and a
 * summary. The original's flags, all wired; rows replay through `smi sandbox-exec`.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { findPackageDirs, loadPackageDir, type MovePackage, PackageError, canonicalAddress } from '@smi/bytecode';
import { type BenchmarkRow, type BenchmarkSummary, DEFAULT_MAX_ATTEMPTS, rowLine, runBenchmark, runTargets, summaryText } from '@smi/inhabit';
import { defineCommand } from '../command.js';
import { EXIT, noPackages, notADirectory, OutputClosedError } from '../errors.js';
import { frameworkPackages, loadCorpora, protocolConfigFor } from '../framework.js';
import { type CliIo, jsonLine, readInput, resolveInputPath, resolvePath, UsageError, writeOutput } from '../io.js';
import { Progress } from '../progress.js';
import { RowFile } from '../row-file.js';
import { dataSourceOf, NETWORK_OPTIONS } from '../network-setup.js';
import { sampleCorpus } from '../sample-corpus.js';
import { type BenchmarkLocalArgs, parseBenchmarkFlags } from './benchmark-flags.js';
import { benchmarkSpec, checkAndKeepSpec } from './benchmark-spec.js';
import { header } from './registry.js';

export type { BenchmarkLocalArgs } from './benchmark-flags.js';

/**
 * A row for a target package that could not be read, with the reader's own status (a module's
 * bytecode status, `MALFORMED`, `BAD_HEADER_TABLE`, …, else the package error's code): the run
 * goes on without it, the summary lists it apart from the functions, and the run exits 1.
 */
function loadFailureRow(id: string, e: PackageError): BenchmarkRow {
  const cause = e.cause as { code?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : e.code;
  return { target_package: id, target_module: '', target_function: '', status: 'miss', failure_stage: 'A1', failure_reason: `package failed to load: ${e.message}`, error_code: code };
}

/**
 * The target packages of every `--target-corpus` (each directory read on its own, so one
 * bad package does not stop the run; a package in two of them counts once).
 */
function loadTargets(io: CliIo, roots: readonly string[]): { packages: MovePackage[]; failures: BenchmarkRow[] } {
  const packages: MovePackage[] = [];
  const failures: BenchmarkRow[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const dir = resolveInputPath(io, root);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw notADirectory(`--target-corpus ${root}`);
    const dirs = existsSync(path.join(dir, 'bytecode_modules')) ? [dir] : findPackageDirs(dir);
    if (dirs.length === 0) throw noPackages(`--target-corpus ${root}`);
    for (const d of dirs) {
      try {
        const p = loadPackageDir(d);
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        packages.push(p);
      } catch (e) {
        if (!(e instanceof PackageError)) throw e;
        failures.push(loadFailureRow(path.basename(d), e));
      }
    }
  }
  return { packages, failures };
}

async function packageIds(io: CliIo, file: string): Promise<Set<string>> {
  const text = (await readInput(io, file, '--package-ids-file')).toString('utf8');
  const ids = new Set<string>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    if (!/^(0x)?[0-9a-fA-F]{1,64}$/.test(line)) throw new UsageError(`--package-ids-file ${file}:${i + 1}: ${JSON.stringify(line)} is not a package id`, 'INVALID_ADDRESS');
    ids.add(canonicalAddress(line));
  }
  return ids;
}

/** `smi benchmark-local`. */
export const benchmarkLocalCommand = defineCommand<BenchmarkLocalArgs>({
  ...header('benchmark-local'),
  options: {
    'target-corpus': {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Packages to benchmark: a corpus root (sui-packages layout) or one package directory (repeatable: the corpora are benchmarked together)',
    },
    sample: {
      type: 'boolean',
      default: false,
      describe:
        'Benchmark the default sample corpus (the packages of both shared corpora): from $SMI_FIXTURES when it is there, else fetched once into the user cache, with the framework, from --rpc-url',
    },
    output: { type: 'string', default: '-', describe: 'JSONL rows: a file (written as <file>.partial until the run ends), or - for standard output', file: 'write' },
    'tier-a-only': { type: 'boolean', default: false, describe: 'Static stages only (no transactions)' },
    'restricted-state': { type: 'boolean', default: false, describe: 'Never forge objects from raw BCS: only objects of the state, chains and setup transactions' },
    'use-mm2': { type: 'boolean', default: true, alias: 'mm2', describe: 'Multi-hop constructor chains (--no-mm2: single hop)' },
    'static-only': { type: 'boolean', default: false, describe: 'Stop after the static checks (A1, A2, type-argument bounds): status static_pass' },
    'max-chain-depth': { type: 'number', default: 5, describe: 'Longest constructor chain' },
    'phase-errors': { type: 'boolean', default: true, describe: 'Add the taxonomy phase, error source and limitation flag to failing rows (--no-phase-errors: stage and E-code only)' },
    'error-distribution': { type: 'boolean', default: false, describe: 'Print the failures by phase of the taxonomy with the summary' },
    'function-filter': { type: 'string', describe: 'Only functions whose name matches this regular expression' },
    'module-filter': { type: 'string', describe: 'Only modules whose name matches this regular expression' },
    'use-ptb': { type: 'boolean', default: false, describe: 'Tier B as one PTB per target (chain results feed the target); without it, one transaction per call' },
    'strict-crypto': { type: 'boolean', default: true, describe: 'Real signature verification (--no-strict-crypto: every verification passes, as the original; rows say permissive_crypto)' },
    'clock-base-ms': { type: 'string', describe: 'Clock time of the state, ms (default 1704067200000)' },
    'random-seed': { type: 'string', describe: 'Randomness behind Random 0x8: hex, up to 32 bytes (default zeros)' },
    corpus: { type: 'string', array: true, default: [] as string[], describe: 'Dependencies to load but not benchmark: package directories or corpus roots (repeatable)' },
    'package-ids-file': { type: 'string', describe: 'Only these packages of the target corpus: one id per line (# comments), or - for standard input', file: 'read' },
    'include-framework': { type: 'boolean', default: false, describe: 'Benchmark 0x1, 0x2 and 0x3 too (skipped by default, as the original)' },
    jobs: { type: 'number', describe: 'Parallel jobs (default: the number of cores); 2 or more run on worker threads, where --timeout-ms applies' },
    shard: { type: 'string', describe: 'Run part K of N (K/N): targets i with i mod N = K-1 (packages that fail to load: in part 1); smi merge-rows joins the parts into the rows of one run' },
    summary: { type: 'string', describe: 'Write the summary JSON to this file, or - for standard output', file: 'write' },
    resume: { type: 'boolean', default: false, describe: 'Keep the rows an interrupted run wrote to --output and do the rest' },
    timings: { type: 'boolean', default: true, describe: 'elapsed_ms in rows (--no-timings: output is byte-for-byte the same on every run)' },
    'max-attempts': {
      type: 'number',
      describe: `Tier B attempts per function that get no further than the furthest so far (default ${DEFAULT_MAX_ATTEMPTS}; a search that keeps getting further may use up to four times as many): value profiles, values the code compared the inputs with, other constructors and objects, other instantiations, sequences`,
    },
    'gas-budget': { type: 'string', describe: 'Gas budget of each transaction, MIST (default 5000000000)' },
    'timeout-ms': { type: 'number', default: 60000, describe: 'Wall-clock limit of one function (with --jobs 2 or more; gas bounds every function anyway)' },
    framework: { type: 'string', describe: 'Framework bundles directory (default $SMI_FIXTURES/fixtures/framework)' },
    'protocol-version': { type: 'number', describe: 'Protocol version (default: the latest in $SMI_FIXTURES, else in the cache)' },
    ...NETWORK_OPTIONS,
  },
  examples: [
    {
      command: '$0 benchmark-local --sample --use-ptb --output results.jsonl',
      describe: 'the quick start: the default sample corpus (the shared corpora; fetched into the cache on first use where they are not)',
    },
    {
      command: '$0 benchmark-local --target-corpus ../shared/corpus --target-corpus ../shared/corpus-mainnet --corpus ../shared/corpus-deps --use-ptb --output results.jsonl',
      describe: 'both shared corpora together (with the packages the first links to), Tier A and B, summary on stderr',
    },
    {
      command: '$0 benchmark-local --target-corpus ../shared/corpus/0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f --corpus ../shared/corpus --use-ptb --jobs 1 | head -c 300',
      describe: 'one package, rows on stdout',
    },
    {
      command: '$0 benchmark-local --target-corpus ../shared/corpus --tier-a-only --error-distribution --output a.jsonl --summary summary.json',
      describe: 'Tier A only, with the taxonomy table and a summary file',
    },
  ],
  epilog:
    'Rows (one JSON line per function; README of @smi/inhabit has each field): target_package, target_module, target_function, duplicate_of (an upgrade of the same ' +
    'package has the function: that row counts), status (tier_b_hit, tier_a_hit, miss, static_pass), failure_stage, failure_reason, tier_a_details (resolved_params, ' +
    'bcs_roundtrip_verified, has_object_params), tier_b_details (execution_success, error, target_modules_accessed, static_calls, path, attempts, value_profile, ' +
    'byte_length, learned_values, checks, undisposable, sequence, consumed_by, coverage), error_code, error_phase, error_source (missing_dependency, harness_limitation, ' +
    'target_package_limitation, unsupported), is_expected_limitation, type_args, abort (code, location, category), gas_used, created_object_types, provenance (chain, ' +
    'init_state, synthesized), hit_class (structured, pure_only, no_args), permissive_crypto, elapsed_ms, transactions (the smi sandbox-exec requests that reproduce the ' +
    'outcome: feed them to smi sandbox-exec --interactive --corpus <the same corpus dirs>). The summary (stderr, --summary, --json) leads with the headline: real hits ' +
    '(strict, not synthesized, real signature checks), counted once per function of an original package, and the real structured hits; the loose Tier B rate and its ' +
    'splits follow. Exit 0 when the run finished, 130 when interrupted (the rows written are kept; --resume continues), 2 on bad input.',
  longRunning: true,
  run: async (args, io) => {
    const flags = parseBenchmarkFlags(args);
    if (args.sample === args['target-corpus'].length > 0)
      throw new UsageError(args.sample ? 'give either --sample or --target-corpus' : 'benchmark-local needs --target-corpus DIR (or --sample: the default sample corpus)', 'USAGE');
    if (args.sample && args['package-ids-file'] !== undefined) throw new UsageError('--sample chooses its packages: give --target-corpus with --package-ids-file', 'USAGE');
    const sample = args.sample ? await sampleCorpus(io, () => dataSourceOf(args), args.quiet) : null;
    const { packages: loaded, failures: loadFailures } = loadTargets(io, sample?.targets ?? args['target-corpus']);
    // A package that fails to load is one row of the run: shard 1 writes it, so joined shards are one run's rows.
    const failures = flags.shard === undefined || flags.shard.index === 1 ? loadFailures : [];
    if ((args.json || args.summary === '-') && args.output === '-') {
      throw new UsageError(`${args.json ? '--json' : '--summary -'} prints the summary on standard output: give the rows a file with --output <file>`, 'USAGE');
    }
    let targets = loaded;
    if (sample?.packageIds) targets = loaded.filter((p) => sample.packageIds?.includes(p.id));
    if (args['package-ids-file'] !== undefined) {
      const ids = await packageIds(io, args['package-ids-file']);
      targets = loaded.filter((p) => ids.has(p.id));
      const missing = [...ids].filter((id) => !loaded.some((p) => p.id === id));
      if (missing.length > 0 && !args.quiet)
        io.stderr(`benchmark-local: warning: ${missing.length} package ids of --package-ids-file are not in --target-corpus (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})\n`);
    }
    // --package-ids-file narrows the targets, never what is loaded: the other packages of
    // the target corpus stay loaded (as dependencies), as they are on chain.
    const unselected = loaded.filter((p) => !targets.includes(p));
    const dependencies = [...loadCorpora(io, [...(sample?.corpus ?? []), ...args.corpus]), ...unselected];
    const targetIds = new Set(targets.map((p) => p.id));
    const framework = frameworkPackages(io, args.framework, [...loaded, ...dependencies]);
    const options = {
      framework,
      dependencies: dependencies.filter((d) => !targetIds.has(d.id)),
      targets,
      protocolConfig: protocolConfigFor(io, args['protocol-version']),
      ...flags,
    };
    if (args.output !== '-') {
      const spec = benchmarkSpec({ targets, dependencies: options.dependencies, framework, protocolVersion: options.protocolConfig.version, flags });
      checkAndKeepSpec(resolvePath(io, args.output), spec, args.resume, (line) => {
        if (!args.quiet) io.stderr(`benchmark-local: warning: ${line}\n`);
      });
    }
    const selected = runTargets(options);
    const order = [...failures, ...selected.map((t) => ({ target_package: t.packageId, target_module: t.module, target_function: t.name }))];
    const packageCount = new Set(selected.map((t) => t.packageId)).size;
    const { out, done } = RowFile.open(io, args.output, args.resume, order);
    const doneFailures = done.slice(0, failures.length);
    for (const row of failures.slice(doneFailures.length)) out.write(rowLine(row));
    const doneTargets = done.slice(failures.length);
    let progress: Progress | null = null;
    let hitsA = 0;
    let hitsB = 0;
    let lastPackage = '';
    let packagesSeen = 0;
    for (const r of done) {
      if (r.status === 'tier_a_hit' || r.status === 'tier_b_hit') hitsA++;
      if (r.status === 'tier_b_hit') hitsB++;
    }
    let result;
    try {
      result = await runBenchmark({
        ...options,
        // One job runs in this thread: no worker to start (gas still bounds every function).
        jobs: flags.jobs === 1 ? 0 : flags.jobs,
        done: doneTargets,
        loadFailures: failures,
        selected,
        ...(io.signal ? { signal: io.signal } : {}),
        onStart: (info) => {
          if (!args.quiet) {
            const inits = info.inits.filter((i) => i.success).length;
            // The constructor graph is a line of the summary at the end, not repeated here.
            io.stderr(
              `benchmark-local: ${info.targets} functions in ${packageCount} package${packageCount === 1 ? '' : 's'}${info.skipped > 0 ? ` (${info.skipped} done before, resumed)` : ''}; ${inits}/${info.inits.length} inits ran; ${flags.jobs === 1 ? 'in this thread' : `${flags.jobs} workers`}\n`,
            );
          }
          progress = new Progress(io, 'benchmark-local', info.targets, args.quiet, info.skipped);
        },
        onRow: (row) => {
          out.write(rowLine(row));
          if (row.status === 'tier_a_hit' || row.status === 'tier_b_hit') hitsA++;
          if (row.status === 'tier_b_hit') hitsB++;
          if (row.target_package !== lastPackage) {
            lastPackage = row.target_package;
            packagesSeen++;
          }
          (progress as Progress | null)?.tick(`package ${packagesSeen}/${packageCount} · A ${hitsA} · B ${hitsB}`);
        },
      });
    } catch (e) {
      out.close();
      throw e;
    }
    (progress as Progress | null)?.finish();
    out.close();
    const summary: BenchmarkSummary = result.summary;
    // The reader of the rows went away (`| head`): what it wanted it has; no "(interrupted)"
    // summary of a run nobody stopped.
    if (result.interrupted && io.signal?.reason instanceof OutputClosedError) return io.signal.reason.exitCode;
    if (args.summary !== undefined) writeOutput(io, args.summary, JSON.stringify(summary, null, 2) + '\n');
    if (!args.quiet) io.stderr(summaryText(summary, { errorDistribution: args['error-distribution'] }));
    if (args.json) io.stdout(jsonLine(summary));
    const reason: unknown = io.signal?.reason;
    if (result.interrupted) return reason !== null && typeof reason === 'object' && 'exitCode' in reason ? (reason as { exitCode: number }).exitCode : 130;
    // A corpus with packages that cannot be read is a failed run (its rows are kept).
    return failures.length > 0 ? EXIT.failure : EXIT.ok;
  },
});

/**
 * `smi phase1`: Phase I of the LLM benchmark (key-struct discovery), with the original
 * `smi-phase1` flags, plus parallel packages, a run deadline, a budget, the response
 * cache, resume, `--retry-errors` and shards. Each package's result is kept as it
 * finishes; Ctrl-C or a kill leaves a run that `--resume` continues.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { doctorAgent, doctorText, isFailure, type Outcome, PHASE1_AGENTS, type Phase1Agent, phase1SummaryText, type PyJson, runPhase1, smokeAgent, type StructuredMode } from '@smi/harness';
import { defineCommand } from '../command.js';
import { EXIT, type InterruptedError, UsageError } from '../errors.js';
import { MODEL_OPTIONS, type ModelArgs, RUN_DIR_OPTIONS, type RunDirArgs, runStoreFor, setupModel, spentLine } from '../harness-setup.js';
import { jsonLine } from '../io.js';
import { type RunControlArgs, runControlOf } from '../run-control.js';
import { Progress } from '../progress.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

/** Arguments of `smi phase1`. */
export interface Phase1Args extends ModelArgs, RunDirArgs, RunControlArgs {
  agent: Phase1Agent;
  'rust-bin'?: string;
  'build-rust': boolean;
  'max-structs-in-prompt': number;
  epochs: number;
  'include-type-lists': boolean;
  'smoke-agent': boolean;
  'doctor-agent': boolean;
  'budget-usd'?: number;
  'response-format': StructuredMode;
}

function positive(name: string, v: number | undefined, allowZero = false): void {
  if (v === undefined) return;
  if (!Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) throw new UsageError(`--${name} ${v}: expected a ${allowZero ? 'non-negative' : 'positive'} number`, 'INVALID_NUMBER');
}

/** `smi phase1`. */
export const phase1Command = defineCommand<Phase1Args>({
  ...header('phase1'),
  options: {
    'corpus-root': { type: 'string', demandOption: true, describe: 'Corpus in the sui-packages layout (packages found at any depth)' },
    samples: { type: 'number', default: 25, describe: 'Packages to sample (0: all); with --package-ids-file or --dataset, how many to do in this session (a batch)' },
    seed: { type: 'string', default: '0', describe: 'Seed of the sampling and of the mock agents (any integer)' },
    'package-ids-file': { type: 'string', describe: 'Package ids to run, in order (one per line, # comments), or - for standard input', file: 'read' },
    dataset: { type: 'string', describe: 'A named dataset: <manifests>/datasets/NAME.txt (type_inhabitation_top25, packages_with_keys, ...)' },
    manifests: { type: 'string', describe: 'Manifests directory (default $SMI_FIXTURES/fixtures/harness/manifests)' },
    agent: { type: 'string', choices: PHASE1_AGENTS, default: 'mock-empty', describe: 'Who answers: a mock agent, or a model at an OpenAI-compatible endpoint' },
    'rust-bin': { type: 'string', hidden: true, describe: 'Ignored: smi reads the bytecode itself' },
    'build-rust': { type: 'boolean', default: false, hidden: true, describe: 'Ignored: smi reads the bytecode itself' },
    out: { type: 'string', describe: 'Also write the run JSON (schema_version 1, with _checksum) here, or - for standard output at the end', file: 'write' },
    resume: { type: 'boolean', default: false, describe: 'Continue a run: --run-dir/--run-id, else the newest unfinished one in --log-dir, else the original --out file' },
    'retry-errors': { type: 'boolean', default: false, describe: 'With --resume: run the packages that failed (limit, model_error, infra_error) again' },
    force: { type: 'boolean', default: false, describe: "With --resume: continue even when the settings differ from the run's spec" },
    'max-structs-in-prompt': { type: 'number', default: 200, describe: 'Structs shown in the prompt (halved on an empty or truncated answer, down to 5)' },
    epochs: { type: 'number', default: 1, describe: 'Samples per package, each its own cache key (pass@k and the mean F1 over samples in the aggregate); the row scores the first' },
    'per-package-timeout-seconds': { type: 'number', default: 120, describe: 'Time limit of one package (a package over it scores as a limit)' },
    'include-type-lists': { type: 'boolean', default: false, describe: 'Put the truth and predicted type lists in the run JSON' },
    'smoke-agent': { type: 'boolean', default: false, describe: 'One minimal call through the model client and parser, then exit' },
    'doctor-agent': { type: 'boolean', default: false, describe: 'Print the model configuration (key redacted), probe GET /models and POST /chat/completions, then exit' },
    'continue-on-error': { type: 'boolean', default: false, describe: 'Go on past failed packages (without it the first failure stops the run)' },
    'max-errors': { type: 'number', default: 25, describe: 'With --continue-on-error: stop after more failures than this' },
    'checkpoint-every': { type: 'number', default: 10, describe: 'Rewrite the run JSON every N packages (0: at the end only; results are kept per package anyway)' },
    concurrency: { type: 'number', default: 4, alias: 'jobs', describe: 'Packages worked on at once' },
    'max-run-seconds': { type: 'number', describe: 'Stop this session after this long (unfinished packages are left for --resume)' },
    'parent-pid': { type: 'number', describe: 'Stop when this process is gone' },
    'budget-usd': { type: 'number', describe: 'Stop starting packages once this much is spent (needs --prices)' },
    shard: { type: 'string', describe: 'Run part K of N (K/N) by a hash of the package id; smi merge joins the parts' },
    'response-format': {
      type: 'string',
      choices: ['auto', 'json_schema', 'json_object', 'none'] as const,
      default: 'auto',
      describe: 'Structured output: auto asks for json_schema and drops it when the server refuses (SMI_RESPONSE_FORMAT=json_object is kept)',
    },
    ...MODEL_OPTIONS,
    ...RUN_DIR_OPTIONS,
  },
  examples: [
    { command: '$0 phase1 --corpus-root ../shared/corpus --samples 0 --agent mock-perfect --no-log --out -', describe: 'every package of the shared corpus with a mock agent; the run JSON on stdout' },
    {
      command: '$0 phase1 --corpus-root ../shared/corpus --samples 5 --seed 7 --agent mock-noisy --run-dir runs/noisy --out noisy.json',
      describe: 'a sample of 5 into a run directory (events.jsonl, results/, run.json)',
    },
    {
      command: '$0 phase1 --corpus-root ../shared/corpus --samples 5 --seed 7 --agent mock-noisy --run-dir runs/noisy --resume',
      describe: 'resume it (after Ctrl-C, a kill or a deadline): only what is left is done',
    },
    {
      command: '$0 phase1 --corpus-root ../shared/corpus --package-ids-file ../shared/fixtures/harness/manifests/standard_phase2_benchmark.txt --samples 0 --agent mock-random --quiet --json',
      describe: 'the ids of a manifest that the corpus holds, in file order (--dataset NAME reads <manifests>/datasets/NAME.txt)',
    },
  ],
  epilog:
    'A real model (--agent real-openai-compatible) is configured as the original: SMI_API_KEY (or OPENAI_API_KEY, OPENROUTER_API_KEY, ...), ' +
    'SMI_MODEL, SMI_API_BASE_URL (OpenAI, OpenRouter, vLLM, llama.cpp, ...), SMI_TEMPERATURE, SMI_MAX_TOKENS, SMI_RESPONSE_FORMAT, SMI_THINKING, ' +
    'SMI_MAX_REQUEST_RETRIES, in the environment or a .env file. Answers are cached in ~/.cache/smi/responses (smi cache ls). ' +
    'Exit 0 when the run (or its batch) finished, 1 when it stopped on failures, a budget, a deadline or a dead parent (resumable), 2 on bad input, 130/143 when interrupted (resumable).',
  longRunning: true,
  run: async (args, io) => {
    const argv = args.invocation;
    const warn = (msg: string): void => {
      if (!args.quiet) io.stderr(`phase1: warning: ${msg}\n`);
    };
    if (args['rust-bin'] !== undefined || args['build-rust']) warn('--rust-bin/--build-rust are ignored: smi reads the bytecode itself');
    if (args.out === '-' && args.json) throw new UsageError('--json and --out - both print on standard output: give --out a file', 'USAGE');
    if (args['retry-errors'] && !args.resume) throw new UsageError('--retry-errors continues a run: add --resume', 'USAGE');
    if (args['package-ids-file'] !== undefined && args.dataset !== undefined) throw new UsageError('give either --package-ids-file or --dataset', 'USAGE');
    if (!/^-?\d+$/.test(args.seed.trim())) throw new UsageError(`--seed ${args.seed}: expected an integer`, 'INVALID_NUMBER');
    for (const [name, v] of [
      ['max-run-seconds', args['max-run-seconds']],
      ['budget-usd', args['budget-usd']],
      ['per-package-timeout-seconds', args['per-package-timeout-seconds']],
      ['request-timeout-seconds', args['request-timeout-seconds']],
    ] as const)
      positive(name, v);
    positive('max-structs-in-prompt', args['max-structs-in-prompt']);
    if (!Number.isInteger(args.epochs) || args.epochs < 1) throw new UsageError(`--epochs ${args.epochs}: expected a whole number of samples, at least 1`, 'INVALID_NUMBER');
    positive('concurrency', args.concurrency);
    positive('checkpoint-every', args['checkpoint-every'], true);
    positive('max-errors', args['max-errors'], true);
    const real = args.agent === 'real-openai-compatible' || args['doctor-agent'] || args['smoke-agent'];
    const model = real ? await setupModel(io, args) : null;
    if (args['doctor-agent'] && model !== null) {
      const report = await doctorAgent(model.config);
      io.stdout(args.json ? jsonLine(report) : doctorText(report));
      return report.ok ? EXIT.ok : EXIT.failure;
    }
    if (args['smoke-agent'] && model !== null) {
      try {
        const r = await smokeAgent(model.client, model.config, io.signal);
        io.stdout(args.json ? jsonLine({ status: 'ok', key_types: r.keyTypes }) : `real agent smoke ok (${model.config.model} at ${model.config.baseUrl})\n`);
        return EXIT.ok;
      } catch (e) {
        const msg = errorMessage(e);
        io.stdout(args.json ? jsonLine({ status: 'error', error_code: 'SMOKE_FAILED', message: msg }) : '');
        if (!args.json) io.stderr(`phase1: smoke failed: ${msg}\n`);
        return EXIT.failure;
      }
    }
    const where = runStoreFor(io, args, 'phase1', 'phase1');
    if (where.picked && !args.quiet) io.stderr(`phase1: resuming ${where.dir}\n`);
    for (const w of model?.warnings ?? []) warn(w);
    if (model !== null) model.onRetry.fn = (fields) => where.store.event('llm_retry', fields);
    const control = await runControlOf(io, args, where, argv);
    const out = control.out ?? null;
    if (args.resume && where.store.readSpec() === null && out !== null && existsSync(out) && !args.quiet) io.stderr(`phase1: resuming the rows of ${args.out}\n`);
    let progress: Progress | null = null;
    const result = await runPhase1({
      ...control,
      agent: args.agent,
      ...(model ? { model: model.client, params: model.params, effectiveConfig: model.effective as { [key: string]: PyJson } } : {}),
      ...(model?.price ? { price: model.price } : {}),
      structured: model?.config.responseFormat === 'json_object' && args['response-format'] === 'auto' ? 'json_object' : args['response-format'],
      maxStructsInPrompt: args['max-structs-in-prompt'],
      epochs: args.epochs,
      includeTypeLists: args['include-type-lists'],
      budgetUsd: args['budget-usd'] ?? null,
      onStart: (info) => {
        if (!args.quiet) {
          if (info.missing.length > 0) warn(`${info.missing.length} ids are not in ${args['corpus-root']} (${info.missing.slice(0, 3).join(', ')}${info.missing.length > 3 ? ', ...' : ''})`);
          const skipped = info.skipped.duplicate.length + info.skipped.blacklisted.length + info.skipped.noMetadataId.length;
          if (skipped > 0)
            warn(
              `corpus: ${info.skipped.duplicate.length} duplicate, ${info.skipped.blacklisted.length} blacklisted and ${info.skipped.noMetadataId.length} packages without a metadata.json id skipped`,
            );
          io.stderr(
            `phase1: ${info.total} packages${info.done > 0 ? ` (${info.done} done before)` : ''}, ${info.todo} to do now, agent ${args.agent}${model ? ` (${model.config.model})` : ''}; run ${where.dir ?? '(not kept: --no-log)'}\n`,
          );
        }
        progress = new Progress(io, 'phase1', info.done + info.todo, args.quiet, info.done);
      },
      onResult: (_r, counts: Record<Outcome, number>) => {
        const failed = (Object.keys(counts) as Outcome[]).filter(isFailure).reduce((n, k) => n + counts[k], 0);
        (progress as Progress | null)?.tick(`correct ${counts.correct} · wrong ${counts.wrong} · failed ${failed}${model && model.retries.count > 0 ? ` · retries ${model.retries.count}` : ''}`);
      },
    });
    (progress as Progress | null)?.finish();
    if (args.out === '-') io.stdout(result.text);
    const summary = {
      status: result.status,
      stop_reason: result.stopReason,
      run_id: where.runId,
      run_dir: where.dir,
      out: args.out ?? null,
      packages: result.run.ids.length,
      done: (result.runJson.packages as unknown[]).length,
      aggregate: JSON.parse(JSON.stringify(result.runJson.aggregate)) as unknown,
      totals: result.totals,
    };
    if (args.json) io.stdout(jsonLine(summary));
    if (!args.quiet) {
      io.stderr(phase1SummaryText(result.runJson));
      const t = result.totals;
      io.stderr(spentLine(t));
      const again = where.dir ? `continue with --resume --run-dir ${path.relative(io.cwd, where.dir) || '.'}` : 'nothing was kept (--no-log): run again';
      if (result.stopReason !== null) io.stderr(`phase1: stopped: ${result.stopDetail}; ${again}\n`);
      else if (result.status === 'started') io.stderr(`phase1: batch done; ${result.run.ids.length - (result.runJson.packages as unknown[]).length} packages left: run again with --resume\n`);
    }
    if (result.stopReason === 'interrupted') return (io.signal?.reason as InterruptedError | undefined)?.exitCode ?? EXIT.interrupted;
    return result.stopReason === null ? EXIT.ok : EXIT.failure;
  },
});

/**
 * `smi phase2`: Phase II of the LLM benchmark (type inhabitation: create objects of a
 * package's key types), with the original `smi-inhabit` flags. Plans run on our own simulator
 * (`--simulation-mode local`, or `build-only`), deterministic and free, or on a fullnode as
 * the original ran them (`dry-run`, `dev-inspect`: `--rpc-url`, `--sender`, `--gas-coin`,
 * checked by a preflight before the run starts); the run machinery is Phase I's (run
 * directory, resume, shards, deadlines).
 */
import {
  DEFAULT_MODEL_AGENT_LIMITS,
  MODEL_PHASE2_AGENTS,
  type NodeContext,
  NodeSetupError,
  PHASE2_AGENTS,
  type Phase2Agent,
  phase2State,
  type Phase2State,
  phase2SummaryText,
  prepareNode,
  type PyJson,
  readPlanFile,
  runPhase2,
  SUMMARY_MODES,
  type SummaryMode,
} from '@smi/harness';
import { defineCommand } from '../command.js';
import { EXIT, inputError, type InterruptedError, UsageError } from '../errors.js';
import { MODEL_OPTIONS, type ModelArgs, RUN_DIR_OPTIONS, type RunDirArgs, runStoreFor, setupModel, spentLine } from '../harness-setup.js';
import { jsonLine, readInput, resolvePath } from '../io.js';
import { dataSourceOf, type NetworkArgs, NETWORK_OPTIONS } from '../network-setup.js';
import { type RunControlArgs, runControlOf } from '../run-control.js';
import { Progress } from '../progress.js';
import { addressOf, bigintOf, isNodeMode, missingDependenciesWarning, SIMULATION_OPTIONS, type SimulationArgs, type SimulationMode, simulationModeOf, simulationSettingsOf } from './phase2-support.js';
import { header } from './registry.js';

/** Arguments of `smi phase2`. */
interface Phase2Args extends ModelArgs, RunDirArgs, RunControlArgs, SimulationArgs, NetworkArgs {
  agent: Phase2Agent;
  'plan-file'?: string;
  'baseline-max-candidates': number;
  epochs: number;
  'max-planning-calls': number;
  'max-plan-attempts': number;
  'summary-mode': Exclude<SummaryMode, 'focused'>;
  'need-more': 'auto' | 'json';
  'max-functions': number;
  'max-repair-rounds': number;
  'state-file'?: string;
  'budget-usd'?: number;
  'rust-bin'?: string;
  'dev-inspect-bin'?: string;
  'gas-coin'?: string;
  'gas-price'?: string;
  'include-created-types': boolean;
  'require-dry-run': boolean;
}

function atLeast(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new UsageError(`--${name} ${v}: expected an integer of at least ${min}`, 'INVALID_NUMBER');
}

/** The options only a node uses, and what a node cannot do, checked before anything runs. */
function checkNodeOptions(args: Phase2Args, mode: SimulationMode): void {
  const onNode = isNodeMode(mode);
  for (const name of ['gas-coin', 'gas-price'] as const) {
    if (args[name] !== undefined && !onNode) throw new UsageError(`--${name} is for plans run on a node: it needs --simulation-mode dry-run or dev-inspect`, 'NEEDS_NETWORK');
  }
  if (args['require-dry-run'] && mode === 'dev-inspect') throw new UsageError('--require-dry-run needs --simulation-mode dry-run', 'USAGE');
  if (!onNode) return;
  if (args.agent === 'helper-package') throw new UsageError('--agent helper-package publishes its helper into a local simulation: use --simulation-mode local', 'NEEDS_LOCAL');
  if (args.agent === 'chain-search') throw new UsageError('--agent chain-search searches on a local simulation and names its objects: use --simulation-mode local', 'NEEDS_LOCAL');
  if (args['state-file'] !== undefined) throw new UsageError("--state-file prepares a local simulation: on a node the sender's own objects are used", 'NEEDS_LOCAL');
}

/**
 * The original's preflight, before the run starts: the node answers, and a dry run for an
 * agent that is not a mock has a real sender owning a Coin<SUI> (exit 2 with the reason).
 */
async function nodeOf(args: Phase2Args, mode: 'dry-run' | 'dev-inspect', sender: string): Promise<NodeContext> {
  const source = dataSourceOf(args);
  try {
    return await prepareNode({
      source,
      mode,
      sender,
      ...(args['gas-coin'] !== undefined ? { gasCoin: addressOf('gas-coin', args['gas-coin']) } : {}),
      ...(args['gas-price'] !== undefined ? { gasPrice: bigintOf('gas-price', args['gas-price']) } : {}),
      requireDryRun: args['require-dry-run'],
      fundedSender: !args.agent.startsWith('mock-'),
    });
  } catch (e) {
    if (e instanceof NodeSetupError) throw new UsageError(e.message, e.code, { cause: e });
    throw e;
  }
}

/** `smi phase2`. */
export const phase2Command = defineCommand<Phase2Args>({
  ...header('phase2'),
  options: {
    'corpus-root': { type: 'string', demandOption: true, describe: 'Corpus in the sui-packages layout (packages found at any depth; all are loaded as dependencies)' },
    samples: { type: 'number', default: 25, describe: 'Packages to sample (0: all); with --package-ids-file or --dataset, how many to do in this session' },
    seed: { type: 'string', default: '0', describe: 'Seed of the sampling' },
    'package-ids-file': { type: 'string', describe: 'Package ids to run, in order (one per line, # comments), or - for standard input', file: 'read' },
    dataset: { type: 'string', describe: 'A named dataset: <manifests>/datasets/NAME.txt' },
    subset: { type: 'string', describe: "Deprecated alias of --dataset (the original's)" },
    'prefer-signal-package-ids': {
      type: 'boolean',
      default: false,
      describe: 'Without --package-ids-file or --dataset: run results/signal_ids_hit_ge_1.txt when it exists (the packages some run hit)',
    },
    manifests: { type: 'string', describe: 'Manifests directory (default $SMI_FIXTURES/fixtures/harness/manifests)' },
    agent: {
      type: 'string',
      choices: PHASE2_AGENTS,
      default: 'mock-empty',
      describe:
        "Who plans: a mock, the plan file, the original's baseline search, chain-search (the search of benchmark-local: constructor chains, shared objects, values the code asks for), or a model (template-search, real-openai-compatible, helper-package)",
    },
    'plan-file': { type: 'string', describe: 'Plans by package id, {"<id>": {"calls": [...]}} (mock-planfile), or - for standard input', file: 'read' },
    'baseline-max-candidates': { type: 'number', default: 25, describe: 'baseline-search: candidate plans per package' },
    'max-plan-attempts': { type: 'number', default: DEFAULT_MODEL_AGENT_LIMITS.maxPlanAttempts, describe: 'real-openai-compatible: plans per package, each after the first told why the last failed' },
    'max-planning-calls': { type: 'number', default: DEFAULT_MODEL_AGENT_LIMITS.maxPlanningCalls, describe: 'real-openai-compatible: model calls per package (need_more rounds included)' },
    'summary-mode': {
      type: 'string',
      choices: SUMMARY_MODES.filter((m) => m !== 'focused'),
      default: DEFAULT_MODEL_AGENT_LIMITS.summaryMode,
      describe: 'What the first prompt shows of the package (need_more shows the rest)',
    },
    'need-more': { type: 'string', choices: ['auto', 'json'], default: 'auto', describe: 'auto: need_more as a tool call where the server takes tools; json: always the JSON form' },
    'max-functions': { type: 'number', default: DEFAULT_MODEL_AGENT_LIMITS.maxFunctions, describe: 'Functions an interface summary lists at most' },
    'max-repair-rounds': { type: 'number', default: DEFAULT_MODEL_AGENT_LIMITS.maxRepairRounds, describe: 'helper-package: repairs after a compile, publish or run error' },
    epochs: { type: 'number', default: 1, describe: 'Samples per package (pass@k in the aggregate); the row scores the first' },
    'state-file': { type: 'string', describe: 'Objects prepared with smi sandbox-exec (its --state-file), in every simulation', file: 'read' },
    'budget-usd': { type: 'number', describe: 'Stop starting packages once this much is spent (needs --prices)' },
    'gas-coin': { type: 'string', describe: "On a node: the Coin<SUI> that pays gas (default: the sender's first); locally the sender's first coin pays" },
    'gas-price': { type: 'string', describe: 'On a node: MIST per gas unit (default: the reference gas price of the current epoch, else 1000)' },
    'include-created-types': { type: 'boolean', default: true, describe: 'Rows list the created types (always)' },
    'require-dry-run': { type: 'boolean', default: false, describe: 'dry-run: no dev-inspect fallback when the node refuses a dry run (local plans never fall back)' },
    'rust-bin': { type: 'string', hidden: true, describe: 'Ignored: smi reads the bytecode itself' },
    'dev-inspect-bin': { type: 'string', hidden: true, describe: 'Ignored: plans run on our own simulator' },
    'per-package-timeout-seconds': { type: 'number', default: 120, describe: 'Time limit of one package' },
    'continue-on-error': { type: 'boolean', default: false, describe: 'Go on past failed packages' },
    'max-errors': { type: 'number', default: 25, describe: 'With --continue-on-error: stop after more failures than this' },
    'checkpoint-every': { type: 'number', default: 10, describe: 'Rewrite the run JSON every N packages (0: at the end only)' },
    concurrency: { type: 'number', default: 1, alias: 'jobs', describe: 'Packages worked on at once' },
    'max-run-seconds': { type: 'number', describe: 'Stop this session after this long (the rest is left for --resume)' },
    'parent-pid': { type: 'number', describe: 'Stop when this process is gone' },
    resume: { type: 'boolean', default: false, describe: 'Continue a run (--run-dir/--run-id, else the newest unfinished one in --log-dir)' },
    'retry-errors': { type: 'boolean', default: false, describe: 'With --resume: run the failed packages again' },
    force: { type: 'boolean', default: false, describe: 'With --resume: continue even when the settings differ' },
    shard: { type: 'string', describe: 'Run part K of N (K/N); smi merge joins the parts' },
    out: { type: 'string', describe: 'Also write the run JSON (schema_version 2, with _checksum) here, or - for standard output', file: 'write' },
    ...SIMULATION_OPTIONS,
    'simulation-mode': {
      type: 'string',
      default: 'local',
      describe: 'local (every plan on our simulator), build-only (plans checked only), or on a node: dry-run (with its checks), dev-inspect (without)',
    },
    ...NETWORK_OPTIONS,
    'rpc-url': { ...NETWORK_OPTIONS['rpc-url'], describe: `dry-run/dev-inspect: the node. ${NETWORK_OPTIONS['rpc-url'].describe}; ignored by local runs` },
    ...RUN_DIR_OPTIONS,
    ...MODEL_OPTIONS,
  },
  examples: [
    {
      command: '$0 phase2 --corpus-root ../shared/corpus --samples 0 --agent baseline-search --no-log --out -',
      describe: 'the original baseline search over the shared corpus, on local simulations; the run JSON on stdout',
    },
    {
      command: '$0 phase2 --corpus-root ../shared/corpus-mainnet --samples 0 --agent chain-search --run-dir runs/chain',
      describe: 'the chain search: real objects of the key types, each miss with its cause in the row (chain_search.miss_causes)',
    },
    {
      command: '$0 phase2 --corpus-root ../shared/corpus-mainnet --samples 0 --agent chain-search --sender publisher --no-log --out -',
      describe: 'its upper bound: the publisher sends, so the capabilities its inits gave are usable (sender_is_publisher: true)',
    },
    {
      command: '$0 phase2 --corpus-root ../shared/corpus --samples 0 --agent mock-perfect --run-dir runs/p2 --json',
      describe: 'the mock that claims every target (its rows say synthetic: true), into a run directory',
    },
    {
      command: '$0 phase2 --corpus-root ../shared/corpus --samples 0 --agent mock-planfile --plan-file ../shared/fixtures/harness/fixtures/phase2_plans_two_packages.json --no-log --quiet --json',
      describe: 'plans from a file (packages without one say so)',
    },
  ],
  epilog:
    'Model agents (template-search, real-openai-compatible, helper-package) are configured as in smi phase1: SMI_API_KEY, SMI_MODEL, SMI_API_BASE_URL, ... (see smi help phase1); ' +
    'their calls are cached and priced, and a run resumes with --resume. helper-package keeps interface.json, prompt.json, llm_response.json, helper_pkg/, validation_report.json and transactions.json under <run dir>/artifacts/<package id>/. ' +
    "Targets are the key types of each package (Phase I truth). Each package gets a fresh simulation: every corpus package loaded, the inits of the target and of what it links to run as a publisher (shared objects exist; owned ones are the publisher's), the sender funded. A row scores the target types its best plan created. " +
    'With --simulation-mode dry-run or dev-inspect the plans run on a fullnode instead (--rpc-url: gRPC or GraphQL, default mainnet; the packages must be published there, the corpus gives their interfaces): --sender is a real address whose objects are the inventory and whose first Coin<SUI> (or --gas-coin) pays at the reference gas price (or --gas-price); before the run, the node must answer, and a dry run for an agent that is not a mock needs a sender other than 0x0 owning a Coin<SUI> (exit 2: ENDPOINT_UNREACHABLE, SENDER_IS_ZERO, SENDER_NOT_FUNDED, GAS_COIN_NOT_FOUND, GAS_COIN_NOT_OWNED). ' +
    'A dry run the node refuses falls back to a dev-inspect (fell_back_to_dev_inspect, its static created types counted too, as the original) unless --require-dry-run. On a node, objects created and wrapped in the same transaction are not seen. ' +
    'Exit 0 when the run finished, 1 when it stopped on failures or a deadline (resumable), 2 on bad input, 130/143 when interrupted.',
  longRunning: true,
  run: async (args, io) => {
    if ((args['rust-bin'] !== undefined || args['dev-inspect-bin'] !== undefined) && !args.quiet)
      io.stderr('phase2: warning: --rust-bin/--dev-inspect-bin are ignored: smi builds and sends the transactions itself\n');
    const mode = simulationModeOf(args['simulation-mode'], { node: true });
    checkNodeOptions(args, mode);
    if (args.out === '-' && args.json) throw new UsageError('--json and --out - both print on standard output: give --out a file', 'USAGE');
    if (args.agent === 'mock-planfile' && args['plan-file'] === undefined) throw new UsageError('--agent mock-planfile needs --plan-file', 'USAGE');
    if (args['plan-file'] === '-' && args['package-ids-file'] === '-') throw new UsageError('only one of --plan-file and --package-ids-file can read standard input', 'USAGE');
    for (const [name, min] of [
      ['epochs', 1],
      ['max-plan-attempts', 1],
      ['max-planning-calls', 1],
      ['max-functions', 1],
      ['max-repair-rounds', 0],
    ] as const)
      atLeast(name, args[name], min);
    if (args['state-file'] === '-' && (args['plan-file'] === '-' || args['package-ids-file'] === '-')) throw new UsageError('only one file option can read standard input', 'USAGE');
    const model = !MODEL_PHASE2_AGENTS.includes(args.agent) ? null : await setupModel(io, args);
    const planFile = args['plan-file'] === undefined ? undefined : readPlanFile((await readInput(io, args['plan-file'], '--plan-file')).toString('utf8'), args['plan-file']);
    const simulation = simulationSettingsOf(io, args, { node: true });
    const node = isNodeMode(mode) ? await nodeOf(args, mode, simulation.sender) : undefined;
    for (const w of node?.warnings ?? []) if (!args.quiet) io.stderr(`phase2: warning: ${w}\n`);
    // Read once (a file or standard input): its objects go to every simulation, its hash to the spec.
    let state: Phase2State | undefined;
    if (args['state-file'] !== undefined) {
      const bytes = await readInput(io, args['state-file'], '--state-file');
      try {
        state = phase2State(bytes, args['state-file'] === '-' ? 'standard input' : resolvePath(io, args['state-file']));
      } catch (e) {
        throw inputError('--state-file', e);
      }
    }
    const where = runStoreFor(io, args, 'phase2', 'phase2');
    for (const w of model?.warnings ?? []) if (!args.quiet) io.stderr(`phase2: warning: ${w}\n`);
    if (model !== null) model.onRetry.fn = (fields) => where.store.event('llm_retry', fields);
    const control = await runControlOf(io, args, where, args.invocation);
    let progress: Progress | null = null;
    let done = 0;
    let hits = 0;
    const result = await runPhase2({
      ...control,
      agent: args.agent,
      ...(planFile ? { planFile } : {}),
      ...simulation,
      ...(node !== undefined ? { node } : {}),
      baselineMaxCandidates: args['baseline-max-candidates'],
      ...(model ? { model: model.client, params: model.params, effectiveConfig: model.effective as { [key: string]: PyJson } } : {}),
      ...(model?.price ? { price: model.price } : {}),
      budgetUsd: args['budget-usd'] ?? null,
      epochs: args.epochs,
      maxPlanAttempts: args['max-plan-attempts'],
      maxPlanningCalls: args['max-planning-calls'],
      summaryMode: args['summary-mode'],
      needMore: args['need-more'],
      maxFunctions: args['max-functions'],
      maxRepairRounds: args['max-repair-rounds'],
      ...(state !== undefined ? { state } : {}),
      onStart: (info) => {
        if (!args.quiet) {
          if (info.missing.length > 0) io.stderr(`phase2: warning: ${info.missing.length} ids are not in ${args['corpus-root']}\n`);
          io.stderr(missingDependenciesWarning('phase2', info.missingDependencies));
          io.stderr(
            `phase2: ${info.total} packages${info.done > 0 ? ` (${info.done} done before)` : ''}, ${info.todo} to do now, agent ${args.agent}${model ? ` (${model.config.model})` : ''}, simulation ${mode}${node ? ` on ${node.source.endpoint} (sender ${node.sender}, gas price ${node.gasPrice})` : ''}; run ${where.dir ?? '(not kept: --no-log)'}\n`,
          );
        }
        progress = new Progress(io, 'phase2', info.total, args.quiet, info.done);
      },
      onResult: (r) => {
        done++;
        hits += Number((r.row.score as { created_hits: number }).created_hits);
        (progress as Progress | null)?.tick(`${done} done · ${hits} target types created`);
      },
    });
    (progress as Progress | null)?.finish();
    if (args.out === '-') io.stdout(result.text);
    if (args.json) {
      io.stdout(
        jsonLine({
          status: result.status,
          stop_reason: result.stopReason,
          run_id: where.runId,
          run_dir: where.dir,
          out: args.out ?? null,
          done: (result.runJson.packages as unknown[]).length,
          aggregate: JSON.parse(JSON.stringify(result.runJson.aggregate)) as unknown,
        }),
      );
    }
    if (!args.quiet) io.stderr(phase2SummaryText(result.runJson) + spentLine(result.totals));
    if (result.stopReason === 'interrupted') return (io.signal?.reason as InterruptedError | undefined)?.exitCode ?? EXIT.interrupted;
    return result.stopReason === null ? EXIT.ok : EXIT.failure;
  },
});

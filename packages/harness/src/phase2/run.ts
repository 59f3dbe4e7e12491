/**
 * A Phase II run on the shared run machinery (the same run directory, resume, shards,
 * deadlines and events as Phase I): pick the packages, and for each one the targets (its key
 * types, Phase I's truth), the agent's plans, a local simulation (or, in dry-run and
 * dev-inspect modes, a node checked beforehand by `prepareNode`), and the row. The run JSON is
 * the original's `schema_version: 2`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { loadPackageDir, type MovePackage, errorMessage, SmiError, type Json } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { parseStateFile, type StateSnapshot, writeFileAtomic } from '@smi/simulation';
import { discoverPackages, type PackageRef, selectPackages } from '../dataset.js';
import type { ModelPrice } from '../accounting.js';
import type { GenerateParams, ModelClient } from '../model/types.js';
import type { PyJson } from '../py-json.js';
import { renderRunJson, type RunJson } from '../run/checkpoint.js';
import { executePackages, type PackageContext, type PackageJob, type PackageWork } from '../run/executor.js';
import { closeSession, openRun, runTotals, type RunTotals, statusOf, touchSession } from '../run/session.js';
import { openRunOptions, type RunControlOptions } from '../run/control.js';
import { gitCommit, harnessVersion, packageDirHash, packageVersions, type RunSpec } from '../run/spec.js';
import type { PackageResult, RunStatus, StopReason } from '../run/types.js';
import { MODEL_PHASE2_AGENTS, type Phase2Agent } from './agents.js';
import { ChainSearch } from './chain-search.js';
import { writeSampleFiles } from '../run/samples.js';
import { type MissingDependencies, missingDependencies } from './dependencies.js';
import type { SummaryMode } from './interface-summary.js';
import { DEFAULT_MODEL_AGENT_LIMITS, type ModelAgentLimits } from './model-agent.js';
import type { Phase2ServerSupport } from './model-call.js';
import type { NodeContext } from './node-setup.js';
import { InterfaceIndex } from '@smi/inhabit';
import { phase2PackageWork, type Phase2WorkSettings } from './package-work.js';
import { PHASE2_PROMPT_VERSION } from './prompts.js';
import { phase2RunJson } from './report.js';

/** Everything a Phase II run needs. */
export interface Phase2Options extends RunControlOptions {
  agent: Phase2Agent;
  planFile?: ReadonlyMap<string, Json>;
  /** The framework packages (from the fixtures) and the protocol the simulation runs. */
  framework: readonly MovePackage[];
  protocolConfig: ProtocolConfig;
  /** Where plans run: our simulator (`local`, `build-only`) or a node (`dry-run`, `dev-inspect`: needs `node`). */
  simulationMode: 'local' | 'build-only' | 'dry-run' | 'dev-inspect';
  /** The node of the dry-run and dev-inspect modes, checked by `prepareNode` (its sender is the run's). */
  node?: NodeContext;
  sender: string;
  publisher: string;
  senderCoins: number;
  coinBalance: bigint;
  gasBudget: bigint;
  gasBudgetLadder: readonly bigint[];
  maxHeuristicVariants: number;
  baselineMaxCandidates: number;
  /** Samples per package (pass@k); 1 by default. */
  epochs?: number;
  /** The model of the model agents, its generation parameters and price. */
  model?: ModelClient;
  params?: GenerateParams;
  price?: ModelPrice;
  /** Stop starting packages once this much is spent (needs `price`). */
  budgetUsd?: number | null;
  /** Fields of the `agent_effective_config` event (the model's configuration, key redacted). */
  effectiveConfig?: { [key: string]: PyJson };
  /** The model agents' limits (the original's defaults for those not given). */
  maxPlanningCalls?: number;
  maxPlanAttempts?: number;
  summaryMode?: Exclude<SummaryMode, 'focused'>;
  needMore?: 'auto' | 'json';
  maxFunctions?: number;
  maxRepairRounds?: number;
  /** Objects prepared with `smi sandbox-exec` (its state file, read by {@link phase2State}), in every simulation. */
  state?: Phase2State;
  /** `missing`: ids not in the corpus; `missingDependencies`: packages to run that link to packages neither the corpus nor the framework holds. */
  onStart?: (info: { total: number; done: number; todo: number; missing: string[]; missingDependencies: MissingDependencies[] }) => void;
  onResult?: (result: PackageResult) => void;
}

/** A state file of `smi sandbox-exec`, read once: its content and its identity in the run spec. */
export interface Phase2State {
  snapshot: StateSnapshot;
  /** SHA-256 (hex) of the file's bytes. */
  sha256: string;
}

/** A state file's bytes (a file's or standard input's) as a {@link Phase2State}; `source` names it in errors. */
export function phase2State(bytes: Uint8Array, source: string): Phase2State {
  return { snapshot: parseStateFile(Buffer.from(bytes).toString('utf8'), source), sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** How a Phase II session ended. */
export interface Phase2Outcome {
  runJson: RunJson;
  text: string;
  status: RunStatus;
  stopReason: StopReason | null;
  totals: RunTotals;
  missing: string[];
}

/** Why a Phase II run cannot start. */
export class Phase2Error extends SmiError<'NO_PACKAGES' | 'NEEDS_MODEL' | 'NEEDS_PRICE' | 'NEEDS_NODE' | 'NEEDS_LOCAL'> {
  override readonly name = 'Phase2Error';
  constructor(
    code: 'NO_PACKAGES' | 'NEEDS_MODEL' | 'NEEDS_PRICE' | 'NEEDS_NODE' | 'NEEDS_LOCAL',
    message: string,
  ) {
    super(code, message);
  }
}

/** Run (or resume) Phase II. */
export async function runPhase2(o: Phase2Options): Promise<Phase2Outcome> {
  if (MODEL_PHASE2_AGENTS.includes(o.agent) && o.model === undefined) throw new Phase2Error('NEEDS_MODEL', `the ${o.agent} agent needs a model (SMI_MODEL and an API key)`);
  if (o.budgetUsd != null && o.price === undefined) throw new Phase2Error('NEEDS_PRICE', `--budget-usd needs the model's price: add it to a prices.yaml (--prices)`);
  const onNode = o.simulationMode === 'dry-run' || o.simulationMode === 'dev-inspect';
  const node = onNode ? o.node : undefined;
  if (onNode && node === undefined) throw new Phase2Error('NEEDS_NODE', `--simulation-mode ${o.simulationMode} runs plans on a node: prepare one (prepareNode)`);
  if (node !== undefined && node.mode !== o.simulationMode) throw new Phase2Error('NEEDS_NODE', `the node was prepared for ${node.mode}, not ${o.simulationMode}`);
  if (onNode && o.agent === 'chain-search') throw new Phase2Error('NEEDS_LOCAL', 'the chain-search agent searches on a local simulation and names its objects: use --simulation-mode local');
  if (onNode && o.agent === 'helper-package') throw new Phase2Error('NEEDS_LOCAL', 'the helper-package agent publishes its helper into a local simulation: use --simulation-mode local');
  if (onNode && o.state !== undefined) throw new Phase2Error('NEEDS_LOCAL', 'a state file prepares a local simulation: on a node, the sender\'s own objects are used');
  const epochs = Math.max(1, o.epochs ?? 1);
  const params = o.params ?? {};
  const d = DEFAULT_MODEL_AGENT_LIMITS;
  const limits: ModelAgentLimits = {
    maxPlanningCalls: o.maxPlanningCalls ?? d.maxPlanningCalls,
    maxPlanAttempts: o.maxPlanAttempts ?? d.maxPlanAttempts,
    summaryMode: o.summaryMode ?? d.summaryMode,
    needMore: o.needMore ?? d.needMore,
    maxFunctions: o.maxFunctions ?? d.maxFunctions,
    maxRepairRounds: o.maxRepairRounds ?? d.maxRepairRounds,
  };
  const { packages } = discoverPackages(o.corpusRoot);
  const { picked, missing } = selectPackages(packages, { ...(o.ids ? { ids: o.ids.ids } : {}), samples: o.samples, seed: o.seed });
  if (picked.length === 0) throw new Phase2Error('NO_PACKAGES', `no packages to run under ${o.corpusRoot}`);
  const dirs = new Map(picked.map((p: PackageRef) => [p.packageId, p.packageDir]));
  const spec: RunSpec = {
    spec_version: 1,
    benchmark: 'phase2',
    ids: picked.map((p) => p.packageId),
    package_hashes: Object.fromEntries(picked.map((p) => [p.packageId, packageDirHash(p.packageDir)])),
    seed: o.seed.toString(),
    agent: o.agent,
    model: o.model ? { id: o.model.model, base_url: o.model.baseUrl, params } : null,
    limits: {
      simulation_mode: o.simulationMode,
      sender: o.sender,
      publisher: o.publisher,
      sender_coins: o.senderCoins,
      coin_balance: o.coinBalance.toString(),
      gas_budget: o.gasBudget.toString(),
      gas_budget_ladder: o.gasBudgetLadder.join(','),
      max_heuristic_variants: o.maxHeuristicVariants,
      baseline_max_candidates: o.baselineMaxCandidates,
      per_package_timeout_seconds: o.perPackageTimeoutSeconds ?? 120,
      plan_file_packages: o.planFile ? o.planFile.size : null,
      max_planning_calls: limits.maxPlanningCalls,
      max_plan_attempts: limits.maxPlanAttempts,
      summary_mode: limits.summaryMode,
      need_more: limits.needMore,
      max_functions: limits.maxFunctions,
      max_repair_rounds: limits.maxRepairRounds,
      state_file: o.state?.sha256 ?? null,
      // Only on a node (a local run's spec is unchanged); the gas coin and price when given
      // (what the node tells may change between sessions without changing the run).
      ...(node !== undefined
        ? {
            rpc_url: node.source.endpoint,
            require_dry_run: node.requireDryRun,
            gas_coin: node.gasCoinGiven ? (node.gasCoin?.objectId ?? null) : null,
            gas_price: node.gasPriceFrom === 'given' ? node.gasPrice.toString() : null,
          }
        : {}),
    },
    prompt_version: PHASE2_PROMPT_VERSION,
    code: { git_commit: gitCommit(path.dirname(new URL(import.meta.url).pathname)), harness_version: harnessVersion(), packages: packageVersions() },
    epochs,
  };
  const startedAt = Math.floor(Date.now() / 1000);
  const metadata = {
    schema_version: 1,
    benchmark: 'phase2_inhabitation',
    started_at_unix_seconds: startedAt,
    agent: o.agent,
    seed: Number(o.seed),
    rpc_url: node !== undefined ? node.source.endpoint : `smi-local:${o.simulationMode}`,
    sender: o.sender,
    gas_budget: Number(o.gasBudget),
    gas_budget_ladder: o.gasBudgetLadder.join(','),
    gas_coin: node?.gasCoin?.objectId ?? null,
    ...(node !== undefined ? { gas_price: Number(node.gasPrice), gas_price_from: node.gasPriceFrom, require_dry_run: node.requireDryRun, checkpoint: Number(node.checkpoint) } : {}),
    simulation_mode: o.simulationMode,
    max_heuristic_variants: o.maxHeuristicVariants,
    max_plan_attempts: limits.maxPlanAttempts,
    parent_pid: o.parentPid ?? null,
    max_run_seconds: o.maxRunSeconds ?? null,
    argv: o.argv ?? [],
    cwd: o.cwd ?? null,
    run_id: o.runId,
  };
  const run = openRun(openRunOptions(o, spec, metadata, dirs));
  const firstStart = Math.floor(Date.parse(run.state.sessions[0].started_at) / 1000);
  o.store.event('run_started', { started_at_unix_seconds: firstStart, agent: o.agent, seed: Number(o.seed), run_id: o.runId, resumed: run.resumed, done: run.done.size, todo: run.todo.length, spec_hash: run.specHash });

  if (o.effectiveConfig !== undefined) o.store.event('agent_effective_config', o.effectiveConfig);
  // Every corpus package is loaded in each simulation: dependencies may be any of them.
  const byDir = new Map<string, MovePackage>();
  for (const p of packages) {
    try {
      byDir.set(p.packageDir, loadPackageDir(p.packageDir));
    } catch {
      // An unreadable package is that package's infra_error when its turn comes.
    }
  }
  const corpus = [...byDir.values()];
  const loaded = [...o.framework.filter((f) => !corpus.some((c) => c.id === f.id)), ...corpus];
  // Said before the run: packages whose dependencies are missing cannot run their code.
  const todo = new Set(run.todo.map((j) => j.packageId));
  const unlinked = missingDependencies(
    picked.flatMap((p) => {
      const pkg = todo.has(p.packageId) ? byDir.get(p.packageDir) : undefined;
      return pkg === undefined ? [] : [pkg];
    }),
    loaded,
  );
  if (unlinked.length > 0) o.store.event('missing_dependencies', { packages: unlinked.length, missing: unlinked.map((u) => ({ package_id: u.package_id, missing: u.missing })) });
  o.onStart?.({ total: run.ids.length, done: run.done.size, todo: run.todo.length, missing, missingDependencies: unlinked });
  const all = new Map(run.done);
  const info = {
    startedAt: firstStart,
    corpusRootName: path.basename(path.resolve(o.corpusRoot)),
    seed: o.seed,
    agent: o.agent,
    simulationMode: o.simulationMode,
    sender: o.sender,
    gasBudget: o.gasBudget,
    model: o.model?.model ?? null,
    ...(node === undefined ? { senderIsPublisher: o.sender.toLowerCase() === o.publisher.toLowerCase() } : {}),
    ...(node !== undefined ? { rpcUrl: node.source.endpoint, gasCoin: node.gasCoin?.objectId ?? null } : {}),
  };
  const writeRun = (final: boolean): { runJson: RunJson; text: string } => {
    const runJson = phase2RunJson({ ...info, finishedAt: Math.floor(Date.now() / 1000) }, [...all.values()]);
    const text = renderRunJson(runJson);
    o.store.writeRunJson(text);
    if (final) writeSampleFiles(o.store, 'smi.phase2', [...all.values()]);
    if (o.out != null) writeFileAtomic(o.out, text);
    o.store.event('checkpoint_written', { path: o.out ?? (o.store.dir === null ? null : path.join(o.store.dir, 'run.json')), packages_count: all.size, final });
    return { runJson, text };
  };
  const settings: Phase2WorkSettings = {
    agent: o.agent,
    ...(o.planFile ? { planFile: o.planFile } : {}),
    loaded,
    protocolConfig: o.protocolConfig,
    simulationMode: o.simulationMode,
    ...(node !== undefined ? { node } : {}),
    sender: o.sender,
    publisher: o.publisher,
    senderCoins: o.senderCoins,
    coinBalance: o.coinBalance,
    gasBudgets: [o.gasBudget, ...o.gasBudgetLadder],
    maxHeuristicVariants: o.maxHeuristicVariants,
    baselineMaxCandidates: o.baselineMaxCandidates,
    epochs,
    model: o.model ?? null,
    params,
    limits,
    artifactsDir: o.store.dir === null ? null : path.join(o.store.dir, 'artifacts'),
    ...(o.state !== undefined ? { state: o.state } : {}),
    chainSearch: o.agent === 'chain-search' ? new ChainSearch({ loaded, protocolConfig: o.protocolConfig, sender: o.sender, publisher: o.publisher }) : null,
  };
  const support: Phase2ServerSupport = { tools: true };
  const interfaces = new InterfaceIndex(new Map(loaded.map((p) => [p.id, p])));
  const work = async (job: PackageJob, ctx: PackageContext): Promise<PackageWork> => {
    let pkg: MovePackage;
    try {
      // Loaded once with the corpus; read again only to report why it could not be.
      pkg = byDir.get(job.packageDir) ?? loadPackageDir(job.packageDir);
    } catch (e) {
      const error = `the package cannot be read: ${errorMessage(e)}`;
      return { outcome: 'infra_error', error, timed_out: false, row: { package_id: job.packageId, score: { targets: 0, created_distinct: 0, created_hits: 0, missing: 0 }, error } };
    }
    return phase2PackageWork(pkg, ctx, settings, support, interfaces);
  };
  const checkpointEvery = o.checkpointEvery ?? 10;
  const outcome = await executePackages({
    store: o.store,
    session: run.session,
    jobs: run.todo,
    doneBefore: run.done.size,
    work,
    concurrency: o.concurrency ?? 1,
    perPackageTimeoutMs: (o.perPackageTimeoutSeconds ?? 120) * 1000,
    maxRunMs: o.maxRunSeconds == null ? null : o.maxRunSeconds * 1000,
    parentPid: o.parentPid ?? null,
    ...(o.signal ? { signal: o.signal } : {}),
    budgetUsd: o.budgetUsd ?? null,
    spentBeforeUsd: o.model ? runTotals(o.store, run.state).spent_usd : 0,
    // Agents without a model cost nothing, which is known.
    price: o.model ? o.price : { input: 0, output: 0 },
    continueOnError: o.continueOnError ?? true,
    maxErrors: o.maxErrors ?? 25,
    errorsBefore: run.errorsBefore,
    earlier: run.earlier,
    onResult: (result, finished) => {
      all.set(result.package_id, result);
      o.store.packageRow({ ...(result.row as Record<string, never>), outcome: result.outcome });
      touchSession(o.store, run, finished);
      if (checkpointEvery > 0 && finished % checkpointEvery === 0) writeRun(false);
      o.onResult?.(result);
    },
  });
  const status = statusOf(run.ids.every((id) => all.has(id)), outcome.stopReason);
  const { runJson, text } = writeRun(true);
  closeSession(o.store, run, outcome.finished, status, outcome.stopReason);
  const agg = runJson.aggregate as Record<string, unknown>;
  o.store.event('run_finished', { finished_at_unix_seconds: runJson.finished_at_unix_seconds as number, samples: all.size, errors: agg.errors as number, status, stop_reason: outcome.stopReason });
  return { runJson, text, status, stopReason: outcome.stopReason, totals: runTotals(o.store, run.state), missing };
}

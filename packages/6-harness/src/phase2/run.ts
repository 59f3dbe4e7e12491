/**
 * A Phase II run on the shared run machinery (the same run directory, resume, shards,
 * deadlines and events as Phase I): pick the packages, and for each one the targets (its key
 * types, Phase I's truth), the agent's plans, a local simulation (or, in dry-run and
 * dev-inspect modes, a node checked beforehand by `prepareNode`), and the row. The run JSON is
 * the original's `schema_version: 2`.
 */
import path from 'node:path';
import { loadPackageDir, type MovePackage, errorMessage } from '@smi/bytecode';
import { writeFileAtomic } from '@smi/simulation';
import { discoverPackages, type PackageRef, selectPackages } from '../dataset.js';
import type { GenerateParams } from '../model/types.js';
import { renderRunJson, type RunJson } from '../run/checkpoint.js';
import { executePackages, type PackageContext, type PackageJob, type PackageWork } from '../run/executor.js';
import { announceRunStart, closeSession, openRun, runTotals, statusOf, touchSession } from '../run/session.js';
import { openRunOptions } from '../run/control.js';
import { gitCommit, harnessVersion, packageDirHash, packageVersions, type RunSpec } from '../run/spec.js';
import type { PackageResult } from '../run/types.js';
import { MODEL_PHASE2_AGENTS } from './agents.js';
import { ChainSearch } from './chain-search.js';
import { writeSampleFiles } from '../run/samples.js';
import { type MissingDependencies, missingDependencies } from './dependencies.js';
import { DEFAULT_MODEL_AGENT_LIMITS, type ModelAgentLimits } from './model-agent.js';
import type { Phase2ServerSupport } from './model-call.js';
import type { NodeContext } from './node-setup.js';
import { Phase2Error, type Phase2Options, type Phase2Outcome } from './options.js';
import { InterfaceIndex } from '@smi/inhabit';
import { phase2PackageWork, type Phase2WorkSettings } from './package-work.js';
import { PHASE2_PROMPT_VERSION } from './prompts.js';
import { phase2RunJson } from './report.js';

export { Phase2Error, phase2State } from './options.js';
export type { Phase2Options, Phase2Outcome, Phase2State } from './options.js';

/**
 * The options a run cannot start with: an agent without its model, a budget without a price,
 * a node mode without its node (or with a node for another mode), local-only agents and state
 * files on a node. Returns the node plans run on (`undefined`: a local simulation).
 */
function checkedNode(o: Phase2Options): NodeContext | undefined {
  if (MODEL_PHASE2_AGENTS.includes(o.agent) && o.model === undefined) throw new Phase2Error('NEEDS_MODEL', `the ${o.agent} agent needs a model (SMI_MODEL and an API key)`);
  if (o.budgetUsd != null && o.price === undefined) throw new Phase2Error('NEEDS_PRICE', `--budget-usd needs the model's price: add it to a prices.yaml (--prices)`);
  const onNode = o.simulationMode === 'dry-run' || o.simulationMode === 'dev-inspect';
  const node = onNode ? o.node : undefined;
  if (onNode && node === undefined) throw new Phase2Error('NEEDS_NODE', `--simulation-mode ${o.simulationMode} runs plans on a node: prepare one (prepareNode)`);
  if (node !== undefined && node.mode !== o.simulationMode) throw new Phase2Error('NEEDS_NODE', `the node was prepared for ${node.mode}, not ${o.simulationMode}`);
  if (onNode && o.agent === 'chain-search') throw new Phase2Error('NEEDS_LOCAL', 'the chain-search agent searches on a local simulation and names its objects: use --simulation-mode local');
  if (onNode && o.agent === 'helper-package') throw new Phase2Error('NEEDS_LOCAL', 'the helper-package agent publishes its helper into a local simulation: use --simulation-mode local');
  if (onNode && o.state !== undefined) throw new Phase2Error('NEEDS_LOCAL', "a state file prepares a local simulation: on a node, the sender's own objects are used");
  return node;
}

/** The model agents' limits: the options', the original's defaults for those not given. */
function modelAgentLimits(o: Phase2Options): ModelAgentLimits {
  const d = DEFAULT_MODEL_AGENT_LIMITS;
  return {
    maxPlanningCalls: o.maxPlanningCalls ?? d.maxPlanningCalls,
    maxPlanAttempts: o.maxPlanAttempts ?? d.maxPlanAttempts,
    summaryMode: o.summaryMode ?? d.summaryMode,
    needMore: o.needMore ?? d.needMore,
    maxFunctions: o.maxFunctions ?? d.maxFunctions,
    maxRepairRounds: o.maxRepairRounds ?? d.maxRepairRounds,
  };
}

/** What a run is settled once (its configuration): a session that resumes it must match it. */
interface Phase2Settled {
  node: NodeContext | undefined;
  epochs: number;
  params: GenerateParams;
  limits: ModelAgentLimits;
}

/** The run's spec: the packages picked (and their hashes), the agent, model and limits, the code's version. */
function phase2RunSpec(o: Phase2Options, picked: readonly PackageRef[], { node, epochs, params, limits }: Phase2Settled): RunSpec {
  return {
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
}

/** The session's metadata (the original's `run_metadata`): when it started, where plans run, how. */
function phase2Metadata(o: Phase2Options, node: NodeContext | undefined, limits: ModelAgentLimits) {
  const startedAt = Math.floor(Date.now() / 1000);
  return {
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
}

/**
 * Every corpus package, loaded (by directory; an unreadable one is left out, to be that
 * package's `infra_error` when its turn comes), and what each simulation loads: the framework
 * packages the corpus does not replace, then the corpus (dependencies may be any of them).
 */
function loadCorpus(packages: readonly PackageRef[], framework: readonly MovePackage[]): { byDir: Map<string, MovePackage>; loaded: MovePackage[] } {
  const byDir = new Map<string, MovePackage>();
  for (const p of packages) {
    try {
      byDir.set(p.packageDir, loadPackageDir(p.packageDir));
    } catch {
      // An unreadable package is that package's infra_error when its turn comes.
    }
  }
  const corpus = [...byDir.values()];
  return { byDir, loaded: [...framework.filter((f) => !corpus.some((c) => c.id === f.id)), ...corpus] };
}

/** The packages still to run whose dependencies are missing (they cannot run their code), said before the run (`missing_dependencies`). */
function announceMissingDependencies(
  o: Phase2Options,
  picked: readonly PackageRef[],
  todo: ReadonlySet<string>,
  byDir: ReadonlyMap<string, MovePackage>,
  loaded: readonly MovePackage[],
): MissingDependencies[] {
  const unlinked = missingDependencies(
    picked.flatMap((p) => {
      const pkg = todo.has(p.packageId) ? byDir.get(p.packageDir) : undefined;
      return pkg === undefined ? [] : [pkg];
    }),
    loaded,
  );
  if (unlinked.length > 0) o.store.event('missing_dependencies', { packages: unlinked.length, missing: unlinked.map((u) => ({ package_id: u.package_id, missing: u.missing })) });
  return unlinked;
}

/** What every package's work gets (see `package-work.ts`): the simulation, the agent, the model and their limits. */
function phase2WorkSettings(o: Phase2Options, loaded: MovePackage[], { node, epochs, params, limits }: Phase2Settled): Phase2WorkSettings {
  return {
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
}

/**
 * The writer of the run's `run.json` (and `--out`) from the results so far: a checkpoint, or
 * the final one (with the sample files). Each write is a `checkpoint_written` event.
 */
function phase2RunWriter(o: Phase2Options, firstStart: number, node: NodeContext | undefined, all: ReadonlyMap<string, PackageResult>): (final: boolean) => { runJson: RunJson; text: string } {
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
  return (final) => {
    const runJson = phase2RunJson({ ...info, finishedAt: Math.floor(Date.now() / 1000) }, [...all.values()]);
    const text = renderRunJson(runJson);
    o.store.writeRunJson(text);
    if (final) writeSampleFiles(o.store, 'smi.phase2', [...all.values()]);
    if (o.out != null) writeFileAtomic(o.out, text);
    o.store.event('checkpoint_written', { path: o.out ?? (o.store.dir === null ? null : path.join(o.store.dir, 'run.json')), packages_count: all.size, final });
    return { runJson, text };
  };
}

/** One package's work: its package (loaded with the corpus, or an `infra_error` row when it cannot be read) through {@link phase2PackageWork}. */
function phase2Work(byDir: ReadonlyMap<string, MovePackage>, settings: Phase2WorkSettings, loaded: readonly MovePackage[]): (job: PackageJob, ctx: PackageContext) => Promise<PackageWork> {
  const support: Phase2ServerSupport = { tools: true };
  const interfaces = new InterfaceIndex(new Map(loaded.map((p) => [p.id, p])));
  return async (job, ctx) => {
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
}

/** Run (or resume) Phase II. */
export async function runPhase2(o: Phase2Options): Promise<Phase2Outcome> {
  const node = checkedNode(o);
  const settled: Phase2Settled = { node, epochs: Math.max(1, o.epochs ?? 1), params: o.params ?? {}, limits: modelAgentLimits(o) };
  const { packages } = discoverPackages(o.corpusRoot);
  const { picked, missing } = selectPackages(packages, { ...(o.ids ? { ids: o.ids.ids } : {}), samples: o.samples, seed: o.seed });
  if (picked.length === 0) throw new Phase2Error('NO_PACKAGES', `no packages to run under ${o.corpusRoot}`);
  const dirs = new Map(picked.map((p: PackageRef) => [p.packageId, p.packageDir]));
  const spec = phase2RunSpec(o, picked, settled);
  const metadata = phase2Metadata(o, node, settled.limits);
  const run = openRun(openRunOptions(o, spec, metadata, dirs));
  const firstStart = announceRunStart(o.store, run, { agent: o.agent, seed: Number(o.seed), runId: o.runId, effectiveConfig: o.effectiveConfig });
  const { byDir, loaded } = loadCorpus(packages, o.framework);
  const unlinked = announceMissingDependencies(o, picked, new Set(run.todo.map((j) => j.packageId)), byDir, loaded);
  o.onStart?.({ total: run.ids.length, done: run.done.size, todo: run.todo.length, missing, missingDependencies: unlinked });
  const all = new Map(run.done);
  const writeRun = phase2RunWriter(o, firstStart, node, all);
  const work = phase2Work(byDir, phase2WorkSettings(o, loaded, settled), loaded);
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
  const status = statusOf(
    run.ids.every((id) => all.has(id)),
    outcome.stopReason,
  );
  const { runJson, text } = writeRun(true);
  closeSession(o.store, run, outcome.finished, status, outcome.stopReason);
  const agg = runJson.aggregate as Record<string, unknown>;
  o.store.event('run_finished', { finished_at_unix_seconds: runJson.finished_at_unix_seconds as number, samples: all.size, errors: agg.errors as number, status, stop_reason: outcome.stopReason });
  return { runJson, text, status, stopReason: outcome.stopReason, totals: runTotals(o.store, run.state), missing };
}

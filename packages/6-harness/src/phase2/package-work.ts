/**
 * The work of one Phase II package, whatever the agent: a fresh simulation per epoch (local,
 * or the plans of the package on a node),
 * the agent's plan source (a fixed list, or a model planning with progressive exposure, or a
 * model filling templates, or a helper package), the row, and with `--epochs K` one summary
 * per epoch (pass@k is computed from them). The row of epoch 0 is the package's row: later
 * epochs never replace it with a better one.
 */
import { type MovePackage, errorMessage } from '@smi/bytecode';
import type { InterfaceIndex } from '@smi/inhabit';
import type { GenerateParams, ModelClient } from '../model/types.js';
import { keyTypes } from '../phase1/truth.js';
import type { PackageContext, PackageWork } from '../run/executor.js';
import type { Outcome } from '../run/types.js';
import { agentPlans, isStaticPhase2Agent } from './agents.js';
import { type ChainSearch, ChainSearchPlanner } from './chain-search.js';
import { withUninhabitedReasons } from './evaluation.js';
import { helperPackageRow, type HelperPackageSettings } from './helper-package.js';
import type { InventoryItem } from './interface-summary.js';
import { LocalSimulation } from './local.js';
import { NodeSimulation } from './node.js';
import type { PlanSimulation } from './plan-sim.js';
import { type ModelAgentLimits, type ModelAgentSettings, type PackageView, ProgressivePlanner, TemplatePlanner } from './model-agent.js';
import type { ModelFailure, Phase2ServerSupport } from './model-call.js';
import type { Phase2Options } from './options.js';
import { SimulationLog } from './run-log.js';
import { onChainTypes } from './score.js';
import { listPlans, phase2Package, type Phase2Row } from './worker.js';

/** What every package of a Phase II run shares: the run's settings, with its defaults filled in. */
export interface Phase2WorkSettings
  extends Pick<
    Phase2Options,
    'agent' | 'planFile' | 'protocolConfig' | 'simulationMode' | 'node' | 'sender' | 'publisher' | 'senderCoins' | 'coinBalance' | 'maxHeuristicVariants' | 'baselineMaxCandidates' | 'state'
  > {
  /** Every package a simulation loads (framework and corpus). */
  loaded: readonly MovePackage[];
  /** The first gas budget and the ladder after it. */
  gasBudgets: readonly bigint[];
  epochs: number;
  /** The model of the model agents (`null` for the others), its parameters and limits. */
  model: ModelClient | null;
  params: GenerateParams;
  limits: ModelAgentLimits;
  /** Where helper packages keep their artifacts (`null`: not kept). */
  artifactsDir: string | null;
  /** The chain-search agent's search (`null` for the other agents). */
  chainSearch: ChainSearch | null;
}

/** The outcome of a row: every target created, or not. */
function outcomeOf(row: Phase2Row): Outcome {
  if (row.timed_out === true) return 'limit';
  if (row.score.targets > 0 && row.score.created_hits >= row.score.targets) return 'correct';
  return 'wrong';
}

/** The objects the sender can use in a prepared simulation (a local one's, or its objects on the node). */
export function inventoryOf(sim: PlanSimulation): InventoryItem[] {
  return sim.inventoryItems();
}

/** The simulation of one package's epoch: on the node in its modes, else a fresh local one. */
function simulationFor(pkg: MovePackage, s: Phase2WorkSettings): PlanSimulation {
  if (s.simulationMode === 'dry-run' || s.simulationMode === 'dev-inspect') {
    if (s.node === undefined) throw new Error(`--simulation-mode ${s.simulationMode} needs a node`);
    return new NodeSimulation(s.node, { packages: s.loaded, gasBudgets: s.gasBudgets });
  }
  return LocalSimulation.prepare(pkg.id, {
    packages: s.loaded,
    protocolConfig: s.protocolConfig,
    sender: s.sender,
    publisher: s.publisher,
    senderCoins: s.senderCoins,
    coinBalance: s.coinBalance,
    gasBudgets: s.gasBudgets,
    ...(s.state !== undefined ? { state: s.state.snapshot } : {}),
  });
}

/**
 * A result's `details`: the model calls, the simulations of every epoch, and the transaction
 * of the first epoch's best run (the one the row scores); absent when there is none of these.
 */
function detailsOf(calls: readonly unknown[], logs: readonly SimulationLog[]): { details?: Record<string, unknown> } {
  const all = logs.map((l) => l.details());
  const runs = all.flatMap((d) => d.runs);
  const omitted = all.reduce((n, d) => n + (d.runs_omitted ?? 0), 0);
  const transaction = all[0]?.transaction;
  if (calls.length === 0 && runs.length === 0) return {};
  return {
    details: { ...(calls.length > 0 ? { calls } : {}), ...(runs.length > 0 ? { runs } : {}), ...(omitted > 0 ? { runs_omitted: omitted } : {}), ...(transaction !== undefined ? { transaction } : {}) },
  };
}

/** Do one package (all its epochs). */
export async function phase2PackageWork(pkg: MovePackage, ctx: PackageContext, s: Phase2WorkSettings, support: Phase2ServerSupport, interfaces: InterfaceIndex): Promise<PackageWork> {
  const iface = interfaces.of(pkg);
  const targets = onChainTypes(keyTypes(iface), pkg.typeOriginTable);
  const rows: Phase2Row[] = [];
  const calls: unknown[] = [];
  const logs: SimulationLog[] = [];
  let failure: ModelFailure | null = null;
  let unparseableOnly = false;
  for (let epoch = 0; epoch < Math.max(1, s.epochs); epoch++) {
    let sim: PlanSimulation;
    try {
      sim = simulationFor(pkg, s);
    } catch (e) {
      const error = `the simulation cannot be prepared: ${errorMessage(e)}`;
      return { outcome: 'infra_error', error, timed_out: false, row: { package_id: pkg.id, score: { targets: targets.length, created_distinct: 0, created_hits: 0, missing: targets.length }, error } };
    }
    const log = new SimulationLog(targets, epoch);
    logs.push(log);
    const base = { packageId: pkg.id, targets, sim, mode: s.simulationMode, maxVariants: s.maxHeuristicVariants, deadline: ctx.deadline, onRun: log.onRun };
    let row: Phase2Row;
    if (isStaticPhase2Agent(s.agent)) {
      const plans = agentPlans(s.agent, pkg, { ...(s.planFile ? { planFile: s.planFile } : {}), maxCandidates: s.baselineMaxCandidates });
      row = await phase2Package({ ...base, source: listPlans(plans), perfect: s.agent === 'mock-perfect' });
    } else if (s.agent === 'chain-search') {
      if (s.chainSearch === null) throw new Error('the chain-search agent needs its search');
      const planner = new ChainSearchPlanner(s.chainSearch, pkg, targets, sim, ctx.deadline);
      row = await phase2Package({ ...base, source: planner });
      const fields = planner.rowFields(row.missing_types as string[]);
      Object.assign(row, fields);
      withUninhabitedReasons(row, (fields.chain_search as { miss_causes?: Record<string, string> } | undefined)?.miss_causes ?? {});
    } else {
      if (s.model === null) throw new Error(`the ${s.agent} agent needs a model`);
      const settings: ModelAgentSettings = { ...s.limits, model: s.model, params: s.params, epoch };
      const view: PackageView = { packageId: pkg.id, targets, iface, interfaces: interfaces.reachable(pkg), inventory: inventoryOf(sim) };
      if (s.agent === 'helper-package') {
        // The helper is published into the package's own simulation (run.ts refuses a node).
        if (!(sim instanceof LocalSimulation)) throw new Error('the helper-package agent needs a local simulation');
        const helper: HelperPackageSettings = { ...settings, artifactsDir: s.artifactsDir };
        const out = await helperPackageRow(ctx, helper, support, view, sim);
        row = out.row;
        calls.push(...out.calls.map((c) => ({ ...c, epoch })));
        failure = out.failure;
        unparseableOnly = out.unparseableOnly;
      } else {
        const planner = s.agent === 'template-search' ? new TemplatePlanner(ctx, settings, support, view, pkg) : new ProgressivePlanner(ctx, settings, support, view);
        row = await phase2Package({ ...base, source: planner });
        Object.assign(row, planner.rowFields());
        calls.push(...planner.calls.map((c) => ({ ...c, epoch })));
        failure = planner.failure;
        unparseableOnly = planner.unparseable > 0 && row.plan_attempts === planner.unparseable;
      }
    }
    if (failure?.interrupted) return { outcome: 'limit', error: 'run stopped', timed_out: false, row: {}, interrupted: true };
    if (sim.initFailures.length > 0) row.init_failures = [...sim.initFailures];
    rows.push(row);
    if (failure !== null && failure.timedOut) break;
  }
  const row = rows[0];
  if (s.epochs > 1) {
    row.epochs = rows.map((r, epoch) => ({
      epoch,
      created_hits: r.score.created_hits,
      targets: r.score.targets,
      all_hit: outcomeOf(r) === 'correct',
      dry_run_ok: r.dry_run_ok === true,
      error: r.error ?? null,
    }));
  }
  let outcome = outcomeOf(row);
  let error = (row.error as string | null) ?? null;
  // A model that failed before any plan ran is the model's failure, not a wrong plan.
  if (outcome === 'wrong' && row.score.created_hits === 0 && failure !== null) {
    outcome = failure.outcome;
    error = failure.error;
    row.error = error;
  } else if (outcome === 'wrong' && row.score.created_hits === 0 && unparseableOnly) outcome = 'unparseable';
  return {
    outcome,
    error,
    timed_out: row.timed_out === true || failure?.timedOut === true,
    row,
    ...detailsOf(calls, logs),
    eventFields: { dry_run_ok: row.dry_run_ok as boolean, created_hits: row.score.created_hits, targets: row.score.targets, plan_variant: (row.plan_variant as string | null) ?? null },
  };
}

/**
 * `--simulation-mode dry-run|dev-inspect`: Phase II plans run on a fullnode, as the
 * original's `smi_tx_sim` ran them. A plan becomes `TransactionData` over the objects it names
 * as the node has them now (a shared object by its initial shared version), paid by the
 * sender's gas coin at the run's gas price, and the node simulates it: with its checks (a dry
 * run) or without (dev-inspect). Up the gas ladder only when it ran out of gas. In dry-run
 * mode a dry run the node refused to run falls back to a dev-inspect unless
 * `--require-dry-run` (the original's fallback; a fallback that executed counts the static
 * created types too, as the original did). Created types are those the node reported for the
 * objects the effects list as created; objects created and wrapped in the same transaction
 * are not visible in a node's effects (the local simulation sees them).
 */
import { canonicalAddress, type MovePackage, errorMessage } from '@smi/bytecode';
import type { ChainSimulation } from '@smi/simulation';
import type { InventoryItem } from './interface-summary.js';
import { readSimulation } from './node-effects.js';
import { type NodeContext, ownedOfType } from './node-setup.js';
import { type FetchedObject, fetchObject, NodeTxBuilder, transactionDataBcs } from './node-tx.js';
import { type Plan, PlanError } from '@smi/inhabit';
import { type PlanContext, planObjectIds, planToPtb } from '@smi/inhabit';
import { type PlanRun, type PlanSimulation, ZERO_RUN } from './plan-sim.js';
import { staticCreatedTypes } from './static-types.js';

/** Settings of the plans of one package on a node. */
export interface NodeSimulationOptions {
  /** The framework and corpus packages (the static created-type scan reads them). */
  packages: readonly MovePackage[];
  /** First gas budget, then the ladder (MIST). */
  gasBudgets: readonly bigint[];
}

/** Plans of one package, run on the node. */
export class NodeSimulation implements PlanSimulation {
  readonly initFailures: readonly string[] = [];
  readonly options: { sender: string; packages: readonly MovePackage[]; gasBudgets: readonly bigint[] };
  /** Objects fetched for this package's plans (shared objects' start versions never change). */
  private readonly objects = new Map<string, FetchedObject>();
  private byId: Map<string, MovePackage> | null = null;

  constructor(
    readonly node: NodeContext,
    options: NodeSimulationOptions,
  ) {
    this.options = { sender: node.sender, packages: options.packages, gasBudgets: options.gasBudgets };
  }

  /** The first object of `type` (by base type) the sender owns. */
  resolvePlaceholder(type: string): string | undefined {
    return ownedOfType(this.node, type);
  }

  inventory(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const o of this.node.owned) out.set(o.type, [...(out.get(o.type) ?? []), o.id]);
    return out;
  }

  inventoryItems(): InventoryItem[] {
    return this.node.owned.map((o) => ({ id: o.id, type: o.type, owner: 'owned' }));
  }

  private async fetch(ids: readonly string[]): Promise<void> {
    for (const raw of ids) {
      const id = canonicalAddress(raw);
      if (!this.objects.has(id)) this.objects.set(id, await fetchObject(this.node.source, id));
    }
  }

  /** Static created types of `plan`'s calls (the fallback counts them). */
  private staticTypes(plan: Plan): string[] {
    this.byId ??= new Map(this.options.packages.map((p) => [p.id, p]));
    return staticCreatedTypes(plan, this.byId);
  }

  /** Simulate, falling back to a dev-inspect when a dry run does not run (unless a dry run is required). */
  private async simulate(bcs: Uint8Array): Promise<{ sim: ChainSimulation; devInspect: boolean; fellBack: boolean } | { error: string; fellBack: boolean }> {
    const checks = this.node.mode === 'dry-run';
    try {
      return { sim: await this.node.source.simulateTransaction(bcs, { checks }), devInspect: !checks, fellBack: false };
    } catch (e) {
      if (!checks || this.node.requireDryRun) return { error: errorMessage(e), fellBack: false };
      try {
        return { sim: await this.node.source.simulateTransaction(bcs, { checks: false }), devInspect: true, fellBack: true };
      } catch (e2) {
        return { error: `dry run: ${errorMessage(e)}; dev-inspect: ${errorMessage(e2)}`, fellBack: true };
      }
    }
  }

  /** Run `plan` on the node (`buildOnly`: only build the transaction, over the node's objects). */
  async run(plan: Plan, buildOnly = false): Promise<PlanRun> {
    const ctx: PlanContext = { senderCoins: this.node.senderCoins, resolvePlaceholder: (t) => this.resolvePlaceholder(t) };
    let ptb;
    try {
      await this.fetch(planObjectIds(plan, ctx));
      ptb = planToPtb({ tx: () => new NodeTxBuilder(this.objects) }, plan, ctx);
    } catch (e) {
      return { ...ZERO_RUN, error: e instanceof PlanError ? e.message : `the plan does not build: ${errorMessage(e)}` };
    }
    if (buildOnly) return { ...ZERO_RUN, txBuildOk: true, error: null };
    let last: PlanRun = { ...ZERO_RUN, txBuildOk: true, error: null };
    const budgets = this.options.gasBudgets;
    for (let i = 0; i < budgets.length; i++) {
      const budget = budgets[i];
      const bcs = transactionDataBcs(ptb, { sender: this.node.sender, coin: this.node.gasCoin, price: this.node.gasPrice, budget });
      const out = await this.simulate(bcs);
      const fell = out.fellBack ? { fellBackToDevInspect: true } : {};
      // Refused before execution (the node's input checks, or the node failed): no effects.
      if ('error' in out) return { ...last, ...fell, attempts: i + 1, status: null, error: out.error };
      let r;
      try {
        r = readSimulation(out.sim);
      } catch (e) {
        return { ...last, ...fell, attempts: i + 1, status: null, error: `the node's effects do not decode: ${errorMessage(e)}` };
      }
      const ran = { ...last, ...fell, devInspect: out.devInspect, attempts: i + 1, gasBudgetUsed: Number(budget) };
      if (r.status === 'success') {
        const createdTypes = out.fellBack ? [...r.createdTypes, ...this.staticTypes(plan).filter((t) => !r.createdTypes.includes(t))].sort() : r.createdTypes;
        return { ...ran, ok: true, status: 'success', createdTypes, error: null };
      }
      last = { ...ran, status: 'failure', effectsError: r.effectsError, error: r.error, abortCode: r.abortCode, abortLocation: r.abortLocation };
      // Only running out of gas is worth a larger budget.
      if (r.effectsError !== 'InsufficientGas') break;
    }
    return last;
  }
}

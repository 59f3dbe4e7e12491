/**
 * `--simulation-mode local`: Phase II plans run on our own simulator instead of a fullnode.
 * Per package, a `SimulationEnvironment` holds the framework and the corpus packages; the
 * `init` functions of the target and of the packages it links to run as their publish did
 * (shared objects they make exist; owned ones belong to the publisher, not the sender, as on
 * mainnet); the sender holds funded `Coin<SUI>`s, the first of them paying gas. Every plan
 * runs as a dry run from that state (nothing it does is kept), retried up a gas ladder only
 * when it ran out of gas. Created types come from the transaction's effects, plus the objects
 * it created and wrapped in others (which the effects omit).
 */
import { canonicalAddress, type MovePackage, SYSTEM_PACKAGES, errorMessage } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { usableObjects } from '@smi/inhabit';
import { objectView, SimulationEnvironment, type StateSnapshot, transactionEffectsJson, transactionEventsJson } from '@smi/simulation';
import type { InventoryItem } from './interface-summary.js';
import { type Plan, PlanError } from '@smi/inhabit';
import { planToPtb } from '@smi/inhabit';
import { type PlanRun, type PlanSimulation, ZERO_RUN } from './plan-sim.js';
import { canonicalBaseType } from './score.js';

export type { PlanRun } from './plan-sim.js';

/** Settings of a local simulation. */
export interface LocalSimulationOptions {
  /** The framework packages and every corpus package dependencies may come from. */
  packages: readonly MovePackage[];
  protocolConfig: ProtocolConfig;
  sender: string;
  /** The address `init`s run as (owned objects they create go to it). */
  publisher: string;
  /** How many `Coin<SUI>` the sender holds (the first pays gas). */
  senderCoins: number;
  /** MIST in each. */
  coinBalance: bigint;
  /** First gas budget, then the ladder (MIST). */
  gasBudgets: readonly bigint[];
  /** Objects a user prepared with `smi sandbox-exec` (its state file, read once): loaded before the inits run. */
  state?: StateSnapshot;
}

/** The prepared state of one target package. */
export class LocalSimulation implements PlanSimulation {
  private constructor(
    readonly env: SimulationEnvironment,
    readonly options: LocalSimulationOptions,
    readonly senderCoins: string[],
    /** `init`s that aborted while preparing (package: error). */
    readonly initFailures: string[],
  ) {}

  /** Prepare the state for `target` (by id: it must be among `options.packages`). */
  static prepare(target: string, options: LocalSimulationOptions): LocalSimulation {
    const env = SimulationEnvironment.create({ packages: options.packages, protocolConfig: options.protocolConfig, sender: options.sender });
    if (options.state !== undefined) env.importState(options.state);
    const byId = new Map(options.packages.map((p) => [p.id, p]));
    const order: string[] = [];
    const visit = (id: string): void => {
      if (order.includes(id) || SYSTEM_PACKAGES.has(canonicalAddress(id))) return;
      const pkg = byId.get(id);
      if (!pkg) return;
      for (const dep of Object.values(pkg.linkageTable)) visit(dep.upgradedId);
      order.push(id);
    };
    visit(canonicalAddress(target));
    const initFailures: string[] = [];
    for (const id of order) {
      try {
        const out = env.runPackageInits(id, { sender: options.publisher });
        if (out.status.$kind !== 'Success') initFailures.push(`${id}: ${out.status.message}`);
      } catch (e) {
        initFailures.push(`${id}: ${errorMessage(e)}`);
      }
    }
    const coins: string[] = [];
    for (let i = 0; i < Math.max(1, options.senderCoins); i++) {
      const coin = env.createObject({
        type: '0x2::coin::Coin<0x2::sui::SUI>',
        fields: { balance: { value: options.coinBalance.toString() } },
        owner: { $kind: 'AddressOwner', address: options.sender },
      });
      coins.push(coin.id);
    }
    return new LocalSimulation(env, options, coins, initFailures);
  }

  /** An object of `type` (by base type) the sender owns, or a shared or immutable one. */
  resolvePlaceholder(type: string): string | undefined {
    const base = canonicalBaseType(type);
    return usableObjects(this.env, this.options.sender).find((o) => canonicalBaseType(o.typeTag) === base)?.id;
  }

  /** Types of every object the sender could use now, by base type (the inventory a prompt shows). */
  inventory(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const o of this.env.listObjects({ movesOnly: true })) {
      if (o.type === null) continue;
      const list = out.get(o.type) ?? [];
      list.push(o.id);
      out.set(o.type, list);
    }
    return out;
  }

  /**
   * The objects the sender can use (@smi/inhabit's inventory): its own, shared ones, immutable
   * ones; not the shared system objects (the prompt lists them apart; the filter before looked
   * for them at the system packages' ids, where there are none, and so kept them).
   */
  inventoryItems(): InventoryItem[] {
    return usableObjects(this.env, this.options.sender)
      .filter((o) => !(o.ownership === 'shared' && o.system))
      .map((o) => ({ id: o.id, type: o.typeTag, owner: o.ownership }));
  }

  /** Run `plan` as a dry run (`buildOnly`: only build the transaction). */
  run(plan: Plan, buildOnly = false): PlanRun {
    let ptb;
    try {
      ptb = planToPtb(this.env, plan, { senderCoins: this.senderCoins, resolvePlaceholder: (t) => this.resolvePlaceholder(t) });
    } catch (e) {
      return { ...ZERO_RUN, error: e instanceof PlanError ? e.message : `the plan does not build: ${errorMessage(e)}` };
    }
    if (buildOnly) return { ...ZERO_RUN, txBuildOk: true, error: null };
    let last: PlanRun = { ...ZERO_RUN, txBuildOk: true, error: null };
    for (let i = 0; i < this.options.gasBudgets.length; i++) {
      const budget = this.options.gasBudgets[i];
      let outcome;
      try {
        outcome = this.env.execute(ptb, { sender: this.options.sender, gasBudget: budget, gasCoin: this.senderCoins[0], commit: false });
      } catch (e) {
        // Rejected before execution (a validator's input checks): no effects.
        return { ...last, attempts: i + 1, status: null, error: errorMessage(e) };
      }
      const created = outcome.written
        .filter((w) => w.kind === 'created' && w.object.data.$kind === 'Move')
        .map((w) => objectView(this.env.vm, w.id, w.object).type)
        .filter((t): t is string => t !== null);
      const wrapped = outcome.createdAndWrapped.map((w) => w.type).sort();
      const transaction = { digest: outcome.digest, effects: transactionEffectsJson(this.env, outcome, false), events: transactionEventsJson(this.env, outcome) };
      if (outcome.status.$kind === 'Success') {
        const createdTypes = [...created, ...wrapped].sort();
        return { ...last, ok: true, status: 'success', attempts: i + 1, createdTypes, createdWrappedTypes: wrapped, gasBudgetUsed: Number(budget), error: null, transaction };
      }
      const failure = outcome.status;
      const abort = failure.error.$kind === 'MoveAbort' ? (failure.error as { MoveAbort: [{ module: { address: string; name: string }; functionName: string | null }, bigint] }).MoveAbort : null;
      last = {
        ...last,
        status: 'failure',
        attempts: i + 1,
        effectsError: failure.error.$kind,
        error: failure.message,
        abortCode: abort ? Number(abort[1]) : null,
        abortLocation: abort ? `${abort[0].module.address}::${abort[0].module.name}::${abort[0].functionName ?? '?'}` : null,
        gasBudgetUsed: Number(budget),
        transaction,
      };
      // Only running out of gas is worth a larger budget.
      if (failure.error.$kind !== 'InsufficientGas') break;
    }
    return last;
  }
}

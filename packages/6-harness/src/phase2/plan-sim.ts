/**
 * What Phase II needs of wherever plans run: our own simulator ({@link LocalSimulation}) or a
 * fullnode's dry run / dev-inspect ({@link NodeSimulation}). The package worker, the agents
 * and the inventory they show depend on this interface only; both kinds fill a
 * {@link PlanRun} the same way (status, effects error kind, abort code and location, created
 * types, gas budget used).
 */
import type { MovePackage } from '@smi/bytecode';
import type { SandboxEffects, SandboxEvent } from '@smi/simulation';
import type { InventoryItem } from './interface-summary.js';
import type { Plan } from '@smi/inhabit';

/** What one plan did. */
export interface PlanRun {
  /** The plan became a transaction (its inputs exist and have the right kinds). */
  txBuildOk: boolean;
  /** The transaction executed successfully. */
  ok: boolean;
  status: 'success' | 'failure' | null;
  /** Why it did not run or failed (`ExecutionFailureStatus` kind and message, or the build error). */
  error: string | null;
  effectsError: string | null;
  abortCode: number | null;
  abortLocation: string | null;
  /**
   * Types of the objects the transaction created (with type arguments), one per object,
   * sorted: those in the effects and those created and wrapped (`createdWrappedTypes`).
   */
  createdTypes: string[];
  /** Types of the objects the transaction created and wrapped in others (not in the effects), one per object, sorted. */
  createdWrappedTypes: string[];
  gasBudgetUsed: number | null;
  /** Simulations run (the gas ladder). */
  attempts: number;
  /** The transaction as `smi sandbox-exec` reports it (digest, effects, events), when it executed locally. */
  transaction: { digest: string; effects: SandboxEffects; events: SandboxEvent[] } | null;
  /**
   * On a node: the dry run failed to run at all and the plan ran as a dev-inspect instead
   * (the original's fallback; its created types then include the static ones).
   */
  fellBackToDevInspect?: boolean;
  /** On a node: the run that counts was a dev-inspect (checks disabled), by mode or by fallback. */
  devInspect?: boolean;
}

/** A run that did nothing yet (its fields before the simulation fills them). */
export const ZERO_RUN: Omit<PlanRun, 'error'> = {
  txBuildOk: false,
  ok: false,
  status: null,
  effectsError: null,
  abortCode: null,
  abortLocation: null,
  createdTypes: [],
  createdWrappedTypes: [],
  gasBudgetUsed: null,
  attempts: 0,
  transaction: null,
};

/** Where a package's plans run. */
export interface PlanSimulation {
  readonly options: {
    /** The sender of every transaction. */
    readonly sender: string;
    /** The packages the static created-type scan reads (the framework and the corpus). */
    readonly packages: readonly MovePackage[];
  };
  /** What failed while preparing (package: error); empty when nothing did. */
  readonly initFailures: readonly string[];
  /** Run `plan` as a dry run (`buildOnly`: only build the transaction). */
  run(plan: Plan, buildOnly?: boolean): PlanRun | Promise<PlanRun>;
  /** An object of `type` (by base type) the sender can use, or `undefined`. */
  resolvePlaceholder(type: string): string | undefined;
  /** Ids of the objects the sender can use, by type. */
  inventory(): Map<string, string[]>;
  /** The objects the sender can use, as a prompt shows them. */
  inventoryItems(): InventoryItem[];
}

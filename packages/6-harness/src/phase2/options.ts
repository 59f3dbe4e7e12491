/**
 * The options, state file, outcome and errors of a Phase II run (`runPhase2` of
 * `run.ts`): types the run's steps (`package-work.ts`) share without importing the run.
 */
import { createHash } from 'node:crypto';
import type { Json, MovePackage } from '@smi/bytecode';
import { SmiError } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { parseStateFile, type StateSnapshot } from '@smi/simulation';
import type { ModelPrice } from '../accounting.js';
import type { GenerateParams, ModelClient } from '../model/types.js';
import type { PyJson } from '../py-json.js';
import type { RunJson } from '../run/checkpoint.js';
import type { RunControlOptions } from '../run/control.js';
import type { RunTotals } from '../run/session.js';
import type { PackageResult, RunStatus, StopReason } from '../run/types.js';
import type { Phase2Agent } from './agents.js';
import type { MissingDependencies } from './dependencies.js';
import type { SummaryMode } from './interface-summary.js';
import type { NodeContext } from './node-setup.js';

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
  constructor(code: 'NO_PACKAGES' | 'NEEDS_MODEL' | 'NEEDS_PRICE' | 'NEEDS_NODE' | 'NEEDS_LOCAL', message: string) {
    super(code, message);
  }
}

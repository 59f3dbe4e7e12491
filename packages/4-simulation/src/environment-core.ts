/**
 * What the environment's parts (`call-function.ts`, `create-object.ts`, `packages.ts`) use of a
 * `SimulationEnvironment` (`environment.ts`, which implements it): its VM, store, sender and
 * protocol, and its transaction entry points. Types only, so those parts do not import the
 * environment that imports them.
 */
import type { Json, MoveVM, ProtocolConfig } from '@smi/move-vm';
import type { CheckMode, ExecutionResult, ObjectArg, ProgrammableTransaction } from '@smi/ptb';
import type { EnvTransactionBuilder } from './env-builder.js';
import type { InMemoryObjectStore } from './store.js';

/** Options of one transaction. */
export interface ExecuteOptions {
  sender?: string;
  gasBudget?: bigint;
  checks?: CheckMode;
  /**
   * A `Coin<SUI>` of the sender to pay with. Without it a mock gas coin pays, and disappears
   * afterwards (gas is still metered and reported): it holds the budget, which Sui withholds
   * from the gas coin while the commands run, plus `MOCK_GAS_SPENDABLE` the commands
   * may take from it (`SplitCoins(Gas, ..)`).
   */
  gasCoin?: string;
  /** `false`: run, report, keep nothing (a dry run). Default `true`. */
  commit?: boolean;
  /** Before the commands, run the `init` functions of this loaded package (see `SimulationEnvironment.runPackageInits`). */
  runInitsOf?: { package: string; modules?: readonly string[]; upgradeCap?: boolean };
}

/** What `SimulationEnvironment.execute` returns. */
export interface TransactionOutcome extends ExecutionResult {
  /** Transaction digest (base58). */
  digest: string;
  /** The gas coin that paid (the mock coin's id when none was given). */
  gasCoin: string;
}

/** The environment as its parts see it (see the header). */
export interface EnvironmentCore {
  readonly vm: MoveVM;
  readonly store: InMemoryObjectStore;
  readonly protocolConfig: ProtocolConfig;
  /** The default sender. */
  readonly sender: string;
  /** A transaction builder bound to the environment. */
  tx(): EnvTransactionBuilder;
  /** Run a programmable transaction. */
  execute(ptb: ProgrammableTransaction, options?: ExecuteOptions): TransactionOutcome;
  /** An object input at the object's current version. */
  objectArg(id: string, options?: { mutable?: boolean; receiving?: boolean }): ObjectArg;
  /** `value` (JSON) as the BCS of `type`. */
  encodeValue(type: string, value: Json): Uint8Array;
  /** A new object id, unused. */
  freshObjectId(): string;
}

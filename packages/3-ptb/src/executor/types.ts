/**
 * Public types of the PTB executor: where objects come from, what a transaction brings
 * (sender, gas, epoch...), and what comes back (status, effects, events, per-command
 * results, the new object states).
 */
import type { ProtocolConfig, Tracer } from '@smi/move-vm';
import type { GasCostSummary, TransactionEffects } from '../bcs/effects.js';
import type { ExecutionFailureStatus } from '../bcs/execution-status.js';
import type { ObjectRef, SuiObject } from '../bcs/object.js';
import type { Event } from '../bcs/effects.js';
import type { ProgrammableTransaction } from '../bcs/transaction.js';

/** Read access to objects (and packages) as they are before the transaction. */
export interface ObjectStore {
  /** The object's current state, or `undefined` when it does not exist. */
  getObject(id: string): SuiObject | undefined;
  /**
   * A dynamic-field child of `parent` (or a receivable object), as of the version the
   * transaction sees (at most `versionBound`, the version of the root object it is read
   * through, when given); `undefined` when absent. Optional: stores without children.
   */
  getChild?(parent: string, child: string, versionBound?: bigint): SuiObject | undefined;
}

/** Who pays gas and how much. */
export interface GasInput {
  /** Gas coins (the first is the gas object; the others are merged into it). Empty: no gas coin (dev-inspect). */
  payment: ObjectRef[];
  owner: string;
  /** Gas price in MIST per unit. */
  price: bigint;
  /** Budget in MIST. */
  budget: bigint;
  /**
   * SUI reserved from the gas owner's address balance to pay gas (`--address-balance-gas`:
   * the budget, with no coins), and whether that reservation is the first payment (then
   * the address balance is charged and the commands see an ephemeral gas coin).
   */
  addressBalance?: { amount: bigint; first: boolean };
}

/** Checks applied while executing. */
export type CheckMode = 'strict' | 'relaxed';

/** Everything a transaction brings besides its commands. */
export interface ExecutionInput {
  sender: string;
  transaction: ProgrammableTransaction;
  gas: GasInput;
  /** Transaction digest (base58); fresh object ids derive from it. */
  digest: string;
  epoch: bigint;
  epochTimestampMs: bigint;
  /** Reference gas price of the epoch (default: the gas price). */
  referenceGasPrice?: bigint;
  sponsor?: string | null;
  protocolConfig: ProtocolConfig;
  /** Tokens gasless transactions may move, with their minimum transfer (see `gasless.ts`). */
  gaslessTokens?: ReadonlyMap<string, bigint>;
  /**
   * `strict` (dry run): Sui's rules. `relaxed` (dev inspect): any function may be called,
   * values need not be consumed, return values of every command are reported.
   */
  checks?: CheckMode;
  /**
   * Before the commands, run the `init` functions of this already-loaded package (storage
   * id) as its publish did (only those of `modules` when given). Simulation only: a package
   * loaded from bytecode never ran them. `upgradeCap` (default: `modules` not given): the
   * sender also gets the package's `UpgradeCap`, naming its newest loaded version.
   */
  runInitsOf?: { package: string; modules?: readonly string[]; upgradeCap?: boolean };
  /**
   * Watches every Move call of the commands, instruction by instruction (the calls then run
   * in the interpreter's slow mode): coverage, comparison logs, traces.
   */
  tracer?: Tracer;
}

/** A value a command returned or a reference it mutated, with its type tag and BCS. */
export interface CommandValue {
  /** Type tag (full addresses). */
  type: string;
  bcs: Uint8Array;
}

/** What one command produced. */
export interface CommandResult {
  returnValues: CommandValue[];
  /** `&mut` arguments after the command, with the argument they came from. */
  mutatedReferences: (CommandValue & { argument: string })[];
}

/** Outcome of a transaction. */
export type ExecutionStatusResult =
  | { $kind: 'Success' }
  | {
      $kind: 'Failure';
      error: ExecutionFailureStatus;
      /** Index of the failing command, when one failed. */
      command: number | null;
      /** Human-readable explanation. */
      message: string;
    };

/** A written object (its new state) and what happened to it. */
export interface ObjectChange {
  id: string;
  kind: 'created' | 'mutated' | 'unwrapped';
  object: SuiObject;
  digest: string;
}

/** Result of {@link executeProgrammableTransaction}. */
export interface ExecutionResult {
  status: ExecutionStatusResult;
  effects: TransactionEffects;
  /** Digest of `effects`. */
  effectsDigest: string;
  events: Event[];
  /** Objects written (created, mutated, unwrapped), by id. */
  written: ObjectChange[];
  /** Ids deleted (including unwrapped then deleted). */
  deleted: string[];
  /** Ids wrapped into other objects. */
  wrapped: string[];
  /**
   * Objects the transaction created that end up inside a written object (a field, a vector
   * element, an option, a dynamic field's value; nested at any depth), which the effects do
   * not list: id and type tag, sorted by id. Empty when the transaction failed.
   */
  createdAndWrapped: { id: string; type: string }[];
  /** Per-command results (return values and mutated references), up to the failing command. */
  commandResults: CommandResult[];
  gasUsed: GasCostSummary;
  /** Dynamic-field children read, with their versions. */
  loadedChildObjects: { id: string; version: bigint }[];
  /** Modules whose code the transaction's Move calls ran (`0x…::module`, sorted). */
  modulesTouched: string[];
  /** Move instructions the transaction executed. */
  instructions: number;
  /** The count of {@link instructions} when each command started (up to the failing one): how far each got. */
  instructionsAtCommand: number[];
}

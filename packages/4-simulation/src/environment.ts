/**
 * `SimulationEnvironment`: an offline Sui. Packages (framework, corpus, published) live in a
 * Move VM; objects live in an {@link InMemoryObjectStore}; transactions run through the
 * `@smi/ptb` executor with Sui's rules and their results are committed to the store, so
 * state carries over from one transaction to the next.
 *
 * ```ts
 * const env = SimulationEnvironment.create({ packages: framework, protocolConfig });
 * const tx = env.tx();
 * const [coin] = tx.splitCoins(tx.gas, [tx.pure('u64', 10)]);
 * tx.transferObjects([coin], tx.pure('address', env.sender));
 * const out = env.execute(tx.build());   // out.status, out.effects, out.written...
 * ```
 */
import { addressBytes, canonicalAddress, type MovePackage, errorMessage } from '@smi/bytecode';
import { formatType, type Json, MoveVM, type ProtocolConfig, suiNativeRegistry, type SuiRegistryOptions, type Tracer, valueFromJson } from '@smi/move-vm';
import {
  type CheckMode,
  type ExecutionResult,
  executeProgrammableTransaction,
  objectDigest,
  type ObjectArg,
  type ObjectRef,
  type ObjectStore,
  type ProgrammableTransaction,
  type SuiObject,
  type TransactionData,
  type TransactionEffects,
  transactionDigest,
  transactionInputError,
  checkTransactionInput,
} from '@smi/ptb';
import { balanceAccumulatorId, collectSettlements, eventsDigest, isBalanceAccumulator, settledValue, suiFlows } from './accumulators.js';
import { leBytes, PtbBuilder, u64le, vecU8 } from './builder.js';
import { EnvTransactionBuilder } from './env-builder.js';
import type { EnvironmentCore, ExecuteOptions, TransactionOutcome } from './environment-core.js';
import { callFunction, type CallOutcome } from './call-function.js';
import { createObject, type CreateObjectSpec } from './create-object.js';
import { checkInitsLink, loadPackage, packageFromObject, packageObjectOf, publishModules, type PublishOutcome } from './packages.js';
import { decodeState, encodeState, readStateFile, type StateFile, type StateSnapshot, writeFileAtomic } from './state-file.js';
import { SimulationEnvironmentError } from './errors.js';
import { objectView, type ObjectView } from './object-view.js';
import { InMemoryObjectStore, versionOf } from './store.js';
import { MockGasCoins } from './gas-coin.js';
import { genesisPlan, systemStateUpgrade } from './genesis.js';
import { cachedGenesis, genesisKey, rememberGenesis } from './genesis-cache.js';
import { ACCUMULATOR_ROOT_ID, CLOCK_ID, RANDOM_ID, SYSTEM_ADDRESS, SYSTEM_STATE_ID, syntheticDigest, syntheticId } from './system.js';

/** Default sender: a plain user address (not the system address 0x0). */
export const DEFAULT_SENDER = canonicalAddress('0xa11ce');
/** Default clock time: 2024-01-01T00:00:00Z (the original sandbox's). */
export const DEFAULT_CLOCK_MS = 1_704_067_200_000n;

/** Settings of an environment (all persisted with its state). */
export interface SimulationConfig {
  sender: string;
  epoch: bigint;
  /** Clock 0x6 time, ms. */
  clockMs: bigint;
  /** 32 bytes of randomness behind Random 0x8. */
  randomSeed: Uint8Array;
  /** Gas price (MIST per unit); also the reference gas price. */
  gasPrice: bigint;
  /** Default gas budget of a transaction (MIST). */
  gasBudget: bigint;
  /** `strict` = Sui's rules (dry run); `relaxed` = dev-inspect rules (any function, values may stay unused). */
  checks: CheckMode;
}

/** Options of {@link SimulationEnvironment.create}. */
export interface SimulationOptions extends Partial<SimulationConfig> {
  /** Packages to load: the framework (0x1, 0x2 at least) and any others (corpus packages). */
  packages: readonly MovePackage[];
  /** Protocol config of every transaction (limits, gas, feature flags). */
  protocolConfig: ProtocolConfig;
  /** Native options (permissive crypto, validator checks). */
  natives?: SuiRegistryOptions;
  /** Seed Random 0x8 at genesis (default `true`); `false` leaves it as `random::create` made it. */
  seedRandomness?: boolean;
}

export type { ExecuteOptions, TransactionOutcome } from './environment-core.js';

/** What the commands may spend from a mock gas coin besides the budget (1000 SUI). */
export const MOCK_GAS_SPENDABLE = 1_000_000_000_000n;

/** A store view that adds transient objects (the mock gas coin) on top of the real store. */
function overlay(base: InMemoryObjectStore, extra: Map<string, SuiObject>): ObjectStore {
  return {
    getObject: (id) => extra.get(canonicalAddress(id)) ?? base.getObject(id),
    getChild: (parent, child) => base.getChild(parent, child),
  };
}

/** An offline Sui network of one. */
export class SimulationEnvironment implements EnvironmentCore {
  readonly vm: MoveVM;
  readonly store = new InMemoryObjectStore();
  readonly protocolConfig: ProtocolConfig;
  readonly config: SimulationConfig;
  /** Ids of the packages given at creation (never saved with the state). */
  readonly basePackageIds: ReadonlySet<string>;
  /** Package objects of the base packages (in the store, never saved). */
  private readonly baseObjects: [string, SuiObject][];
  /** Counters behind deterministic digests and ids. */
  protected counters = { tx: 0n, system: 0n, created: 0n, randomRound: 0n };
  private readonly seedRandomness: boolean;
  private readonly nativeOptions: SuiRegistryOptions;
  private last: TransactionOutcome | null = null;
  private readonly mockGas: MockGasCoins;
  /** The non-base package objects of each state imported (a state is put back many times). */
  private readonly packagesOf = new WeakMap<readonly (readonly [string, SuiObject])[], { length: number; wanted: (readonly [string, SuiObject])[]; withBase: boolean }>();
  /** The package object each non-base package of the VM was loaded from by {@link importState}. */
  private readonly imported = new Map<string, { object: SuiObject; pkg: MovePackage }>();
  /**
   * Watches the Move calls of every transaction {@link execute} runs (not the system's), or
   * `null`. A tool sets it around the transactions it wants to observe (coverage,
   * comparison logs); calls then run in the interpreter's slow mode.
   */
  tracer: Tracer | null = null;

  protected constructor(options: SimulationOptions) {
    this.protocolConfig = options.protocolConfig;
    this.seedRandomness = options.seedRandomness ?? true;
    this.nativeOptions = options.natives ?? {};
    this.vm = MoveVM.create({ packages: options.packages, natives: suiNativeRegistry(this.nativeOptions), protocolConfig: options.protocolConfig });
    this.mockGas = new MockGasCoins(this.vm, options.protocolConfig);
    this.basePackageIds = new Set(options.packages.map((p) => p.id));
    // Packages are objects too (transactions name them; their previous transactions are dependencies).
    this.baseObjects = options.packages.map((p) => [p.id, packageObjectOf(p)]);
    for (const [id, o] of this.baseObjects) this.store.put(id, o);
    this.config = {
      sender: canonicalAddress(options.sender ?? DEFAULT_SENDER),
      epoch: options.epoch ?? 0n,
      clockMs: options.clockMs ?? DEFAULT_CLOCK_MS,
      randomSeed: options.randomSeed ?? new Uint8Array(32),
      gasPrice: options.gasPrice ?? 1000n,
      gasBudget: options.gasBudget ?? 50_000_000_000n,
      checks: options.checks ?? 'strict',
    };
    if (this.config.randomSeed.length !== 32) throw new SimulationEnvironmentError('INVALID_REQUEST', 'the random seed must be 32 bytes');
  }

  /** A new environment with the system objects created. */
  static create(options: SimulationOptions): SimulationEnvironment {
    const env = new SimulationEnvironment(options);
    env.genesis();
    return env;
  }

  get sender(): string {
    return this.config.sender;
  }

  // -------------------------------------------------------------------------
  // Configuration

  setSender(address: string): void {
    this.config.sender = canonicalAddress(address);
  }

  setEpoch(epoch: bigint): void {
    if (epoch < this.config.epoch) throw new SimulationEnvironmentError('INVALID_REQUEST', `epochs only advance (${this.config.epoch} → ${epoch})`);
    this.config.epoch = epoch;
  }

  setGasPrice(price: bigint): void {
    if (price <= 0n) throw new SimulationEnvironmentError('INVALID_REQUEST', 'the gas price must be positive');
    this.config.gasPrice = price;
  }

  setGasBudget(budget: bigint): void {
    if (budget <= 0n) throw new SimulationEnvironmentError('INVALID_REQUEST', 'the gas budget must be positive');
    this.config.gasBudget = budget;
  }

  setChecks(checks: CheckMode): void {
    this.config.checks = checks;
  }

  /** Set the Clock's time (through `clock::consensus_commit_prologue`, as the network does). */
  setClock(ms: bigint): void {
    if (ms < 0n) throw new SimulationEnvironmentError('INVALID_REQUEST', 'the time must not be negative');
    this.config.clockMs = ms;
    if (!this.store.has(CLOCK_ID)) return;
    const tx = new PtbBuilder();
    tx.moveCall('0x2::clock::consensus_commit_prologue', [this.sharedArg(tx, CLOCK_ID, true), tx.pureBytes(u64le(ms))]);
    this.systemTransaction(tx.build(), 'clock');
  }

  advanceClock(ms: bigint): void {
    this.setClock(this.config.clockMs + ms);
  }

  /** New randomness behind Random 0x8 (through `random::update_randomness_state`). */
  setRandomSeed(seed: Uint8Array): void {
    if (seed.length !== 32) throw new SimulationEnvironmentError('INVALID_REQUEST', 'the random seed must be 32 bytes');
    this.config.randomSeed = Uint8Array.from(seed);
    if (!this.store.has(RANDOM_ID)) return;
    const round = this.counters.randomRound;
    const tx = new PtbBuilder();
    tx.moveCall('0x2::random::update_randomness_state', [this.sharedArg(tx, RANDOM_ID, true), tx.pureBytes(u64le(round)), tx.pureBytes(vecU8(seed))]);
    this.systemTransaction(tx.build(), 'random');
    this.counters.randomRound = round + 1n;
  }

  // -------------------------------------------------------------------------
  // Transactions

  /** A transaction builder whose `pure` and `object` use this environment's types and objects. */
  tx(): EnvTransactionBuilder {
    return new EnvTransactionBuilder(this);
  }

  /** `execute` under the original sandbox's name. */
  executePtb(ptb: ProgrammableTransaction, options: ExecuteOptions = {}): TransactionOutcome {
    return this.execute(ptb, options);
  }

  /** Run a programmable transaction and (by default) commit its effects. */
  execute(ptb: ProgrammableTransaction, options: ExecuteOptions = {}): TransactionOutcome {
    // A transaction a validator would reject before execution has no effects at all.
    const invalid = transactionInputError(ptb, this.protocolConfig);
    if (invalid !== null) throw new SimulationEnvironmentError('INVALID_REQUEST', `the transaction is rejected before execution: ${invalid}`);
    const sender = canonicalAddress(options.sender ?? this.config.sender);
    let budget = options.gasBudget ?? this.config.gasBudget;
    const price = this.config.gasPrice;
    const extra = new Map<string, SuiObject>();
    let gasCoin: string;
    let mock = false;
    if (options.gasCoin !== undefined) {
      gasCoin = canonicalAddress(options.gasCoin);
      const o = this.store.getObject(gasCoin);
      if (o === undefined) throw new SimulationEnvironmentError('MISSING_OBJECT', `gas coin ${gasCoin} does not exist`, { objectId: gasCoin });
      // Without an explicit budget, a real gas coin budgets at most its balance.
      if (options.gasBudget === undefined && o.data.$kind === 'Move' && o.data.Move.contents.length >= 40) {
        const balance = new DataView(o.data.Move.contents.buffer, o.data.Move.contents.byteOffset + 32, 8).getBigUint64(0, true);
        if (balance < budget) budget = balance;
      }
    } else {
      gasCoin = syntheticId('gas', this.counters.tx);
      extra.set(gasCoin, this.mockGas.make(gasCoin, sender, budget + MOCK_GAS_SPENDABLE));
      mock = true;
    }
    const gasObject = extra.get(gasCoin) ?? (this.store.getObject(gasCoin) as SuiObject);
    const payment: ObjectRef[] = [{ objectId: gasCoin, version: versionOf(gasObject), digest: objectDigest(gasObject) }];
    const data: TransactionData = {
      $kind: 'V1',
      V1: {
        kind: { $kind: 'ProgrammableTransaction', ProgrammableTransaction: ptb },
        sender,
        gasData: { payment, owner: sender, price, budget },
        expiration: { $kind: 'None', None: true },
      },
    } as TransactionData;
    const store = overlay(this.store, extra);
    const checks = options.checks ?? this.config.checks;
    // Owners, versions, shared-object starting versions, gas: as a validator checks them
    // (dev-inspect checks only that shared inputs are shared).
    const rejected = checkTransactionInput(store, {
      transaction: ptb,
      sender,
      gasOwner: sender,
      payment,
      budget,
      price,
      protocolConfig: this.protocolConfig,
      devInspect: checks === 'relaxed',
    });
    if (rejected !== null) throw new SimulationEnvironmentError('INVALID_REQUEST', `the transaction is rejected before execution: ${rejected.code}: ${rejected.message}`, { code: rejected.code });
    const digest = transactionDigest(data);
    this.counters.tx += 1n;
    const result = executeProgrammableTransaction(this.vm, store, {
      sender,
      transaction: ptb,
      gas: { payment, owner: sender, price, budget },
      digest,
      epoch: this.config.epoch,
      epochTimestampMs: this.config.clockMs,
      referenceGasPrice: price,
      protocolConfig: this.protocolConfig,
      checks,
      ...(options.runInitsOf === undefined ? {} : { runInitsOf: { ...options.runInitsOf, package: canonicalAddress(options.runInitsOf.package) } }),
      ...(this.tracer === null ? {} : { tracer: this.tracer }),
    });
    this.finish(result, options.commit ?? true, mock ? gasCoin : null);
    this.last = Object.assign(result, { digest, gasCoin }); // not a copy: that would read the lazy effects digest
    return this.last;
  }

  /** The last transaction {@link execute} ran (any request that ran one), or `null`. */
  get lastOutcome(): TransactionOutcome | null {
    return this.last;
  }

  /** Commit (or, for a dry run, undo the package side effects of) a result. */
  protected finish(result: ExecutionResult, commit: boolean, mockGas: string | null): void {
    if (!commit) {
      for (const w of result.written) if (w.object.data.$kind === 'Package') this.vm.removePackage(w.id);
      return;
    }
    this.store.apply(result);
    if (mockGas !== null) this.store.delete(mockGas);
  }

  /**
   * Run a transaction as the system address, unmetered, with relaxed checks (private calls and any
   * pure value allowed, as in upstream's genesis and system transactions), at `epoch` (default: the configured one).
   */
  protected systemTransaction(ptb: ProgrammableTransaction, label: string, epoch: bigint = this.config.epoch): ExecutionResult {
    const digest = syntheticDigest(`system-${label}`, this.counters.system);
    this.counters.system += 1n;
    const result = executeProgrammableTransaction(this.vm, this.store, {
      sender: SYSTEM_ADDRESS,
      transaction: ptb,
      gas: { payment: [], owner: SYSTEM_ADDRESS, price: this.config.gasPrice, budget: 0n },
      digest,
      epoch,
      epochTimestampMs: this.config.clockMs,
      protocolConfig: this.protocolConfig,
      checks: 'relaxed',
    });
    if (result.status.$kind !== 'Success') {
      throw new SimulationEnvironmentError('INVALID_REQUEST', `system transaction ${label} failed: ${result.status.message}`);
    }
    this.store.apply(result);
    return result;
  }

  /**
   * Settle the accumulator writes of `effects` (the transactions of checkpoint `checkpoint`)
   * into the accumulator root 0xacc: one system transaction (see `accumulators.ts`). Returns
   * `null` when the protocol has no accumulator root.
   */
  settleAccumulators(effects: readonly TransactionEffects[], checkpoint: bigint): ExecutionResult | null {
    if (!this.store.has(ACCUMULATOR_ROOT_ID)) return null;
    const settlements = collectSettlements(effects);
    const flows = suiFlows(settlements);
    const tx = new PtbBuilder();
    const root = this.sharedArg(tx, ACCUMULATOR_ROOT_ID, true);
    const u64 = (n: bigint): ReturnType<PtbBuilder['pureBytes']> => tx.pureBytes(u64le(n));
    const epoch = this.config.epoch;
    tx.moveCall('0x2::accumulator_settlement::settlement_prologue', [root, u64(epoch), u64(checkpoint), u64(0n), u64(flows.input), u64(flows.output)]);
    for (const s of settlements) {
      if (s.kind === 'balance') {
        if (!isBalanceAccumulator(s.type)) continue;
        const [merge, split] = s.merge >= s.split ? [s.merge - s.split, 0n] : [0n, s.split - s.merge];
        if (merge === 0n && split === 0n) continue;
        tx.moveCall('0x2::accumulator_settlement::settle_u128', [root, tx.pureBytes(addressBytes(s.owner)), tx.pureBytes(leBytes(merge, 16)), tx.pureBytes(leBytes(split, 16))], [s.type]);
      } else {
        const args = [root, tx.pureBytes(addressBytes(s.stream)), tx.pureBytes(eventsDigest(s.digests)), u64(BigInt(s.digests.length)), u64(checkpoint)];
        tx.moveCall('0x2::accumulator_settlement::settle_events', args);
      }
    }
    return this.systemTransaction(tx.build(), 'settlement');
  }

  /** The settled balance of `owner` in `balanceType` (`0x2::balance::Balance<T>`), or `undefined` when it has none. */
  settledBalance(owner: string, balanceType: string): bigint | undefined {
    return settledValue(this.store.getObject(balanceAccumulatorId(owner, balanceType)));
  }

  /**
   * Create the system objects (`genesis.ts`): one system transaction at epoch 0, as upstream's genesis, whatever epoch the
   * environment starts at, and a second one upgrading 0x5's inner state as on mainnet; then the clock is set to the
   * configured time and Random 0x8 gets its first randomness.
   */
  protected genesis(): void {
    const key = genesisKey(this.vm, { chainStartMs: this.config.clockMs, gasPrice: this.config.gasPrice, natives: this.nativeOptions, systemCounter: this.counters.system });
    const cached = cachedGenesis(this.protocolConfig, key);
    // A genesis already run on the same code and inputs is applied as it was written (`genesis-cache.ts`).
    if (cached === undefined) {
      const results = [this.systemTransaction(genesisPlan(this.vm, this.protocolConfig, this.config.clockMs).transaction, 'genesis', 0n)];
      const upgrade = this.store.has(SYSTEM_STATE_ID) ? systemStateUpgrade(this.vm, this.objectArg(SYSTEM_STATE_ID)) : null;
      if (upgrade !== null) results.push(this.systemTransaction(upgrade, 'system-state-upgrade', 0n));
      rememberGenesis(this.protocolConfig, key, results);
    } else {
      for (const r of cached) this.store.apply(r);
      this.counters.system += BigInt(cached.length);
    }
    // Random was created at epoch 0: its first update is round 0 (`random::update_randomness_state`).
    this.counters.randomRound = 0n;
    // `clock::create` starts at 0: only a later time needs the prologue.
    if (this.store.has(CLOCK_ID) && this.config.clockMs !== 0n) this.setClock(this.config.clockMs);
    if (this.store.has(RANDOM_ID) && this.seedRandomness) this.setRandomSeed(this.config.randomSeed);
  }

  // -------------------------------------------------------------------------
  // Objects

  /** JSON view of an object, or `undefined`. */
  getObject(id: string): ObjectView | undefined {
    const o = this.store.getObject(id);
    return o === undefined ? undefined : objectView(this.vm, canonicalAddress(id), o);
  }

  /** The object input for `id` as the store holds it now. */
  objectArg(id: string, options: { mutable?: boolean; receiving?: boolean } = {}): ObjectArg {
    const oid = canonicalAddress(id);
    const o = this.store.getObject(oid);
    if (o === undefined) throw new SimulationEnvironmentError('MISSING_OBJECT', `object ${oid} does not exist`, { objectId: oid });
    const ref: ObjectRef = { objectId: oid, version: versionOf(o), digest: objectDigest(o) };
    if (options.receiving) return { $kind: 'Receiving', Receiving: ref } as ObjectArg;
    if (o.owner.$kind === 'Shared') {
      const mutability = options.mutable === false ? { $kind: 'Immutable', Immutable: true } : { $kind: 'Mutable', Mutable: true };
      return { $kind: 'SharedObject', SharedObject: { objectId: oid, initialSharedVersion: o.owner.Shared.initialSharedVersion, mutability } } as ObjectArg;
    }
    return { $kind: 'ImmOrOwnedObject', ImmOrOwnedObject: ref } as ObjectArg;
  }

  protected sharedArg(tx: PtbBuilder, id: string, mutable: boolean): ReturnType<PtbBuilder['objectArg']> {
    return tx.objectArg(this.objectArg(id, { mutable }));
  }

  /** BCS of `value` (JSON) as a value of `type` (a type tag). */
  encodeValue(type: string, value: Json): Uint8Array {
    let t;
    try {
      t = this.vm.resolveType(type);
    } catch (e) {
      throw new SimulationEnvironmentError('TYPE_MISMATCH', `type ${type} does not resolve: ${errorMessage(e)}`);
    }
    try {
      return this.vm.bcs.encode(valueFromJson(this.vm.types, value, t), t);
    } catch (e) {
      throw new SimulationEnvironmentError('TYPE_MISMATCH', `value does not fit ${formatType(t)}: ${errorMessage(e)}`);
    }
  }

  /** Create and store an object from typed field values (see {@link CreateObjectSpec}). */
  createObject(spec: CreateObjectSpec): ObjectView {
    return createObject(this, spec);
  }

  /** Every object (sorted by id), packages included unless `movesOnly`. */
  listObjects(options: { movesOnly?: boolean } = {}): ObjectView[] {
    return this.store
      .entries()
      .filter(([, o]) => !options.movesOnly || o.data.$kind === 'Move')
      .map(([id, o]) => objectView(this.vm, id, o));
  }

  // -------------------------------------------------------------------------
  // Packages and calls

  /** Publish modules compiled at 0x0 (a real `Publish`: `init` runs, the sender gets the `UpgradeCap`). */
  publish(modules: readonly Uint8Array[], options: ExecuteOptions & { dependencies?: readonly string[] } = {}): PublishOutcome {
    return publishModules(this, modules, options);
  }

  /** `publish` under the original sandbox's name. */
  deployPackage(modules: readonly Uint8Array[], options: ExecuteOptions & { dependencies?: readonly string[] } = {}): PublishOutcome {
    return publishModules(this, modules, options);
  }

  /**
   * Run the `init` functions of a loaded package as its publish did: one transaction of
   * the sender (default: the configured one), no commands, each module's `init` in
   * dependency order with its one-time witness (only the inits of `modules` when given).
   * What the inits create (shared objects, capabilities sent to the sender) is then in the
   * store, as on chain after the publish. `upgradeCap` (default: `modules` not given): the sender also gets the
   * package's `UpgradeCap` as the publisher holds it after the upgrades (see `ptb` `runPackageInits`).
   */
  runPackageInits(packageId: string, options: ExecuteOptions & { modules?: readonly string[]; upgradeCap?: boolean } = {}): TransactionOutcome {
    const id = canonicalAddress(packageId);
    if (this.vm.packageById(id) === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `package ${id} is not loaded`, { packageId: id });
    const { modules, upgradeCap, ...rest } = options;
    checkInitsLink(this, id, modules);
    const runInitsOf = { package: id, ...(modules === undefined ? {} : { modules }), ...(upgradeCap === undefined ? {} : { upgradeCap }) };
    return this.execute({ inputs: [], commands: [] }, { ...rest, runInitsOf });
  }

  /** Load a package as it is (bytecode at its own address; no `init`). */
  loadPackage(pkg: MovePackage): void {
    loadPackage(this, pkg);
  }

  /** Call one function with JSON arguments read by its parameter types. */
  call(target: string, args: readonly Json[] = [], options: ExecuteOptions & { typeArgs?: readonly string[] } = {}): CallOutcome {
    return callFunction(this, target, args, options);
  }

  // -------------------------------------------------------------------------
  // State

  /** Everything needed to resume (objects as BCS, settings, counters). */
  exportState(): StateFile {
    return encodeState(this.captureState());
  }

  /**
   * The state as it is now, in memory (objects are immutable values, so nothing is
   * copied): `importState(captured)` brings the environment back to this point exactly,
   * counters included, so what runs next runs as it would have then. A state is a value:
   * change nothing in it (`importState` keeps facts about the states it has seen).
   */
  captureState(): StateSnapshot {
    return {
      protocolVersion: this.protocolConfig.version,
      config: { ...this.config, randomSeed: Uint8Array.from(this.config.randomSeed) },
      counters: { ...this.counters },
      objects: this.store.entries().filter(([id]) => !this.basePackageIds.has(id)),
    };
  }

  /** Replace this environment's state by an exported one. */
  importState(state: StateFile | StateSnapshot, options: { allowProtocolMismatch?: boolean } = {}): void {
    const s = 'format' in state ? decodeState(state) : state;
    if (s.protocolVersion !== this.protocolConfig.version && !options.allowProtocolMismatch) {
      throw new SimulationEnvironmentError('INVALID_STATE_FILE', `the state was saved at protocol ${s.protocolVersion}, this environment runs ${this.protocolConfig.version}`);
    }
    this.importPackages(s.objects);
    this.store.restore(this.baseObjects, s.objects, (id) => this.basePackageIds.has(id));
    Object.assign(this.config, s.config);
    this.counters = { ...s.counters };
  }

  /**
   * The VM's packages besides the base ones become those of `objects`. When they already are
   * (the same package objects, each loaded from that very object by an earlier import) nothing
   * changes, and the VM keeps its linkers and what they translated.
   */
  private importPackages(objects: readonly (readonly [string, SuiObject])[]): void {
    let known = this.packagesOf.get(objects);
    if (known === undefined || known.length !== objects.length) {
      const packages = objects.filter(([, o]) => o.data.$kind === 'Package');
      known = { length: objects.length, wanted: packages.filter(([id]) => !this.basePackageIds.has(id)), withBase: packages.some(([id]) => this.basePackageIds.has(id)) };
      this.packagesOf.set(objects, known);
    }
    const wanted = known.wanted;
    const loaded = this.vm.packageIds().filter((id) => !this.basePackageIds.has(id));
    const same = loaded.length === wanted.length && wanted.every(([id, o]) => this.imported.get(id)?.object === o && this.vm.packageById(id) === this.imported.get(id)?.pkg);
    if (same && !known.withBase) return;
    // Check every package first, so a bad file changes nothing.
    const packages = objects.filter(([, o]) => o.data.$kind === 'Package').map(([id, o]) => ({ id, object: o, pkg: packageFromObject(o) }));
    for (const id of loaded) this.vm.removePackage(id);
    this.imported.clear();
    for (const { id, object, pkg } of packages) {
      if (this.basePackageIds.has(id)) continue;
      this.vm.addPackage(pkg);
      this.imported.set(id, { object, pkg });
    }
  }

  /** Save the state to `file` (atomically). */
  saveState(file: string): void {
    writeFileAtomic(file, JSON.stringify(this.exportState(), null, 1) + '\n');
  }

  /** Load the state saved in `file`. */
  loadState(file: string, options: { allowProtocolMismatch?: boolean } = {}): void {
    this.importState(readStateFile(file), options);
  }

  /**
   * Forget every object and counter and re-create the system objects; settings stay.
   * Published packages stay too unless `keepPackages` is `false`.
   */
  resetState(options: { keepPackages?: boolean } = {}): void {
    const keep = options.keepPackages ?? true;
    const packages = keep ? this.store.entries().filter(([, o]) => o.data.$kind === 'Package') : [];
    if (!keep) for (const id of this.vm.packageIds()) if (!this.basePackageIds.has(id)) this.vm.removePackage(id);
    this.store.clear();
    for (const [id, o] of this.baseObjects) this.store.put(id, o);
    for (const [id, o] of packages) this.store.put(id, o);
    this.counters = { tx: 0n, system: 0n, created: 0n, randomRound: 0n };
    this.genesis();
  }

  /** A fresh id for an object the environment creates outside a transaction. */
  freshObjectId(): string {
    const id = syntheticId('object', this.counters.created);
    this.counters.created += 1n;
    return id;
  }
}

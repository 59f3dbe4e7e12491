/**
 * The chain a test file runs on: a {@link SimulationEnvironment} plus what upstream's
 * runner keeps beside its validator — named addresses, accounts with their gas coins,
 * the fake ids (`object(task,index)`) it prints instead of real ids, every object version
 * seen (for `object(2,0)@3` inputs), and the transaction loop: input checks, execution
 * (normal, dry run, dev inspect), commit, and the effects summary in upstream's order.
 */
import { canonicalAddress, type MovePackage, addressOfNumber } from '@smi/bytecode';
import { cryptoOptionsFromProtocolConfig, type ProtocolConfig } from '@smi/move-vm';
import {
  type AccumulatorWriteV1,
  blake2b256,
  checkTransactionInput,
  deriveObjectId,
  type Event,
  type ExecutionResult,
  executeProgrammableTransaction,
  formatTypeTag,
  type GasCostSummary,
  objectDigest,
  objectTypeTag,
  type ObjectRef,
  type ObjectStore,
  type ProgrammableTransaction,
  type SuiObject,
  type TransactionData,
  type TransactionEffects,
  transactionDigest,
} from '@smi/ptb';
import { packageObjectOf, SimulationEnvironment } from '@smi/simulation';
import { type NameContext, stabilize } from './display.js';
import { type SeededAccount, seededAccounts } from './seeded-accounts.js';
import type { FakeId } from './values.js';

/** An account: its address and gas coin. */
export interface Account {
  name: string;
  address: string;
  gas: string;
}

/** Upstream's `GAS_VALUE_FOR_TESTING`. */
const GAS_FOR_TESTING = 300_000_000_000_000n;
/** Upstream's default gas budget and price, and the reference gas price of its test network. */
const DEFAULT_GAS_BUDGET = 5_000_000_000n;
const DEFAULT_GAS_PRICE = 1000n;
export const REFERENCE_GAS_PRICE = 500n;

/** Objects whose ids are printed as they are (`0x…6`). */
const WELL_KNOWN = ['0x1', '0xdee9', '0x2', '0x3', '0x5', '0x6', '0x403', '0x8', '0xc', '0xd', '0xacc'].map((a) => canonicalAddress(a));
const SUI_COIN = '0x2::coin::Coin<0x2::sui::SUI>';

/** How a transaction runs. */
export type TxMode = 'execute' | 'dry-run' | 'dev-inspect';

/** A transaction to run. */
export interface TxSpec {
  ptb: ProgrammableTransaction;
  sender: string;
  /** The gas owner when it is not the sender. */
  sponsor?: string | null;
  /** Pay with a mock gas coin (dev inspect; an upgrade's dry run, which has no gas payment upstream). */
  mockGas?: boolean;
  /** Gas coins (ids); default: the gas owner's account coin (none when gas comes from the address balance). */
  payment?: string[];
  /**
   * Gas (also) from the gas owner's address balance: `budget` (`--address-balance-gas`)
   * or an amount (`--gas-payment withdraw<..>(amount)`), and whether it is the first payment.
   */
  addressBalance?: { amount: bigint | 'budget'; first: boolean; reservations?: number };
  budget?: bigint | null;
  price?: bigint | null;
  mode: TxMode;
  /** Objects to read at an older version (`object(2,0)@3`). */
  overrides?: Map<string, SuiObject>;
}

/** The changes of a transaction, as upstream's `TxnSummary` lists them. */
export interface TxnSummary {
  created: string[];
  mutated: string[];
  unwrapped: string[];
  deleted: string[];
  unwrappedThenDeleted: string[];
  wrapped: string[];
  unchangedShared: string[];
  /** Accumulator writes (upstream prints them as `accumulators_written`), by fake id. */
  accumulators: AccumulatorWritten[];
  events: Event[];
  gas: GasCostSummary;
}

/** One accumulator write of a transaction: object, owner address, type, operation, value. */
export interface AccumulatorWritten {
  id: string;
  address: string;
  type: string;
  operation: 'Merge' | 'Split';
  /** `1042`, `(a, b)` or `event_indices:[0, 1]`. */
  value: string;
}

/** What running a transaction gave. */
export type TxOutcome = { kind: 'rejected'; message: string } | { kind: 'executed'; result: ExecutionResult; digest: string; consensus: boolean; summary: TxnSummary };

function fakeKey(f: FakeId): string {
  return f.kind === 'known' ? `k:${f.address}` : `${f.task},${f.index}`;
}

function versionOf(o: SuiObject): bigint {
  return o.data.$kind === 'Move' ? o.data.Move.version : o.data.Package.version;
}

/** The chain of one test file. */
export class AdapterChain implements NameContext {
  readonly env: SimulationEnvironment;
  /** Named addresses (name → `0x` + 64 hex). */
  readonly named = new Map<string, string>();
  readonly accounts = new Map<string, Account>();
  readonly defaultAccount: Account;
  private readonly fakeById = new Map<string, FakeId>();
  private readonly idByFake = new Map<string, string>();
  private nextFake: [number, number] = [0, 0];
  private readonly creationOrder = new Map<string, number>();
  /** Every version of every object seen, by id then version. */
  private readonly history = new Map<string, Map<bigint, SuiObject>>();
  /** The version at which an object was last deleted or wrapped. */
  private readonly deletedAt = new Map<string, bigint>();
  checkpoint = 0;
  /** Effects of the transactions executed since the last checkpoint (settled at the next one). */
  private pending: TransactionEffects[] = [];
  /** Tokens allowed in gasless transactions (full type text → minimum transfer). */
  readonly gaslessTokens = new Map<string, bigint>();
  /** `id@version` of objects received (upstream's received markers). */
  private readonly received = new Set<string>();
  private mockCounter = 0n;

  constructor(packages: readonly MovePackage[], protocolConfig: ProtocolConfig, accountNames: readonly string[], namedAddresses: readonly [string, string][]) {
    // The crypto natives follow the config's feature flags and costs (its version and chain).
    const natives = cryptoOptionsFromProtocolConfig(protocolConfig);
    this.env = SimulationEnvironment.create({ packages, protocolConfig, natives, gasPrice: REFERENCE_GAS_PRICE, clockMs: 0n });
    // Genesis holds the framework packages as objects too.
    for (const p of packages) if (!this.env.store.has(p.id)) this.env.store.put(p.id, packageObjectOf(p));
    for (const [name, addr] of [
      ['std', '0x1'],
      ['sui', '0x2'],
      ['sui_system', '0x3'],
      ['deepbook', '0xdee9'],
      ['bridge', '0xb'],
    ] as const) {
      this.named.set(name, canonicalAddress(addr));
    }
    for (const id of WELL_KNOWN) this.setFake(id, { kind: 'known', address: id });
    // Upstream's accounts are keys and gas ids drawn from its seeded RNG, named ones first
    // (in name order), then the default one.
    const names = [...new Set(accountNames)].sort(byRust);
    const drawn = seededAccounts(names.length + 1);
    const accounts = names.map((n, i) => this.makeAccount(n, drawn[i]));
    this.defaultAccount = this.makeAccount('__default', drawn[names.length]);
    for (const [name, value] of namedAddresses) this.named.set(name, value);
    for (const a of accounts) {
      this.accounts.set(a.name, a);
      this.named.set(a.name, a.address);
    }
    for (const a of accounts) this.enumerate(a.gas);
    this.enumerate(this.defaultAccount.gas);
  }

  private makeAccount(name: string, { address, gas }: SeededAccount): Account {
    this.env.store.put(gas, this.coin(gas, address, GAS_FOR_TESTING));
    this.record(gas, this.env.store.getObject(gas) as SuiObject);
    return { name, address, gas };
  }

  /** A `Coin<SUI>` at version 1 (upstream's `with_id_owner_gas_for_testing`: no rebate). */
  coin(id: string, owner: string, balance: bigint): SuiObject {
    const type = this.env.vm.resolveType(SUI_COIN);
    return {
      data: { $kind: 'Move', Move: { type: { $kind: 'GasCoin', GasCoin: true }, hasPublicTransfer: true, version: 1n, contents: this.env.vm.bcs.encode([[[id]], [balance]], type) } },
      owner: { $kind: 'AddressOwner', AddressOwner: owner },
      previousTransaction: '11111111111111111111111111111111',
      storageRebate: 0n,
    } as SuiObject;
  }

  // ---------------------------------------------------------------------------
  // Fake ids

  /** Start a new task: fresh ids it creates are numbered `task,0`, `task,1`, ... */
  nextTask(): void {
    this.nextFake = [this.nextFake[0] + 1, 0];
  }

  get taskNumber(): number {
    return this.nextFake[0];
  }

  private setFake(id: string, f: FakeId): void {
    this.fakeById.set(id, f);
    this.idByFake.set(fakeKey(f), id);
  }

  /** The fake id of `id`, numbering it now when it has none. */
  enumerate(id: string): FakeId {
    const found = this.fakeById.get(id);
    if (found !== undefined) return found;
    const f: FakeId = { kind: 'enumerated', task: this.nextFake[0], index: this.nextFake[1] };
    this.nextFake = [this.nextFake[0], this.nextFake[1] + 1];
    this.setFake(id, f);
    return f;
  }

  realId(f: FakeId): string | undefined {
    if (f.kind === 'known' && !this.idByFake.has(fakeKey(f))) return f.address;
    return this.idByFake.get(fakeKey(f));
  }

  fakeOf(id: string): FakeId | undefined {
    return this.fakeById.get(id);
  }

  namedAddresses(): readonly (readonly [string, string])[] {
    return [...this.named.entries()].sort((a, b) => byRust(a[0], b[0]));
  }

  accountAddresses(): readonly (readonly [string, string])[] {
    return [...this.accounts.values()].map((a) => [a.name, a.address] as const).sort((a, b) => byRust(a[0], b[0]));
  }

  fakes(): readonly (readonly [string, FakeId])[] {
    return [...this.fakeById.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /** Sort order of fake ids (upstream `FakeID`'s `Ord`; ids without one first). */
  compareIds(a: string, b: string): number {
    const fa = this.fakeById.get(a);
    const fb = this.fakeById.get(b);
    const rank = (f: FakeId | undefined): [number, string, number, number] => (f === undefined ? [0, '', 0, 0] : f.kind === 'known' ? [1, f.address, 0, 0] : [2, '', f.task, f.index]);
    const ra = rank(fa);
    const rb = rank(fb);
    for (let i = 0; i < 4; i++) {
      if (ra[i] < rb[i]) return -1;
      if (ra[i] > rb[i]) return 1;
    }
    return 0;
  }

  /**
   * A checkpoint: when transactions ran since the last one, their accumulator writes are
   * settled (as upstream's validator runner does, only then).
   */
  createCheckpoint(): void {
    this.checkpoint += 1;
    if (this.pending.length === 0) return;
    const result = this.env.settleAccumulators(this.pending, BigInt(this.checkpoint));
    this.pending = [];
    if (result !== null) for (const w of result.written) this.record(w.id, w.object);
  }

  // ---------------------------------------------------------------------------
  // Objects

  private record(id: string, o: SuiObject): void {
    let versions = this.history.get(id);
    if (versions === undefined) {
      versions = new Map();
      this.history.set(id, versions);
    }
    versions.set(versionOf(o), o);
  }

  /** An object now, or at `version`. */
  getObject(id: string, version: bigint | null = null): SuiObject | undefined {
    if (version === null) return this.env.store.getObject(id);
    return this.history.get(id)?.get(version);
  }

  /** A dynamic-field child of `parent` as of version `bound` (its newest version not above it). */
  private childAt(parent: string, child: string, bound: bigint): SuiObject | undefined {
    const versions = this.history.get(canonicalAddress(child));
    if (versions === undefined) return this.env.store.getChild(parent, child);
    let best: SuiObject | undefined;
    let bestVersion = -1n;
    for (const [v, o] of versions) if (v <= bound && v > bestVersion) [best, bestVersion] = [o, v];
    if (best === undefined || best.owner.$kind !== 'ObjectOwner' || best.owner.ObjectOwner !== canonicalAddress(parent)) return undefined;
    // Deleted at a version not above the bound: gone.
    const deletedAt = this.deletedAt.get(canonicalAddress(child));
    if (deletedAt !== undefined && deletedAt > bestVersion && deletedAt <= bound) return undefined;
    return best;
  }

  refOf(id: string, version: bigint | null = null): ObjectRef | undefined {
    const o = this.getObject(id, version);
    return o === undefined ? undefined : { objectId: id, version: versionOf(o), digest: objectDigest(o) };
  }

  private sortKey(id: string, objects: Map<string, SuiObject>): [number, string, string] {
    const o = objects.get(id) ?? this.env.store.getObject(id);
    let type = '';
    if (o !== undefined) {
      if (o.data.$kind === 'Package') type = [...o.data.Package.moduleMap.keys()].sort().join(',');
      else type = stabilize(typeOfObject(o), this);
    }
    return [this.creationOrder.get(id) ?? Number.MAX_SAFE_INTEGER, type, id];
  }

  // ---------------------------------------------------------------------------
  // Transactions

  /** Run a transaction (and commit it, in `execute` mode). */
  run(spec: TxSpec): TxOutcome {
    const budget = spec.budget ?? DEFAULT_GAS_BUDGET;
    const price = spec.price ?? (spec.mode === 'dev-inspect' ? REFERENCE_GAS_PRICE : DEFAULT_GAS_PRICE);
    const gasOwner = spec.sponsor ?? spec.sender;
    const extra = new Map<string, SuiObject>(spec.overrides ?? []);
    let payment: ObjectRef[];
    if (spec.mode === 'dev-inspect' || spec.mockGas === true) {
      const id = addressOfNumber(BigInt('0x' + Buffer.from(blake2b256(new TextEncoder().encode(`smi::adapter::dev-inspect::${this.mockCounter++}`))).toString('hex')));
      const coin = this.coin(id, spec.sender, GAS_FOR_TESTING);
      extra.set(id, coin);
      payment = [{ objectId: id, version: 1n, digest: objectDigest(coin) }];
    } else {
      const ids = spec.payment ?? (spec.addressBalance !== undefined ? [] : [this.accountOf(gasOwner)?.gas ?? this.defaultAccount.gas]);
      payment = ids.map((id) => this.refOf(id) ?? { objectId: id, version: 0n, digest: '11111111111111111111111111111111' });
    }
    const store: ObjectStore = {
      getObject: (id) => extra.get(canonicalAddress(id)) ?? this.env.store.getObject(id),
      getChild: (parent, child, bound) => (bound === undefined ? this.env.store.getChild(parent, child) : this.childAt(parent, child, bound)),
    };
    const ab = spec.addressBalance;
    const addressBalance = spec.mode === 'dev-inspect' || ab === undefined ? undefined : { amount: ab.amount === 'budget' ? budget : ab.amount, first: ab.first };
    const reservations = ab?.reservations;
    const rejected = checkTransactionInput(store, {
      transaction: spec.ptb,
      sender: spec.sender,
      gasOwner,
      payment,
      budget,
      addressBalance: addressBalance === undefined ? undefined : { ...addressBalance, ...(reservations === undefined ? {} : { reservations }) },
      price,
      gaslessTokens: this.gaslessTokens,
      previouslyReceived: (id, version) => this.received.has(`${canonicalAddress(id)}@${version}`),
      protocolConfig: this.env.protocolConfig,
      devInspect: spec.mode === 'dev-inspect',
    });
    if (rejected !== null) return { kind: 'rejected', message: `Error checking transaction input objects: ${rejected.message}` };
    const data = {
      $kind: 'V1',
      V1: {
        kind: { $kind: 'ProgrammableTransaction', ProgrammableTransaction: spec.ptb },
        sender: spec.sender,
        gasData: { payment, owner: gasOwner, price, budget },
        expiration: { $kind: 'None', None: true },
      },
    } as TransactionData;
    const digest = transactionDigest(data);
    const result = executeProgrammableTransaction(this.env.vm, store, {
      sender: spec.sender,
      transaction: spec.ptb,
      gas: { payment, owner: gasOwner, price, budget, addressBalance },
      digest,
      epoch: this.env.config.epoch,
      epochTimestampMs: this.env.config.clockMs,
      referenceGasPrice: REFERENCE_GAS_PRICE,
      gaslessTokens: this.gaslessTokens,
      sponsor: spec.sponsor ?? null,
      protocolConfig: this.env.protocolConfig,
      checks: spec.mode === 'dev-inspect' ? 'relaxed' : 'strict',
    });
    if (spec.mode === 'execute') {
      this.env.store.apply(result);
      for (const w of result.written) this.record(w.id, w.object);
      this.pending.push(result.effects);
      // Received objects leave a marker at the version they were received at.
      if (result.status.$kind === 'Success') {
        const changed = new Set([...result.written.map((w) => w.id), ...result.deleted, ...result.wrapped]);
        for (const i of spec.ptb.inputs) {
          if (i.$kind === 'Object' && i.Object.$kind === 'Receiving' && changed.has(canonicalAddress(i.Object.Receiving.objectId)))
            this.received.add(`${canonicalAddress(i.Object.Receiving.objectId)}@${i.Object.Receiving.version}`);
        }
      }
      if (result.effects.$kind === 'V2') for (const id of [...result.deleted, ...result.wrapped]) this.deletedAt.set(id, result.effects.V2.lamportVersion);
    } else if (result.status.$kind === 'Success') {
      for (const w of result.written) if (w.object.data.$kind === 'Package') this.env.vm.removePackage(w.id);
    }
    // Shared inputs and address-balance withdrawals (gas reservations included) go through consensus.
    const consensus = addressBalance !== undefined || spec.ptb.inputs.some((i) => i.$kind === 'Object' && i.Object.$kind === 'SharedObject');
    return { kind: 'executed', result, digest, consensus, summary: this.summarize(result, digest) };
  }

  accountOf(address: string): Account | undefined {
    if (this.defaultAccount.address === address) return this.defaultAccount;
    for (const a of this.accounts.values()) if (a.address === address) return a;
    return undefined;
  }

  /** Effects → upstream's lists, numbering the new objects (creation order, then type). */
  private summarize(result: ExecutionResult, digest: string): TxnSummary {
    const s: TxnSummary = {
      created: [],
      mutated: [],
      unwrapped: [],
      deleted: [],
      unwrappedThenDeleted: [],
      wrapped: [],
      unchangedShared: [],
      accumulators: [],
      events: result.events,
      gas: result.gasUsed,
    };
    if (result.effects.$kind !== 'V2') return s;
    for (const [id, c] of result.effects.V2.changedObjects) {
      if (c.outputState.$kind === 'AccumulatorWriteV1') {
        s.accumulators.push(accumulatorWritten(id, c.outputState.AccumulatorWriteV1));
        continue;
      }
      const existed = c.inputState.$kind === 'Exist';
      const written = c.outputState.$kind !== 'NotExist';
      if (c.idOperation.$kind === 'Created') s.created.push(id);
      else if (c.idOperation.$kind === 'Deleted') (existed ? s.deleted : s.unwrappedThenDeleted).push(id);
      else if (written) (existed ? s.mutated : s.unwrapped).push(id);
      else if (existed) s.wrapped.push(id);
    }
    for (const [id] of result.effects.V2.unchangedConsensusObjects) s.unchangedShared.push(id);
    // Creation order: the n-th fresh id of the transaction.
    const remaining = new Set(s.created);
    for (let n = 0; remaining.size > 0 && n < 2048; n++) {
      const id = deriveObjectId(digest, n);
      if (remaining.delete(id)) this.creationOrder.set(id, this.creationOrder.size);
    }
    const objects = new Map(result.written.map((w) => [w.id, w.object]));
    const fresh = [...s.created, ...s.unwrapped].map((id) => ({ id, key: this.sortKey(id, objects) }));
    fresh.sort((a, b) => compareKeys(a.key, b.key));
    for (const { id } of fresh) this.enumerate(id);
    // Accumulator objects are numbered after the fresh objects, by stabilized owner then type.
    const stable = (a: AccumulatorWritten): [string, string] => [stabilize(a.address, this), stabilize(a.type, this)];
    const numbered = [...s.accumulators].sort((a, b) => {
      const [ka, kb] = [stable(a), stable(b)];
      return ka[0] !== kb[0] ? byRust(ka[0], kb[0]) : byRust(ka[1], kb[1]);
    });
    for (const a of numbered) this.enumerate(a.id);
    const byFake = (a: string, b: string): number => this.compareIds(a, b);
    for (const list of [s.created, s.mutated, s.unwrapped, s.deleted, s.unwrappedThenDeleted, s.wrapped, s.unchangedShared]) list.sort(byFake);
    s.accumulators.sort((a, b) => byFake(a.id, b.id));
    return s;
  }
}

function accumulatorWritten(id: string, w: AccumulatorWriteV1): AccumulatorWritten {
  const v = w.value;
  const value =
    v.$kind === 'Integer' ? String(v.Integer) : v.$kind === 'IntegerTuple' ? `(${v.IntegerTuple[0]}, ${v.IntegerTuple[1]})` : `event_indices:[${v.EventDigest.map(([i]) => String(i)).join(', ')}]`;
  return { id, address: canonicalAddress(w.address.address), type: formatTypeTag(w.address.ty), operation: w.operation.$kind, value };
}

function compareKeys(a: [number, string, string], b: [number, string, string]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return byRust(a[1], b[1]);
  return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}

/** Rust's `String` order (bytes). */
function byRust(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The object's type as upstream's `MoveObjectType` Display prints it (short addresses). */
function typeOfObject(o: SuiObject): string {
  if (o.data.$kind !== 'Move') return '';
  return objectTypeTag(o).replace(/0x([0-9a-f]{64})/g, (_m, h: string) => '0x' + (h.replace(/^0+/, '') || '0'));
}

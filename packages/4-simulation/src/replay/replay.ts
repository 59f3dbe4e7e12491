/**
 * Replaying a mainnet transaction offline: load the snapshot's packages into a fresh VM at
 * the transaction's protocol version, run the transaction on its objects, and compare the
 * outcome with the recorded effects object by object (id, version, digest), plus status,
 * gas, events digest and dependencies.
 */
import type { MovePackage } from '@smi/bytecode';
import { MoveVM, type ProtocolConfig, suiNativeRegistry, type SuiRegistryOptions } from '@smi/move-vm';
import { executeProgrammableTransaction, type ExecutionResult } from '@smi/ptb';
import { SimulationEnvironmentError } from '../errors.js';
import { packageFromObject } from '../packages.js';
import { InMemoryObjectStore } from '../store.js';
import type { RecordedRef, ReplaySnapshot } from './snapshot.js';

/** How an object changed. */
export type ChangeKind = 'created' | 'mutated' | 'unwrapped' | 'deleted' | 'wrapped' | 'unwrappedThenDeleted';

/** One object in the comparison. */
export interface ObjectComparison {
  id: string;
  expected: { change: ChangeKind; version: string; digest: string } | null;
  actual: { change: ChangeKind; version: string; digest: string } | null;
  match: boolean;
}

/** A figure recorded next to ours. */
export interface Compared<T> {
  expected: T;
  actual: T;
  match: boolean;
}

/** Outcome of {@link replaySnapshot}. */
export interface ReplayReport {
  digest: string;
  protocolVersion: number;
  status: Compared<string> & { message?: string };
  objects: ObjectComparison[];
  gas: {
    computationCost: Compared<string>;
    storageCost: Compared<string>;
    storageRebate: Compared<string>;
    nonRefundableStorageFee: Compared<string>;
  };
  eventsDigest: Compared<string | null>;
  dependencies: Compared<string[]>;
  /** Status and every object match (gas is reported apart). */
  match: boolean;
  /** Gas matches too. */
  gasMatch: boolean;
  result: ExecutionResult;
}

/** Options of {@link replaySnapshot}. */
export interface ReplayOptions {
  /** The protocol config of the snapshot's version. */
  protocolConfig: ProtocolConfig;
  natives?: SuiRegistryOptions;
  /** Packages the snapshot does not hold (the framework of its protocol version); the snapshot's own win. */
  packages?: readonly MovePackage[];
  /**
   * Told of every dynamic-field child the transaction reads that the snapshot lacks, with the
   * version of the root object it was read through (its version is at most that).
   */
  onChildMiss?: (child: string, rootVersion: bigint | undefined) => void;
}

function compared<T>(expected: T, actual: T): Compared<T> {
  return { expected, actual, match: JSON.stringify(expected) === JSON.stringify(actual) };
}

/** Run a snapshot's transaction and compare with what mainnet recorded. */
export function replaySnapshot(snapshot: ReplaySnapshot, options: ReplayOptions): ReplayReport {
  if (options.protocolConfig.version !== snapshot.protocolVersion) {
    throw new SimulationEnvironmentError('INVALID_REQUEST', `the snapshot ran at protocol ${snapshot.protocolVersion}; the config given is ${options.protocolConfig.version}`);
  }
  const data = snapshot.transaction.V1;
  if (data.kind.$kind !== 'ProgrammableTransaction') {
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `transaction kind ${data.kind.$kind} is not replayable (programmable transactions only)`);
  }
  const own: MovePackage[] = [];
  const store = new InMemoryObjectStore();
  for (const [id, o] of snapshot.objects) {
    store.put(id, o);
    if (o.data.$kind === 'Package') own.push(packageFromObject(o));
  }
  const packages = [...(options.packages ?? []).filter((p) => !own.some((q) => q.id === p.id)), ...own];
  if (options.onChildMiss !== undefined) store.observeChildMisses((_parent, child, bound) => options.onChildMiss?.(child, bound));
  const vm = MoveVM.create({ packages, natives: suiNativeRegistry(options.natives ?? {}), protocolConfig: options.protocolConfig });
  const result = executeProgrammableTransaction(vm, store, {
    sender: data.sender,
    transaction: data.kind.ProgrammableTransaction,
    gas: { payment: data.gasData.payment, owner: data.gasData.owner, price: data.gasData.price, budget: data.gasData.budget },
    digest: snapshot.digest,
    epoch: snapshot.epoch,
    epochTimestampMs: snapshot.epochTimestampMs,
    referenceGasPrice: snapshot.referenceGasPrice ?? data.gasData.price,
    protocolConfig: options.protocolConfig,
  });
  return compare(snapshot, result);
}

function compare(snapshot: ReplaySnapshot, result: ExecutionResult): ReplayReport {
  const fx = snapshot.effects;
  const lamport = result.effects.$kind === 'V2' ? result.effects.V2.lamportVersion : 0n;
  const expected = new Map<string, { change: ChangeKind; version: string; digest: string }>();
  const add = (list: RecordedRef[], change: ChangeKind): void => {
    for (const r of list) expected.set(r.id, { change, version: r.version.toString(), digest: r.digest });
  };
  add(fx.created, 'created');
  add(fx.mutated, 'mutated');
  add(fx.unwrapped, 'unwrapped');
  add(fx.deleted, 'deleted');
  add(fx.wrapped, 'wrapped');
  add(fx.unwrappedThenDeleted, 'unwrappedThenDeleted');
  const actual = new Map<string, { change: ChangeKind; version: string; digest: string }>();
  for (const w of result.written) {
    const version = w.object.data.$kind === 'Move' ? w.object.data.Move.version : w.object.data.Package.version;
    actual.set(w.id, { change: w.kind, version: version.toString(), digest: w.digest });
  }
  // Deleted and wrapped objects carry the lamport version and a marker digest in effects V1.
  const marker = (change: ChangeKind): string => (change === 'wrapped' ? '11111111111111111111111111111111' : '7gyGAp71YXQRoxmFBaHxofQXAipvgHyBKPyxmdSJxyvz');
  const recordedDeleted = new Map([...fx.deleted, ...fx.wrapped, ...fx.unwrappedThenDeleted].map((r) => [r.id, r.digest]));
  for (const id of result.deleted) {
    const change: ChangeKind = expected.get(id)?.change === 'unwrappedThenDeleted' ? 'unwrappedThenDeleted' : 'deleted';
    actual.set(id, { change, version: lamport.toString(), digest: recordedDeleted.get(id) ?? marker(change) });
  }
  for (const id of result.wrapped) actual.set(id, { change: 'wrapped', version: lamport.toString(), digest: recordedDeleted.get(id) ?? marker('wrapped') });
  const ids = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  const objects: ObjectComparison[] = ids.map((id) => {
    const e = expected.get(id) ?? null;
    const a = actual.get(id) ?? null;
    return { id, expected: e, actual: a, match: e !== null && a !== null && JSON.stringify(e) === JSON.stringify(a) };
  });
  const status = result.status.$kind === 'Success' ? 'success' : 'failure';
  const g = result.gasUsed;
  const gas = {
    computationCost: compared(fx.gasUsed.computationCost.toString(), g.computationCost.toString()),
    storageCost: compared(fx.gasUsed.storageCost.toString(), g.storageCost.toString()),
    storageRebate: compared(fx.gasUsed.storageRebate.toString(), g.storageRebate.toString()),
    nonRefundableStorageFee: compared(fx.gasUsed.nonRefundableStorageFee.toString(), g.nonRefundableStorageFee.toString()),
  };
  const eventsDigest = result.effects.$kind === 'V2' ? result.effects.V2.eventsDigest : null;
  const deps = result.effects.$kind === 'V2' ? result.effects.V2.dependencies : [];
  const statusCmp = {
    ...compared<string>(fx.status, status),
    ...(result.status.$kind === 'Failure' ? { message: `${result.status.error.$kind}: ${result.status.message}` } : {}),
  };
  return {
    digest: snapshot.digest,
    protocolVersion: snapshot.protocolVersion,
    status: statusCmp,
    objects,
    gas,
    eventsDigest: compared(fx.eventsDigest, eventsDigest),
    dependencies: compared([...fx.dependencies].sort(), [...deps].sort()),
    match: statusCmp.match && objects.every((o) => o.match),
    gasMatch: Object.values(gas).every((c) => c.match),
    result,
  };
}

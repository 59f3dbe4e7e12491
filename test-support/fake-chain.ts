/**
 * A chain in memory for tests of network code: transactions, epochs, objects at every version,
 * checkpoints and owned objects, as raw BCS (what a node's gRPC or GraphQL API returns). The
 * loopback servers (`fake-grpc.ts`, `fake-graphql.ts`) answer from it; `chainFromReplayFixtures`
 * builds one out of the real mainnet transactions in `../shared/fixtures/replay`.
 */
import path from 'node:path';
import { canonicalAddress, type MovePackage } from '@smi/bytecode';
import { loadProtocolConfig, type ProtocolConfig } from '@smi/move-vm';
import { type Event, objectDigest, objectVersionOf, suiBcs, transactionDigest, transactionEventsDigest } from '@smi/ptb';
import {
  type ChainEpoch,
  type ChainProtocolConfig,
  type ChainSimulation,
  type ChainTransaction,
  DataSourceError,
  type OwnedObjectInfo,
  packageObjectOf,
  readReplaySnapshot,
  replaySnapshot,
  type SuiDataSource,
} from '@smi/simulation';

/** A chain in memory. */
export interface FakeChain {
  transactions: Map<string, ChainTransaction>;
  epochs: Map<bigint, ChainEpoch>;
  /** Object id (`0x` + 64 hex) → version → BCS of the whole `Object`. The current version is the highest. */
  objects: Map<string, Map<bigint, Uint8Array>>;
  /** Checkpoints in order, each with its transaction digests. */
  checkpoints: { sequence: bigint; digests: string[] }[];
  /** Owner address → what it owns. */
  owned: Map<string, OwnedObjectInfo[]>;
  /** The first checkpoint whose data the service keeps (earlier: outside its retention window). */
  retainedFrom?: bigint;
  /** Object id → version → the checkpoint that wrote it (for `object(atCheckpoint:)`; absent: unknown). */
  objectCheckpoints?: Map<string, Map<bigint, bigint>>;
  /** Answers simulations (absent: the server says UNIMPLEMENTED). */
  simulate?: (transactionBcs: Uint8Array, checks: boolean) => ChainSimulation;
  /** Protocol configs by version (an epoch serves the config of its version). */
  protocolConfigs?: Map<number, ChainProtocolConfig>;
  /**
   * What the node sends instead of an object's stored bytes (a corrupted or truncated answer);
   * the digest it reports stays the stored bytes' digest.
   */
  tamper?: (id: string, version: bigint, bytes: Uint8Array) => Uint8Array;
}

/**
 * The digest a node reports for an object's stored bytes (`undefined` for the made-up bytes
 * some tests store, which are no object: a node would not hold them).
 */
export function storedObjectDigest(bytes: Uint8Array): string | undefined {
  try {
    return objectDigest(suiBcs.Object.parse(bytes));
  } catch {
    return undefined;
  }
}

/** A protocol config of the fixtures as a node serves it (flags that are booleans; attributes as text). */
export function chainProtocolConfig(config: ProtocolConfig): ChainProtocolConfig {
  const featureFlags: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(config.featureFlags)) if (typeof v === 'boolean') featureFlags[k] = v;
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.values)) if (v !== null && typeof v !== 'object') attributes[k] = String(v);
  return { protocolVersion: config.version, featureFlags, attributes };
}

/** An empty chain. */
export function emptyChain(): FakeChain {
  return { transactions: new Map(), epochs: new Map(), objects: new Map(), checkpoints: [], owned: new Map() };
}

/**
 * A chain whose objects are `packages` (each at its own version) and whose one epoch runs
 * `protocolConfig`: what `smi fetch` reads. A package's previous transaction is made up.
 */
export function chainOfPackages(packages: readonly MovePackage[], protocolConfig: ProtocolConfig): FakeChain {
  const chain = emptyChain();
  for (const pkg of packages) {
    const o = packageObjectOf(pkg);
    chain.objects.set(canonicalAddress(pkg.id), new Map([[objectVersionOf(o), suiBcs.Object.serialize(o).toBytes()]]));
  }
  chain.epochs.set(900n, { epoch: 900n, protocolVersion: protocolConfig.version, referenceGasPrice: 750n, startTimestampMs: 1_760_000_000_000n });
  chain.protocolConfigs = new Map([[protocolConfig.version, chainProtocolConfig(protocolConfig)]]);
  chain.checkpoints.push({ sequence: 200_000_000n, digests: [] });
  return chain;
}

/** The digests of the real mainnet transactions in `fixtures/replay`. */
export const REPLAY_DIGESTS = ['ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL', '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP'] as const;

/**
 * A chain holding the real mainnet transactions of `fixtures/replay`: each transaction (its
 * BCS checked against its digest), its effects as mainnet signed them (V1), its epoch, and
 * every object it needs at the version it read (packages included). `current` adds later
 * versions of objects (to test that a replay asks for the input version, not the latest).
 */
export function chainFromReplayFixtures(fixturesRoot: string): FakeChain {
  const chain = emptyChain();
  let checkpoint = 1000n;
  for (const digest of REPLAY_DIGESTS) {
    const snap = readReplaySnapshot(path.join(fixturesRoot, 'fixtures', 'replay', `${digest}.json`));
    if (transactionDigest(snap.transaction) !== digest) throw new Error(`fixture ${digest}: the transaction does not hash to its digest`);
    if (snap.signedEffects === undefined) throw new Error(`fixture ${digest}: no whole effects`);
    chain.transactions.set(digest, {
      digest,
      transactionBcs: suiBcs.TransactionData.serialize(snap.transaction).toBytes(),
      effectsBcs: suiBcs.TransactionEffects.serialize(snap.signedEffects).toBytes(),
      eventsBcs: null,
      checkpoint,
      timestampMs: snap.epochTimestampMs + 1000n,
      unchangedLoadedRuntimeObjects: null,
    });
    chain.checkpoints.push({ sequence: checkpoint, digests: [digest] });
    const txCheckpoint = checkpoint++;
    chain.epochs.set(snap.epoch, {
      epoch: snap.epoch,
      protocolVersion: snap.protocolVersion,
      referenceGasPrice: snap.referenceGasPrice ?? snap.transaction.V1.gasData.price,
      startTimestampMs: snap.epochTimestampMs,
    });
    for (const [id, obj] of snap.objects) {
      const versions = chain.objects.get(id) ?? new Map<bigint, Uint8Array>();
      versions.set(objectVersionOf(obj), suiBcs.Object.serialize(obj).toBytes());
      chain.objects.set(id, versions);
      // The version a transaction read was live at its checkpoint (written no later than it).
      const at = (chain.objectCheckpoints ??= new Map()).get(id) ?? new Map<bigint, bigint>();
      const v = objectVersionOf(obj);
      if (!at.has(v) || (at.get(v) as bigint) > txCheckpoint) at.set(v, txCheckpoint);
      chain.objectCheckpoints.set(id, at);
    }
  }
  return chain;
}

/**
 * The events a fixture transaction emitted on mainnet (the fixtures keep only their digest):
 * ours from a local replay, checked against the recorded events digest. With `chain`, its
 * transaction carries them as its events BCS, as a node serves them.
 */
export function replayFixtureEvents(fixturesRoot: string, digest: string, chain?: FakeChain): Event[] {
  const snap = readReplaySnapshot(path.join(fixturesRoot, 'fixtures', 'replay', `${digest}.json`));
  const events = replaySnapshot(snap, { protocolConfig: loadProtocolConfig(fixturesRoot, snap.protocolVersion) }).result.events;
  if ((events.length === 0 ? null : transactionEventsDigest({ data: events })) !== snap.effects.eventsDigest)
    throw new Error(`fixture ${digest}: the replayed events do not hash to the recorded events digest`);
  const tx = chain?.transactions.get(digest);
  if (tx !== undefined) tx.eventsBcs = events.length === 0 ? null : suiBcs.TransactionEvents.serialize({ data: events }).toBytes();
  return events;
}

/**
 * The chain as a {@link SuiDataSource} in memory (for the layers that only see the interface;
 * the network implementations are tested against the loopback servers).
 */
export function chainSource(chain: FakeChain, endpoint = 'memory:'): SuiDataSource {
  const notFound = (what: string): never => {
    throw new DataSourceError('NOT_FOUND', `${what} not found at ${endpoint}`, { endpoint });
  };
  return {
    endpoint,
    getTransaction: async (digest) => chain.transactions.get(digest) ?? notFound(`transaction ${digest}`),
    getEpoch: async (epoch) => chain.epochs.get(epoch) ?? notFound(`epoch ${epoch}`),
    getObject: async (id, version) => {
      const versions = chain.objects.get(canonicalAddress(id)) ?? notFound(`object ${id}`);
      const v = version ?? [...versions.keys()].reduce((a, b) => (b > a ? b : a), 0n);
      const bcs = versions.get(v) ?? notFound(`object ${id} at version ${v}`);
      const digest = storedObjectDigest(bcs);
      return { id: canonicalAddress(id), version: v, bcs: chain.tamper?.(canonicalAddress(id), v, bcs) ?? bcs, ...(digest !== undefined ? { digest } : {}) };
    },
    latestCheckpoint: async () => chain.checkpoints.at(-1)?.sequence ?? notFound('checkpoint'),
    checkpointTransactions: async (sequence) => chain.checkpoints.find((c) => c.sequence === sequence)?.digests ?? notFound(`checkpoint ${sequence}`),
    listOwnedObjects: async (owner, type) => (chain.owned.get(canonicalAddress(owner)) ?? []).filter((o) => type === undefined || o.type === type || o.type.startsWith(`${type}<`)),
    simulateTransaction: async (bcs, options) => {
      if (chain.simulate === undefined) throw new DataSourceError('UNSUPPORTED', `simulation is not available at ${endpoint}`, { endpoint });
      return chain.simulate(bcs, options.checks);
    },
  };
}

/**
 * A chain in memory for tests of network code: transactions, epochs, objects at every version,
 * checkpoints and owned objects, as raw BCS (what a node's gRPC or GraphQL API returns). The
 * loopback servers (`fake-grpc.ts`, `fake-graphql.ts`) answer from it; `chainFromReplayFixtures`
 * builds one out of the real mainnet transactions in `../shared/fixtures/replay`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress } from '@smi/bytecode';
import { fromSerdeJson, objectIdOf, objectVersionOf, type ObjectRef, type Owner, suiBcs, type SuiObject, type TransactionData, type TransactionEffects, transactionDigest } from '@smi/ptb';
import { type ChainEpoch, type ChainSimulation, type ChainTransaction, DataSourceError, type OwnedObjectInfo, type SuiDataSource } from '@smi/simulation';

/** An object reference with its owner (as effects V1 list written objects). */
type OwnedObjectRef = [ObjectRef, Owner];

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
  /** Answers simulations (absent: the server says UNIMPLEMENTED). */
  simulate?: (transactionBcs: Uint8Array, checks: boolean) => ChainSimulation;
}

/** An empty chain. */
export function emptyChain(): FakeChain {
  return { transactions: new Map(), epochs: new Map(), objects: new Map(), checkpoints: [], owned: new Map() };
}

/** The digests of the real mainnet transactions in `fixtures/replay`. */
export const REPLAY_DIGESTS = ['ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL', '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP'] as const;

type J = Record<string, unknown>;
const big = (v: unknown): bigint => BigInt(v as string | number);

function ownedRefs(list: unknown, ownerOf: (o: unknown) => Owner): OwnedObjectRef[] {
  return ((list as { owner: unknown; reference: { objectId: string; version: number | string; digest: string } }[] | undefined) ?? []).map((w) => [
    { objectId: canonicalAddress(w.reference.objectId), version: big(w.reference.version), digest: w.reference.digest },
    ownerOf(w.owner),
  ]);
}

function refs(list: unknown): ObjectRef[] {
  return ((list as { objectId: string; version: number | string; digest: string }[] | undefined) ?? []).map((r) => ({ objectId: canonicalAddress(r.objectId), version: big(r.version), digest: r.digest }));
}

/** The JSON-RPC (v1) effects of a snapshot as the `TransactionEffectsV1` mainnet signed. */
export function effectsV1FromJson(fx: J): TransactionEffects {
  const ownerOf = (o: unknown): Owner => fromSerdeJson(suiBcs.Owner, o as never) as Owner;
  const status = fx.status as { status: string; error?: string };
  if (status.status !== 'success') throw new Error('only successful fixture transactions are supported');
  const gas = fx.gasUsed as J;
  return {
    $kind: 'V1',
    V1: {
      status: { $kind: 'Success', Success: true },
      executedEpoch: big(fx.executedEpoch),
      gasUsed: { computationCost: big(gas.computationCost), storageCost: big(gas.storageCost), storageRebate: big(gas.storageRebate), nonRefundableStorageFee: big(gas.nonRefundableStorageFee) },
      modifiedAtVersions: ((fx.modifiedAtVersions as { objectId: string; sequenceNumber: string }[] | undefined) ?? []).map((m) => [canonicalAddress(m.objectId), big(m.sequenceNumber)]),
      sharedObjects: refs(fx.sharedObjects),
      transactionDigest: fx.transactionDigest as string,
      created: ownedRefs(fx.created, ownerOf),
      mutated: ownedRefs(fx.mutated, ownerOf),
      unwrapped: ownedRefs(fx.unwrapped, ownerOf),
      deleted: refs(fx.deleted),
      unwrappedThenDeleted: refs(fx.unwrappedThenDeleted),
      wrapped: refs(fx.wrapped),
      gasObject: ownedRefs([fx.gasObject], ownerOf)[0],
      eventsDigest: (fx.eventsDigest as string | undefined) ?? null,
      dependencies: (fx.dependencies as string[] | undefined) ?? [],
    },
  };
}

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
    const json = JSON.parse(readFileSync(path.join(fixturesRoot, 'fixtures', 'replay', `${digest}.json`), 'utf8')) as { transaction_info: J; required_objects: unknown[] };
    const ti = json.transaction_info;
    const data = fromSerdeJson(suiBcs.TransactionData, (ti.sender_signed_data as { intent_message: { value: unknown } }[])[0].intent_message.value as never) as TransactionData;
    if (transactionDigest(data) !== digest) throw new Error(`fixture ${digest}: the transaction does not hash to its digest`);
    const effects = effectsV1FromJson(ti.effects as J);
    chain.transactions.set(digest, {
      digest,
      transactionBcs: suiBcs.TransactionData.serialize(data).toBytes(),
      effectsBcs: suiBcs.TransactionEffects.serialize(effects).toBytes(),
      eventsBcs: null,
      checkpoint,
      timestampMs: big(ti.epoch_start_timestamp ?? 0) + 1000n,
      unchangedLoadedRuntimeObjects: null,
    });
    chain.checkpoints.push({ sequence: checkpoint, digests: [digest] });
    checkpoint++;
    const epoch = big(ti.executed_epoch);
    chain.epochs.set(epoch, { epoch, protocolVersion: Number(ti.protocol_version), referenceGasPrice: big(ti.reference_gas_price ?? ti.gas_price), startTimestampMs: big(ti.epoch_start_timestamp ?? 0) });
    for (const o of json.required_objects) {
      const obj = fromSerdeJson(suiBcs.Object, o as never) as SuiObject;
      const id = objectIdOf(obj);
      const versions = chain.objects.get(id) ?? new Map<bigint, Uint8Array>();
      versions.set(objectVersionOf(obj), suiBcs.Object.serialize(obj).toBytes());
      chain.objects.set(id, versions);
    }
  }
  return chain;
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
      return { id: canonicalAddress(id), version: v, bcs };
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

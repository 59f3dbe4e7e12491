/**
 * The transaction cache of `smi tx-replay` / `smi ptb-eval`: one pretty JSON a transaction at
 * `<dir>/<digest>.json`, in the original's `CachedTransaction` shape (`transaction` as its
 * `FetchedTransaction`, `packages` as `{id: [[module, base64]]}`, `objects` as `{id: base64}`,
 * `cached_at`), plus an `smi` section with what an exact replay needs and the original lacked:
 * the transaction and effects BCS, the epoch (protocol version, gas price, start time), every
 * object's whole BCS at the version read, and how the system packages were found.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, type MovePackage, packageFromBytes, errorMessage, type Json } from '@smi/bytecode';
import { type Argument, type Command, formatTypeTag, objectIdOf, suiBcs, type SuiObject, type TransactionData, type TransactionEffects } from '@smi/ptb';
import { z } from 'zod';
import { SimulationEnvironmentError } from '../errors.js';
import { writeFileAtomic } from '../state-file.js';
import { type FetchedReplay, recordedEffects } from './fetch.js';

const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');
const unb64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));
const num = (v: bigint): number | string => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());

function argument(a: Argument): Json {
  switch (a.$kind) {
    case 'GasCoin':
      return { type: 'GasCoin' };
    case 'Input':
      return { type: 'Input', index: a.Input };
    case 'Result':
      return { type: 'Result', index: a.Result };
    case 'NestedResult':
      return { type: 'NestedResult', index: a.NestedResult[0], result_index: a.NestedResult[1] };
  }
}

function command(c: Command): Json {
  switch (c.$kind) {
    case 'MoveCall':
      return {
        type: 'MoveCall',
        package: c.MoveCall.package,
        module: c.MoveCall.module,
        function: c.MoveCall.function,
        type_arguments: c.MoveCall.typeArguments.map((t) => formatTypeTag(t)),
        arguments: c.MoveCall.arguments.map(argument),
      };
    case 'SplitCoins':
      return { type: 'SplitCoins', coin: argument(c.SplitCoins.coin), amounts: c.SplitCoins.amounts.map(argument) };
    case 'MergeCoins':
      return { type: 'MergeCoins', destination: argument(c.MergeCoins.destination), sources: c.MergeCoins.sources.map(argument) };
    case 'TransferObjects':
      return { type: 'TransferObjects', objects: c.TransferObjects.objects.map(argument), address: argument(c.TransferObjects.address) };
    case 'MakeMoveVec':
      return { type: 'MakeMoveVec', type_arg: c.MakeMoveVec.type === null ? null : formatTypeTag(c.MakeMoveVec.type), elements: c.MakeMoveVec.elements.map(argument) };
    case 'Publish':
      return { type: 'Publish', modules: c.Publish.modules.map(b64), dependencies: c.Publish.dependencies };
    case 'Upgrade':
      return { type: 'Upgrade', modules: c.Upgrade.modules.map(b64), package: c.Upgrade.package, ticket: argument(c.Upgrade.ticket), dependencies: c.Upgrade.dependencies };
  }
}

/** The original's `FetchedTransaction` of a transaction and its effects. */
export function fetchedTransactionJson(
  data: TransactionData,
  effects: TransactionEffects,
  extra: { digest: string; timestampMs: bigint | null; checkpoint: bigint | null; eventsCount: number; objects: ReadonlyMap<string, SuiObject> },
): Json {
  const tx = data.V1;
  const pt = tx.kind.$kind === 'ProgrammableTransaction' ? tx.kind.ProgrammableTransaction : { inputs: [], commands: [] };
  const inputs: Json[] = pt.inputs.map((i): Json => {
    if (i.$kind === 'Pure') return { type: 'Pure', bytes: b64(i.Pure.bytes) };
    if (i.$kind === 'FundsWithdrawal') return { type: 'FundsWithdrawal' };
    const o = i.Object;
    if (o.$kind === 'SharedObject')
      return { type: 'SharedObject', object_id: o.SharedObject.objectId, initial_shared_version: num(o.SharedObject.initialSharedVersion), mutable: o.SharedObject.mutability.$kind !== 'Immutable' };
    if (o.$kind === 'Receiving') return { type: 'Receiving', object_id: o.Receiving.objectId, version: num(o.Receiving.version), digest: o.Receiving.digest };
    const r = o.ImmOrOwnedObject;
    const immutable = extra.objects.get(canonicalAddress(r.objectId))?.owner.$kind === 'Immutable';
    return { type: immutable ? 'ImmutableObject' : 'Object', object_id: r.objectId, version: num(r.version), digest: r.digest };
  });
  const fx = recordedEffects(effects);
  const ids = (l: { id: string }[]): Json[] => l.map((r) => r.id);
  return {
    digest: extra.digest,
    sender: tx.sender,
    gas_budget: num(tx.gasData.budget),
    gas_price: num(tx.gasData.price),
    commands: pt.commands.map(command),
    inputs,
    effects: {
      status: fx.status === 'success' ? 'Success' : { Failure: { error: fx.error ?? 'failure' } },
      created: ids(fx.created),
      mutated: ids(fx.mutated),
      deleted: ids([...fx.deleted, ...fx.unwrappedThenDeleted]),
      wrapped: ids(fx.wrapped),
      unwrapped: ids(fx.unwrapped),
      gas_used: {
        computation_cost: num(fx.gasUsed.computationCost),
        storage_cost: num(fx.gasUsed.storageCost),
        storage_rebate: num(fx.gasUsed.storageRebate),
        non_refundable_storage_fee: num(fx.gasUsed.nonRefundableStorageFee),
      },
      events_count: extra.eventsCount,
    },
    timestamp_ms: extra.timestampMs === null ? null : num(extra.timestampMs),
    checkpoint: extra.checkpoint === null ? null : num(extra.checkpoint),
  };
}

/** Number of events in a `TransactionEvents` BCS (0 without one). */
function eventsCount(bcs: Uint8Array | null): number {
  if (bcs === null) return 0;
  try {
    return suiBcs.TransactionEvents.parse(bcs).data.length;
  } catch {
    return 0;
  }
}

/** The original's `FetchedTransaction` of a fetched transaction, its events counted from the events BCS. */
export function fetchedReplayJson(f: FetchedReplay): Json {
  const s = f.snapshot;
  return fetchedTransactionJson(s.transaction, f.effects, { digest: s.digest, timestampMs: f.timestampMs, checkpoint: f.checkpoint, eventsCount: eventsCount(f.eventsBcs), objects: s.objects });
}

/** The cache entry of a fetched transaction. */
export function cachedTransactionJson(f: FetchedReplay, now = new Date()): Json {
  const s = f.snapshot;
  const packages: { [id: string]: Json } = {};
  const objects: { [id: string]: Json } = {};
  const smiObjects: { [id: string]: Json } = {};
  for (const [id, o] of s.objects) {
    smiObjects[id] = { version: o.data.$kind === 'Move' ? o.data.Move.version.toString() : o.data.Package.version.toString(), bcs: b64(suiBcs.Object.serialize(o).toBytes()) };
    if (o.data.$kind === 'Package') packages[id] = [...o.data.Package.moduleMap].map(([name, bytes]) => [name, b64(bytes)]);
    else objects[id] = b64(o.data.Move.contents);
  }
  for (const p of f.packages) packages[p.id] = p.modules.map((m) => [m.name, b64(m.bytes)]);
  return {
    transaction: fetchedReplayJson(f),
    packages,
    objects,
    cached_at: Math.floor(now.getTime() / 1000),
    smi: {
      format: 1,
      transaction_bcs: b64(suiBcs.TransactionData.serialize(s.transaction).toBytes()),
      effects_bcs: b64(suiBcs.TransactionEffects.serialize(f.effects).toBytes()),
      events_bcs: f.eventsBcs === null ? null : b64(f.eventsBcs),
      epoch: {
        epoch: f.epoch.epoch.toString(),
        protocol_version: f.epoch.protocolVersion,
        reference_gas_price: f.epoch.referenceGasPrice.toString(),
        start_timestamp_ms: f.epoch.startTimestampMs.toString(),
      },
      objects: smiObjects,
      loaded_child_objects: s.loadedChildObjects.map((c) => ({ id: c.id, version: c.version.toString() })),
      system_packages: f.systemPackages.map((p) => ({ ...p })),
      missing_packages: [...f.missingPackages],
    },
  };
}

const Smi = z.object({
  format: z.literal(1),
  transaction_bcs: z.string(),
  effects_bcs: z.string(),
  events_bcs: z.string().nullable(),
  epoch: z.object({ epoch: z.string(), protocol_version: z.number().int(), reference_gas_price: z.string(), start_timestamp_ms: z.string() }),
  objects: z.record(z.string(), z.object({ version: z.string(), bcs: z.string() })),
  loaded_child_objects: z.array(z.object({ id: z.string(), version: z.string() })),
  system_packages: z.array(z.object({ id: z.string(), source: z.enum(['at-checkpoint', 'local', 'current']), version: z.string() })),
  missing_packages: z.array(z.string()),
});
const Cached = z.object({
  transaction: z.object({ digest: z.string(), timestamp_ms: z.union([z.number(), z.string()]).nullable().optional(), checkpoint: z.union([z.number(), z.string()]).nullable().optional() }).loose(),
  packages: z.record(z.string(), z.array(z.tuple([z.string(), z.string()]))),
  objects: z.record(z.string(), z.string()),
  cached_at: z.number(),
  smi: Smi.optional(),
});

/** Read a cache entry back into what a replay needs. */
export function parseCachedTransaction(json: unknown, source: string): FetchedReplay {
  const parsed = Cached.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: ${i.path.join('.') || '(root)'}: ${i.message}`, { path: source });
  }
  const c = parsed.data;
  if (c.smi === undefined)
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: a cache entry of the original tool (no "smi" section): fetch it again to replay it exactly`, { path: source });
  const s = c.smi;
  try {
    const data = suiBcs.TransactionData.parse(unb64(s.transaction_bcs));
    const effects = suiBcs.TransactionEffects.parse(unb64(s.effects_bcs));
    const objects = new Map<string, SuiObject>();
    for (const { bcs } of Object.values(s.objects)) {
      const o = suiBcs.Object.parse(unb64(bcs));
      objects.set(objectIdOf(o), o);
    }
    const packages: MovePackage[] = s.system_packages
      .filter((p) => p.source === 'local')
      .map((p) => {
        const modules = c.packages[p.id];
        if (modules === undefined) throw new Error(`system package ${p.id} has no modules`);
        return packageFromBytes(
          modules.map(([, m]) => unb64(m)),
          { id: p.id, version: Number(p.version) },
        );
      });
    const epoch = {
      epoch: BigInt(s.epoch.epoch),
      protocolVersion: s.epoch.protocol_version,
      referenceGasPrice: BigInt(s.epoch.reference_gas_price),
      startTimestampMs: BigInt(s.epoch.start_timestamp_ms),
    };
    const t = c.transaction;
    return {
      snapshot: {
        digest: t.digest,
        transaction: data,
        protocolVersion: epoch.protocolVersion,
        epoch: effects.$kind === 'V1' ? effects.V1.executedEpoch : effects.V2.executedEpoch,
        epochTimestampMs: epoch.startTimestampMs,
        referenceGasPrice: epoch.referenceGasPrice,
        objects,
        loadedChildObjects: s.loaded_child_objects.map((x) => ({ id: x.id, version: BigInt(x.version) })),
        effects: recordedEffects(effects),
      },
      epoch,
      checkpoint: t.checkpoint == null ? null : BigInt(t.checkpoint),
      timestampMs: t.timestamp_ms == null ? null : BigInt(t.timestamp_ms),
      effects,
      eventsBcs: s.events_bcs === null ? null : unb64(s.events_bcs),
      systemPackages: s.system_packages,
      missingPackages: s.missing_packages,
      packages,
    };
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: ${errorMessage(e)}`, { path: source });
  }
}

/** A directory of cached transactions. */
export class TransactionCache {
  constructor(readonly dir: string) {}

  fileOf(digest: string): string {
    if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(digest)) throw new SimulationEnvironmentError('INVALID_REQUEST', `"${digest}" is not a transaction digest (base58)`);
    return path.join(this.dir, `${digest}.json`);
  }

  has(digest: string): boolean {
    return existsSync(this.fileOf(digest));
  }

  /** Digests in the cache, sorted. */
  digests(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();
  }

  read(digest: string): FetchedReplay {
    const file = this.fileOf(digest);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${file}: ${errorMessage(e)}`, { path: file });
    }
    return parseCachedTransaction(json, file);
  }

  write(f: FetchedReplay): string {
    mkdirSync(this.dir, { recursive: true });
    const file = this.fileOf(f.snapshot.digest);
    writeFileAtomic(file, JSON.stringify(cachedTransactionJson(f), null, 2) + '\n');
    return file;
  }

  /** Remove every cached transaction; how many went. */
  clear(): number {
    const list = this.digests();
    for (const d of list) rmSync(this.fileOf(d), { force: true });
    return list.length;
  }
}

/**
 * Reading a sui-replay snapshot (`fixtures/replay/<digest>.json`): the transaction as signed,
 * every object it needs (packages included) as of before it ran, the loaded dynamic-field
 * children, and the effects mainnet recorded. zod checks the outer shape; the Sui values
 * inside are read by the serde-JSON readers of `@smi/ptb`.
 */
import { readFileSync } from 'node:fs';
import { canonicalAddress, errorMessage } from '@smi/bytecode';
import { fromSerdeJson, objectIdOf, type ObjectRef, type Owner, type SuiObject, suiBcs, type TransactionData, type TransactionEffects } from '@smi/ptb';
import { z } from 'zod';
import { SimulationEnvironmentError } from '../errors.js';

const num = z.union([z.number(), z.string()]);

const RefSchema = z.object({ objectId: z.string(), version: num, digest: z.string() });
const OwnedRefSchema = z.object({ owner: z.unknown(), reference: RefSchema });

const OwnedRefsSchema = z.array(OwnedRefSchema).optional();

const EffectsSchema = z.object({
  messageVersion: z.string().optional(),
  executedEpoch: num.optional(),
  modifiedAtVersions: z.array(z.object({ objectId: z.string(), sequenceNumber: num })).optional(),
  sharedObjects: z.array(RefSchema).optional(),
  transactionDigest: z.string().optional(),
  gasObject: OwnedRefSchema.optional(),
  status: z.object({ status: z.enum(['success', 'failure']), error: z.string().optional() }),
  gasUsed: z.object({ computationCost: num, storageCost: num, storageRebate: num, nonRefundableStorageFee: num }),
  created: OwnedRefsSchema,
  mutated: OwnedRefsSchema,
  unwrapped: OwnedRefsSchema,
  deleted: z.array(RefSchema).optional(),
  wrapped: z.array(RefSchema).optional(),
  unwrappedThenDeleted: z.array(RefSchema).optional(),
  eventsDigest: z.string().optional(),
  dependencies: z.array(z.string()).optional(),
});

const SnapshotSchema = z.object({
  transaction_info: z.object({
    tx_digest: z.string(),
    sender_signed_data: z.array(z.object({ intent_message: z.object({ value: z.unknown() }) })).min(1),
    effects: EffectsSchema,
    protocol_version: z.number().int().nonnegative(),
    executed_epoch: num,
    epoch_start_timestamp: num.nullable().optional(),
    reference_gas_price: num.nullable().optional(),
  }),
  required_objects: z.array(z.unknown()),
  pre_exec_diag: z.object({ loaded_child_objects: z.array(z.tuple([z.string(), num])) }).optional(),
});

/** An object reference in the recorded effects. */
export interface RecordedRef {
  id: string;
  version: bigint;
  digest: string;
  /** Owner as recorded (serde JSON), for written objects. */
  owner?: unknown;
}

/** The effects a snapshot recorded. */
export interface RecordedEffects {
  status: 'success' | 'failure';
  error: string | undefined;
  gasUsed: { computationCost: bigint; storageCost: bigint; storageRebate: bigint; nonRefundableStorageFee: bigint };
  created: RecordedRef[];
  mutated: RecordedRef[];
  unwrapped: RecordedRef[];
  deleted: RecordedRef[];
  wrapped: RecordedRef[];
  unwrappedThenDeleted: RecordedRef[];
  eventsDigest: string | null;
  dependencies: string[];
}

/** A replay snapshot, decoded. */
export interface ReplaySnapshot {
  /** The effects as mainnet signed them, when the source has them whole (JSON-RPC v1 effects, or BCS). */
  signedEffects?: TransactionEffects;
  digest: string;
  transaction: TransactionData;
  protocolVersion: number;
  epoch: bigint;
  epochTimestampMs: bigint;
  referenceGasPrice: bigint | null;
  /** Objects as of before the transaction, by id. */
  objects: Map<string, SuiObject>;
  /** Dynamic-field children the transaction loaded, with their versions. */
  loadedChildObjects: { id: string; version: bigint }[];
  effects: RecordedEffects;
}

function big(v: number | string): bigint {
  return BigInt(v);
}

function refs(list: { objectId: string; version: number | string; digest: string; owner?: unknown }[] | undefined): RecordedRef[] {
  return (list ?? []).map((r) => ({ id: canonicalAddress(r.objectId), version: big(r.version), digest: r.digest, ...(r.owner !== undefined ? { owner: r.owner } : {}) }));
}

function written(list: { owner: unknown; reference: { objectId: string; version: number | string; digest: string } }[] | undefined): RecordedRef[] {
  return refs((list ?? []).map((w) => ({ ...w.reference, owner: w.owner })));
}

/** Decode a snapshot's JSON (`source` names it in errors). */
export function parseReplaySnapshot(json: unknown, source = 'snapshot'): ReplaySnapshot {
  const parsed = SnapshotSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const s = parsed.data;
  const ti = s.transaction_info;
  let transaction: TransactionData;
  try {
    transaction = fromSerdeJson(suiBcs.TransactionData, ti.sender_signed_data[0].intent_message.value as never) as TransactionData;
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: the transaction does not read: ${errorMessage(e)}`);
  }
  const objects = new Map<string, SuiObject>();
  s.required_objects.forEach((o, i) => {
    try {
      const obj = fromSerdeJson(suiBcs.Object, o as never) as SuiObject;
      objects.set(objectIdOf(obj), obj);
    } catch (e) {
      throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: required_objects[${i}] does not read: ${errorMessage(e)}`);
    }
  });
  const fx = ti.effects;
  const signed = signedEffectsV1(fx, source);
  return {
    ...(signed ? { signedEffects: signed } : {}),
    digest: ti.tx_digest,
    transaction,
    protocolVersion: ti.protocol_version,
    epoch: big(ti.executed_epoch),
    epochTimestampMs: ti.epoch_start_timestamp == null ? 0n : big(ti.epoch_start_timestamp),
    referenceGasPrice: ti.reference_gas_price == null ? null : big(ti.reference_gas_price),
    objects,
    loadedChildObjects: (s.pre_exec_diag?.loaded_child_objects ?? []).map(([id, v]) => ({ id: canonicalAddress(id), version: big(v) })),
    effects: {
      status: fx.status.status,
      error: fx.status.error,
      gasUsed: {
        computationCost: big(fx.gasUsed.computationCost),
        storageCost: big(fx.gasUsed.storageCost),
        storageRebate: big(fx.gasUsed.storageRebate),
        nonRefundableStorageFee: big(fx.gasUsed.nonRefundableStorageFee),
      },
      created: written(fx.created),
      mutated: written(fx.mutated),
      unwrapped: written(fx.unwrapped),
      deleted: refs(fx.deleted),
      wrapped: refs(fx.wrapped),
      unwrappedThenDeleted: refs(fx.unwrappedThenDeleted),
      eventsDigest: fx.eventsDigest ?? null,
      dependencies: fx.dependencies ?? [],
    },
  };
}

/**
 * The `TransactionEffectsV1` mainnet signed, from JSON-RPC v1 effects that carry all of it
 * (status, epoch, modified-at versions, shared objects, gas object…), or `undefined`.
 */
function signedEffectsV1(fx: z.infer<typeof EffectsSchema>, source: string): TransactionEffects | undefined {
  if (fx.messageVersion !== 'v1' || fx.executedEpoch === undefined || fx.transactionDigest === undefined || fx.gasObject === undefined || fx.status.status !== 'success') return undefined;
  const owner = (o: unknown): Owner => fromSerdeJson(suiBcs.Owner, o as never) as Owner;
  const ref = (r: { objectId: string; version: number | string; digest: string }): ObjectRef => ({ objectId: canonicalAddress(r.objectId), version: big(r.version), digest: r.digest });
  const owned = (l: { owner: unknown; reference: { objectId: string; version: number | string; digest: string } }[] | undefined): [ObjectRef, Owner][] =>
    (l ?? []).map((w) => [ref(w.reference), owner(w.owner)]);
  try {
    return {
      $kind: 'V1',
      V1: {
        status: { $kind: 'Success', Success: true },
        executedEpoch: big(fx.executedEpoch),
        gasUsed: {
          computationCost: big(fx.gasUsed.computationCost),
          storageCost: big(fx.gasUsed.storageCost),
          storageRebate: big(fx.gasUsed.storageRebate),
          nonRefundableStorageFee: big(fx.gasUsed.nonRefundableStorageFee),
        },
        modifiedAtVersions: (fx.modifiedAtVersions ?? []).map((m) => [canonicalAddress(m.objectId), big(m.sequenceNumber)]),
        sharedObjects: (fx.sharedObjects ?? []).map(ref),
        transactionDigest: fx.transactionDigest,
        created: owned(fx.created),
        mutated: owned(fx.mutated),
        unwrapped: owned(fx.unwrapped),
        deleted: (fx.deleted ?? []).map(ref),
        unwrappedThenDeleted: (fx.unwrappedThenDeleted ?? []).map(ref),
        wrapped: (fx.wrapped ?? []).map(ref),
        gasObject: owned([fx.gasObject])[0],
        eventsDigest: fx.eventsDigest ?? null,
        dependencies: fx.dependencies ?? [],
      },
    };
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${source}: the effects do not read: ${errorMessage(e)}`);
  }
}

/** Read a snapshot file. */
export function readReplaySnapshot(file: string): ReplaySnapshot {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_SNAPSHOT', `${file}: ${errorMessage(e)}`, { path: file });
  }
  return parseReplaySnapshot(json, file);
}

/**
 * Fetching what a mainnet transaction needs to be replayed exactly, from a
 * {@link SuiDataSource}: the transaction (its BCS checked against its digest), the effects it
 * signed (V1 or V2), its epoch (protocol version, reference gas price, start time), every
 * input object at the version it read, the dynamic-field children it loaded when the node
 * says which, and every package it can reach (called, named in type arguments, the types of
 * its objects, and their linkage, transitively). System packages come from the framework of
 * the transaction's protocol version when the caller has it (a node only serves their latest
 * version), else from the node.
 */
import { canonicalAddress, type MovePackage, SYSTEM_PACKAGES, errorMessage, SmiError } from '@smi/bytecode';
import { objectIdOf, suiBcs, type SuiObject, type TransactionData, type StructTag, type TransactionEffects, transactionDigest, type TypeTag } from '@smi/ptb';
import { type ChainEpoch, DataSourceError, type SuiDataSource } from '../data-source.js';
import type { RecordedEffects, RecordedRef, ReplaySnapshot } from './snapshot.js';

/** Options of {@link fetchReplaySnapshot}. */
export interface FetchReplayOptions {
  /**
   * A system package's modules (0x1, 0x2, 0x3, 0xb, 0xdee9, …) as of a protocol version, held
   * locally (the framework snapshots): a node serves only their latest version.
   */
  localSystemPackage?: (id: string, protocolVersion: number) => MovePackage | undefined;
  /** A package held locally (`--bytecode-corpus`: local packages first), as an object. */
  localPackage?: (id: string) => SuiObject | undefined;
  /** Told of every fetch (for progress and `--verbose`). */
  onFetch?: (what: string) => void;
}

/** A fetched transaction: the snapshot to replay, and what it came with. */
export interface FetchedReplay {
  snapshot: ReplaySnapshot;
  epoch: ChainEpoch;
  checkpoint: bigint | null;
  timestampMs: bigint | null;
  effects: TransactionEffects;
  /** BCS of the events, when the node returned them. */
  eventsBcs: Uint8Array | null;
  /**
   * How each system package was found: `at-checkpoint` (the node said which version was live
   * then: exact), `local` (the modules of the protocol version, with the node's current version
   * number: exact unless the transaction publishes or upgrades a package, whose linkage records
   * the versions), or `current` (the node's latest: right for recent transactions only).
   */
  systemPackages: { id: string; source: 'at-checkpoint' | 'local' | 'current'; version: string }[];
  /** Packages a linkage names that the node does not have (the transaction may not need them). */
  missingPackages: string[];
  /** System packages as the replay loads them (with `local` ones). */
  packages: MovePackage[];
  /**
   * The node said which dynamic-field children the transaction read (`false`: it could not;
   * `fetchRuntimeChildren` finds them by replaying). Absent: known (a cached or recorded one).
   */
  runtimeObjectsKnown?: boolean;
}

const ZERO_DIGEST_MARKERS = { deleted: '7gyGAp71YXQRoxmFBaHxofQXAipvgHyBKPyxmdSJxyvz', wrapped: '11111111111111111111111111111111' };

function parse<T>(what: string, endpoint: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new DataSourceError('INVALID_RESPONSE', `${what} from ${endpoint} does not decode: ${errorMessage(e)}`, { endpoint });
  }
}

/** Addresses of the packages a type tag names. */
function tagPackages(t: TypeTag, out: Set<string>): void {
  if (t.$kind === 'vector') tagPackages(t.vector, out);
  else if (t.$kind === 'struct') structPackages(t.struct, out);
}

function structPackages(s: StructTag, out: Set<string>): void {
  out.add(canonicalAddress(s.address));
  for (const a of s.typeParams) tagPackages(a, out);
}

/** The objects a transaction read, with the versions it read them at. */
export function inputVersions(data: TransactionData, effects: TransactionEffects): Map<string, bigint> {
  const out = new Map<string, bigint>();
  const tx = data.V1;
  for (const p of tx.gasData.payment) out.set(canonicalAddress(p.objectId), p.version);
  if (tx.kind.$kind === 'ProgrammableTransaction') {
    for (const input of tx.kind.ProgrammableTransaction.inputs) {
      if (input.$kind !== 'Object') continue;
      const o = input.Object;
      if (o.$kind === 'ImmOrOwnedObject') out.set(canonicalAddress(o.ImmOrOwnedObject.objectId), o.ImmOrOwnedObject.version);
      else if (o.$kind === 'Receiving') out.set(canonicalAddress(o.Receiving.objectId), o.Receiving.version);
    }
  }
  if (effects.$kind === 'V1') {
    for (const [id, v] of effects.V1.modifiedAtVersions) out.set(canonicalAddress(id), v);
    for (const r of effects.V1.sharedObjects) out.set(canonicalAddress(r.objectId), r.version);
  } else {
    for (const [id, change] of effects.V2.changedObjects) if (change.inputState.$kind === 'Exist') out.set(canonicalAddress(id), change.inputState.Exist[0][0]);
    for (const [id, kind] of effects.V2.unchangedConsensusObjects) if (kind.$kind === 'ReadOnlyRoot') out.set(canonicalAddress(id), kind.ReadOnlyRoot[0]);
  }
  return out;
}

/** The effects as the replay comparison reads them (V2 changes sorted into V1's lists). */
export function recordedEffects(effects: TransactionEffects): RecordedEffects {
  const ref = (id: string, version: bigint, digest: string, owner?: unknown): RecordedRef => ({ id: canonicalAddress(id), version, digest, ...(owner !== undefined ? { owner } : {}) });
  if (effects.$kind === 'V1') {
    const e = effects.V1;
    const owned = (l: typeof e.created) => l.map(([r, o]) => ref(r.objectId, r.version, r.digest, o));
    const plain = (l: typeof e.deleted) => l.map((r) => ref(r.objectId, r.version, r.digest));
    return {
      status: e.status.$kind === 'Success' ? 'success' : 'failure',
      error: e.status.$kind === 'Failure' ? e.status.Failure.error.$kind : undefined,
      gasUsed: e.gasUsed,
      created: owned(e.created),
      mutated: owned(e.mutated),
      unwrapped: owned(e.unwrapped),
      deleted: plain(e.deleted),
      wrapped: plain(e.wrapped),
      unwrappedThenDeleted: plain(e.unwrappedThenDeleted),
      eventsDigest: e.eventsDigest,
      dependencies: e.dependencies,
    };
  }
  const e = effects.V2;
  const lists: Pick<RecordedEffects, 'created' | 'mutated' | 'unwrapped' | 'deleted' | 'wrapped' | 'unwrappedThenDeleted'> = {
    created: [],
    mutated: [],
    unwrapped: [],
    deleted: [],
    wrapped: [],
    unwrappedThenDeleted: [],
  };
  for (const [id, c] of e.changedObjects) {
    const existed = c.inputState.$kind === 'Exist';
    const out = c.outputState;
    if (out.$kind === 'ObjectWrite' || out.$kind === 'PackageWrite') {
      const [version, digest] = out.$kind === 'ObjectWrite' ? [e.lamportVersion, out.ObjectWrite[0]] : out.PackageWrite;
      const r = ref(id, version, digest, out.$kind === 'ObjectWrite' ? out.ObjectWrite[1] : undefined);
      if (c.idOperation.$kind === 'Created') lists.created.push(r);
      else if (existed) lists.mutated.push(r);
      else lists.unwrapped.push(r);
    } else if (out.$kind === 'NotExist') {
      if (c.idOperation.$kind === 'Deleted') (existed ? lists.deleted : lists.unwrappedThenDeleted).push(ref(id, e.lamportVersion, ZERO_DIGEST_MARKERS.deleted));
      else if (existed) lists.wrapped.push(ref(id, e.lamportVersion, ZERO_DIGEST_MARKERS.wrapped));
    }
  }
  return {
    status: e.status.$kind === 'Success' ? 'success' : 'failure',
    error: e.status.$kind === 'Failure' ? e.status.Failure.error.$kind : undefined,
    gasUsed: e.gasUsed,
    ...lists,
    eventsDigest: e.eventsDigest,
    dependencies: e.dependencies,
  };
}

/** The transaction is not a programmable transaction (a system transaction): nothing to replay. */
export class NotProgrammableError extends SmiError<'NOT_PROGRAMMABLE'> {
  override readonly name = 'NotProgrammableError';
  constructor(
    readonly digest: string,
    readonly kind: string,
  ) {
    super('NOT_PROGRAMMABLE', `transaction ${digest} is a ${kind}, not a programmable transaction: nothing to replay`);
  }
}

/** Fetch everything transaction `digest` needs to be replayed. */
export async function fetchReplaySnapshot(source: SuiDataSource, digest: string, options: FetchReplayOptions = {}): Promise<FetchedReplay> {
  const ep = source.endpoint;
  options.onFetch?.(`transaction ${digest}`);
  const tx = await source.getTransaction(digest);
  const data = parse(`transaction ${digest}`, ep, () => suiBcs.TransactionData.parse(tx.transactionBcs));
  if (transactionDigest(data) !== digest) throw new DataSourceError('INVALID_RESPONSE', `${ep} answered for ${digest} a transaction whose digest is ${transactionDigest(data)}`, { endpoint: ep });
  if (data.V1.kind.$kind !== 'ProgrammableTransaction') throw new NotProgrammableError(digest, data.V1.kind.$kind);
  const effects = parse(`effects of ${digest}`, ep, () => suiBcs.TransactionEffects.parse(tx.effectsBcs));
  const executedEpoch = effects.$kind === 'V1' ? effects.V1.executedEpoch : effects.V2.executedEpoch;
  options.onFetch?.(`epoch ${executedEpoch}`);
  const epoch = await source.getEpoch(executedEpoch);
  const objects = new Map<string, SuiObject>();
  const versions = inputVersions(data, effects);
  const children = tx.unchangedLoadedRuntimeObjects ?? [];
  for (const c of children) versions.set(canonicalAddress(c.id), c.version);
  const fetched = await Promise.all(
    [...versions].map(async ([id, version]) => {
      options.onFetch?.(`object ${id} v${version}`);
      const o = await source.getObject(id, version);
      return parse(`object ${id} v${version}`, ep, () => suiBcs.Object.parse(o.bcs));
    }),
  );
  for (const o of fetched) objects.set(objectIdOf(o), o);
  // Packages: those called (and Publish/Upgrade dependencies), their linkage, transitively;
  // then the packages types name (type arguments, object types) that no linkage covers. A type
  // names its package's original id: a linkage maps it to the version the transaction used.
  const called = new Set<string>();
  const typed = new Set<string>();
  const tx1 = data.V1;
  if (tx1.kind.$kind === 'ProgrammableTransaction') {
    for (const c of tx1.kind.ProgrammableTransaction.commands) {
      if (c.$kind === 'MoveCall') {
        called.add(canonicalAddress(c.MoveCall.package));
        for (const t of c.MoveCall.typeArguments) tagPackages(t, typed);
      } else if (c.$kind === 'MakeMoveVec' && c.MakeMoveVec.type !== null) tagPackages(c.MakeMoveVec.type, typed);
      else if (c.$kind === 'Publish') for (const d of c.Publish.dependencies) called.add(canonicalAddress(d));
      else if (c.$kind === 'Upgrade') {
        called.add(canonicalAddress(c.Upgrade.package));
        for (const d of c.Upgrade.dependencies) called.add(canonicalAddress(d));
      }
    }
  }
  for (const o of fetched) {
    if (o.data.$kind !== 'Move') continue;
    const t = o.data.Move.type;
    if (t.$kind === 'Other') structPackages(t.Other, typed);
    else {
      typed.add(canonicalAddress(t.$kind === 'StakedSui' ? '0x3' : '0x2'));
      if (t.$kind === 'Coin') tagPackages(t.Coin, typed);
    }
  }
  const systemPackages: FetchedReplay['systemPackages'] = [];
  const localPackages: MovePackage[] = [];
  const missingPackages: string[] = [];
  const done = new Set<string>();
  const systemPackage = async (id: string): Promise<SuiObject | null> => {
    if (tx.checkpoint !== null && source.getObjectAtCheckpoint !== undefined) {
      options.onFetch?.(`package ${id} at checkpoint ${tx.checkpoint}`);
      try {
        const o = await source.getObjectAtCheckpoint(id, tx.checkpoint);
        systemPackages.push({ id, source: 'at-checkpoint', version: o.version.toString() });
        return parse(`package ${id}`, ep, () => suiBcs.Object.parse(o.bcs));
      } catch (e) {
        // The API cannot say (UNSUPPORTED), has no such version then (NOT_FOUND), or the
        // checkpoint is outside what it keeps (REJECTED: GraphQL's BAD_USER_INPUT for a
        // checkpoint before its retention window): the package comes as below instead.
        if (!(e instanceof DataSourceError) || (e.code !== 'UNSUPPORTED' && e.code !== 'NOT_FOUND' && e.code !== 'REJECTED')) throw e;
      }
    }
    options.onFetch?.(`package ${id}`);
    const current = await source.getObject(id);
    const local = options.localSystemPackage?.(id, epoch.protocolVersion);
    if (local !== undefined) {
      systemPackages.push({ id, source: 'local', version: current.version.toString() });
      localPackages.push({ ...local, version: Number(current.version) });
      return null;
    }
    systemPackages.push({ id, source: 'current', version: current.version.toString() });
    return parse(`package ${id}`, ep, () => suiBcs.Object.parse(current.bcs));
  };
  /** Original ids the fetched packages link (or are); linked packages are fetched depth first. */
  const covered = new Set<string>();
  const fetchPackages = async (ids: Iterable<string>, soft: boolean): Promise<void> => {
    {
      const batch = [...new Set(ids)].filter((id) => !done.has(id) && !objects.has(id));
      for (const id of batch) done.add(id);
      const pkgs = await Promise.all(
        batch.map(async (id) => {
          covered.add(id);
          if (SYSTEM_PACKAGES.has(id)) return systemPackage(id);
          const local = options.localPackage?.(id);
          if (local !== undefined) return local;
          options.onFetch?.(`package ${id}`);
          try {
            const o = await source.getObject(id);
            return parse(`package ${id}`, ep, () => suiBcs.Object.parse(o.bcs));
          } catch (e) {
            // A package only a linkage names may be one the transaction never loads.
            if (soft && e instanceof DataSourceError && e.code === 'NOT_FOUND') {
              missingPackages.push(id);
              return null;
            }
            throw e;
          }
        }),
      );
      const linked: string[] = [];
      for (const p of pkgs) {
        if (p === null) continue;
        objects.set(objectIdOf(p), p);
        if (p.data.$kind !== 'Package') continue;
        covered.add(canonicalAddress(p.data.Package.id));
        for (const t of p.data.Package.typeOriginTable) covered.add(canonicalAddress(t.package));
        for (const [original, u] of p.data.Package.linkageTable) {
          covered.add(canonicalAddress(original));
          linked.push(canonicalAddress(u.upgradedId));
        }
      }
      if (linked.length > 0) await fetchPackages(linked, true);
    }
  };
  await fetchPackages(called, false);
  await fetchPackages(
    [...typed].filter((id) => !covered.has(id)),
    false,
  );
  const snapshot: ReplaySnapshot = {
    digest,
    transaction: data,
    protocolVersion: epoch.protocolVersion,
    epoch: executedEpoch,
    epochTimestampMs: epoch.startTimestampMs,
    referenceGasPrice: epoch.referenceGasPrice,
    objects,
    loadedChildObjects: children.map((c) => ({ id: canonicalAddress(c.id), version: c.version })),
    effects: recordedEffects(effects),
  };
  return {
    snapshot,
    epoch,
    checkpoint: tx.checkpoint,
    timestampMs: tx.timestampMs,
    effects,
    eventsBcs: tx.eventsBcs,
    systemPackages: systemPackages.sort((a, b) => (a.id < b.id ? -1 : 1)),
    missingPackages: missingPackages.sort(),
    packages: localPackages,
    runtimeObjectsKnown: tx.unchangedLoadedRuntimeObjects !== null,
  };
}

/** A sui-replay snapshot (`fixtures/replay/<digest>.json`) as a fetched transaction (to cache it, or replay it as one). */
export function fetchedFromSnapshot(s: ReplaySnapshot): FetchedReplay {
  if (s.signedEffects === undefined) throw new DataSourceError('INVALID_RESPONSE', `snapshot ${s.digest}: its effects are not whole (the JSON-RPC v1 form of a successful transaction is needed)`);
  return {
    snapshot: s,
    epoch: { epoch: s.epoch, protocolVersion: s.protocolVersion, referenceGasPrice: s.referenceGasPrice ?? s.transaction.V1.gasData.price, startTimestampMs: s.epochTimestampMs },
    checkpoint: null,
    timestampMs: null,
    effects: s.signedEffects,
    eventsBcs: null,
    systemPackages: [],
    missingPackages: [],
    packages: [],
  };
}

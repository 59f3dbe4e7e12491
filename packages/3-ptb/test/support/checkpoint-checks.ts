/**
 * Checks shared by the checkpoint tests: object references a transaction and its effects
 * carry, and where created object ids come from.
 */
import { deriveObjectId, dynamicFieldId, moveObjectTypeToStructTag, objectDigest, objectIdOf, objectVersionOf, transactionDataOf, type CheckpointTransaction, type SuiObject } from '@smi/ptb';

const key = (id: string, version: bigint): string => `${id}@${version}`;

/** `id@version → digest` of every object reference in the transaction data and effects. */
export function referencedDigests(tx: CheckpointTransaction): Map<string, string> {
  const refs = new Map<string, string>();
  const data = transactionDataOf(tx.transaction).V1;
  for (const p of data.gasData.payment) refs.set(key(p.objectId, p.version), p.digest);
  if (data.kind.$kind === 'ProgrammableTransaction') {
    for (const input of data.kind.ProgrammableTransaction.inputs) {
      if (input.$kind !== 'Object') continue;
      const o = input.Object;
      if (o.$kind === 'ImmOrOwnedObject') refs.set(key(o.ImmOrOwnedObject.objectId, o.ImmOrOwnedObject.version), o.ImmOrOwnedObject.digest);
      if (o.$kind === 'Receiving') refs.set(key(o.Receiving.objectId, o.Receiving.version), o.Receiving.digest);
    }
  }
  const fx = tx.effects;
  if (fx.$kind === 'V1') {
    const e = fx.V1;
    for (const r of e.sharedObjects) refs.set(key(r.objectId, r.version), r.digest);
    for (const [r] of [...e.created, ...e.mutated, ...e.unwrapped, e.gasObject]) refs.set(key(r.objectId, r.version), r.digest);
  } else {
    const e = fx.V2;
    for (const [id, change] of e.changedObjects) {
      if (change.inputState.$kind === 'Exist') {
        const [[version, digest]] = change.inputState.Exist;
        refs.set(key(id, version), digest);
      }
      const out = change.outputState;
      if (out.$kind === 'ObjectWrite') refs.set(key(id, e.lamportVersion), out.ObjectWrite[0]);
      if (out.$kind === 'PackageWrite') refs.set(key(id, out.PackageWrite[0]), out.PackageWrite[1]);
    }
    for (const [id, kind] of e.unchangedConsensusObjects) {
      if (kind.$kind === 'ReadOnlyRoot') refs.set(key(id, kind.ReadOnlyRoot[0]), kind.ReadOnlyRoot[1]);
    }
  }
  return refs;
}

/** Object digests of a transaction's input and output objects checked against its references. */
export function checkObjectDigests(tx: CheckpointTransaction): { objects: number; referenced: number; matching: number } {
  const refs = referencedDigests(tx);
  let referenced = 0;
  let matching = 0;
  const all: SuiObject[] = [...tx.inputObjects, ...tx.outputObjects];
  for (const o of all) {
    const expected = refs.get(key(objectIdOf(o), objectVersionOf(o)));
    if (expected === undefined) continue;
    referenced++;
    if (objectDigest(o) === expected) matching++;
  }
  return { objects: all.length, referenced, matching };
}

/** Ids a transaction created (V1 `created`, V2 `idOperation: Created`). */
export function createdIds(tx: CheckpointTransaction): string[] {
  const fx = tx.effects;
  if (fx.$kind === 'V1') return fx.V1.created.map(([r]) => r.objectId);
  return fx.V2.changedObjects.filter(([, c]) => c.idOperation.$kind === 'Created').map(([id]) => id);
}

/** Where created ids come from. */
export interface CreatedIdReport {
  created: number;
  /** `derive_id(tx digest, n)` for some creation index n. */
  fresh: number;
  /** Dynamic fields: the id of (owner, key type, a prefix of the contents after the id as key). */
  dynamicField: number;
  unexplained: string[];
  maxIndex: number;
}

/** Explains every created id of a transaction. */
export function explainCreatedIds(tx: CheckpointTransaction, txDigest: string): CreatedIdReport {
  const ids = createdIds(tx);
  const bound = 2 * ids.length + 64;
  const fresh = new Map<string, number>();
  for (let n = 0; n < bound; n++) fresh.set(deriveObjectId(txDigest, n), n);
  const report: CreatedIdReport = { created: ids.length, fresh: 0, dynamicField: 0, unexplained: [], maxIndex: -1 };
  for (const id of ids) {
    const n = fresh.get(id);
    if (n !== undefined) {
      report.fresh++;
      report.maxIndex = Math.max(report.maxIndex, n);
    } else if (isDynamicField(tx, id)) report.dynamicField++;
    else report.unexplained.push(id);
  }
  return report;
}

function isDynamicField(tx: CheckpointTransaction, id: string): boolean {
  const o = tx.outputObjects.find((x) => objectIdOf(x) === id);
  if (o === undefined || o.data.$kind !== 'Move' || o.owner.$kind !== 'ObjectOwner') return false;
  const tag = moveObjectTypeToStructTag(o.data.Move.type);
  if (tag.module !== 'dynamic_field' || tag.name !== 'Field' || tag.typeParams.length !== 2) return false;
  const rest = o.data.Move.contents.subarray(32);
  for (let len = 0; len <= rest.length; len++) {
    if (dynamicFieldId(o.owner.ObjectOwner, tag.typeParams[0], rest.subarray(0, len)) === id) return true;
  }
  return false;
}

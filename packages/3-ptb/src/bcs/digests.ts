/**
 * Digests and ids. A Sui digest is `blake2b256(salt ‖ bcs(value))` with the type's name
 * as salt (`"TransactionData::"`...), shown in base58. Objects created by a transaction
 * get `blake2b256(0xf1 ‖ tx_digest ‖ u64le(creation index))`; dynamic fields get
 * `blake2b256(0xf0 ‖ parent ‖ u64le(len key) ‖ key ‖ bcs(key type))`.
 */
import { ByteWriter } from '@smi/bytecode';
import { blake2b256Of, BcsError } from '@smi/move-vm';
import { addressToBytes, bytesToHex, digestBytesForWrite, digestFromBase58, digestToBase58, normalizeAddress } from './codec.js';
import { encodeBcs } from './shape-encoder.js';
import { CheckpointContents, CheckpointSummary } from './checkpoint.js';
import { TransactionEffects, TransactionEvents } from './effects.js';
import { MoveObjectType, SuiObject, objectIdOf, objectVersionOf, type ObjectRef } from './object.js';
import { TransactionData } from './transaction.js';
import { TypeTag } from './type-tag.js';

/** Hashing salts of the digested types (`<TypeName>::`). */
export const DIGEST_SALTS = {
  transactionData: 'TransactionData::',
  transactionEffects: 'TransactionEffects::',
  transactionEvents: 'TransactionEvents::',
  object: 'Object::',
  checkpointSummary: 'CheckpointSummary::',
  checkpointContents: 'CheckpointContents::',
} as const;

/** `blake2b256` (32-byte output). */
export function blake2b256(bytes: Uint8Array): Uint8Array {
  return blake2b256Of(bytes);
}

const encoder = new TextEncoder();
const saltBytes = new Map<string, Uint8Array>();

function saltOf(salt: string): Uint8Array {
  let s = saltBytes.get(salt);
  if (s === undefined) {
    s = encoder.encode(salt);
    saltBytes.set(salt, s);
  }
  return s;
}

/** `blake2b256(salt ‖ bytes)`: the 32 digest bytes of already-encoded BCS. */
export function saltedDigest(salt: string, bcs: Uint8Array): Uint8Array {
  return blake2b256Of(saltOf(salt), bcs);
}

/** Transaction digest (base58) of `TransactionData`. */
export function transactionDigest(data: TransactionData): string {
  return digestToBase58(saltedDigest(DIGEST_SALTS.transactionData, encodeBcs(TransactionData, data)));
}

/** Effects digest (base58). */
export function transactionEffectsDigest(effects: TransactionEffects): string {
  return digestToBase58(saltedDigest(DIGEST_SALTS.transactionEffects, encodeBcs(TransactionEffects, effects)));
}

/** Events digest (base58), as in the effects' `eventsDigest`. */
export function transactionEventsDigest(events: TransactionEvents): string {
  return digestToBase58(saltedDigest(DIGEST_SALTS.transactionEvents, encodeBcs(TransactionEvents, events)));
}

/**
 * Digests already computed, by object. Objects are values: whoever makes one sets its fields
 * (storage rebate, contents) before anything reads its digest, and nothing changes it after;
 * the same object's digest is asked for several times per transaction (its reference, the
 * input check, effects, the next transaction's reference).
 */
const digests = new WeakMap<SuiObject, string>();

/** Object digest (base58), as in object references. */
export function objectDigest(object: SuiObject): string {
  let d = digests.get(object);
  if (d === undefined) {
    const bytes = saltedMoveObjectBcs(object);
    d = bytes === null ? digestToBase58(saltedDigest(DIGEST_SALTS.object, encodeBcs(SuiObject, object))) : digestToBase58(blake2b256Of(bytes));
    digests.set(object, d);
  }
  return d;
}

const U64_LIMIT = 1n << 64n;
const objectTypeBytes = new WeakMap<MoveObjectType, Uint8Array>();
const objectBytes = new ByteWriter(512);

function isU64(v: unknown): v is bigint {
  return typeof v === 'bigint' && v >= 0n && v < U64_LIMIT;
}

/**
 * The salt and BCS of a Move object, written without the generic codec (the object digest of
 * every written object is on the executor's hot path) into one reused buffer: valid until the
 * next call. `null` for packages and unusual owners, which take the generic codec. The
 * checkpoint tests hold both to the same bytes.
 */
function saltedMoveObjectBcs(o: SuiObject): Uint8Array | null {
  if (o.data.$kind !== 'Move') return null;
  const m = o.data.Move;
  if (!(m.contents instanceof Uint8Array) || !isU64(m.version) || !isU64(o.storageRebate)) return null;
  let type = objectTypeBytes.get(m.type);
  if (type === undefined) {
    type = encodeBcs(MoveObjectType, m.type);
    objectTypeBytes.set(m.type, type);
  }
  const w = objectBytes;
  w.clear();
  w.bytes(saltOf(DIGEST_SALTS.object));
  // Data::Move, the type, `has_public_transfer`, the version, the contents.
  w.u8(0);
  w.bytes(type);
  w.u8(m.hasPublicTransfer ? 1 : 0);
  w.u64(m.version);
  w.uleb(m.contents.length);
  w.bytes(m.contents);
  const owner = o.owner;
  switch (owner.$kind) {
    case 'AddressOwner':
    case 'ObjectOwner': {
      const a = owner.$kind === 'AddressOwner' ? owner.AddressOwner : owner.ObjectOwner;
      w.u8(owner.$kind === 'AddressOwner' ? 0 : 1);
      if (!w.address(a)) w.bytes(addressToBytes(a));
      break;
    }
    case 'Shared':
      if (!isU64(owner.Shared.initialSharedVersion)) return null;
      w.u8(2);
      w.u64(owner.Shared.initialSharedVersion);
      break;
    case 'Immutable':
      w.u8(3);
      break;
    default:
      return null;
  }
  // The previous transaction (ULEB128 32, 32 bytes) and the storage rebate.
  w.u8(32);
  w.bytes(digestBytesForWrite(o.previousTransaction));
  w.u64(o.storageRebate);
  return w.written();
}

/** Checkpoint digest (base58) of a checkpoint summary. */
export function checkpointSummaryDigest(summary: CheckpointSummary): string {
  return digestToBase58(saltedDigest(DIGEST_SALTS.checkpointSummary, encodeBcs(CheckpointSummary, summary)));
}

/** Contents digest (base58), as in the summary's `contentDigest`. */
export function checkpointContentsDigest(contents: CheckpointContents): string {
  return digestToBase58(saltedDigest(DIGEST_SALTS.checkpointContents, encodeBcs(CheckpointContents, contents)));
}

/** The reference `(id, version, digest)` of an object. */
export function objectRefOf(object: SuiObject): ObjectRef {
  return { objectId: objectIdOf(object), version: objectVersionOf(object), digest: objectDigest(object) };
}

function u64le(value: number | bigint): Uint8Array {
  const v = BigInt(value);
  if (v < 0n || v >= 1n << 64n) throw new BcsError('BCS_INVALID_VALUE', `not a u64: ${String(value)}`);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, v, true);
  return out;
}

const addressBytes = addressToBytes;

/** Hashing scopes of derived ids. */
export const ID_SCOPES = { dynamicField: 0xf0, transactionCreated: 0xf1 } as const;

/**
 * Id of the `creationIndex`-th object a transaction creates (`TxContext::fresh_id`):
 * `blake2b256(0xf1 ‖ tx_digest ‖ u64le(creationIndex))`. `txDigest` is base58 or 32 bytes.
 */
export function deriveObjectId(txDigest: string | Uint8Array, creationIndex: number | bigint): string {
  const digest = typeof txDigest === 'string' ? digestFromBase58(txDigest) : txDigest;
  if (digest.length !== 32) throw new BcsError('BCS_INVALID_DIGEST', `a transaction digest has 32 bytes, got ${digest.length}`);
  const input = new Uint8Array(1 + 32 + 8);
  input[0] = ID_SCOPES.transactionCreated;
  input.set(digest, 1);
  input.set(u64le(creationIndex), 33);
  return `0x${bytesToHex(blake2b256(input))}`;
}

/**
 * Id of the dynamic field of `parent` with a key of type `keyType` whose BCS is `keyBcs`:
 * `blake2b256(0xf0 ‖ parent ‖ u64le(len key) ‖ key ‖ bcs(keyType))`.
 */
export function dynamicFieldId(parent: string, keyType: TypeTag, keyBcs: Uint8Array): string {
  const p = addressBytes(parent);
  const t = encodeBcs(TypeTag, keyType);
  const input = new Uint8Array(1 + 32 + 8 + keyBcs.length + t.length);
  input[0] = ID_SCOPES.dynamicField;
  input.set(p, 1);
  input.set(u64le(keyBcs.length), 33);
  input.set(keyBcs, 41);
  input.set(t, 41 + keyBcs.length);
  return `0x${bytesToHex(blake2b256(input))}`;
}

/**
 * Id of the object derived from `parent` with key `keyBcs` of type `keyType`
 * (`0x2::derived_object`): the dynamic field id under `0x2::derived_object::DerivedObjectKey<K>`.
 */
export function derivedObjectId(parent: string, keyType: TypeTag, keyBcs: Uint8Array): string {
  const wrapper: TypeTag = {
    $kind: 'struct',
    struct: { address: normalizeAddress('0x2'), module: 'derived_object', name: 'DerivedObjectKey', typeParams: [keyType] },
  };
  return dynamicFieldId(parent, wrapper, keyBcs);
}

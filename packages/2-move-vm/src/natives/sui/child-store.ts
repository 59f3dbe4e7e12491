/**
 * The dynamic-field child objects of one transaction (upstream `ChildObjectStore`):
 *
 * - `store`: every child the transaction touched, as a runtime value (a container, so a
 *   `&mut` borrowed from it writes in place), with its parent, type and a fingerprint of
 *   the value it had when first loaded (to tell, at the end, which children changed).
 * - `cached`: what the {@link ChildObjectProvider} returned for each id asked (including
 *   "nothing"): the "loaded child objects" of the effects, counted against
 *   `object_runtime_max_num_cached_objects`.
 * - root versions: the version of the input object each known UID lives in; the provider
 *   gets it so that it can read a child as of that version.
 */
import type { BcsCodec } from '../../values/bcs.js';
import { copyValue, valuesEqual } from '../../values/value.js';
import type { Type, TypeTable } from '../../types/runtime-type.js';
import { releaseWrites, watchWrites } from '../../values/write-watch.js';
import { MemoryLimitSubStatus, invariantViolation, memoryLimitError, suiVmError } from './errors.js';
import { formatTypeTag, parseSuiTypeTag, typeKey } from './type-tag.js';
import { collectUids } from './values.js';
import { errorMessage } from '@smi/bytecode';

/** Owner of an object (upstream `Owner`; versions are 0 until the executor assigns them). */
export type Owner =
  | { $kind: 'AddressOwner'; address: string }
  | { $kind: 'ObjectOwner'; address: string }
  | { $kind: 'Shared'; initialSharedVersion: bigint }
  | { $kind: 'Immutable' }
  | { $kind: 'ConsensusAddressOwner'; owner: string; startVersion: bigint };

/** An object as stored outside the transaction. */
export interface StoredObject {
  /** Move type tag (struct addresses are defining ids; short addresses allowed). */
  type: string;
  /** BCS contents. */
  bcs: Uint8Array;
  version: bigint;
  /** Owner, checked when given: a child must be `ObjectOwner(parent)`, a received object `AddressOwner(parent)`. */
  owner?: Owner;
}

/**
 * Loads a dynamic-field child from outside the transaction: the object `childId` owned by
 * `parentId`, as of `rootVersion` (the version of the input object the parent lives in;
 * `undefined` when unknown, the maximum sequence number for unsequenced config reads).
 */
export type ChildObjectProvider = (parentId: string, childId: string, rootVersion: bigint | undefined) => StoredObject | undefined;

/** What a native sees of the VM to decode and inspect values. */
export interface ValueEnv {
  readonly types: TypeTable;
  readonly bcs: BcsCodec;
}

/** Where a child came from in this call (upstream `CacheInfo`), for the load charge. */
export type CacheInfo = { kind: 'cachedObject' } | { kind: 'cachedValue' } | { kind: 'loaded'; bytes: number | null };

interface Fingerprint {
  owner: string;
  key: string;
  value: unknown;
}

/** A child in the store: `value` is `undefined` when it does not exist (never did, or was removed). */
export interface ChildEntry {
  owner: string;
  type: Type;
  key: string;
  value: unknown;
  /** `null`: nothing existed when first seen (upstream `ObjectFingerprint::Empty`). */
  fingerprint: Fingerprint | null;
  /**
   * Written through a reference, or removed and added back (upstream `GlobalDataStatus::Dirty`):
   * what counts as a change while `minimize_child_object_mutations` is off. Writes are seen only
   * then (the store watches the loaded value).
   */
  dirty: boolean;
}

interface CachedObject {
  key: string;
  bcs: Uint8Array;
  version: bigint;
}

/** End-of-transaction state of one child (upstream `ChildObjectEffect`). */
export interface ChildEffect {
  id: string;
  owner: string;
  type: Type;
  finalValue: unknown;
  changed: boolean;
}

/** Limits and hooks the store needs from its runtime. */
export interface ChildStoreConfig {
  provider: ChildObjectProvider | undefined;
  maxCachedObjects: () => number;
  maxStoreEntries: () => number;
  /** `true` when `id` was created in this transaction (a new parent has no children in storage). */
  isNew: (id: string) => boolean;
  /**
   * Feature flag `minimize_child_object_mutations` (default on): a child loaded from storage
   * counts as changed when its value differs at the end. Off (before protocol 76 on mainnet),
   * when it was written through a reference or removed, even if its value is the same.
   */
  minimizeMutations?: () => boolean;
}

/** Result of looking a child up with a type. */
export type FetchResult = { kind: 'mismatchedType' } | { kind: 'loaded'; cache: CacheInfo; entry: ChildEntry };

/** Upstream `SequenceNumber::MAX`, the root version of unsequenced config reads. */
export const SEQUENCE_NUMBER_MAX = 0x7fff_ffff_ffff_ffffn;

function storedKey(o: StoredObject, childId: string): string {
  try {
    return formatTypeTag(parseSuiTypeTag(o.type));
  } catch (e) {
    throw suiVmError('STORAGE_ERROR', `object ${childId} has an invalid type tag ${JSON.stringify(o.type)}: ${errorMessage(e)}`);
  }
}

/** The dynamic-field children of one transaction. */
export class ChildObjectStore {
  readonly store = new Map<string, ChildEntry>();
  readonly cached = new Map<string, CachedObject | null>();
  readonly rootVersion = new Map<string, bigint>();
  /** Wrapped UID → the object that holds it. */
  readonly wrappedContainers = new Map<string, string>();
  private readonly configCache = new Map<string, { config: string; key: string; value: unknown }>();

  constructor(private readonly config: ChildStoreConfig) {}

  /** Record the root version of an input object and the UIDs it contains. */
  addInput(id: string, version: bigint, containedUids: Iterable<string>): void {
    this.rootVersion.set(id, version);
    for (const uid of containedUids) {
      this.rootVersion.set(uid, version);
      if (uid !== id) this.wrappedContainers.set(uid, id);
    }
  }

  /** `inherit_root_version_from_parent` (derived objects). */
  inheritRootVersion(parent: string, id: string): void {
    const v = this.rootVersion.get(parent);
    if (v === undefined) return;
    const prev = this.rootVersion.get(id);
    if (prev !== undefined && prev !== v) throw invariantViolation(`Root version for ${parent} changed from ${prev} to ${v}`);
    this.rootVersion.set(id, v);
  }

  private fetchUnbounded(parent: string, child: string, rootVersion: bigint | undefined, hadRootVersion: boolean): CachedObject | null {
    const provider = this.config.provider;
    const found = provider === undefined ? undefined : provider(parent, child, rootVersion);
    if (found === undefined) return null;
    if (!hadRootVersion) throw suiVmError('STORAGE_ERROR', `A new parent ${parent} should not have a child object ${child}.`);
    const owner = found.owner;
    if (owner !== undefined && (owner.$kind !== 'ObjectOwner' || owner.address !== parent)) {
      throw suiVmError('STORAGE_ERROR', `Bad owner for ${child}. Expected owner ${parent} but found ${JSON.stringify(owner, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
    }
    return { key: storedKey(found, child), bcs: found.bcs, version: found.version };
  }

  /** Upstream `get_or_fetch_object_from_store`: ask the provider once per id. */
  private fromStorage(parent: string, child: string): { cache: CacheInfo; obj: CachedObject | null } {
    if (this.cached.has(child)) return { cache: { kind: 'cachedObject' }, obj: this.cached.get(child) ?? null };
    const count = this.cached.size;
    const rv = this.rootVersion.get(parent);
    // In a real transaction only new objects lack a root version; here a parent the caller
    // did not declare as an input is simply read at the latest version.
    const obj = this.fetchUnbounded(parent, child, rv, rv !== undefined || !this.config.isNew(parent));
    const lim = this.config.maxCachedObjects();
    if (count >= lim) {
      throw memoryLimitError(MemoryLimitSubStatus.OBJECT_RUNTIME_CACHE_LIMIT_EXCEEDED, `Object runtime cached objects limit (${lim} entries) reached`);
    }
    this.cached.set(child, obj);
    return { cache: { kind: 'loaded', bytes: obj === null ? null : obj.bcs.length }, obj };
  }

  /** `has_child_object`. */
  exists(parent: string, child: string): { cache: CacheInfo; exists: boolean } {
    const e = this.store.get(child);
    if (e !== undefined) return { cache: { kind: 'cachedValue' }, exists: e.value !== undefined };
    const { cache, obj } = this.fromStorage(parent, child);
    return { cache, exists: obj !== null };
  }

  /** `has_child_object_with_ty`. */
  existsWithType(parent: string, child: string, type: Type): { cache: CacheInfo; exists: boolean } {
    const key = typeKey(type);
    const e = this.store.get(child);
    if (e !== undefined) return { cache: { kind: 'cachedValue' }, exists: e.value !== undefined && e.key === key };
    const { cache, obj } = this.fromStorage(parent, child);
    return { cache, exists: obj !== null && obj.key === key };
  }

  private checkStoreLimit(): void {
    const lim = this.config.maxStoreEntries();
    if (this.store.size >= lim) {
      throw memoryLimitError(MemoryLimitSubStatus.OBJECT_RUNTIME_STORE_LIMIT_EXCEEDED, `Object runtime store limit (${lim} entries) reached`);
    }
  }

  /** Upstream `get_or_fetch_object`: the child in the store, loading it from storage the first time. */
  getOrFetch(parent: string, child: string, type: Type, env: ValueEnv): FetchResult {
    const key = typeKey(type);
    const hit = this.store.get(child);
    if (hit !== undefined) return hit.key === key ? { kind: 'loaded', cache: { kind: 'cachedValue' }, entry: hit } : { kind: 'mismatchedType' };
    const count = this.store.size;
    const { cache, obj } = this.fromStorage(parent, child);
    let entry: ChildEntry;
    if (obj === null) {
      entry = { owner: parent, type, key, value: undefined, fingerprint: null, dirty: false };
    } else {
      if (obj.key !== key) return { kind: 'mismatchedType' };
      let value: unknown;
      try {
        value = env.bcs.decode(obj.bcs, type);
      } catch {
        throw suiVmError('FAILED_TO_DESERIALIZE_RESOURCE', `Failed to deserialize object ${child} with type ${key}`);
      }
      const rv = this.rootVersion.get(parent);
      if (rv !== undefined) {
        for (const id of collectUids(env.types, value, type)) {
          this.rootVersion.set(id, rv);
          if (id !== child) this.wrappedContainers.set(id, child);
        }
      }
      entry = { owner: parent, type, key, value, fingerprint: { owner: parent, key, value: copyValue(value) }, dirty: false };
      if (!this.minimizeMutations()) watchWrites(value, entry, this);
    }
    const lim = this.config.maxStoreEntries();
    if (count >= lim) {
      throw memoryLimitError(MemoryLimitSubStatus.OBJECT_RUNTIME_STORE_LIMIT_EXCEEDED, `Object runtime store limit (${lim} entries) reached`);
    }
    this.store.set(child, entry);
    return { kind: 'loaded', cache, entry };
  }

  /** `add_child_object`: the child (moved in) becomes a child of `parent`. */
  add(parent: string, child: string, type: Type, value: unknown): void {
    this.checkStoreLimit();
    const prev = this.store.get(child);
    if (prev !== undefined && prev.value !== undefined) {
      throw invariantViolation(
        'Duplicate addition of a child object. The previous value cannot be dropped. Indicates possible duplication of objects as an object was fetched more than once from two different parents, yet was not removed from one first',
      );
    }
    this.store.delete(child);
    const fingerprint = prev === undefined ? null : prev.fingerprint;
    this.store.set(child, { owner: parent, type, key: typeKey(type), value, fingerprint, dirty: fingerprint !== null });
  }

  /**
   * Upstream `config_setting_unsequenced_read`: the setting field read from storage at the
   * latest version (never from this transaction's writes), cached per field id. Any
   * problem reading it (missing, wrong type, undecodable) reads as `undefined`.
   */
  readConfigSetting(config: string, field: string, type: Type, env: ValueEnv): unknown {
    const key = typeKey(type);
    const hit = this.configCache.get(field);
    if (hit !== undefined) {
      if (hit.key !== key) return undefined;
      if (hit.config !== config) throw invariantViolation(`Parent for config setting changed. Potential hash collision? parent: ${config}, child: ${field}`);
      return copyValue(hit.value);
    }
    let obj: CachedObject | null;
    try {
      obj = this.fetchUnbounded(config, field, SEQUENCE_NUMBER_MAX, true);
    } catch {
      return undefined;
    }
    if (obj === null) return undefined;
    let value: unknown;
    try {
      value = env.bcs.decode(obj.bcs, type);
    } catch {
      return undefined;
    }
    this.configCache.set(field, { config, key, value });
    return copyValue(value);
  }

  private minimizeMutations(): boolean {
    return this.config.minimizeMutations?.() ?? true;
  }

  /** The transaction is over: its values need no write watch any more (see `write-watch.ts`). */
  release(): void {
    releaseWrites(this);
  }

  /**
   * The end state of every child in the store (upstream `take_effects`, without consuming):
   * with `minimize_child_object_mutations`, a child from storage changed when its owner, type or
   * value differ (`ObjectFingerprint`); without it, when it is dirty (the VM's global value effect).
   */
  effects(): ChildEffect[] {
    const ids = [...this.store.keys()].sort();
    const minimize = this.minimizeMutations();
    return ids.map((id) => {
      const e = this.store.get(id) as ChildEntry;
      const fp = e.fingerprint;
      const changed = fp === null ? e.value !== undefined : e.value === undefined || (minimize ? fp.owner !== e.owner || fp.key !== e.key || !valuesEqual(fp.value, e.value) : e.dirty);
      return { id, owner: e.owner, type: e.type, finalValue: e.value, changed };
    });
  }
}

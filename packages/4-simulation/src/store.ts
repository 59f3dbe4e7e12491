/**
 * The object store of a simulation: every live object (Move objects and packages) by id,
 * at its current version. Dynamic-field children are ordinary objects owned by their
 * parent (`ObjectOwner`), as on chain, so they persist with everything else.
 */
import { canonicalAddress } from '@smi/bytecode';
import type { ExecutionResult, ObjectStore, SuiObject } from '@smi/ptb';

/** The first index of `sorted` whose id is not below `id`. */
function lowerBound(sorted: readonly string[], id: string): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Version of an object (Move object or package). */
export function versionOf(o: SuiObject): bigint {
  return o.data.$kind === 'Move' ? o.data.Move.version : o.data.Package.version;
}

/** An in-memory {@link ObjectStore} that applies transaction results. */
export class InMemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, SuiObject>();
  /**
   * The ids in order, kept up to date as ids come and go, or `null` until {@link entries}
   * sorts them: states are captured after every request of a benchmark, and sorting every id
   * each time cost more than keeping them sorted (most requests only replace objects).
   */
  private sorted: string[] | null = null;
  private readonly childMissObservers = new Set<(parent: string, child: string, versionBound?: bigint) => void>();

  getObject(id: string): SuiObject | undefined {
    // Keys are canonical: a canonical id is found as it is, any other spelling after canonicalizing.
    return this.objects.get(id) ?? this.objects.get(canonicalAddress(id));
  }

  getChild(parent: string, child: string, versionBound?: bigint): SuiObject | undefined {
    const o = this.objects.get(canonicalAddress(child));
    if (o === undefined) {
      for (const observe of this.childMissObservers) observe(canonicalAddress(parent), canonicalAddress(child), versionBound);
      return undefined;
    }
    // A child is readable through its parent only while the parent owns it.
    if (o.owner.$kind !== 'ObjectOwner' || o.owner.ObjectOwner !== canonicalAddress(parent)) return undefined;
    return o;
  }

  /**
   * Hear of every child lookup (a dynamic field read at run time) that finds no object at
   * all, until the returned function is called: what a caller able to fetch children may add.
   */
  observeChildMisses(observer: (parent: string, child: string, versionBound?: bigint) => void): () => void {
    this.childMissObservers.add(observer);
    return () => {
      this.childMissObservers.delete(observer);
    };
  }

  /** Insert or replace an object. */
  put(id: string, object: SuiObject): void {
    this.set(canonicalAddress(id), object);
  }

  /** Remove an object; `true` when it existed. */
  delete(id: string): boolean {
    return this.remove(canonicalAddress(id));
  }

  /** Every change of the map goes through `set` and `remove`, which keep {@link sorted}. */
  private set(k: string, o: SuiObject): void {
    if (this.sorted !== null && !this.objects.has(k)) this.sorted.splice(lowerBound(this.sorted, k), 0, k);
    this.objects.set(k, o);
  }

  private remove(k: string): boolean {
    if (!this.objects.delete(k)) return false;
    if (this.sorted !== null) this.sorted.splice(lowerBound(this.sorted, k), 1);
    return true;
  }

  has(id: string): boolean {
    return this.objects.has(canonicalAddress(id));
  }

  get size(): number {
    return this.objects.size;
  }

  /** Every object, sorted by id. */
  entries(): [string, SuiObject][] {
    this.sorted ??= [...this.objects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return this.sorted.map((id) => [id, this.objects.get(id) as SuiObject]);
  }

  /** Objects owned by `parent` (its dynamic fields and dynamic object fields' wrappers). */
  childrenOf(parent: string): [string, SuiObject][] {
    const p = canonicalAddress(parent);
    return this.entries().filter(([, o]) => o.owner.$kind === 'ObjectOwner' && o.owner.ObjectOwner === p);
  }

  clear(): void {
    this.objects.clear();
    this.sorted = [];
  }

  /**
   * Make the store hold exactly `base` and, over it, `objects` (a state's, as `captureState`
   * gives them): the same as {@link replaceAll}, faster when `objects` has canonical ids in
   * increasing order, none of them `base`'s (`isBase`) — then only the entries that differ are
   * touched (no canonical forms computed, no map of the whole state built).
   */
  restore(base: readonly (readonly [string, SuiObject])[], objects: readonly (readonly [string, SuiObject])[], isBase: (id: string) => boolean): void {
    for (const [id, o] of base) {
      const k = canonicalAddress(id);
      if (this.objects.get(k) !== o) this.set(k, o);
    }
    // Checked while applied (an id found in the store is canonical; a new one is checked):
    // on the first id out of order, of the base, or not canonical, `replaceAll` makes it right.
    let prev = '';
    for (const [id, o] of objects) {
      if (!(id > prev) || isBase(id)) return this.replaceAll(base, objects);
      prev = id;
      const current = this.objects.get(id);
      if (current === o) continue;
      if (current === undefined && canonicalAddress(id) !== id) return this.replaceAll(base, objects);
      this.set(id, o);
    }
    if (this.objects.size === base.length + objects.length) return;
    const ids = new Set(objects.map(([id]) => id));
    for (const id of this.objects.keys()) if (!ids.has(id) && !isBase(id)) this.remove(id);
  }

  /**
   * Make the store hold exactly the objects of `layers` (a later layer's object replaces an
   * earlier one's of the same id): as `clear` then `put` of each, but touching only the
   * entries that differ, since a state put back is mostly what the store already holds.
   */
  replaceAll(...layers: readonly (readonly (readonly [string, SuiObject])[])[]): void {
    const target = new Map<string, SuiObject>();
    for (const layer of layers) for (const [id, o] of layer) target.set(canonicalAddress(id), o);
    for (const id of this.objects.keys()) if (!target.has(id)) this.remove(id);
    for (const [id, o] of target) if (this.objects.get(id) !== o) this.set(id, o);
  }

  /**
   * Apply a transaction's result: written objects replace their old state; deleted and
   * wrapped objects leave the store. (A failed transaction writes only its gas coin and
   * the inputs it must bump.)
   */
  apply(result: ExecutionResult): void {
    for (const w of result.written) this.put(w.id, w.object);
    for (const id of result.deleted) this.delete(id);
    for (const id of result.wrapped) this.delete(id);
  }
}

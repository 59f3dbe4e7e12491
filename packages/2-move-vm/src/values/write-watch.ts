/**
 * Write watch on containers, for the dirty bit of values loaded from storage (upstream
 * `GlobalDataStatus` of the Move VM before Sui's `minimize_child_object_mutations`: a
 * `borrow_global` reference carries its value's status, and any write through it or a
 * reference derived from it, `WriteRef` or a vector push, pop or swap, marks the value
 * dirty, even when the write leaves it as it was).
 *
 * {@link watchWrites} registers every container of a value; the interpreter and the vector
 * natives call {@link noteWrite} on the container they change. Nothing is watched until a
 * value is registered, and then a write costs one `WeakMap` lookup. A write can only bring a
 * new container into a watched value by being a write to it, so the registration made when
 * the value is loaded stays complete until the value is dirty.
 *
 * Registrations belong to an owner (a transaction's child store). Once every owner that
 * registered values called {@link releaseWrites} (or was garbage-collected), the watch is
 * dropped and writes cost nothing again.
 */
import { SlotRef, VariantValue, VecElemRef } from './value.js';
import { MoveVector, VecKind } from './vector.js';

/** The dirty bit of one watched value. */
export interface WriteWatcher {
  dirty: boolean;
}

let watched: WeakMap<object, WriteWatcher> | null = null;
/** Owners with registrations not released yet. */
const owners = new WeakSet<object>();
let ownerCount = 0;

function release(): void {
  if (--ownerCount === 0) watched = null;
}

const collected = new FinalizationRegistry<undefined>(release);

/**
 * Watch every container of `value` (struct, enum and its fields, vector) for `owner`: a
 * write to one sets `watcher.dirty`.
 */
export function watchWrites(value: unknown, watcher: WriteWatcher, owner: object): void {
  if (typeof value !== 'object' || value === null) return;
  if (!owners.has(owner)) {
    owners.add(owner);
    ownerCount++;
    collected.register(owner, undefined, owner);
  }
  const map = (watched ??= new WeakMap<object, WriteWatcher>());
  const stack: object[] = [value];
  for (let c = stack.pop(); c !== undefined; c = stack.pop()) {
    map.set(c, watcher);
    let items: readonly unknown[] | undefined;
    if (Array.isArray(c)) items = c;
    else if (c instanceof VariantValue) {
      map.set(c.fields, watcher);
      items = c.fields;
    } else if (c instanceof MoveVector && c.kind === VecKind.Boxed) items = (c.data as unknown[]).slice(0, c.length);
    if (items === undefined) continue;
    for (const x of items) if (typeof x === 'object' && x !== null) stack.push(x);
  }
}

/** `owner` needs its watched values no more (its transaction is over). */
export function releaseWrites(owner: object): void {
  if (!owners.has(owner)) return;
  owners.delete(owner);
  collected.unregister(owner);
  release();
}

/** Whether any value is watched (writes pay a lookup). */
export function watchingWrites(): boolean {
  return watched !== null;
}

/** Record a write to `container` (a struct's or enum's field array, a vector, an enum). */
export function noteWrite(container: object): void {
  if (watched === null) return;
  const w = watched.get(container);
  if (w !== undefined) w.dirty = true;
}

/** Record a write through reference `r` (see {@link noteWrite}). */
export function noteWriteRef(r: unknown): void {
  if (watched === null) return;
  if (r instanceof SlotRef) noteWrite(r.arr);
  else if (r instanceof VecElemRef) noteWrite(r.vec);
  else if (typeof r === 'object' && r !== null) noteWrite(r);
}

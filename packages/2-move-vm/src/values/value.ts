/**
 * Runtime values and references.
 *
 * | Move type | JS value |
 * |---|---|
 * | bool | `boolean` |
 * | u8, u16, u32 | `number` |
 * | u64, u128, u256 | `bigint` |
 * | address, signer | `string` (`0x` + 64 lowercase hex) |
 * | struct | `unknown[]` (its fields; a mutable container) |
 * | enum | {@link VariantValue} (a mutable container) |
 * | vector | {@link MoveVector} (a mutable container) |
 *
 * A reference to a container (struct, enum, vector) is the container itself: writes
 * through it change the container in place, so every holder sees them. A reference to
 * a primitive is a {@link SlotRef} (a local or a field) or a {@link VecElemRef} (a vector
 * element).
 */
import { MoveVector, VecKind } from './vector.js';

/** An enum value: the variant's tag and its fields. */
export class VariantValue {
  tag: number;
  fields: unknown[];

  constructor(tag: number, fields: unknown[]) {
    this.tag = tag;
    this.fields = fields;
  }
}

/** Reference to a primitive held in an array slot: a local, or a struct/variant field. */
export class SlotRef {
  readonly arr: unknown[];
  readonly i: number;

  constructor(arr: unknown[], i: number) {
    this.arr = arr;
    this.i = i;
  }
}

/** Reference to a primitive element of a vector. */
export class VecElemRef {
  readonly vec: MoveVector;
  readonly i: number;

  constructor(vec: MoveVector, i: number) {
    this.vec = vec;
    this.i = i;
  }
}

/** A struct value: its fields in declaration order. */
export type StructValue = unknown[];

/** Reference to `holder[i]`: the container itself when the slot holds one, else a {@link SlotRef}. */
export function borrowSlot(holder: unknown[], i: number): unknown {
  const v = holder[i];
  return typeof v === 'object' && v !== null ? v : new SlotRef(holder, i);
}

/** Reference to element `i` of a vector (bounds checked by the caller). */
export function borrowElement(vec: MoveVector, i: number): unknown {
  if (vec.kind === VecKind.Boxed) {
    const v = (vec.data as unknown[])[i];
    if (typeof v === 'object' && v !== null) return v;
  }
  return new VecElemRef(vec, i);
}

/** Deep copy (containers are copied, primitives returned as they are). */
export function copyValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyValue(v[i]);
    return out;
  }
  if (v instanceof MoveVector) {
    if (v.kind === VecKind.Boxed) {
      const src = v.data as unknown[];
      const data = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) data[i] = copyValue(src[i]);
      return new MoveVector(VecKind.Boxed, data, v.length);
    }
    return new MoveVector(v.kind, v.data.slice(0, v.length), v.length);
  }
  if (v instanceof VariantValue) {
    const out = new Array<unknown>(v.fields.length);
    for (let i = 0; i < v.fields.length; i++) out[i] = copyValue(v.fields[i]);
    return new VariantValue(v.tag, out);
  }
  return v;
}

/** Value behind a reference (a copy for containers). */
export function readRef(r: unknown): unknown {
  if (r instanceof SlotRef) return r.arr[r.i];
  if (r instanceof VecElemRef) return r.vec.get(r.i);
  return copyValue(r);
}

/** The referenced value without copying (for comparisons and natives that only read). */
export function peekRef(r: unknown): unknown {
  if (r instanceof SlotRef) return r.arr[r.i];
  if (r instanceof VecElemRef) return r.vec.get(r.i);
  return r;
}

/** Write `v` (consumed) through reference `r`. */
export function writeRef(r: unknown, v: unknown): void {
  if (r instanceof SlotRef) {
    r.arr[r.i] = v;
  } else if (r instanceof VecElemRef) {
    r.vec.set(r.i, v);
  } else if (Array.isArray(r)) {
    const src = v as unknown[];
    for (let i = 0; i < src.length; i++) r[i] = src[i];
  } else if (r instanceof MoveVector) {
    r.assign(v as MoveVector);
  } else if (r instanceof VariantValue) {
    const src = v as VariantValue;
    r.tag = src.tag;
    r.fields = src.fields;
  } else {
    throw new TypeError('write through a value that is not a reference');
  }
}

/** Structural equality of two values of the same type. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], bb[i])) return false;
    return true;
  }
  if (a instanceof MoveVector) {
    const bb = b as MoveVector;
    if (a.length !== bb.length) return false;
    if (a.kind === VecKind.Boxed) {
      const x = a.data as unknown[];
      const y = bb.data as unknown[];
      for (let i = 0; i < a.length; i++) if (!valuesEqual(x[i], y[i])) return false;
      return true;
    }
    const x = a.data as Uint8Array;
    const y = bb.data as Uint8Array;
    for (let i = 0; i < a.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  if (a instanceof VariantValue) {
    const bb = b as VariantValue;
    return a.tag === bb.tag && valuesEqual(a.fields, bb.fields);
  }
  return false;
}

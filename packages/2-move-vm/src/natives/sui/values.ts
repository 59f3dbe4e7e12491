/**
 * Helpers over runtime values for the Sui natives: abstract sizes (what the natives'
 * per-byte costs and the event size limit measure), object ids inside values, and
 * `Option<T>` values.
 */
import { canonicalAddress } from '@smi/bytecode';
import { fieldType, vecKindOf } from '../../values/bcs.js';
import { type VariantValue, peekRef } from '../../values/value.js';
import { MoveVector } from '../../values/vector.js';
import { type DatatypeInfo, type Type, TypeKind, type TypeTable } from '../../types/runtime-type.js';
import { invariantViolation } from './errors.js';

const SUI = canonicalAddress('0x2');
const HEADER = 2;
const REFERENCE = 8;

/** Scalar sizes (fine-grained, as the current VM measures): u8..u64 and bool 8, u128 16, u256 32, address 32. */
function scalarSize(kind: number): number {
  switch (kind) {
    case TypeKind.U128:
      return 16;
    case TypeKind.U256:
    case TypeKind.Address:
    case TypeKind.Signer:
      return 32;
    default:
      return 8;
  }
}

/** Element width of a specialised primitive vector (`size_of::<T>()`). */
function elementWidth(kind: number): number | null {
  switch (kind) {
    case TypeKind.U8:
    case TypeKind.Bool:
      return 1;
    case TypeKind.U16:
      return 2;
    case TypeKind.U32:
      return 4;
    case TypeKind.U64:
      return 8;
    case TypeKind.U128:
      return 16;
    case TypeKind.U256:
    case TypeKind.Address:
      return 32;
    default:
      return null;
  }
}

/**
 * `abstract_memory_size` of a value of type `t` with vector headers counted (the natives'
 * `abstract_size`): scalars 8/16/32, address 32, struct or variant 2 + fields, primitive
 * vector 2 + length × width, other vectors 2 + elements. A reference (`t` a reference
 * type) is 8, plus the referenced value when `traverseReferences`.
 */
export function abstractSize(table: TypeTable, value: unknown, t: Type, traverseReferences = false): number {
  switch (t.kind) {
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return REFERENCE + (traverseReferences ? abstractSize(table, peekRef(value), t.elem as Type) : 0);
    case TypeKind.Vector: {
      const v = value as MoveVector;
      const elem = t.elem as Type;
      const w = elementWidth(elem.kind);
      if (w !== null) return HEADER + v.length * w;
      let n = HEADER;
      for (let i = 0; i < v.length; i++) n += abstractSize(table, v.get(i), elem);
      return n;
    }
    case TypeKind.Datatype: {
      const d = t.datatype as DatatypeInfo;
      if (d.isEnum) {
        const e = value as VariantValue;
        const fields = d.variants()[e.tag].fields;
        let n = HEADER;
        for (let i = 0; i < fields.length; i++) n += abstractSize(table, e.fields[i], fieldType(table, t, fields[i].type));
        return n;
      }
      const s = value as unknown[];
      const fields = d.fields();
      let n = HEADER;
      for (let i = 0; i < fields.length; i++) n += abstractSize(table, s[i], fieldType(table, t, fields[i].type));
      return n;
    }
    default:
      return scalarSize(t.kind);
  }
}

/** `true` for `0x2::object::UID`. */
function isUidType(t: Type): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === SUI && d.module === 'object' && d.name === 'UID';
}

/** The id of an object value (`Object { id: UID { id: ID { bytes } } }`: field 0, three times). */
export function objectIdOf(obj: unknown): string {
  const v = peekRef(obj);
  if (!Array.isArray(v)) throw invariantViolation('an object value must be a struct');
  const uid = v[0];
  if (!Array.isArray(uid) || !Array.isArray(uid[0]) || typeof uid[0][0] !== 'string') throw invariantViolation('an object must start with a UID');
  return uid[0][0];
}

/** The address inside a `UID` (or a reference to one). */
export function uidAddress(uid: unknown): string {
  const v = peekRef(uid);
  if (!Array.isArray(v) || !Array.isArray(v[0]) || typeof v[0][0] !== 'string') throw invariantViolation('expected a UID');
  return v[0][0];
}

/** The address inside an `ID`. */
export function idAddress(id: unknown): string {
  const v = peekRef(id);
  if (!Array.isArray(v) || typeof v[0] !== 'string') throw invariantViolation('expected an ID');
  return v[0];
}

/** Every `UID` inside a value (upstream `get_all_uids`): the ids of the object and of the objects it wraps. */
export function collectUids(table: TypeTable, value: unknown, t: Type, out: Set<string> = new Set()): Set<string> {
  switch (t.kind) {
    case TypeKind.Vector: {
      const elem = t.elem as Type;
      if (elem.kind !== TypeKind.Datatype && elem.kind !== TypeKind.Vector) return out;
      const v = value as MoveVector;
      for (let i = 0; i < v.length; i++) collectUids(table, v.get(i), elem, out);
      return out;
    }
    case TypeKind.Datatype: {
      if (isUidType(t)) {
        out.add(uidAddress(value));
        return out;
      }
      const d = t.datatype as DatatypeInfo;
      if (d.isEnum) {
        const e = value as VariantValue;
        const fields = d.variants()[e.tag].fields;
        for (let i = 0; i < fields.length; i++) collectUids(table, e.fields[i], fieldType(table, t, fields[i].type), out);
        return out;
      }
      const s = value as unknown[];
      const fields = d.fields();
      for (let i = 0; i < fields.length; i++) collectUids(table, s[i], fieldType(table, t, fields[i].type), out);
      return out;
    }
    default:
      return out;
  }
}

/** `Option<T>` with no value (`Option { vec: vector[] }`). */
export function optionNone(elem: Type): unknown[] {
  return [MoveVector.empty(vecKindOf(elem))];
}

/** The value inside an `Option<T>`, or `undefined` for none. */
export function optionValue(opt: unknown): unknown {
  const v = peekRef(opt);
  if (!Array.isArray(v) || !(v[0] instanceof MoveVector)) throw invariantViolation('expected an Option');
  const vec = v[0];
  if (vec.length === 0) return undefined;
  if (vec.length !== 1) throw invariantViolation('vector expected to have one element');
  return vec.get(0);
}

/** An `address` argument (the value behind a reference, or the value). */
export function argAddress(a: unknown): string {
  const v = peekRef(a);
  if (typeof v !== 'string') throw invariantViolation('expected an address argument');
  return v;
}

/** A `u64` argument. */
export function argU64(a: unknown): bigint {
  const v = peekRef(a);
  if (typeof v !== 'bigint') throw invariantViolation('expected a u64 argument');
  return v;
}

/** A `vector<u8>` argument's bytes. */
export function argBytes(a: unknown): Uint8Array {
  const v = peekRef(a);
  if (!(v instanceof MoveVector)) throw invariantViolation('expected a vector<u8> argument');
  return v.bytes();
}

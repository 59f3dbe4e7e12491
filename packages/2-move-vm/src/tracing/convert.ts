/**
 * Conversion of runtime types and values to the trace format: type tags (`"u64"`,
 * `{"struct": ...}`), `TypeTagWithRefs`, and annotated values (`{"type": "Struct",
 * "value": {"type_": ..., "fields": [[name, value], ...]}}`), driven by the runtime type.
 */
import { type DatatypeInfo, primitiveName, type Type, TypeKind, type TypeTable } from '../types/runtime-type.js';
import { VariantValue } from '../values/value.js';
import { MoveVector } from '../values/vector.js';
import type { TraceMoveValue, TraceRefType, TraceStructTag, TraceTypeTag, TraceTypeTagWithRefs } from './format.js';

/** `0x` + 64 hex → 64 hex (the format's address spelling). */
export function bareAddress(a: string): string {
  const s = a.startsWith('0x') || a.startsWith('0X') ? a.slice(2) : a;
  return s.toLowerCase().padStart(64, '0');
}

/** `true` for `&T` and `&mut T`. */
export function isRefType(t: Type): boolean {
  return t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference;
}

/** The reference kind of a type (`null` for values). */
export function refKindOf(t: Type): TraceRefType | null {
  if (t.kind === TypeKind.Reference) return 'Imm';
  if (t.kind === TypeKind.MutableReference) return 'Mut';
  return null;
}

/**
 * Struct tag of a datatype type. The address is the datatype's defining id (the package
 * version that introduced it), as the VM's type tags have it; it equals the module's
 * address unless the type was added by a package upgrade.
 */
export function structTagOf(t: Type): TraceStructTag {
  const d = t.datatype as DatatypeInfo;
  return { address: bareAddress(d.definingId), module: d.module, name: d.name, type_args: t.typeArgs.map(typeTagOf) };
}

/** Type tag of a (non-reference, fully instantiated) type. */
export function typeTagOf(t: Type): TraceTypeTag {
  const prim = primitiveName(t);
  if (prim !== undefined) return prim as TraceTypeTag;
  switch (t.kind) {
    case TypeKind.Vector:
      return { vector: typeTagOf(t.elem as Type) };
    case TypeKind.Datatype:
      return { struct: structTagOf(t) };
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return typeTagOf(t.elem as Type);
    default:
      throw new TypeError(`type parameter T${t.index} in a trace type tag`);
  }
}

/** `TypeTagWithRefs` of a type (references split into the referenced type and the kind). */
export function typeTagWithRefs(t: Type): TraceTypeTagWithRefs {
  const ref = refKindOf(t);
  return { type_: typeTagOf(ref === null ? t : (t.elem as Type)), ref_type: ref };
}

const INT_NAMES: Readonly<Record<number, 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256'>> = {
  [TypeKind.U8]: 'U8',
  [TypeKind.U16]: 'U16',
  [TypeKind.U32]: 'U32',
  [TypeKind.U64]: 'U64',
  [TypeKind.U128]: 'U128',
  [TypeKind.U256]: 'U256',
};

/**
 * A u256 as upstream's trace writes it: move-core-types' `U256` serializes as its 32 bytes,
 * little-endian (a JSON array of 32 numbers), where the narrower integers are numbers.
 */
export function u256Bytes(v: bigint): number[] {
  if (v < 0n || v >= 1n << 256n) throw new TypeError(`${v} is not a u256`);
  const out: number[] = [];
  for (let i = 0; i < 32; i++) {
    out.push(Number(v & 0xffn));
    v >>= 8n;
  }
  return out;
}

function fieldsOf(table: TypeTable, names: readonly { name: string; type: Type }[], args: readonly Type[], values: readonly unknown[]): [string, TraceMoveValue][] {
  const out: [string, TraceMoveValue][] = [];
  for (let i = 0; i < names.length; i++) {
    out.push([names[i].name, traceValueOf(table, values[i], table.subst(names[i].type, args))]);
  }
  return out;
}

/**
 * Annotated value of runtime value `v` of type `t` (a value type; for a reference type
 * the referenced value must be passed, with `t` its target).
 * @throws {TypeError} when the value does not fit the type.
 */
export function traceValueOf(table: TypeTable, v: unknown, t: Type): TraceMoveValue {
  switch (t.kind) {
    case TypeKind.Bool:
      return { type: 'Bool', value: v === true };
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
    case TypeKind.U64:
    case TypeKind.U128: {
      if (typeof v !== 'number' && typeof v !== 'bigint') throw new TypeError(`expected an integer for ${INT_NAMES[t.kind]}, got ${typeof v}`);
      return { type: INT_NAMES[t.kind] as 'U8' | 'U16' | 'U32' | 'U64' | 'U128', value: v };
    }
    case TypeKind.U256: {
      if (typeof v !== 'number' && typeof v !== 'bigint') throw new TypeError(`expected an integer for U256, got ${typeof v}`);
      return { type: 'U256', value: u256Bytes(BigInt(v)) };
    }
    case TypeKind.Address:
    case TypeKind.Signer:
      if (typeof v !== 'string') throw new TypeError(`expected an address, got ${typeof v}`);
      return { type: 'Address', value: bareAddress(v) };
    case TypeKind.Vector: {
      if (!(v instanceof MoveVector)) throw new TypeError('expected a vector');
      const elem = t.elem as Type;
      const out: TraceMoveValue[] = [];
      for (let i = 0; i < v.length; i++) out.push(traceValueOf(table, v.get(i), elem));
      return { type: 'Vector', value: out };
    }
    case TypeKind.Datatype: {
      const d = t.datatype as DatatypeInfo;
      if (d.isEnum) {
        if (!(v instanceof VariantValue)) throw new TypeError(`expected a variant of ${d.name}`);
        const variant = d.variants()[v.tag];
        return {
          type: 'Variant',
          value: { type_: structTagOf(t), variant_name: variant.name, tag: v.tag, fields: fieldsOf(table, variant.fields, t.typeArgs, v.fields) },
        };
      }
      if (!Array.isArray(v)) throw new TypeError(`expected a struct ${d.name}`);
      return { type: 'Struct', value: { type_: structTagOf(t), fields: fieldsOf(table, d.fields(), t.typeArgs, v) } };
    }
    default:
      throw new TypeError(`cannot annotate a value of type kind ${t.kind}`);
  }
}

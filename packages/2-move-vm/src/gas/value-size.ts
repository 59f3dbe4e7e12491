/**
 * Abstract memory size (`abstract-size.ts`) of the interpreter's runtime values, walked
 * with their type: the VM stores every integer up to u32 as a number and u64 and wider as
 * a bigint, and `vector<u128>` like a vector of structs, so only the type says which
 * scalar or specialised vector upstream sees.
 */
import { type Type, TypeKind, type TypeTable } from '../types/runtime-type.js';
import { peekRef, VariantValue } from '../values/value.js';
import type { MoveVector } from '../values/vector.js';
import {
  ADDRESS_SIZE,
  LEGACY_CONST_SIZE,
  LEGACY_VARIANT_TAG_SIZE,
  PRIM_VEC_ELEMENT_WIDTH,
  type PrimKind,
  primSize,
  type SizeConfig,
  VALUE_HEADER_SIZE,
  VALUE_REFERENCE_SIZE,
} from './abstract-size.js';

const PRIM_KIND: readonly (PrimKind | undefined)[] = (() => {
  const k: (PrimKind | undefined)[] = [];
  k[TypeKind.Bool] = 'bool';
  k[TypeKind.U8] = 'u8';
  k[TypeKind.U16] = 'u16';
  k[TypeKind.U32] = 'u32';
  k[TypeKind.U64] = 'u64';
  k[TypeKind.U128] = 'u128';
  k[TypeKind.U256] = 'u256';
  k[TypeKind.Address] = 'address';
  k[TypeKind.Signer] = 'address';
  return k;
})();

/** The sizes of a datatype value's fields (its variant's, for an enum), by `sizeOf`. */
function fieldsSize(types: TypeTable, value: unknown, type: Type, sizeOf: (v: unknown, t: Type) => number): number {
  const info = type.datatype;
  if (info === null) return 0;
  const variant = value instanceof VariantValue;
  const fields: readonly unknown[] = variant ? value.fields : (value as unknown[]);
  const declared = variant ? info.variants()[value.tag].fields : info.fields();
  let total = 0;
  for (let i = 0; i < declared.length; i++) total += sizeOf(fields[i], types.subst(declared[i].type, type.typeArgs));
  return total;
}

/** `abstract_memory_size(config)` of runtime value `value` of type `type`. */
export function runtimeValueSize(types: TypeTable, value: unknown, type: Type, config: SizeConfig): number {
  const prim = PRIM_KIND[type.kind];
  if (prim !== undefined) return prim === 'address' ? ADDRESS_SIZE : primSize(prim, config);
  switch (type.kind) {
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return VALUE_REFERENCE_SIZE + (config.traverseReferences ? runtimeValueSize(types, peekRef(value), type.elem as Type, config) : 0);
    case TypeKind.Vector: {
      const v = value as MoveVector;
      const elem = type.elem as Type;
      const elemPrim = PRIM_KIND[elem.kind];
      if (elemPrim !== undefined && elem.kind !== TypeKind.Signer) {
        return (config.includeVectorSize ? VALUE_HEADER_SIZE : 0) + v.length * PRIM_VEC_ELEMENT_WIDTH[elemPrim];
      }
      let total = VALUE_HEADER_SIZE;
      for (let i = 0; i < v.length; i++) total += runtimeValueSize(types, v.get(i), elem, config);
      return total;
    }
    case TypeKind.Datatype:
      return VALUE_HEADER_SIZE + fieldsSize(types, value, type, (v, t) => runtimeValueSize(types, v, t, config));
    default:
      return 0;
  }
}

/**
 * The old VM's `Value::legacy_size` of runtime value `value` of type `type` (see
 * `legacyValueSize`): scalars 16, address 32, struct 2 + fields, variant 4 + fields, vector
 * of non-primitives 2 + elements, primitive vector length × width, reference 8.
 */
export function legacyRuntimeValueSize(types: TypeTable, value: unknown, type: Type): number {
  const prim = PRIM_KIND[type.kind];
  if (prim !== undefined) return prim === 'address' ? ADDRESS_SIZE : LEGACY_CONST_SIZE;
  switch (type.kind) {
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return VALUE_REFERENCE_SIZE;
    case TypeKind.Vector: {
      const v = value as MoveVector;
      const elem = type.elem as Type;
      const elemPrim = PRIM_KIND[elem.kind];
      if (elemPrim !== undefined && elem.kind !== TypeKind.Signer) return v.length * PRIM_VEC_ELEMENT_WIDTH[elemPrim];
      let total = VALUE_HEADER_SIZE;
      for (let i = 0; i < v.length; i++) total += legacyRuntimeValueSize(types, v.get(i), elem);
      return total;
    }
    case TypeKind.Datatype:
      // A variant also has its tag.
      return VALUE_HEADER_SIZE + (value instanceof VariantValue ? LEGACY_VARIANT_TAG_SIZE : 0) + fieldsSize(types, value, type, (v, t) => legacyRuntimeValueSize(types, v, t));
    default:
      return 0;
  }
}

/**
 * Whether every value of `type` has the same abstract size under any configuration:
 * scalars and structs of such fields (references when what they point to is). Vectors,
 * enums and type parameters depend on the value or the instantiation.
 */
export function isStaticallySized(type: Type): boolean {
  if (PRIM_KIND[type.kind] !== undefined) return true;
  switch (type.kind) {
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return isStaticallySized(type.elem as Type);
    case TypeKind.Datatype: {
      const info = type.datatype;
      if (info === null || info.isEnum) return false;
      // Field types in terms of the struct's own parameters: a generic field is sized by its instantiation.
      return info.fields().every((f) => f.type.kind !== TypeKind.TypeParameter && isStaticallySized(f.type)) && type.typeArgs.every(isStaticallySized);
    }
    default:
      return false;
  }
}

/** The abstract size of every value of a statically sized `type` (see {@link isStaticallySized}). */
export function staticTypeSize(types: TypeTable, type: Type, config: SizeConfig): number {
  const prim = PRIM_KIND[type.kind];
  if (prim !== undefined) return prim === 'address' ? ADDRESS_SIZE : primSize(prim, config);
  switch (type.kind) {
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return VALUE_REFERENCE_SIZE + (config.traverseReferences ? staticTypeSize(types, type.elem as Type, config) : 0);
    case TypeKind.Datatype: {
      let total = VALUE_HEADER_SIZE;
      for (const f of (type.datatype as NonNullable<Type['datatype']>).fields()) total += staticTypeSize(types, types.subst(f.type, type.typeArgs), config);
      return total;
    }
    default:
      return 0;
  }
}

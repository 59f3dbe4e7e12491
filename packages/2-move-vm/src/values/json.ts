/**
 * JSON ↔ runtime values, read by the Move type: what `smi call --args` accepts and
 * what results print as.
 *
 * | type | JSON in | JSON out |
 * |---|---|---|
 * | integers | number or decimal string (`0x` hex too) | u8–u32 number, u64+ decimal string |
 * | bool | boolean | boolean |
 * | address, signer | hex string, short forms allowed | `0x` + 64 hex |
 * | vector<u8> | `"0x…"` hex or number array | `"0x…"` hex |
 * | other vectors | array | array |
 * | 0x1::string::String, 0x1::ascii::String | string | string |
 * | 0x1::option::Option<T> | `null` or the value | `null` or the value |
 * | structs | object by field name; a one-field struct also takes its field's value | object |
 * | enums | `{"$variant": "Name", ...fields}` | same |
 */
import { VmError } from '../errors.js';
import { type Type, TypeKind, type TypeTable } from '../types/runtime-type.js';
import { vecKindOf } from './bcs.js';
import { VariantValue } from './value.js';
import { MoveVector, VecKind } from './vector.js';
import { canonicalAddress, type Json, STD_ADDRESS, ZERO_ADDRESS } from '@smi/bytecode';

/** A JSON value. */
export type { Json };

const MAX: Record<number, bigint> = {
  [TypeKind.U8]: 0xffn,
  [TypeKind.U16]: 0xffffn,
  [TypeKind.U32]: 0xffffffffn,
  [TypeKind.U64]: (1n << 64n) - 1n,
  [TypeKind.U128]: (1n << 128n) - 1n,
  [TypeKind.U256]: (1n << 256n) - 1n,
};
const INT_NAME: Record<number, string> = {
  [TypeKind.U8]: 'u8',
  [TypeKind.U16]: 'u16',
  [TypeKind.U32]: 'u32',
  [TypeKind.U64]: 'u64',
  [TypeKind.U128]: 'u128',
  [TypeKind.U256]: 'u256',
};

function fail(path: string, msg: string): never {
  throw new VmError('FAILED_TO_DESERIALIZE_ARGUMENT', `${path}: ${msg}`);
}

function isStdString(t: Type): 'utf8' | 'ascii' | null {
  const d = t.datatype;
  if (t.kind !== TypeKind.Datatype || d === null || d.address !== STD_ADDRESS || d.name !== 'String') return null;
  return d.module === 'string' ? 'utf8' : d.module === 'ascii' ? 'ascii' : null;
}

function isOption(t: Type): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === STD_ADDRESS && d.module === 'option' && d.name === 'Option';
}

function parseInteger(j: Json, kind: number, path: string): bigint {
  let v: bigint;
  if (typeof j === 'number') {
    if (!Number.isSafeInteger(j) || j < 0) fail(path, `${j} is not a non-negative safe integer (use a decimal string)`);
    v = BigInt(j);
  } else if (typeof j === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(j.trim())) {
    v = BigInt(j.trim());
  } else {
    return fail(path, `expected ${INT_NAME[kind]} as a number or decimal string, got ${JSON.stringify(j)}`);
  }
  if (v > MAX[kind]) fail(path, `${v} does not fit in ${INT_NAME[kind]}`);
  return v;
}

function parseAddress(j: Json, path: string): string {
  if (typeof j !== 'string' || !/^(0x)?[0-9a-fA-F]{1,64}$/.test(j)) fail(path, `expected an address as hex, got ${JSON.stringify(j)}`);
  return canonicalAddress(j);
}

function parseBytes(j: Json, path: string): Uint8Array {
  if (typeof j === 'string') {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(j)) fail(path, `expected vector<u8> as "0x…" hex with an even number of digits, got ${JSON.stringify(j)}`);
    return Uint8Array.from(Buffer.from(j.slice(2), 'hex'));
  }
  if (Array.isArray(j)) return Uint8Array.from(j.map((x, i) => Number(parseInteger(x, TypeKind.U8, `${path}[${i}]`))));
  return fail(path, `expected vector<u8> as hex string or number array, got ${JSON.stringify(j)}`);
}

/**
 * Build a runtime value of type `t` from JSON.
 * @throws {VmError} `FAILED_TO_DESERIALIZE_ARGUMENT` naming the path of the bad part.
 */
export function valueFromJson(table: TypeTable, j: Json, t: Type, path = 'value'): unknown {
  switch (t.kind) {
    case TypeKind.Bool:
      if (typeof j !== 'boolean') fail(path, `expected a boolean, got ${JSON.stringify(j)}`);
      return j;
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
      return Number(parseInteger(j, t.kind, path));
    case TypeKind.U64:
    case TypeKind.U128:
    case TypeKind.U256:
      return parseInteger(j, t.kind, path);
    case TypeKind.Address:
    case TypeKind.Signer:
      return parseAddress(j, path);
    case TypeKind.Reference:
    case TypeKind.MutableReference:
      return valueFromJson(table, j, t.elem as Type, path);
    case TypeKind.Vector: {
      const elem = t.elem as Type;
      if (elem.kind === TypeKind.U8) return MoveVector.fromBytes(parseBytes(j, path));
      if (!Array.isArray(j)) fail(path, `expected an array for ${'vector'}, got ${JSON.stringify(j)}`);
      return MoveVector.fromValues(
        vecKindOf(elem),
        j.map((x, i) => valueFromJson(table, x, elem, `${path}[${i}]`)),
      );
    }
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return fail(path, 'bad datatype');
      const str = isStdString(t);
      if (str !== null && typeof j === 'string') {
        const bytes = new TextEncoder().encode(j);
        if (str === 'ascii' && bytes.some((b) => b > 0x7f)) fail(path, 'ascii::String takes ASCII characters only');
        return [MoveVector.fromBytes(bytes)];
      }
      if (isOption(t)) {
        const elem = t.typeArgs[0];
        if (j === null) return [MoveVector.empty(vecKindOf(elem))];
        return [MoveVector.fromValues(vecKindOf(elem), [valueFromJson(table, j, elem, `${path}.some`)])];
      }
      if (d.isEnum) {
        if (typeof j !== 'object' || j === null || Array.isArray(j) || typeof j.$variant !== 'string') {
          fail(path, `expected {"$variant": name, ...fields} for enum ${d.name}`);
        }
        const tag = d.variants().findIndex((v) => v.name === j.$variant);
        if (tag < 0) fail(path, `${d.name} has no variant ${String(j.$variant)}`);
        const fields = d.variants()[tag].fields;
        return new VariantValue(
          tag,
          fields.map((f) => valueFromJson(table, (j as Record<string, Json>)[f.name] ?? null, table.subst(f.type, t.typeArgs), `${path}.${f.name}`)),
        );
      }
      const fields = d.fields();
      if (typeof j === 'object' && j !== null && !Array.isArray(j)) {
        const known = new Set(fields.map((f) => f.name));
        for (const k of Object.keys(j)) if (!known.has(k)) fail(path, `${d.name} has no field ${k}`);
        return fields.map((f) => {
          if (!(f.name in j)) fail(path, `missing field ${f.name} of ${d.name}`);
          return valueFromJson(table, j[f.name], table.subst(f.type, t.typeArgs), `${path}.${f.name}`);
        });
      }
      if (fields.length === 1) return [valueFromJson(table, j, table.subst(fields[0].type, t.typeArgs), `${path}.${fields[0].name}`)];
      return fail(path, `expected an object with the fields of ${d.name}`);
    }
    default:
      return fail(path, `cannot build a value of this type from JSON`);
  }
}

/** JSON of a runtime value of type `t`. */
export function valueToJson(table: TypeTable, v: unknown, t: Type): Json {
  switch (t.kind) {
    case TypeKind.Bool:
      return v as boolean;
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
      return v as number;
    case TypeKind.U64:
    case TypeKind.U128:
    case TypeKind.U256:
      return (v as bigint).toString();
    case TypeKind.Address:
    case TypeKind.Signer:
      return v as string;
    case TypeKind.Vector: {
      const vec = v as MoveVector;
      const elem = t.elem as Type;
      if (vec.kind === VecKind.U8) return '0x' + Buffer.from(vec.bytes()).toString('hex');
      return vec.toArray().map((x) => valueToJson(table, x, elem));
    }
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return null;
      const str = isStdString(t);
      if (str !== null) {
        const bytes = ((v as unknown[])[0] as MoveVector).bytes();
        try {
          return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          return '0x' + Buffer.from(bytes).toString('hex');
        }
      }
      if (isOption(t)) {
        const vec = (v as unknown[])[0] as MoveVector;
        return vec.length === 0 ? null : valueToJson(table, vec.get(0), t.typeArgs[0]);
      }
      if (d.isEnum) {
        const e = v as VariantValue;
        const variant = d.variants()[e.tag];
        const out: { [key: string]: Json } = { $variant: variant.name };
        variant.fields.forEach((f, i) => (out[f.name] = valueToJson(table, e.fields[i], table.subst(f.type, t.typeArgs))));
        return out;
      }
      const out: { [key: string]: Json } = {};
      d.fields().forEach((f, i) => (out[f.name] = valueToJson(table, (v as unknown[])[i], table.subst(f.type, t.typeArgs))));
      return out;
    }
    default:
      return null;
  }
}

/** The zero value of a type: 0, false, the zero address, empty vectors, structs of zeros, the first variant. */
export function zeroValue(table: TypeTable, t: Type): unknown {
  switch (t.kind) {
    case TypeKind.Bool:
      return false;
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
      return 0;
    case TypeKind.U64:
    case TypeKind.U128:
    case TypeKind.U256:
      return 0n;
    case TypeKind.Address:
    case TypeKind.Signer:
      return ZERO_ADDRESS;
    case TypeKind.Vector:
      return MoveVector.empty(vecKindOf(t.elem as Type));
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return null;
      if (d.isEnum) {
        const fields = d.variants()[0].fields;
        return new VariantValue(
          0,
          fields.map((f) => zeroValue(table, table.subst(f.type, t.typeArgs))),
        );
      }
      return d.fields().map((f) => zeroValue(table, table.subst(f.type, t.typeArgs)));
    }
    default:
      throw new VmError('TYPE_MISMATCH', 'no zero value for a reference or type parameter');
  }
}

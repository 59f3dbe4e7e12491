/**
 * Checks that a JS value handed to the VM through the API has the runtime shape of its
 * Move type, so that a wrong argument is a typed `TYPE_MISMATCH`, never a JS exception
 * deep inside the interpreter.
 */
import { VmError } from '../errors.js';
import { type Type, TypeKind, type TypeTable } from '../types/runtime-type.js';
import { vecKindOf } from './bcs.js';
import { VariantValue } from './value.js';
import { MoveVector, VecKind } from './vector.js';

const NUM_MAX: Record<number, number> = { [TypeKind.U8]: 0xff, [TypeKind.U16]: 0xffff, [TypeKind.U32]: 0xffffffff };
const BIG_MAX: Record<number, bigint> = {
  [TypeKind.U64]: (1n << 64n) - 1n,
  [TypeKind.U128]: (1n << 128n) - 1n,
  [TypeKind.U256]: (1n << 256n) - 1n,
};

function mismatch(path: string, msg: string): never {
  throw new VmError('TYPE_MISMATCH', `${path}: ${msg}`);
}

/**
 * Validate `v` against `t` (depth-limited).
 * @throws {VmError} `TYPE_MISMATCH` naming the path of the first bad part.
 */
export function validateValue(table: TypeTable, v: unknown, t: Type, path = 'value', depth = 0): void {
  if (depth > 128) mismatch(path, 'value nested too deeply');
  switch (t.kind) {
    case TypeKind.Bool:
      if (typeof v !== 'boolean') mismatch(path, 'expected a boolean');
      return;
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > NUM_MAX[t.kind]) {
        mismatch(path, `expected an integer number in 0..${NUM_MAX[t.kind]}`);
      }
      return;
    case TypeKind.U64:
    case TypeKind.U128:
    case TypeKind.U256:
      if (typeof v !== 'bigint' || v < 0n || v > BIG_MAX[t.kind]) mismatch(path, `expected a bigint in 0..${BIG_MAX[t.kind]}`);
      return;
    case TypeKind.Address:
    case TypeKind.Signer:
      if (typeof v !== 'string' || !/^0x[0-9a-f]{64}$/.test(v)) mismatch(path, 'expected 0x followed by 64 lowercase hex digits');
      return;
    case TypeKind.Vector: {
      if (!(v instanceof MoveVector)) return mismatch(path, 'expected a MoveVector');
      const elem = t.elem as Type;
      if (v.kind !== vecKindOf(elem)) mismatch(path, 'vector storage kind does not match the element type');
      if (v.kind === VecKind.Boxed || elem.kind === TypeKind.U16 || elem.kind === TypeKind.U32) {
        for (let i = 0; i < v.length; i++) validateValue(table, v.get(i), elem, `${path}[${i}]`, depth + 1);
      }
      return;
    }
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return mismatch(path, 'unknown datatype');
      if (d.isEnum) {
        if (!(v instanceof VariantValue)) return mismatch(path, `expected a VariantValue of ${d.name}`);
        const variant = d.variants()[v.tag];
        if (variant === undefined) mismatch(path, `variant tag ${v.tag} out of range`);
        if (!Array.isArray(v.fields) || v.fields.length !== variant.fields.length) mismatch(path, `variant ${variant.name} needs ${variant.fields.length} fields`);
        variant.fields.forEach((f, i) => validateValue(table, v.fields[i], table.subst(f.type, t.typeArgs), `${path}.${f.name}`, depth + 1));
        return;
      }
      const fields = d.fields();
      if (!Array.isArray(v) || v.length !== fields.length) return mismatch(path, `expected an array of the ${fields.length} fields of ${d.name}`);
      fields.forEach((f, i) => validateValue(table, v[i], table.subst(f.type, t.typeArgs), `${path}.${f.name}`, depth + 1));
      return;
    }
    default:
      mismatch(path, 'references and type parameters cannot be passed as values');
  }
}

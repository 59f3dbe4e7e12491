/**
 * Text of a value for `0x1::debug::print`: numbers and booleans as they are, addresses
 * in hex, `vector<u8>` in hex, `0x1::string::String`/`0x1::ascii::String` quoted,
 * structs and enum variants with their field names.
 */
import { STD_ADDRESS } from '@smi/bytecode';
import { type Type, TypeKind } from '../types/runtime-type.js';
import type { VariantValue } from '../values/value.js';
import type { MoveVector } from '../values/vector.js';
import type { NativeContext } from './registry.js';

/** Readable text of `v` of type `t`. */
export function formatDebugValue(ctx: NativeContext, v: unknown, t: Type): string {
  switch (t.kind) {
    case TypeKind.Bool:
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
    case TypeKind.U64:
    case TypeKind.U128:
    case TypeKind.U256:
      return String(v);
    case TypeKind.Address:
      return `@${v as string}`;
    case TypeKind.Signer:
      return `signer(@${v as string})`;
    case TypeKind.Vector: {
      const vec = v as MoveVector;
      const elem = t.elem as Type;
      if (elem.kind === TypeKind.U8) return '0x' + Buffer.from(vec.bytes()).toString('hex');
      return `[${vec
        .toArray()
        .map((x) => formatDebugValue(ctx, x, elem))
        .join(', ')}]`;
    }
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return '?';
      if (d.address === STD_ADDRESS && (d.module === 'string' || d.module === 'ascii') && d.name === 'String') {
        const bytes = ((v as unknown[])[0] as MoveVector).bytes();
        return JSON.stringify(new TextDecoder().decode(bytes));
      }
      const fieldText = (names: readonly { name: string; type: Type }[], values: unknown[]) =>
        names.map((f, i) => `${f.name}: ${formatDebugValue(ctx, values[i], ctx.types.subst(f.type, t.typeArgs))}`).join(', ');
      const tag = ctx.typeTag(t, { address: 'short' });
      if (d.isEnum) {
        const e = v as VariantValue;
        const variant = d.variants()[e.tag];
        return `${tag}::${variant.name} { ${fieldText(variant.fields, e.fields)} }`;
      }
      return `${tag} { ${fieldText(d.fields(), v as unknown[])} }`;
    }
    default:
      return String(v);
  }
}

/**
 * Constants: the declared type becomes a constant type layout (upstream
 * `type_to_constant_type_layout`, with its error texts) and the self-describing value is
 * BCS-encoded on its own, exactly like `Constant::serialize_constant` (the value is not
 * checked against the type; the bytecode verifier does that).
 */
import { PRIMITIVE_TOKEN, addressBytes, type SignatureToken, pushUleb128 } from '@smi/bytecode';
import type { ConstantValue, Type } from './ast.js';
import { IrCompileError } from './errors.js';

/** The signature token of a constant's declared type. */
export function constantTypeToken(ty: Type): SignatureToken {
  switch (ty.$kind) {
    case 'Vector':
      return { $kind: 'Vector', type: constantTypeToken(ty.type) };
    case 'Reference':
      throw new IrCompileError('References are not supported in constant type layouts');
    case 'TypeParameter':
      throw new IrCompileError('Type parameters are not supported in constant type layouts');
    case 'Datatype':
      throw new IrCompileError('Datatypes are not supported in constant type layouts');
    default:
      return PRIMITIVE_TOKEN[ty.$kind];
  }
}

function littleEndian(out: number[], value: bigint, bytes: number): void {
  let v = value;
  for (let i = 0; i < bytes; i++) {
    out.push(Number(v & 0xffn));
    v >>= 8n;
  }
}

function encodeInto(out: number[], v: ConstantValue): void {
  switch (v.$kind) {
    case 'Bool':
      out.push(v.value ? 1 : 0);
      return;
    case 'U8':
      out.push(v.value & 0xff);
      return;
    case 'U16':
      littleEndian(out, BigInt(v.value), 2);
      return;
    case 'U32':
      littleEndian(out, BigInt(v.value), 4);
      return;
    case 'U64':
      littleEndian(out, v.value, 8);
      return;
    case 'U128':
      littleEndian(out, v.value, 16);
      return;
    case 'U256':
      littleEndian(out, v.value, 32);
      return;
    case 'Address':
      out.push(...addressBytes(v.address));
      return;
    case 'Vector':
      pushUleb128(out, v.elements.length);
      for (const e of v.elements) encodeInto(out, e);
      return;
  }
}

/** BCS encoding of a constant value. */
export function encodeConstantValue(v: ConstantValue): Uint8Array {
  const out: number[] = [];
  encodeInto(out, v);
  return Uint8Array.from(out);
}

/**
 * Instruction facts the trace recorder needs: upstream opcode names and how many values
 * each instruction pops before upstream's tracer resolves its effects.
 */
import { Op } from '../loader/ops.js';

/** Upstream opcode name of an instruction kind (`LdU64` → `LD_U64`). */
export function upstreamOpcodeName(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Instructions popping one value (recorded as one `Pop` effect). */
export const POP1: ReadonlySet<string> = new Set([
  'Pop', 'BrTrue', 'BrFalse', 'StLoc', 'Abort', 'FreezeRef', 'Not', 'ReadRef', 'CastU8', 'CastU16', 'CastU32', 'CastU64', 'CastU128', 'CastU256',
  'Unpack', 'UnpackGeneric', 'VecLen', 'VecPopBack', 'VecUnpack', 'VariantSwitch', 'UnpackVariant', 'UnpackVariantGeneric', 'UnpackVariantImmRef',
  'UnpackVariantMutRef', 'UnpackVariantGenericImmRef', 'UnpackVariantGenericMutRef', 'MutBorrowField', 'ImmBorrowField', 'MutBorrowFieldGeneric',
  'ImmBorrowFieldGeneric',
]);
/** Instructions popping two values. */
export const POP2: ReadonlySet<string> = new Set([
  'Add', 'Sub', 'Mul', 'Mod', 'Div', 'BitOr', 'BitAnd', 'Xor', 'Shl', 'Shr', 'Lt', 'Gt', 'Le', 'Ge', 'Eq', 'Neq', 'Or', 'And', 'WriteRef',
  'VecImmBorrow', 'VecMutBorrow', 'VecPushBack',
]);
/** Instructions whose post effect is one `Push` of the new top of the stack. */
export const PUSH_TOP: ReadonlySet<string> = new Set([
  'LdU8', 'LdU16', 'LdU32', 'LdU64', 'LdU128', 'LdU256', 'LdConst', 'LdTrue', 'LdFalse', 'CastU8', 'CastU16', 'CastU32', 'CastU64', 'CastU128',
  'CastU256', 'Add', 'Sub', 'Mul', 'Mod', 'Div', 'BitOr', 'BitAnd', 'Xor', 'Shl', 'Shr', 'Lt', 'Gt', 'Le', 'Ge', 'Eq', 'Neq', 'Or', 'And', 'Not',
  'Pack', 'PackGeneric', 'PackVariant', 'PackVariantGeneric', 'VecPack', 'ReadRef', 'VecLen', 'VecPopBack',
]);

/** Internal opcodes of `0x1::vector` natives the translator inlines (traced as native calls). */
export const INLINED_NATIVE_OPS: ReadonlySet<number> = new Set([
  Op.NAT_VEC_EMPTY, Op.NAT_VEC_LEN, Op.NAT_VEC_BORROW, Op.NAT_VEC_PUSH_BACK, Op.NAT_VEC_POP_BACK, Op.NAT_VEC_DESTROY_EMPTY, Op.NAT_VEC_SWAP,
]);


/**
 * `max_ptb_value_size` (protocol 80 to 103, the PTB executor before
 * `enable_ptb_execution_v2`): the serialized size of a value a command builds from others
 * is bounded by `max_ptb_value_size` divided by the *amplification* of its type, how much
 * larger a Move value of that type can be than its bytes (upstream v3 `execution.rs`
 * `amplification_bound` and `execution_value.rs` `ensure_serialized_size`).
 *
 * - `MakeMoveVec`: after each element, the vector's bytes so far (length prefix included).
 * - Dev inspect: pure bytes read as a type (they may stand for any type there).
 *
 * Before `max_ptb_value_size_v2` (protocol 82) every type is bounded and the error is
 * `MoveObjectTooBig`; from it on only copyable types are bounded in `MakeMoveVec`, and the
 * errors are `MoveVectorElemTooBig` and `MoveRawValueTooBig`.
 */
import { Ability, STD_ADDRESS, SUI_ADDRESS } from '@smi/bytecode';
import { type MoveVM, type Type, TypeKind } from '@smi/move-vm';
import { ExecutionFailure } from './errors.js';

/** Where a bound applies: a `MakeMoveVec` element, or a raw value (dev-inspect pure bytes). */
export type SizeBoundKind = 'vector-elem' | 'raw';

/** A bound on serialized bytes and the error that exceeding it raises. */
export interface SizeBound {
  max: number;
  error: 'MoveObjectTooBig' | 'MoveVectorElemTooBig' | 'MoveRawValueTooBig';
}

/**
 * Amplification of a type with a primitive layout (upstream `primitive_serialization_layout`
 * then `amplification`), `null` for any other type.
 */
function amplification(t: Type): number | null {
  switch (t.kind) {
    case TypeKind.Bool:
    case TypeKind.U8:
    case TypeKind.U16:
    case TypeKind.U32:
    case TypeKind.U64:
      return 1;
    case TypeKind.U128:
    case TypeKind.U256:
    case TypeKind.Address:
      return 2;
    case TypeKind.Vector:
      return amplification(t.elem as Type);
    case TypeKind.Datatype: {
      const d = t.datatype;
      if (d === null) return null;
      if (d.address === STD_ADDRESS && d.module === 'option' && d.name === 'Option' && t.typeArgs.length === 1) {
        const inner = amplification(t.typeArgs[0]);
        return inner === null ? null : 1 + inner;
      }
      if (t.typeArgs.length > 0) return null;
      if (d.address === SUI_ADDRESS && d.module === 'object' && d.name === 'ID') return 2;
      if (d.address === STD_ADDRESS && (d.module === 'ascii' || d.module === 'string') && d.name === 'String') return 2;
      return null;
    }
    default:
      return null;
  }
}

/**
 * The bound on values of type `t` used as `kind`, or `null` when none applies: the protocol
 * has no `max_ptb_value_size`, runs the newer executor (which has no such bound), or (from
 * `max_ptb_value_size_v2`) `t` is a `MakeMoveVec` element type without `copy`.
 */
export function ptbValueBound(vm: MoveVM, t: Type, kind: SizeBoundKind): SizeBound | null {
  const cfg = vm.protocolConfig;
  if (cfg === null || cfg.flag('enable_ptb_execution_v2')) return null;
  const max = cfg.optionalInt('max_ptb_value_size');
  if (max === undefined) return null;
  const v2 = cfg.flag('max_ptb_value_size_v2');
  if (v2 && kind === 'vector-elem' && (t.abilities & Ability.Copy) === 0) return null;
  // Without a primitive layout, assume a value of the maximal depth.
  const amp = amplification(t) ?? cfg.optionalInt('max_move_value_depth') ?? 128;
  const error = !v2 ? 'MoveObjectTooBig' : kind === 'raw' ? 'MoveRawValueTooBig' : 'MoveVectorElemTooBig';
  return { max: Math.floor(max / amp), error };
}

/** Fail with the bound's error when `size` bytes exceed it (upstream `ensure_serialized_size`). */
export function ensureSerializedSize(size: number, bound: SizeBound): void {
  if (size <= bound.max) return;
  const payload = bound.error === 'MoveObjectTooBig' ? { objectSize: BigInt(size), maxObjectSize: BigInt(bound.max) } : { valueSize: BigInt(size), maxScaledSize: BigInt(bound.max) };
  throw new ExecutionFailure({ $kind: bound.error, [bound.error]: payload } as never, 'Serialized bytes of value too large');
}

/** Bytes of the ULEB128 length prefix of a vector of `n` elements. */
export function ulebSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    size++;
  }
  return size;
}

/**
 * The natives of move-stdlib (0x1), all real: vector, bcs, hash, string, type_name,
 * debug (and the historic names older frameworks declare: `type_name::get`,
 * `type_name::get_with_original_ids`, `signer::borrow_address`).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { NativeAbort, VectorError, VmError } from '../errors.js';
import { type Type, TypeKind } from '../types/runtime-type.js';
import { vecKindOf } from '../values/bcs.js';
import { borrowElement, peekRef } from '../values/value.js';
import { MoveVector } from '../values/vector.js';
import { noteWrite } from '../values/write-watch.js';
import { formatDebugValue } from './debug-format.js';
import type { NativeContext, NativeFunction, NativeRegistry } from './registry.js';

const STD = '0x1';

/** Vector natives abort with the vector error code (upstream `native_error_to_abort`). */
function vectorError(sub: bigint): NativeAbort {
  return new NativeAbort(sub);
}

function index(v: unknown): number {
  const b = v as bigint;
  return b > 9007199254740991n ? Number.MAX_SAFE_INTEGER : Number(b);
}

function bytesOf(r: unknown): Uint8Array {
  return (peekRef(r) as MoveVector).bytes();
}

const vector: Record<string, NativeFunction> = {
  empty: (_ctx, [t]) => [MoveVector.empty(vecKindOf(t))],
  length: (_ctx, _t, [r]) => [BigInt((peekRef(r) as MoveVector).length)],
  borrow: (_ctx, _t, [r, i]) => {
    const v = peekRef(r) as MoveVector;
    const k = index(i);
    if (k >= v.length) throw vectorError(VectorError.INDEX_OUT_OF_BOUNDS);
    return [borrowElement(v, k)];
  },
  borrow_mut: (ctx, t, args) => (vector.borrow as NativeFunction)(ctx, t, args),
  push_back: (ctx, _t, [r, e]) => {
    const v = peekRef(r) as MoveVector;
    if (v.length >= ctx.limits.maxVectorLength) throw vectorError(VectorError.VEC_SIZE_LIMIT_REACHED);
    v.push(e);
    noteWrite(v);
    return [];
  },
  pop_back: (_ctx, _t, [r]) => {
    const v = peekRef(r) as MoveVector;
    if (v.length === 0) throw vectorError(VectorError.POP_EMPTY_VEC);
    const e = v.pop();
    noteWrite(v);
    return [e];
  },
  destroy_empty: (_ctx, _t, [v]) => {
    if ((v as MoveVector).length !== 0) throw vectorError(VectorError.VEC_UNPACK_PARITY_MISMATCH);
    return [];
  },
  swap: (_ctx, _t, [r, i, j]) => {
    const v = peekRef(r) as MoveVector;
    const a = index(i);
    const b = index(j);
    if (a >= v.length || b >= v.length) throw vectorError(VectorError.INDEX_OUT_OF_BOUNDS);
    v.swap(a, b);
    noteWrite(v);
    return [];
  },
};

const bcs: Record<string, NativeFunction> = {
  to_bytes: (ctx, [t], [r]) => {
    const bytes = ctx.bcs.encode(peekRef(r), t);
    ctx.charge(bytes.length);
    return [MoveVector.fromBytes(bytes)];
  },
};

const hash: Record<string, NativeFunction> = {
  sha2_256: (ctx, _t, [v]) => {
    const data = (v as MoveVector).bytes();
    ctx.charge(Math.ceil(data.length / 64) + 1);
    return [MoveVector.fromBytes(sha256(data))];
  },
  sha3_256: (ctx, _t, [v]) => {
    const data = (v as MoveVector).bytes();
    ctx.charge(Math.ceil(data.length / 136) + 1);
    return [MoveVector.fromBytes(sha3_256(data))];
  },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isCharBoundary(s: Uint8Array, i: number): boolean {
  if (i === 0 || i === s.length) return true;
  if (i > s.length) return false;
  return (s[i] & 0xc0) !== 0x80;
}

const string: Record<string, NativeFunction> = {
  internal_check_utf8: (ctx, _t, [r]) => {
    const s = bytesOf(r);
    ctx.charge(s.length);
    try {
      utf8.decode(s);
      return [true];
    } catch {
      return [false];
    }
  },
  internal_is_char_boundary: (_ctx, _t, [r, i]) => [isCharBoundary(bytesOf(r), index(i))],
  internal_sub_string: (ctx, _t, [r, i, j]) => {
    const a = index(i);
    const b = index(j);
    if (b < a) throw new NativeAbort(1);
    const s = bytesOf(r);
    if (b > s.length) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `sub_string end ${b} beyond ${s.length}`);
    ctx.charge(b - a);
    return [MoveVector.fromBytes(s.subarray(a, b))];
  },
  internal_index_of: (ctx, _t, [r, p]) => {
    const s = bytesOf(r);
    const pat = bytesOf(p);
    ctx.charge(s.length + pat.length);
    outer: for (let i = 0; i + pat.length <= s.length; i++) {
      for (let k = 0; k < pat.length; k++) if (s[i + k] !== pat[k]) continue outer;
      return [BigInt(i)];
    }
    return [BigInt(s.length)];
  },
};

function typeName(ctx: NativeContext, t: Type, originalIds: boolean): unknown {
  const name = ctx.typeTag(t, { address: 'bare', originalIds, separator: ',' });
  ctx.charge(name.length);
  // TypeName { name: ascii::String { bytes: vector<u8> } }
  return [[MoveVector.fromBytes(new TextEncoder().encode(name))]];
}

function typeId(t: Type, originalIds: boolean): string {
  if (t.kind !== TypeKind.Datatype || t.datatype === null) throw new NativeAbort(0);
  return originalIds ? t.datatype.address : t.datatype.definingId;
}

const typeNameNatives: Record<string, NativeFunction> = {
  get: (ctx, [t]) => [typeName(ctx, t, false)],
  get_with_original_ids: (ctx, [t]) => [typeName(ctx, t, true)],
  with_defining_ids: (ctx, [t]) => [typeName(ctx, t, false)],
  with_original_ids: (ctx, [t]) => [typeName(ctx, t, true)],
  defining_id: (_ctx, [t]) => [typeId(t, false)],
  original_id: (_ctx, [t]) => [typeId(t, true)],
};

const debug: Record<string, NativeFunction> = {
  print: (ctx, [t], [r]) => {
    ctx.debugPrint(`[debug] ${formatDebugValue(ctx, peekRef(r), t)}`);
    return [];
  },
  print_stack_trace: (ctx) => {
    ctx.debugPrint(ctx.stackTrace());
    return [];
  },
};

const signer: Record<string, NativeFunction> = {
  borrow_address: (_ctx, _t, [r]) => [r],
};

/** Register every move-stdlib native at 0x1. */
export function registerMoveStdlib(registry: NativeRegistry): NativeRegistry {
  return registry
    .registerModule(STD, 'vector', vector)
    .registerModule(STD, 'bcs', bcs)
    .registerModule(STD, 'hash', hash)
    .registerModule(STD, 'string', string)
    .registerModule(STD, 'type_name', typeNameNatives)
    .registerModule(STD, 'debug', debug)
    .registerModule(STD, 'signer', signer);
}


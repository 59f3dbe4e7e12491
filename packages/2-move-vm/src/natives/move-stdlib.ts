/**
 * The natives of move-stdlib (0x1), all real: vector, bcs, hash, string, type_name,
 * debug (and the historic names older frameworks declare: `type_name::get`,
 * `type_name::get_with_original_ids`, `signer::borrow_address`).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { NativeAbort, VectorError, VmError } from '../errors.js';
import type { SizeConfig } from '../gas/abstract-size.js';
import { runtimeValueSize } from '../gas/value-size.js';
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

/** Sizes of a pushed element (`push_back`'s legacy charge): no vector headers, no traversal; fine-grained in the current VM. */
const PUSHED_SIZE_LATEST: SizeConfig = Object.freeze({ traverseReferences: false, includeVectorSize: false, fineGrainedValueSize: true });
const PUSHED_SIZE_OLD: SizeConfig = Object.freeze({ traverseReferences: false, includeVectorSize: false, fineGrainedValueSize: false });

/** The abstract size `vector::push_back` charges for element `e` of type `t`. */
export function pushedElementSize(ctx: Pick<NativeContext, 'types'>, e: unknown, t: Type, latestVm: boolean): number {
  return runtimeValueSize(ctx.types, e, t, latestVm ? PUSHED_SIZE_LATEST : PUSHED_SIZE_OLD);
}

function bytesOf(r: unknown): Uint8Array {
  return (peekRef(r) as MoveVector).bytes();
}

const vector: Record<string, NativeFunction> = {
  empty: (ctx, [t]) => {
    ctx.charge(ctx.costs.vectorEmptyBase);
    return [MoveVector.empty(vecKindOf(t))];
  },
  length: (ctx, _t, [r]) => {
    ctx.charge(ctx.costs.vectorLengthBase);
    return [BigInt((peekRef(r) as MoveVector).length)];
  },
  borrow: (ctx, _t, [r, i]) => {
    ctx.charge(ctx.costs.vectorBorrowBase);
    const v = peekRef(r) as MoveVector;
    const k = index(i);
    if (k >= v.length) throw vectorError(VectorError.INDEX_OUT_OF_BOUNDS);
    return [borrowElement(v, k)];
  },
  borrow_mut: (ctx, t, args) => (vector.borrow as NativeFunction)(ctx, t, args),
  push_back: (ctx, [t], [r, e]) => {
    ctx.charge(ctx.costs.vectorPushBackBase);
    const perUnit = ctx.costs.vectorPushBackLegacyPerUnit;
    if (perUnit !== 0) ctx.charge(perUnit * Math.max(pushedElementSize(ctx, e, t, ctx.costs.latestVm), 1));
    const v = peekRef(r) as MoveVector;
    if (v.length >= ctx.limits.maxVectorLength) throw vectorError(VectorError.VEC_SIZE_LIMIT_REACHED);
    v.push(e);
    noteWrite(v);
    return [];
  },
  pop_back: (ctx, _t, [r]) => {
    ctx.charge(ctx.costs.vectorPopBackBase);
    const v = peekRef(r) as MoveVector;
    if (v.length === 0) throw vectorError(VectorError.POP_EMPTY_VEC);
    const e = v.pop();
    noteWrite(v);
    return [e];
  },
  destroy_empty: (ctx, _t, [v]) => {
    ctx.charge(ctx.costs.vectorDestroyEmptyBase);
    if ((v as MoveVector).length !== 0) throw vectorError(VectorError.VEC_UNPACK_PARITY_MISMATCH);
    return [];
  },
  swap: (ctx, _t, [r, i, j]) => {
    ctx.charge(ctx.costs.vectorSwapBase);
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
    ctx.charge(ctx.costs.bcsPerByteSerialized * Math.max(bytes.length, ctx.costs.bcsLegacyMinOutputSize));
    return [MoveVector.fromBytes(bytes)];
  },
};

const hash: Record<string, NativeFunction> = {
  sha2_256: (ctx, _t, [v]) => {
    const data = (v as MoveVector).bytes();
    const c = ctx.costs;
    ctx.charge(c.hashSha2Base + c.hashSha2PerByte * Math.max(data.length, c.hashSha2LegacyMinInputLen));
    return [MoveVector.fromBytes(sha256(data))];
  },
  sha3_256: (ctx, _t, [v]) => {
    const data = (v as MoveVector).bytes();
    const c = ctx.costs;
    ctx.charge(c.hashSha3Base + c.hashSha3PerByte * Math.max(data.length, c.hashSha3LegacyMinInputLen));
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
    ctx.charge(ctx.costs.stringCheckUtf8Base + ctx.costs.stringCheckUtf8PerByte * s.length);
    try {
      utf8.decode(s);
      return [true];
    } catch {
      return [false];
    }
  },
  internal_is_char_boundary: (ctx, _t, [r, i]) => {
    ctx.charge(ctx.costs.stringIsCharBoundaryBase);
    return [isCharBoundary(bytesOf(r), index(i))];
  },
  internal_sub_string: (ctx, _t, [r, i, j]) => {
    const a = index(i);
    const b = index(j);
    ctx.charge(ctx.costs.stringSubStringBase);
    if (b < a) throw new NativeAbort(1);
    ctx.charge(ctx.costs.stringSubStringPerByte * (b - a));
    const s = bytesOf(r);
    if (b > s.length) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `sub_string end ${b} beyond ${s.length}`);
    return [MoveVector.fromBytes(s.subarray(a, b))];
  },
  internal_index_of: (ctx, _t, [r, p]) => {
    const c = ctx.costs;
    ctx.charge(c.stringIndexOfBase);
    const pat = bytesOf(p);
    ctx.charge(c.stringIndexOfPerBytePattern * pat.length);
    const s = bytesOf(r);
    // The current VM charges the whole haystack before searching; the old VM the bytes before the match.
    if (c.latestVm) ctx.charge(c.stringIndexOfPerByteSearched * s.length);
    const at = indexOf(s, pat);
    if (!c.latestVm) ctx.charge(c.stringIndexOfPerByteSearched * at);
    return [BigInt(at)];
  },
};

/** Byte offset of the first occurrence of `pat` in `s`, or `s.length`. */
function indexOf(s: Uint8Array, pat: Uint8Array): number {
  outer: for (let i = 0; i + pat.length <= s.length; i++) {
    for (let k = 0; k < pat.length; k++) if (s[i + k] !== pat[k]) continue outer;
    return i;
  }
  return s.length;
}

function typeName(ctx: NativeContext, t: Type, originalIds: boolean): unknown {
  ctx.charge(ctx.costs.typeNameGetBase);
  const name = ctx.typeTag(t, { address: 'bare', originalIds, separator: ',' });
  ctx.charge(ctx.costs.typeNameGetPerByte * name.length);
  // TypeName { name: ascii::String { bytes: vector<u8> } }
  return [[MoveVector.fromBytes(new TextEncoder().encode(name))]];
}

function typeId(ctx: NativeContext, t: Type, originalIds: boolean): string {
  const base = ctx.costs.typeNameIdBase;
  if (base === null) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'type_name id natives are not available at this protocol version (no type_name_id_base_cost)');
  ctx.charge(base);
  if (t.kind !== TypeKind.Datatype || t.datatype === null) throw new NativeAbort(0);
  return originalIds ? t.datatype.address : t.datatype.definingId;
}

const typeNameNatives: Record<string, NativeFunction> = {
  get: (ctx, [t]) => [typeName(ctx, t, false)],
  get_with_original_ids: (ctx, [t]) => [typeName(ctx, t, true)],
  with_defining_ids: (ctx, [t]) => [typeName(ctx, t, false)],
  with_original_ids: (ctx, [t]) => [typeName(ctx, t, true)],
  defining_id: (ctx, [t]) => [typeId(ctx, t, false)],
  original_id: (ctx, [t]) => [typeId(ctx, t, true)],
};

const debug: Record<string, NativeFunction> = {
  print: (ctx, [t], [r]) => {
    ctx.charge(ctx.costs.debugPrintBase);
    ctx.debugPrint(`[debug] ${formatDebugValue(ctx, peekRef(r), t)}`);
    return [];
  },
  print_stack_trace: (ctx) => {
    ctx.charge(ctx.costs.debugPrintStackTraceBase);
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

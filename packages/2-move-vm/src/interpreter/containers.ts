/**
 * Interpreter instructions that build or take apart vectors and enum variants on the
 * operand stack (`VecPack`, `VecUnpack`, `VecSwap`, `vector::destroy_empty`, `PackVariant`,
 * `UnpackVariant[Ref]`). Each takes
 * the stack and its height and returns the new height.
 */
import { VmError, VectorError } from '../errors.js';
import type { TranslatedCode } from '../loader/linker.js';
import { vecKindOf } from '../values/bcs.js';
import { borrowSlot, VariantValue } from '../values/value.js';
import { MoveVector } from '../values/vector.js';
import { noteWrite } from '../values/write-watch.js';
import { checkPackDepth, indexOf, vecOpError, vectorError } from './helpers.js';
import type { FunctionInstance } from './instance.js';
import type { ExecutionLimits, Runtime } from './runtime.js';

/** `VecPack` at `at` (vector site `site`): the top elements become one vector. */
export function vecPack(rt: Runtime, inst: FunctionInstance, at: number, site: number, stack: unknown[], sp: number, limits: ExecutionLimits): number {
  if (inst.depthChecked[at] === 0) checkPackDepth(rt, inst, at, limits);
  const n = (inst.code as TranslatedCode).vecSites[site].count;
  const v = MoveVector.empty(vecKindOf(inst.vecElem(rt.types, site)), n);
  const start = sp - n;
  for (let i = start; i < sp; i++) {
    v.push(stack[i]);
    stack[i] = undefined;
  }
  stack[start] = v;
  return start + 1;
}

/** `VecUnpack` (vector site `site`): the vector on top, of exactly the site's length, becomes its elements. */
export function vecUnpack(tc: TranslatedCode, site: number, stack: unknown[], sp: number): number {
  const v = stack[--sp] as MoveVector;
  const n = tc.vecSites[site].count;
  if (v.length !== n) throw vectorError(VectorError.VEC_UNPACK_PARITY_MISMATCH, `expected ${n} elements, found ${v.length}`);
  for (let i = 0; i < n; i++) stack[sp++] = v.get(i);
  return sp;
}

/** `PackVariant` at `at` (variant site `site`): the top fields become one enum value. */
export function packVariant(rt: Runtime, inst: FunctionInstance, at: number, site: number, stack: unknown[], sp: number, limits: ExecutionLimits): number {
  if (inst.depthChecked[at] === 0) checkPackDepth(rt, inst, at, limits);
  const s = (inst.code as TranslatedCode).variantSites[site];
  const fields: unknown[] = new Array<unknown>(s.fieldCount);
  for (let i = s.fieldCount - 1; i >= 0; i--) fields[i] = stack[--sp];
  stack[sp++] = new VariantValue(s.tag, fields);
  return sp;
}

/** `UnpackVariant` (`byRef`: `UnpackVariantImmRef`/`MutRef`, pushing references to the fields). */
export function unpackVariant(tc: TranslatedCode, site: number, byRef: boolean, stack: unknown[], sp: number): number {
  const s = tc.variantSites[site];
  const v = stack[--sp] as VariantValue;
  if (v.tag !== s.tag) throw new VmError('VARIANT_TAG_MISMATCH', `expected variant ${s.tag}, found ${v.tag}`);
  for (let i = 0; i < s.fieldCount; i++) stack[sp++] = byRef ? borrowSlot(v.fields, i) : v.fields[i];
  return sp;
}

/** `VecSwap` (`native`: the inlined `vector::swap`, whose errors are the native's aborts). */
export function vecSwap(tc: TranslatedCode, site: number, native: boolean, stack: unknown[], sp: number): number {
  const j = indexOf(stack[--sp]);
  const i = indexOf(stack[--sp]);
  const v = stack[--sp] as MoveVector;
  if (i >= v.length || j >= v.length) {
    throw vecOpError(native, tc, site, VectorError.INDEX_OUT_OF_BOUNDS, `swap indices ${i}, ${j} out of bounds (length ${v.length})`);
  }
  v.swap(i, j);
  noteWrite(v);
  return sp;
}

/** The inlined `vector::destroy_empty`. */
export function vecDestroyEmpty(tc: TranslatedCode, site: number, stack: unknown[], sp: number): number {
  const v = stack[--sp] as MoveVector;
  if (v.length !== 0) throw vecOpError(true, tc, site, VectorError.VEC_UNPACK_PARITY_MISMATCH, 'destroy a non-empty vector');
  return sp;
}

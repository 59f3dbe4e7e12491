/**
 * The interpreter's cold instructions, run out of line: shifts, boolean operators, deep and
 * reference equality, casts, constants, aborts, vector and variant instructions. Each takes
 * the operand stack and its height and returns the new height (none of them moves the pc).
 *
 * Why out of line: V8 optimizes the interpreter loop (`execute`) for the paths it has seen, and
 * throws the optimized loop away the first time a path it never saw runs (one recompilation of
 * the whole loop, a few hundred milliseconds, per instruction kind first met late). Here, the
 * first cold instruction gives the loop's one call site its feedback; a cold instruction met
 * later re-optimizes only this small function.
 */
import { VmError, VectorError } from '../errors.js';
import type { TranslatedCode } from '../loader/linker.js';
import { Op } from '../loader/ops.js';
import { vecKindOf } from '../values/bcs.js';
import { borrowElement, copyValue, peekRef, valuesEqual } from '../values/value.js';
import { MoveVector } from '../values/vector.js';
import { noteWrite } from '../values/write-watch.js';
import { arithmeticError, castValue, shlBig, shlNum } from './arith.js';
import { packVariant, unpackVariant, vecDestroyEmpty, vecPack, vecSwap, vecUnpack } from './containers.js';
import { indexOf, vecOpError } from './helpers.js';
import type { FunctionInstance } from './instance.js';
import type { ExecutionLimits, Runtime } from './runtime.js';

/**
 * Run cold instruction `op` (operand `arg`, at offset `at` of `inst`) on `stack[0..sp)`.
 * @returns the new stack height.
 * @throws {VmError} as the instruction fails (located by the caller).
 */
export function coldOp(rt: Runtime, inst: FunctionInstance, tc: TranslatedCode, op: number, arg: number, at: number, stack: unknown[], sp: number, limits: ExecutionLimits): number {
  switch (op) {
    case Op.LD_CONST:
      stack[sp++] = copyValue(tc.constants[arg]);
      return sp;
    case Op.SHL_N: {
      const b = stack[--sp] as number;
      stack[sp - 1] = shlNum(stack[sp - 1] as number, b, arg);
      return sp;
    }
    case Op.SHR_N: {
      const b = stack[--sp] as number;
      if (b >= arg) throw arithmeticError('Shift right overflow');
      stack[sp - 1] = (stack[sp - 1] as number) >>> b;
      return sp;
    }
    case Op.SHL_B: {
      const b = stack[--sp] as number;
      stack[sp - 1] = shlBig(stack[sp - 1] as bigint, b, arg);
      return sp;
    }
    case Op.SHR_B: {
      const b = stack[--sp] as number;
      if (b >= arg) throw arithmeticError('Shift right overflow');
      stack[sp - 1] = (stack[sp - 1] as bigint) >> BigInt(b);
      return sp;
    }
    case Op.OR: {
      const b = stack[--sp] as boolean;
      stack[sp - 1] = (stack[sp - 1] as boolean) || b;
      return sp;
    }
    case Op.AND: {
      const b = stack[--sp] as boolean;
      stack[sp - 1] = (stack[sp - 1] as boolean) && b;
      return sp;
    }
    case Op.NOT:
      stack[sp - 1] = !(stack[sp - 1] as boolean);
      return sp;
    case Op.EQ_DEEP: {
      const b = stack[--sp];
      stack[sp - 1] = valuesEqual(stack[sp - 1], b);
      return sp;
    }
    case Op.NEQ_DEEP: {
      const b = stack[--sp];
      stack[sp - 1] = !valuesEqual(stack[sp - 1], b);
      return sp;
    }
    case Op.EQ_REF: {
      const b = peekRef(stack[--sp]);
      stack[sp - 1] = valuesEqual(peekRef(stack[sp - 1]), b);
      return sp;
    }
    case Op.NEQ_REF: {
      const b = peekRef(stack[--sp]);
      stack[sp - 1] = !valuesEqual(peekRef(stack[sp - 1]), b);
      return sp;
    }
    case Op.CAST:
      stack[sp - 1] = castValue(stack[sp - 1] as number | bigint, arg);
      return sp;
    case Op.ABORT: {
      const code = stack[--sp] as bigint;
      throw new VmError('ABORTED', `aborted with ${code}`, { abortCode: code });
    }
    case Op.VEC_PACK:
      return vecPack(rt, inst, at, arg, stack, sp, limits);
    case Op.VEC_LEN:
    case Op.NAT_VEC_LEN:
      stack[sp - 1] = BigInt((peekRef(stack[sp - 1]) as MoveVector).length);
      return sp;
    case Op.VEC_BORROW:
    case Op.NAT_VEC_BORROW: {
      const i = indexOf(stack[--sp]);
      const v = stack[sp - 1] as MoveVector;
      if (i >= v.length) {
        throw vecOpError(op !== Op.VEC_BORROW, tc, arg, VectorError.INDEX_OUT_OF_BOUNDS, `index ${i} out of bounds (length ${v.length})`);
      }
      stack[sp - 1] = borrowElement(v, i);
      return sp;
    }
    case Op.VEC_PUSH_BACK:
    case Op.NAT_VEC_PUSH_BACK: {
      const e = stack[--sp];
      const v = stack[--sp] as MoveVector;
      if (v.length >= limits.maxVectorLength) {
        throw vecOpError(op !== Op.VEC_PUSH_BACK, tc, arg, VectorError.VEC_SIZE_LIMIT_REACHED, `vector length would exceed ${limits.maxVectorLength}`);
      }
      v.push(e);
      noteWrite(v);
      return sp;
    }
    case Op.VEC_POP_BACK:
    case Op.NAT_VEC_POP_BACK: {
      const v = stack[sp - 1] as MoveVector;
      if (v.length === 0) {
        throw vecOpError(op !== Op.VEC_POP_BACK, tc, arg, VectorError.POP_EMPTY_VEC, 'pop from an empty vector');
      }
      stack[sp - 1] = v.pop();
      noteWrite(v);
      return sp;
    }
    case Op.VEC_UNPACK:
      return vecUnpack(tc, arg, stack, sp);
    case Op.VEC_SWAP:
    case Op.NAT_VEC_SWAP:
      return vecSwap(tc, arg, op !== Op.VEC_SWAP, stack, sp);
    case Op.NAT_VEC_EMPTY: {
      const elem = inst.siteTypeArgs(rt.types, arg)[0];
      stack[sp++] = MoveVector.empty(vecKindOf(elem));
      return sp;
    }
    case Op.NAT_VEC_DESTROY_EMPTY:
      return vecDestroyEmpty(tc, arg, stack, sp);
    case Op.PACK_VARIANT:
      return packVariant(rt, inst, at, arg, stack, sp, limits);
    case Op.UNPACK_VARIANT:
    case Op.UNPACK_VARIANT_REF:
      return unpackVariant(tc, arg, op === Op.UNPACK_VARIANT_REF, stack, sp);
    default: // Op.UNSUPPORTED among them
      throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `unsupported instruction at ${arg}`);
  }
}

/**
 * Gas of the `0x1::vector` natives the translator inlines as instructions (`NAT_VEC_*`).
 * Upstream they are native calls: the call instruction (the static part, see
 * `gas/code-costs.ts`), `charge_native_function_before_execution` (one more instruction),
 * the native's own cost from the protocol config
 * (`vector_*_base_cost`, and `push_back`'s legacy charge per unit of the element), counted
 * as a native call (past `NATIVE_FUNCTION_CALL_THRESHOLD` calls the cost also counts as
 * instructions and pays the instruction tier), then one push per returned value and its
 * size (skipped when the native fails). Each such instruction ends its block and this
 * charge runs before it executes, in fast and slow mode alike.
 */
import { VmError } from '../errors.js';
import { primSize, VALUE_HEADER_SIZE, VALUE_REFERENCE_SIZE } from '../gas/abstract-size.js';
import { runtimeValueSize } from '../gas/value-size.js';
import { pushedElementSize } from '../natives/move-stdlib.js';
import { TypeKind } from '../types/runtime-type.js';
import { peekRef } from '../values/value.js';
import type { MoveVector } from '../values/vector.js';
import type { FunctionInstance } from './instance.js';
import { chargeNativeBase, indexOf } from './helpers.js';
import { Op } from '../loader/ops.js';
import { type CallState, instructionTierMult, type Runtime } from './runtime.js';

const PRIM_ELEMENT = new Set<number>([TypeKind.Bool, TypeKind.U8, TypeKind.U16, TypeKind.U32, TypeKind.U64, TypeKind.U128, TypeKind.U256, TypeKind.Address]);

function outOfGas(state: CallState): never {
  state.gasLeft = 0;
  throw new VmError('OUT_OF_GAS', 'gas budget exhausted');
}

/**
 * Charge inlined vector native `op` (call site `site` of `inst`) on the operands at the top
 * of `stack`, into `state.gasLeft`, `state.meter.instructions` and `state.meter.stackSize`.
 * Schedules without a gas model (instruction counting) charge only the static part.
 */
export function chargeInlinedVectorNative(rt: Runtime, state: CallState, inst: FunctionInstance, op: number, site: number, stack: readonly unknown[], sp: number): void {
  const gas = rt.gas;
  const config = gas.sizeConfig;
  if (gas.features === undefined || config === undefined) return;
  const c = rt.stdlibCosts;
  let units: number;
  let fails: boolean;
  let returned = -1; // size of the returned value; -1: nothing returned
  switch (op) {
    case Op.NAT_VEC_EMPTY: {
      const elem = inst.siteTypeArgs(rt.types, site)[0];
      units = c.vectorEmptyBase;
      fails = false;
      returned = PRIM_ELEMENT.has(elem.kind) && !config.includeVectorSize ? 0 : VALUE_HEADER_SIZE;
      break;
    }
    case Op.NAT_VEC_LEN:
      units = c.vectorLengthBase;
      fails = false;
      returned = primSize('u64', config);
      break;
    case Op.NAT_VEC_BORROW:
      units = c.vectorBorrowBase;
      fails = indexOf(stack[sp - 1]) >= (peekRef(stack[sp - 2]) as MoveVector).length;
      returned = VALUE_REFERENCE_SIZE;
      break;
    case Op.NAT_VEC_PUSH_BACK: {
      units = c.vectorPushBackBase;
      if (c.vectorPushBackLegacyPerUnit !== 0) {
        const elem = inst.siteTypeArgs(rt.types, site)[0];
        units += c.vectorPushBackLegacyPerUnit * Math.max(pushedElementSize(rt, stack[sp - 1], elem, c.latestVm), 1);
      }
      fails = (peekRef(stack[sp - 2]) as MoveVector).length >= state.limits.maxVectorLength;
      break;
    }
    case Op.NAT_VEC_POP_BACK: {
      units = c.vectorPopBackBase;
      const v = peekRef(stack[sp - 1]) as MoveVector;
      fails = v.length === 0;
      if (!fails) returned = runtimeValueSize(rt.types, v.get(v.length - 1), inst.siteTypeArgs(rt.types, site)[0], config);
      break;
    }
    case Op.NAT_VEC_DESTROY_EMPTY:
      units = c.vectorDestroyEmptyBase;
      fails = (stack[sp - 1] as MoveVector).length !== 0;
      break;
    case Op.NAT_VEC_SWAP: {
      units = c.vectorSwapBase;
      const len = (peekRef(stack[sp - 3]) as MoveVector).length;
      fails = indexOf(stack[sp - 2]) >= len || indexOf(stack[sp - 1]) >= len;
      break;
    }
    default:
      return;
  }
  chargeNativeBase(rt, state);
  const meter = state.meter;
  meter.nativeCalls = (meter.nativeCalls ?? 0) + 1;
  const threshold = gas.nativeCallThreshold;
  if (threshold !== undefined && meter.nativeCalls > threshold) {
    meter.instructions += units;
    state.gasLeft -= units * instructionTierMult(gas.instructionTiers, meter.instructions);
  } else state.gasLeft -= units;
  if (state.gasLeft < 0) outOfGas(state);
  if (fails || returned < 0) return;
  const size = (meter.stackSize ?? 0) + returned;
  meter.stackSize = size;
  state.gasLeft -= 1 + returned * instructionTierMult(gas.sizeTiers, size);
  if (state.gasLeft < 0) outOfGas(state);
}

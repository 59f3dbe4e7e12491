/**
 * Static gas of translated code under a schedule, per instruction and per basic block,
 * and the run-time part of the instructions whose gas depends on a value's size.
 *
 * An instruction costs `1 + size + pushes` at tier multiplier 1 (upstream `GasStatus::charge`
 * with `num_instructions = 1`). With a schedule that knows the gas model (`features`), the
 * size of `CopyLoc`, `MoveLoc`, `ReadRef`, `WriteRef`, `Eq`, `Neq` and `LdConst` is the
 * abstract size of the value they move, read, write or compare (the constant's length):
 * taken from its type when every value of the type has the same size, measured at run
 * time otherwise ({@link dynamicSize}; those instructions end their block). Without
 * `features`, every instruction costs its opcode's schedule cost. Unpacking instructions
 * push one value per field or element.
 */
import type { TranslatedCode } from '../loader/linker.js';
import { Op } from '../loader/ops.js';
import type { GasSchedule } from './schedule.js';
import type { Type, TypeTable } from '../types/runtime-type.js';
import { peekRef } from '../values/value.js';
import { PRIMITIVE_TYPE_SIZE, REFERENCE_SIZE } from './cost-tables.js';
import { runtimeValueSize, staticTypeSize } from './value-size.js';

/** Per offset: the static cost and size of each instruction; per block head: their sums. */
export interface CodeCosts {
  readonly pcCost: Int32Array;
  readonly pcIncr: Int32Array;
  readonly blockCost: Int32Array;
  readonly blockIncr: Int32Array;
}

const isEq = (op: number): boolean => op >= Op.EQ_PRIM && op <= Op.NEQ_REF;
const isNeq = (op: number): boolean => op === Op.NEQ_PRIM || op === Op.NEQ_DEEP || op === Op.NEQ_REF;

/** The schedule's cost of opcode `op` (an inlined vector native also pays the native base cost). */
function opCostOf(gas: GasSchedule, op: number): number {
  return op >= Op.NAT_VEC_EMPTY && op <= Op.NAT_VEC_SWAP ? gas.opCost[op] + gas.nativeBase : gas.opCost[op];
}

/** How many values an unpacking instruction pushes (-1 for other instructions). */
function unpackCount(tc: TranslatedCode, op: number, arg: number): number {
  switch (op) {
    case Op.UNPACK:
      return arg;
    case Op.UNPACK_VARIANT:
    case Op.UNPACK_VARIANT_REF:
      return tc.variantSites[arg].fieldCount;
    case Op.VEC_UNPACK:
      return tc.vecSites[arg].count;
    default:
      return -1;
  }
}

/** Static gas of every instruction and block of `tc` under `gas`. */
export function codeCosts(gas: GasSchedule, types: TypeTable, tc: TranslatedCode): CodeCosts {
  const n = tc.blockLen.length;
  const pcCost = new Int32Array(n);
  const pcIncr = new Int32Array(n);
  const f = gas.features;
  for (let pc = 0; pc < n; pc++) {
    const op = tc.code[pc << 1];
    const t = tc.sizeTypes[pc];
    const unpacked = f === undefined ? -1 : unpackCount(tc, op, tc.code[(pc << 1) + 1]);
    if (unpacked >= 0) {
      // `Unpack*` and `VecUnpack`: one instruction and a push per value taken out.
      pcCost[pc] = 1 + unpacked;
      continue;
    }
    if (f !== undefined && op >= Op.NAT_VEC_EMPTY && op <= Op.NAT_VEC_SWAP) {
      // An inlined vector native: the call here, the rest when it runs (interpreter/vector-native-gas.ts).
      pcCost[pc] = gas.opCost[Op.CALL];
      continue;
    }
    if (f === undefined || gas.sizeConfig === undefined || gas.sizeConfigTraversal === undefined || (t === undefined && op !== Op.LD_CONST)) {
      pcCost[pc] = opCostOf(gas, op);
      pcIncr[pc] = gas.opIncr?.[op] ?? 0;
      continue;
    }
    const pushes = op === Op.WRITE_REF && f.reduceStackSize ? 0 : 1;
    let size = 0;
    if (op === Op.LD_CONST) size = tc.constBytes[pc];
    else if (op === Op.NEQ_PRIM && !f.neqChargesOperands) size = PRIMITIVE_TYPE_SIZE;
    else if (t !== undefined && !tc.sizedAtRunTime[pc]) {
      if (op === Op.MOVE_LOC && f.reweightMoveLoc) size = REFERENCE_SIZE;
      else if (isEq(op)) size = PRIMITIVE_TYPE_SIZE + 2 * staticTypeSize(types, t, gas.sizeConfigTraversal);
      else size = staticTypeSize(types, t, op === Op.READ_REF && f.reweightReadRef ? gas.sizeConfigTraversal : gas.sizeConfig);
    }
    // else: measured when it runs (dynamicSize).
    pcCost[pc] = 1 + pushes + size;
    pcIncr[pc] = size;
  }
  const blockCost = new Int32Array(n);
  const blockIncr = new Int32Array(n);
  for (let head = 0; head < n; head += tc.blockLen[head]) {
    const end = head + tc.blockLen[head];
    blockCost[head] = sum(pcCost, head, end);
    blockIncr[head] = sum(pcIncr, head, end);
  }
  return { pcCost, pcIncr, blockCost, blockIncr };
}

/** `xs[from] + ... + xs[to - 1]`. */
export function sum(xs: Int32Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) c += xs[i];
  return c;
}

/** What {@link dynamicSize} reads of a function instance (the interpreter's `FunctionInstance`). */
export interface SizedInstance {
  readonly code: TranslatedCode | null;
  /** The type measured by the size charge of instruction `pc`, instantiated. */
  sizeType(table: TypeTable, pc: number): Type;
}

/**
 * The size charged when instruction `pc` of `inst` runs (flagged dynamic by the translator),
 * measured on the operands it is about to use: the local, the value behind the reference,
 * the value written, the two compared values.
 */
export function dynamicSize(gas: GasSchedule, types: TypeTable, inst: SizedInstance, pc: number, stack: readonly unknown[], sp: number, locals: readonly unknown[]): number {
  const f = gas.features;
  const config = gas.sizeConfig;
  const traversal = gas.sizeConfigTraversal;
  if (f === undefined || config === undefined || traversal === undefined) return 0;
  const tc = inst.code as TranslatedCode;
  const op = tc.code[pc << 1];
  const t: Type = inst.sizeType(types, pc);
  switch (op) {
    case Op.COPY_LOC:
    case Op.COPY_LOC_PRIM:
      return runtimeValueSize(types, locals[tc.code[(pc << 1) + 1]], t, config);
    case Op.MOVE_LOC:
      return f.reweightMoveLoc ? REFERENCE_SIZE : runtimeValueSize(types, locals[tc.code[(pc << 1) + 1]], t, config);
    case Op.READ_REF:
      return runtimeValueSize(types, peekRef(stack[sp - 1]), t, f.reweightReadRef ? traversal : config);
    case Op.WRITE_REF:
      return runtimeValueSize(types, stack[sp - 2], t, config);
    default:
      if (isNeq(op) && !f.neqChargesOperands) return PRIMITIVE_TYPE_SIZE;
      return PRIMITIVE_TYPE_SIZE + runtimeValueSize(types, stack[sp - 1], t, traversal) + runtimeValueSize(types, stack[sp - 2], t, traversal);
  }
}

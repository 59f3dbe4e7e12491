/**
 * The gas schedule the interpreter charges: a static cost per internal opcode plus call
 * and native costs. `staticGasSchedule` derives it from the gas model's cost tables
 * (`cost-tables.ts`) with size-dependent instructions priced for a primitive operand; the
 * instruction tier and the stack-size tier (on the size each instruction adds, `opIncr`)
 * apply as the transaction's counts grow. Exact per-value metering is `GasMeter`'s job.
 */
import { Op, OP_COUNT } from '../loader/ops.js';
import { type SizeConfig, sizeConfigForGasModel } from './abstract-size.js';
import {
  baseInstructionCost,
  costTableForGasModelVersion,
  type GasModelFeatures,
  gasModelFeatures,
  NATIVE_FUNCTION_CALL_THRESHOLD,
  PRIMITIVE_TYPE_SIZE,
  REFERENCE_SIZE,
  STRUCT_SIZE,
  VEC_SIZE,
} from './cost-tables.js';

/** Gas meter: a budget and per-instruction costs. */
export interface GasSchedule {
  /** Cost of each internal opcode. */
  readonly opCost: Int32Array;
  /** Cost of a call (callee frame setup). */
  readonly callBase: number;
  /** Extra cost per argument of a call. */
  readonly callPerArg: number;
  /** Cost of a native call. */
  readonly nativeBase: number;
  /**
   * Instruction tiers (`[threshold, multiplier]`, first threshold 0): once more than a
   * threshold of instructions ran in the transaction, each instruction costs `multiplier - 1`
   * more (upstream `instructions_current_tier_mult`). Absent: multiplier 1 throughout.
   */
  readonly instructionTiers?: readonly (readonly [number, number])[];
  /**
   * After this many native calls in a transaction, a native's cost is also counted as that
   * many instructions and pays the instruction tier (upstream `native_function_threshold_exceeded`,
   * gas model > 8). Absent: never.
   */
  readonly nativeCallThreshold?: number;
  /**
   * Size each opcode adds to the transaction's stack size (included in `opCost`): past
   * the thresholds of `sizeTiers` it costs `multiplier - 1` more per unit (upstream
   * `stack_size_current_tier_mult`). Absent: no stack-size tier.
   */
  readonly opIncr?: Int32Array;
  /** Stack-size tiers (`[threshold, multiplier]`, first threshold 0). */
  readonly sizeTiers?: readonly (readonly [number, number])[];
  /** How values are sized (natives' return values, copies, reads, writes). Absent: by opcode only. */
  readonly sizeConfig?: SizeConfig;
  /** How compared values are sized (references followed where the gas model does). */
  readonly sizeConfigTraversal?: SizeConfig;
  /** The gas model's behaviour switches: with them, instructions are priced by the sizes of their values. */
  readonly features?: GasModelFeatures;
}

/** A schedule charging `perInstruction` for every instruction (instruction counting). */
export function uniformGasSchedule(perInstruction = 1): GasSchedule {
  // Same shape as `staticGasSchedule`'s, so the interpreter's property loads stay monomorphic.
  return {
    opCost: new Int32Array(OP_COUNT).fill(perInstruction),
    callBase: perInstruction,
    callPerArg: 0,
    nativeBase: perInstruction,
    instructionTiers: undefined,
    nativeCallThreshold: undefined,
    opIncr: undefined,
    sizeTiers: undefined,
    sizeConfig: undefined,
    sizeConfigTraversal: undefined,
    features: undefined,
  };
}

/**
 * Static per-opcode costs of gas model `gasModelVersion` (internal units): fixed-shape
 * instructions cost `1 + size increase + pushes`; copies, moves, reads, writes, loads of
 * constants and comparisons are priced for a primitive value (8 bytes; 16 up to model 10).
 */
export function staticGasSchedule(gasModelVersion = 14): GasSchedule {
  const base = (kind: string): number => baseInstructionCost(kind) ?? 1;
  const prim = gasModelVersion <= 10 ? 16 : 8;
  const opCost = new Int32Array(OP_COUNT).fill(1);
  const set = (ops: readonly number[], cost: number): void => ops.forEach((o) => (opCost[o] = cost));
  set([Op.POP, Op.RET, Op.ST_LOC, Op.ABORT, Op.NOP, Op.BRANCH, Op.BR_TRUE, Op.BR_FALSE, Op.VEC_PUSH_BACK, Op.NAT_VEC_PUSH_BACK, Op.VARIANT_SWITCH], 1);
  set([Op.LD_SMALL, Op.LD_BIG, Op.LD_TRUE, Op.LD_FALSE, Op.CAST, Op.NOT, Op.OR, Op.AND, Op.LT, Op.GT, Op.LE, Op.GE], base('LD_U64'));
  set([Op.ADD_N, Op.SUB_N, Op.MUL_N, Op.DIV_N, Op.MOD_N, Op.ADD_B, Op.SUB_B, Op.MUL_B, Op.DIV_B, Op.MOD_B], base('ADD'));
  set([Op.BIT_OR_N, Op.BIT_AND_N, Op.XOR_N, Op.BIT_OR_B, Op.BIT_AND_B, Op.XOR_B, Op.SHL_N, Op.SHR_N, Op.SHL_B, Op.SHR_B], base('ADD'));
  set([Op.COPY_LOC_PRIM, Op.COPY_LOC, Op.READ_REF, Op.WRITE_REF, Op.LD_CONST], 1 + prim + 1);
  set([Op.MOVE_LOC], gasModelVersion >= 14 ? 10 : 1 + prim + 1);
  set([Op.EQ_PRIM, Op.NEQ_PRIM, Op.EQ_DEEP, Op.NEQ_DEEP, Op.EQ_REF, Op.NEQ_REF], 1 + 1 + 2 * prim + 1);
  set([Op.BORROW_LOC], base('MUT_BORROW_LOC'));
  set([Op.BORROW_FIELD], base('MUT_BORROW_FIELD'));
  set([Op.FREEZE_REF], base('FREEZE_REF'));
  set([Op.VEC_LEN, Op.NAT_VEC_LEN], base('VEC_LEN'));
  set([Op.VEC_BORROW, Op.NAT_VEC_BORROW], base('VEC_IMM_BORROW'));
  set([Op.VEC_POP_BACK, Op.NAT_VEC_POP_BACK], base('VEC_POP_BACK'));
  set([Op.VEC_SWAP, Op.NAT_VEC_SWAP], gasModelVersion >= 14 ? 1 : 2);
  set([Op.VEC_PACK, Op.NAT_VEC_EMPTY], 1 + 8 + 1);
  set([Op.PACK, Op.PACK_VARIANT], 1 + 2 + 1);
  set([Op.UNPACK, Op.UNPACK_VARIANT, Op.UNPACK_VARIANT_REF, Op.VEC_UNPACK], 1 + 1);
  // The size increase each opcode's cost includes: what the stack-size tier multiplies.
  const opIncr = new Int32Array(OP_COUNT);
  const incr = (ops: readonly number[], n: number): void => ops.forEach((o) => (opIncr[o] = n));
  incr([Op.LD_SMALL, Op.LD_BIG, Op.LD_TRUE, Op.LD_FALSE, Op.CAST, Op.NOT, Op.OR, Op.AND, Op.LT, Op.GT, Op.LE, Op.GE, Op.VEC_LEN, Op.NAT_VEC_LEN], PRIMITIVE_TYPE_SIZE);
  incr([Op.ADD_N, Op.SUB_N, Op.MUL_N, Op.DIV_N, Op.MOD_N, Op.ADD_B, Op.SUB_B, Op.MUL_B, Op.DIV_B, Op.MOD_B], PRIMITIVE_TYPE_SIZE);
  incr([Op.BIT_OR_N, Op.BIT_AND_N, Op.XOR_N, Op.BIT_OR_B, Op.BIT_AND_B, Op.XOR_B, Op.SHL_N, Op.SHR_N, Op.SHL_B, Op.SHR_B], PRIMITIVE_TYPE_SIZE);
  incr([Op.COPY_LOC_PRIM, Op.COPY_LOC, Op.READ_REF, Op.WRITE_REF, Op.LD_CONST, Op.MOVE_LOC], prim);
  incr([Op.EQ_PRIM, Op.NEQ_PRIM, Op.EQ_DEEP, Op.NEQ_DEEP, Op.EQ_REF, Op.NEQ_REF], PRIMITIVE_TYPE_SIZE + 2 * prim);
  incr([Op.BORROW_LOC, Op.BORROW_FIELD, Op.FREEZE_REF, Op.VEC_BORROW, Op.NAT_VEC_BORROW], REFERENCE_SIZE);
  incr([Op.VEC_PACK, Op.NAT_VEC_EMPTY], VEC_SIZE);
  incr([Op.PACK, Op.PACK_VARIANT], STRUCT_SIZE);
  const table = costTableForGasModelVersion(gasModelVersion);
  const features = gasModelFeatures(gasModelVersion);
  return {
    opCost,
    callBase: 1,
    callPerArg: 0,
    nativeBase: 1,
    instructionTiers: table.instructionTiers,
    nativeCallThreshold: gasModelVersion > 8 ? NATIVE_FUNCTION_CALL_THRESHOLD : undefined,
    opIncr,
    sizeTiers: table.stackSizeTiers,
    sizeConfig: sizeConfigForGasModel(features, false),
    sizeConfigTraversal: sizeConfigForGasModel(features, true),
    features,
  };
}

/** The default schedule: the static costs of the latest gas model (14). */
export function defaultGasSchedule(): GasSchedule {
  return staticGasSchedule(14);
}

/**
 * The gas costs upstream's VM test harness charges (`INITIAL_COST_SCHEDULE` of
 * `move-vm-runtime/src/dev_utils/gas_schedule.rs`), mapped onto our VM's static
 * per-opcode schedule. Upstream charges `instruction + memory` gas per instruction, times
 * the abstract size of the value for size-dependent instructions; a static schedule cannot
 * see values, so size-dependent instructions are priced for the operand they usually get
 * (8 for primitives and references, as upstream's `abstract_memory_size` counts them).
 * Exact for fixed-cost instructions, for `VariantSwitch` and `ReadRef` (always over a
 * reference) and for calls; an approximation elsewhere. Only `--gas-budget` tasks care.
 */
import { Op, type GasSchedule } from '@smi/move-vm';

/** `instruction + memory` of each upstream opcode the schedule uses. */
const COST = {
  POP: 2,
  RET: 639,
  BR_TRUE: 2,
  BR_FALSE: 2,
  BRANCH: 2,
  LD: 2,
  LD_CONST: 2,
  COPY_LOC: 2,
  MOVE_LOC: 2,
  ST_LOC: 2,
  IMM_BORROW_LOC: 2,
  BORROW_FIELD: 2,
  CALL: 1133,
  PACK: 3,
  UNPACK: 3,
  READ_REF: 2,
  WRITE_REF: 2,
  FREEZE_REF: 2,
  ADD: 2,
  DIV: 4,
  BIT_OR: 3,
  BIT_AND: 3,
  XOR: 2,
  SHL: 3,
  SHR: 2,
  OR: 3,
  AND: 2,
  NOT: 2,
  EQ: 2,
  LT: 2,
  LE: 3,
  CAST: 3,
  ABORT: 2,
  NOP: 2,
  VEC_PACK: 85,
  VEC_LEN: 99,
  VEC_IMM_BORROW: 1335,
  VEC_PUSH_BACK: 54,
  VEC_POP_BACK: 228,
  VEC_UNPACK: 573,
  VEC_SWAP: 1437,
  VARIANT: 3,
} as const;

/** Abstract size upstream gives a primitive below u128, and a reference. */
const SIZE = 8;

/** Upstream's VM-test gas costs as a static schedule of our VM (internal units). */
export function upstreamTestGasSchedule(): GasSchedule {
  const count = Math.max(...Object.values(Op).filter((v): v is number => typeof v === 'number')) + 1;
  const opCost = new Int32Array(count).fill(COST.NOP);
  const set = (ops: readonly number[], cost: number): void => ops.forEach((o) => (opCost[o] = cost));
  set([Op.POP], COST.POP);
  set([Op.RET], COST.RET);
  set([Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH], COST.BRANCH);
  set([Op.LD_SMALL, Op.LD_BIG, Op.LD_TRUE, Op.LD_FALSE], COST.LD);
  set([Op.LD_CONST], COST.LD_CONST * SIZE);
  set([Op.COPY_LOC_PRIM, Op.COPY_LOC], COST.COPY_LOC * SIZE);
  set([Op.MOVE_LOC], COST.MOVE_LOC * SIZE);
  set([Op.ST_LOC], COST.ST_LOC * SIZE);
  set([Op.BORROW_LOC], COST.IMM_BORROW_LOC);
  set([Op.BORROW_FIELD], COST.BORROW_FIELD);
  set([Op.CALL], 0);
  set([Op.PACK, Op.PACK_VARIANT], COST.PACK * SIZE);
  set([Op.UNPACK, Op.UNPACK_VARIANT, Op.UNPACK_VARIANT_REF], COST.UNPACK * SIZE);
  set([Op.READ_REF], COST.READ_REF * SIZE);
  set([Op.WRITE_REF], COST.WRITE_REF * SIZE);
  set([Op.FREEZE_REF], COST.FREEZE_REF);
  set([Op.ADD_N, Op.SUB_N, Op.MUL_N, Op.MOD_N, Op.ADD_B, Op.SUB_B, Op.MUL_B, Op.MOD_B], COST.ADD);
  set([Op.DIV_N, Op.DIV_B], COST.DIV);
  set([Op.BIT_OR_N, Op.BIT_OR_B], COST.BIT_OR);
  set([Op.BIT_AND_N, Op.BIT_AND_B], COST.BIT_AND);
  set([Op.XOR_N, Op.XOR_B], COST.XOR);
  set([Op.SHL_N, Op.SHL_B], COST.SHL);
  set([Op.SHR_N, Op.SHR_B], COST.SHR);
  set([Op.OR], COST.OR);
  set([Op.AND], COST.AND);
  set([Op.NOT], COST.NOT);
  set([Op.EQ_PRIM, Op.NEQ_PRIM, Op.EQ_DEEP, Op.NEQ_DEEP, Op.EQ_REF, Op.NEQ_REF], COST.EQ * 2 * SIZE);
  set([Op.LT, Op.GT, Op.GE], COST.LT);
  set([Op.LE], COST.LE);
  set([Op.CAST], COST.CAST);
  set([Op.ABORT], COST.ABORT);
  set([Op.NOP], COST.NOP);
  set([Op.VEC_PACK, Op.NAT_VEC_EMPTY], COST.VEC_PACK);
  set([Op.VEC_LEN, Op.NAT_VEC_LEN], COST.VEC_LEN);
  set([Op.VEC_BORROW, Op.NAT_VEC_BORROW], COST.VEC_IMM_BORROW);
  set([Op.VEC_PUSH_BACK, Op.NAT_VEC_PUSH_BACK], COST.VEC_PUSH_BACK * SIZE);
  set([Op.VEC_POP_BACK, Op.NAT_VEC_POP_BACK], COST.VEC_POP_BACK);
  set([Op.VEC_UNPACK, Op.NAT_VEC_DESTROY_EMPTY], COST.VEC_UNPACK);
  set([Op.VEC_SWAP, Op.NAT_VEC_SWAP], COST.VEC_SWAP);
  set([Op.VARIANT_SWITCH], COST.VARIANT * SIZE);
  // `Call`: (1132 + 1) per argument plus one; stdlib natives cost nothing (zero gas parameters).
  return { opCost, callBase: COST.CALL, callPerArg: COST.CALL, nativeBase: 0 };
}

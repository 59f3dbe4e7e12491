/**
 * Basic blocks and superinstructions of translated code.
 *
 * The interpreter charges gas once per basic block when it can prove no tier threshold,
 * gas shortfall or stack limit is reached inside the block (the "fast" mode); otherwise
 * (and always under a tracer) it runs the block instruction by instruction, charging each
 * one (the "slow" mode). Both modes charge exactly the same amounts.
 *
 * Fast mode runs {@link BlockPlan.fastCode}: the same instructions, except that common
 * sequences inside one block start with a fused opcode that does the whole sequence in
 * one dispatch. The fused sequence's other slots keep their own instructions (the fused
 * opcode reads its operands from them), so offsets, branch targets and error locations
 * are the bytecode's.
 */
import { DYN, HEAD, Op } from './ops.js';

/** The block layout and the two code arrays of a function. */
export interface BlockPlan {
  /**
   * Translated code with {@link HEAD} added to the opcode of every block's first instruction
   * and {@link DYN} to the instructions whose gas depends on a value's size.
   */
  readonly slowCode: Int32Array;
  /** `slowCode` with superinstructions (fused opcodes, {@link HEAD} kept). */
  readonly fastCode: Int32Array;
  /** Per offset: the number of instructions of the block starting there (0 elsewhere). */
  readonly blockLen: Int32Array;
}

/** Instructions after which a new block starts (control leaves or may leave the frame). */
const ENDS_BLOCK: ReadonlySet<number> = new Set<number>([Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH, Op.RET, Op.ABORT, Op.CALL, Op.VARIANT_SWITCH]);

/** Operand loads a fused opcode can read (values usable without a copy). */
const OPERAND: ReadonlySet<number> = new Set<number>([Op.COPY_LOC_PRIM, Op.MOVE_LOC, Op.LD_BIG, Op.LD_SMALL]);

/** Comparisons a fused compare-and-branch can do. */
const COMPARISON: ReadonlySet<number> = new Set<number>([Op.LT, Op.GT, Op.LE, Op.GE, Op.EQ_PRIM, Op.NEQ_PRIM]);

/** Binary integer operations a fused operation can do (see `binaryOp`). */
export const FUSABLE_BINARY: ReadonlySet<number> = new Set<number>([
  Op.ADD_N,
  Op.SUB_N,
  Op.MUL_N,
  Op.DIV_N,
  Op.MOD_N,
  Op.ADD_B,
  Op.SUB_B,
  Op.MUL_B,
  Op.DIV_B,
  Op.MOD_B,
  Op.BIT_OR_N,
  Op.BIT_AND_N,
  Op.XOR_N,
  Op.BIT_OR_B,
  Op.BIT_AND_B,
  Op.XOR_B,
]);

/**
 * Block heads: the entry, branch and jump-table targets, and every instruction after a block
 * end (a branch, return, abort or call, or an instruction whose gas depends on a value's size).
 */
function blockHeads(code: Int32Array, jumpTables: readonly Int32Array[], dynamic: readonly boolean[]): Uint8Array {
  const n = code.length >> 1;
  const head = new Uint8Array(n);
  if (n > 0) head[0] = 1;
  for (let pc = 0; pc < n; pc++) {
    const op = code[pc << 1];
    if (op === Op.BR_TRUE || op === Op.BR_FALSE || op === Op.BRANCH) {
      const target = code[(pc << 1) + 1];
      if (target >= 0 && target < n) head[target] = 1;
    }
    if ((ENDS_BLOCK.has(op) || dynamic[pc]) && pc + 1 < n) head[pc + 1] = 1;
  }
  for (const table of jumpTables) for (const target of table) if (target >= 0 && target < n) head[target] = 1;
  return head;
}

/** The fused opcode for the sequence starting at `pc` (inside the block ending before `end`), if any. */
function fusionAt(code: Int32Array, pc: number, end: number): number | undefined {
  const op = (k: number): number => code[(pc + k) << 1];
  const left = end - pc;
  if (left >= 3 && (op(0) === Op.BORROW_LOC || op(0) === Op.COPY_LOC_PRIM || op(0) === Op.MOVE_LOC) && op(1) === Op.BORROW_FIELD && op(2) === Op.READ_REF) {
    return Op.F_FIELD_READ;
  }
  if (left >= 2 && FUSABLE_BINARY.has(op(0)) && op(1) === Op.ST_LOC) return Op.F_OP_ST;
  if (left >= 2 && (op(0) === Op.COPY_LOC_PRIM || op(0) === Op.MOVE_LOC) && op(1) === Op.RET) return Op.F_LOC_RET;
  if (left < 2 || !OPERAND.has(op(0))) return undefined;
  if (left >= 3 && OPERAND.has(op(1))) {
    if (left >= 4 && COMPARISON.has(op(2)) && (op(3) === Op.BR_TRUE || op(3) === Op.BR_FALSE)) return Op.F_CMP_BR;
    if (FUSABLE_BINARY.has(op(2))) return left >= 4 && op(3) === Op.ST_LOC ? Op.F_BIN_ST : Op.F_BIN;
  }
  if (!FUSABLE_BINARY.has(op(1))) return undefined;
  return left >= 3 && op(2) === Op.ST_LOC ? Op.F_BIN1_ST : Op.F_BIN1;
}

/** Number of instructions the fused opcode `f` stands for. */
function fusedLength(f: number): number {
  if (f === Op.F_BIN1 || f === Op.F_OP_ST || f === Op.F_LOC_RET) return 2;
  if (f === Op.F_BIN1_ST) return 3;
  return f === Op.F_BIN || f === Op.F_FIELD_READ ? 3 : 4;
}

/**
 * Split `code` into blocks and fuse what can be fused inside each block. `dynamic` marks the
 * instructions whose gas depends on a value's size: they end their block, get {@link DYN}
 * and are never fused.
 */
export function planBlocks(code: Int32Array, jumpTables: readonly Int32Array[], dynamic: readonly boolean[] = []): BlockPlan {
  const n = code.length >> 1;
  const head = blockHeads(code, jumpTables, dynamic);
  const blockLen = new Int32Array(n);
  const slowCode = Int32Array.from(code);
  for (let pc = 0; pc < n; ) {
    let end = pc + 1;
    while (end < n && head[end] === 0) end++;
    blockLen[pc] = end - pc;
    slowCode[pc << 1] += HEAD;
    pc = end;
  }
  for (let pc = 0; pc < n; pc++) if (dynamic[pc]) slowCode[pc << 1] += DYN;
  const fastCode = Int32Array.from(slowCode);
  for (let start = 0; start < n; start += blockLen[start]) {
    const end = start + blockLen[start];
    for (let pc = start; pc < end; ) {
      let f = fusionAt(code, pc, end);
      if (f !== undefined) {
        const len = fusedLength(f);
        for (let k = 0; k < len; k++) if (dynamic[pc + k]) f = undefined;
      }
      if (f === undefined) {
        pc++;
        continue;
      }
      fastCode[pc << 1] = f + (pc === start ? HEAD : 0);
      pc += fusedLength(f);
    }
  }
  return { slowCode, fastCode, blockLen };
}

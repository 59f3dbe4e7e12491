/**
 * Internal opcodes of translated code. The translator turns each Move instruction into
 * one of these, typed where Move's instruction is untyped (`Add` on u8 vs u64 ...), so
 * the interpreter never inspects types while running.
 *
 * A TypeScript `enum` so that bundling (esbuild) inlines the values: a `switch` over literal
 * case labels compiles to a jump table, over property loads to a chain of comparisons.
 */
export enum Op {
  POP = 0,
  RET = 1,
  BR_TRUE = 2,
  BR_FALSE = 3,
  BRANCH = 4,
  LD_SMALL = 5, // arg = the number (u8/u16/u32)
  LD_BIG = 6, // arg = index into the bigint pool
  LD_CONST = 7, // arg = constant index (value copied at each load)
  LD_TRUE = 8,
  LD_FALSE = 9,
  COPY_LOC_PRIM = 10,
  COPY_LOC = 11, // deep copy (container or unknown)
  MOVE_LOC = 12,
  ST_LOC = 13,
  BORROW_LOC = 14,
  BORROW_FIELD = 15, // arg = field offset
  CALL = 16, // arg = call site index
  PACK = 17, // arg = field count
  UNPACK = 18, // arg = field count
  READ_REF = 19,
  WRITE_REF = 20,
  FREEZE_REF = 21,
  // Arithmetic on numbers (u8/u16/u32): arg = bit width
  ADD_N = 22,
  SUB_N = 23,
  MUL_N = 24,
  DIV_N = 25,
  MOD_N = 26,
  // Arithmetic on bigints (u64/u128/u256): arg = bit width
  ADD_B = 27,
  SUB_B = 28,
  MUL_B = 29,
  DIV_B = 30,
  MOD_B = 31,
  BIT_OR_N = 32,
  BIT_AND_N = 33,
  XOR_N = 34,
  BIT_OR_B = 35,
  BIT_AND_B = 36,
  XOR_B = 37,
  SHL_N = 38, // arg = bit width
  SHR_N = 39,
  SHL_B = 40,
  SHR_B = 41,
  OR = 42,
  AND = 43,
  NOT = 44,
  EQ_PRIM = 45,
  NEQ_PRIM = 46,
  EQ_DEEP = 47,
  NEQ_DEEP = 48,
  EQ_REF = 49,
  NEQ_REF = 50,
  LT = 51,
  GT = 52,
  LE = 53,
  GE = 54,
  CAST = 55, // arg = target bit width (operand's type decided at run time by JS type)
  ABORT = 56,
  NOP = 57,
  VEC_PACK = 58, // arg = vector site index
  VEC_LEN = 59,
  VEC_BORROW = 60,
  VEC_PUSH_BACK = 61,
  VEC_POP_BACK = 62,
  VEC_UNPACK = 63, // arg = vector site index
  VEC_SWAP = 64,
  PACK_VARIANT = 65, // arg = variant site index
  UNPACK_VARIANT = 66, // arg = variant site index
  UNPACK_VARIANT_REF = 67, // arg = variant site index
  VARIANT_SWITCH = 68, // arg = jump table index
  // Inlined 0x1::vector natives (charged as natives); arg = call site index (for tracing)
  NAT_VEC_EMPTY = 69,
  NAT_VEC_LEN = 70,
  NAT_VEC_BORROW = 71,
  NAT_VEC_PUSH_BACK = 72,
  NAT_VEC_POP_BACK = 73,
  NAT_VEC_DESTROY_EMPTY = 74,
  NAT_VEC_SWAP = 75,
  /** Unsupported legacy instruction (global storage); arg = original opcode. */
  UNSUPPORTED = 76,
  // Superinstructions (fast code only, see loader/blocks.ts); the sequence's other slots keep
  // their instructions, which the fused opcode reads its operands from.
  /** `load a; load b; compare; BrTrue|BrFalse` (loads: CopyLoc/MoveLoc of a primitive, LdU*). */
  F_CMP_BR = 77,
  /** `load a; load b; binary op` (result pushed). */
  F_BIN = 78,
  /** `load a; load b; binary op; StLoc`. */
  F_BIN_ST = 79,
  /** `BorrowLoc|CopyLoc|MoveLoc l; BorrowField f; ReadRef`: a copy of field `f`. */
  F_FIELD_READ = 80,
  /** `load b; binary op`: the value on the stack op `b`. */
  F_BIN1 = 81,
  /** `load b; binary op; StLoc`. */
  F_BIN1_ST = 82,
  /** `binary op; StLoc`. */
  F_OP_ST = 83,
  /** `CopyLoc|MoveLoc l; Ret`. */
  F_LOC_RET = 84,
}

/** Number of internal opcodes. */
export const OP_COUNT = 85;

/** Added to the opcode of the first instruction of a basic block (in the interpreter's code arrays). */
export const HEAD = 128;

/** Added to the opcode of an instruction whose gas depends on a value's size (always a block's last). */
export const DYN = 256;

/** Name of each internal opcode, for tracing and debugging. */
export const OP_NAME: readonly string[] = (() => {
  const names: string[] = new Array<string>(OP_COUNT).fill('?');
  for (const [k, v] of Object.entries(Op)) if (typeof v === 'number') names[v] = k;
  return names;
})();

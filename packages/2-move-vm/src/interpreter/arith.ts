/**
 * Integer helpers for the interpreter: maxima by bit width, shifts and casts with Move's
 * rules (`ARITHMETIC_ERROR` on overflow, on a shift by at least the width, on a cast that
 * does not fit).
 */
import { VmError } from '../errors.js';
import { Op } from '../loader/ops.js';

/** Largest value of u8/u16/u32, indexed by bit width. */
export const NUM_MAX: readonly number[] = (() => {
  const t: number[] = [];
  t[8] = 0xff;
  t[16] = 0xffff;
  t[32] = 0xffffffff;
  return t;
})();

/** Largest value of u64/u128/u256, indexed by bit width. */
export const BIG_MAX: readonly bigint[] = (() => {
  const t: bigint[] = [];
  t[64] = (1n << 64n) - 1n;
  t[128] = (1n << 128n) - 1n;
  t[256] = (1n << 256n) - 1n;
  return t;
})();

/** An `ARITHMETIC_ERROR`. */
export function arithmeticError(message: string): VmError {
  return new VmError('ARITHMETIC_ERROR', message);
}

/** `a << b` for u8/u16/u32 (bits shifted out are dropped; `b >= bits` is an error). */
export function shlNum(a: number, b: number, bits: number): number {
  if (b >= bits) throw arithmeticError('Shift left overflow');
  const r = (a << b) >>> 0;
  return bits === 32 ? r : r & NUM_MAX[bits];
}

/** `a << b` for u64/u128/u256. */
export function shlBig(a: bigint, b: number, bits: number): bigint {
  if (b >= bits) throw arithmeticError('Shift left overflow');
  return (a << BigInt(b)) & BIG_MAX[bits];
}

/** Cast an integer (number or bigint) to an unsigned integer of `bits` bits. */
export function castValue(v: number | bigint, bits: number): number | bigint {
  if (bits <= 32) {
    const max = NUM_MAX[bits];
    if (typeof v === 'bigint') {
      if (v > BigInt(max)) throw arithmeticError(`Cannot cast ${v} to u${bits}`);
      return Number(v);
    }
    if (v > max) throw arithmeticError(`Cannot cast ${v} to u${bits}`);
    return v;
  }
  const b = typeof v === 'bigint' ? v : BigInt(v);
  if (b > BIG_MAX[bits]) throw arithmeticError(`Cannot cast ${v} to u${bits}`);
  return b;
}

const U64_MAX = 0xffffffffffffffffn;

/**
 * `a op b` for the integer operations of `FUSABLE_BINARY` (`Op.ADD_N` ... `Op.XOR_B`) on
 * `bits`-bit operands: numbers for u8/u16/u32, bigints for u64 and wider.
 * @throws {VmError} `ARITHMETIC_ERROR` on overflow, underflow and division by zero.
 */
export function binaryOp(op: number, a: unknown, b: unknown, bits: number): number | bigint {
  switch (op) {
    case Op.ADD_N: {
      const r = (a as number) + (b as number);
      if (r > NUM_MAX[bits]) throw arithmeticError('Addition overflow');
      return r;
    }
    case Op.SUB_N:
      if ((a as number) < (b as number)) throw arithmeticError('Subtraction underflow');
      return (a as number) - (b as number);
    case Op.MUL_N: {
      const r = (a as number) * (b as number);
      if (r > NUM_MAX[bits]) throw arithmeticError('Multiplication overflow');
      return r;
    }
    case Op.DIV_N:
      if (b === 0) throw arithmeticError('Division by zero');
      return Math.floor((a as number) / (b as number));
    case Op.MOD_N:
      if (b === 0) throw arithmeticError('Integer remainder by zero');
      return (a as number) % (b as number);
    case Op.ADD_B: {
      const r = (a as bigint) + (b as bigint);
      if (r > (bits === 64 ? U64_MAX : BIG_MAX[bits])) throw arithmeticError('Addition overflow');
      return r;
    }
    case Op.SUB_B:
      if ((a as bigint) < (b as bigint)) throw arithmeticError('Subtraction underflow');
      return (a as bigint) - (b as bigint);
    case Op.MUL_B: {
      const r = (a as bigint) * (b as bigint);
      if (r > BIG_MAX[bits]) throw arithmeticError('Multiplication overflow');
      return r;
    }
    case Op.DIV_B:
      if (b === 0n) throw arithmeticError('Division by zero');
      return (a as bigint) / (b as bigint);
    case Op.MOD_B:
      if (b === 0n) throw arithmeticError('Integer remainder by zero');
      return (a as bigint) % (b as bigint);
    case Op.BIT_OR_N:
      return ((a as number) | (b as number)) >>> 0;
    case Op.BIT_AND_N:
      return ((a as number) & (b as number)) >>> 0;
    case Op.XOR_N:
      return ((a as number) ^ (b as number)) >>> 0;
    case Op.BIT_OR_B:
      return (a as bigint) | (b as bigint);
    case Op.BIT_AND_B:
      return (a as bigint) & (b as bigint);
    case Op.XOR_B:
      return (a as bigint) ^ (b as bigint);
    default:
      throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `opcode ${op} is not a binary integer operation`);
  }
}

/** `a cmp b` for `Op.LT`, `GT`, `LE`, `GE` (integers) and `EQ_PRIM`, `NEQ_PRIM` (primitives). */
export function compareOp(op: number, a: unknown, b: unknown): boolean {
  switch (op) {
    case Op.LT:
      return (a as number) < (b as number);
    case Op.GT:
      return (a as number) > (b as number);
    case Op.LE:
      return (a as number) <= (b as number);
    case Op.GE:
      return (a as number) >= (b as number);
    case Op.EQ_PRIM:
      return a === b;
    default:
      return a !== b;
  }
}

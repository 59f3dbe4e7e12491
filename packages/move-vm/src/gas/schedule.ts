/**
 * The gas schedule the interpreter charges: a cost per internal opcode plus call and
 * native costs. `defaultGasSchedule` is deterministic; per-instruction agreement with
 * upstream is refined in `cost-tables.ts`.
 */
import { OP_COUNT } from '../interpreter/ops.js';
import type { GasSchedule } from '../interpreter/runtime.js';

/** A schedule charging `perInstruction` for every instruction. */
export function uniformGasSchedule(perInstruction = 1): GasSchedule {
  return {
    opCost: new Int32Array(OP_COUNT).fill(perInstruction),
    callBase: perInstruction,
    callPerArg: 0,
    nativeBase: perInstruction,
  };
}

/** The default schedule. */
export function defaultGasSchedule(): GasSchedule {
  return uniformGasSchedule(1);
}

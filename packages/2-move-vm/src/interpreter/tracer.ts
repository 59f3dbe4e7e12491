/**
 * Hooks the interpreter calls when a tracer is installed (never otherwise). A tracer
 * sees each frame open and close and each instruction before and after it runs, with
 * the operand stack and locals, and derives its records (the upstream trace format
 * lives in `tracing/`).
 */
import type { FunctionInstance } from './instance.js';

/** A view of the machine at an instruction boundary. */
export interface MachineView {
  /** The operand stack (valid up to `sp`, exclusive). */
  readonly stack: readonly unknown[];
  readonly sp: number;
  /** The running frame's locals. */
  readonly locals: readonly unknown[];
  /** Id of the running frame. */
  readonly frameId: number;
  readonly gasLeft: number;
}

/** Interpreter hooks. */
export interface Tracer {
  /** A frame opens: `args` are the values passed (references included). */
  openFrame(inst: FunctionInstance, frameId: number, args: readonly unknown[], gasLeft: number): void;
  /** Before the instruction at `pc` runs. */
  beforeInstruction(inst: FunctionInstance, pc: number, view: MachineView): void;
  /** After the instruction at `pc` ran (not called when it failed). */
  afterInstruction(inst: FunctionInstance, pc: number, view: MachineView): void;
  /** A frame closes, returning `returns`. */
  closeFrame(inst: FunctionInstance, frameId: number, returns: readonly unknown[], gasLeft: number): void;
  /** Execution failed with `code` (status code name). */
  error(code: string): void;
}

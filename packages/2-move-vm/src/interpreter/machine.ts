/**
 * The interpreter's machine state as data: its frames, the registers it shares with the
 * compiled tier, and the reusable {@link Machine} a runtime hands out. Types only, so the
 * runtime, the helpers and the compiled tier all use them without importing each other.
 */
import type { TranslatedCode } from '../loader/linker.js';
import type { FunctionInstance } from './instance.js';

/** A suspended frame of the interpreter. */
export interface Frame {
  inst: FunctionInstance;
  tc: TranslatedCode;
  pc: number;
  locals: unknown[];
  id: number;
  /** The frame may run in fast mode (see the interpreter). */
  fits: boolean;
}

/** The interpreter's registers, handed to a `CompiledRun` (`compiled-run.ts`) and back (one per machine). */
export interface Registers {
  pc: number;
  sp: number;
  gasLeft: number;
  instr: number;
  size: number;
  /**
   * 0 when the run stopped at a block head; otherwise it stopped inside a charged block, at
   * `pc`, and this is the block's end (the interpreter goes on with it in fast mode).
   */
  blockEnd: number;
  /** An error raised by compiled code (a `JitFault`), for the interpreter to locate and throw. */
  fault: unknown;
  /** The frameless callee `fault` was raised in (`undefined`: the frame's own function). */
  faultIn: FunctionInstance | undefined;
}

/** The interpreter's reusable state: frame records and spare locals arrays by length. */
export interface Machine {
  readonly frames: Frame[];
  readonly spare: unknown[][][];
  /** Registers handed to the compiled tier (`compiled-run.ts`). */
  readonly regs: Registers;
}

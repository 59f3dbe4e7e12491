/**
 * The compiled tier's run function: one generated JS function per Move function, a loop over
 * a `switch` on the block head, with each compiled block (`jit.ts`) inline. It runs a frame's
 * blocks one after another, and calls compiled one-block callees (leaves) without a frame,
 * until it reaches something only the interpreter does: a block that does not fit fast mode,
 * an instruction left uncompiled, a call to anything but a leaf.
 *
 * Being a function of its own per Move function, it gets machine code fitted to that
 * function: gas, the instruction count and the stack pointer stay in registers, and no type
 * feedback from other workloads (which the interpreter's loop collects from all of them)
 * slows it down. Every charge is the interpreter's fast mode's: a block's gas at its head
 * when no tier threshold, gas shortfall or stack limit falls inside it; a call's base and
 * argument gas, then the leaf's block. When any of that does not hold, the run stops *before*
 * charging, and the interpreter redoes the step its own way (slow mode, a frame, an error).
 */
import type { TranslatedCode } from '../loader/linker.js';
import type { FunctionInstance } from './instance.js';
import { Op } from '../loader/ops.js';
import type { Registers } from './machine.js';
import type { CallState, Runtime } from './runtime.js';

/** Fresh {@link Registers} (one per machine). */
export function newRegisters(): Registers {
  return { pc: 0, sp: 0, gasLeft: 0, instr: 0, size: 0, blockEnd: 0, fault: undefined, faultIn: undefined };
}

/** The fault left in `R` (cleared there, with the callee it was raised in). */
export function takeFault(R: Registers): unknown {
  const fault = R.fault;
  R.fault = undefined;
  R.faultIn = undefined;
  return fault;
}

/**
 * A compiled function: runs its blocks from the block head `R.pc`, with the operand stack,
 * locals and gas of `R`, and leaves them all in `R`. `extra`, `tierNext`, `sizeExtra`,
 * `sizeNext` are the instruction and size tiers (see `interpreter.ts`), constant during the
 * run; `canCall`: the frame is below the call depth limit. Throws nothing: a fault is left in
 * `R.fault`.
 */
export type CompiledRun = (
  R: Registers,
  stack: unknown[],
  locals: unknown[],
  inst: FunctionInstance,
  rt: Runtime,
  state: CallState,
  extra: number,
  tierNext: number,
  sizeExtra: number,
  sizeNext: number,
  canCall: boolean,
) => void;

/** Source of the run function around its `cases` (from {@link runCase}). */
export function runSource(cases: readonly string[]): string {
  return `function run(R, stack, locals, inst, rt, state, extra, tierNext, sizeExtra, sizeNext, canCall) {
 const limits = state.limits;
 const bc = inst.costs.blockCost;
 const bi = inst.costs.blockIncr;
 let pc = R.pc, sp = R.sp, gasLeft = R.gasLeft, instr = R.instr, size = R.size;
 let end = 0, p = pc, leafOf = undefined;
 try {
  run: for (;;) {
   switch (pc) {
${cases.join('\n')}
    default: break run;
   }
  }
 } catch (e) {
  R.fault = leafOf === undefined ? new D.JitFault(e, p) : e;
  R.faultIn = leafOf;
 }
 R.pc = pc; R.sp = sp; R.gasLeft = gasLeft; R.instr = instr; R.size = size; R.blockEnd = end;
}`;
}

/**
 * The case of the block `[head, end)`, compiled up to `stop` as `body`: the fast-mode charge,
 * the body, then (stopped inside the block) a frameless call to a leaf or a stop.
 */
export function runCase(tc: TranslatedCode, head: number, end: number, stop: number, body: readonly string[]): string {
  const len = end - head;
  const lines = [
    `    case ${head}: {`,
    `  const inc = bi[${head}], cost = bc[${head}] + ${len} * extra + inc * sizeExtra;`,
    `  if (instr + ${len} > tierNext || size + inc > sizeNext || gasLeft < cost) break run;`,
    `  gasLeft -= cost; instr += ${len}; size += inc; end = ${end}; p = ${head};`,
    ...body,
  ];
  if (stop < end) lines.push(...(stop === end - 1 && tc.code[stop << 1] === Op.CALL ? leafCall(tc.code[(stop << 1) + 1], stop) : ['  break run;']));
  lines.push('    }');
  return lines.join('\n');
}

/**
 * A call at `pc` (call site `site`) made here when the callee is a compiled leaf and its
 * charges fit: the interpreter's base and per-argument call gas, then the leaf's block.
 */
function leafCall(site: number, pc: number): string[] {
  return [
    `  const kc = inst.callees[${site}];`,
    '  const kj = canCall && kc !== undefined && kc.code !== null ? kc.code.jit : null;',
    '  if (kj === null || kj.leaf === undefined) break run;',
    '  const kt = kc.code, kcc = kc.costs, kn = kc.paramCount, klen = kt.blockLen[0], kinc = kcc.blockIncr[0];',
    '  const kcost = rt.gas.callBase + rt.gas.callPerArg * kn + kcc.blockCost[0] + klen * extra + kinc * sizeExtra;',
    '  if (sp - kn + kt.maxStack > limits.maxValueStackSize || instr + klen > tierNext || size + kinc > sizeNext || gasLeft < kcost) break run;',
    '  gasLeft -= kcost; instr += klen; size += kinc;',
    '  const ks = kj.scratch;',
    '  sp -= kn;',
    '  for (let i = 0; i < kn; i++) ks[i] = stack[sp + i];',
    '  if (kc.fn.module !== inst.fn.module) state.touched.add(kc.fn.module.id);',
    '  leafOf = kc; end = klen;',
    '  kj.leaf(stack, sp, ks, kc, rt, limits);',
    `  leafOf = undefined; sp += kj.leafDelta; pc = ${pc + 1}; end = 0; continue run;`,
  ];
}

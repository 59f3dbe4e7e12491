/**
 * The interpreter loop: one function with one `switch` over translated opcodes, an
 * explicit frame stack (no JS recursion, so deep Move recursion is bounded by the call
 * depth limit, not by the JS stack), one shared operand stack. Gas is charged per basic
 * block in fast mode (with superinstructions) and per instruction in slow mode, with the
 * same amounts (see `loader/blocks.ts`). The cold instructions run out of line
 * (`cold-ops.ts`), and so does the loop's `catch` (`unwind`), which keeps the loop small for V8
 * and its optimized code alive when a rare instruction or an error first comes along.
 */
import { VmError } from '../errors.js';
import type { TranslatedCode } from '../loader/linker.js';
import { borrowSlot, copyValue, peekRef, readRef, type VariantValue, writeRef } from '../values/value.js';
import { noteWriteRef } from '../values/write-watch.js';
import { binaryOp, compareOp } from './arith.js';
import type { FunctionInstance } from './instance.js';
import { DYN, HEAD, Op } from '../loader/ops.js';
import type { Machine } from './machine.js';
import type { CallState, Runtime } from './runtime.js';
import { dynamicSize, sum } from '../gas/code-costs.js';
import { chargeInlinedVectorNative } from './vector-native-gas.js';
import { compileBlocks, JitFault, jitOf, NO_JIT } from './jit.js';
import { coldOp } from './cold-ops.js';
import { newRegisters, takeFault } from './compiled-run.js';
import { callNativeDirect, checkPackDepth, locate, operand, resolveCallee, runNativeOnStack, stackTraceText, tierExtra, tierNextAfter, viewOf } from './helpers.js';

/** Operand stack slots allocated per call before it grows. */
const INITIAL_STACK = 16;

/**
 * Run `entry` with `args` (already on no stack) and return its return values.
 * @throws {VmError} with the location of the failing instruction.
 */
export function execute(rt: Runtime, state: CallState, entry: FunctionInstance, args: readonly unknown[]): unknown[] {
  const table = rt.types;
  const gas = rt.gas;
  const limits = state.limits;
  const tracer = state.tracer;
  const maxStack = limits.maxValueStackSize;
  const maxDepth = limits.maxCallDepth;
  const jitAt = rt.jitThreshold;
  if (entry.code === null) return callNativeDirect(rt, state, entry, args);
  // Caller frames (`frames[0..depth)` live) and locals arrays of returned frames by length, kept
  // by the runtime between calls; the operand stack is fresh (small, grown by writes past its end:
  // one kept across calls lives in the old generation, where every store pays a write barrier).
  const machine: Machine = rt.machines.pop() ?? { frames: [], spare: [], regs: newRegisters() };
  const { frames, spare } = machine;
  const stack: unknown[] = new Array<unknown>(INITIAL_STACK).fill(undefined);
  let [sp, depth] = [0, 0];
  let nextFrameId = 0;
  let gasLeft = state.gasLeft;
  // Instruction tiers: `extra` more per instruction once the count passes `tierNext`.
  const tiers = gas.instructionTiers;
  const meter = state.meter;
  let instr = meter.instructions;
  let extra = tierExtra(tiers, instr);
  let tierNext = tierNextAfter(tiers, instr);
  // Stack-size tier: `sizeExtra` more per unit of size once the size passes `sizeNext`.
  const sizeTiers = gas.sizeTiers;
  let size = meter.stackSize ?? 0;
  let sizeExtra = tierExtra(sizeTiers, size);
  let sizeNext = tierNextAfter(sizeTiers, size);

  let inst = entry;
  let tc = entry.code as TranslatedCode;
  let code = tc.slowCode;
  let costs = inst.costs;
  // Fast mode (a block charged as a whole, loader/blocks.ts): no tracer, a frame whose stack use fits.
  let fits = tracer === null && tc.maxStack <= maxStack;
  let slow = true;
  let blockEnd = 0;
  let pc = 0;
  let locals: unknown[] = new Array<unknown>(tc.localCount);
  for (let i = 0; i < args.length; i++) locals[i] = args[i];
  let frameId = nextFrameId++;
  let lastModule = inst.fn.module;
  state.touched.add(lastModule.id);
  if (tracer) tracer.openFrame(inst, frameId, args, gasLeft);
  try {
    for (;;) {
      let op = code[pc << 1];
      if (op >= HEAD && (op & HEAD) !== 0) {
        const len = tc.blockLen[pc];
        const inc = costs.blockIncr[pc];
        const cost = costs.blockCost[pc] + len * extra + inc * sizeExtra;
        if (fits && instr + len <= tierNext && size + inc <= sizeNext && gasLeft >= cost) {
          slow = false;
          code = tc.fastCode;
          const jit = jitOf(tc);
          if (jit !== null && jit.run !== undefined) {
            // The compiled tier charges this block and runs it, and the ones after it while it can.
            const R = machine.regs;
            R.pc = pc;
            R.sp = sp;
            R.gasLeft = gasLeft;
            R.instr = instr;
            R.size = size;
            jit.run(R, stack, locals, inst, rt, state, extra, tierNext, sizeExtra, sizeNext, depth < maxDepth);
            pc = R.pc;
            sp = R.sp;
            gasLeft = R.gasLeft;
            instr = R.instr;
            size = R.size;
            blockEnd = R.blockEnd;
            if (R.fault !== undefined) {
              if (R.faultIn !== undefined) [inst, costs] = [R.faultIn, R.faultIn.costs]; // raised in a frameless callee
              throw takeFault(R);
            }
            if (blockEnd === 0) continue; // at a block head
          } else {
            gasLeft -= cost;
            instr += len;
            size += inc;
            blockEnd = pc + len;
            if (jit === null && ++tc.heat >= jitAt) tc.jit = compileBlocks(tc) ?? NO_JIT;
          }
        } else {
          slow = true;
          code = tc.slowCode;
        }
        op = code[pc << 1] & ~HEAD;
      }
      const arg = code[(pc << 1) + 1];
      const at = pc;
      pc++;
      if (slow) {
        if (++instr > tierNext) {
          extra = tierExtra(tiers, instr);
          tierNext = tierNextAfter(tiers, instr);
        }
        const inc = costs.pcIncr[at];
        if ((size += inc) > sizeNext) {
          sizeExtra = tierExtra(sizeTiers, size);
          sizeNext = tierNextAfter(sizeTiers, size);
        }
        gasLeft -= costs.pcCost[at] + extra + inc * sizeExtra;
        if (gasLeft < 0) throw new VmError('OUT_OF_GAS', 'gas budget exhausted'); // left at 0 by the catch
        if (tracer && op < DYN) tracer.beforeInstruction(inst, at, viewOf(stack, sp, locals, frameId, gasLeft));
      }
      if (op >= DYN) {
        op -= DYN; // the last instruction of its block, its gas measured now (after the static part: the call comes before the native)
        if (op >= Op.NAT_VEC_EMPTY && op <= Op.NAT_VEC_SWAP) {
          state.gasLeft = gasLeft;
          meter.instructions = instr;
          meter.stackSize = size;
          chargeInlinedVectorNative(rt, state, inst, op, arg, stack, sp);
          gasLeft = state.gasLeft;
          if (meter.instructions !== instr) [instr, extra, tierNext] = [meter.instructions, tierExtra(tiers, meter.instructions), tierNextAfter(tiers, meter.instructions)];
          if (meter.stackSize !== size) [size, sizeExtra, sizeNext] = [meter.stackSize ?? size, tierExtra(sizeTiers, meter.stackSize ?? size), tierNextAfter(sizeTiers, meter.stackSize ?? size)];
        } else {
          const inc = dynamicSize(gas, table, inst, at, stack, sp, locals);
          if ((size += inc) > sizeNext) {
            sizeExtra = tierExtra(sizeTiers, size);
            sizeNext = tierNextAfter(sizeTiers, size);
          }
          if ((gasLeft -= inc * (sizeExtra + 1)) < 0) throw new VmError('OUT_OF_GAS', 'gas budget exhausted');
        }
        if (slow && tracer) tracer.beforeInstruction(inst, at, viewOf(stack, sp, locals, frameId, gasLeft));
      }
      switch (op) {
        case Op.POP:
          stack[--sp] = undefined;
          break;
        case Op.F_LOC_RET:
        case Op.RET: {
          if (op === Op.F_LOC_RET) stack[sp++] = locals[arg];
          const nret = inst.fn.returns.length;
          if (tracer) {
            tracer.afterInstruction(inst, at, viewOf(stack, sp, locals, frameId, gasLeft));
            tracer.closeFrame(inst, frameId, stack.slice(sp - nret, sp), gasLeft);
          }
          if (depth === 0) {
            state.gasLeft = gasLeft;
            meter.instructions = instr;
            meter.stackSize = size;
            const out = stack.slice(sp - nret, sp);
            rt.release(machine);
            return out;
          }
          // A returning frame's locals can be reused: no reference to a local outlives its frame.
          if (tracer === null) (spare[locals.length] ??= []).push(locals);
          const f = frames[--depth];
          inst = f.inst;
          tc = f.tc;
          code = tc.slowCode;
          costs = inst.costs;
          fits = f.fits;
          pc = f.pc;
          locals = f.locals;
          frameId = f.id;
          continue;
        }
        case Op.BR_TRUE:
          if (stack[--sp] === true) pc = arg;
          break;
        case Op.BR_FALSE:
          if (stack[--sp] === false) pc = arg;
          break;
        case Op.BRANCH:
          pc = arg;
          break;
        case Op.LD_SMALL:
          stack[sp++] = arg >>> 0;
          break;
        case Op.LD_BIG:
          stack[sp++] = tc.bigints[arg];
          break;
        case Op.LD_TRUE:
          stack[sp++] = true;
          break;
        case Op.LD_FALSE:
          stack[sp++] = false;
          break;
        case Op.COPY_LOC_PRIM:
          stack[sp++] = locals[arg];
          break;
        case Op.COPY_LOC:
          stack[sp++] = copyValue(locals[arg]);
          break;
        case Op.MOVE_LOC:
          stack[sp++] = locals[arg];
          locals[arg] = undefined;
          break;
        case Op.ST_LOC:
          locals[arg] = stack[--sp];
          break;
        case Op.BORROW_LOC:
          stack[sp++] = borrowSlot(locals, arg);
          break;
        case Op.BORROW_FIELD: {
          const s = stack[sp - 1] as unknown[];
          stack[sp - 1] = borrowSlot(s, arg);
          break;
        }
        case Op.CALL: {
          const callee = inst.callees[arg] ?? resolveCallee(rt, inst, arg, limits);
          if (callee.code === null) {
            if (tracer) tracer.afterInstruction(inst, at, viewOf(stack, sp, locals, frameId, gasLeft));
            state.gasLeft = gasLeft;
            meter.instructions = instr;
            meter.stackSize = size; // natives may charge, count instructions (past the threshold) and push
            sp = runNativeOnStack(rt, state, callee, stack, sp, stackTraceText(frames, depth, inst, at));
            gasLeft = state.gasLeft;
            if (meter.instructions !== instr) [instr, extra, tierNext] = [meter.instructions, tierExtra(tiers, meter.instructions), tierNextAfter(tiers, meter.instructions)];
            if (meter.stackSize !== size) [size, sizeExtra, sizeNext] = [meter.stackSize ?? size, tierExtra(sizeTiers, meter.stackSize ?? size), tierNextAfter(sizeTiers, meter.stackSize ?? size)];
            break;
          }
          if (depth >= maxDepth) {
            const f = callee.fn;
            throw new VmError('CALL_STACK_OVERFLOW', `call depth exceeds ${limits.maxCallDepth}`, {
              location: { module: f.module.id, function: f.name, functionIndex: f.defIndex, instruction: 0 },
            });
          }
          const ctc = callee.code;
          const n = callee.paramCount;
          gasLeft -= gas.callBase + gas.callPerArg * n;
          if (gasLeft < 0) throw new VmError('OUT_OF_GAS', 'gas budget exhausted');
          const lc = ctc.localCount;
          const free = spare[lc];
          let nl: unknown[];
          if (free !== undefined && free.length > 0) {
            nl = free.pop() as unknown[];
            for (let i = n; i < lc; i++) nl[i] = undefined;
          } else nl = new Array<unknown>(lc);
          sp -= n;
          for (let i = 0; i < n; i++) nl[i] = stack[sp + i];
          if (tracer) tracer.afterInstruction(inst, at, viewOf(stack, sp, locals, frameId, gasLeft));
          const saved = frames[depth];
          if (saved === undefined) frames.push({ inst, tc, pc, locals, id: frameId, fits });
          else {
            saved.inst = inst;
            saved.tc = tc;
            saved.pc = pc;
            saved.locals = locals;
            saved.id = frameId;
            saved.fits = fits;
          }
          depth++;
          inst = callee;
          tc = ctc;
          code = ctc.slowCode;
          costs = inst.costs;
          fits = tracer === null && sp + ctc.maxStack <= maxStack;
          pc = 0;
          locals = nl;
          frameId = nextFrameId++;
          if (inst.fn.module !== lastModule) {
            lastModule = inst.fn.module;
            state.touched.add(lastModule.id);
          }
          if (tracer) tracer.openFrame(inst, frameId, nl.slice(0, n), gasLeft);
          continue;
        }
        case Op.PACK: {
          if (inst.depthChecked[at] === 0) checkPackDepth(rt, inst, at, limits);
          const s: unknown[] = new Array<unknown>(arg);
          for (let i = arg - 1; i >= 0; i--) s[i] = stack[--sp];
          stack[sp++] = s;
          break;
        }
        case Op.UNPACK: {
          const s = stack[--sp] as unknown[];
          for (let i = 0; i < arg; i++) stack[sp++] = s[i];
          break;
        }
        case Op.READ_REF:
          stack[sp - 1] = readRef(stack[sp - 1]);
          break;
        case Op.WRITE_REF: {
          const r = stack[--sp];
          const v = stack[--sp];
          noteWriteRef(r);
          writeRef(r, v);
          break;
        }
        case Op.FREEZE_REF:
        case Op.NOP:
          break;
        case Op.ADD_N:
        case Op.SUB_N:
        case Op.MUL_N:
        case Op.DIV_N:
        case Op.MOD_N:
        case Op.ADD_B:
        case Op.SUB_B:
        case Op.MUL_B:
        case Op.DIV_B:
        case Op.MOD_B:
        case Op.BIT_OR_N:
        case Op.BIT_AND_N:
        case Op.XOR_N:
        case Op.BIT_OR_B:
        case Op.BIT_AND_B:
        case Op.XOR_B: {
          const b = stack[--sp];
          stack[sp - 1] = binaryOp(op, stack[sp - 1], b, arg);
          break;
        }
        case Op.EQ_PRIM: {
          const b = stack[--sp];
          stack[sp - 1] = stack[sp - 1] === b;
          break;
        }
        case Op.NEQ_PRIM: {
          const b = stack[--sp];
          stack[sp - 1] = stack[sp - 1] !== b;
          break;
        }
        case Op.LT: {
          const b = stack[--sp] as number;
          stack[sp - 1] = (stack[sp - 1] as number) < b;
          break;
        }
        case Op.GT: {
          const b = stack[--sp] as number;
          stack[sp - 1] = (stack[sp - 1] as number) > b;
          break;
        }
        case Op.LE: {
          const b = stack[--sp] as number;
          stack[sp - 1] = (stack[sp - 1] as number) <= b;
          break;
        }
        case Op.GE: {
          const b = stack[--sp] as number;
          stack[sp - 1] = (stack[sp - 1] as number) >= b;
          break;
        }
        case Op.VARIANT_SWITCH: {
          const v = peekRef(stack[--sp]) as VariantValue;
          pc = tc.jumpTables[arg][v.tag];
          break;
        }
        // Superinstructions (fast mode only): operands are read from the sequence's slots.
        case Op.F_CMP_BR: {
          const c = tc.code;
          const p = at << 1;
          const a = operand(c[p], arg, locals, tc);
          const b = operand(c[p + 2], c[p + 3], locals, tc);
          const taken = compareOp(c[p + 4], a, b) === (c[p + 6] === Op.BR_TRUE);
          pc = taken ? c[p + 7] : at + 4;
          break;
        }
        case Op.F_BIN:
        case Op.F_BIN_ST: {
          const c = tc.code;
          const p = at << 1;
          const a = operand(c[p], arg, locals, tc);
          const b = operand(c[p + 2], c[p + 3], locals, tc);
          pc = at + 3; // an arithmetic error is located at the operation
          const r = binaryOp(c[p + 4], a, b, c[p + 5]);
          if (op === Op.F_BIN) stack[sp++] = r;
          else {
            locals[c[p + 7]] = r;
            pc = at + 4;
          }
          break;
        }
        case Op.F_BIN1:
        case Op.F_BIN1_ST: {
          const c = tc.code;
          const p = at << 1;
          pc = at + 2; // an arithmetic error is located at the operation
          const b = operand(c[p], arg, locals, tc);
          if (op === Op.F_BIN1) stack[sp - 1] = binaryOp(c[p + 2], stack[sp - 1], b, c[p + 3]);
          else {
            locals[c[p + 5]] = binaryOp(c[p + 2], stack[--sp], b, c[p + 3]);
            pc = at + 3;
          }
          break;
        }
        case Op.F_OP_ST: {
          const b = stack[--sp];
          pc = at + 1;
          locals[tc.code[(at << 1) + 3]] = binaryOp(tc.code[at << 1], stack[--sp], b, arg);
          pc = at + 2;
          break;
        }
        case Op.F_FIELD_READ:
          stack[sp++] = copyValue((locals[arg] as unknown[])[tc.code[(at << 1) + 3]]);
          pc = at + 3;
          break;
        default: // the cold instructions (cold-ops.ts), and UNSUPPORTED
          sp = coldOp(rt, inst, tc, op, arg, at, stack, sp, limits);
      }
      if (slow) {
        if (sp > maxStack) throw new VmError('EXECUTION_STACK_OVERFLOW', `operand stack exceeds ${maxStack} values`);
        if (tracer) tracer.afterInstruction(inst, at, viewOf(stack, sp, locals, frameId, gasLeft));
      }
    }
  } catch (thrown) {
    throw unwind(rt, state, machine, thrown, inst, costs, pc, slow ? -1 : blockEnd, gasLeft, instr, size, extra, sizeExtra);
  }
}

/**
 * The loop's `catch`, out of line (the loop stays small, and its first error does not throw its
 * optimized code away): gives back what the rest of a block charged as a whole cost, settles
 * gas and the meter, releases the machine, and returns the error located at its instruction.
 * `blockEnd` is the end of the block charged as a whole that the failing instruction is in (-1 in slow mode).
 */
function unwind(
  rt: Runtime,
  state: CallState,
  machine: Machine,
  thrown: unknown,
  inst: FunctionInstance,
  costs: FunctionInstance['costs'],
  pc: number,
  blockEnd: number,
  gasLeft: number,
  instr: number,
  size: number,
  extra: number,
  sizeExtra: number,
): unknown {
  let e = thrown;
  if (e instanceof JitFault) {
    // Raised inside a compiled block: located at its instruction, like the interpreter's own.
    pc = e.pc + 1;
    e = e.cause;
  }
  if (pc < blockEnd) {
    // The block was charged as a whole: give back what its instructions after the failing one cost.
    const inc = sum(costs.pcIncr, pc, blockEnd);
    gasLeft += sum(costs.pcCost, pc, blockEnd) + (blockEnd - pc) * extra + inc * sizeExtra;
    instr -= blockEnd - pc;
    size -= inc;
  }
  // Out of gas (here or in a native, which zeroed `state.gasLeft`) uses the whole budget.
  state.gasLeft = gasLeft < 0 || (e instanceof VmError && e.code === 'OUT_OF_GAS') ? 0 : gasLeft;
  state.meter.instructions = instr;
  state.meter.stackSize = size;
  rt.release(machine);
  return locate(e, inst, pc - 1, state.tracer);
}

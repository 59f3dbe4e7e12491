/**
 * Block compiler: the interpreter's fast mode, compiled to JavaScript.
 *
 * Once a function has run enough blocks in fast mode, each of its basic blocks' straight-line
 * prefix (every instruction up to the first one this compiler leaves to the interpreter: a
 * call, a return, an instruction charged by a value's size) becomes JS code, and all of them
 * one JS function per Move function (`compiled-run.ts`: a `switch` on the block head, each
 * block charged at its head exactly as in fast mode). Operand stack slots inside a block are
 * JS constants; only the values the block leaves on the stack (or takes from below it) touch
 * the interpreter's stack array, and the block's net stack effect is static. A block that
 * stops before an uncompiled instruction hands it to the interpreter, unless it is a call to
 * a compiled one-block function, which runs without a frame.
 *
 * Each instruction does what the interpreter's `switch` does for it, with the same helpers,
 * so results and errors are the same; an error is wrapped in a {@link JitFault} carrying the
 * failing offset, so the interpreter locates it and refunds the rest of the block as usual.
 * Nothing here runs under a tracer (tracing is slow mode only).
 */
import { VmError, VectorError } from '../errors.js';
import type { TranslatedCode } from '../loader/linker.js';
import { vecKindOf } from '../values/bcs.js';
import { borrowElement, borrowSlot, copyValue, peekRef, readRef, valuesEqual, VariantValue, writeRef } from '../values/value.js';
import { MoveVector } from '../values/vector.js';
import { noteWrite, noteWriteRef } from '../values/write-watch.js';
import { arithmeticError, BIG_MAX, binaryOp, castValue, NUM_MAX, shlBig, shlNum } from './arith.js';
import { checkPackDepth, indexOf, vecOpError, vectorError } from './helpers.js';
import type { FunctionInstance } from './instance.js';
import { DYN, HEAD, Op } from '../loader/ops.js';
import type { ExecutionLimits, Runtime } from './runtime.js';
import { type CompiledRun, runCase, runSource } from './compiled-run.js';

/** A compiled one-block function, run without a frame: it leaves its results on the stack. */
export type CompiledLeaf = (stack: unknown[], sp: number, locals: unknown[], inst: FunctionInstance, rt: Runtime, limits: ExecutionLimits) => void;

/** The compiled blocks of a function (see `compiled-run.ts`). */
export interface JitCode {
  /** Runs the function's blocks from the block head `R.pc`, as far as it can. */
  readonly run: CompiledRun | undefined;
  /**
   * Set when the function is one block ending in its only `Ret`, compiled up to it: such a
   * callee runs without a frame (its results left on the stack).
   */
  readonly leaf: CompiledLeaf | undefined;
  /** The net operand-stack effect of {@link leaf}. */
  readonly leafDelta: number;
  /** Locals a frameless run of {@link leaf} uses (never two at once: a leaf calls nothing). */
  readonly scratch: unknown[];
}

/** What a function whose blocks cannot be compiled gets (never compiled again). */
export const NO_JIT: JitCode = { run: undefined, leaf: undefined, leafDelta: 0, scratch: [] };

/**
 * The compiled blocks cached in a translated function (`null`: not compiled yet). The loader
 * types the slot `unknown` (it does not know the interpreter); only the interpreter writes it,
 * with {@link compileBlocks}' result or {@link NO_JIT}.
 */
export function jitOf(tc: TranslatedCode): JitCode | null {
  return tc.jit as JitCode | null;
}

/** An error raised inside a compiled block, with the offset of the instruction that raised it. */
export class JitFault {
  readonly cause: unknown;
  readonly pc: number;

  constructor(cause: unknown, pc: number) {
    this.cause = cause;
    this.pc = pc;
  }
}

/** What generated code reaches through its one parameter. */
const DEPS = {
  VmError,
  VectorError,
  JitFault,
  MoveVector,
  VariantValue,
  vecKindOf,
  borrowElement,
  borrowSlot,
  copyValue,
  peekRef,
  readRef,
  valuesEqual,
  writeRef,
  noteWrite,
  noteWriteRef,
  arithmeticError,
  binaryOp,
  castValue,
  shlBig,
  shlNum,
  checkPackDepth,
  indexOf,
  vecOpError,
  vectorError,
};

/** Whether `new Function` works here (a content security policy may forbid it). */
let codegenAllowed: boolean | undefined;

function canGenerate(): boolean {
  if (codegenAllowed === undefined) {
    try {
      codegenAllowed = new Function('return 1')() === 1;
    } catch {
      codegenAllowed = false;
    }
  }
  return codegenAllowed;
}

const BINARY_MESSAGE: Readonly<Record<number, string>> = {
  [Op.ADD_N]: 'Addition overflow',
  [Op.ADD_B]: 'Addition overflow',
  [Op.SUB_N]: 'Subtraction underflow',
  [Op.SUB_B]: 'Subtraction underflow',
};

/**
 * Compile the blocks of `tc`; `null` when code generation is not available.
 * @throws never: what the compiler cannot handle is left to the interpreter.
 */
export function compileBlocks(tc: TranslatedCode): JitCode | null {
  if (!canGenerate()) return null;
  const n = tc.blockLen.length;
  const cases: string[] = [];
  let leaf: BlockGen | undefined;
  for (let head = 0; head < n; head += tc.blockLen[head]) {
    const end = head + tc.blockLen[head];
    const stop = compiledUpTo(tc, head, end);
    cases.push(runCase(tc, head, end, stop, blockCode(tc, head, end, stop, true).lines));
    // A one-block function compiled up to its `Ret` (its last instruction) can run without a frame.
    if (head === 0 && end === n && stop === n - 1 && tc.code[stop << 1] === Op.RET) leaf = blockCode(tc, 0, n, stop, false);
  }
  const leafSource =
    leaf === undefined ? 'undefined' : `function leaf(stack, sp, locals, inst, rt, limits) {\n let p = 0;\n try {\n${leaf.lines.join('\n')}\n } catch (e) { throw new D.JitFault(e, p); }\n}`;
  const made = new Function('D', 'T', `'use strict';\nreturn { run: ${runSource(cases)},\n leaf: ${leafSource} };`) as (
    d: typeof DEPS,
    t: TranslatedCode,
  ) => { run: CompiledRun; leaf: CompiledLeaf | undefined };
  const { run, leaf: leafFn } = made(DEPS, tc);
  return { run, leaf: leafFn, leafDelta: leaf === undefined ? 0 : leaf.delta(), scratch: leaf === undefined ? [] : new Array<unknown>(tc.localCount) };
}

/** The first offset of the block `[head, end)` the compiler leaves to the interpreter (`end`: none). */
function compiledUpTo(tc: TranslatedCode, head: number, end: number): number {
  let stop = head;
  while (stop < end && compilable(tc.slowCode[stop << 1] & ~HEAD)) stop++;
  return stop;
}

/** Instructions a block prefix may contain (beyond them, the interpreter takes over). */
function compilable(op: number): boolean {
  if (op >= DYN) return false;
  switch (op) {
    case Op.CALL:
    case Op.RET:
    case Op.UNSUPPORTED:
      return false;
    default:
      return op < Op.NAT_VEC_EMPTY || op > Op.NAT_VEC_SWAP ? op < Op.F_CMP_BR : false;
  }
}

/** Code of the block `[head, end)` compiled up to `stop`, in a run function or (`inRun` false) a leaf. */
function blockCode(tc: TranslatedCode, head: number, end: number, stop: number, inRun: boolean): BlockGen {
  const g = new BlockGen(tc, inRun);
  let terminated = false;
  for (let pc = head; pc < stop && !terminated; pc++) terminated = g.instruction(pc);
  if (!terminated) g.exit(`${stop}`, stop === end);
  return g;
}

/** Code generation of one block: a virtual operand stack of JS constant names. */
class BlockGen {
  readonly lines: string[] = [];
  readonly virtual: string[] = [];
  below = 0;
  private next = 0;
  private readonly tc: TranslatedCode;
  private readonly inRun: boolean;

  constructor(tc: TranslatedCode, inRun: boolean) {
    this.tc = tc;
    this.inRun = inRun;
  }

  /** The net operand-stack effect so far. */
  delta(): number {
    return this.virtual.length - this.below;
  }

  private emit(line: string): void {
    this.lines.push(`  ${line}`);
  }

  private pop(): string {
    const v = this.virtual.pop();
    if (v !== undefined) return v;
    const name = `u${++this.below}`;
    this.emit(`const ${name} = stack[sp - ${this.below}];`);
    return name;
  }

  /** Bind `expr` to a new constant (not on the operand stack). */
  private temp(expr: string): string {
    const name = `v${this.next++}`;
    this.emit(`const ${name} = ${expr};`);
    return name;
  }

  private push(expr: string): string {
    const name = this.temp(expr);
    this.virtual.push(name);
    return name;
  }

  /**
   * Write what the block leaves on the stack, then go on at `target` (an expression): the
   * block head it evaluates to, or (`atHead` false) the instruction the interpreter does next,
   * which the run function follows with a frameless call or a stop (see `runCase`).
   */
  exit(target: string, atHead = true): void {
    for (let i = 0; i < this.virtual.length; i++) this.emit(`stack[sp - ${this.below} + ${i}] = ${this.virtual[i]};`);
    if (!this.inRun) this.emit('return;');
    else if (atHead) this.emit(`sp += ${this.delta()}; pc = ${target}; end = 0; continue run;`);
    else this.emit(`sp += ${this.delta()}; pc = ${target};`);
  }

  /** Emit instruction `pc`; `true` when it ends the block (a branch or an abort). */
  instruction(pc: number): boolean {
    const tc = this.tc;
    const op = tc.code[pc << 1];
    const arg = tc.code[(pc << 1) + 1];
    const at = `p = ${pc};`;
    switch (op) {
      case Op.POP:
        this.pop();
        return false;
      case Op.BR_TRUE:
      case Op.BR_FALSE: {
        const c = this.pop();
        this.exit(`${c} === ${op === Op.BR_TRUE} ? ${arg} : ${pc + 1}`);
        return true;
      }
      case Op.BRANCH:
        this.exit(`${arg}`);
        return true;
      case Op.ABORT: {
        const c = this.pop();
        this.emit(at);
        this.emit(`throw new D.VmError('ABORTED', \`aborted with \${${c}}\`, { abortCode: ${c} });`);
        return true;
      }
      case Op.LD_SMALL:
        this.push(`${arg >>> 0}`);
        return false;
      case Op.LD_BIG:
        this.push(`${tc.bigints[arg]}n`);
        return false;
      case Op.LD_CONST:
        this.emit(at);
        this.push(`D.copyValue(T.constants[${arg}])`);
        return false;
      case Op.LD_TRUE:
        this.push('true');
        return false;
      case Op.LD_FALSE:
        this.push('false');
        return false;
      case Op.COPY_LOC_PRIM:
        this.push(`locals[${arg}]`);
        return false;
      case Op.COPY_LOC:
        this.emit(at);
        this.push(`D.copyValue(locals[${arg}])`);
        return false;
      case Op.MOVE_LOC:
        this.push(`locals[${arg}]`);
        this.emit(`locals[${arg}] = undefined;`);
        return false;
      case Op.ST_LOC:
        this.emit(`locals[${arg}] = ${this.pop()};`);
        return false;
      case Op.BORROW_LOC:
        this.push(`D.borrowSlot(locals, ${arg})`);
        return false;
      case Op.BORROW_FIELD:
        this.push(`D.borrowSlot(${this.pop()}, ${arg})`);
        return false;
      case Op.PACK: {
        const fields: string[] = new Array<string>(arg);
        for (let i = arg - 1; i >= 0; i--) fields[i] = this.pop();
        this.emit(at);
        this.emit(`if (inst.depthChecked[${pc}] === 0) D.checkPackDepth(rt, inst, ${pc}, limits);`);
        this.push(`[${fields.join(', ')}]`);
        return false;
      }
      case Op.UNPACK: {
        const s = this.pop();
        for (let i = 0; i < arg; i++) this.push(`${s}[${i}]`);
        return false;
      }
      case Op.READ_REF:
        this.emit(at);
        this.push(`D.readRef(${this.pop()})`);
        return false;
      case Op.WRITE_REF: {
        const r = this.pop();
        const v = this.pop();
        this.emit(at);
        this.emit(`D.noteWriteRef(${r}); D.writeRef(${r}, ${v});`);
        return false;
      }
      case Op.FREEZE_REF:
      case Op.NOP:
        return false;
      case Op.ADD_N:
      case Op.SUB_N:
      case Op.ADD_B:
      case Op.SUB_B: {
        const b = this.pop();
        const a = this.pop();
        const big = op === Op.ADD_B || op === Op.SUB_B;
        const max = big ? `${BIG_MAX[arg]}n` : `${NUM_MAX[arg]}`;
        const check = op === Op.ADD_N || op === Op.ADD_B ? null : `${a} < ${b}`;
        if (check !== null) this.emit(`if (${check}) { ${at} throw D.arithmeticError('${BINARY_MESSAGE[op]}'); }`);
        const r = this.push(`${a} ${op === Op.ADD_N || op === Op.ADD_B ? '+' : '-'} ${b}`);
        if (check === null) this.emit(`if (${r} > ${max}) { ${at} throw D.arithmeticError('${BINARY_MESSAGE[op]}'); }`);
        return false;
      }
      case Op.MUL_N:
      case Op.DIV_N:
      case Op.MOD_N:
      case Op.MUL_B:
      case Op.DIV_B:
      case Op.MOD_B:
      case Op.BIT_OR_N:
      case Op.BIT_AND_N:
      case Op.XOR_N:
      case Op.BIT_OR_B:
      case Op.BIT_AND_B:
      case Op.XOR_B: {
        const b = this.pop();
        const a = this.pop();
        this.emit(at);
        this.push(`D.binaryOp(${op}, ${a}, ${b}, ${arg})`);
        return false;
      }
      case Op.SHL_N:
      case Op.SHL_B: {
        const b = this.pop();
        const a = this.pop();
        this.emit(at);
        this.push(`D.${op === Op.SHL_N ? 'shlNum' : 'shlBig'}(${a}, ${b}, ${arg})`);
        return false;
      }
      case Op.SHR_N:
      case Op.SHR_B: {
        const b = this.pop();
        const a = this.pop();
        this.emit(`if (${b} >= ${arg}) { ${at} throw D.arithmeticError('Shift right overflow'); }`);
        this.push(op === Op.SHR_N ? `${a} >>> ${b}` : `${a} >> BigInt(${b})`);
        return false;
      }
      case Op.OR:
      case Op.AND: {
        const b = this.pop();
        const a = this.pop();
        this.push(`${a} ${op === Op.OR ? '||' : '&&'} ${b}`);
        return false;
      }
      case Op.NOT:
        this.push(`!${this.pop()}`);
        return false;
      case Op.EQ_PRIM:
      case Op.NEQ_PRIM:
      case Op.LT:
      case Op.GT:
      case Op.LE:
      case Op.GE: {
        const b = this.pop();
        const a = this.pop();
        this.push(`${a} ${COMPARE[op]} ${b}`);
        return false;
      }
      case Op.EQ_DEEP:
      case Op.NEQ_DEEP:
      case Op.EQ_REF:
      case Op.NEQ_REF: {
        const ref = op === Op.EQ_REF || op === Op.NEQ_REF;
        const b = this.pop();
        const a = this.pop();
        this.emit(at);
        const eq = ref ? `D.valuesEqual(D.peekRef(${a}), D.peekRef(${b}))` : `D.valuesEqual(${a}, ${b})`;
        this.push(op === Op.EQ_DEEP || op === Op.EQ_REF ? eq : `!${eq}`);
        return false;
      }
      case Op.CAST:
        this.emit(at);
        this.push(`D.castValue(${this.pop()}, ${arg})`);
        return false;
      default:
        return this.vectorOrVariant(pc, op, arg);
    }
  }

  private vectorOrVariant(pc: number, op: number, arg: number): boolean {
    const at = `p = ${pc};`;
    switch (op) {
      case Op.VEC_PACK: {
        const count = this.tc.vecSites[arg].count;
        const elems: string[] = new Array<string>(count);
        for (let i = count - 1; i >= 0; i--) elems[i] = this.pop();
        this.emit(at);
        this.emit(`if (inst.depthChecked[${pc}] === 0) D.checkPackDepth(rt, inst, ${pc}, limits);`);
        const v = this.push(`D.MoveVector.empty(D.vecKindOf(inst.vecElem(rt.types, ${arg})), ${count})`);
        for (const e of elems) this.emit(`${v}.push(${e});`);
        return false;
      }
      case Op.VEC_LEN:
        this.push(`BigInt(D.peekRef(${this.pop()}).length)`);
        return false;
      case Op.VEC_BORROW: {
        const i = this.pop();
        const v = this.pop();
        this.emit(at);
        const ix = this.temp(`D.indexOf(${i})`);
        this.emit(`if (${ix} >= ${v}.length) throw D.vecOpError(false, T, ${arg}, D.VectorError.INDEX_OUT_OF_BOUNDS, \`index \${${ix}} out of bounds (length \${${v}.length})\`);`);
        this.push(`D.borrowElement(${v}, ${ix})`);
        return false;
      }
      case Op.VEC_PUSH_BACK: {
        const e = this.pop();
        const v = this.pop();
        this.emit(at);
        this.emit(`if (${v}.length >= limits.maxVectorLength) throw D.vecOpError(false, T, ${arg}, D.VectorError.VEC_SIZE_LIMIT_REACHED, \`vector length would exceed \${limits.maxVectorLength}\`);`);
        this.emit(`${v}.push(${e}); D.noteWrite(${v});`);
        return false;
      }
      case Op.VEC_POP_BACK: {
        const v = this.pop();
        this.emit(at);
        this.emit(`if (${v}.length === 0) throw D.vecOpError(false, T, ${arg}, D.VectorError.POP_EMPTY_VEC, 'pop from an empty vector');`);
        this.push(`${v}.pop()`);
        this.emit(`D.noteWrite(${v});`);
        return false;
      }
      case Op.VEC_UNPACK: {
        const count = this.tc.vecSites[arg].count;
        const v = this.pop();
        this.emit(at);
        this.emit(`if (${v}.length !== ${count}) throw D.vectorError(D.VectorError.VEC_UNPACK_PARITY_MISMATCH, \`expected ${count} elements, found \${${v}.length}\`);`);
        for (let i = 0; i < count; i++) this.push(`${v}.get(${i})`);
        return false;
      }
      case Op.VEC_SWAP: {
        const j = this.temp(`D.indexOf(${this.pop()})`);
        const i = this.temp(`D.indexOf(${this.pop()})`);
        const v = this.pop();
        this.emit(at);
        this.emit(
          `if (${i} >= ${v}.length || ${j} >= ${v}.length) throw D.vecOpError(false, T, ${arg}, D.VectorError.INDEX_OUT_OF_BOUNDS, \`swap indices \${${i}}, \${${j}} out of bounds (length \${${v}.length})\`);`,
        );
        this.emit(`${v}.swap(${i}, ${j}); D.noteWrite(${v});`);
        return false;
      }
      case Op.PACK_VARIANT: {
        const site = this.tc.variantSites[arg];
        const fields: string[] = new Array<string>(site.fieldCount);
        for (let i = site.fieldCount - 1; i >= 0; i--) fields[i] = this.pop();
        this.emit(at);
        this.emit(`if (inst.depthChecked[${pc}] === 0) D.checkPackDepth(rt, inst, ${pc}, limits);`);
        this.push(`new D.VariantValue(${site.tag}, [${fields.join(', ')}])`);
        return false;
      }
      case Op.UNPACK_VARIANT:
      case Op.UNPACK_VARIANT_REF: {
        const site = this.tc.variantSites[arg];
        const v = this.pop();
        this.emit(`if (${v}.tag !== ${site.tag}) { ${at} throw new D.VmError('VARIANT_TAG_MISMATCH', \`expected variant ${site.tag}, found \${${v}.tag}\`); }`);
        for (let i = 0; i < site.fieldCount; i++) this.push(op === Op.UNPACK_VARIANT ? `${v}.fields[${i}]` : `D.borrowSlot(${v}.fields, ${i})`);
        return false;
      }
      case Op.VARIANT_SWITCH: {
        const v = this.pop();
        this.exit(`T.jumpTables[${arg}][D.peekRef(${v}).tag]`);
        return true;
      }
      default:
        throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `the block compiler has no rule for opcode ${op}`);
    }
  }
}

const COMPARE: Readonly<Record<number, string>> = {
  [Op.EQ_PRIM]: '===',
  [Op.NEQ_PRIM]: '!==',
  [Op.LT]: '<',
  [Op.GT]: '>',
  [Op.LE]: '<=',
  [Op.GE]: '>=',
};

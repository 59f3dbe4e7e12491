/**
 * The control-flow graph of a code unit and the abstract interpreter that drives the
 * flow-sensitive passes (upstream `move-abstract-interpreter`): basic blocks, successors in
 * ascending order, loop heads and back edges found by a depth-first walk, reverse post-order
 * traversal, and the fix-point loop with its exact revisit rules.
 */
import type { Bytecode, VariantJumpTable } from '../file-format.js';

/** `true` for `Ret`, `Abort`, `Branch` and `VariantSwitch`. */
export function isUnconditionalBranch(ins: Bytecode): boolean {
  switch (ins.$kind) {
    case 'Ret':
    case 'Abort':
    case 'Branch':
    case 'VariantSwitch':
      return true;
    default:
      return false;
  }
}

/** `true` for every instruction that ends a basic block. */
function isBranch(ins: Bytecode): boolean {
  return ins.$kind === 'BrTrue' || ins.$kind === 'BrFalse' || isUnconditionalBranch(ins);
}

/** Jump targets of an instruction. */
export function jumpTargets(ins: Bytecode, jumpTables: readonly VariantJumpTable[]): number[] {
  switch (ins.$kind) {
    case 'BrTrue':
    case 'BrFalse':
    case 'Branch':
      return [ins.index];
    case 'VariantSwitch':
      return [...jumpTables[ins.index].jumpTable.offsets];
    default:
      return [];
  }
}

/** Successors of the instruction at `pc`, ascending (duplicate jump-table targets kept). */
function instructionSuccessors(pc: number, code: readonly Bytecode[], jumpTables: readonly VariantJumpTable[]): number[] {
  const ins = code[pc];
  const v = jumpTargets(ins, jumpTables);
  const next = pc + 1;
  if (next >= code.length) return v;
  if (!isUnconditionalBranch(ins) && !v.includes(next)) v.push(next);
  v.sort((a, b) => a - b);
  return v;
}

/** Control-flow graph of one function (upstream `VMControlFlowGraph`). */
export class ControlFlowGraph {
  /** Block start offsets, ascending. */
  readonly blocks: number[] = [];
  /** Exit offset of the block starting at each offset (-1 elsewhere). */
  private readonly exits: Int32Array;
  private readonly succs = new Map<number, number[]>();
  /** Next block in reverse post-order. */
  private readonly traversalNext = new Map<number, number>();
  /** Loop head → blocks with a back edge to it. */
  readonly loopHeads = new Map<number, Set<number>>();

  constructor(code: readonly Bytecode[], jumpTables: readonly VariantJumpTable[]) {
    const n = code.length;
    this.exits = new Int32Array(Math.max(n, 1)).fill(-1);
    const starts = new Uint8Array(n + 1);
    starts[0] = 1;
    for (let pc = 0; pc < n; pc++) {
      for (const t of jumpTargets(code[pc], jumpTables)) if (t <= n) starts[t] = 1;
      if (isBranch(code[pc]) && pc + 1 < n) starts[pc + 1] = 1;
    }
    let entry = 0;
    for (let pc = 0; pc < n; pc++) {
      if (pc + 1 === n || starts[pc + 1]) {
        this.blocks.push(entry);
        this.exits[entry] = pc;
        this.succs.set(entry, instructionSuccessors(pc, code, jumpTables));
        entry = pc + 1;
      }
    }
    if (n === 0) return;
    // Depth-first walk from the entry: loop heads, back edges and the post-order.
    const state = new Map<number, 1 | 2>(); // 1 = in progress, 2 = done
    const stack = [0];
    const postOrder: number[] = [];
    while (stack.length > 0) {
      const block = stack.pop() as number;
      const s = state.get(block);
      if (s === undefined) {
        state.set(block, 1);
        stack.push(block);
        for (const succ of this.successors(block)) {
          const ss = state.get(succ);
          if (ss === undefined) stack.push(succ);
          else if (ss === 1) {
            let backs = this.loopHeads.get(succ);
            if (!backs) this.loopHeads.set(succ, (backs = new Set()));
            backs.add(block);
          }
        }
      } else if (s === 1) {
        postOrder.push(block);
        state.set(block, 2);
      }
    }
    postOrder.reverse();
    for (let i = 0; i + 1 < postOrder.length; i++) this.traversalNext.set(postOrder[i], postOrder[i + 1]);
  }

  /** Last instruction of a block. */
  blockEnd(block: number): number {
    return this.exits[block];
  }

  /** Successor blocks, ascending. */
  successors(block: number): readonly number[] {
    return this.succs.get(block) ?? [];
  }

  /** Next block in traversal order, or `undefined`. */
  nextBlock(block: number): number | undefined {
    return this.traversalNext.get(block);
  }

  /** `true` when `cur → next` is a back edge. */
  isBackEdge(cur: number, next: number): boolean {
    return this.loopHeads.get(next)?.has(cur) ?? false;
  }

  /** Number of back edges. */
  numBackEdges(): number {
    let n = 0;
    for (const s of this.loopHeads.values()) n += s.size;
    return n;
  }
}

/** Transfer functions and lattice of one flow-sensitive analysis. */
export interface AbstractDomain<S> {
  /** A copy of a state. */
  clone(state: S): S;
  /** Join `post` into `pre`: the new pre-state when it changed, else `null`. */
  join(pre: S, post: S): S | null;
  /**
   * Execute one instruction. May mutate `state`; returns the state after it. `blockEnd` is the
   * offset of the block's last instruction.
   */
  execute(state: S, ins: Bytecode, offset: number, blockEnd: number): S;
}

/** Run an analysis to its fix point (upstream `absint::analyze_function`). */
export function analyzeFunction<S>(cfg: ControlFlowGraph, code: readonly Bytecode[], initial: S, domain: AbstractDomain<S>): void {
  const pre = new Map<number, S>();
  pre.set(0, initial);
  let next: number | undefined = 0;
  while (next !== undefined) {
    const block: number = next;
    let blockPre = pre.get(block);
    if (blockPre === undefined) {
      blockPre = domain.clone(initial);
      pre.set(block, blockPre);
    }
    let state = domain.clone(blockPre);
    const end = cfg.blockEnd(block);
    for (let pc = block; pc <= end; pc++) state = domain.execute(state, code[pc], pc, end);
    let candidate = cfg.nextBlock(block);
    for (const succ of cfg.successors(block)) {
      const succPre = pre.get(succ);
      if (succPre === undefined) {
        pre.set(succ, domain.clone(state));
        continue;
      }
      const joined = domain.join(succPre, state);
      if (joined === null) continue;
      pre.set(succ, joined);
      if (cfg.isBackEdge(block, succ)) {
        candidate = succ;
        break;
      }
    }
    next = candidate;
  }
}

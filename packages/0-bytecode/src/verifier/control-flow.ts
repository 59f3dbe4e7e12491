/**
 * Control-flow checks (`control_flow.rs`, `control_flow_v5.rs`, `loop_summary.rs`): code is
 * not empty and cannot fall off its end; from version 6 the CFG must be reducible (Tarjan's
 * test over a depth-first spanning tree) with bounded loop depth; version 5 and older use the
 * structured-loop rules (continues, breaks, no loop splits).
 */
import type { Bytecode, CodeUnit } from '../file-format.js';
import { PartialError } from './errors.js';
import { ControlFlowGraph, isUnconditionalBranch } from './cfg.js';

function verifyFallthrough(fn: number, code: readonly Bytecode[]): void {
  if (code.length === 0) throw new PartialError('EMPTY_CODE_UNIT');
  if (!isUnconditionalBranch(code[code.length - 1])) {
    throw new PartialError('INVALID_FALL_THROUGH').atCodeOffset(fn, code.length - 1);
  }
}

/** Depth-first spanning tree summary of a CFG (upstream `LoopSummary`). */
class LoopSummary {
  /** Block of each node (nodes are numbered in pre-order). */
  readonly blocks: number[] = [];
  readonly descs: number[] = [];
  readonly backs: number[][] = [];
  readonly preds: number[][] = [];

  constructor(cfg: ControlFlowGraph) {
    type Frontier = { visit: true; from: number; to: number } | { visit: false; block: number; node: number; parent: number };
    const exploration = new Map<number, { done: boolean; node: number }>();
    const newNode = (block: number): number => {
      const id = this.blocks.length;
      this.blocks.push(block);
      this.descs.push(0);
      this.backs.push([]);
      this.preds.push([]);
      return id;
    };
    const root = newNode(0);
    exploration.set(0, { done: false, node: root });
    const stack: Frontier[] = cfg.successors(0).map((to) => ({ visit: true as const, from: root, to }));
    while (stack.length > 0) {
      const action = stack.pop() as Frontier;
      if (!action.visit) {
        this.descs[action.parent] += 1 + this.descs[action.node];
        (exploration.get(action.block) as { done: boolean }).done = true;
        continue;
      }
      const seen = exploration.get(action.to);
      if (seen !== undefined) {
        if (seen.done) this.preds[seen.node].push(action.from);
        else this.backs[seen.node].push(action.from);
        continue;
      }
      const node = newNode(action.to);
      exploration.set(action.to, { done: false, node });
      this.preds[node].push(action.from);
      stack.push({ visit: false, block: action.to, node, parent: action.from });
      for (const succ of cfg.successors(action.to)) stack.push({ visit: true, from: node, to: succ });
    }
  }

  isDescendant(ancestor: number, descendant: number): boolean {
    return ancestor <= descendant && descendant <= ancestor + this.descs[ancestor];
  }
}

/** Disjoint sets of collapsed loops with their nesting depth (upstream `LoopPartition`). */
class LoopPartition {
  private readonly parents: number[];
  private readonly depths: number[];

  constructor(size: number) {
    this.parents = Array.from({ length: size }, (_, i) => i);
    this.depths = new Array<number>(size).fill(0);
  }

  containingLoop(id: number): number {
    let child = id;
    let parent = this.parents[child];
    let grandparent = this.parents[parent];
    if (child === parent || parent === grandparent) return parent;
    const descendants: number[] = [];
    for (;;) {
      descendants.push(child);
      child = parent;
      parent = grandparent;
      grandparent = this.parents[grandparent];
      if (parent === grandparent) break;
    }
    for (const d of descendants) this.parents[d] = parent;
    return parent;
  }

  collapseLoop(head: number, body: Iterable<number>): number {
    let depth = this.depths[head];
    for (const c of body) {
      this.parents[c] = head;
      depth = Math.max(depth, this.depths[c]);
    }
    depth += 1;
    this.depths[head] = depth;
    return depth;
  }
}

function verifyReducibility(fn: number, cfg: ControlFlowGraph, maxLoopDepth: number | null): void {
  const summary = new LoopSummary(cfg);
  const partition = new LoopPartition(summary.blocks.length);
  for (let head = summary.blocks.length - 1; head >= 0; head--) {
    const back = summary.backs[head];
    if (back.length === 0) continue;
    const body = new Set<number>();
    for (const node of back) {
      const n = partition.containingLoop(node);
      if (n !== head) body.add(n);
    }
    const frontier = [...body].sort((a, b) => a - b);
    while (frontier.length > 0) {
      const node = frontier.pop() as number;
      for (const p of summary.preds[node]) {
        const pred = partition.containingLoop(p);
        if (!summary.isDescendant(head, pred)) {
          throw new PartialError('INVALID_LOOP_SPLIT').atCodeOffset(fn, summary.blocks[pred]);
        }
        if (pred !== head && !body.has(pred)) {
          body.add(pred);
          frontier.push(pred);
        }
      }
    }
    const depth = partition.collapseLoop(
      head,
      [...body].sort((a, b) => a - b),
    );
    if (maxLoopDepth !== null && depth > maxLoopDepth) {
      throw new PartialError('LOOP_MAX_DEPTH_REACHED').atCodeOffset(fn, summary.blocks[head]);
    }
  }
}

/** Version 5 and older: structured loops only. */
function verifyV5(fn: number, code: readonly Bytecode[], maxLoopDepth: number | null): void {
  verifyFallthrough(fn, code);
  const target = (ins: Bytecode): number | null => (ins.$kind === 'Branch' || ins.$kind === 'BrTrue' || ins.$kind === 'BrFalse' ? ins.index : null);
  // labels[i] = last continue of the loop headed at i, or -1
  const labels = new Array<number>(code.length).fill(-1);
  code.forEach((ins, i) => {
    const t = target(ins);
    if (t !== null && t <= i) labels[t] = i;
  });
  const walk = (check: (stack: [number, number][], i: number, ins: Bytecode) => void): void => {
    const stack: [number, number][] = [];
    code.forEach((ins, i) => {
      if (labels[i] >= 0) stack.push([i, labels[i]]);
      check(stack, i, ins);
      const t = target(ins);
      if (t !== null && t <= i) {
        const top = stack[stack.length - 1];
        if (top === undefined) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR');
        if (i === top[1]) stack.pop();
      }
    });
  };
  walk((stack, i, ins) => {
    const t = target(ins);
    if (t === null || t > i) return;
    const top = stack[stack.length - 1];
    if (top === undefined) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR');
    if (t !== top[0]) throw new PartialError('INVALID_LOOP_CONTINUE').atCodeOffset(fn, i);
  });
  walk((stack, i, ins) => {
    const t = target(ins);
    if (t === null || t <= i) return;
    const top = stack[stack.length - 1];
    if (top !== undefined && t > top[1] && t !== top[1] + 1) throw new PartialError('INVALID_LOOP_BREAK').atCodeOffset(fn, i);
  });
  const lastContinues = new Set(labels.filter((l) => l >= 0));
  const depth: number[] = [];
  let count = 0;
  labels.forEach((l, i) => {
    if (l >= 0) count++;
    depth.push(count);
    if (lastContinues.has(i)) count--;
  });
  walk((stack, i, ins) => {
    const t = target(ins);
    if (t === null || t <= i) return;
    const top = stack[stack.length - 1];
    if (top !== undefined && t > top[1]) return; // a break
    const after = labels[t] >= 0 ? depth[t] - 1 : depth[t];
    if (depth[i] !== after) throw new PartialError('INVALID_LOOP_SPLIT').atCodeOffset(fn, i);
  });
  if (maxLoopDepth === null) return;
  walk((_stack, i) => {
    if (depth[i] > maxLoopDepth) throw new PartialError('LOOP_MAX_DEPTH_REACHED').atCodeOffset(fn, i);
  });
}

/** Control-flow verification of one function; returns its CFG. */
export function verifyControlFlow(version: number, fn: number, unit: CodeUnit, maxLoopDepth: number | null): ControlFlowGraph {
  if (version <= 5) {
    verifyV5(fn, unit.code, maxLoopDepth);
    return new ControlFlowGraph(unit.code, unit.jumpTables);
  }
  verifyFallthrough(fn, unit.code);
  const cfg = new ControlFlowGraph(unit.code, unit.jumpTables);
  verifyReducibility(fn, cfg, maxLoopDepth);
  return cfg;
}

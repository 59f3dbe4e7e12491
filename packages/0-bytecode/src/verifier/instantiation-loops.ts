/**
 * Instantiation loops (`instantiation_loops.rs`): no cycle of generic calls inside the module
 * may build ever bigger types (`f<T>() { f<S<T>>() }`). Nodes are (function definition, type
 * parameter); strongly connected components with a type-constructor edge are errors. The SCC
 * search reproduces petgraph's `kosaraju_scc` over a `Graph` (neighbours newest edge first) so
 * that the reported component and message match upstream.
 */
import type { CompiledModule, SignatureToken } from '../file-format.js';
import { PartialError, tokenDebug } from './errors.js';

interface Edge {
  from: number;
  to: number;
  /** `null` for an identity edge, else the type built from the caller's parameter. */
  tyCon: SignatureToken | null;
}

class Graph {
  readonly nodes: [fn: number, param: number][] = [];
  readonly edges: Edge[] = [];
  private readonly index = new Map<string, number>();
  /** Outgoing / incoming edge ids per node, newest first. */
  readonly out: number[][] = [];
  readonly inc: number[][] = [];

  node(fn: number, param: number): number {
    const key = `${fn}#${param}`;
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.nodes.length;
      this.nodes.push([fn, param]);
      this.out.push([]);
      this.inc.push([]);
      this.index.set(key, id);
    }
    return id;
  }

  addEdge(from: [number, number], to: [number, number], tyCon: SignatureToken | null): void {
    const a = this.node(from[0], from[1]);
    const b = this.node(to[0], to[1]);
    const id = this.edges.length;
    this.edges.push({ from: a, to: b, tyCon });
    this.out[a].unshift(id);
    this.inc[b].unshift(id);
  }
}

/** Type parameters mentioned in a token, in first-occurrence order. */
function typeParameters(t: SignatureToken, out: number[]): number[] {
  switch (t.$kind) {
    case 'TypeParameter':
      if (!out.includes(t.index)) out.push(t.index);
      break;
    case 'Vector':
    case 'Reference':
    case 'MutableReference':
      typeParameters(t.type, out);
      break;
    case 'DatatypeInstantiation':
      for (const a of t.typeArguments) typeParameters(a, out);
      break;
    default:
      break;
  }
  return out;
}

function buildGraph(m: CompiledModule): Graph {
  const g = new Graph();
  const defOfHandle = new Map<number, number>();
  m.functionDefs.forEach((d, i) => defOfHandle.set(d.function, i));
  m.functionDefs.forEach((def, caller) => {
    if (def.code === null) return;
    for (const ins of def.code.code) {
      if (ins.$kind !== 'CallGeneric') continue;
      const inst = m.functionInstantiations[ins.index];
      const callee = defOfHandle.get(inst.handle);
      if (callee === undefined) continue;
      m.signatures[inst.typeParameters].forEach((ty, formal) => {
        if (ty.$kind === 'TypeParameter') {
          g.addEdge([caller, ty.index], [callee, formal], null);
        } else {
          for (const p of typeParameters(ty, [])) g.addEdge([caller, p], [callee, formal], ty);
        }
      });
    }
  });
  return g;
}

/** petgraph `kosaraju_scc`: components in post-order. */
function kosaraju(g: Graph): number[][] {
  const n = g.nodes.length;
  const discovered = new Uint8Array(n);
  const finished = new Uint8Array(n);
  const finishOrder: number[] = [];
  for (let i = 0; i < n; i++) {
    if (discovered[i]) continue;
    const stack = [i];
    while (stack.length > 0) {
      const nx = stack[stack.length - 1];
      if (!discovered[nx]) {
        discovered[nx] = 1;
        for (const e of g.inc[nx]) {
          const s = g.edges[e].from;
          if (!discovered[s]) stack.push(s);
        }
      } else {
        stack.pop();
        if (!finished[nx]) {
          finished[nx] = 1;
          finishOrder.push(nx);
        }
      }
    }
  }
  const seen = new Uint8Array(n);
  const sccs: number[][] = [];
  for (let k = finishOrder.length - 1; k >= 0; k--) {
    const i = finishOrder[k];
    if (seen[i]) continue;
    const scc: number[] = [];
    const stack = [i];
    while (stack.length > 0) {
      const node = stack.pop() as number;
      if (seen[node]) continue;
      seen[node] = 1;
      for (const e of g.out[node]) {
        const t = g.edges[e].to;
        if (!seen[t]) stack.push(t);
      }
      scc.push(node);
    }
    sccs.push(scc);
  }
  return sccs;
}

/** The instantiation-loop pass. Throws {@link PartialError} `LOOP_IN_INSTANTIATION_GRAPH`. */
export function verifyInstantiationLoops(m: CompiledModule): void {
  const g = buildGraph(m);
  if (g.edges.length === 0) return;
  let last: { nodes: number[]; edges: number[] } | null = null;
  for (const nodes of kosaraju(g)) {
    const set = new Set(nodes);
    const edges: number[] = [];
    for (const node of nodes) for (const e of g.out[node]) if (set.has(g.edges[e].to)) edges.push(e);
    if (edges.some((e) => g.edges[e].tyCon !== null)) last = { nodes, edges };
  }
  if (last === null) return;
  const fmtNode = (id: number): string => `f${g.nodes[id][0]}#${g.nodes[id][1]}`;
  const msgEdges = last.edges
    .filter((e) => g.edges[e].tyCon !== null)
    .map((e) => {
      const edge = g.edges[e];
      return `${fmtNode(edge.from)} --${tokenDebug(edge.tyCon as SignatureToken)}--> ${fmtNode(edge.to)}`;
    })
    .join(', ');
  const msgNodes = last.nodes.map(fmtNode).join(', ');
  throw new PartialError('LOOP_IN_INSTANTIATION_GRAPH', `edges with constructors: [${msgEdges}], nodes: [${msgNodes}]`);
}

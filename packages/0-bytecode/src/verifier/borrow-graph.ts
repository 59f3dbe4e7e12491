/**
 * The borrow graph of reference safety (upstream `move-borrow-graph`): nodes are references,
 * edges say "parent is borrowed by child" along a path of labels, strong (exact path) or weak
 * (any extension of the path). Edge sets are ordered and saturate at 10 edges into one weak
 * epsilon edge, exactly as upstream, since that changes which programs are accepted.
 */

/** A label: a local, a global, a struct field or an enum variant field (see {@link label}). */
export type Label = number;

const KIND = 2 ** 48;

/** Label constructors; the numeric order is upstream's derived `Ord`. */
export const label = {
  local: (i: number): Label => i,
  global: (s: number): Label => KIND + s,
  structField: (f: number): Label => 2 * KIND + f,
  variantField: (e: number, tag: number, field: number): Label => 3 * KIND + e * 2 ** 32 + tag * 2 ** 16 + field,
};

/** An edge: strong or weak, with its path. Immutable once built. */
interface Edge {
  readonly strong: boolean;
  readonly path: readonly Label[];
}

function comparePaths(a: readonly Label[], b: readonly Label[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

function compareEdges(a: Edge, b: Edge): number {
  if (a.strong !== b.strong) return a.strong ? 1 : -1;
  return comparePaths(a.path, b.path);
}

/** `lhs` is a prefix of `rhs`. */
function pathLeq(lhs: readonly Label[], rhs: readonly Label[]): boolean {
  if (lhs.length > rhs.length) return false;
  for (let i = 0; i < lhs.length; i++) if (lhs[i] !== rhs[i]) return false;
  return true;
}

function edgeLeq(a: Edge, b: Edge): boolean {
  return compareEdges(a, b) === 0 || (!a.strong && pathLeq(a.path, b.path));
}

const MAX_EDGE_SET_SIZE = 10;
const OVERFLOW_EDGE: Edge = Object.freeze({ strong: false, path: Object.freeze([]) as readonly Label[] });

/** An ordered set of edges between one parent and one child. */
class EdgeSet {
  edges: Edge[] = [];
  overflown = false;

  clone(): EdgeSet {
    const c = new EdgeSet();
    c.edges = this.edges.slice();
    c.overflown = this.overflown;
    return c;
  }

  insert(edge: Edge): void {
    if (this.overflown) return;
    if (this.edges.length + 1 > MAX_EDGE_SET_SIZE) {
      this.edges = [OVERFLOW_EDGE];
      this.overflown = true;
      return;
    }
    let lo = 0;
    let hi = this.edges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compareEdges(this.edges[mid], edge);
      if (c === 0) return;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    this.edges.splice(lo, 0, edge);
  }

  remove(edge: Edge): void {
    const i = this.edges.findIndex((e) => compareEdges(e, edge) === 0);
    if (i >= 0) this.edges.splice(i, 1);
  }
}

interface Ref {
  mutable: boolean;
  /** child id → edges (this is borrowed by child). */
  borrowedBy: Map<number, EdgeSet>;
  /** parents this borrows from. */
  borrowsFrom: Set<number>;
}

const ascending = (a: number, b: number): number => a - b;

function sortedKeys<V>(m: Map<number, V>): number[] {
  return [...m.keys()].sort(ascending);
}

/** Who borrows a reference: full (epsilon) borrowers, and field borrowers by first label. */
export interface Borrowers {
  full: number[];
  fields: Map<Label, number[]>;
}

/** A borrow graph. */
export class BorrowGraph {
  private refs = new Map<number, Ref>();

  /** A deep copy. */
  clone(): BorrowGraph {
    const g = new BorrowGraph();
    for (const [id, r] of this.refs) {
      const borrowedBy = new Map<number, EdgeSet>();
      for (const [c, s] of r.borrowedBy) borrowedBy.set(c, s.clone());
      g.refs.set(id, { mutable: r.mutable, borrowedBy, borrowsFrom: new Set(r.borrowsFrom) });
    }
    return g;
  }

  /** Add a reference. */
  newRef(id: number, mutable: boolean): void {
    this.refs.set(id, { mutable, borrowedBy: new Map(), borrowsFrom: new Set() });
  }

  /** `true` for a mutable reference. */
  isMutable(id: number): boolean {
    return this.ref(id).mutable;
  }

  private ref(id: number): Ref {
    const r = this.refs.get(id);
    if (r === undefined) throw new Error(`borrow graph: unknown reference ${id}`);
    return r;
  }

  /** References borrowing `id`, full borrows and field borrows by first label. */
  borrowedBy(id: number): Borrowers {
    const full: number[] = [];
    const fields = new Map<Label, number[]>();
    for (const [child, set] of this.ref(id).borrowedBy) {
      for (const e of set.edges) {
        if (e.path.length === 0) full.push(child);
        else {
          let list = fields.get(e.path[0]);
          if (!list) fields.set(e.path[0], (list = []));
          list.push(child);
        }
      }
    }
    return { full, fields };
  }

  /** Strong epsilon borrow (a copy). */
  addStrongBorrow(parent: number, child: number): void {
    this.factor(parent, [], child);
  }

  /** Strong borrow of a field. */
  addStrongFieldBorrow(parent: number, field: Label, child: number): void {
    this.factor(parent, [field], child);
  }

  /** Weak epsilon borrow (anything inside `parent`). */
  addWeakBorrow(parent: number, child: number): void {
    this.addEdge(parent, { strong: false, path: [] }, child);
  }

  /** Weak borrow rooted at a field. */
  addWeakFieldBorrow(parent: number, field: Label, child: number): void {
    this.addEdge(parent, { strong: false, path: [field] }, child);
  }

  private addEdge(parent: number, edge: Edge, child: number): void {
    const p = this.ref(parent);
    let set = p.borrowedBy.get(child);
    if (!set) p.borrowedBy.set(child, (set = new EdgeSet()));
    set.insert(edge);
    this.ref(child).borrowsFrom.add(parent);
  }

  /** Move the borrows of `parent` extending `path` under `intermediate`, then borrow it. */
  private factor(parent: number, path: readonly Label[], intermediate: number): void {
    const p = this.ref(parent);
    const moved: [number, Edge][] = [];
    for (const child of sortedKeys(p.borrowedBy)) {
      for (const e of (p.borrowedBy.get(child) as EdgeSet).edges) if (pathLeq(path, e.path)) moved.push([child, e]);
    }
    const cleanup = new Set<number>();
    for (const [child, e] of moved) {
      const set = p.borrowedBy.get(child) as EdgeSet;
      set.remove(e);
      if (set.edges.length === 0) {
        p.borrowedBy.delete(child);
        cleanup.add(child);
      }
    }
    for (const child of cleanup) this.ref(child).borrowsFrom.delete(parent);
    for (const [child, e] of moved) {
      this.addEdge(intermediate, { strong: e.strong, path: e.path.slice(path.length) }, child);
    }
    this.addEdge(parent, { strong: true, path }, intermediate);
  }

  /** Remove `id`, connecting its parents to its children. Returns the spliced edge count. */
  release(id: number): number {
    const r = this.ref(id);
    this.refs.delete(id);
    let released = 0;
    const children = sortedKeys(r.borrowedBy);
    for (const parent of [...r.borrowsFrom].sort(ascending)) {
      const p = this.ref(parent);
      const parentEdges = p.borrowedBy.get(id) as EdgeSet;
      p.borrowedBy.delete(id);
      for (const pe of parentEdges.edges) {
        for (const child of children) {
          for (const ce of (r.borrowedBy.get(child) as EdgeSet).edges) {
            released++;
            if (parent === child) continue;
            const path = pe.strong ? [...pe.path, ...ce.path] : pe.path;
            this.addEdge(parent, { strong: pe.strong && ce.strong, path }, child);
          }
        }
      }
    }
    for (const child of children) this.ref(child).borrowsFrom.delete(id);
    return released;
  }

  /** Edges of `other` not covered by an edge of `this`, by parent then child. */
  private unmatchedEdges(other: BorrowGraph): [number, number, EdgeSet][] {
    const out: [number, number, EdgeSet][] = [];
    for (const parent of sortedKeys(other.refs)) {
      const otherRef = other.refs.get(parent) as Ref;
      const selfRef = this.ref(parent);
      for (const child of sortedKeys(otherRef.borrowedBy)) {
        const mine = selfRef.borrowedBy.get(child);
        let unmatched: EdgeSet | null = null;
        for (const oe of (otherRef.borrowedBy.get(child) as EdgeSet).edges) {
          const found = mine !== undefined && mine.edges.some((se) => edgeLeq(se, oe));
          if (!found) {
            if (unmatched === null) unmatched = new EdgeSet();
            unmatched.insert(oe);
          }
        }
        if (unmatched !== null) out.push([parent, child, unmatched]);
      }
    }
    return out;
  }

  /** `true` when `this` covers `other`. */
  leq(other: BorrowGraph): boolean {
    return this.unmatchedEdges(other).length === 0;
  }

  /** `this` plus the edges of `other` it does not cover. */
  join(other: BorrowGraph): BorrowGraph {
    const joined = this.clone();
    for (const [parent, child, set] of this.unmatchedEdges(other)) for (const e of set.edges) joined.addEdge(parent, e, child);
    return joined;
  }

  /** Rename references (ids not in the map keep theirs). */
  remap(idMap: Map<number, number>): void {
    const f = (id: number): number => idMap.get(id) ?? id;
    const refs = new Map<number, Ref>();
    for (const [id, r] of this.refs) {
      const borrowedBy = new Map<number, EdgeSet>();
      for (const [c, s] of r.borrowedBy) borrowedBy.set(f(c), s);
      refs.set(f(id), { mutable: r.mutable, borrowedBy, borrowsFrom: new Set([...r.borrowsFrom].map(f)) });
    }
    this.refs = refs;
  }
}

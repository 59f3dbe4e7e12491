/**
 * The constructor graph: for every datatype, the functions that return it, read from the
 * real return types in the bytecode (the original guessed from names like `new_x`):
 * constructors return it alone, producers return it inside a tuple or as a reference.
 * Each edge records the function's visibility, so that only what a transaction can call
 * (public, or entry) is used to build values; the rest is reported. Setup producers are
 * functions whose body shares, freezes or transfers a new object of the type directly
 * (`transfer::share_object<T>` ...): calling one in a setup transaction makes that object.
 */
import { type Catalogue, type FunctionDecl, isCoreFramework, SUI } from './catalogue.js';
import { type DatatypeTy, deref, formatTy, hasParams, type Ty } from './types.js';

/** How a function yields a value of a datatype. */
export type EdgeKind = 'constructor' | 'producer' | 'reference';

/** One function that yields a datatype. */
export interface ConstructorEdge {
  fn: FunctionDecl;
  /** Position of the value among the returns. */
  returnIndex: number;
  /** The return type (may mention the function's type parameters). */
  returns: Ty;
  kind: EdgeKind;
  /** `true` when a transaction can call it (public, or entry). */
  callable: boolean;
}

/** A function whose body shares, freezes or transfers an object of a datatype. */
export interface SetupEdge {
  fn: FunctionDecl;
  /** The object's type, in terms of the function's type parameters. */
  type: Ty;
  /** Where the object ends up. */
  outcome: 'shared' | 'frozen' | 'transferred';
}

/** The statistics the original printed, plus what they leave out. */
export interface GraphStats {
  total_types: number;
  types_with_constructors: number;
  total_constructors: number;
  types_with_producers: number;
  total_producers: number;
  types_with_setup_producers: number;
  callable_constructors: number;
}

const SETUP_CALLS: Readonly<Record<string, SetupEdge['outcome']>> = {
  share_object: 'shared',
  public_share_object: 'shared',
  freeze_object: 'frozen',
  public_freeze_object: 'frozen',
  transfer: 'transferred',
  public_transfer: 'transferred',
};

/** How many calls deep a setup producer's helpers are searched for the objects they share. */
const SETUP_DEPTH = 3;

/** `true` when a PTB can call the function. */
export function isCallable(fn: FunctionDecl): boolean {
  return (fn.visibility === 'Public' || fn.isEntry) && fn.name !== 'init';
}

/** The constructor graph of a catalogue. */
export class ConstructorGraph {
  private readonly edges = new Map<string, ConstructorEdge[]>();
  private readonly setups = new Map<string, SetupEdge[]>();
  readonly stats: GraphStats;

  constructor(readonly catalogue: Catalogue) {
    for (const fn of catalogue.latestFunctions()) {
      const callable = isCallable(fn);
      fn.returns.forEach((r, returnIndex) => {
        const inner = deref(r);
        if (inner.$kind !== 'Datatype') return;
        const kind: EdgeKind = r.$kind === 'Ref' ? 'reference' : fn.returns.length === 1 ? 'constructor' : 'producer';
        const list = this.edges.get(inner.key) ?? [];
        list.push({ fn, returnIndex, returns: r, kind, callable });
        this.edges.set(inner.key, list);
      });
      if (!callable) continue;
      const seen = new Set<string>();
      for (const edge of this.sharedBy(fn, fn, SETUP_DEPTH, new Set())) {
        const key = `${formatTy(edge.type)}|${edge.outcome}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const list = this.setups.get((edge.type as DatatypeTy).key) ?? [];
        list.push(edge);
        this.setups.set((edge.type as DatatypeTy).key, list);
      }
    }
    let constructors = 0;
    let producers = 0;
    let callable = 0;
    let typesWithConstructors = 0;
    let typesWithProducers = 0;
    for (const list of this.edges.values()) {
      const c = list.filter((e) => e.kind === 'constructor');
      const p = list.filter((e) => e.kind !== 'constructor');
      constructors += c.length;
      producers += p.length;
      callable += c.filter((e) => e.callable).length;
      if (c.length > 0) typesWithConstructors++;
      if (p.length > 0) typesWithProducers++;
    }
    this.stats = {
      total_types: [...catalogue.datatypeKeys()].filter((k) => catalogue.isDefined(k)).length,
      types_with_constructors: typesWithConstructors,
      total_constructors: constructors,
      types_with_producers: typesWithProducers,
      total_producers: producers,
      types_with_setup_producers: this.setups.size,
      callable_constructors: callable,
    };
  }

  /**
   * The objects `fn` (called as `top`) shares, freezes or transfers: in its own body, or
   * (`depth` calls deep) in a function of a loaded package it calls when the object's type
   * is concrete there (an entry function that sets up a protocol through its helpers).
   */
  private *sharedBy(top: FunctionDecl, fn: FunctionDecl, depth: number, visiting: Set<FunctionDecl>): Iterable<SetupEdge> {
    visiting.add(fn);
    for (const site of fn.calls) {
      if (site.address === SUI && site.module === 'transfer') {
        const outcome = SETUP_CALLS[site.name];
        const t = site.typeArgs[0];
        if (outcome === undefined || t === undefined || t.$kind !== 'Datatype') continue;
        // In the function itself the type may name its type parameters; deeper, only a concrete one carries over.
        if (fn === top || !hasParams(t)) yield { fn: top, type: t, outcome };
      } else if (depth > 0 && site.address !== SUI && !isCoreFramework(site.address)) {
        const callee = this.catalogue.functionByName(site.address, site.module, site.name);
        if (callee !== undefined && !visiting.has(callee)) yield* this.sharedBy(top, callee, depth - 1, visiting);
      }
    }
    visiting.delete(fn);
  }

  /** Every function that yields datatype `key` (callable or not), in catalogue order. */
  edgesOf(key: string): readonly ConstructorEdge[] {
    return this.edges.get(key) ?? [];
  }

  /** Callable functions that return datatype `key` by value (constructors first, then tuples). */
  valueProducers(key: string): readonly ConstructorEdge[] {
    const list = (this.edges.get(key) ?? []).filter((e) => e.callable && e.kind !== 'reference');
    return [...list.filter((e) => e.kind === 'constructor'), ...list.filter((e) => e.kind === 'producer')];
  }

  /** Callable functions that share, freeze or transfer a new object of datatype `key`. */
  setupProducers(key: string): readonly SetupEdge[] {
    return this.setups.get(key) ?? [];
  }
}

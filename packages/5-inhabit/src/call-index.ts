/**
 * Which functions act on a type: the callable functions that take an object by `&mut`
 * (they can set up the state a later call reads: register, then update, then read) and
 * those that take a value by value (they can consume a value the transaction could not
 * otherwise get rid of: a receipt repaid, a capability destroyed). And, from the call
 * graph of the bytecode, which functions add dynamic fields (directly or through what they
 * call): when a call aborts because a dynamic field is missing, those are tried first.
 */
import { type Catalogue, type FunctionDecl, SUI } from './catalogue.js';
import { isCallable } from './constructor-graph.js';
import { deref, type Ty } from './types.js';

/** A function with a parameter of a given datatype. */
export interface TakesType {
  fn: FunctionDecl;
  /** The parameter. */
  index: number;
  /** Its type (may mention the function's type parameters). */
  type: Ty;
}

/** The framework functions that add a dynamic field (the collections built on them included). */
const ADDS: Readonly<Record<string, readonly string[]>> = {
  dynamic_field: ['add'],
  dynamic_object_field: ['add'],
  table: ['add'],
  bag: ['add'],
  object_table: ['add'],
  object_bag: ['add'],
  linked_table: ['push_back', 'push_front'],
  table_vec: ['push_back'],
};

/** An index of the loaded functions by the types they take. */
export class CallIndex {
  private readonly mutating = new Map<string, TakesType[]>();
  private readonly consuming = new Map<string, TakesType[]>();
  private readonly adds = new Map<FunctionDecl, boolean>();

  constructor(private readonly catalogue: Catalogue) {
    for (const fn of catalogue.latestFunctions()) {
      if (!isCallable(fn)) continue;
      fn.params.forEach((p, index) => {
        const inner = deref(p);
        if (inner.$kind !== 'Datatype') return;
        const into = p.$kind === 'Ref' ? (p.mutable ? this.mutating : null) : this.consuming;
        if (into === null) return;
        const list = into.get(inner.key) ?? [];
        list.push({ fn, index, type: inner });
        into.set(inner.key, list);
      });
    }
  }

  /** Callable functions that take datatype `key` by `&mut`, in catalogue order. */
  mutators(key: string): readonly TakesType[] {
    return this.mutating.get(key) ?? [];
  }

  /** Callable functions that take datatype `key` by value, in catalogue order. */
  consumers(key: string): readonly TakesType[] {
    return this.consuming.get(key) ?? [];
  }

  /** `true` when `fn`, or a function it calls (transitively), adds a dynamic field. */
  addsDynamicFields(fn: FunctionDecl): boolean {
    const known = this.adds.get(fn);
    if (known !== undefined) return known;
    this.adds.set(fn, false); // cycles: not (yet) while visiting
    let found = false;
    for (const site of fn.calls) {
      if (site.address === SUI && ADDS[site.module]?.includes(site.name)) found = true;
      else if (site.address !== SUI) {
        const callee = this.catalogue.functionByName(site.address, site.module, site.name);
        if (callee !== undefined && this.addsDynamicFields(callee)) found = true;
      }
      if (found) break;
    }
    this.adds.set(fn, found);
    return found;
  }
}

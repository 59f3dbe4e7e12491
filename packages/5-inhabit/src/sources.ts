/**
 * How a value reaches a parameter: the plan a transaction is built from. A source is a
 * pure input, an existing object, the result of a call in the same PTB (a constructor
 * chain), an object a setup transaction made, an object forged from raw BCS (only
 * without `--restricted-state`), or a vector of such.
 */
import type { FunctionDecl } from './catalogue.js';
import type { SetupEdge } from './constructor-graph.js';
import type { InventoryObject, ParamUse } from './inventory.js';
export type { ParamUse } from './inventory.js';
import type { DatatypeTy, Ty } from './types.js';

/** A way to obtain a value. */
export type Source =
  | { readonly $kind: 'Pure'; readonly type: Ty }
  | { readonly $kind: 'Object'; readonly object: InventoryObject }
  | {
      readonly $kind: 'Call';
      readonly fn: FunctionDecl;
      readonly typeArgs: readonly Ty[];
      readonly args: readonly Arg[];
      readonly returnIndex: number;
      /** The function's returns, instantiated. */
      readonly returns: readonly Ty[];
    }
  | {
      readonly $kind: 'Setup';
      readonly fn: FunctionDecl;
      readonly typeArgs: readonly Ty[];
      readonly args: readonly Arg[];
      readonly type: DatatypeTy;
      readonly outcome: SetupEdge['outcome'];
    }
  | { readonly $kind: 'Synthesized'; readonly type: DatatypeTy }
  /** A `Coin<SUI>` split from the gas coin: the sender's own money. */
  | { readonly $kind: 'GasCoin' }
  | { readonly $kind: 'Vector'; readonly elem: Ty; readonly item: Source | null };

/**
 * An argument of a call: the transaction context (supplied by the runtime) or a value.
 * A planned value lists its `options` (best first; `source` is the first): Tier B's
 * search picks another when one fails. A value of a transaction being built has one.
 */
export type Arg = { readonly $kind: 'TxContext' } | { readonly $kind: 'Value'; readonly source: Source; readonly use: ParamUse; readonly type: Ty; readonly options?: readonly Source[] };

/** How the inputs of a row were obtained, weakest last. */
export type Provenance = 'chain' | 'init_state' | 'synthesized';

const RANK: Record<Provenance, number> = { chain: 0, init_state: 1, synthesized: 2 };

/** The weaker of two provenances. */
export function weaker(a: Provenance, b: Provenance): Provenance {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Provenance of a source: synthesized objects, then objects of the init state, else real construction. */
export function provenanceOf(s: Source): Provenance {
  switch (s.$kind) {
    case 'Pure':
    case 'GasCoin':
      return 'chain';
    case 'Object':
      return s.object.origin === 'synthesized' ? 'synthesized' : s.object.origin === 'init_state' ? 'init_state' : 'chain';
    case 'Synthesized':
      return 'synthesized';
    case 'Vector':
      return s.item === null ? 'chain' : provenanceOf(s.item);
    case 'Call':
    case 'Setup':
      return argsProvenance(s.args);
  }
}

/** The weakest provenance of some arguments. */
export function argsProvenance(args: readonly Arg[]): Provenance {
  let p: Provenance = 'chain';
  for (const a of args) if (a.$kind === 'Value') p = weaker(p, provenanceOf(a.source));
  return p;
}

/** Cost of a source: what the search minimises (pure values are free, forged objects dear). */
export function costOf(s: Source): number {
  switch (s.$kind) {
    case 'Pure':
      return 0;
    case 'Object':
      return s.object.origin === 'system' ? 0 : 1;
    case 'GasCoin':
      return 1;
    case 'Vector':
      return 1 + (s.item === null ? 0 : costOf(s.item));
    case 'Call':
      return 2 + argsCost(s.args);
    case 'Setup':
      return 5 + argsCost(s.args);
    case 'Synthesized':
      return 20;
  }
}

/** Total cost of some arguments. */
function argsCost(args: readonly Arg[]): number {
  let n = 0;
  for (const a of args) if (a.$kind === 'Value') n += costOf(a.source);
  return n;
}

/** Number of calls (chain steps) in a source. */
export function chainLength(s: Source): number {
  switch (s.$kind) {
    case 'Call':
    case 'Setup':
      return 1 + s.args.reduce((n, a) => n + (a.$kind === 'Value' ? chainLength(a.source) : 0), 0);
    case 'Vector':
      return s.item === null ? 0 : chainLength(s.item);
    default:
      return 0;
  }
}

/**
 * From a plan with options to the values one attempt uses. A plan lists, for every value
 * (a parameter of the target, an argument of a call in a chain or of a setup), its options
 * best first; a {@link Selection} says which option each position takes (the first when it
 * says nothing). Positions are paths: the target's parameter `i` is `"i"`, argument `k` of
 * the call or setup at `p` is `"p.k"`, the item of a vector at `p` is `"p.v"`. Resolving
 * copies every source, so each position has its own source object and {@link Resolved.paths}
 * tells where a command or a setup in a failing attempt came from.
 */
import type { Arg, ParamUse, Source } from './sources.js';

/** Which option each position takes (path → index; absent: 0). */
export type Selection = ReadonlyMap<string, number>;

/** Values resolved for one attempt. */
export interface Resolved {
  /** The target's arguments. */
  args: Arg[];
  /** The path of every source of the tree. */
  paths: Map<Source, string>;
  /** How many options each position with a choice has. */
  choices: Map<string, number>;
  /** Owned objects some position already takes (one object is one argument of one transaction's calls). */
  taken: Set<string>;
}

/** Resolve `params` (the target's, each with its options) under `selection`. */
export function resolveArgs(params: readonly { candidates: readonly Arg[] }[], selection: Selection): Resolved {
  const out: Resolved = { args: [], paths: new Map(), choices: new Map(), taken: new Set() };
  params.forEach((p, i) => {
    const first = p.candidates[0];
    if (first === undefined || first.$kind === 'TxContext') {
      out.args.push(first ?? { $kind: 'TxContext' });
      return;
    }
    const options = p.candidates.flatMap((c) => (c.$kind === 'Value' ? [c.source] : []));
    out.args.push(resolveValue({ ...first, options }, String(i), selection, out));
  });
  return out;
}

/** Resolve extra arguments (of a call added to the attempt) under `prefix`. */
export function resolveMore(args: readonly Arg[], prefix: string, selection: Selection, into: Resolved): Arg[] {
  return args.map((a, k) => (a.$kind === 'Value' ? resolveValue(a, `${prefix}.${k}`, selection, into) : a));
}

/** `true` when taking `s` as `use` would use an owned object a position already takes (or take by value one already used). */
function conflicts(s: Source, use: ParamUse, out: Resolved): boolean {
  // The same object passed again on purpose (a step on the target's object) is no conflict.
  return s.$kind === 'Object' && !out.paths.has(s) && out.taken.has(s.object.id) && (use === 'value' || s.object.ownership === 'owned');
}

function resolveValue(a: Extract<Arg, { $kind: 'Value' }>, path: string, selection: Selection, out: Resolved): Arg {
  const all = a.options ?? [a.source];
  // An object of the state is one argument: an option naming an object another position
  // already takes gives way to the next that does not.
  const free = all.filter((s) => !conflicts(s, a.use, out));
  const options = free.length > 0 ? free : all;
  if (options.length > 1) out.choices.set(path, options.length);
  const pick = Math.min(selection.get(path) ?? 0, options.length - 1);
  const chosen = options[pick];
  if (chosen.$kind === 'Object' && !out.paths.has(chosen) && (a.use === 'value' || chosen.object.ownership === 'owned')) out.taken.add(chosen.object.id);
  return { $kind: 'Value', source: resolveSource(chosen, path, selection, out), use: a.use, type: a.type };
}

function resolveSource(s: Source, path: string, selection: Selection, out: Resolved): Source {
  // A source resolved already (an object of the attempt passed again to an added call) stays itself.
  if (out.paths.has(s)) return s;
  let copy: Source;
  switch (s.$kind) {
    case 'Call':
    case 'Setup':
      copy = { ...s, args: s.args.map((a, k) => (a.$kind === 'Value' ? resolveValue(a, `${path}.${k}`, selection, out) : a)) };
      break;
    case 'Vector':
      copy = { ...s, item: s.item === null ? null : resolveSource(s.item, `${path}.v`, selection, out) };
      break;
    default:
      copy = { ...s };
  }
  out.paths.set(copy, path);
  return copy;
}

/** The paths that lead to `path`, nearest first (`"0.1.2"` → `"0.1"`, `"0"`). */
export function ancestors(path: string): string[] {
  const out: string[] = [];
  let p = path;
  for (let i = p.lastIndexOf('.'); i > 0; i = p.lastIndexOf('.')) {
    p = p.slice(0, i);
    out.push(p);
  }
  return out;
}

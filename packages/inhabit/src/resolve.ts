/**
 * From a plan with options to the values one attempt uses. A plan lists, for every value
 * (a parameter of the target, an argument of a call in a chain or of a setup), its options
 * best first; a {@link Selection} says which option each position takes (the first when it
 * says nothing). Positions are paths: the target's parameter `i` is `"i"`, argument `k` of
 * the call or setup at `p` is `"p.k"`, the item of a vector at `p` is `"p.v"`. Resolving
 * copies every source, so each position has its own source object and {@link Resolved.paths}
 * tells where a command or a setup in a failing attempt came from.
 */
import type { Arg, Source } from './sources.js';

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
}

/** Resolve `params` (the target's, each with its options) under `selection`. */
export function resolveArgs(params: readonly { candidates: readonly Arg[] }[], selection: Selection): Resolved {
  const out: Resolved = { args: [], paths: new Map(), choices: new Map() };
  // An object of the state is one argument: a parameter whose option names an object an
  // earlier parameter already takes moves on to the next option that does not.
  const taken = new Set<string>();
  params.forEach((p, i) => {
    const first = p.candidates[0];
    if (first === undefined || first.$kind === 'TxContext') {
      out.args.push(first ?? { $kind: 'TxContext' });
      return;
    }
    const all = p.candidates.flatMap((c) => (c.$kind === 'Value' ? [c.source] : []));
    const byValue = first.use === 'value';
    const free = all.filter((s) => !(s.$kind === 'Object' && taken.has(s.object.id) && (byValue || s.object.ownership === 'owned')));
    const options = free.length > 0 ? free : all;
    const arg = resolveValue({ ...first, options }, String(i), selection, out);
    if (arg.$kind === 'Value' && arg.source.$kind === 'Object' && (byValue || arg.source.object.ownership === 'owned')) taken.add(arg.source.object.id);
    out.args.push(arg);
  });
  return out;
}

/** Resolve extra arguments (of a call added to the attempt) under `prefix`. */
export function resolveMore(args: readonly Arg[], prefix: string, selection: Selection, into: Resolved): Arg[] {
  return args.map((a, k) => (a.$kind === 'Value' ? resolveValue(a, `${prefix}.${k}`, selection, into) : a));
}

function resolveValue(a: Extract<Arg, { $kind: 'Value' }>, path: string, selection: Selection, out: Resolved): Arg {
  const options = a.options ?? [a.source];
  if (options.length > 1) out.choices.set(path, options.length);
  const pick = Math.min(selection.get(path) ?? 0, options.length - 1);
  return { $kind: 'Value', source: resolveSource(options[pick], path, selection, out), use: a.use, type: a.type };
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

/**
 * The search Tier B runs for one target: attempts ("variants") in a queue, the first is
 * the plan as it stands, and each failure adds the variants it suggests:
 *
 * - a call of a chain or a setup aborted: the next option at that position (another
 *   constructor of the type, another object), else at the nearest position above it;
 * - the target aborted: the other value profiles, byte vectors of the lengths the code
 *   checks, the next option of each parameter, the target's other instantiations, and
 *   sequences: a function that takes one of the target's objects by `&mut` called first
 *   (and, when that step ran, a second one after it);
 * - a setup transaction aborted: sequences before the setup's call;
 * - a call consuming a leftover failed: the attempt without consumers (dev-inspect rules);
 * - in every case first: the values the failing code compared the plain inputs with
 *   (see `cmp-log.ts`), one input at a time.
 *
 * Variants are tried in the order they were found, each once, up to the attempt budget,
 * so the search is the same on every run.
 */
import type { Json } from '@smi/move-vm';
import type { Proposal } from './cmp-log.js';
import { ancestors, type Selection } from './resolve.js';
import type { ValueProfile } from './values.js';

/** A step of a sequence: function `fn` (an id) on the object of argument `param` of the call at `site`. */
export interface StepRef {
  /** `target`, or the path of a setup source. */
  site: string;
  /** Index among the steps the search found for that site and the steps before. */
  key: string;
}

/** One attempt's choices. */
export interface Variant {
  profile: ValueProfile;
  /** Which instantiation of the target: 0 is the plan's, k its k-th alternative. */
  plan: number;
  selection: Selection;
  /** Steps called before the target (site `target`) or before a setup's call (its path), in order. */
  steps: readonly StepRef[];
  /** Length of every `vector<u8>` pure value, or `null`: the profile's. */
  byteLength: number | null;
  /** Leave leftovers unconsumed (the transaction then runs with dev-inspect rules). */
  relaxed: boolean;
  /** Plain values replaced at these paths (what the code compared them with). */
  values: ReadonlyMap<string, Json>;
}

/** Where an attempt failed: the owner of the failing command (see `resolve.ts` and `ptb-draft.ts`). */
export type FailedAt =
  | { $kind: 'Chain'; path: string }
  | { $kind: 'Setup'; path: string; abort: boolean }
  | { $kind: 'Step'; site: string }
  | { $kind: 'Target' }
  | { $kind: 'Leftovers' }
  | { $kind: 'Other' };

/** What a failed attempt offers the search. */
export interface FailureFacts {
  at: FailedAt;
  /** Options at each position of the attempt (path → count). */
  choices: ReadonlyMap<string, number>;
  /** Number of the target's parameters. */
  params: number;
  /** The plan's pure values depend on the profile. */
  usesValues: boolean;
  /** Lengths the target's code compares byte vectors with. */
  byteLengths: readonly number[];
  /** The target takes a `vector<u8>`. */
  takesBytes: boolean;
  /** Instantiations of the target besides the first. */
  alternatives: number;
  /** Steps that could come next before the failing call (site, key), best first. */
  nextSteps: (site: string) => readonly string[];
  /** Values the failing transaction's code compared its plain inputs with. */
  proposals: readonly Proposal[];
}

/** The first variant: the plan as it stands. */
export function firstVariant(): Variant {
  return { profile: 'one', plan: 0, selection: new Map(), steps: [], byteLength: null, relaxed: false, values: new Map() };
}

/** A key that identifies a variant (the search tries each once). */
export function variantKey(v: Variant): string {
  const sel = [...v.selection]
    .filter(([, i]) => i > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([p, i]) => `${p}=${i}`)
    .join(',');
  const values = [...v.values]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([p, x]) => `${p}=${JSON.stringify(x)}`)
    .join(',');
  return `${v.profile}|${v.plan}|${sel}|${v.steps.map((s) => `${s.site}:${s.key}`).join(';')}|${v.byteLength ?? '-'}|${v.relaxed ? 'r' : 's'}|${values}`;
}

function select(v: Variant, path: string, index: number): Variant {
  const selection = new Map(v.selection);
  selection.set(path, index);
  // Positions below the one changed start again from their first option.
  for (const p of [...selection.keys()]) if (p.startsWith(`${path}.`)) selection.delete(p);
  return { ...v, selection };
}

/** Steps the sequences may have before one call. */
const MAX_STEPS = 2;
/** Candidates tried for the first step, and for the second. */
const FIRST_STEPS = 4;
const SECOND_STEPS = 2;

/** Variants a failure suggests, in the order to try them. */
export function refine(v: Variant, f: FailureFacts): Variant[] {
  const out: Variant[] = [];
  // What the code compared the inputs with comes first (the most specific lead), one
  // value per input; the other values each input was compared with come last.
  const proposed = (p: Proposal): Variant => {
    const values = new Map(v.values);
    values.set(p.path, p.value);
    return { ...v, values };
  };
  const firstPerPath = f.proposals.filter((p, i) => f.proposals.findIndex((q) => q.path === p.path) === i);
  for (const p of firstPerPath) out.push(proposed(p));
  const nextOption = (path: string): void => {
    for (const p of [path, ...ancestors(path)]) {
      const n = f.choices.get(p) ?? 1;
      const cur = v.selection.get(p) ?? 0;
      if (cur + 1 < n) {
        out.push(select(v, p, cur + 1));
        return;
      }
    }
  };
  const profiles = (which: readonly ValueProfile[] = ['zero', 'large']): void => {
    if (!f.usesValues || v.profile !== 'one') return;
    for (const profile of which) out.push({ ...v, profile });
  };
  const sequences = (site: string): void => {
    const here = v.steps.filter((s) => s.site === site);
    if (here.length >= MAX_STEPS) return;
    const keys = f.nextSteps(site).slice(0, here.length === 0 ? FIRST_STEPS : SECOND_STEPS);
    for (const key of keys) out.push({ ...v, steps: [...v.steps, { site, key }] });
  };
  switch (f.at.$kind) {
    case 'Chain':
      nextOption(f.at.path);
      profiles();
      break;
    case 'Setup':
      nextOption(f.at.path);
      // The setup's own arguments' next options (another object of the type: another cap).
      for (const [p, n] of f.choices) {
        if (!p.startsWith(`${f.at.path}.`) || p.slice(f.at.path.length + 1).includes('.')) continue;
        if ((v.selection.get(p) ?? 0) + 1 < n) out.push(select(v, p, (v.selection.get(p) ?? 0) + 1));
      }
      profiles();
      // A setup's types follow the target's instantiation.
      if (v.plan === 0) for (let k = 1; k <= f.alternatives; k++) out.push({ ...v, plan: k, selection: new Map() });
      if (f.at.abort) sequences(f.at.path);
      break;
    case 'Target': {
      // Sequences first (they make real state the target reads), then zeros, lengths the
      // code checks, other options and instantiations, and large values last.
      sequences('target');
      profiles(['zero']);
      if (v.byteLength === null && f.takesBytes) for (const n of f.byteLengths) out.push({ ...v, byteLength: n });
      for (let i = 0; i < f.params; i++) {
        const n = f.choices.get(String(i)) ?? 1;
        if ((v.selection.get(String(i)) ?? 0) === 0 && n > 1) out.push(select(v, String(i), 1));
      }
      if (v.plan === 0) for (let k = 1; k <= f.alternatives; k++) out.push({ ...v, plan: k, selection: new Map() });
      profiles(['large']);
      break;
    }
    case 'Leftovers':
      if (!v.relaxed) out.push({ ...v, relaxed: true });
      break;
    case 'Step':
    case 'Other':
      break;
  }
  for (const p of f.proposals) if (!firstPerPath.includes(p)) out.push(proposed(p));
  return out;
}

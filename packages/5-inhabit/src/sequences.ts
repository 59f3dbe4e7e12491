/**
 * Calls added around a call so that it can run as the package means it to:
 *
 * - steps of a sequence, before it: functions of the state's packages that take one of
 *   its objects by `&mut` (register, then update, then read), ranked by what the failure
 *   suggests (a missing dynamic field: functions that add one first), then by closeness to
 *   the call (same module, same package) and by how little they need built;
 * - consumers, after it: for a value the transaction can neither drop nor send (a hot
 *   potato, a capability without `store`), a function that takes it by value.
 *
 * Every argument of an added call is planned like a chain's, except that an object the
 * attempt already uses is passed again (the same pool, the same registry), never a second
 * one made for the purpose.
 */
import type { Catalogue, FunctionDecl } from './catalogue.js';
import type { CallIndex, TakesType } from './call-index.js';
import { isTxContext } from './inventory.js';
import type { Planner } from './planner.js';
import type { Arg, Source } from './sources.js';
import { deref, type Ty, unify } from './types.js';
import { isPureTy } from './values.js';

/** A call planned to run in an attempt (a step of a sequence or a consumer). */
export interface PlannedCall {
  fn: FunctionDecl;
  typeArgs: Ty[];
  args: Arg[];
}

/** An object an attempt passes to a call: its type and where it comes from. */
export interface ObjectUse {
  type: Ty;
  source: Source;
}

/** The objects among some arguments (inputs of the transaction: from the state, set up or forged). */
export function objectUses(args: readonly Arg[]): ObjectUse[] {
  const out: ObjectUse[] = [];
  for (const a of args) {
    if (a.$kind !== 'Value') continue;
    const s = a.source;
    if (s.$kind === 'Object' || s.$kind === 'Setup' || s.$kind === 'Synthesized') out.push({ type: deref(a.type), source: s });
  }
  return out;
}

/** How many arguments of `fn` need building (neither plain values nor the transaction context). */
function weight(fn: FunctionDecl): number {
  return fn.params.filter((p) => !isPureTy(deref(p)) && !isTxContext(p)).length;
}

/**
 * Plan `fn` with parameter `index` bound to `given` (of type `type`), and every other
 * object parameter of a type in `objects` bound to that object; `null` when it cannot.
 */
function planAround(planner: Planner, fn: FunctionDecl, index: number, pattern: Ty, type: Ty, given: Source, objects: readonly ObjectUse[]): PlannedCall | null {
  const bindings: (Ty | undefined)[] = [];
  if (!unify(pattern, type, bindings)) return null;
  const fixed = new Map<number, Source>([[index, given]]);
  fn.params.forEach((p, i) => {
    // Only by reference: an object passed by value would be gone for the calls after.
    if (i === index || p.$kind !== 'Ref') return;
    const inner = deref(p);
    if (inner.$kind !== 'Datatype') return;
    for (const o of objects) {
      const trial = [...bindings];
      if (o.source !== given && unify(inner, o.type, trial)) {
        trial.forEach((t, k) => (bindings[k] = t));
        fixed.set(i, o.source);
        return;
      }
    }
  });
  const call = planner.planCall(fn, fixed, bindings);
  return call === null ? null : { fn, ...call };
}

/** What a failure says about the state: a dynamic field it looked for is missing. */
export interface FailureHint {
  missingField: boolean;
  /** `module` of the abort location, when known. */
  module: string | null;
}

/**
 * Steps that may set up the state the call `callee` (with objects `objects`) reads, best
 * first, at most `limit`, none of `exclude` (function ids).
 */
export function sequenceSteps(planner: Planner, index: CallIndex, callee: FunctionDecl, objects: readonly ObjectUse[], hint: FailureHint, exclude: ReadonlySet<string>, limit: number): PlannedCall[] {
  // Rank first (cheap), then plan in that order until `limit` plan: a registry type can
  // have a hundred functions that take it by `&mut`.
  const seen = new Set<string>(exclude);
  const ranked: { m: TakesType; o: ObjectUse; fn: FunctionDecl; rank: number[]; order: number }[] = [];
  for (const o of objects) {
    if (o.type.$kind !== 'Datatype') continue;
    for (const m of index.mutators(o.type.key)) {
      const fn = planner.inContext(m.fn);
      if (fn === null || idOf(fn) === idOf(callee) || seen.has(idOf(fn))) continue;
      seen.add(idOf(fn));
      const rank = [
        hint.missingField && index.addsDynamicFields(m.fn) ? 0 : 1,
        hint.module !== null && fn.module === hint.module ? 0 : 1,
        fn.module === callee.module ? 0 : fn.address === callee.address ? 1 : 2,
        weight(fn),
      ];
      ranked.push({ m, o, fn, rank, order: ranked.length });
    }
  }
  ranked.sort((a, b) => compareRanks(a.rank, b.rank) || a.order - b.order);
  const out: PlannedCall[] = [];
  for (const r of ranked) {
    if (out.length >= limit) break;
    const call = planAround(planner, r.fn, r.m.index, r.m.type, r.o.type, r.o.source, objects);
    if (call !== null) out.push(call);
  }
  return out;
}

/** The step `key` (a function id) on the objects `objects`, planned; `undefined` when it cannot be. */
export function sequenceStep(planner: Planner, index: CallIndex, objects: readonly ObjectUse[], key: string): PlannedCall | undefined {
  for (const o of objects) {
    if (o.type.$kind !== 'Datatype') continue;
    for (const m of index.mutators(o.type.key)) {
      const fn = planner.inContext(m.fn);
      if (fn === null || idOf(fn) !== key) continue;
      const call = planAround(planner, fn, m.index, m.type, o.type, o.source, objects);
      if (call !== null) return call;
    }
  }
  return undefined;
}

/**
 * A call that consumes a value of type `type` (by value), its other arguments planned
 * (objects in `objects` passed again), or `null` when none can be planned. Functions of
 * the module that defines the type come first.
 */
export function consumerOf(planner: Planner, index: CallIndex, catalogue: Catalogue, type: Ty, objects: readonly ObjectUse[]): (PlannedCall & { index: number }) | null {
  if (type.$kind !== 'Datatype') return null;
  const [address, module] = type.key.split('::');
  const ranked = [...index.consumers(type.key)]
    .map((c: TakesType, order) => ({ c, order, rank: [c.fn.address === address && c.fn.module === module ? 0 : 1, weight(c.fn)] }))
    .sort((a, b) => compareRanks(a.rank, b.rank) || a.order - b.order);
  for (const { c } of ranked) {
    const fn = planner.inContext(c.fn);
    if (fn === null || catalogue.missingDependency(fn.address, fn.module) !== null) continue;
    // The consumed value is given by the transaction: a placeholder that is never emitted.
    const call = planAround(planner, fn, c.index, c.type, type, { $kind: 'Pure', type }, objects);
    if (call !== null) return { ...call, index: c.index };
  }
  return null;
}

/** `package::module::name` of a function. */
export function idOf(fn: FunctionDecl): string {
  return `${fn.packageId}::${fn.module}::${fn.name}`;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

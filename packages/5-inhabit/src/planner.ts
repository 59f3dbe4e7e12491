/**
 * Tier A: for one target function, the static stages with the spec's meanings, and a plan
 * for every parameter.
 *
 * - A1: the target resolves (its module links, it is public or entry).
 * - A2: every parameter type has a layout (its modules are loaded) and every datatype
 *   instantiation meets its parameters' ability constraints, phantom ones included.
 * - A3: every parameter has a value or a construction plan (pure values round-trip
 *   through BCS; objects come from the state, a constructor chain, a setup transaction,
 *   or are synthesized).
 * - A4: object arguments are typed as a transaction may pass them (owned, shared or
 *   immutable against `&`, `&mut` or by value; `Clock` and `Random` only by `&`).
 * - A5: the transaction is consistent: type arguments meet their bounds, every argument
 *   is of a kind a transaction can pass (no `signer`, no `TxContext` by value).
 */
import type { MoveVM } from '@smi/move-vm';
import { type Catalogue, type FunctionDecl, SUI } from './catalogue.js';
import { type ConstructorGraph, isCallable } from './constructor-graph.js';
import { type InventoryObject, isTxContext, mentions, objectTyping, useOf } from './inventory.js';
import { type Arg, chainLength, costOf, type ParamUse, provenanceOf, type Source } from './sources.js';
import type { StageFailure } from './taxonomy.js';
import { completeTypeArgs, type ChosenTypeArg, typeArgChoices } from './type-args.js';
import { deref, formatTy, shortKey, substTy, type Ty, unify } from './types.js';
import { bcsRoundTrip, isPureTy, pureValue, type ValueProfile } from './values.js';

/** Options of the search. */
export interface PlannerOptions {
  /** Longest constructor chain (calls feeding calls), default 5. */
  maxChainDepth: number;
  /** `false` (`--no-mm2`): single-hop only, a constructor's own arguments must need no call. */
  multiHop: boolean;
  /** `true`: never forge objects from raw BCS. */
  restrictedState: boolean;
  /** The transactions' sender (the address values default to). */
  sender: string;
  /**
   * Storage id of the target's package: its own functions are called at this version
   * (a transaction links one version of each package), other packages at their newest.
   */
  context?: string;
}

/** A parameter's plan. */
export interface ParamPlan {
  type: Ty;
  /** Candidates, best first (one for the transaction context). */
  candidates: readonly Arg[];
  /** What `tier_a_details.resolved_params` says of it. */
  resolved: string;
}

/** A plan for a target: type arguments and a plan for every parameter. */
export interface TargetPlan {
  fn: FunctionDecl;
  typeArgs: readonly ChosenTypeArg[];
  params: readonly ParamPlan[];
  hasObjectParams: boolean;
  /** Plans of the same target with other type arguments (a generic target), tried after this one. */
  alternatives?: readonly TargetPlan[];
}

/** Outcome of planning a target. */
export type PlanOutcome = { $kind: 'Plan'; plan: TargetPlan } | { $kind: 'Failure'; failure: StageFailure; typeArgs: readonly ChosenTypeArg[]; resolved: readonly string[] };

interface Found {
  candidates: Source[];
  /** Why there are none (when there are none). */
  failure: StageFailure | null;
}

const K = 3;
const NO_FIXED: ReadonlyMap<number, Source> = new Map();
/** Most instantiations of a generic target planned (the first and its alternatives). */
const MAX_INSTANTIATIONS = 3;

function failure(f: StageFailure, typeArgs: readonly ChosenTypeArg[] = [], resolved: readonly string[] = []): PlanOutcome {
  return { $kind: 'Failure', failure: f, typeArgs, resolved };
}
const CLOCK = `${SUI}::clock::Clock`;
const RANDOM = `${SUI}::random::Random`;
const COIN_OF_SUI = `${SUI}::coin::Coin<${SUI}::sui::SUI>`;

function refText(use: ParamUse): string {
  return use === 'ref' ? '&' : use === 'mutref' ? '&mut ' : '';
}

/** The planner: a constructor-chain search over the graph, cached across targets. */
export class Planner {
  private readonly memo = new Map<string, Found>();
  private readonly producerOrder = new Map<string, ReturnType<ConstructorGraph['valueProducers']>>();

  constructor(
    private readonly vm: MoveVM,
    private readonly catalogue: Catalogue,
    private readonly graph: ConstructorGraph,
    private readonly inventory: readonly InventoryObject[],
    private readonly options: PlannerOptions,
  ) {}

  /**
   * Plan target `fn` (stages A1–A5). `staticOnly`: only the static checks (A1, A2, the
   * type arguments' bounds), with no plan for the parameters.
   */
  planTarget(fn: FunctionDecl, staticOnly = false): PlanOutcome {
    // A1
    if (!isCallable(fn)) return failure({ stage: 'A1', code: 'E103', reason: `target validation failed: ${fn.module}::${fn.name} is ${fn.visibility.toLowerCase()} and not entry` });
    const missing = this.catalogue.missingDependency(fn.address, fn.module);
    if (missing !== null) return failure({ stage: 'A1', code: 'E101', reason: `target validation failed: module ${fn.module} does not link: ${missing} is not loaded` });
    // Type arguments: bound by objects of the state, else chosen by their constraints; a
    // generic target is planned with a few instantiations (real coin types, other
    // objects' type arguments), the first that plans leading, the next as alternatives.
    const choices = typeArgChoices(fn, this.catalogue, this.inventory);
    let first: PlanOutcome | null = null;
    const plans: TargetPlan[] = [];
    for (const typeArgs of choices) {
      const outcome = this.planWith(fn, typeArgs, staticOnly);
      if (outcome.$kind === 'Failure') first ??= outcome;
      else if (plans.push(outcome.plan) >= MAX_INSTANTIATIONS || staticOnly) break;
    }
    if (plans.length === 0) return first as PlanOutcome;
    return { $kind: 'Plan', plan: plans.length === 1 ? plans[0] : { ...plans[0], alternatives: plans.slice(1) } };
  }

  /** Stages A2–A5 of `fn` instantiated with `typeArgs`. */
  private planWith(fn: FunctionDecl, typeArgs: readonly ChosenTypeArg[], staticOnly: boolean): PlanOutcome {
    const types = typeArgs.map((a) => a.type);
    const params = fn.params.map((p) => substTy(p, types));
    // A2
    for (const p of params) {
      const problem = this.layoutProblem(deref(p), new Set());
      if (problem !== null) return failure(problem, typeArgs);
    }
    if (staticOnly) {
      const bound = this.boundsFailure(fn, typeArgs);
      return bound !== null ? failure(bound, typeArgs) : { $kind: 'Plan', plan: { fn, typeArgs, params: [], hasObjectParams: false } };
    }
    // A3, A4
    const plans: ParamPlan[] = [];
    const resolved: string[] = [];
    const pending: StageFailure[] = [];
    for (const [i, p] of params.entries()) {
      const plan = this.planParam(p, i, fn);
      if (plan.failure !== null) pending.push(plan.failure);
      else {
        plans.push(plan.plan);
        resolved.push(plan.plan.resolved);
      }
    }
    const a3 = pending.find((f) => f.stage === 'A3');
    if (a3 !== undefined) return failure(a3, typeArgs, resolved);
    const a4 = pending.find((f) => f.stage === 'A4') ?? pending[0];
    if (a4 !== undefined) return failure(a4, typeArgs, resolved);
    // A5
    const bound = this.boundsFailure(fn, typeArgs);
    if (bound !== null) return failure(bound, typeArgs, resolved);
    const refReturn = fn.returns.findIndex((r) => r.$kind === 'Ref');
    if (refReturn >= 0) {
      return failure(
        { stage: 'A5', code: 'E201', reason: `return ${refReturn} is a reference (${formatTy(fn.returns[refReturn])}): a transaction cannot call a function that returns one` },
        typeArgs,
        resolved,
      );
    }
    const hasObjectParams = params.some((p) => this.catalogue.isObject(deref(p)) && !isTxContext(p));
    return { $kind: 'Plan', plan: { fn, typeArgs, params: plans, hasObjectParams } };
  }

  /**
   * The first type argument that does not meet its bound, or is nested deeper than a
   * transaction allows (`max_type_argument_depth`), or a parameter whose vectors nest
   * deeper than that (A5); `null` when none.
   */
  private boundsFailure(fn: FunctionDecl, typeArgs: readonly ChosenTypeArg[]): StageFailure | null {
    const limit = Number(this.vm.protocolConfig?.optionalInt('max_type_argument_depth') ?? 16);
    if (typeArgs.length > Number(this.vm.protocolConfig?.optionalInt('max_type_arguments') ?? 16)) {
      return { stage: 'A5', code: 'E203', reason: `${typeArgs.length} type arguments: more than a transaction allows` };
    }
    for (const [i, a] of typeArgs.entries()) {
      if (depthOf(a.type) > limit) return { stage: 'A5', code: 'E203', reason: `type argument ${i} (${formatTy(a.type)}) is nested deeper than ${limit}` };
    }
    for (const [i, p] of fn.params.entries()) {
      const t = substTy(
        deref(p),
        typeArgs.map((a) => a.type),
      );
      if (vectorNesting(t) > limit) return { stage: 'A5', code: 'E201', reason: `parameter ${i} (${formatTy(t)}): vectors nested deeper than ${limit}` };
    }
    for (const [i, a] of typeArgs.entries()) {
      const need = fn.typeParams[i];
      if ((this.catalogue.abilities(a.type) & need) !== need) {
        return { stage: 'A5', code: 'E203', reason: `type argument ${i} (${formatTy(a.type)}) lacks the abilities its bound requires` };
      }
    }
    return null;
  }

  /** Why `t` has no layout, or `null`. */
  private layoutProblem(t: Ty, seen: Set<string>): StageFailure | null {
    switch (t.$kind) {
      case 'Prim':
        return null;
      case 'Vector':
        return this.layoutProblem(t.elem, seen);
      case 'Ref':
        return this.layoutProblem(t.to, seen);
      case 'Param':
        return { stage: 'A2', code: 'E205', reason: `layout resolution failed: unbound type parameter T${t.index}` };
      case 'Datatype': {
        const d = this.catalogue.datatype(t.key);
        if (d === undefined || (d.fields === null && d.variants === null)) {
          return { stage: 'A2', code: 'E205', reason: `layout resolution failed: ${t.key} is not defined by a loaded module` };
        }
        const text = formatTy(t);
        if (seen.has(text)) return { stage: 'A2', code: 'E204', reason: `layout resolution failed: ${text} contains itself` };
        for (const [i, p] of d.typeParams.entries()) {
          const arg = t.args[i];
          if (arg === undefined) return { stage: 'A2', code: 'E205', reason: `layout resolution failed: ${t.key} takes ${d.typeParams.length} type arguments` };
          const has = this.catalogue.abilities(arg);
          if ((has & p.constraints) !== p.constraints) {
            return { stage: 'A2', code: 'E202', reason: `ability constraint failed: ${formatTy(arg)} cannot instantiate ${p.isPhantom ? 'phantom ' : ''}parameter ${i} of ${shortKey(t.key)}` };
          }
        }
        const next = new Set(seen).add(text);
        const fields = d.fields ?? d.variants?.flatMap((v) => v.fields) ?? [];
        for (const f of fields) {
          const problem = this.layoutProblem(substTy(f.type, t.args), next);
          if (problem !== null) return problem;
        }
        return null;
      }
    }
  }

  /** The plan of parameter `i` of type `p` (instantiated), or the failure. */
  private planParam(p: Ty, i: number, fn?: FunctionDecl): { plan: ParamPlan; failure: null } | { plan: null; failure: StageFailure } {
    if (isTxContext(p)) {
      if (p.$kind !== 'Ref') return { plan: null, failure: { stage: 'A5', code: 'E201', reason: `parameter ${i}: TxContext by value cannot be a transaction argument` } };
      return { plan: { type: p, candidates: [{ $kind: 'TxContext' }], resolved: 'synthesizable:TxContext' }, failure: null };
    }
    const inner = deref(p);
    if (inner.$kind === 'Prim' && inner.name === 'signer') {
      return { plan: null, failure: { stage: 'A5', code: 'E201', reason: `parameter ${i}: signer cannot be a transaction argument` } };
    }
    const use = useOf(p);
    if (isPureTy(inner)) {
      for (const profile of ['zero', 'one', 'large'] as ValueProfile[]) {
        const rt = bcsRoundTrip(this.vm, inner, pureValue(inner, profile, this.options.sender) ?? null);
        if (rt.$kind === 'Failed') return { plan: null, failure: { stage: 'A3', code: 'E304', reason: `BCS roundtrip failed: parameter ${i} (${formatTy(inner)}): ${rt.error}` } };
      }
      return { plan: { type: p, candidates: [{ $kind: 'Value', source: { $kind: 'Pure', type: inner }, use, type: p }], resolved: `pure:${formatTy(inner)}` }, failure: null };
    }
    const found = this.sources(inner, use, this.options.multiHop ? this.options.maxChainDepth : 1, new Set(), { cut: false });
    const sources = fn === undefined ? found.candidates : suited(found.candidates, fn);
    if (sources.length === 0) {
      const f = found.failure ?? { stage: 'A3', code: 'E301', reason: `no value for ${formatTy(inner)}` };
      return { plan: null, failure: { ...f, reason: `parameter ${i} (${refText(use)}${formatTy(inner)}): ${f.reason}` } };
    }
    const candidates: Arg[] = sources.map((source) => ({ $kind: 'Value', source, use, type: p }));
    return { plan: { type: p, candidates, resolved: resolvedText(sources[0], use, inner) }, failure: null };
  }

  /** Candidates for a value of concrete type `t` used as `use`, with `remaining` chain steps. */
  private sources(t: Ty, use: ParamUse, remaining: number, path: Set<string>, ctx: { cut: boolean }): Found {
    const key = `${formatTy(t)}|${use}|${remaining}`;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const local = { cut: false };
    const found = this.compute(t, use, remaining, path, local);
    // Results shaped by a cycle cut depend on the path: only the others are cached, so a
    // plan never depends on which targets were planned before (determinism across jobs).
    if (local.cut) ctx.cut = true;
    else this.memo.set(key, found);
    return found;
  }

  private compute(t: Ty, use: ParamUse, remaining: number, path: Set<string>, ctx: { cut: boolean }): Found {
    if (isPureTy(t)) return { candidates: [{ $kind: 'Pure', type: t }], failure: null };
    if (t.$kind === 'Vector') {
      const item = this.sources(t.elem, 'value', remaining, path, ctx).candidates[0] ?? null;
      return { candidates: [{ $kind: 'Vector', elem: t.elem, item }], failure: null };
    }
    if (t.$kind !== 'Datatype') {
      return { candidates: [], failure: { stage: 'A3', code: 'E303', reason: `unsupported parameter type ${formatTy(t)}` } };
    }
    const text = formatTy(t);
    if (path.has(text)) {
      ctx.cut = true;
      return { candidates: [], failure: { stage: 'A3', code: 'E302', reason: `constructor chain for ${text} loops back to itself` } };
    }
    const out: Source[] = [];
    let typing: string | null = null;
    for (const o of this.inventory) {
      if (o.type.key !== t.key || formatTy(o.type) !== text) continue;
      const problem = objectTyping(o, use);
      if (problem === null) out.push({ $kind: 'Object', object: o });
      else typing ??= problem;
    }
    // Clock and Random are the system's own objects: nothing else stands in for them.
    if (t.key === CLOCK || t.key === RANDOM) {
      return out.length > 0 ? { candidates: out, failure: null } : { candidates: [], failure: { stage: 'A4', code: 'E201', reason: typing ?? `${shortKey(t.key)} is not available` } };
    }
    // The sender's own money: a coin split from the gas coin.
    if (text === COIN_OF_SUI) out.push({ $kind: 'GasCoin' });
    let deepest: StageFailure | null = null;
    const next = new Set(path).add(text);
    if (remaining > 0) {
      let found = 0;
      for (const edge of this.orderedProducers(t.key)) {
        if (found >= K) break;
        const bindings: (Ty | undefined)[] = [];
        if (!unify(edge.returns, t, bindings)) continue;
        const call = this.instantiate(edge.fn, bindings, remaining, next, ctx);
        if (call.$kind === 'Failed') {
          deepest ??= call.failure;
          continue;
        }
        out.push({ $kind: 'Call', fn: edge.fn, typeArgs: call.typeArgs, args: call.args, returnIndex: edge.returnIndex, returns: edge.fn.returns.map((r) => substTy(r, call.typeArgs)) });
        found++;
      }
      if (this.catalogue.isObject(t) && !path.has('setup')) {
        for (const setup of this.graph.setupProducers(t.key)) {
          if (found >= K) break;
          const fn = this.inContext(setup.fn);
          if (fn === null || this.catalogue.missingDependency(fn.address, fn.module) !== null) continue;
          const edge = { ...setup, fn };
          const bindings: (Ty | undefined)[] = [];
          if (!unify(edge.type, t, bindings)) continue;
          const ownership = edge.outcome === 'shared' ? 'shared' : edge.outcome === 'frozen' ? 'immutable' : 'owned';
          const problem = objectTyping({ id: '(new)', type: t, typeTag: text, ownership, origin: 'setup' }, use);
          if (problem !== null) {
            typing ??= problem;
            continue;
          }
          const call = this.instantiate(edge.fn, bindings, remaining, new Set(next).add('setup'), ctx);
          if (call.$kind === 'Failed') {
            deepest ??= call.failure;
            continue;
          }
          out.push({ $kind: 'Setup', fn: edge.fn, typeArgs: call.typeArgs, args: call.args, type: t, outcome: edge.outcome });
          found++;
        }
      }
    } else if (this.graph.valueProducers(t.key).length > 0) {
      deepest = { stage: 'A3', code: 'E302', reason: `constructor chain for ${shortKey(t.key)} needs more than ${this.options.multiHop ? this.options.maxChainDepth : 1} steps` };
    }
    // Forged objects only where no real path to the type exists: a forged object can hold
    // state no transaction could make (a version field of 0, an empty registry), so a
    // target that aborts on the real objects must not pass on forged ones.
    if (out.length === 0 && !this.options.restrictedState && this.catalogue.isObject(t) && this.catalogue.isDefined(t.key) && this.layoutProblem(t, new Set()) === null) {
      out.push({ $kind: 'Synthesized', type: t });
    }
    if (out.length > 0) {
      const ranked = out.map((s, i) => ({ s, i, cost: costOf(s) })).sort((a, b) => a.cost - b.cost || a.i - b.i);
      // Every object of the state stays an option (which one suits depends on who takes it:
      // see `suited`); of the rest, the K cheapest.
      const kept = ranked.slice(0, K).map((r) => r.s);
      for (const r of ranked.slice(K)) if (r.s.$kind === 'Object') kept.push(r.s);
      return { candidates: kept, failure: null };
    }
    if (typing !== null) return { candidates: [], failure: { stage: 'A4', code: 'E201', reason: typing } };
    return { candidates: [], failure: deepest ?? { stage: 'A3', code: 'E301', reason: `no constructor or object of type ${text}` } };
  }

  /** Producers of `key`, cheapest-looking first (fewer arguments that need construction). */
  private orderedProducers(key: string): ReturnType<ConstructorGraph['valueProducers']> {
    let list = this.producerOrder.get(key);
    if (list === undefined) {
      const weight = (fn: FunctionDecl): number => fn.params.filter((p) => !isTxContext(p) && !isPureTy(deref(p))).length;
      list = this.graph
        .valueProducers(key)
        .flatMap((e) => {
          const fn = this.inContext(e.fn);
          return fn === null ? [] : [{ ...e, fn }];
        })
        .filter((e) => this.catalogue.missingDependency(e.fn.address, e.fn.module) === null)
        .map((e, i) => ({ e, i, w: weight(e.fn) }))
        .sort((a, b) => a.w - b.w || a.i - b.i)
        .map((x) => x.e);
      this.producerOrder.set(key, list);
    }
    return list;
  }

  /**
   * `fn` as the target's transaction calls it: a function of the target's own package at
   * the target's version (`null` when that version lacks it), others as they are.
   */
  inContext(fn: FunctionDecl): FunctionDecl | null {
    const context = this.contextPackage;
    if (context === null || fn.packageId === context.id || fn.address !== context.originalId) return fn;
    return this.catalogue.functionsOf(context.id).find((f) => f.module === fn.module && f.name === fn.name && f.visibility === fn.visibility) ?? null;
  }

  private get contextPackage(): { id: string; originalId: string } | null {
    const id = this.options.context;
    if (id === undefined) return null;
    return this.catalogue.packages.find((p) => p.id === id) ?? null;
  }

  /** Instantiate `fn` with `bindings` (defaults for the rest) and plan its arguments. */
  /**
   * Plan a call of `fn` (a step of a sequence, or a call that consumes a leftover value)
   * whose parameters `fixed` are given (by index): the others are planned as a chain's
   * arguments, with the type parameters `bindings` leaves open chosen by their
   * constraints. `null` when some parameter has no source.
   */
  planCall(fn: FunctionDecl, fixed: ReadonlyMap<number, Source>, bindings: (Ty | undefined)[]): { typeArgs: Ty[]; args: Arg[] } | null {
    const remaining = this.options.multiHop ? this.options.maxChainDepth : 1;
    const call = this.instantiate(fn, [...bindings], remaining, new Set(), { cut: false }, fixed);
    return call.$kind === 'Ok' ? { typeArgs: call.typeArgs, args: call.args } : null;
  }

  private instantiate(
    fn: FunctionDecl,
    bindings: (Ty | undefined)[],
    remaining: number,
    path: Set<string>,
    ctx: { cut: boolean },
    fixed: ReadonlyMap<number, Source> = NO_FIXED,
  ): { $kind: 'Ok'; typeArgs: Ty[]; args: Arg[] } | { $kind: 'Failed'; failure: StageFailure } {
    const typeArgs = completeTypeArgs(fn.typeParams, bindings).map((a) => a.type);
    for (const [i, c] of fn.typeParams.entries()) {
      if ((this.catalogue.abilities(typeArgs[i]) & c) !== c) {
        return { $kind: 'Failed', failure: { stage: 'A3', code: 'E303', reason: `${fn.module}::${fn.name} cannot take ${formatTy(typeArgs[i])} as type argument ${i}` } };
      }
    }
    const args: Arg[] = [];
    for (const [i, p] of fn.params.map((q) => substTy(q, typeArgs)).entries()) {
      const given = fixed.get(i);
      if (given !== undefined) {
        args.push({ $kind: 'Value', source: given, use: useOf(p), type: p });
        continue;
      }
      if (isTxContext(p)) {
        if (p.$kind !== 'Ref') return { $kind: 'Failed', failure: { stage: 'A3', code: 'E303', reason: `${fn.module}::${fn.name} takes TxContext by value` } };
        args.push({ $kind: 'TxContext' });
        continue;
      }
      const inner = deref(p);
      const found = this.sources(inner, useOf(p), remaining - 1, path, ctx);
      const options = suited(found.candidates, fn);
      const best = options[0];
      if (best === undefined) {
        const f = found.failure;
        return {
          $kind: 'Failed',
          failure: { stage: 'A3', code: f?.code === 'E302' ? 'E302' : 'E303', reason: `constructor ${fn.module}::${fn.name} needs ${formatTy(inner)}${f ? `: ${f.reason}` : ''}` },
        };
      }
      args.push({ $kind: 'Value', source: best, use: useOf(p), type: p, options });
    }
    return { $kind: 'Ok', typeArgs, args };
  }
}

/** Options kept for a position: the objects of the state that suit the caller first. */
const MAX_OPTIONS = 6;

/**
 * `candidates` ordered for a call of `fn`: objects of the state that name `fn`'s package
 * (its storage or original id) first (of several `UpgradeCap`s, the package's own; of
 * several registries, the one made for it), then the rest in their order; at most
 * {@link MAX_OPTIONS}.
 */
function suited(candidates: readonly Source[], fn: FunctionDecl): Source[] {
  const related = (s: Source): boolean => s.$kind === 'Object' && (mentions(s.object, fn.packageId) || mentions(s.object, fn.address));
  return [...candidates.filter(related), ...candidates.filter((s) => !related(s))].slice(0, MAX_OPTIONS);
}

/** Nesting depth of a type (1 for a primitive). */
function depthOf(t: Ty): number {
  switch (t.$kind) {
    case 'Vector':
      return 1 + depthOf(t.elem);
    case 'Ref':
      return depthOf(t.to);
    case 'Datatype':
      return 1 + Math.max(0, ...t.args.map(depthOf));
    default:
      return 1;
  }
}

/** How many vectors nest at the top of a type. */
function vectorNesting(t: Ty): number {
  return t.$kind === 'Vector' ? 1 + vectorNesting(t.elem) : 0;
}

/** What `resolved_params` says of a parameter served by `s`. */
/**
 * What `resolved_params` says of a parameter served by `s`: how the value was obtained,
 * a chain or setup that stands on a forged object saying so (`_on_synthesized`).
 */
export function resolvedText(s: Source, use: ParamUse, t: Ty): string {
  const name = t.$kind === 'Datatype' ? shortKey(t.key) : formatTy(t);
  const ref = refText(use);
  const forged = (s.$kind === 'Call' || s.$kind === 'Setup') && provenanceOf(s) === 'synthesized' ? '_on_synthesized' : '';
  switch (s.$kind) {
    case 'Pure':
      return `pure:${formatTy(t)}`;
    case 'Object':
      if (s.object.origin === 'system') return `synthesizable:${t.$kind === 'Datatype' ? t.key.split('::')[2] : name}`;
      return `${s.object.origin}:${ref}${name}`;
    case 'Call':
      return `${use === 'value' ? 'construct' : 'constructible_ref'}_hop${chainLength(s)}${forged}:${ref}${name}`;
    case 'Setup':
      return `setup_hop${chainLength(s)}${forged}:${ref}${name}`;
    case 'Synthesized':
      return `${use === 'value' ? 'synthesized' : 'synthesized_ref'}:${ref}${name}`;
    case 'Vector':
      return `vector:${formatTy(t)}`;
    case 'GasCoin':
      return `gas_coin:${ref}${name}`;
  }
}

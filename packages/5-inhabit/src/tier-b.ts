/**
 * Tier B: a target's plan run as real transactions on the baseline state, through
 * `SandboxSession` requests (recorded, so the row replays in `smi sandbox-exec`).
 * Objects are made first (setup transactions that share or send new objects, forged ones
 * with `create_test_object` where nothing real makes the type), then one PTB: the steps of
 * a sequence on the target's objects, the constructor chain as `MoveCall`s feeding the
 * target through `Result`/`NestedResult`, the target, calls that consume what the
 * transaction cannot drop, and the rest sent to the sender. Without `--use-ptb` each call
 * is its own `call_function` transaction instead (the original's direct path): only
 * objects and pure values pass between calls.
 *
 * Attempts follow the search of `search.ts`: the first success wins, else the attempt
 * that got furthest (the target ran, B2, beats a failure before it, B1) is reported.
 */
import type { Json } from '@smi/move-vm';
import type { SandboxResponse, SandboxSession } from '@smi/simulation';
import type { Baseline } from './baseline.js';
import type { CallIndex } from './call-index.js';
import { type Catalogue, SUI } from './catalogue.js';
import { tyFromTag } from './inventory.js';
import type { Planner, TargetPlan } from './planner.js';
import { type Consumer, PtbDraft } from './ptb-draft.js';
import { type Resolved, resolveArgs, resolveMore } from './resolve.js';
import { type FailedAt, type FailureFacts, firstVariant, refine, type Variant, variantKey } from './search.js';
import { consumerOf, type FailureHint, idOf, objectUses, type PlannedCall, sequenceStep, sequenceSteps } from './sequences.js';
import { type Arg, argsProvenance, type Provenance, type Source, weaker } from './sources.js';
import { type AbortCategory, abortCategory, type ErrorCode, type Stage } from './taxonomy.js';
import { datatype, formatTy, substTy, type Ty } from './types.js';
import { byteLengthHints } from './value-hints.js';
import { ComparisonLog, CoverageLog, type Proposal, proposals } from './cmp-log.js';
import { CachedSession, type Coverage } from './request-cache.js';
import { gasCoinAmount, isPureTy, pureValue, type ValueProfile } from './values.js';
import { SmiError } from '@smi/bytecode';

const COIN_OF_SUI = datatype(`${SUI}::coin::Coin`, [datatype(`${SUI}::sui::SUI`)]);

/** Options of Tier B. */
export interface TierBOptions {
  /** `true`: one PTB with the whole chain; `false`: one transaction per call. */
  usePtb: boolean;
  /** Most attempts per target. */
  maxAttempts: number;
  sender: string;
}

/** What Tier B found. */
export interface TierBOutcome {
  success: boolean;
  stage?: Extract<Stage, 'B1' | 'B2'>;
  code?: ErrorCode;
  reason?: string;
  abort?: { code: string | null; location: string | null; category: AbortCategory };
  gasUsed: number;
  createdTypes: string[];
  /** Requests of this attempt (after the baseline's). */
  requests: Json[];
  attempts: number;
  profile: ValueProfile;
  checks: 'strict' | 'relaxed';
  undisposable: string[];
  provenance: Provenance;
  /** Modules outside 0x1/0x2/0x3 whose code the target's transaction ran. */
  modulesAccessed: string[];
  /** The target's arguments in the attempt reported. */
  args: readonly Arg[];
  /** The instantiation of the target in the attempt reported. */
  typeArgs: readonly Ty[];
  /** Calls made before the target (and before setups) to set up state: `module::function`. */
  sequence: string[];
  /** Calls that consumed values the transaction could not drop: `module::function`. */
  consumedBy: string[];
  /** Length given to byte vectors (a length the code checks), when one was. */
  byteLength: number | null;
  /** Plain values replaced by what the code compared them with, by path. */
  values: ReadonlyMap<string, Json>;
  /** Instructions of the target function the successful transaction executed, of all it has. */
  coverage?: { executed: number; total: number };
}

/** A failure to report, with how far the attempt got and where it failed. */
class AttemptFailure extends SmiError<ErrorCode> {
  readonly stage: 'B1' | 'B2';
  readonly at: FailedAt;
  readonly response: SandboxResponse | null;
  constructor(stage: 'B1' | 'B2', code: ErrorCode, message: string, at: FailedAt, response: SandboxResponse | null = null) {
    // Caught by the search, never shown: no stack (capturing one costs more than the rest).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code, message);
    Error.stackTraceLimit = limit;
    this.stage = stage;
    this.at = at;
    this.response = response;
  }
}

function mentionsValues(s: Source): boolean {
  switch (s.$kind) {
    case 'Pure':
    case 'Vector':
    case 'GasCoin':
      return true;
    case 'Call':
    case 'Setup':
      return s.args.some((a) => a.$kind === 'Value' && (a.options ?? [a.source]).some(mentionsValues));
    default:
      return false;
  }
}

/** Sources that need an object made before the transaction (children first). */
function preparedSources(args: readonly Arg[], out: Source[] = []): Source[] {
  for (const a of args) {
    if (a.$kind !== 'Value') continue;
    const s = a.source;
    if (s.$kind === 'Call' || s.$kind === 'Setup') preparedSources(s.args, out);
    if (s.$kind === 'Vector' && s.item !== null) preparedSources([{ $kind: 'Value', source: s.item, use: 'value', type: s.elem }], out);
    if ((s.$kind === 'Setup' || s.$kind === 'Synthesized') && !out.includes(s)) out.push(s);
  }
  return out;
}

function createdOfType(response: SandboxResponse, want: Ty, catalogue: Catalogue): string | undefined {
  const created = ((response.effects as { created?: { id: string; object_type: string }[] } | undefined)?.created ?? []).filter((c) => {
    try {
      return formatTy(tyFromTag(c.object_type, catalogue)) === formatTy(want);
    } catch {
      return false;
    }
  });
  return created[0]?.id;
}

function gasOf(r: SandboxResponse): number {
  return typeof r.gas_used === 'number' ? r.gas_used : 0;
}

/** What an abort says about the state, for ranking the steps of a sequence. */
function hintOf(r: SandboxResponse | null): FailureHint {
  const error = r?.error ?? '';
  const where = typeof r?.abort_module === 'string' ? r.abort_module : null;
  const missingField = /dynamic_field::borrow_child_object|dynamic_field::remove_child_object/.test(error) || (where !== null && /^(table|bag|object_table|object_bag|linked_table)::/.test(where));
  return { missingField, module: where === null ? null : where.split('::')[0] };
}

/** Compare how far two attempts got (lexicographic; an empty one is the start). */
function compareProgress(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -Infinity) - (b[i] ?? -Infinity);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

/** Runs with a comparison log per target. */
const MAX_LOGGED_RUNS = 6;
/** Values proposed from one failure's comparisons. */
const MAX_PROPOSALS = 6;

/**
 * When the target, after a step of a sequence, looked up a dynamic field that is not there,
 * the key it used may be one of its plain arguments: registries usually number their
 * entries from 0, so each integer argument of the target is tried at 0.
 */
function keyGuesses(state: AttemptState): Proposal[] {
  // Only after a step that may have registered something.
  if (!state.hint.missingField || state.lastDraft === null || !state.variant.steps.some((s) => s.site === 'target')) return [];
  const out: Proposal[] = [];
  for (const input of state.lastDraft.pureInputs) {
    if (!/^\d+$/.test(input.path) || input.type.$kind !== 'Prim' || !/^u\d+$/.test(input.type.name)) continue;
    const zero = typeof input.value === 'number' ? 0 : '0';
    if (input.value !== zero) out.push({ path: input.path, value: zero });
  }
  return out;
}

/** One attempt: the resolved values, the steps planned for each site, and the objects prepared. */
interface AttemptState {
  plan: TargetPlan;
  variant: Variant;
  planner: Planner;
  resolved: Resolved;
  requests: Json[];
  prepared: Map<Source, string>;
  sequence: string[];
  /** The response of the failing request, for ranking the next steps. */
  hint: FailureHint;
  /** The draft of the last transaction built (its plain inputs), and its request. */
  lastDraft: PtbDraft | null;
  /** Values setup transactions of the attempt could not get rid of (they ran relaxed). */
  relaxedSetup: string[];
}

/** Runs plans on a session whose baseline it restores before every attempt. */
export class TierBRunner {
  private readonly cached: CachedSession;

  constructor(
    session: SandboxSession,
    baseline: Baseline,
    private readonly catalogue: Catalogue,
    private readonly calls: CallIndex,
    private readonly options: TierBOptions,
  ) {
    this.cached = new CachedSession(session, baseline.snapshot);
  }

  /** Run `plan`: the first attempt that succeeds, or the one that got furthest. */
  async run(plan: TargetPlan, planner: Planner): Promise<TierBOutcome> {
    const plans = [plan, ...(plan.alternatives ?? [])];
    const first = firstVariant();
    // Variants waiting, each with how far the attempt it came from got: the search follows
    // the attempts that get further (best first), and among equals the order found.
    const queue: { v: Variant; from: number[]; order: number }[] = [{ v: first, from: [], order: 0 }];
    let order = 0;
    const seen = new Set([variantKey(first)]);
    const usesValues = plans.some((p) => p.params.some((q) => q.candidates.some((c) => c.$kind === 'Value' && mentionsValues(c.source))));
    const byteLengths = byteLengthHints(plan.fn, this.catalogue);
    const takesBytes = plan.fn.params.some((p) => formatTy(p).includes('vector<u8>'));
    let best: TierBOutcome | null = null;
    let bestProgress: number[] = [];
    let attempts = 0;
    // The budget counts attempts that got no further than the furthest so far: a search
    // that keeps getting further goes on, up to four times the budget.
    const budget = Math.max(1, this.options.maxAttempts);
    let stale = 0;
    let logged = 0;
    let furthest: number[] = [];
    while (queue.length > 0 && stale < budget && attempts < budget * 4) {
      queue.sort((a, b) => compareProgress(b.from, a.from) || a.order - b.order);
      const { v: variant } = queue.shift() as (typeof queue)[number];
      attempts++;
      const target = plans[variant.plan];
      const { outcome, state, at, progress } = await this.attempt(target, variant, planner);
      outcome.attempts = attempts;
      if (outcome.success) {
        outcome.coverage = await this.coverage(plan.fn);
        return outcome;
      }
      // The attempt reported is the one that got furthest (the first of equals).
      if (best === null || compareProgress(progress, bestProgress) > 0) {
        best = outcome;
        bestProgress = progress;
      }
      const frontier = compareProgress(progress, furthest);
      if (frontier > 0) furthest = progress;
      else stale++;
      // What the code compared its inputs with, for attempts at the front of the search (a
      // run with a log costs a few times a plain one).
      const inCode = at.$kind === 'Target' || at.$kind === 'Chain' || at.$kind === 'Setup' || at.$kind === 'Step';
      const traced = inCode && this.options.usePtb && (attempts === 1 || frontier > 0) && logged < MAX_LOGGED_RUNS;
      if (traced) logged++;
      const facts: FailureFacts = {
        proposals: [...(traced ? await this.compared(state) : []), ...keyGuesses(state)],
        at,
        choices: state.resolved.choices,
        params: target.params.length,
        usesValues,
        byteLengths,
        takesBytes,
        alternatives: plans.length - 1,
        nextSteps: (site) => this.stepCandidates(state, site).map((c) => idOf(c.fn)),
      };
      // SMI_DEBUG_SEARCH=1: every attempt of the search on stderr (what it tried, where it failed, what it learned).
      if (process.env.SMI_DEBUG_SEARCH)
        console.error(
          `[${attempts}] ${variantKey(variant)} -> ${at.$kind} ${'path' in at ? at.path : ''} ${JSON.stringify(progress)} ${outcome.reason?.slice(0, 120)} proposals=${JSON.stringify(facts.proposals)}`,
        );
      for (const next of refine(variant, facts)) {
        const key = variantKey(next);
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push({ v: next, from: progress, order: ++order });
      }
    }
    (best as TierBOutcome).attempts = attempts;
    return best as TierBOutcome;
  }

  /** The call at `site` of an attempt (the target, or a setup's) and the arguments it has. */
  private siteCall(state: AttemptState, site: string): { fn: TargetPlan['fn']; args: readonly Arg[] } | null {
    if (site === 'target') return { fn: state.plan.fn, args: state.resolved.args };
    for (const [s, p] of state.resolved.paths) if (p === site && s.$kind === 'Setup') return { fn: s.fn, args: s.args };
    return null;
  }

  /** Steps that could come next before the call at `site`, best first. */
  private stepCandidates(state: AttemptState, site: string): PlannedCall[] {
    const call = this.siteCall(state, site);
    if (call === null) return [];
    const done = new Set(state.variant.steps.filter((s) => s.site === site).map((s) => s.key));
    return sequenceSteps(state.planner, this.calls, call.fn, objectUses(call.args), state.hint, done, 4);
  }

  /** The steps the variant calls before the call at `site`, planned on this attempt's objects, their arguments resolved. */
  private stepsAt(state: AttemptState, site: string): PlannedCall[] {
    const out: PlannedCall[] = [];
    const call = this.siteCall(state, site);
    if (call === null) return out;
    const objects = objectUses(call.args);
    state.variant.steps.forEach((ref, k) => {
      if (ref.site !== site) return;
      const step = sequenceStep(state.planner, this.calls, objects, ref.key);
      if (step === undefined) return;
      out.push({ ...step, args: resolveMore(step.args, `step:${site}:${k}`, state.variant.selection, state.resolved) });
      state.sequence.push(`${step.fn.module}::${step.fn.name}`);
    });
    return out;
  }

  private async attempt(plan: TargetPlan, variant: Variant, planner: Planner): Promise<{ outcome: TierBOutcome; state: AttemptState; at: FailedAt; progress: number[] }> {
    this.cached.restart();
    const resolved = resolveArgs(plan.params, variant.selection);
    const state: AttemptState = { plan, variant, planner, resolved, requests: [], prepared: new Map(), sequence: [], hint: { missingField: false, module: null }, lastDraft: null, relaxedSetup: [] };
    const typeArgs = plan.typeArgs.map((a) => a.type);
    const out: TierBOutcome = {
      success: false,
      gasUsed: 0,
      createdTypes: [],
      requests: state.requests,
      attempts: 1,
      profile: variant.profile,
      checks: 'strict',
      undisposable: [],
      provenance: argsProvenance(resolved.args),
      modulesAccessed: [],
      args: resolved.args,
      typeArgs,
      sequence: state.sequence,
      consumedBy: [],
      byteLength: variant.byteLength,
      values: variant.values,
    };
    try {
      const steps = this.options.usePtb ? this.stepsAt(state, 'target') : [];
      for (const s of steps) out.provenance = weaker(out.provenance, argsProvenance(s.args));
      await this.prepare(state, [...resolved.args, ...steps.flatMap((s) => s.args)]);
      const response = this.options.usePtb ? await this.runPtb(state, steps, out) : await this.runDirect(state, out);
      out.modulesAccessed = this.cached.accessed;
      out.gasUsed = gasOf(response);
      const created = (response.effects as { created?: { object_type: string }[] } | undefined)?.created ?? [];
      out.createdTypes = created.map((c) => c.object_type);
      out.success = true;
      return { outcome: out, state, at: { $kind: 'Other' }, progress: [] };
    } catch (e) {
      if (!(e instanceof AttemptFailure)) throw e;
      out.modulesAccessed = this.cached.accessed;
      out.stage = e.stage;
      out.code = e.code;
      out.reason = e.message;
      const r = e.response;
      if (r !== null) {
        out.gasUsed = gasOf(r);
        const category = abortCategory(r.error ?? '', r.error_category);
        if (category === 'unsupported_native' && e.stage === 'B2') out.code = 'E404';
        out.abort = {
          code: r.abort_code === undefined ? null : String(r.abort_code),
          location: typeof r.abort_module === 'string' ? r.abort_module : typeof r.error_location === 'string' ? r.error_location : null,
          category,
        };
      }
      state.hint = hintOf(r);
      // How far it got: transactions that succeeded, then whether the call that failed is the
      // one the transaction is for (not a step or a chain before it), then the instructions
      // that call ran before it stopped.
      const done = state.requests.length - 1;
      // The target reached comes first, then a setup's own call, then the rest, by the
      // transactions done and the instructions the failing call ran.
      const rank = e.at.$kind === 'Target' || e.at.$kind === 'Leftovers' ? 2 : e.at.$kind === 'Setup' ? 1 : 0;
      // A target reached after steps that ran counts those steps first: what they set up is
      // what the next attempts (the keys they registered) build on.
      const steps = variant.steps.filter((st) => st.site === 'target').length;
      return { outcome: out, state, at: e.at, progress: rank === 2 ? [2, steps, this.cached.steps] : [rank, done, this.cached.steps] };
    }
  }

  private async send(requests: Json[], request: Json): Promise<SandboxResponse> {
    requests.push(request);
    return this.cached.send(request);
  }

  private draft(state: AttemptState): PtbDraft {
    const draft = new PtbDraft(this.catalogue, state.variant.profile, this.options.sender, state.prepared, {
      paths: state.resolved.paths,
      byteLength: state.variant.byteLength,
      values: state.variant.values,
    });
    state.lastDraft = draft;
    return draft;
  }

  /**
   * The values the code compared the last draft's plain inputs with: the failed request run
   * again with a comparison log.
   */
  private async compared(state: AttemptState): Promise<Proposal[]> {
    const draft = state.lastDraft;
    if (draft === null || draft.pureInputs.length === 0) return [];
    const log = await this.cached.traceLast(
      'comparisons',
      () => new ComparisonLog(),
      (t) => t.entries,
    );
    return log === undefined ? [] : proposals(log, draft.pureInputs, MAX_PROPOSALS);
  }

  /** How much of the target's code the last request (the successful transaction) ran. */
  private async coverage(fn: TargetPlan['fn']): Promise<Coverage | undefined> {
    if (fn.code === null) return undefined;
    const total = fn.code.length;
    return this.cached.traceLast(
      `coverage:${fn.address}::${fn.module}::${fn.name}`,
      () => new CoverageLog(`${fn.address}::${fn.module}`, fn.name, total),
      (t) => ({ executed: t.executed, total: t.total }),
    );
  }

  /** Where the failing command of a draft's transaction came from. */
  private failedAt(draft: PtbDraft, r: SandboxResponse, site: string): FailedAt {
    const index = typeof r.failed_command_index === 'number' ? r.failed_command_index : null;
    if (index === null) return { $kind: 'Other' };
    const owner = draft.owners[index] ?? '';
    if (owner === site) return site === 'target' ? { $kind: 'Target' } : { $kind: 'Setup', path: site, abort: r.error_category === 'ContractAbort' };
    if (owner.startsWith('step:')) return { $kind: 'Step', site };
    if (owner === 'dispose' || /^c\d+$/.test(owner)) return { $kind: 'Leftovers' };
    return { $kind: 'Chain', path: owner };
  }

  /** Make the objects forged or set up before the transaction (ids by source). */
  private async prepare(state: AttemptState, args: readonly Arg[]): Promise<void> {
    for (const s of preparedSources(args)) {
      if (state.prepared.has(s)) continue;
      const path = state.resolved.paths.get(s) ?? '';
      if (s.$kind === 'Synthesized') {
        const r = await this.send(state.requests, { action: 'create_test_object', type_tag: formatTy(s.type) });
        const id = (r.data as { object_id?: string } | undefined)?.object_id;
        if (!r.success || id === undefined) throw new AttemptFailure('B1', 'E401', `could not synthesize ${formatTy(s.type)}: ${r.error ?? 'no object'}`, { $kind: 'Chain', path }, r);
        state.prepared.set(s, id);
      } else if (s.$kind === 'Setup') {
        const steps = this.stepsAt(state, path);
        await this.prepare(
          state,
          steps.flatMap((st) => st.args),
        );
        const draft = this.draft(state);
        steps.forEach((st, k) => draft.call(st.fn, st.typeArgs, st.args, `step:${path}:${k}`));
        draft.call(s.fn, s.typeArgs, s.args, path);
        const stuck = draft.dispose();
        // A setup that could not get rid of a value ran with dev-inspect rules: the row is relaxed too.
        if (stuck.length > 0) state.relaxedSetup.push(...stuck);
        const r = await this.send(state.requests, draft.request(stuck.length > 0 ? 'relaxed' : 'strict'));
        if (!r.success) {
          const at = this.failedAt(draft, r, path);
          throw new AttemptFailure('B1', r.error_category === 'ContractAbort' ? 'E402' : 'E401', `setup transaction ${s.fn.module}::${s.fn.name} failed: ${r.error ?? ''}`, at, r);
        }
        const id = createdOfType(r, s.type, this.catalogue);
        if (id === undefined) throw new AttemptFailure('B1', 'E401', `setup transaction ${s.fn.module}::${s.fn.name} made no ${formatTy(s.type)}`, { $kind: 'Setup', path, abort: false }, r);
        state.prepared.set(s, id);
      }
    }
  }

  /** Consumers for the values the draft cannot get rid of, planned on the attempt's objects (none that would need another setup). */
  private consumers(state: AttemptState, leftovers: readonly Ty[]): Map<string, Consumer> {
    const out = new Map<string, Consumer>();
    const objects = objectUses(state.resolved.args);
    for (const type of leftovers) {
      const key = formatTy(type);
      if (out.has(key)) continue;
      const c = consumerOf(state.planner, this.calls, this.catalogue, type, objects);
      if (c === null) continue;
      const args = resolveMore(c.args, `c:${out.size}`, state.variant.selection, state.resolved);
      if (preparedSources(args.filter((_, k) => k !== c.index)).some((s) => !state.prepared.has(s))) continue;
      out.set(key, { fn: c.fn, typeArgs: c.typeArgs, args, index: c.index });
    }
    return out;
  }

  private async runPtb(state: AttemptState, steps: readonly PlannedCall[], out: TierBOutcome): Promise<SandboxResponse> {
    const { plan, resolved } = state;
    const draft = this.draft(state);
    steps.forEach((st, k) => draft.call(st.fn, st.typeArgs, st.args, `step:target:${k}`));
    const typeArgs = plan.typeArgs.map((a) => a.type);
    const target = draft.call(plan.fn, typeArgs, resolved.args, 'target');
    draft.keepReturns(
      target,
      plan.fn.returns.map((r) => substTy(r, typeArgs)),
    );
    const consumers = state.variant.relaxed ? new Map<string, Consumer>() : this.consumers(state, draft.leftovers());
    for (const c of consumers.values()) out.provenance = weaker(out.provenance, argsProvenance(c.args.filter((_, k) => k !== c.index)));
    const left = draft.dispose(consumers);
    out.consumedBy = [...draft.consumedBy];
    out.undisposable = [...state.relaxedSetup, ...left];
    out.checks = out.undisposable.length > 0 ? 'relaxed' : 'strict';
    const r = await this.send(state.requests, draft.request(left.length > 0 ? 'relaxed' : 'strict'));
    if (r.success) return r;
    const at = this.failedAt(draft, r, 'target');
    switch (at.$kind) {
      case 'Other':
        throw new AttemptFailure('B1', 'E401', `transaction rejected: ${r.error ?? ''}`, at, r);
      case 'Step':
        throw new AttemptFailure('B1', 'E402', `a call of the sequence before the target failed: ${r.error ?? ''}`, at, r);
      case 'Chain':
        throw new AttemptFailure('B1', r.error_category === 'ContractAbort' ? 'E402' : 'E401', `constructor chain failed at command ${String(r.failed_command_index)}: ${r.error ?? ''}`, at, r);
      case 'Leftovers':
        throw new AttemptFailure('B2', 'E403', `the target ran, then its results could not be consumed or sent: ${r.error ?? ''}`, at, r);
      default:
        throw new AttemptFailure('B2', 'E403', `execution failed: ${r.error ?? ''}`, at, r);
    }
  }

  /** The original's direct path: every call its own transaction; objects and pure values carry over. */
  private async runDirect(state: AttemptState, out: TierBOutcome): Promise<SandboxResponse> {
    const { plan, resolved, variant } = state;
    const profile = variant.profile;
    const values = new Map<Source, Json>();
    const valueFor = async (s: Source, param: Ty): Promise<Json> => {
      const path = resolved.paths.get(s) ?? '';
      switch (s.$kind) {
        case 'Pure':
          return pureValue(s.type, profile, this.options.sender) ?? null;
        case 'Object':
          return s.object.id;
        case 'Setup':
        case 'Synthesized':
          return state.prepared.get(s) as string;
        case 'Vector':
          throw new AttemptFailure('B1', 'E401', `the direct path cannot pass a vector of ${formatTy(s.elem)} (use --use-ptb)`, { $kind: 'Other' });
        case 'GasCoin':
          return this.splitGasCoin(profile, state.requests, path);
        case 'Call': {
          const known = values.get(s);
          if (known !== undefined) return known;
          const r = await this.call(s.fn, s.typeArgs, s.args, valueFor, state.requests, 'strict');
          if (!r.success)
            throw new AttemptFailure('B1', r.error_category === 'ContractAbort' ? 'E402' : 'E401', `constructor ${s.fn.module}::${s.fn.name} failed: ${r.error ?? ''}`, { $kind: 'Chain', path }, r);
          const ret = s.returns[s.returnIndex];
          let v: Json | undefined;
          if (this.catalogue.isObject(ret)) v = createdOfType(r, ret, this.catalogue);
          else if (isPureTy(ret)) v = ((r.data as { returns?: { value: Json }[] } | undefined)?.returns ?? [])[s.returnIndex]?.value;
          if (v === undefined)
            throw new AttemptFailure('B1', 'E401', `the direct path cannot carry a ${formatTy(param)} from ${s.fn.module}::${s.fn.name} to the next call (use --use-ptb)`, { $kind: 'Other' }, r);
          values.set(s, v);
          return v;
        }
      }
    };
    const r = await this.call(
      plan.fn,
      plan.typeArgs.map((a) => a.type),
      resolved.args,
      valueFor,
      state.requests,
      out.checks,
    );
    if (!r.success) {
      const failed = /takes .* arguments|does not resolve|TYPE_MISMATCH/.test(r.error ?? '') && r.error_category !== 'ContractAbort';
      throw new AttemptFailure(failed ? 'B1' : 'B2', failed ? 'E401' : 'E403', `execution failed: ${r.error ?? ''}`, failed ? { $kind: 'Other' } : { $kind: 'Target' }, r);
    }
    return r;
  }

  /** A `Coin<SUI>` split from the gas coin and sent to the sender (the direct path's coins). */
  private async splitGasCoin(profile: ValueProfile, requests: Json[], path: string): Promise<string> {
    const r = await this.send(requests, {
      action: 'execute_ptb',
      inputs: [{ type: 'pure', value: gasCoinAmount(profile), value_type: 'u64' }],
      commands: [
        { type: 'split_coins', coin: 'gas', amounts: [{ input: 0 }] },
        { type: 'transfer_objects', objects: [{ nested_result: [0, 0] }], recipient: this.options.sender },
      ],
    });
    const id = createdOfType(r, COIN_OF_SUI, this.catalogue);
    if (!r.success || id === undefined) throw new AttemptFailure('B1', 'E401', `could not split a coin from the gas coin: ${r.error ?? ''}`, { $kind: 'Chain', path }, r);
    return id;
  }

  private async call(
    fn: TargetPlan['fn'],
    typeArgs: readonly Ty[],
    args: readonly Arg[],
    valueFor: (s: Source, param: Ty) => Promise<Json>,
    requests: Json[],
    checks: 'strict' | 'relaxed',
  ): Promise<SandboxResponse> {
    const json: Json[] = [];
    for (const a of args) if (a.$kind === 'Value') json.push(await valueFor(a.source, a.type));
    const request: Record<string, Json> = { action: 'call_function', package: fn.packageId, module: fn.module, function: fn.name, type_args: typeArgs.map(formatTy), args: json };
    if (checks === 'relaxed') request.checks = 'relaxed';
    return this.send(requests, request);
  }
}

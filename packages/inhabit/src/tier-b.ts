/**
 * Tier B: a target's plan run as real transactions on the baseline state, through
 * `SandboxSession` requests (recorded, so the row replays in `smi sandbox-exec`).
 * Objects are made first (forged ones with `create_test_object`, setup transactions that
 * share or send new objects), then one PTB: the constructor chain as `MoveCall`s feeding
 * the target through `Result`/`NestedResult`, and what remains sent to the sender.
 * Without `--use-ptb` each call is its own `call_function` transaction instead (the
 * original's direct path): only objects and pure values can pass between calls.
 * Attempts differ by value profile and, after that, by alternative sources; the first
 * success wins, else the attempt that got furthest is reported.
 */
import type { Json } from '@smi/move-vm';
import type { SandboxResponse, SandboxSession } from '@smi/simulation';
import type { Baseline } from './baseline.js';
import { type Catalogue, isCoreFramework, SUI } from './catalogue.js';
import { tyFromTag } from './inventory.js';
import type { TargetPlan } from './planner.js';
import { type PreparedObjects, PtbDraft } from './ptb-draft.js';
import { type Arg, argsProvenance, type Provenance, type Source } from './sources.js';
import { type AbortCategory, abortCategory, type ErrorCode, type Stage } from './taxonomy.js';
import { datatype, formatTy, substTy, type Ty } from './types.js';
import { gasCoinAmount, isPureTy, pureValue, VALUE_PROFILES, type ValueProfile } from './values.js';

const COIN_OF_SUI = datatype(`${SUI}::coin::Coin`, [datatype(`${SUI}::sui::SUI`)]);

/** Options of Tier B. */
export interface TierBOptions {
  /** `true`: one PTB with the whole chain; `false`: one transaction per call. */
  usePtb: boolean;
  /** Most attempts per target (default 5). */
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
}

/** A failure to report, with how far the attempt got (B2 beats B1). */
class AttemptFailure extends Error {
  constructor(
    readonly stage: 'B1' | 'B2',
    readonly code: ErrorCode,
    message: string,
    readonly response: SandboxResponse | null = null,
  ) {
    super(message);
  }
}

interface Choice {
  profile: ValueProfile;
  /** Index of the candidate of each parameter. */
  pick: number;
}

function choices(plan: TargetPlan, maxAttempts: number): Choice[] {
  const usesValues = plan.params.some((p) => p.candidates.some((c) => c.$kind === 'Value' && mentionsValues(c.source)));
  const out: Choice[] = [];
  for (const profile of usesValues ? VALUE_PROFILES : VALUE_PROFILES.slice(0, 1)) out.push({ profile, pick: 0 });
  const most = Math.max(...plan.params.map((p) => p.candidates.length), 1);
  for (let pick = 1; pick < most; pick++) out.push({ profile: VALUE_PROFILES[0], pick });
  return out.slice(0, Math.max(1, maxAttempts));
}

function mentionsValues(s: Source): boolean {
  switch (s.$kind) {
    case 'Pure':
    case 'Vector':
    case 'GasCoin':
      return true;
    case 'Call':
    case 'Setup':
      return s.args.some((a) => a.$kind === 'Value' && mentionsValues(a.source));
    default:
      return false;
  }
}

function pickArgs(plan: TargetPlan, pick: number): Arg[] {
  return plan.params.map((p) => p.candidates[Math.min(pick, p.candidates.length - 1)]);
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

/** Runs plans on a session whose baseline it restores before every attempt. */
export class TierBRunner {
  constructor(
    private readonly session: SandboxSession,
    private readonly baseline: Baseline,
    private readonly catalogue: Catalogue,
    private readonly options: TierBOptions,
  ) {}

  /** Run `plan`: the first attempt that succeeds, or the one that got furthest. */
  async run(plan: TargetPlan): Promise<TierBOutcome> {
    let best: TierBOutcome | null = null;
    const list = choices(plan, this.options.maxAttempts);
    for (const [i, choice] of list.entries()) {
      const outcome = await this.attempt(plan, choice);
      outcome.attempts = i + 1;
      if (outcome.success) return outcome;
      if (best === null || (best.stage === 'B1' && outcome.stage === 'B2')) best = outcome;
    }
    if (best !== null) best.attempts = list.length;
    return best as TierBOutcome;
  }

  private async attempt(plan: TargetPlan, choice: Choice): Promise<TierBOutcome> {
    this.session.env.importState(this.baseline.snapshot);
    const args = pickArgs(plan, choice.pick);
    const requests: Json[] = [];
    const base: TierBOutcome = {
      success: false,
      gasUsed: 0,
      createdTypes: [],
      requests,
      attempts: 1,
      profile: choice.profile,
      checks: 'strict',
      undisposable: [],
      provenance: argsProvenance(args),
      modulesAccessed: [],
      args,
    };
    this.accessed = [];
    try {
      const prepared = await this.prepare(args, choice.profile, requests);
      const response = this.options.usePtb ? await this.runPtb(plan, args, choice.profile, prepared, requests, base) : await this.runDirect(plan, args, choice.profile, prepared, requests, base);
      base.modulesAccessed = this.accessed;
      base.gasUsed = gasOf(response);
      const created = (response.effects as { created?: { object_type: string }[] } | undefined)?.created ?? [];
      base.createdTypes = created.map((c) => c.object_type);
      base.success = true;
      return base;
    } catch (e) {
      if (!(e instanceof AttemptFailure)) throw e;
      base.modulesAccessed = this.accessed;
      base.stage = e.stage;
      base.code = e.code;
      base.reason = e.message;
      const r = e.response;
      if (r !== null) {
        base.gasUsed = gasOf(r);
        const error = r.error ?? '';
        const category = abortCategory(error, r.error_category);
        if (category === 'unsupported_native' && e.stage === 'B2') base.code = 'E404';
        base.abort = {
          code: r.abort_code === undefined ? null : String(r.abort_code),
          location: typeof r.abort_module === 'string' ? r.abort_module : null,
          category,
        };
      }
      return base;
    }
  }

  /** Modules (outside 0x1/0x2/0x3) the last transaction sent ran code of. */
  private accessed: string[] = [];

  private async send(requests: Json[], request: Json): Promise<SandboxResponse> {
    requests.push(request);
    const before = this.session.env.lastOutcome;
    const response = await this.session.handle(request);
    const after = this.session.env.lastOutcome;
    this.accessed = after === null || after === before ? [] : after.modulesTouched.filter((m) => !isCoreFramework(m.split('::')[0]));
    return response;
  }

  /** Make the objects forged or set up before the transaction; their ids by source. */
  private async prepare(args: readonly Arg[], profile: ValueProfile, requests: Json[]): Promise<Map<Source, string>> {
    const prepared = new Map<Source, string>();
    for (const s of preparedSources(args)) {
      if (s.$kind === 'Synthesized') {
        const r = await this.send(requests, { action: 'create_test_object', type_tag: formatTy(s.type) });
        const id = (r.data as { object_id?: string } | undefined)?.object_id;
        if (!r.success || id === undefined) throw new AttemptFailure('B1', 'E401', `could not synthesize ${formatTy(s.type)}: ${r.error ?? 'no object'}`, r);
        prepared.set(s, id);
      } else if (s.$kind === 'Setup') {
        const draft = new PtbDraft(this.catalogue, profile, this.options.sender, prepared);
        draft.call(s.fn, s.typeArgs, s.args);
        const stuck = draft.dispose();
        const r = await this.send(requests, draft.request(stuck.length > 0 ? 'relaxed' : 'strict'));
        if (!r.success) throw new AttemptFailure('B1', 'E401', `setup transaction ${s.fn.module}::${s.fn.name} failed: ${r.error ?? ''}`, r);
        const id = createdOfType(r, s.type, this.catalogue);
        if (id === undefined) throw new AttemptFailure('B1', 'E401', `setup transaction ${s.fn.module}::${s.fn.name} made no ${formatTy(s.type)}`, r);
        prepared.set(s, id);
      }
    }
    return prepared;
  }

  private async runPtb(plan: TargetPlan, args: readonly Arg[], profile: ValueProfile, prepared: PreparedObjects, requests: Json[], out: TierBOutcome): Promise<SandboxResponse> {
    const draft = new PtbDraft(this.catalogue, profile, this.options.sender, prepared);
    const target = draft.call(plan.fn, plan.typeArgs.map((a) => a.type), args);
    draft.keepReturns(target, plan.fn.returns.map((r) => substTy(r, plan.typeArgs.map((a) => a.type))));
    out.undisposable = draft.dispose();
    out.checks = out.undisposable.length > 0 ? 'relaxed' : 'strict';
    const r = await this.send(requests, draft.request(out.checks));
    if (r.success) return r;
    const index = typeof r.failed_command_index === 'number' ? r.failed_command_index : null;
    if (index === null) throw new AttemptFailure('B1', 'E401', `transaction rejected: ${r.error ?? ''}`, r);
    if (index < target) throw new AttemptFailure('B1', r.error_category === 'ContractAbort' ? 'E402' : 'E401', `constructor chain failed at command ${index}: ${r.error ?? ''}`, r);
    if (index > target) throw new AttemptFailure('B2', 'E403', `the target ran, then its results could not be sent: ${r.error ?? ''}`, r);
    throw new AttemptFailure('B2', 'E403', `execution failed: ${r.error ?? ''}`, r);
  }

  /** The original's direct path: every call its own transaction; objects and pure values carry over. */
  private async runDirect(plan: TargetPlan, args: readonly Arg[], profile: ValueProfile, prepared: PreparedObjects, requests: Json[], out: TierBOutcome): Promise<SandboxResponse> {
    const values = new Map<Source, Json>();
    const valueOf = async (s: Source, param: Ty): Promise<Json> => {
      switch (s.$kind) {
        case 'Pure':
          return pureValue(s.type, profile, this.options.sender) ?? null;
        case 'Object':
          return s.object.id;
        case 'Setup':
        case 'Synthesized':
          return prepared.get(s) as string;
        case 'Vector':
          throw new AttemptFailure('B1', 'E401', `the direct path cannot pass a vector of ${formatTy(s.elem)} (use --use-ptb)`);
        case 'GasCoin':
          return this.splitGasCoin(profile, requests);
        case 'Call': {
          const known = values.get(s);
          if (known !== undefined) return known;
          const r = await this.call(s.fn, s.typeArgs, s.args, valueOf, requests, 'strict');
          if (!r.success) throw new AttemptFailure('B1', r.error_category === 'ContractAbort' ? 'E402' : 'E401', `constructor ${s.fn.module}::${s.fn.name} failed: ${r.error ?? ''}`, r);
          const ret = s.returns[s.returnIndex];
          let v: Json | undefined;
          if (this.catalogue.isObject(ret)) v = createdOfType(r, ret, this.catalogue);
          else if (isPureTy(ret)) v = ((r.data as { returns?: { value: Json }[] } | undefined)?.returns ?? [])[s.returnIndex]?.value;
          if (v === undefined) throw new AttemptFailure('B1', 'E401', `the direct path cannot carry a ${formatTy(param)} from ${s.fn.module}::${s.fn.name} to the next call (use --use-ptb)`, r);
          values.set(s, v);
          return v;
        }
      }
    };
    const r = await this.call(plan.fn, plan.typeArgs.map((a) => a.type), args, valueOf, requests, out.checks);
    if (!r.success) {
      const failed = /takes .* arguments|does not resolve|TYPE_MISMATCH/.test(r.error ?? '') && r.error_category !== 'ContractAbort';
      throw new AttemptFailure(failed ? 'B1' : 'B2', failed ? 'E401' : 'E403', `execution failed: ${r.error ?? ''}`, r);
    }
    return r;
  }

  /** A `Coin<SUI>` split from the gas coin and sent to the sender (the direct path's coins). */
  private async splitGasCoin(profile: ValueProfile, requests: Json[]): Promise<string> {
    const r = await this.send(requests, {
      action: 'execute_ptb',
      inputs: [{ type: 'pure', value: gasCoinAmount(profile), value_type: 'u64' }],
      commands: [
        { type: 'split_coins', coin: 'gas', amounts: [{ input: 0 }] },
        { type: 'transfer_objects', objects: [{ nested_result: [0, 0] }], recipient: this.options.sender },
      ],
    });
    const id = createdOfType(r, COIN_OF_SUI, this.catalogue);
    if (!r.success || id === undefined) throw new AttemptFailure('B1', 'E401', `could not split a coin from the gas coin: ${r.error ?? ''}`, r);
    return id;
  }

  private async call(
    fn: TargetPlan['fn'],
    typeArgs: readonly Ty[],
    args: readonly Arg[],
    valueOf: (s: Source, param: Ty) => Promise<Json>,
    requests: Json[],
    checks: 'strict' | 'relaxed',
  ): Promise<SandboxResponse> {
    const json: Json[] = [];
    for (const a of args) if (a.$kind === 'Value') json.push(await valueOf(a.source, a.type));
    const request: Record<string, Json> = { action: 'call_function', package: fn.packageId, module: fn.module, function: fn.name, type_args: typeArgs.map(formatTy), args: json };
    if (checks === 'relaxed') request.checks = 'relaxed';
    return this.send(requests, request);
  }
}

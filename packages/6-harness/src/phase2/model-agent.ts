/**
 * The Phase II agents that ask a model. `real-openai-compatible` plans with progressive
 * exposure: it first sees an interface summary, may ask for more (`need_more`, as a tool call
 * where the server takes tools, else the original's JSON form) until it answers with a plan,
 * within `--max-planning-calls`; a request that names nothing real goes back to it as an
 * error; asking again for what it already saw gets one "plan now" prompt, then ends the
 * attempt (loop detection). Up to `--max-plan-attempts` plans, each after the first told why
 * the last one failed (the simulator's error, or the targets it missed).
 * `template-search` asks the model to fill in the arguments of the first five baseline
 * skeletons, falling back to the skeleton (labelled in the row) when the answer is unusable.
 */
import type { MovePackage, PackageInterface } from '@smi/bytecode';
import { extractJsonValue } from '../phase1/extract.js';
import type { GenerateParams, ModelClient } from '../model/types.js';
import type { PackageContext } from '../run/executor.js';
import { baselineCandidates } from './baseline.js';
import { focusedSummary, type InventoryItem, inventorySummary, resolveRequests, type SummaryMode, summarizeInterface } from './interface-summary.js';
import { askModel, type ModelFailure, type Phase2CallRecord, type Phase2ServerSupport } from './model-call.js';
import { type LastFailure, NEED_MORE_TOOL, PHASE2_SYSTEM, planningPrompt, retryPrompt, templatePrompt } from './prompts.js';
import type { PlanItem, PlanSource } from './worker.js';
import type { Json } from '@smi/bytecode';

/** The limits of the model agents (part of a run's spec). */
export interface ModelAgentLimits {
  maxPlanningCalls: number;
  maxPlanAttempts: number;
  summaryMode: Exclude<SummaryMode, 'focused'>;
  /** `auto`: a tool call where the server takes tools; `json`: always the JSON form. */
  needMore: 'auto' | 'json';
  maxFunctions: number;
  /** helper-package: repairs after a compile, publish or run error. */
  maxRepairRounds: number;
}

/** The original's limits (`--max-planning-calls 50`, `--max-plan-attempts 5`, 60 functions a summary), and 3 repairs. */
export const DEFAULT_MODEL_AGENT_LIMITS: Readonly<ModelAgentLimits> = {
  maxPlanningCalls: 50,
  maxPlanAttempts: 5,
  summaryMode: 'entry_then_public',
  needMore: 'auto',
  maxFunctions: 60,
  maxRepairRounds: 3,
};

/** How the model is asked (the same for every package of a run). */
export interface ModelAgentSettings extends ModelAgentLimits {
  model: ModelClient;
  params: GenerateParams;
  /** Epoch of the sample (part of every cache key). */
  epoch: number;
}

/** What the model may see of the package. */
export interface PackageView {
  packageId: string;
  targets: readonly string[];
  iface: PackageInterface;
  /** The target and every package it may call, by id. */
  interfaces: ReadonlyMap<string, PackageInterface>;
  inventory: readonly InventoryItem[];
}

const LOOP_MESSAGE = 'You already requested those details. No other public functions found. Please provide a best-effort PTB plan now using only public functions.';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Base of the model agents: the calls made and the failure that ended planning. */
abstract class ModelSource implements PlanSource {
  readonly calls: Phase2CallRecord[] = [];
  /** A model failure that ended the package's planning (`null` if none). */
  failure: ModelFailure | null = null;
  /** Answers that were not JSON. */
  unparseable = 0;

  constructor(
    protected readonly ctx: PackageContext,
    protected readonly settings: ModelAgentSettings,
    protected readonly support: Phase2ServerSupport,
    protected readonly view: PackageView,
  ) {}

  abstract next(lastFailure: LastFailure | null): Promise<PlanItem | null>;

  /** Fields the row gets. */
  abstract rowFields(): Record<string, unknown>;
}

/** `real-openai-compatible`: progressive exposure. */
export class ProgressivePlanner extends ModelSource {
  private attempt = 0;
  planningCalls = 0;
  needMoreRounds = 0;
  invalidRequests = 0;
  loopDetections = 0;
  readonly requested: string[] = [];

  async next(lastFailure: LastFailure | null): Promise<PlanItem | null> {
    const s = this.settings;
    if (this.failure !== null || this.attempt >= s.maxPlanAttempts || this.planningCalls >= s.maxPlanningCalls) return null;
    this.attempt++;
    const attemptFailure = this.attempt > 1 ? lastFailure : null;
    let requestError: LastFailure | null = null;
    let forced = false;
    while (this.planningCalls < s.maxPlanningCalls) {
      this.planningCalls++;
      const remaining = s.maxPlanningCalls - this.planningCalls + 1;
      const summary = this.requested.length > 0 ? focusedSummary(this.requested, this.view.interfaces, s.maxFunctions) : summarizeInterface(this.view.iface, s.summaryMode, s.maxFunctions);
      const offerTools = s.needMore === 'auto' && !forced;
      const failure = requestError ?? attemptFailure;
      const user = (tools: boolean): string =>
        failure !== null
          ? retryPrompt({ packageId: this.view.packageId, targets: this.view.targets, lastFailure: failure, interfaceSummary: summary, maxPlanningCalls: remaining })
          : planningPrompt({
              packageId: this.view.packageId,
              targets: this.view.targets,
              interfaceSummary: summary,
              inventorySummary: inventorySummary(this.view.inventory),
              maxPlanningCalls: remaining,
              needMore: tools ? 'tool' : 'json',
            });
      const params: GenerateParams = { ...s.params, ...(offerTools ? { tools: [NEED_MORE_TOOL] } : {}) };
      const r = await askModel(
        this.ctx,
        s.model,
        { system: PHASE2_SYSTEM, user },
        params,
        this.support,
        { purpose: forced ? 'forced_plan' : 'plan', plan_attempt: this.attempt, call: this.planningCalls },
        this.calls,
        s.epoch,
      );
      if ('failure' in r) {
        this.failure = r.failure;
        return null;
      }
      const answer = r.answer;
      let request: unknown;
      const toolCall = answer.toolCalls?.[0];
      if (toolCall !== undefined) {
        if (toolCall.name !== 'need_more') {
          requestError = { harness_error: `there is no tool "${toolCall.name}"; call need_more or answer with a plan` };
          this.invalidRequests++;
          continue;
        }
        let args: unknown;
        try {
          args = JSON.parse(toolCall.arguments);
        } catch {
          args = undefined;
        }
        request = isObject(args) ? args.targets : undefined;
      } else {
        const v = extractJsonValue(answer.content, (x) => isObject(x) && ('calls' in x || 'need_more' in x));
        if (v.$kind === 'unparseable') {
          this.unparseable++;
          this.ctx.event('llm_json_parse_error', { plan_attempt: this.attempt, error: v.reason, excerpt: answer.content.slice(0, 200) });
          return { $kind: 'NoPlan', error: `model answer is not JSON: ${v.reason}` };
        }
        if (isObject(v.value) && 'calls' in v.value) return { $kind: 'Plan', spec: v.value as Json };
        if (!isObject(v.value) || !('need_more' in v.value)) {
          const keys = isObject(v.value)
            ? `[${Object.keys(v.value)
                .map((k) => `'${k}'`)
                .join(', ')}]`
            : `<class '${Array.isArray(v.value) ? 'list' : typeof v.value}'>`;
          return { $kind: 'NoPlan', error: `unexpected response keys: ${keys}` };
        }
        request = v.value.need_more;
      }
      this.needMoreRounds++;
      if (!isStringList(request) || request.length === 0) {
        this.invalidRequests++;
        requestError = { harness_error: 'need_more must list functions as "0xADDR::module::function" (or "0xADDR::module") strings' };
        continue;
      }
      const resolved = resolveRequests(request, this.view.packageId, this.view.interfaces);
      const fresh = resolved.functions.filter((f) => !this.requested.includes(f));
      this.ctx.event('need_more', { plan_attempt: this.attempt, requested: request, shown: fresh, errors: resolved.errors });
      if (resolved.functions.length === 0) {
        this.invalidRequests++;
        requestError = { harness_error: `need_more: ${resolved.errors.join('; ')}` };
        continue;
      }
      if (fresh.length === 0) {
        this.loopDetections++;
        if (forced) return { $kind: 'NoPlan', error: 'the model asked again for details it already had instead of planning' };
        forced = true;
        requestError = { harness_error: LOOP_MESSAGE };
        continue;
      }
      this.requested.push(...fresh);
      requestError = resolved.errors.length > 0 ? { harness_error: `need_more: ${resolved.errors.join('; ')} (the functions found are shown below)` } : null;
    }
    return { $kind: 'NoPlan', error: 'reached max planning calls without plan' };
  }

  rowFields(): Record<string, unknown> {
    return {
      planning_calls: this.planningCalls,
      need_more_rounds: this.needMoreRounds,
      need_more_invalid: this.invalidRequests,
      loop_detections: this.loopDetections,
      requested_functions: [...this.requested],
      need_more_as_tool: this.settings.needMore === 'auto' && this.support.tools,
    };
  }
}

/** `template-search`: the model fills in baseline skeletons. */
export class TemplatePlanner extends ModelSource {
  private readonly skeletons: Json[];
  private i = 0;
  fallbacks = 0;

  constructor(ctx: PackageContext, settings: ModelAgentSettings, support: Phase2ServerSupport, view: PackageView, pkg: MovePackage) {
    super(ctx, settings, support, view);
    this.skeletons = baselineCandidates(pkg)
      .flatMap((c) => (c.$kind === 'Ok' ? [c.plan] : []))
      .slice(0, 5);
  }

  async next(): Promise<PlanItem | null> {
    if (this.failure !== null || this.i >= this.skeletons.length) return null;
    const skeleton = this.skeletons[this.i++];
    const calls = isObject(skeleton) ? (skeleton.calls as Json) : [];
    const user = templatePrompt({ packageId: this.view.packageId, targets: this.view.targets, calls });
    const r = await askModel(
      this.ctx,
      this.settings.model,
      { system: PHASE2_SYSTEM, user },
      this.settings.params,
      this.support,
      { purpose: 'template', plan_attempt: this.i, call: this.i },
      this.calls,
      this.settings.epoch,
    );
    if ('failure' in r) {
      if (r.failure.interrupted || r.failure.timedOut) {
        this.failure = r.failure;
        return null;
      }
      this.fallbacks++;
      return { $kind: 'Plan', spec: skeleton };
    }
    // A calls array, or a plan object with one, wherever the answer put it.
    const v = extractJsonValue(r.answer.content, (x) => Array.isArray(x) || (isObject(x) && Array.isArray(x.calls)));
    if (v.$kind === 'ok' && Array.isArray(v.value)) return { $kind: 'Plan', spec: { calls: v.value as Json[] } };
    if (v.$kind === 'ok' && isObject(v.value) && Array.isArray(v.value.calls)) return { $kind: 'Plan', spec: v.value as Json };
    if (v.$kind === 'unparseable') this.unparseable++;
    this.fallbacks++;
    this.ctx.event('template_fallback', { skeleton: this.i, reason: v.$kind === 'unparseable' ? v.reason : 'the answer is not a calls array' });
    return { $kind: 'Plan', spec: skeleton };
  }

  rowFields(): Record<string, unknown> {
    return { template_skeletons: this.skeletons.length, template_fallbacks: this.fallbacks };
  }
}

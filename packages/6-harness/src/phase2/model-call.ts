/**
 * One model call of a Phase II agent, recorded so a result can be reproduced from its row:
 * the cache key, where the answer came from, tokens, and the answer itself. A failed call is
 * counted too (it may have cost tokens). A server that refuses `tools` is remembered for the
 * run, and the same request is made again without them (not a call of the model's).
 */
import { cacheKey } from '../model/cache.js';
import { type ChatMessage, type GenerateParams, type GenerateResult, type ModelClient, ModelError, zeroUsage } from '../model/types.js';
import type { PackageContext } from '../run/executor.js';
import type { Outcome } from '../run/types.js';

/** A call as a row records it. */
export interface Phase2CallRecord {
  /** What the call was for (`plan`, `need_more`, `template`, `helper`, `repair`). */
  purpose: string;
  plan_attempt: number;
  call: number;
  cache_key: string;
  cache: string;
  finish_reason: string | null;
  request_id: string | null;
  usage: unknown;
  tools: boolean;
  /** The user prompt sent (the system prompt is the phase's `PHASE2_SYSTEM`). */
  prompt?: string;
  response?: string;
  tool_calls?: { name: string; arguments: string }[];
  error?: string;
}

/** What the run learnt about the server (shared by every package of a session). */
export interface Phase2ServerSupport {
  /** `false` once the server refused `tools`. */
  tools: boolean;
}

/** A failure that ends the package's planning. */
export interface ModelFailure {
  outcome: Outcome;
  error: string;
  timedOut: boolean;
  /** The run is stopping: the package is not a result. */
  interrupted: boolean;
}

/** A 400/422 that says the server does not take `tools`. */
function refusesTools(e: ModelError): boolean {
  return e.kind === 'fatal' && (e.details.status === 400 || e.details.status === 422) && /tool|function/i.test(e.message);
}

/** Ask once; `{answer}` or `{failure}` (the call is recorded either way). */
export async function askModel(
  ctx: PackageContext,
  model: ModelClient,
  /** The user message may depend on whether tools are offered (rebuilt when the server refuses them). */
  prompt: { system: string; user: string | ((tools: boolean) => string) },
  params: GenerateParams,
  support: Phase2ServerSupport,
  record: Omit<Phase2CallRecord, 'cache_key' | 'cache' | 'finish_reason' | 'request_id' | 'usage' | 'tools'>,
  calls: Phase2CallRecord[],
  epoch: number,
): Promise<{ answer: GenerateResult } | { failure: ModelFailure }> {
  for (;;) {
    const p: GenerateParams = { ...params };
    if (!support.tools || p.tools === undefined) delete p.tools;
    const user = typeof prompt.user === 'string' ? prompt.user : prompt.user(p.tools !== undefined);
    const messages: ChatMessage[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: user },
    ];
    const rec: Phase2CallRecord = {
      ...record,
      cache_key: cacheKey({ baseUrl: model.baseUrl, model: model.model, messages, params: p, epoch }),
      cache: 'off',
      finish_reason: null,
      request_id: null,
      usage: null,
      tools: p.tools !== undefined,
      prompt: user,
    };
    // Written as sent (and reserved against the budget) before it goes out.
    const ticket = ctx.sendCall({ promptChars: messages.reduce((n, m) => n + m.content.length, 0) + (p.tools === undefined ? 0 : JSON.stringify(p.tools).length), maxOutputTokens: p.maxTokens ?? 0 });
    if (ticket === null) {
      return { failure: { outcome: 'limit', error: 'the budget cannot pay for another call', timedOut: false, interrupted: true } };
    }
    calls.push(rec);
    try {
      const r = await model.generate(messages, p, { signal: ctx.signal, epoch });
      ctx.recordCall(r, ticket);
      Object.assign(rec, { cache: r.cache, finish_reason: r.finishReason, request_id: r.requestId, usage: r.usage, response: r.content }, r.toolCalls ? { tool_calls: r.toolCalls } : {});
      ctx.event('llm_response', {
        purpose: record.purpose,
        plan_attempt: record.plan_attempt,
        planning_call: record.call,
        cache: r.cache,
        finish_reason: r.finishReason,
        request_id: r.requestId,
        prompt_tokens: r.usage.input,
        completion_tokens: r.usage.output,
      });
      return { answer: r };
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      // A request cut off in flight may have been billed: it counts at its estimate.
      if (e.kind === 'timeout' && e.details.usage === undefined) ctx.abandonCall(ticket);
      else ctx.recordCall({ usage: e.details.usage ?? zeroUsage(), cache: 'off' }, ticket);
      Object.assign(rec, { error: `${e.kind}: ${e.message}`, usage: e.details.usage ?? null, request_id: e.details.requestId ?? null });
      ctx.event('llm_request_error', { purpose: record.purpose, plan_attempt: record.plan_attempt, kind: e.kind, status: e.details.status ?? null, error: e.message });
      if (p.tools !== undefined && refusesTools(e)) {
        support.tools = false;
        ctx.event('agent_effective_config', { need_more: 'tools refused by the server; the JSON form is used', status: e.details.status ?? null });
        continue;
      }
      if (e.kind === 'timeout') {
        if (ctx.runSignal.aborted) return { failure: { outcome: 'limit', error: 'run stopped', timedOut: false, interrupted: true } };
        return { failure: { outcome: 'limit', error: `per-package timeout exceeded: ${e.message}`, timedOut: true, interrupted: false } };
      }
      if (e.kind === 'truncated') return { failure: { outcome: 'limit', error: `real-agent call failed: ${e.message}`, timedOut: false, interrupted: false } };
      return { failure: { outcome: 'model_error', error: `real-agent call failed: ${e.message}`, timedOut: false, interrupted: false } };
    }
  }
}

/**
 * One package of Phase I: read its bytecode (truth = its `key` structs), ask the agent,
 * read the answer, score it. A real model gets up to four attempts: an empty or
 * truncated answer halves the structs in the prompt (at least 5), as the original did;
 * structured output is asked for when the server supports it, and a server that refuses
 * it is asked again without. Every call is recorded with its cache key and answer, so a
 * result can be reproduced from its record.
 */
import { loadPackageDir, PackageError, errorMessage } from '@smi/bytecode';
import { cacheKey } from '../model/cache.js';
import { type ChatMessage, type GenerateParams, type ModelClient, ModelError, type ResponseFormat, zeroUsage } from '../model/types.js';
import { PyFloat } from '../py-json.js';
import type { PackageContext, PackageJob, PackageWork } from '../run/executor.js';
import type { Outcome } from '../run/types.js';
import { isMockAgent, mockPrediction, type Phase1Agent } from './agents.js';
import { extractKeyTypes, KEY_TYPES_SCHEMA, type ParseMode } from './extract.js';
import { failedScore, type KeyTypeScore, scoreKeyTypes } from './judge.js';
import { keyTypes, packageInterface, PHASE1_SYSTEM, phase1Prompt, structCount } from './truth.js';

/** How to ask for structured output: `auto` tries `json_schema` and drops it for a server that refuses it. */
export type StructuredMode = 'auto' | 'json_schema' | 'json_object' | 'none';

/** Attempts per package (the original's). */
export const PHASE1_MAX_ATTEMPTS = 4;

/** Settings of Phase I's work on a package. */
export interface Phase1WorkSettings {
  agent: Phase1Agent;
  seed: bigint;
  maxStructsInPrompt: number;
  includeTypeLists: boolean;
  /** The model of `real-openai-compatible`. */
  model: ModelClient | null;
  params: GenerateParams;
  structured: StructuredMode;
  /** Samples per package (pass@k); the row scores the first. */
  epochs: number;
}

/** What the run learnt about the server (shared by all packages of a session). */
export interface ServerSupport {
  /** `false` once the server refused `json_schema`. */
  jsonSchema: boolean;
}

/** A model call as a result records it. */
interface CallRecord {
  /** With more than one epoch: the sample this call was for. */
  epoch?: number;
  attempt: number;
  max_structs: number;
  cache_key: string;
  cache: string;
  finish_reason: string | null;
  request_id: string | null;
  usage: unknown;
  response_format: string;
  /** The user prompt sent (the system prompt is `PHASE1_SYSTEM`). */
  prompt?: string;
  response?: string;
  error?: string;
}

const SCHEMA_FORMAT: ResponseFormat = { type: 'json_schema', json_schema: { name: 'key_types', schema: KEY_TYPES_SCHEMA, strict: true } };

function formatFor(settings: Phase1WorkSettings, support: ServerSupport): ResponseFormat | undefined {
  switch (settings.structured) {
    case 'json_schema':
      return SCHEMA_FORMAT;
    case 'json_object':
      return { type: 'json_object' };
    case 'none':
      return undefined;
    case 'auto':
      return support.jsonSchema ? SCHEMA_FORMAT : settings.params.responseFormat;
  }
}

/** A 400/422 that says the server does not do this `response_format`. */
function refusesFormat(e: ModelError): boolean {
  return e.kind === 'fatal' && (e.details.status === 400 || e.details.status === 422) && /response_format|json_schema|structured|schema/i.test(e.message);
}

function row(truth: readonly string[], predicted: readonly string[] | null, score: KeyTypeScore, settings: Phase1WorkSettings, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    truth_key_types: truth.length,
    predicted_key_types: predicted?.length ?? 0,
    score,
    truth_key_types_list: settings.includeTypeLists ? [...truth] : null,
    predicted_key_types_list: settings.includeTypeLists ? [...(predicted ?? [])] : null,
    ...extra,
  };
}

/** Do one package. */
export async function phase1Package(job: PackageJob, ctx: PackageContext, settings: Phase1WorkSettings, support: ServerSupport): Promise<PackageWork> {
  let truth: string[];
  let iface;
  try {
    const pkg = loadPackageDir(job.packageDir, { packageId: job.packageId });
    iface = packageInterface(
      job.packageId,
      pkg.modules.map((m) => m.module),
    );
    truth = keyTypes(iface);
  } catch (e) {
    const error = `bytecode extraction failed: ${e instanceof PackageError || errorMessage(e)}`;
    return {
      outcome: 'infra_error',
      error,
      timed_out: false,
      row: { package_id: job.packageId, ...row([], null, failedScore([]), settings, { attempts: 0, max_structs_used: null, outcome: 'infra_error', parse_mode: null }) },
      eventFields: { f1: new PyFloat(0) },
    };
  }
  const structs = structCount(iface);
  if (isMockAgent(settings.agent)) {
    const predicted = mockPrediction(settings.agent, truth, settings.seed);
    const score = scoreKeyTypes(truth, predicted);
    const outcome: Outcome = score.fp === 0 && score.fn === 0 ? 'correct' : 'wrong';
    return {
      outcome,
      error: null,
      timed_out: false,
      row: { package_id: job.packageId, ...row(truth, predicted, score, settings, { attempts: 0, max_structs_used: null, structs_in_package: structs, outcome, parse_mode: null }) },
      eventFields: { f1: new PyFloat(score.f1) },
    };
  }
  const model = settings.model;
  if (model === null) throw new Error('real-openai-compatible needs a model');
  const calls: CallRecord[] = [];
  const samples: Sample[] = [];
  for (let epoch = 0; epoch < Math.max(1, settings.epochs); epoch++) {
    const one = await sample(ctx, settings, support, model, iface, epoch, calls);
    if (one === 'interrupted') return { outcome: 'limit', error: 'run stopped', timed_out: false, row: {}, interrupted: true };
    samples.push(one);
    if (one.failure?.timedOut === true) break;
  }
  const scored = samples.map((x) => {
    const score = x.failure === null && x.answer !== null ? scoreKeyTypes(truth, x.answer.types) : failedScore(truth);
    const outcome: Outcome = x.failure?.outcome ?? (score.fp === 0 && score.fn === 0 ? 'correct' : 'wrong');
    return { score, outcome };
  });
  const first = samples[0];
  const { score, outcome } = scored[0];
  const failure = first.failure;
  const answer = first.answer;
  const predicted = answer?.types ?? null;
  return {
    outcome,
    error: failure?.error ?? null,
    timed_out: failure?.timedOut ?? false,
    row: {
      package_id: job.packageId,
      ...row(truth, failure === null ? predicted : null, score, settings, {
        attempts: first.attempts,
        max_structs_used: first.maxStructsUsed,
        structs_in_package: structs,
        outcome,
        parse_mode: answer?.mode ?? null,
      }),
      ...(settings.epochs > 1
        ? { epochs: scored.map((x, epoch) => ({ epoch, outcome: x.outcome, correct: x.outcome === 'correct', f1: new PyFloat(x.score.f1), error: samples[epoch].failure?.error ?? null })) }
        : {}),
    },
    details: { calls },
    eventFields: { f1: new PyFloat(score.f1) },
  };
}

/** What one sample of a package gave: the answer, or why there is none. */
interface Sample {
  answer: { types: string[]; mode: ParseMode } | null;
  failure: { outcome: Outcome; error: string; timedOut: boolean } | null;
  attempts: number;
  maxStructsUsed: number | null;
}

/** One sample (epoch `epoch`, its own cache key), with the original's attempts. */
async function sample(
  ctx: PackageContext,
  settings: Phase1WorkSettings,
  support: ServerSupport,
  model: ModelClient,
  iface: ReturnType<typeof packageInterface>,
  epoch: number,
  calls: CallRecord[],
): Promise<Sample | 'interrupted'> {
  let maxStructs = settings.maxStructsInPrompt;
  let attempts = 0;
  let maxStructsUsed: number | null = null;
  let failure: { outcome: Outcome; error: string; timedOut: boolean } | null = null;
  let answer: { types: string[]; mode: ParseMode } | null = null;
  let refusals = 0;
  while (attempts < PHASE1_MAX_ATTEMPTS + refusals) {
    if (ctx.deadline !== null && Date.now() >= ctx.deadline) {
      failure = { outcome: 'limit', error: 'per-package timeout exceeded', timedOut: true };
      break;
    }
    attempts++;
    maxStructsUsed = maxStructs;
    const format = formatFor(settings, support);
    const params: GenerateParams = { ...settings.params, ...(format !== undefined ? { responseFormat: format } : {}) };
    if (format === undefined) delete params.responseFormat;
    const messages: ChatMessage[] = [
      { role: 'system', content: PHASE1_SYSTEM },
      { role: 'user', content: phase1Prompt(iface, maxStructs) },
    ];
    const key = cacheKey({ baseUrl: model.baseUrl, model: model.model, messages, params, epoch });
    const record: CallRecord = {
      ...(settings.epochs > 1 ? { epoch } : {}),
      attempt: attempts,
      max_structs: maxStructs,
      cache_key: key,
      cache: 'off',
      finish_reason: null,
      request_id: null,
      usage: null,
      response_format: format?.type ?? 'none',
      prompt: messages[1].content,
    };
    calls.push(record);
    // Written as sent (and reserved against the budget) before it goes out.
    const ticket = ctx.sendCall({ promptChars: messages.reduce((n, m) => n + m.content.length, 0), maxOutputTokens: params.maxTokens ?? 0 });
    if (ticket === null) return 'interrupted';
    try {
      const r = await model.generate(messages, params, { signal: ctx.signal, epoch });
      ctx.recordCall(r, ticket);
      Object.assign(record, { cache: r.cache, finish_reason: r.finishReason, request_id: r.requestId, usage: r.usage, response: r.content });
      ctx.event('llm_response', { attempt: attempts, cache: r.cache, finish_reason: r.finishReason, request_id: r.requestId, prompt_tokens: r.usage.input, completion_tokens: r.usage.output });
      const parsed = extractKeyTypes(r.content);
      if (parsed.$kind === 'ok') {
        answer = parsed;
        ctx.event(parsed.mode === 'json' ? 'llm_json_parsed' : 'llm_json_extracted', { attempt: attempts, mode: parsed.mode, key_types: parsed.types.length });
      } else {
        ctx.event('llm_json_parse_error', { attempt: attempts, error: parsed.reason, excerpt: r.content.slice(0, 200) });
        if (r.finishReason === 'length') {
          // Cut off at max_tokens: a smaller prompt leaves room for the answer.
          const next = Math.max(5, Math.floor(maxStructs / 2));
          failure = { outcome: 'limit', error: `the answer was cut off at max_tokens (finish_reason "length") with ${maxStructs} structs in the prompt`, timedOut: false };
          if (next === maxStructs) break;
          maxStructs = next;
          continue;
        }
        failure = { outcome: 'unparseable', error: `model answer is not the expected JSON: ${parsed.reason}`, timedOut: false };
      }
      break;
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      // A failed call is still a call (and may have cost tokens).
      // A request cut off in flight may have been billed: it counts at its estimate.
      if (e.kind === 'timeout' && e.details.usage === undefined) ctx.abandonCall(ticket);
      else ctx.recordCall({ usage: e.details.usage ?? zeroUsage(), cache: 'off' }, ticket);
      Object.assign(record, { error: `${e.kind}: ${e.message}`, usage: e.details.usage ?? null, request_id: e.details.requestId ?? null });
      ctx.event('llm_request_error', { attempt: attempts, kind: e.kind, status: e.details.status ?? null, error: e.message });
      if (e.kind === 'timeout') {
        if (ctx.runSignal.aborted) return 'interrupted';
        failure = { outcome: 'limit', error: `per-package timeout exceeded: ${e.message}`, timedOut: true };
        break;
      }
      if (e.kind === 'empty' || e.kind === 'truncated') {
        const next = Math.max(5, Math.floor(maxStructs / 2));
        failure = { outcome: e.kind === 'truncated' ? 'limit' : 'model_error', error: `real-agent call failed: ${e.message}`, timedOut: false };
        if (next === maxStructs) break;
        maxStructs = next;
        continue;
      }
      if (settings.structured === 'auto' && format === SCHEMA_FORMAT && refusesFormat(e)) {
        // The server does not do structured output: ask again without it (not an attempt of the
        // model's). Requests sent with it before the first refusal came back are refused too:
        // each asks again, whoever learnt it first.
        if (support.jsonSchema) ctx.event('agent_effective_config', { structured_output: 'unsupported by the server; answers are parsed from text', status: e.details.status ?? null });
        support.jsonSchema = false;
        refusals++;
        continue;
      }
      failure = { outcome: 'model_error', error: `real-agent call failed: ${e.message}`, timedOut: false };
      break;
    }
  }
  if (answer !== null) failure = null;
  return { answer, failure, attempts, maxStructsUsed };
}

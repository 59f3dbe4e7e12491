/**
 * An OpenAI-compatible chat-completions model through the `openai` package, at any base
 * URL (OpenAI, OpenRouter, vLLM, llama.cpp, a local server). The SDK's own retries are
 * off: failures become {@link ModelError}s by HTTP status and error type, and the
 * harness retries them (`withRetries`), honouring `Retry-After`. Each HTTP attempt has a
 * timeout and follows the caller's signal. OpenRouter gets the original's headers.
 */
import OpenAI from 'openai';
import { DEFAULT_RETRY, type RetryNotice, type RetryPolicy, withRetries } from './retry.js';
import { type ChatMessage, type GenerateOptions, type GenerateParams, type GenerateResult, type ModelClient, ModelError, type ModelUsage, type ToolCall } from './types.js';
import { errorMessage } from '@smi/bytecode';

/** Settings of the client (transport: none of this changes an answer). */
export interface OpenAiClientOptions {
  apiKey: string;
  baseUrl: string;
  model: string;
  /** Timeout of one HTTP attempt, ms (default 120 s). */
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Extra headers (OpenRouter's are added for openrouter.ai). */
  headers?: Record<string, string>;
  /** Called before each retry. */
  onRetry?: (notice: RetryNotice) => void;
}

/** The original's OpenRouter attribution headers. */
export const OPENROUTER_HEADERS: Readonly<Record<string, string>> = {
  'HTTP-Referer': 'https://github.com/MystenLabs/sui-move-interface-extractor',
  'X-Title': 'Sui Move Interface Extractor Benchmark',
};

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, in ms. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const v = headers.get('retry-after');
  if (v === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Quota and billing answers some providers send as 429: retrying does not help. */
const BILLING = /Insufficient balance|no resource package|^1113:|insufficient_quota|billing/i;

/** A failed SDK call as a {@link ModelError}. */
export function classifyError(e: unknown, callerAborted: boolean): ModelError {
  if (callerAborted) return new ModelError('timeout', 'the request was stopped (timeout or interruption)');
  if (e instanceof OpenAI.APIConnectionTimeoutError) return new ModelError('transient', 'the request timed out');
  if (e instanceof OpenAI.APIUserAbortError) return new ModelError('timeout', 'the request was aborted');
  if (e instanceof OpenAI.APIConnectionError) return new ModelError('transient', `connection failed: ${e.message}`);
  if (e instanceof OpenAI.APIError) {
    const status = e.status;
    const body = e.message;
    const details = { status, retryAfterMs: retryAfterMs(e.headers), requestId: e.requestID ?? null };
    if (status === 429)
      return BILLING.test(body) ? new ModelError('fatal', `provider quota/billing error (429): ${body}`, details) : new ModelError('rate_limit', `rate limited (429): ${body}`, details);
    if (status === 408 || status === 409 || (status !== undefined && status >= 500)) return new ModelError('transient', `server error (${status}): ${body}`, details);
    if (status === 401 || status === 403) return new ModelError('fatal', `auth failed (${status}): ${body}`, details);
    if (status === 404) return new ModelError('fatal', `endpoint or model not found (404): ${body}`, details);
    return new ModelError('fatal', `request refused (${status ?? 'no status'}): ${body}`, details);
  }
  if (e instanceof SyntaxError) return new ModelError('malformed', `the server's answer is not JSON: ${e.message}`);
  return new ModelError('transient', errorMessage(e));
}

function usageOf(u: OpenAI.Completions.CompletionUsage | undefined | null): ModelUsage {
  // An answer without usage (some servers leave it out) is not free: its usage is unknown.
  if (u === undefined || u === null) return { input: 0, output: 0, cached: 0, reasoning: 0, total: 0, unknown: true };
  const input = u?.prompt_tokens ?? 0;
  const output = u?.completion_tokens ?? 0;
  return {
    input,
    output,
    cached: u?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoning: u?.completion_tokens_details?.reasoning_tokens ?? 0,
    total: u?.total_tokens ?? input + output,
  };
}

/** The function calls of an answer (other tool kinds are ignored). */
function toolCallsOf(calls: unknown): ToolCall[] {
  if (!Array.isArray(calls)) return [];
  const out: ToolCall[] = [];
  for (const c of calls as { type?: string; function?: { name?: unknown; arguments?: unknown } }[]) {
    if (c?.function && typeof c.function.name === 'string')
      out.push({ name: c.function.name, arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}) });
  }
  return out;
}

/** An OpenAI-compatible model. */
export class OpenAiCompatibleModel implements ModelClient {
  readonly model: string;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: OpenAiClientOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const openrouter = /openrouter\.ai/i.test(this.baseUrl);
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: this.baseUrl,
      maxRetries: 0,
      timeout: options.requestTimeoutMs ?? 120_000,
      defaultHeaders: { ...(openrouter ? OPENROUTER_HEADERS : {}), ...(options.headers ?? {}) },
    });
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
  }

  async generate(messages: readonly ChatMessage[], params: GenerateParams, options: GenerateOptions = {}): Promise<GenerateResult> {
    const body: Record<string, unknown> = { model: this.model, messages };
    if (params.temperature !== undefined) body.temperature = params.temperature;
    if (params.maxTokens !== undefined && params.maxTokens !== null) body.max_tokens = params.maxTokens;
    if (params.responseFormat !== undefined) body.response_format = params.responseFormat;
    if (params.thinking !== undefined) body.thinking = params.thinking;
    if (params.seed !== undefined) body.seed = params.seed;
    if (params.tools !== undefined && params.tools.length > 0) {
      body.tools = params.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    }
    const signal = options.signal;
    const { value, attempts } = await withRetries(
      async () => {
        try {
          const { data, request_id } = await this.client.chat.completions
            .create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, { ...(signal ? { signal } : {}) })
            .withResponse();
          return { data, requestId: request_id ?? null };
        } catch (e) {
          throw classifyError(e, signal?.aborted === true);
        }
      },
      this.policy,
      { ...(signal ? { signal } : {}), ...(this.options.onRetry ? { onRetry: this.options.onRetry } : {}) },
    );
    const choice = value.data.choices?.[0] as (OpenAI.Chat.ChatCompletion.Choice & { text?: string }) | undefined;
    const usage = usageOf(value.data.usage);
    // The legacy `choices[0].text` is accepted, as the original did.
    const content = choice?.message?.content ?? choice?.text;
    const finishReason = choice?.finish_reason ?? null;
    if (choice === undefined || (typeof content !== 'string' && content !== null && content !== undefined)) {
      throw new ModelError('malformed', `unexpected response shape (no choices[0].message.content)`, { attempts, usage, requestId: value.requestId });
    }
    const toolCalls = toolCallsOf(choice.message?.tool_calls);
    if (toolCalls.length > 0) return { content: typeof content === 'string' ? content : '', finishReason, usage, requestId: value.requestId, cache: 'off', attempts, toolCalls };
    if (typeof content !== 'string' || content.trim() === '') {
      const hint = finishReason === 'length' ? ' (model hit max_tokens; increase SMI_MAX_TOKENS or reduce prompt size)' : '';
      throw new ModelError(finishReason === 'length' ? 'truncated' : 'empty', `model returned empty content${hint}`, { attempts, usage, requestId: value.requestId });
    }
    return { content, finishReason, usage, requestId: value.requestId, cache: 'off', attempts };
  }
}

/**
 * The model layer's shapes: messages, generation parameters, usage, the result of one
 * generation, and the typed error every failure becomes (`kind` decides retries).
 */
import { SmiError } from '@smi/bytecode';

/** A chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The structured output a request asks for. */
export type ResponseFormat = { type: 'json_object' } | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: boolean } };

/** Generation parameters (what decides an answer; transport settings are not here). */
export interface GenerateParams {
  temperature?: number;
  maxTokens?: number | null;
  responseFormat?: ResponseFormat;
  /** Provider "thinking" mode (`SMI_THINKING`): `{type, clear_thinking?}`. */
  thinking?: { type: string; clear_thinking?: boolean };
  seed?: number;
  /** Functions the model may call instead of answering (OpenAI `tools`). */
  tools?: readonly ToolSpec[];
}

/** A function the model may call: a name, what it does, and a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A function call the model made (its arguments as the JSON text it wrote). */
export interface ToolCall {
  name: string;
  arguments: string;
}

/** Tokens of one call (or a sum of calls). */
export interface ModelUsage {
  input: number;
  output: number;
  /** Input tokens the provider served from its own prompt cache. */
  cached: number;
  reasoning: number;
  total: number;
  /**
   * The server's answer said nothing of usage: its counts (0 here) and its cost are unknown,
   * never taken as free. Set on a sum when any part is unknown.
   */
  unknown?: true;
}

/** No tokens. */
export function zeroUsage(): ModelUsage {
  return { input: 0, output: 0, cached: 0, reasoning: 0, total: 0 };
}

/** `a + b`. */
export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  const sum: ModelUsage = { input: a.input + b.input, output: a.output + b.output, cached: a.cached + b.cached, reasoning: a.reasoning + b.reasoning, total: a.total + b.total };
  if (a.unknown === true || b.unknown === true) sum.unknown = true;
  return sum;
}

/** Where an answer came from. */
export type CacheStatus = 'hit' | 'write' | 'off';

/** One generation. */
export interface GenerateResult {
  content: string;
  finishReason: string | null;
  /** Tokens the provider counted (also for a cache hit: what the answer cost when it was made). */
  usage: ModelUsage;
  requestId: string | null;
  cache: CacheStatus;
  /** HTTP attempts made (1 without retries; 0 for a cache hit). */
  attempts: number;
  /** Function calls the model made (only when the request offered `tools`). */
  toolCalls?: ToolCall[];
}

/** Options of one generation. */
export interface GenerateOptions {
  /** Aborts the call (a per-package timeout, Ctrl-C). */
  signal?: AbortSignal;
  /** Epoch of the sample (part of the cache key). */
  epoch?: number;
}

/** A model. */
export interface ModelClient {
  /** Model id as sent to the server. */
  readonly model: string;
  /** Base URL (for the cache key and logs); `scripted:` / `replay:` for the local ones. */
  readonly baseUrl: string;
  generate(messages: readonly ChatMessage[], params: GenerateParams, options?: GenerateOptions): Promise<GenerateResult>;
}

/**
 * How a failed call ends: `rate_limit` and `transient` are retried, `fatal` is not;
 * `timeout` (the caller's deadline or signal), `truncated` (`finish_reason: length`) and
 * `empty` (no content) are answers the caller decides about.
 */
export type ModelErrorKind = 'rate_limit' | 'transient' | 'fatal' | 'timeout' | 'truncated' | 'empty' | 'malformed';

/** A failed model call. */
export class ModelError extends SmiError<ModelErrorKind> {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number; attempts?: number; usage?: ModelUsage; requestId?: string | null } = {},
  ) {
    super(kind, message);
  }

  /** `true` for kinds worth another try. */
  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'transient';
  }
}

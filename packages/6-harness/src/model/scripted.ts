/**
 * Models that need no server: a scripted model (a list of answers, or a function of the
 * messages) for tests and dry runs, and a replay model that answers only from a response
 * cache (an earlier run), failing clearly on anything it has not seen.
 */
import { cacheKey, type ResponseCache } from './cache.js';
import { type ChatMessage, type GenerateOptions, type GenerateParams, type GenerateResult, type ModelClient, ModelError, type ModelUsage, type ToolCall } from './types.js';

/** One scripted answer: text, or a full answer, or an error to throw. */
export type ScriptedAnswer = string | { content: string; finishReason?: string; usage?: Partial<ModelUsage>; toolCalls?: ToolCall[] } | ModelError;

/** A scripted model: answers in order (the last repeats), or computed from the messages. */
export class ScriptedModel implements ModelClient {
  readonly baseUrl = 'scripted:';
  private next = 0;
  /** Every request it received, in order. */
  readonly requests: { messages: readonly ChatMessage[]; params: GenerateParams }[] = [];

  constructor(
    private readonly script: readonly ScriptedAnswer[] | ((messages: readonly ChatMessage[], params: GenerateParams) => ScriptedAnswer),
    readonly model = 'scripted',
  ) {}

  async generate(messages: readonly ChatMessage[], params: GenerateParams, options: GenerateOptions = {}): Promise<GenerateResult> {
    if (options.signal?.aborted) throw new ModelError('timeout', 'the request was stopped (timeout or interruption)');
    this.requests.push({ messages, params });
    let answer: ScriptedAnswer;
    if (typeof this.script === 'function') answer = this.script(messages, params);
    else {
      if (this.script.length === 0) throw new ModelError('fatal', 'the scripted model has no answers');
      answer = this.script[Math.min(this.next++, this.script.length - 1)];
    }
    if (answer instanceof ModelError) throw answer;
    const a = typeof answer === 'string' ? { content: answer } : answer;
    const input = a.usage?.input ?? Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4);
    const output = a.usage?.output ?? Math.ceil(a.content.length / 4);
    const usage: ModelUsage = { input, output, cached: a.usage?.cached ?? 0, reasoning: a.usage?.reasoning ?? 0, total: a.usage?.total ?? input + output };
    const finishReason = a.finishReason ?? (a.toolCalls?.length ? 'tool_calls' : 'stop');
    if (a.toolCalls && a.toolCalls.length > 0) return { content: a.content, finishReason, usage, requestId: null, cache: 'off', attempts: 1, toolCalls: a.toolCalls };
    if (a.content.trim() === '') {
      const hint = finishReason === 'length' ? ' (model hit max_tokens; increase SMI_MAX_TOKENS or reduce prompt size)' : '';
      throw new ModelError(finishReason === 'length' ? 'truncated' : 'empty', `model returned empty content${hint}`, { usage, attempts: 1 });
    }
    return { content: a.content, finishReason, usage, requestId: null, cache: 'off', attempts: 1 };
  }
}

/** Stored answers by cache key (a response cache, or the calls an earlier run recorded). */
export interface AnswerSource {
  /** What the answers come from, for errors. */
  readonly description: string;
  answer(key: string): Omit<GenerateResult, 'cache' | 'attempts'> | undefined;
}

/** A response cache as an {@link AnswerSource}. */
export function cacheAnswers(cache: ResponseCache): AnswerSource {
  return { description: `the response cache ${cache.dir}`, answer: (key) => cache.getByKey(key) };
}

/** A model that answers only from stored answers (no network); a request never answered before is an error. */
export class ReplayModel implements ModelClient {
  private readonly source: AnswerSource;

  constructor(
    source: ResponseCache | AnswerSource,
    readonly model: string,
    readonly baseUrl: string,
  ) {
    this.source = 'answer' in source ? source : cacheAnswers(source);
  }

  async generate(messages: readonly ChatMessage[], params: GenerateParams, options: GenerateOptions = {}): Promise<GenerateResult> {
    const hit = this.source.answer(cacheKey({ baseUrl: this.baseUrl, model: this.model, messages, params, epoch: options.epoch ?? 0 }));
    if (hit === undefined) throw new ModelError('fatal', `replay: no stored answer for this request in ${this.source.description} (model ${this.model} at ${this.baseUrl})`);
    return { ...hit, cache: 'hit', attempts: 0 };
  }
}

/**
 * The response cache on disk: one file per request, keyed by the SHA-256 of canonical JSON
 * over what decides an answer (base URL, model, messages, generation parameters, epoch),
 * never over transport settings (timeouts, retries, concurrency). Errors, empty and
 * truncated answers are never stored. `CachedModel` puts it in front of any model.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '@smi/bytecode';
import type { ChatMessage, GenerateOptions, GenerateParams, GenerateResult, ModelClient, ModelUsage, ToolCall } from './types.js';

/** What a cache key covers. */
export interface CacheKeyInput {
  baseUrl: string;
  model: string;
  messages: readonly ChatMessage[];
  params: GenerateParams;
  epoch: number;
}

/** The key of a request. */
export function cacheKey(input: CacheKeyInput): string {
  const body = {
    v: 1,
    base_url: input.baseUrl.replace(/\/+$/, ''),
    model: input.model,
    messages: input.messages.map((m) => ({ role: m.role, content: m.content })),
    params: input.params,
    epoch: input.epoch,
  };
  return createHash('sha256')
    .update(canonicalJson(body, { for: 'hash' }))
    .digest('hex');
}

/** A stored answer. */
export interface CacheEntry {
  key: string;
  model: string;
  base_url: string;
  created_at: string;
  content: string;
  finish_reason: string | null;
  usage: ModelUsage;
  request_id: string | null;
  /** Function calls of the answer (absent when it made none). */
  tool_calls?: ToolCall[];
}

/** Summary of a cache directory. */
export interface CacheStats {
  entries: number;
  bytes: number;
  oldest: string | null;
  newest: string | null;
  byModel: Record<string, number>;
}

/** A directory of cached answers. */
export class ResponseCache {
  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored answer of a request, or `undefined`. */
  get(input: CacheKeyInput): Omit<GenerateResult, 'cache' | 'attempts'> | undefined {
    return this.getByKey(cacheKey(input));
  }

  /** The stored answer under `key`, or `undefined`. */
  getByKey(key: string): Omit<GenerateResult, 'cache' | 'attempts'> | undefined {
    const file = this.fileOf(key);
    if (!existsSync(file)) return undefined;
    try {
      const e = JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
      return { content: e.content, finishReason: e.finish_reason, usage: e.usage, requestId: e.request_id, ...(e.tool_calls ? { toolCalls: e.tool_calls } : {}) };
    } catch {
      return undefined; // A damaged entry is a miss; the next write replaces it.
    }
  }

  /** Store an answer (written to a temp file and renamed, so readers never see half of one). */
  put(input: CacheKeyInput, result: GenerateResult): void {
    const key = cacheKey(input);
    const file = this.fileOf(key);
    mkdirSync(path.dirname(file), { recursive: true });
    const entry: CacheEntry = {
      key,
      model: input.model,
      base_url: input.baseUrl,
      created_at: new Date().toISOString(),
      content: result.content,
      finish_reason: result.finishReason,
      usage: result.usage,
      request_id: result.requestId,
      ...(result.toolCalls && result.toolCalls.length > 0 ? { tool_calls: result.toolCalls } : {}),
    };
    // pid and a random part: pods sharing a cache directory all run smi as pid 1.
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, JSON.stringify(entry) + '\n');
    renameSync(temp, file);
  }

  /** Every entry (for `smi cache ls`). */
  *entries(): Iterable<CacheEntry & { file: string; bytes: number }> {
    if (!existsSync(this.dir)) return;
    for (const sub of readdirSync(this.dir).sort()) {
      const d = path.join(this.dir, sub);
      if (!statSync(d).isDirectory()) continue;
      for (const f of readdirSync(d)
        .filter((x) => x.endsWith('.json'))
        .sort()) {
        const file = path.join(d, f);
        try {
          const e = JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
          yield { ...e, file, bytes: statSync(file).size };
        } catch {
          yield {
            key: f.slice(0, -5),
            model: '?',
            base_url: '?',
            created_at: statSync(file).mtime.toISOString(),
            content: '',
            finish_reason: null,
            usage: { input: 0, output: 0, cached: 0, reasoning: 0, total: 0 },
            request_id: null,
            file,
            bytes: statSync(file).size,
          };
        }
      }
    }
  }

  /** Counts, size, age range, entries per model. */
  stats(): CacheStats {
    const s: CacheStats = { entries: 0, bytes: 0, oldest: null, newest: null, byModel: {} };
    for (const e of this.entries()) {
      s.entries++;
      s.bytes += e.bytes;
      if (s.oldest === null || e.created_at < s.oldest) s.oldest = e.created_at;
      if (s.newest === null || e.created_at > s.newest) s.newest = e.created_at;
      s.byModel[e.model] = (s.byModel[e.model] ?? 0) + 1;
    }
    return s;
  }

  /** Remove entries older than `cutoff` (and of `model` only, when given); how many went. */
  prune(cutoff: Date, model?: string): number {
    let n = 0;
    for (const e of [...this.entries()]) {
      if (e.created_at >= cutoff.toISOString() || (model !== undefined && e.model !== model)) continue;
      rmSync(e.file, { force: true });
      n++;
    }
    return n;
  }

  /** Remove every entry; how many went. */
  clear(): number {
    const n = [...this.entries()].length;
    if (existsSync(this.dir)) for (const sub of readdirSync(this.dir)) if (/^[0-9a-f]{2}$/.test(sub)) rmSync(path.join(this.dir, sub), { recursive: true, force: true });
    return n;
  }
}

/** A model behind a cache: hits cost nothing; good answers are stored. */
export class CachedModel implements ModelClient {
  readonly model: string;
  readonly baseUrl: string;

  constructor(
    private readonly inner: ModelClient,
    private readonly cache: ResponseCache,
  ) {
    this.model = inner.model;
    this.baseUrl = inner.baseUrl;
  }

  async generate(messages: readonly ChatMessage[], params: GenerateParams, options: GenerateOptions = {}): Promise<GenerateResult> {
    const input: CacheKeyInput = { baseUrl: this.baseUrl, model: this.model, messages, params, epoch: options.epoch ?? 0 };
    const hit = this.cache.get(input);
    if (hit !== undefined) return { ...hit, cache: 'hit', attempts: 0 };
    const result = await this.inner.generate(messages, params, options);
    // Truncated answers are not stored: the next run asks again.
    if (result.finishReason === 'length') return { ...result, cache: 'off' };
    this.cache.put(input, result);
    return { ...result, cache: 'write' };
  }
}

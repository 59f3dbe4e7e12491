/**
 * The model layer against a fake OpenAI-compatible server on 127.0.0.1: answers, retries
 * by kind (429 with Retry-After, 500), timeouts, malformed bodies, truncation, the
 * response cache, and configuration as the original read it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeReply, type FakeServer, startFakeOpenAi } from '../../../test-support/fake-openai.js';
import {
  CachedModel,
  ModelConfigError,
  ModelError,
  OpenAiCompatibleModel,
  readDotenv,
  readModelsFile,
  readPriceTable,
  ReplayModel,
  resolveModelAlias,
  resolveModelConfig,
  ResponseCache,
  ScriptedModel,
} from '../src/index.js';
import { backoffMs, withRetries } from '../src/model/retry.js';
import { cacheKey } from '../src/model/cache.js';
import { costOf } from '../src/accounting.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(script: (i: number) => FakeReply): Promise<FakeServer> {
  server = await startFakeOpenAi((req) => script(req.index));
  return server;
}

function client(url: string, extra: Partial<ConstructorParameters<typeof OpenAiCompatibleModel>[0]> = {}): OpenAiCompatibleModel {
  return new OpenAiCompatibleModel({ apiKey: 'sk-test', baseUrl: url, model: 'fake-model', retry: { baseDelayMs: 10, maxDelayMs: 40 }, ...extra });
}

const MSG = [{ role: 'user' as const, content: 'hi' }];

describe('OpenAI-compatible client against a loopback server', () => {
  it('returns the answer, usage, request id and finish reason; sends the parameters', async () => {
    const s = await serve(() => ({ content: '{"key_types": ["0x1::m::S"]}', usage: { prompt_tokens: 11, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 3 } } }));
    const r = await client(s.url).generate(MSG, { temperature: 0, maxTokens: 50, responseFormat: { type: 'json_object' } });
    expect(r).toMatchObject({ content: '{"key_types": ["0x1::m::S"]}', finishReason: 'stop', requestId: 'req_0', attempts: 1, usage: { input: 11, output: 7, cached: 3, total: 18 } });
    expect(s.requests[0].body).toMatchObject({ model: 'fake-model', temperature: 0, max_tokens: 50, response_format: { type: 'json_object' } });
    expect(s.requests[0].headers.authorization).toBe('Bearer sk-test');
  });

  it("OpenRouter endpoints get the original's attribution headers; others do not", async () => {
    const s = await serve(() => ({ content: '[]' }));
    await client(s.url.replace(/\/v1$/, '/openrouter.ai/api/v1')).generate(MSG, {});
    await client(s.url).generate(MSG, {});
    expect(s.requests[0].headers).toMatchObject({ 'http-referer': 'https://github.com/MystenLabs/sui-move-interface-extractor', 'x-title': 'Sui Move Interface Extractor Benchmark' });
    expect(s.requests[1].headers['x-title']).toBeUndefined();
  });

  it('429 with Retry-After waits as told, then succeeds', async () => {
    const s = await serve((i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' }, content: 'slow down' } : { content: '[]' }));
    const notices: number[] = [];
    // The wait is a timer: with fake timers, the second request goes out only once 1000 ms have passed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let retried!: () => void;
      const retry = new Promise<void>((resolve) => (retried = resolve));
      const answer = client(s.url, {
        onRetry: (n) => {
          notices.push(n.delayMs);
          retried();
        },
      }).generate(MSG, {});
      await retry;
      await vi.advanceTimersByTimeAsync(999);
      expect(s.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      const r = await answer;
      expect(s.requests).toHaveLength(2);
      expect(notices).toEqual([1000]);
      expect(r.attempts).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('500s are retried with backoff up to the attempt cap, then fail as transient', async () => {
    const s = await serve(() => ({ status: 500, content: 'boom' }));
    const err = await client(s.url, { retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } })
      .generate(MSG, {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).kind).toBe('transient');
    expect((err as ModelError).details.attempts).toBe(3);
    expect(s.requests).toHaveLength(3);
  });

  it('fatal errors (401, 404, a billing 429) are not retried', async () => {
    for (const reply of [{ status: 401 }, { status: 404 }, { status: 429, content: 'insufficient_quota: add billing' }] as FakeReply[]) {
      const s = await serve(() => reply);
      const err = (await client(s.url)
        .generate(MSG, {})
        .catch((e: unknown) => e)) as ModelError;
      expect(err.kind).toBe('fatal');
      expect(s.requests).toHaveLength(1);
      await s.close();
      server = null;
    }
  });

  it('a hanging server times out per request (retried as transient), and the caller signal stops everything', async () => {
    const s = await serve(() => ({ hang: true }));
    const err = (await client(s.url, { requestTimeoutMs: 200, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 5 } })
      .generate(MSG, {})
      .catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('transient');
    expect(err.message).toMatch(/timed out/);
    expect(s.requests).toHaveLength(2);
    const aborted = (await client(s.url)
      .generate(MSG, {}, { signal: AbortSignal.timeout(150) })
      .catch((e: unknown) => e)) as ModelError;
    expect(aborted.kind).toBe('timeout');
  });

  it('a deadline stops retries that would end after it', async () => {
    const s = await serve(() => ({ status: 503 }));
    const err = (await client(s.url, { retry: { maxAttempts: 10, baseDelayMs: 2000, maxDelayMs: 2000, deadline: Date.now() + 500 } })
      .generate(MSG, {})
      .catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/no time left to retry/);
    expect(s.requests).toHaveLength(1);
  });

  it('malformed JSON, empty content and finish_reason "length" are typed', async () => {
    let s = await serve(() => ({ raw: '{"choices": [' }));
    expect(
      (
        (await client(s.url)
          .generate(MSG, {})
          .catch((e: unknown) => e)) as ModelError
      ).kind,
    ).toBe('malformed');
    await s.close();
    s = await serve(() => ({ content: '', finishReason: 'length' }));
    const trunc = (await client(s.url)
      .generate(MSG, {})
      .catch((e: unknown) => e)) as ModelError;
    expect(trunc.kind).toBe('truncated');
    expect(trunc.message).toMatch(/hit max_tokens/);
    await s.close();
    s = await serve(() => ({ content: null }));
    expect(
      (
        (await client(s.url)
          .generate(MSG, {})
          .catch((e: unknown) => e)) as ModelError
      ).kind,
    ).toBe('empty');
    await s.close();
    s = await serve(() => ({ content: '{"key_types": ["0x1::a', finishReason: 'length' }));
    const cut = await client(s.url).generate(MSG, {});
    expect(cut.finishReason).toBe('length');
  });

  it('backoff is exponential, capped, with jitter; withRetries passes other errors through', async () => {
    const p = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 400 };
    expect([1, 2, 3, 4].map((a) => backoffMs(p, a, () => 1))).toEqual([100, 200, 400, 400]);
    expect(backoffMs(p, 1, () => 0)).toBe(50);
    await expect(withRetries(() => Promise.reject(new TypeError('bug')), p)).rejects.toThrow(TypeError);
  });
});

describe('response cache', () => {
  const dir = (): string => mkdtempSync(path.join(os.tmpdir(), 'smi-cache-'));

  it('a second identical request is a hit (no call, same answer); errors and truncated answers are not stored', async () => {
    const inner = new ScriptedModel(['first', new ModelError('transient', 'down'), { content: 'cut', finishReason: 'length' }, 'fourth']);
    const cache = new ResponseCache(dir());
    const m = new CachedModel(inner, cache);
    const a = await m.generate(MSG, { temperature: 0 });
    expect(a.cache).toBe('write');
    const b = await m.generate(MSG, { temperature: 0 });
    expect(b).toMatchObject({ cache: 'hit', content: 'first', attempts: 0 });
    expect(inner.requests).toHaveLength(1);
    await expect(m.generate(MSG, { temperature: 1 })).rejects.toThrow('down');
    const cut = await m.generate(MSG, { temperature: 1 });
    expect(cut).toMatchObject({ cache: 'off', finishReason: 'length' });
    const again = await m.generate(MSG, { temperature: 1 });
    expect(again).toMatchObject({ cache: 'write', content: 'fourth' });
    expect(cache.stats().entries).toBe(2);
  });

  it('the key covers base URL, model, messages, parameters and epoch (not transport settings)', () => {
    const base = { baseUrl: 'http://x/v1', model: 'm', messages: MSG, params: { temperature: 0 }, epoch: 0 };
    const k = cacheKey(base);
    expect(cacheKey({ ...base, baseUrl: 'http://x/v1/' })).toBe(k);
    for (const change of [{ baseUrl: 'http://y/v1' }, { model: 'n' }, { messages: [{ role: 'user' as const, content: 'ho' }] }, { params: { temperature: 1 } }, { epoch: 1 }])
      expect(cacheKey({ ...base, ...change })).not.toBe(k);
    // Key order of the parameters does not matter.
    expect(cacheKey({ ...base, params: { maxTokens: 5, temperature: 0 } })).toBe(cacheKey({ ...base, params: { temperature: 0, maxTokens: 5 } }));
  });

  it('replay answers from the cache only; ls/prune/clear', async () => {
    const cache = new ResponseCache(dir());
    await new CachedModel(new ScriptedModel(['cached answer']), cache).generate(MSG, {});
    const replay = new ReplayModel(cache, 'scripted', 'scripted:');
    expect((await replay.generate(MSG, {})).content).toBe('cached answer');
    await expect(replay.generate([{ role: 'user', content: 'new' }], {})).rejects.toThrow(/no stored answer for this request in the response cache/);
    expect([...cache.entries()].map((e) => e.model)).toEqual(['scripted']);
    expect(cache.prune(new Date(0))).toBe(0);
    expect(cache.prune(new Date(Date.now() + 1000))).toBe(1);
    expect(cache.clear()).toBe(0);
  });
});

describe('configuration as the original read it', () => {
  it('precedence: process wins for SMI_API_KEY and SMI_API_BASE_URL, the .env file for the rest', () => {
    const c = resolveModelConfig(
      { SMI_API_KEY: 'proc', SMI_MODEL: 'proc-model', SMI_API_BASE_URL: 'http://proc/v1/' },
      { SMI_API_KEY: 'file', SMI_MODEL: 'file-model', SMI_API_BASE_URL: 'http://file/v1', SMI_TEMPERATURE: '0.5' },
    );
    expect(c).toMatchObject({ apiKey: 'proc', model: 'file-model', baseUrl: 'http://proc/v1', temperature: 0.5, maxTokens: 4096, maxRequestRetries: 6 });
    // max_tokens: 4096 unless told otherwise, as the original sent; `none` sends none.
    expect(resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm', SMI_MAX_TOKENS: '512' }).maxTokens).toBe(512);
    expect(resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm', SMI_MAX_TOKENS: 'none' }).maxTokens).toBeNull();
    // A .env SMI_API_KEY beats other process keys; provider keys in order.
    expect(resolveModelConfig({ OPENAI_API_KEY: 'o', SMI_MODEL: 'm' }, { SMI_API_KEY: 'f' }).apiKey).toBe('f');
    expect(resolveModelConfig({ OPENROUTER_API_KEY: 'r', OPENAI_API_KEY: 'o', SMI_MODEL: 'm' }).apiKey).toBe('o');
    expect(resolveModelConfig({ SMI_API_KEY: 'k', OPENAI_MODEL: 'om' }).model).toBe('om');
    expect(resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm' }).baseUrl).toBe('https://api.openai.com/v1');
  });

  it('bad values are errors naming the variable (the original silently defaulted)', () => {
    expect(() => resolveModelConfig({ SMI_MODEL: 'm' })).toThrow(/missing API key/);
    expect(() => resolveModelConfig({ SMI_API_KEY: 'k' })).toThrow(/missing model/);
    expect(() => resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm', SMI_TEMPERATURE: 'hot' })).toThrow(ModelConfigError);
    expect(() => resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm', SMI_MAX_TOKENS: '0' })).toThrow(/SMI_MAX_TOKENS=0: out of range/);
    expect(() => resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm', SMI_CLEAR_THINKING: 'maybe' })).toThrow(/SMI_CLEAR_THINKING/);
    expect(() => resolveModelConfig({ SMI_API_KEY: 'k', SMI_MODEL: 'm', SMI_RESPONSE_FORMAT: 'xml' })).toThrow(/json_object only/);
  });

  it('.env files and prices.yaml', () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'smi-cfg-'));
    writeFileSync(path.join(d, '.env'), '# comment\nSMI_MODEL=from-file\nexport SMI_TEMPERATURE=0.2\nQUOTED="a b"\n');
    expect(readDotenv(path.join(d, '.env'))).toMatchObject({ SMI_MODEL: 'from-file', QUOTED: 'a b' });
    writeFileSync(path.join(d, 'prices.yaml'), 'models:\n  fake-model: {input: 2, output: 8, cached_input: 0.5}\n');
    const prices = readPriceTable(path.join(d, 'prices.yaml'));
    expect(costOf({ input: 1_000_000, output: 500_000, cached: 200_000, reasoning: 0, total: 1_500_000 }, prices['fake-model'])).toBe(1.6 + 0.1 + 4);
    writeFileSync(path.join(d, 'bad.yaml'), 'models:\n  x: {input: free}\n');
    expect(() => readPriceTable(path.join(d, 'bad.yaml'))).toThrow(/needs input and output prices/);
  });
});

describeWithFixtures('the shared models.yaml', ['fixtures', 'harness', 'models.yaml'], () => {
  it('resolves its aliases, and passes other names through', () => {
    const models = readModelsFile(fixturePath('fixtures', 'harness', 'models.yaml'));
    expect(resolveModelAlias(models, 'gpt-5')).toBe('openai/gpt-5.2');
    expect(resolveModelAlias(models, 'default')).toBe('anthropic/claude-sonnet-4.5');
    expect(resolveModelAlias(models, 'my/own-model')).toBe('my/own-model');
  });
});

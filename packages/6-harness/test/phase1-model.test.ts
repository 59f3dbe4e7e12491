/**
 * Phase I with a model: answers read as the original read them, outcomes kept apart,
 * the prompt halved on truncation, structured output and its fallback, error limits,
 * `--retry-errors`, the budget, the run deadline, and the response cache (a re-run
 * costs nothing and gives the same results).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { startFakeOpenAi } from '../../../test-support/fake-openai.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import {
  CachedModel,
  type ChatMessage,
  DiskRunStore,
  type GenerateOptions,
  type GenerateResult,
  type ModelClient,
  ModelError,
  MemoryRunStore,
  phase1SummaryText,
  OpenAiCompatibleModel,
  type PackageResult,
  plain,
  ResponseCache,
  runPhase1,
  ScriptedModel,
} from '../src/index.js';
import { keyTypes } from '../src/phase1/truth.js';
import { sleep } from '../src/model/retry.js';
import { stable, tempDir } from './support.js';

const CORPUS = fixturePath('corpus');
type Row = {
  package_id: string;
  attempts: number;
  max_structs_used: number | null;
  outcome: string;
  parse_mode: string | null;
  error: string | null;
  score: { f1: number };
  usage: { calls: number; cache_hits: number; cost_usd: number | null };
};

function rows(run: { runJson: Record<string, unknown> }): Row[] {
  return plain(run.runJson.packages as never) as Row[];
}

/** The package id a Phase I prompt is about. */
function packageOf(messages: readonly ChatMessage[]): string {
  return /"package_id": "(0x[0-9a-f]+)"/.exec(messages.at(-1)!.content)![1];
}

/** The key types of the package a prompt is about (a perfect model). */
function truthOf(messages: readonly ChatMessage[]): string[] {
  const id = packageOf(messages);
  // The prompt shows addresses; the truth is recomputed from the corpus for the answer.
  return TRUTH.get(id) ?? [];
}
const TRUTH = new Map<string, string[]>();

async function loadTruth(): Promise<void> {
  if (TRUTH.size > 0) return;
  const { discoverPackages } = await import('../src/index.js');
  const { packageInterface } = await import('../src/phase1/truth.js');
  const { loadPackageDir } = await import('@smi/bytecode');
  const packages = discoverPackages(CORPUS).packages;
  if (packages.length === 0) throw new Error(`no packages in ${CORPUS}`);
  for (const p of packages)
    TRUTH.set(
      p.packageId,
      keyTypes(
        packageInterface(
          p.packageId,
          loadPackageDir(p.packageDir).modules.map((m) => m.module),
        ),
      ),
    );
}

/** A model that answers after `ms`, honouring the signal. */
class SlowModel implements ModelClient {
  readonly model = 'slow';
  readonly baseUrl = 'scripted:slow';
  calls = 0;
  constructor(private readonly ms: number) {}
  async generate(messages: readonly ChatMessage[], _p: unknown, o: GenerateOptions = {}): Promise<GenerateResult> {
    this.calls++;
    try {
      await sleep(this.ms, o.signal);
    } catch {
      throw new ModelError('timeout', 'the request was stopped');
    }
    return {
      content: JSON.stringify({ key_types: truthOf(messages) }),
      finishReason: 'stop',
      usage: { input: 100, output: 10, cached: 0, reasoning: 0, total: 110 },
      requestId: null,
      cache: 'off',
      attempts: 1,
    };
  }
}

const base = { corpusRoot: CORPUS, samples: 0, seed: 0n, agent: 'real-openai-compatible' as const, runId: 'm', continueOnError: true };

describeWithFixtures('Phase I with a model', ['corpus'], () => {
  it('reads JSON, fenced JSON and prose; garbage is "unparseable" and stays in the denominators', async () => {
    await loadTruth();
    const formats = [
      (t: string[]) => JSON.stringify({ key_types: t }),
      (t: string[]) => '```json\n' + JSON.stringify(t) + '\n```',
      (t: string[]) => `Here you go: ${JSON.stringify({ key_types: t })} hope it helps`,
      () => 'I cannot answer that.',
    ];
    let n = 0;
    const model = new ScriptedModel((m) => formats[n++ % 4](truthOf(m)));
    const r = await runPhase1({ ...base, model, concurrency: 1, store: new MemoryRunStore() });
    const got = rows(r);
    expect(got.map((x) => x.parse_mode)).toEqual(got.map((_, i) => ['json', 'fenced', 'embedded', null][i % 4]));
    const unparseable = got.filter((x) => x.outcome === 'unparseable');
    expect(unparseable).toHaveLength(3);
    for (const x of unparseable) expect(x.score.f1).toBe(0);
    const a = plain(r.runJson.aggregate as never) as { packages_total: number; errors: number; outcomes: Record<string, number> };
    expect(a.packages_total).toBe(12);
    expect(a.errors).toBe(3);
    expect(a.outcomes.correct + a.outcomes.unparseable).toBe(12);
  });

  it('an empty or truncated answer halves the structs in the prompt (at least 5), up to 4 attempts', async () => {
    const model = new ScriptedModel(() => ({ content: '', finishReason: 'length' }));
    const framework = { ids: [`0x${'0'.repeat(63)}2`], source: 'one' };
    const r = await runPhase1({ ...base, ids: framework, model, store: new MemoryRunStore(), maxStructsInPrompt: 40 });
    const row = rows(r)[0];
    expect(row).toMatchObject({ attempts: 4, max_structs_used: 5, outcome: 'limit' });
    expect(row.error).toMatch(/hit max_tokens/);
    // The structs shown in each prompt.
    expect(model.requests.map((q) => (q.messages[1].content.match(/"fields":/g) ?? []).length)).toEqual([40, 20, 10, 5]);
  });

  it('without --continue-on-error the first failure stops the run (status error); --max-errors bounds it', async () => {
    const failing = new ScriptedModel([new ModelError('fatal', 'auth failed (401)')]);
    const stopped = await runPhase1({ ...base, continueOnError: false, concurrency: 1, model: failing, store: new MemoryRunStore() });
    expect(stopped.status).toBe('error');
    expect(stopped.stopReason).toBe('error');
    expect(rows(stopped)).toHaveLength(1);
    expect(rows(stopped)[0].outcome).toBe('model_error');
    const bounded = await runPhase1({ ...base, maxErrors: 2, concurrency: 1, model: new ScriptedModel([new ModelError('fatal', 'x')]), store: new MemoryRunStore() });
    expect(bounded.stopReason).toBe('max_errors');
    expect(rows(bounded)).toHaveLength(3);
  });

  it('--retry-errors runs only the failed packages again, keeping their earlier tries', async () => {
    await loadTruth();
    const dir = path.join(tempDir(), 'run');
    const flaky = new Set<string>();
    const first = new ScriptedModel((m) => {
      const id = packageOf(m);
      if (id.startsWith('0x1eabed72') || id.startsWith('0xc5b2a504')) {
        flaky.add(id);
        return new ModelError('transient', 'server error (503): try later');
      }
      return JSON.stringify({ key_types: truthOf(m) });
    });
    const r1 = await runPhase1({ ...base, model: first, store: DiskRunStore.at(dir) });
    expect(rows(r1).filter((x) => x.outcome === 'model_error')).toHaveLength(2);
    const second = new ScriptedModel((m) => JSON.stringify({ key_types: truthOf(m) }));
    const r2 = await runPhase1({ ...base, model: second, store: DiskRunStore.at(dir), resume: true, retryErrors: true });
    expect(second.requests.map((q) => packageOf(q.messages)).sort()).toEqual([...flaky].sort());
    expect(rows(r2).every((x) => x.outcome === 'correct')).toBe(true);
    const retried = DiskRunStore.at(dir)
      .results()
      .results.filter((x: PackageResult) => x.earlier !== undefined);
    expect(retried.map((x) => x.earlier![0].outcome)).toEqual(['model_error', 'model_error']);
    expect(r2.totals.sessions).toBe(2);
    expect(r2.totals.calls).toBe(12 + 2);
  });

  it('--budget-usd stops scheduling once spent; resumed with more, the run finishes and totals add up', async () => {
    await loadTruth();
    const dir = path.join(tempDir(), 'run');
    const answer = (m: readonly ChatMessage[]) => ({ content: JSON.stringify({ key_types: truthOf(m) }), usage: { input: 1000, output: 0 } });
    // $10 per million input tokens: each call costs $0.01.
    const price = { input: 10, output: 0 };
    const r1 = await runPhase1({ ...base, concurrency: 1, model: new ScriptedModel(answer), price, budgetUsd: 0.03, store: DiskRunStore.at(dir) });
    expect(r1.status).toBe('cancelled');
    expect(r1.stopReason).toBe('budget');
    // A call is sent only when the budget can pay for the most it may cost: never over the budget.
    expect(rows(r1).length).toBeGreaterThanOrEqual(1);
    expect(rows(r1).length).toBeLessThan(12);
    expect(r1.totals.spent_usd).toBe(rows(r1).length * 0.01);
    expect(r1.totals.spent_usd as number).toBeLessThanOrEqual(0.03);
    const r2 = await runPhase1({ ...base, concurrency: 1, model: new ScriptedModel(answer), price, budgetUsd: 1, store: DiskRunStore.at(dir), resume: true });
    expect(r2.status).toBe('success');
    expect(r2.totals.spent_usd).toBe(0.12);
    expect(r2.totals.calls).toBe(12);
    expect((plain(r2.runJson.aggregate as never) as { cost_usd: number }).cost_usd).toBe(0.12);
    await expect(runPhase1({ ...base, model: new ScriptedModel(answer), budgetUsd: 1, store: new MemoryRunStore() })).rejects.toThrow(/needs the model's price/);
  });

  it('an unknown price is null, never 0', async () => {
    await loadTruth();
    const r = await runPhase1({ ...base, samples: 2, model: new ScriptedModel((m) => JSON.stringify(truthOf(m))), store: new MemoryRunStore() });
    expect((plain(r.runJson.aggregate as never) as { cost_usd: unknown }).cost_usd).toBeNull();
    expect(rows(r)[0].usage.cost_usd).toBeNull();
    expect(r.totals.spent_usd).toBeNull();
  });

  it('the per-package timeout is a limit of that package; the run deadline leaves packages for a resume', async () => {
    await loadTruth();
    const slow = await runPhase1({ ...base, samples: 2, model: new SlowModel(2000), perPackageTimeoutSeconds: 0.2, store: new MemoryRunStore() });
    for (const x of rows(slow)) expect(x).toMatchObject({ outcome: 'limit' });
    expect((plain(slow.runJson.aggregate as never) as { timeouts: number }).timeouts).toBe(2);
    const dir = path.join(tempDir(), 'run');
    const cut = await runPhase1({ ...base, concurrency: 2, model: new SlowModel(150), maxRunSeconds: 0.5, store: DiskRunStore.at(dir) });
    expect(cut.status).toBe('cancelled');
    expect(cut.stopReason).toBe('deadline');
    const done = rows(cut).length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(12);
    expect(rows(cut).every((x) => x.outcome === 'correct')).toBe(true);
    const rest = await runPhase1({ ...base, concurrency: 2, model: new SlowModel(10), store: DiskRunStore.at(dir), resume: true });
    expect(rest.status).toBe('success');
    expect(rows(rest).every((x) => x.outcome === 'correct')).toBe(true);
  });

  it('re-running a finished run with the cache costs no tokens and gives identical results', async () => {
    await loadTruth();
    const cache = new ResponseCache(path.join(tempDir(), 'cache'));
    const inner = new ScriptedModel((m) => ({ content: JSON.stringify({ key_types: truthOf(m).slice(1) }), usage: { input: 500, output: 20 } }));
    const price = { input: 1, output: 4 };
    const first = await runPhase1({ ...base, model: new CachedModel(inner, cache), price, store: new MemoryRunStore() });
    const calls = inner.requests.length;
    const second = await runPhase1({ ...base, model: new CachedModel(inner, cache), price, store: new MemoryRunStore() });
    expect(inner.requests.length).toBe(calls);
    expect(second.totals.spent_usd).toBe(0);
    expect(second.totals.cache_hits).toBe(12);
    expect(first.totals.spent_usd).toBeGreaterThan(0);
    expect(stable(second.runJson)).toEqual(stable(first.runJson));
  });

  it('end to end against the loopback server: json_schema asked, dropped when the server refuses it', async () => {
    await loadTruth();
    const server = await startFakeOpenAi((req) => {
      if (req.body.response_format?.type === 'json_schema') return { status: 400, content: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model" };
      const id = /"package_id": "(0x[0-9a-f]+)"/.exec(req.body.messages!.at(-1)!.content)![1];
      return { content: '```json\n' + JSON.stringify({ key_types: TRUTH.get(id) }) + '\n```' };
    });
    try {
      const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
      const r = await runPhase1({ ...base, samples: 3, concurrency: 1, model, store: new MemoryRunStore() });
      expect(rows(r).map((x) => x.outcome)).toEqual(['correct', 'correct', 'correct']);
      // One refusal, then plain requests.
      expect(server.requests.map((q) => q.body.response_format?.type ?? 'none')).toEqual(['json_schema', 'none', 'none', 'none']);
      expect(rows(r)[0].attempts).toBe(2);
      // The run JSON says which model answered (spec.json is not written without a run directory).
      expect((plain(r.runJson as never) as { model: string }).model).toBe('fake-model');
    } finally {
      await server.close();
    }
  });

  it('json_schema refused while other requests are in flight: every one of them asks again without it (none is a model_error)', async () => {
    await loadTruth();
    // The refusal takes a while, so requests 2..4 are sent with json_schema before the first comes back.
    const server = await startFakeOpenAi((req) => {
      if (req.body.response_format?.type === 'json_schema') return { status: 400, delayMs: 40, content: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model" };
      const id = /"package_id": "(0x[0-9a-f]+)"/.exec(req.body.messages!.at(-1)!.content)![1];
      return { content: JSON.stringify({ key_types: TRUTH.get(id) }) };
    });
    try {
      const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
      const r = await runPhase1({ ...base, samples: 12, concurrency: 4, model, store: new MemoryRunStore() });
      expect(rows(r).map((x) => x.outcome)).toEqual(new Array(12).fill('correct'));
      const formats = server.requests.map((q) => q.body.response_format?.type ?? 'none');
      // The four first requests went out with json_schema, each was refused and asked again; the rest never asked.
      expect(formats.filter((f) => f === 'json_schema')).toHaveLength(4);
      expect(formats.filter((f) => f === 'none')).toHaveLength(12);
      expect(rows(r).filter((x) => x.attempts === 2)).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it('an answer without usage is unknown (null tokens cost), said so, and a budget starts no more packages', async () => {
    await loadTruth();
    const server = await startFakeOpenAi((req) => {
      const id = /"package_id": "(0x[0-9a-f]+)"/.exec(req.body.messages!.at(-1)!.content)![1];
      return { content: JSON.stringify({ key_types: TRUTH.get(id) }), usage: req.index % 3 === 1 ? null : { prompt_tokens: 1000, completion_tokens: 0 } };
    });
    try {
      const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
      const price = { input: 10, output: 0 };
      // Without a budget: the run finishes; the unknown answer makes the cost unknown, never $0.
      const store = new MemoryRunStore();
      const r = await runPhase1({ ...base, samples: 3, concurrency: 1, model, price, store });
      expect(rows(r).map((x) => x.outcome)).toEqual(['correct', 'correct', 'correct']);
      expect(r.totals.spent_usd).toBeNull();
      expect(r.totals.unknown_usage_calls).toBe(1);
      // Each request is written when sent, then its answer: the answers' costs, one unknown.
      expect(
        store
          .ledger()
          .filter((e) => e.sent !== true)
          .map((e) => e.cost_usd),
      ).toEqual([0.01, null, 0.01]);
      expect(store.ledger().filter((e) => e.sent === true)).toHaveLength(3);
      expect(store.events.filter((line) => line.includes('"event": "usage_unknown"'))).toHaveLength(1);
      // With a budget: after the unknown answer no package starts (the spend cannot be known).
      const budgeted = await runPhase1({ ...base, samples: 3, concurrency: 1, model, price, budgetUsd: 1, store: new MemoryRunStore() });
      expect(budgeted.stopReason).toBe('budget');
      expect(rows(budgeted)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('epochs: each package asked K times (each sample its own cache key), the row scores the first, pass@k and mean F1 in the aggregate', async () => {
    await loadTruth();
    // Even requests answer right, odd ones leave a key type out.
    const server = await startFakeOpenAi((req) => {
      const id = /"package_id": "(0x[0-9a-f]+)"/.exec(req.body.messages!.at(-1)!.content)![1];
      const truth = TRUTH.get(id) ?? [];
      return { content: JSON.stringify({ key_types: req.index % 2 === 0 ? truth : truth.slice(1) }) };
    });
    try {
      const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
      const store = new MemoryRunStore();
      const r = await runPhase1({ ...base, samples: 2, concurrency: 1, epochs: 2, model, store });
      expect(server.requests).toHaveLength(4);
      // The same prompt twice per package, under two cache keys.
      const keys = store.results().results.flatMap((x) => ((x.details?.calls ?? []) as { cache_key: string; epoch: number }[]).map((c) => `${c.epoch}:${c.cache_key}`));
      expect(new Set(keys.map((k) => k.slice(2))).size).toBe(4);
      const packages = plain(r.runJson.packages as never) as { outcome: string; epochs: { epoch: number; correct: boolean }[] }[];
      for (const p of packages) {
        expect(p.epochs.map((e) => e.epoch)).toEqual([0, 1]);
        expect(p.outcome).toBe(p.epochs[0].correct ? 'correct' : 'wrong');
      }
      const agg = plain(r.runJson.aggregate as never) as { epochs: number; pass_at_k: Record<string, number>; mean_epoch_f1: number };
      expect(agg.epochs).toBe(2);
      // Each package has one correct sample of two (when its truth is not empty): pass@1 = 0.5, pass@2 = 1.
      const one = packages.map((p) => p.epochs.filter((e) => e.correct).length / 2);
      expect(agg.pass_at_k['1']).toBeCloseTo(one.reduce((a, b) => a + b, 0) / one.length, 9);
      const any = packages.map((p) => (p.epochs.some((e) => e.correct) ? 1 : 0));
      expect(agg.pass_at_k['2']).toBeCloseTo(any.reduce((a: number, b: number) => a + b, 0) / any.length, 9);
      expect(phase1SummaryText(r.runJson)).toMatch(/epochs 2: pass@1 /);
    } finally {
      await server.close();
    }
  });

  it('--budget-usd with packages in flight does not overshoot: each request is reserved at the most it may cost before it goes out', async () => {
    await loadTruth();
    // Answers that take a while, so four packages are in flight when the budget runs out; the
    // server counts a token per four characters, as tokenizers of English text about do.
    const server = await startFakeOpenAi((req) => {
      const id = /"package_id": "(0x[0-9a-f]+)"/.exec(req.body.messages!.at(-1)!.content)![1];
      return { content: JSON.stringify({ key_types: TRUTH.get(id) }), delayMs: 60 };
    });
    try {
      const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
      const price = { input: 10, output: 10 };
      const params = { temperature: 0, maxTokens: 200 };
      const budgetUsd = 0.05;
      const r = await runPhase1({ ...base, concurrency: 4, model, params, price, budgetUsd, store: new MemoryRunStore() });
      expect(r.stopReason).toBe('budget');
      expect(r.totals.spent_usd as number).toBeLessThanOrEqual(budgetUsd);
      expect(rows(r).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('a request in flight when the run is killed counts as billed (at its estimate) in the resumed totals', async () => {
    await loadTruth();
    const server = await startFakeOpenAi((req) => {
      if (req.index === 1) return { hang: true };
      const id = /"package_id": "(0x[0-9a-f]+)"/.exec(req.body.messages!.at(-1)!.content)![1];
      return { content: JSON.stringify({ key_types: TRUTH.get(id) }) };
    });
    const dir = path.join(tempDir(), 'run');
    try {
      const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
      const price = { input: 10, output: 10 };
      const stop = new AbortController();
      const timer = setInterval(() => {
        if (server.requests.length >= 2) stop.abort();
      }, 10);
      const killed = await runPhase1({ ...base, samples: 3, concurrency: 1, model, price, params: { temperature: 0, maxTokens: 100 }, signal: stop.signal, store: DiskRunStore.at(dir) });
      clearInterval(timer);
      expect(killed.stopReason).toBe('interrupted');
      // The answered call and the one cut off: the second counted at its estimate, not free.
      expect(killed.totals.calls).toBe(2);
      expect(killed.totals.unanswered_calls).toBe(1);
      const ledger = DiskRunStore.existing(dir).ledger();
      const sent = ledger.filter((e) => e.sent === true);
      expect(sent).toHaveLength(2);
      const answered = ledger.filter((e) => e.sent !== true).reduce((a, e) => a + (e.cost_usd ?? 0), 0);
      expect(killed.totals.spent_usd).toBeCloseTo(answered + (sent[1].estimate_usd as number), 9);
      expect(sent[1].estimate_usd as number).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

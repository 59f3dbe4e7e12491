/**
 * Real inputs for the report tests, made in a temp folder from the shared corpus:
 * benchmark-local rows of two packages, two Phase I runs (a model behind a loopback
 * OpenAI-compatible server: one package answered, one unparseable, the rest wrong; and
 * mock-noisy), and two Phase II runs (baseline-search over the corpus; a model that asks
 * for more of the interface with need_more, then plans a transaction that fails).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadPackageDir } from '@smi/bytecode';
import { DiskRunStore, OpenAiCompatibleModel, runPhase1, runPhase2 } from '@smi/harness';
import { type BenchmarkRow, rowLine, runBenchmark } from '@smi/inhabit';
import { fromFixtures } from '@smi/simulation';
import { type FakeRequest, promptOf, startFakeOpenAi } from '../../../test-support/fake-openai.js';
import { FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { phase2Options } from '../../../test-support/phase2-options.js';

/** The inputs made. */
export interface ReportRuns {
  rows: string;
  phase1Model: string;
  phase1Mock: string;
  phase2Baseline: string;
  phase2Model: string;
}

const CORPUS = fixturePath('corpus');
const LENDING = '0xc6faf3703b0e8ba9ed06b7851134bbbe7565eb35ff823fd78432baa4cbeaa12e';
const SECOND = '0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d';
const SUI = '0x' + '2'.padStart(64, '0');
const PHASE1_IDS = [LENDING, SECOND, '0x' + '1'.padStart(64, '0'), '0x' + 'b'.padStart(64, '0')];

function phase1Answer(req: FakeRequest): string {
  const p = promptOf(req);
  if (p.includes(SECOND)) return 'I cannot tell which structs are key types.';
  if (p.includes(LENDING)) return JSON.stringify({ key_types: [`${LENDING}::pool::Pool`] });
  return '```json\n{"key_types": []}\n```';
}

/** Phase II: first ask for a function with need_more, then plan a call whose result is left unused (the transaction fails). */
function phase2Answer(call: number): string {
  if (call === 0) return JSON.stringify({ need_more: [`${SUI}::coin::zero`], reason: 'to see how a Coin is made' });
  return JSON.stringify({ calls: [{ target: `${SUI}::coin::zero`, type_args: ['0x2::sui::SUI'], args: [] }] });
}

async function benchmarkRows(file: string): Promise<void> {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const targets = [LENDING, SECOND].map((id) => loadPackageDir(path.join(CORPUS, id)));
  const rows: BenchmarkRow[] = [];
  await runBenchmark({ framework: packages, protocolConfig, targets, usePtb: true, timings: false, jobs: 0, onRow: (r) => rows.push(r) });
  writeFileSync(file, rows.map(rowLine).join(''));
}

/** Make every input under `dir`. */
export async function makeRuns(dir: string): Promise<ReportRuns> {
  const out: ReportRuns = {
    rows: path.join(dir, 'rows.jsonl'),
    phase1Model: path.join(dir, 'phase1-model'),
    phase1Mock: path.join(dir, 'phase1-mock'),
    phase2Baseline: path.join(dir, 'phase2-baseline'),
    phase2Model: path.join(dir, 'phase2-model'),
  };
  await benchmarkRows(out.rows);
  const ids = { ids: PHASE1_IDS, source: 'test' };
  let phase2Calls = 0;
  const server = await startFakeOpenAi((req) => ({
    content: req.body.messages?.some((m) => m.content.includes('PTB')) ? phase2Answer(phase2Calls++) : phase1Answer(req),
    usage: { prompt_tokens: 1200, completion_tokens: 40 },
  }));
  try {
    const model = new OpenAiCompatibleModel({ apiKey: 'sk-test', baseUrl: server.url, model: 'fake-model', retry: { baseDelayMs: 5, maxDelayMs: 5 } });
    const phase1 = { corpusRoot: CORPUS, samples: 0, seed: 0n, ids, continueOnError: true, concurrency: 1 };
    await runPhase1({ ...phase1, agent: 'real-openai-compatible', model, store: DiskRunStore.at(out.phase1Model), runId: 'phase1-model' });
    await runPhase1({ ...phase1, agent: 'mock-noisy', store: DiskRunStore.at(out.phase1Mock), runId: 'phase1-mock' });
    await runPhase2(phase2Options({ agent: 'baseline-search', store: DiskRunStore.at(out.phase2Baseline), runId: 'phase2-baseline' }));
    await runPhase2(
      phase2Options({
        agent: 'real-openai-compatible',
        model,
        ids: { ids: [SUI], source: 'test' },
        needMore: 'json',
        maxPlanAttempts: 2,
        store: DiskRunStore.at(out.phase2Model),
        runId: 'phase2-model',
      }),
    );
  } finally {
    await server.close();
  }
  return out;
}

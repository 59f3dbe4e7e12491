/**
 * Phase I runs over the shared corpus: the mock agents' scores, the run directory and its
 * files, batches and resume, specs that differ, shards and merging.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { interfaceSanity, loadPackageDir } from '@smi/bytecode';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import {
  DiskRunStore,
  discoverPackages,
  loadRunJson,
  MemoryRunStore,
  type MergeError,
  mergeRuns,
  parseShard,
  plain,
  RUN_JSON_BUILDERS,
  runPhase1,
  RunStoreError,
  SpecMismatchError,
} from '../src/index.js';
import { packageInterface } from '../src/phase1/truth.js';
import { shardOf } from '../src/run/shard.js';
import { eventNames, jsonl, stable, tempDir } from './support.js';

const CORPUS = fixturePath('corpus');

type Agg = Record<string, number | number[] | Record<string, number> | null>;
type Row = {
  package_id: string;
  truth_key_types: number;
  predicted_key_types: number;
  predicted_key_types_list: string[] | null;
  truth_key_types_list: string[] | null;
  score: { f1: number; precision: number };
};

async function mockRun(agent: 'mock-perfect' | 'mock-empty' | 'mock-random' | 'mock-noisy', extra: Partial<Parameters<typeof runPhase1>[0]> = {}) {
  return runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 0n, agent, store: new MemoryRunStore(), runId: 't', continueOnError: true, includeTypeLists: true, ...extra });
}

describeWithFixtures('Phase I with the mock agents over the shared corpus', ['corpus'], () => {
  it('mock-perfect scores 1.0 everywhere; mock-empty scores the share of packages without key structs', async () => {
    const perfect = await mockRun('mock-perfect');
    const a = plain(perfect.runJson.aggregate as never) as Agg;
    expect(a).toMatchObject({ avg_precision: 1, avg_recall: 1, avg_f1: 1, micro_f1: 1, errors: 0, packages_total: 12, outcomes: { correct: 12, wrong: 0 } });
    // The truth, counted independently: the interface's key structs per package.
    const { packages } = discoverPackages(CORPUS);
    const truthSizes = packages.map(
      (p) =>
        interfaceSanity(
          packageInterface(
            p.packageId,
            loadPackageDir(p.packageDir).modules.map((m) => m.module),
          ),
        ).key_structs,
    );
    const rows = perfect.runJson.packages as unknown as Row[];
    expect(rows.map((r) => r.truth_key_types)).toEqual(truthSizes);
    const empty = await mockRun('mock-empty');
    const e = plain(empty.runJson.aggregate as never) as Agg;
    const withoutKeys = truthSizes.filter((n) => n === 0).length;
    expect(withoutKeys).toBe(2);
    expect(e.avg_f1).toBe(withoutKeys / 12);
    expect(e.avg_precision).toBe(withoutKeys / 12);
    expect(e.micro_recall).toBe(0);
    expect(e.outcomes).toMatchObject({ correct: withoutKeys, wrong: 12 - withoutKeys });
  });

  it('mock-random keeps what random.Random(seed) keeps over the sorted truth; mock-noisy adds five fakes', async () => {
    const random = await mockRun('mock-random');
    const rows = plain(random.runJson.packages as never) as Row[];
    const lending = rows.find((r) => r.package_id.startsWith('0xb2345915'))!;
    // python: t = sorted(truth); r = random.Random(0); [x for x in t if r.random() < 0.5]
    expect(lending.predicted_key_types_list!.map((t) => t.split('::').slice(1).join('::'))).toEqual(['pool::Pool', 'pool::PoolAdminCap', 'storage::Storage']);
    for (const r of rows) {
      for (const t of r.predicted_key_types_list!) expect(r.truth_key_types_list).toContain(t);
      if (r.predicted_key_types > 0) expect(r.score.precision).toBe(1);
    }
    const seed3 = await mockRun('mock-random', { seed: 3n });
    const l3 = (seed3.runJson.packages as unknown as Row[]).find((r) => r.package_id.startsWith('0xb2345915'))!;
    expect(l3.predicted_key_types_list!.map((t) => t.split('::').slice(1).join('::'))).toEqual(['incentive::Incentive', 'pool::Pool', 'storage::Storage', 'storage::StorageAdminCap']);
    const noisy = await mockRun('mock-noisy');
    for (const r of noisy.runJson.packages as unknown as Row[]) expect(r.predicted_key_types_list!.filter((t) => t.startsWith('0xdead::')).length).toBe(5);
    const a = plain(noisy.runJson.aggregate as never) as Agg;
    expect(a.outcomes).toMatchObject({ wrong: 12 });
    expect(a.avg_f1 as number).toBeGreaterThan(0);
    expect(a.avg_f1 as number).toBeLessThan(1);
  });

  it('results do not depend on concurrency (1 vs 8)', async () => {
    const one = await mockRun('mock-noisy', { concurrency: 1 });
    const eight = await mockRun('mock-noisy', { concurrency: 8 });
    expect(stable(eight.runJson)).toEqual(stable(one.runJson));
  });

  it('writes the run directory: spec, metadata, state, events in order, rows, results and a run.json that verifies', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'out.json');
    const r = await runPhase1({
      corpusRoot: CORPUS,
      samples: 4,
      seed: 0n,
      agent: 'mock-perfect',
      store: DiskRunStore.at(path.join(dir, 'run')),
      runId: 'r1',
      out,
      argv: ['smi', 'phase1'],
      checkpointEvery: 2,
    });
    expect(r.status).toBe('success');
    const run = path.join(dir, 'run');
    for (const f of ['spec.json', 'run_metadata.json', 'state.json', 'events.jsonl', 'packages.jsonl', 'run.json', 'usage.jsonl'].filter((f) => f !== 'usage.jsonl'))
      expect(existsSync(path.join(run, f))).toBe(true);
    expect(readFileSync(path.join(run, 'run.json'), 'utf8')).toBe(readFileSync(out, 'utf8'));
    const loaded = loadRunJson(out);
    expect(loaded.samples).toBe(4);
    const meta = JSON.parse(readFileSync(path.join(run, 'run_metadata.json'), 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({ schema_version: 1, benchmark: 'phase1_key_struct_discovery', agent: 'mock-perfect', seed: 0, corpus_root: CORPUS, argv: ['smi', 'phase1'] });
    const names = eventNames(run);
    expect(names[0]).toBe('run_started');
    expect(names.at(-1)).toBe('run_finished');
    expect(names.filter((n) => n === 'package_started')).toHaveLength(4);
    expect(names.filter((n) => n === 'package_finished')).toHaveLength(4);
    // Every 2 packages, and the final one.
    expect(names.filter((n) => n === 'checkpoint_written')).toHaveLength(3);
    const events = jsonl<{ t: number; event: string; i?: number }>(path.join(run, 'events.jsonl'));
    for (const e of events) expect(Number.isInteger(e.t) && e.t > 1.7e9).toBe(true);
    expect(events.filter((e) => e.event === 'package_started').map((e) => e.i)).toEqual([1, 2, 3, 4]);
    // Events are written as Python's json.dumps(sort_keys=True): keys sorted, ", " and ": ".
    expect(readFileSync(path.join(run, 'events.jsonl'), 'utf8').split('\n')[0]).toMatch(/^\{"agent": "mock-perfect", "done": 0, "event": "run_started", /);
    expect(jsonl(path.join(run, 'packages.jsonl'))).toHaveLength(4);
    const state = JSON.parse(readFileSync(path.join(run, 'state.json'), 'utf8')) as { status: string; sessions: unknown[] };
    expect(state.status).toBe('success');
    expect(state.sessions).toHaveLength(1);
  });

  it('an ids list runs in batches of --samples; resumed batches give what one run gives', async () => {
    const { packages } = discoverPackages(CORPUS);
    const ids = { ids: [...packages.map((p) => p.packageId)].reverse(), source: 'ids.txt' };
    const dir = tempDir();
    const store = () => DiskRunStore.at(path.join(dir, 'run'));
    const statuses: string[] = [];
    for (let s = 0; s < 3; s++) {
      const r = await runPhase1({ corpusRoot: CORPUS, samples: 5, seed: 0n, ids, agent: 'mock-noisy', store: store(), runId: 'b', resume: s > 0 });
      statuses.push(r.status);
    }
    expect(statuses).toEqual(['started', 'started', 'success']);
    const batched = loadRunJson(path.join(dir, 'run', 'run.json'));
    const once = await runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 0n, ids, agent: 'mock-noisy', store: new MemoryRunStore(), runId: 'o' });
    expect(stable(batched)).toEqual(stable(once.runJson));
    // File order is run order; the original's target fields are set.
    expect((batched.packages as unknown as Row[]).map((r) => r.package_id)).toEqual(ids.ids);
    expect(batched.target_ids_file).toBe('ids.txt');
    expect(batched.target_ids_total).toBe(12);
    expect(eventNames(path.join(dir, 'run')).filter((n) => n === 'run_started')).toHaveLength(3);
  });

  it('refuses to resume a run whose spec differs (unless forced), and to start over an existing run', async () => {
    const dir = path.join(tempDir(), 'run');
    await runPhase1({ corpusRoot: CORPUS, samples: 3, seed: 0n, agent: 'mock-empty', store: DiskRunStore.at(dir), runId: 'x' });
    await expect(runPhase1({ corpusRoot: CORPUS, samples: 3, seed: 0n, agent: 'mock-empty', store: DiskRunStore.at(dir), runId: 'x' })).rejects.toThrow(RunStoreError);
    const err = await runPhase1({ corpusRoot: CORPUS, samples: 3, seed: 0n, agent: 'mock-perfect', store: DiskRunStore.at(dir), runId: 'x', resume: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecMismatchError);
    expect((err as SpecMismatchError).differences).toEqual(['agent']);
    const forced = await runPhase1({ corpusRoot: CORPUS, samples: 3, seed: 0n, agent: 'mock-perfect', store: DiskRunStore.at(dir), runId: 'x', resume: true, force: true });
    expect(forced.run.forced).toEqual(['agent']);
    // Same spec: resuming a finished run does nothing more.
    const again = await runPhase1({ corpusRoot: CORPUS, samples: 3, seed: 0n, agent: 'mock-perfect', store: DiskRunStore.at(dir), runId: 'x', resume: true });
    expect(again.run.todo).toHaveLength(0);
    expect(again.status).toBe('success');
  });

  it('shards partition the packages; merged, they are what one run writes; bad merges are refused', async () => {
    const root = tempDir();
    const shards = [1, 2, 3].map((k) => path.join(root, `shard${k}`));
    const sizes: number[] = [];
    for (const [i, dir] of shards.entries()) {
      const r = await runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 5n, agent: 'mock-random', store: DiskRunStore.at(dir), runId: `s${i}`, shard: parseShard(`${i + 1}/3`) });
      expect(r.status).toBe('success');
      sizes.push(r.run.ids.length);
    }
    expect(sizes.reduce((a, b) => a + b)).toBe(12);
    expect(sizes.every((n) => n > 0)).toBe(true);
    const whole = await runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 5n, agent: 'mock-random', store: new MemoryRunStore(), runId: 'w' });
    const merged = mergeRuns(shards, path.join(root, 'merged'), RUN_JSON_BUILDERS);
    expect(merged.packages).toBe(12);
    expect(stable(merged.text)).toEqual(stable(whole.runJson));
    expect(loadRunJson(path.join(root, 'merged', 'run.json')).samples).toBe(12);
    // Every id lands in exactly the shard its hash says.
    for (const id of whole.run.ids) expect([1, 2, 3]).toContain(shardOf(id, 3));
    const code = (f: () => unknown): string => {
      try {
        f();
        return 'ok';
      } catch (e) {
        return (e as MergeError).code;
      }
    };
    expect(code(() => mergeRuns([shards[0], shards[0]], path.join(root, 'm2'), RUN_JSON_BUILDERS))).toBe('DUPLICATE_IDS');
    expect(code(() => mergeRuns([shards[0], shards[1]], path.join(root, 'm3'), RUN_JSON_BUILDERS))).toBe('INCOMPLETE');
    const other = path.join(root, 'other');
    await runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 6n, agent: 'mock-random', store: DiskRunStore.at(other), runId: 'o', shard: parseShard('3/3') });
    expect(code(() => mergeRuns([shards[0], shards[1], other], path.join(root, 'm4'), RUN_JSON_BUILDERS))).toBe('SPEC_MISMATCH');
    expect(code(() => mergeRuns(shards, path.join(root, 'merged'), RUN_JSON_BUILDERS))).toBe('RUN_EXISTS');
  });
});

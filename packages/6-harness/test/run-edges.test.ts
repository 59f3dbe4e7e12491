/**
 * The edges of a run: corpus discovery (depth, symlinks, duplicates, the blacklist), a
 * package that cannot be read, a stop from the caller or from the parent process's
 * death, resuming the original's own run file, and replaying an earlier run's answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import {
  type ChatMessage,
  discoverPackages,
  DiskRunStore,
  type GenerateOptions,
  type GenerateResult,
  type ModelClient,
  ModelError,
  MemoryRunStore,
  plain,
  ReplayModel,
  runAnswers,
  runPhase1,
  ScriptedModel,
} from '../src/index.js';
import { packageVersions } from '../src/run/spec.js';
import { sleep } from '../src/model/retry.js';
import { stable, tempDir } from './support.js';

const CORPUS = fixturePath('corpus');
const P = (suffix: string): string => `0x${suffix.padStart(64, '0')}`;
type Row = { package_id: string; outcome: string; error: string | null; score: { f1: number } };

/** A model that takes `ms` per answer (an empty key-type list), honouring the signal. */
class SlowModel implements ModelClient {
  readonly model = 'slow';
  readonly baseUrl = 'scripted:slow';
  constructor(private readonly ms: number) {}
  async generate(_m: readonly ChatMessage[], _p: unknown, o: GenerateOptions = {}): Promise<GenerateResult> {
    try {
      await sleep(this.ms, o.signal);
    } catch {
      throw new ModelError('timeout', 'the request was stopped');
    }
    return { content: '{"key_types": []}', finishReason: 'stop', usage: { input: 1, output: 1, cached: 0, reasoning: 0, total: 2 }, requestId: null, cache: 'off', attempts: 1 };
  }
}

/**
 * A model whose first request kills `parent` and then waits a minute unless the run's signal
 * stops it first; it counts its requests and the ones it was stopped in.
 */
class ParentKillingModel implements ModelClient {
  readonly model = 'parent-killing';
  readonly baseUrl = 'scripted:parent-killing';
  calls = 0;
  stopped = 0;
  constructor(private readonly parent: ChildProcess) {}
  async generate(_m: readonly ChatMessage[], _p: unknown, o: GenerateOptions = {}): Promise<GenerateResult> {
    if (++this.calls === 1) this.parent.kill();
    try {
      await sleep(60_000, o.signal);
    } catch {
      this.stopped++;
      throw new ModelError('timeout', 'the request was stopped');
    }
    return { content: '{"key_types": []}', finishReason: 'stop', usage: { input: 1, output: 1, cached: 0, reasoning: 0, total: 2 }, requestId: null, cache: 'off', attempts: 1 };
  }
}

const real = { corpusRoot: CORPUS, samples: 0, seed: 0n, agent: 'real-openai-compatible' as const, runId: 'e', continueOnError: true };

describeWithFixtures('run edges', ['corpus'], () => {
  it('discovers packages at any depth and through symlinks, once each, without the blacklist, reporting what it skipped', () => {
    const root = tempDir();
    const pkg = (dir: string, id: string | null): void => {
      mkdirSync(path.join(root, dir, 'bytecode_modules'), { recursive: true });
      copyFileSync(path.join(CORPUS, P('1'), 'bytecode_modules', 'ascii.mv'), path.join(root, dir, 'bytecode_modules', 'ascii.mv'));
      if (id !== null) writeFileSync(path.join(root, dir, 'metadata.json'), JSON.stringify({ id }));
    };
    pkg('0x00/0x01', P('1'));
    pkg('deep/a/b/c/d/pkg', '0xabc');
    pkg('other/copy-of-1', P('1'));
    pkg('blocked', 'FBNeU62dhM5gZsBgq2gUKRxYRo2QpriciUeNjLLT5VUj');
    pkg('no-meta', null);
    symlinkSync(path.join(root, 'deep'), path.join(root, 'link-to-deep'));
    const { packages, skipped } = discoverPackages(root);
    expect(packages.map((p) => p.packageId)).toEqual([P('1'), '0xabc']);
    expect(skipped.duplicate).toEqual([P('1')]);
    expect(skipped.blacklisted).toEqual(['FBNeU62dhM5gZsBgq2gUKRxYRo2QpriciUeNjLLT5VUj']);
    expect(skipped.noMetadataId).toHaveLength(1);
    expect(() => discoverPackages(path.join(root, 'nope'))).toThrow(/not a directory/);
  });

  it('a package that cannot be read is an infra_error: scored 0, counted, and the run goes on', async () => {
    const root = tempDir();
    cpSync(path.join(CORPUS, P('1')), path.join(root, P('1')), { recursive: true });
    mkdirSync(path.join(root, 'bad', 'bytecode_modules'), { recursive: true });
    writeFileSync(path.join(root, 'bad', 'bytecode_modules', 'm.mv'), Buffer.from('not a module'));
    writeFileSync(path.join(root, 'bad', 'metadata.json'), JSON.stringify({ id: '0xbad' }));
    const r = await runPhase1({ corpusRoot: root, samples: 0, seed: 0n, agent: 'mock-perfect', store: new MemoryRunStore(), runId: 'x', continueOnError: true });
    const rows = plain(r.runJson.packages as never) as Row[];
    const bad = rows.find((x) => x.package_id === '0xbad')!;
    expect(bad.outcome).toBe('infra_error');
    expect(bad.error).toMatch(/^bytecode extraction failed: /);
    expect(bad.score.f1).toBe(0);
    expect(plain(r.runJson.aggregate as never)).toMatchObject({ errors: 1, packages_total: 2, outcomes: { infra_error: 1, correct: 1 } });
  });

  it("the caller's stop (Ctrl-C) cancels the session; a resume finishes it with every package once", async () => {
    const dir = path.join(tempDir(), 'run');
    const stop = new AbortController();
    let seen = 0;
    const first = await runPhase1({
      ...real,
      model: new SlowModel(40),
      concurrency: 2,
      store: DiskRunStore.at(dir),
      signal: stop.signal,
      onResult: () => {
        if (++seen === 3) stop.abort(new Error('SIGINT'));
      },
    });
    expect(first.status).toBe('cancelled');
    expect(first.stopReason).toBe('interrupted');
    const kept = (first.runJson.packages as unknown[]).length;
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(12);
    const second = await runPhase1({ ...real, model: new SlowModel(1), concurrency: 2, store: DiskRunStore.at(dir), resume: true });
    expect(second.status).toBe('success');
    expect(second.run.todo).toHaveLength(12 - kept);
    expect(new Set((plain(second.runJson.packages as never) as Row[]).map((x) => x.package_id)).size).toBe(12);
  });

  it('--parent-pid: the session stops when the parent process is gone, cutting the request in flight short', async () => {
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const model = new ParentKillingModel(parent);
    const r = await runPhase1({ ...real, model, concurrency: 1, parentPid: parent.pid!, store: new MemoryRunStore() });
    expect(r.stopReason).toBe('parent_died');
    expect(r.status).toBe('cancelled');
    // One request was made, and it ended because the run stopped it (not by its own minute-long wait).
    expect({ calls: model.calls, stopped: model.stopped }).toEqual({ calls: 1, stopped: 1 });
    // The stopped package is not written down as answered: a resume does it again.
    expect(r.runJson.packages as unknown[]).toHaveLength(0);
  });

  it("resumes the original's own run file (--out, no run directory): its rows are kept, the rest is done", async () => {
    const out = path.join(tempDir(), 'out.json');
    copyFileSync(fixturePath('fixtures', 'harness', 'tests', 'fixtures', 'phase1_checkpoint_no_checksum.json'), out);
    const r = await runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 42n, agent: 'mock-empty', store: new MemoryRunStore(), runId: 'l', resume: true, out });
    expect(r.run.todo.map((j) => j.packageId)).not.toContain(P('1'));
    expect(r.run.todo).toHaveLength(11);
    expect((r.runJson.packages as unknown[]).length).toBe(12);
    // A different agent is refused, as the original refused it.
    await expect(runPhase1({ corpusRoot: CORPUS, samples: 0, seed: 42n, agent: 'mock-perfect', store: new MemoryRunStore(), runId: 'l', resume: true, out })).rejects.toThrow(/agent=mock-empty/);
  });

  it("an earlier run's recorded answers replay it with no model: the same results", async () => {
    const dir = path.join(tempDir(), 'run');
    let n = 0;
    const model = new ScriptedModel(() => (n++ % 3 === 0 ? 'prose, no JSON' : JSON.stringify({ key_types: [`0x${n}::m::S`] })), 'm1');
    const first = await runPhase1({ ...real, model, concurrency: 1, store: DiskRunStore.at(dir) });
    const replay = new ReplayModel(runAnswers(DiskRunStore.existing(dir)), 'm1', 'scripted:');
    const again = await runPhase1({ ...real, model: replay, concurrency: 1, store: new MemoryRunStore() });
    expect(stable(again.runJson)).toEqual(stable(first.runJson));
    const other = new ReplayModel(runAnswers(DiskRunStore.existing(dir)), 'm2', 'scripted:');
    const miss = await runPhase1({ ...real, samples: 1, model: other, store: new MemoryRunStore() });
    expect((plain(miss.runJson.packages as never) as Row[])[0].error).toMatch(/no stored answer/);
  });

  it('the spec records the version of every SMI package the results depend on', async () => {
    const versions = packageVersions();
    for (const name of ['@smi/harness', '@smi/inhabit', '@smi/simulation', '@smi/ptb', '@smi/move-vm', '@smi/bytecode']) {
      expect(versions[name], name).toMatch(/^\d+\.\d+\.\d+/);
    }
    const store = new MemoryRunStore();
    await runPhase1({ ...real, samples: 1, agent: 'mock-perfect', store });
    expect(store.readSpec()?.spec.code.packages).toEqual(versions);
  });
});

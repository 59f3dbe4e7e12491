/**
 * `smi phase1`, `smi merge` and `smi cache` as a user runs them: the built binary, a
 * fake OpenAI-compatible server on 127.0.0.1 answering each package its own way
 * (normal, fenced, 429 with Retry-After, 500, a hang, malformed JSON, a cut-off answer,
 * prose), and a run killed with SIGKILL half-way, resumed, compared with a run never
 * interrupted.
 */
import { canonicalAddress } from '@smi/bytecode';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadRunJson, plain, type RunTotals } from '@smi/harness';
import { beforeAll, expect, it } from 'vitest';
import { type FakeReply, promptOf, promptPackage, startFakeOpenAi, uidHeuristicAnswer } from '../../../test-support/fake-openai.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { stable, tempDir } from '../../../packages/6-harness/test/support.js';
import { modelEnv } from './support/model-env.js';
import { CLI, requireBuiltCli, runSmi } from './support/spawn-cli.js';

const CORPUS = fixturePath('corpus');
const P = (suffix: string): string => canonicalAddress(`0x${suffix}`);

type Row = { package_id: string; outcome: string; attempts: number; max_structs_used: number; parse_mode: string | null; error: string | null; score: { f1: number } };

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describeWithFixtures('smi phase1 with a real (loopback) model', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());

  it('every kind of server answer ends in its own outcome; retries stay inside an attempt', async () => {
    const seen = new Map<string, number>();
    const server = await startFakeOpenAi((req): FakeReply => {
      const prompt = promptOf(req);
      const id = promptPackage(prompt);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      const ok = uidHeuristicAnswer(prompt);
      if (id === P('2')) return { content: '```json\n' + ok + '\n```' };
      if (id === P('3') && n === 1) return { status: 429, headers: { 'retry-after': '1' }, content: 'rate limited' };
      if (id === P('b') && n === 1) return { status: 500, content: 'internal' };
      if (id === P('dee9') && n === 1) return { hang: true };
      if (id.startsWith('0x1eabed72')) return { raw: '{"id": "x", "choices": [' };
      if (id.startsWith('0x7f6b380d') && n === 1) return { content: ok.slice(0, 10), finishReason: 'length' };
      if (id.startsWith('0x826915f8')) return { content: 'These look like objects to me, but I would need the abilities to be sure.' };
      return { content: ok };
    });
    try {
      const dir = tempDir('smi-phase1-');
      const r = await runSmi(
        [
          'phase1',
          '--corpus-root',
          CORPUS,
          '--samples',
          '0',
          '--agent',
          'real-openai-compatible',
          '--continue-on-error',
          '--request-timeout-seconds',
          '1',
          '--run-dir',
          path.join(dir, 'run'),
          '--out',
          path.join(dir, 'out.json'),
          '--json',
        ],
        { cwd: dir, env: modelEnv(server.url, path.join(dir, 'cache'), { SMI_MAX_REQUEST_RETRIES: '3' }) },
      );
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as { status: string; aggregate: { errors: number; outcomes: Record<string, number> }; totals: RunTotals };
      expect(summary.status).toBe('success');
      const run = loadRunJson(path.join(dir, 'out.json'));
      const rows = new Map((plain(run.packages as never) as Row[]).map((x) => [x.package_id, x]));
      const row = (prefix: string): Row => [...rows.values()].find((x) => x.package_id.startsWith(prefix))!;
      expect(row(P('1'))).toMatchObject({ outcome: 'correct', parse_mode: 'json', attempts: 1 });
      expect(row(P('2'))).toMatchObject({ outcome: 'correct', parse_mode: 'fenced' });
      expect(row(P('3'))).toMatchObject({ outcome: 'correct', attempts: 1 });
      expect(row(P('b'))).toMatchObject({ outcome: 'correct', attempts: 1 });
      expect(row(P('dee9'))).toMatchObject({ outcome: 'correct', attempts: 1 });
      expect(row('0x1eabed72')).toMatchObject({ outcome: 'model_error' });
      expect(row('0x1eabed72').error).toMatch(/not JSON|unexpected response/i);
      expect(row('0x7f6b380d')).toMatchObject({ outcome: 'correct', attempts: 2, max_structs_used: 100 });
      expect(row('0x826915f8')).toMatchObject({ outcome: 'unparseable', parse_mode: null });
      expect(row('0x826915f8').score.f1).toBe(0);
      expect(summary.aggregate.outcomes).toMatchObject({ correct: 10, model_error: 1, unparseable: 1 });
      expect(summary.aggregate.errors).toBe(2);
      // The server's retries are in the event log; every call in the ledger.
      const events = lines(path.join(dir, 'run', 'events.jsonl'));
      const retries = events.filter((e) => e.event === 'llm_retry');
      expect(retries.map((e) => e.kind).sort()).toEqual(['rate_limit', 'transient', 'transient']);
      expect(retries.find((e) => e.kind === 'rate_limit')!.delay_ms).toBe(1000);
      expect(events.filter((e) => e.event === 'agent_effective_config')[0]).toMatchObject({ model: 'fake-model', api_key: 'len=7 suffix=k-test' });
      // Every request twice in the ledger: when sent, and its answer (the same id).
      const ledger = lines(path.join(dir, 'run', 'usage.jsonl'));
      expect(summary.totals.calls).toBe(ledger.filter((e) => e.sent !== true).length);
      const ids = (sent: boolean): string[] =>
        ledger
          .filter((e) => (e.sent === true) === sent)
          .map((e) => String(e.id))
          .sort();
      expect(ids(true)).toEqual(ids(false));
      // Answered again from the cache: no request reaches the server, the results are the same.
      const before = server.requests.length;
      const again = await runSmi(
        ['phase1', '--corpus-root', CORPUS, '--samples', '0', '--agent', 'real-openai-compatible', '--continue-on-error', '--no-log', '--out', path.join(dir, 'again.json'), '--quiet'],
        { cwd: dir, env: modelEnv(server.url, path.join(dir, 'cache')) },
      );
      expect(again.code, again.stderr).toBe(0);
      // The malformed and unparseable answers: malformed is an error (not cached), prose is an answer (cached).
      expect(server.requests.length - before).toBe(1);
      const second = plain(loadRunJson(path.join(dir, 'again.json')).packages as never) as Row[];
      expect(second.filter((x) => !x.package_id.startsWith('0x1eabed72')).map((x) => x.outcome)).toEqual(
        [...rows.values()].filter((x) => !x.package_id.startsWith('0x1eabed72')).map((x) => x.outcome),
      );
    } finally {
      await server.close();
    }
  });

  it('killed with SIGKILL half-way and resumed: the same final result as a run never interrupted, nothing lost or counted twice', async () => {
    const server = await startFakeOpenAi((req) => ({ content: uidHeuristicAnswer(promptOf(req)), delayMs: 150 }));
    try {
      const dir = tempDir('smi-kill-');
      const runDir = path.join(dir, 'run');
      const args = [
        'phase1',
        '--corpus-root',
        CORPUS,
        '--samples',
        '0',
        '--agent',
        'real-openai-compatible',
        '--concurrency',
        '2',
        '--run-dir',
        runDir,
        '--out',
        path.join(dir, 'out.json'),
        '--quiet',
      ];
      const env = { ...process.env, SMI_FIXTURES: fixturePath(), ...modelEnv(server.url, path.join(dir, 'cache')) };
      const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env, stdio: 'ignore' });
      const events = path.join(runDir, 'events.jsonl');
      const finished = (): number =>
        existsSync(events)
          ? readFileSync(events, 'utf8')
              .split('\n')
              .filter((l) => l.includes('"package_finished"')).length
          : 0;
      await new Promise<void>((resolve, reject) => {
        const t = setInterval(() => {
          if (finished() >= 4) {
            clearInterval(t);
            child.kill('SIGKILL');
            resolve();
          }
        }, 20);
        child.on('exit', () => {
          clearInterval(t);
          reject(new Error('the run ended before it could be killed'));
        });
      });
      await new Promise((r) => child.on('close', r));
      const doneAtKill = readdirSync(path.join(runDir, 'results')).filter((f) => f.endsWith('.json')).length;
      expect(doneAtKill).toBeGreaterThanOrEqual(4);
      expect(doneAtKill).toBeLessThan(12);
      const state = JSON.parse(readFileSync(path.join(runDir, 'state.json'), 'utf8')) as { status: string };
      expect(state.status).toBe('started');

      const resumed = await runSmi([...args, '--resume', '--json'], { cwd: dir, env: modelEnv(server.url, path.join(dir, 'cache')) });
      expect(resumed.code, resumed.stderr).toBe(0);
      const summary = JSON.parse(resumed.stdout) as { status: string; aggregate: Record<string, number>; totals: RunTotals };
      expect(summary.status).toBe('success');

      const cleanDir = path.join(dir, 'clean');
      mkdirSync(cleanDir);
      const clean = await runSmi(
        [
          'phase1',
          '--corpus-root',
          CORPUS,
          '--samples',
          '0',
          '--agent',
          'real-openai-compatible',
          '--concurrency',
          '2',
          '--run-dir',
          path.join(cleanDir, 'run'),
          '--out',
          path.join(cleanDir, 'out.json'),
          '--quiet',
        ],
        { cwd: cleanDir, env: modelEnv(server.url, path.join(cleanDir, 'cache')) },
      );
      expect(clean.code, clean.stderr).toBe(0);
      expect(stable(readFileSync(path.join(dir, 'out.json'), 'utf8'))).toEqual(stable(readFileSync(path.join(cleanDir, 'out.json'), 'utf8')));
      loadRunJson(path.join(dir, 'out.json'));
      // Nothing lost or counted twice: one row and one result per package; the calls
      // answered are one per package, whatever the kill cut short; a request the kill cut
      // off in flight counts too (billed, at its estimate).
      const rows = lines(path.join(runDir, 'packages.jsonl')).map((r) => r.package_id);
      expect(new Set(rows).size).toBe(12);
      expect(rows).toHaveLength(12);
      expect(readdirSync(path.join(runDir, 'results')).filter((f) => f.endsWith('.json'))).toHaveLength(12);
      const t = summary.totals;
      expect(t.sessions).toBe(2);
      expect(t.calls - t.cache_hits - t.unanswered_calls).toBe(12);
      expect(t.unanswered_calls).toBeLessThanOrEqual(2);
      expect(t.input_tokens).toBe(summary.aggregate.total_prompt_tokens);
      writeFileSync(path.join(dir, 'figures.json'), JSON.stringify({ doneAtKill, totals: t }));
    } finally {
      await server.close();
    }
  });

  it('SIGTERM stops the run (exit 143, status cancelled); --replay-run answers from it with no server', async () => {
    const server = await startFakeOpenAi((req) => ({ content: uidHeuristicAnswer(promptOf(req)), delayMs: 100 }));
    try {
      const dir = tempDir('smi-term-');
      const args = ['phase1', '--corpus-root', CORPUS, '--samples', '0', '--agent', 'real-openai-compatible', '--concurrency', '1', '--run-dir', 'run', '--quiet'];
      const env = { ...process.env, SMI_FIXTURES: fixturePath(), ...modelEnv(server.url, path.join(dir, 'cache')) };
      const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const events = path.join(dir, 'run', 'events.jsonl');
      const timer = setInterval(() => {
        if (existsSync(events) && readFileSync(events, 'utf8').includes('"package_finished"')) {
          clearInterval(timer);
          child.kill('SIGTERM');
        }
      }, 20);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      clearInterval(timer);
      expect(code).toBe(143);
      const state = JSON.parse(readFileSync(path.join(dir, 'run', 'state.json'), 'utf8')) as { status: string; stop_reason: string };
      expect(state).toMatchObject({ status: 'cancelled', stop_reason: 'interrupted' });
      const resumed = await runSmi([...args, '--resume'], { cwd: dir, env: modelEnv(server.url, path.join(dir, 'cache')) });
      expect(resumed.code, resumed.stderr).toBe(0);
      // The run replayed from its own records: no key, no server, the same run JSON.
      await server.close();
      const replay = await runSmi(['phase1', '--corpus-root', CORPUS, '--samples', '0', '--agent', 'real-openai-compatible', '--replay-run', 'run', '--no-log', '--out', 'replayed.json', '--quiet'], {
        cwd: dir,
        env: { SMI_API_KEY: '', SMI_MODEL: '', SMI_API_BASE_URL: '', SMI_CACHE_DIR: path.join(dir, 'empty-cache') },
      });
      expect(replay.code, replay.stderr).toBe(0);
      expect(stable(readFileSync(path.join(dir, 'replayed.json'), 'utf8'))).toEqual(stable(readFileSync(path.join(dir, 'run', 'run.json'), 'utf8')));
    } finally {
      await server.close();
    }
  });

  it('smi rescore: a model run scored again from its records, with no server and no key, from another directory; the same rows', async () => {
    const server = await startFakeOpenAi((req) => ({ content: uidHeuristicAnswer(promptOf(req)) }));
    const dir = tempDir('smi-rescore-');
    try {
      // Relative paths: the rescore runs the command line from where it ran.
      const first = await runSmi(['phase1', '--corpus-root', CORPUS, '--samples', '5', '--seed', '3', '--agent', 'real-openai-compatible', '--run-dir', 'run', '--quiet'], {
        cwd: dir,
        env: modelEnv(server.url, path.join(dir, 'cache')),
      });
      expect(first.code, first.stderr).toBe(0);
    } finally {
      await server.close();
    }
    const elsewhere = tempDir('smi-rescore-cwd-');
    const env = { SMI_API_KEY: '', SMI_MODEL: '', SMI_API_BASE_URL: '', SMI_CACHE_DIR: path.join(elsewhere, 'empty-cache') };
    const rescored = await runSmi(['rescore', path.join(dir, 'run'), '--json'], { cwd: elsewhere, env });
    expect(rescored.code, rescored.stderr).toBe(0);
    const out = JSON.parse(rescored.stdout) as { run_dir: string; comparison: { packages_common: number; delta: number; fixed: string[]; broken: string[] } };
    expect(out.run_dir).toBe(path.join(dir, 'run-rescored'));
    expect(out.comparison).toMatchObject({ packages_common: 5, delta: 0, fixed: [], broken: [] });
    const rows = (file: string): unknown => (plain(loadRunJson(file).packages as never) as Record<string, unknown>[]).map(({ elapsed_seconds: _e, ...r }) => r);
    expect(rows(path.join(dir, 'run-rescored', 'run.json'))).toEqual(rows(path.join(dir, 'run', 'run.json')));
    // A second rescore into the same place is refused; a directory that holds no run is a clear error.
    const again = await runSmi(['rescore', path.join(dir, 'run')], { cwd: elsewhere, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is not empty: name another with --run-dir/);
    const none = await runSmi(['rescore', elsewhere, '--json'], { cwd: elsewhere, env });
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ status: 'error', error_code: 'FILE_NOT_FOUND' });
  });

  it('--doctor-agent and --smoke-agent probe the endpoint; a dead endpoint says so', async () => {
    const server = await startFakeOpenAi(() => ({ content: '{"key_types": []}' }));
    try {
      const dir = tempDir('smi-doctor-');
      const doctor = await runSmi(['phase1', '--corpus-root', CORPUS, '--doctor-agent'], { cwd: dir, env: modelEnv(server.url, dir) });
      expect(doctor.code, doctor.stderr).toBe(0);
      expect(doctor.stdout).toContain('GET ' + server.url + '/models -> 200');
      expect(doctor.stdout).toContain('api_key: len=7 suffix=k-test');
      expect(doctor.stdout).not.toContain('sk-test');
      const smoke = await runSmi(['phase1', '--corpus-root', CORPUS, '--smoke-agent', '--json'], { cwd: dir, env: modelEnv(server.url, dir) });
      expect(JSON.parse(smoke.stdout)).toEqual({ status: 'ok', key_types: [] });
      const dead = await runSmi(['phase1', '--corpus-root', CORPUS, '--doctor-agent'], { cwd: dir, env: modelEnv('http://127.0.0.1:9/v1', dir) });
      expect(dead.code).toBe(1);
      expect(dead.stdout).toContain('NOT OK');
      const nokey = await runSmi(['phase1', '--corpus-root', CORPUS, '--agent', 'real-openai-compatible'], { cwd: dir, env: { ...modelEnv(server.url, dir), SMI_API_KEY: '' } });
      expect(nokey.code).toBe(2);
      expect(nokey.stderr).toBe('smi: error: missing API key (set SMI_API_KEY, OPENROUTER_API_KEY, or OPENAI_API_KEY)\n');
    } finally {
      await server.close();
    }
  });
});

describeWithFixtures('smi phase1 / merge / cache without a model', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());

  it('shards merged equal one run; a --dataset reads <manifests>/datasets/NAME.txt; cache ls/prune/clear', async () => {
    const dir = tempDir('smi-merge-');
    const common = ['phase1', '--corpus-root', CORPUS, '--samples', '0', '--seed', '3', '--agent', 'mock-noisy', '--quiet'];
    for (const k of [1, 2]) expect((await runSmi([...common, '--shard', `${k}/2`, '--run-dir', `s${k}`], { cwd: dir })).code).toBe(0);
    expect((await runSmi([...common, '--no-log', '--out', 'whole.json'], { cwd: dir })).code).toBe(0);
    const merged = await runSmi(['merge', 's1', 's2', '--out-dir', 'merged', '--out', '-'], { cwd: dir });
    expect(merged.code, merged.stderr).toBe(0);
    expect(stable(merged.stdout)).toEqual(stable(readFileSync(path.join(dir, 'whole.json'), 'utf8')));
    const dup = await runSmi(['merge', 's1', 's1', '--out-dir', 'm2'], { cwd: dir });
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/^smi: error: package 0x\w+ is in both/);

    mkdirSync(path.join(dir, 'manifests', 'datasets'), { recursive: true });
    writeFileSync(path.join(dir, 'manifests', 'datasets', 'mine.txt'), `# two\n${P('2')}\n0x00ff\n${P('1')}\n`);
    const ds = await runSmi(['phase1', '--corpus-root', CORPUS, '--dataset', 'mine', '--manifests', 'manifests', '--agent', 'mock-perfect', '--no-log', '--out', '-', '--samples', '0'], { cwd: dir });
    expect(ds.code, ds.stderr).toBe(0);
    expect(ds.stderr).toContain('1 ids are not in');
    const run = JSON.parse(ds.stdout) as { packages: { package_id: string }[]; target_ids_file: string };
    expect(run.packages.map((p) => p.package_id)).toEqual([P('2'), P('1')]);
    expect(run.target_ids_file).toBe('mine.txt');

    const cacheDir = path.join(dir, 'cache', 'ab');
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(
      path.join(cacheDir, 'ab12.json'),
      JSON.stringify({ key: 'ab12', model: 'm', base_url: 'u', created_at: '2020-01-01T00:00:00.000Z', content: 'x', finish_reason: 'stop', usage: {}, request_id: null }),
    );
    const ls = await runSmi(['cache', 'ls', '--cache-dir', 'cache', '--json'], { cwd: dir });
    expect(JSON.parse(ls.stdout)).toMatchObject({ entries: 1, byModel: { m: 1 } });
    expect((await runSmi(['cache', 'clear', '--cache-dir', 'cache'], { cwd: dir })).stdout).toMatch(/holds 1 entries.*--yes/);
    const pruned = await runSmi(['cache', 'prune', '--older-than', '30d', '--cache-dir', 'cache', '--json'], { cwd: dir });
    expect(JSON.parse(pruned.stdout)).toMatchObject({ removed: 1 });
    expect((await runSmi(['cache', 'prune', '--older-than', 'soon', '--cache-dir', 'cache'], { cwd: dir })).code).toBe(2);
  });
});

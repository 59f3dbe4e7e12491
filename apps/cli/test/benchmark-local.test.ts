/**
 * `smi benchmark-local` through the built binary, on the lending package of the shared
 * corpus (its oracle loaded as a dependency): output and summary, the same bytes on one
 * worker or two, shards that add up to the whole run, every row replayed by
 * `smi sandbox-exec`, interruption and `--resume`, bad input.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { CLI, REPO, requireBuiltCli, runShell, runSmi, STACK_TRACE } from './support/spawn-cli.js';

const LENDING = fixturePath('corpus', '0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0');
const ORACLE = fixturePath('corpus', '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f');
const BASE = ['benchmark-local', '--target-corpus', LENDING, '--corpus', ORACLE, '--use-ptb', '--quiet'];

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'smi-bench-'));
const lines = (file: string): string[] => readFileSync(file, 'utf8').trim().split('\n');

interface Row {
  target_function: string;
  status: string;
  abort?: { code: string | null };
  elapsed_ms?: number;
  transactions?: unknown[];
}

describeWithFixtures('smi benchmark-local', ['corpus'], () => {
  let full: string[];
  let dir: string;
  beforeAll(async () => {
    requireBuiltCli();
    dir = tmp();
    const r = await runSmi([...BASE, '--no-timings', '--jobs', '1', '--output', path.join(dir, 'full.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    full = lines(path.join(dir, 'full.jsonl'));
  }, 120_000);

  it('writes one row per function and the summary (file, --json, table on stderr)', async () => {
    expect(full).toHaveLength(107);
    const out = path.join(dir, 'rows.jsonl');
    const summaryFile = path.join(dir, 'summary.json');
    const r = await runSmi([
      'benchmark-local',
      '--target-corpus',
      LENDING,
      '--corpus',
      ORACLE,
      '--use-ptb',
      '--output',
      out,
      '--summary',
      summaryFile,
      '--json',
      '--error-distribution',
      '--jobs',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { rows: number; tier_b_hits: number; hits_by_provenance: Record<string, number>; per_package: Record<string, unknown> };
    expect(summary.rows).toBe(107);
    expect(summary.tier_b_hits).toBeGreaterThan(30);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toEqual(summary);
    expect(r.stderr).toMatch(/Tier B hits/);
    expect(r.stderr).toMatch(/error distribution by phase/);
    expect(r.stderr).toMatch(/constructor graph: total_types=\d+ types_with_constructors=\d+/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(`${out}.partial`)).toBe(false);
    // With timings, the rows differ from the untimed run only by elapsed_ms.
    const timed = lines(out).map((l) => JSON.parse(l) as Row);
    expect(timed.every((row) => typeof row.elapsed_ms === 'number')).toBe(true);
    expect(timed.map(({ elapsed_ms: _e, ...rest }) => JSON.stringify(rest))).toEqual(full);
  });

  it('the same bytes on one worker or two, and shards that add up to the whole run', async () => {
    const two = await runSmi([...BASE, '--no-timings', '--jobs', '2']);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout.trim().split('\n')).toEqual(full);
    const shards = await Promise.all([1, 2, 3].map((k) => runSmi([...BASE, '--no-timings', '--jobs', '1', '--shard', `${k}/3`])));
    const joined = shards.flatMap((s) => s.stdout.trim().split('\n'));
    expect(shards.map((s) => s.code)).toEqual([0, 0, 0]);
    expect(joined).toHaveLength(full.length);
    expect([...joined].sort()).toEqual([...full].sort());
  });

  it('the direct path too: the same bytes on one worker or two, and in shards', async () => {
    const direct = BASE.filter((a) => a !== '--use-ptb');
    const [one, two, ...shards] = await Promise.all([
      runSmi([...direct, '--no-timings', '--jobs', '1']),
      runSmi([...direct, '--no-timings', '--jobs', '2']),
      ...[1, 2].map((k) => runSmi([...direct, '--no-timings', '--jobs', '1', '--shard', `${k}/2`])),
    ]);
    expect([one.code, two.code, ...shards.map((s) => s.code)]).toEqual([0, 0, 0, 0]);
    const rows = one.stdout.trim().split('\n');
    expect(rows).toHaveLength(107);
    expect(rows.every((l) => (JSON.parse(l) as { tier_b_details?: { path: string } }).tier_b_details?.path !== 'ptb')).toBe(true);
    expect(two.stdout).toBe(one.stdout);
    expect(shards.flatMap((s) => s.stdout.trim().split('\n')).sort()).toEqual([...rows].sort());
  });

  it('every row replays in smi sandbox-exec --interactive: hits succeed, aborts abort with the same code', async () => {
    const rows = full.map((l) => JSON.parse(l) as Row).filter((r) => r.transactions !== undefined);
    expect(rows.filter((r) => r.status === 'tier_b_hit').length).toBeGreaterThan(30);
    const input: string[] = [];
    const lastLine: number[] = [];
    for (const r of rows) {
      input.push(JSON.stringify({ action: 'reset' }));
      for (const t of r.transactions ?? []) input.push(JSON.stringify(t));
      lastLine.push(input.length - 1);
    }
    const replay = await runSmi(['sandbox-exec', '--interactive', '--corpus', LENDING, '--corpus', ORACLE], { stdin: input.join('\n') + '\n' });
    expect(replay.code, replay.stderr).toBe(0);
    const answers = replay.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { success: boolean; abort_code?: number | string });
    expect(answers).toHaveLength(input.length);
    rows.forEach((r, i) => {
      const last = answers[lastLine[i]];
      if (r.status === 'tier_b_hit') expect(last.success, r.target_function).toBe(true);
      else {
        expect(last.success, r.target_function).toBe(false);
        expect(last.abort_code === undefined ? null : String(last.abort_code), r.target_function).toBe(r.abort?.code ?? null);
      }
    });
  });

  it('Ctrl-C keeps the rows written (exit 130); --resume finishes the run with the same bytes', async () => {
    const out = path.join(tmp(), 'rows.jsonl');
    const child = spawn(process.execPath, [CLI, ...BASE, '--no-timings', '--jobs', '1', '--output', out], { cwd: REPO, env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Wait until some rows are on disk, then interrupt.
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (existsSync(`${out}.partial`) && readFileSync(`${out}.partial`, 'utf8').split('\n').length > 10) {
          clearInterval(t);
          child.kill('SIGINT');
          resolve();
        }
      }, 20);
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).not.toMatch(STACK_TRACE);
    const partial = lines(out);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(full.length);
    expect(partial).toEqual(full.slice(0, partial.length));
    const resumed = await runSmi([...BASE, '--no-timings', '--jobs', '1', '--output', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lines(out)).toEqual(full);
  });

  it('a run killed outright resumes from its partial file', async () => {
    const out = path.join(tmp(), 'rows.jsonl');
    const child = spawn(process.execPath, [CLI, ...BASE, '--no-timings', '--jobs', '1', '--output', out], { cwd: REPO, env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT } });
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (existsSync(`${out}.partial`) && readFileSync(`${out}.partial`, 'utf8').split('\n').length > 5) {
          clearInterval(t);
          child.kill('SIGKILL');
          resolve();
        }
      }, 20);
    });
    await new Promise((resolve) => child.on('close', resolve));
    expect(existsSync(out)).toBe(false);
    const resumed = await runSmi([...BASE, '--no-timings', '--jobs', '1', '--output', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lines(out)).toEqual(full);
  });

  it('--resume with other settings or another corpus is refused (SPEC_MISMATCH), naming what changed; the rows are untouched', async () => {
    const out = path.join(tmp(), 'rows.jsonl');
    const first = await runSmi(['benchmark-local', '--target-corpus', ORACLE, '--tier-a-only', '--quiet', '--jobs', '1', '--output', out]);
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(out, 'utf8');
    expect(JSON.parse(readFileSync(`${out}.spec.json`, 'utf8'))).toMatchObject({ spec_version: 1, tier_a_only: true, targets: [expect.stringContaining(path.basename(ORACLE))] });
    const mode = await runSmi(['benchmark-local', '--target-corpus', ORACLE, '--use-ptb', '--quiet', '--jobs', '1', '--output', out, '--resume', '--json']);
    expect(mode.code).toBe(2);
    expect(JSON.parse(mode.stdout)).toMatchObject({ error_code: 'SPEC_MISMATCH', message: expect.stringMatching(/tier_a_only true then, false now; use_ptb false then, true now/) });
    const corpus = await runSmi(['benchmark-local', '--target-corpus', fixturePath('corpus'), '--tier-a-only', '--quiet', '--jobs', '1', '--output', out, '--resume', '--json']);
    expect(JSON.parse(corpus.stdout)).toMatchObject({ error_code: 'SPEC_MISMATCH', message: expect.stringMatching(/targets 1 packages then, \d+ packages now/) });
    expect(readFileSync(out, 'utf8')).toBe(before);
    // The same settings resume (nothing left to do: the same rows).
    const same = await runSmi(['benchmark-local', '--target-corpus', ORACLE, '--tier-a-only', '--quiet', '--jobs', '1', '--output', out, '--resume']);
    expect(same.code, same.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('piped to head: the rows it wanted, then a quiet end (141), no "(interrupted)" summary', async () => {
    const r = await runShell(`node ${JSON.stringify(CLI)} benchmark-local --target-corpus ${JSON.stringify(fixturePath('corpus'))} --tier-a-only --jobs 1 | head -1`);
    expect([0, 141]).toContain(r.code);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/interrupted/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it('the summary says what was not done: Tier B not run with --tier-a-only, the framework packages not benchmarked', async () => {
    const std = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001');
    const out = path.join(tmp(), 'rows.jsonl');
    const r = await runSmi(['benchmark-local', '--target-corpus', ORACLE, '--target-corpus', std, '--tier-a-only', '--jobs', '1', '--output', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tier_b: 'not_run', framework_skipped: ['0x0000000000000000000000000000000000000000000000000000000000000001'] });
    expect(r.stderr).toMatch(/Tier B hits +not run \(--tier-a-only or --static-only\)/);
    expect(r.stderr).toMatch(/framework packages not benchmarked: 0x1 \(--include-framework benchmarks them\)/);
  });

  it('--package-ids-file from standard input, --tier-a-only, --static-only', async () => {
    const ids = await runSmi(['benchmark-local', '--target-corpus', fixturePath('corpus'), '--package-ids-file', '-', '--tier-a-only', '--quiet', '--jobs', '1'], {
      stdin: `# one package\n${path.basename(ORACLE)}\n`,
    });
    expect(ids.code, ids.stderr).toBe(0);
    const rows = ids.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row & { target_package: string; tier_b_details?: unknown });
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.target_package === path.basename(ORACLE))).toBe(true);
    expect(rows.every((r) => r.status === 'tier_a_hit' && r.tier_b_details === undefined)).toBe(true);
    const s = await runSmi(['benchmark-local', '--target-corpus', ORACLE, '--static-only', '--quiet', '--jobs', '1']);
    expect(
      s.stdout
        .trim()
        .split('\n')
        .every((l) => (JSON.parse(l) as Row).status === 'static_pass'),
    ).toBe(true);
  });

  it('--package-ids-file narrows the targets, not what is loaded: every package of the corpus is still there (its init ran)', async () => {
    const dir = tmp();
    const summaryOf = async (extra: string[], stdin?: string): Promise<{ rows: number; inits: { run: number; failed: number } }> => {
      const out = path.join(dir, `${extra.length}.jsonl`);
      const r = await runSmi(
        ['benchmark-local', '--target-corpus', fixturePath('corpus'), '--tier-a-only', '--quiet', '--jobs', '1', '--output', out, '--json', ...extra],
        stdin === undefined ? {} : { stdin },
      );
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { rows: number; inits: { run: number; failed: number } };
    };
    const [narrow, whole] = await Promise.all([summaryOf(['--package-ids-file', '-'], `${path.basename(ORACLE)}\n`), summaryOf([])]);
    expect(narrow.rows).toBe(6);
    expect(whole.rows).toBeGreaterThan(1000);
    expect(narrow.inits).toEqual(whole.inits);
    expect(whole.inits.run).toBeGreaterThan(10);
  });

  it('the framework only with --include-framework; a package that does not load is a row and the run goes on', async () => {
    const std = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001');
    const none = await runSmi(['benchmark-local', '--target-corpus', std, '--quiet', '--jobs', '1']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    const some = await runSmi(['benchmark-local', '--target-corpus', std, '--include-framework', '--module-filter', '^u8$', '--function-filter', '^(max|min)$', '--use-ptb', '--quiet', '--jobs', '1']);
    expect(
      some.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Row).target_function),
    ).toEqual(['max', 'min']);
    const corpus = tmp();
    mkdirSync(path.join(corpus, 'broken', 'bytecode_modules'), { recursive: true });
    writeFileSync(path.join(corpus, 'broken', 'bytecode_modules', 'm.mv'), 'not bytecode');
    const r = await runSmi(['benchmark-local', '--target-corpus', corpus, '--corpus', ORACLE, '--quiet', '--jobs', '1']);
    // The run goes on, and fails: the row names the reader's own status, not "module not found".
    expect(r.code, r.stderr).toBe(1);
    const row = JSON.parse(r.stdout.trim().split('\n')[0]) as Row & { failure_reason: string };
    expect(row).toMatchObject({ target_package: 'broken', status: 'miss', failure_stage: 'A1', error_code: 'BAD_MAGIC' });
    expect(row.failure_reason).toMatch(/^package failed to load: /);
    // A package, not a function: listed apart in the summary.
    const s = await runSmi(['benchmark-local', '--target-corpus', corpus, '--corpus', ORACLE, '--jobs', '1', '--output', path.join(corpus, 'rows.jsonl'), '--json']);
    expect(s.code).toBe(1);
    const summary = JSON.parse(s.stdout) as { rows: number; packages_failed_to_load: { package: string; error_code: string }[] };
    expect(summary.rows).toBe(0);
    expect(summary.packages_failed_to_load).toMatchObject([{ package: 'broken', error_code: 'BAD_MAGIC' }]);
    expect(s.stderr).toMatch(/packages that could not be read \(not counted: their functions are unknown\): 1\n {2}broken: [^\n]*module m: BAD_MAGIC: Unexpected binary header/);
    expect(s.stderr).not.toMatch(/BAD_MAGIC[^\n]*BAD_MAGIC/);
  });

  it('bad values exit 2 with one line naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--function-filter', '('], /--function-filter "\(": not a regular expression/],
      [['--shard', '3/2'], /--shard 3\/2: expected K\/N/],
      [['--random-seed', 'xyz'], /--random-seed xyz: expected hex/],
      [['--max-chain-depth', '0'], /--max-chain-depth 0: expected an integer of at least 1/],
      [['--jobs', '1.5'], /--jobs 1.5/],
    ];
    const runs = await Promise.all(cases.map(([extra]) => runSmi([...BASE, ...extra])));
    runs.forEach((r, i) => {
      expect(r.code, cases[i][0].join(' ')).toBe(2);
      expect(r.stderr).toMatch(cases[i][1]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
    const missing = await runSmi(['benchmark-local', '--target-corpus', path.join(tmp(), 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/not a directory/);
  });
});

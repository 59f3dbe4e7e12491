/**
 * SMI on a machine without the fixtures: the quick start's main command fetches the framework
 * and the sample corpus from a node (a loopback one serving the shared corpora's packages) into
 * the user cache on first use and gives the same benchmark as the fixtures; a second run needs
 * no node; `smi fetch` by hand; and the one error that says how to get the framework.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { loadProtocolConfig } from '@smi/move-vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chainOfPackages } from '../../../test-support/fake-chain.js';
import { type FakeGrpcServer, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { SAMPLE_PACKAGE_IDS } from '../src/sample-corpus.js';
import { requireBuiltCli, runSmi, STACK_TRACE } from './support/spawn-cli.js';

const tmp = (p: string): string => mkdtempSync(path.join(os.tmpdir(), p));
/** Rows without what differs between two runs of the same benchmark (paths, times). */
const rowsOf = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { transactions: _t, ...row } = JSON.parse(l) as Record<string, unknown>;
      return row;
    })
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

describeWithFixtures('smi without the fixtures: data found or fetched', ['corpus-mainnet'], () => {
  let node: FakeGrpcServer;
  beforeAll(async () => {
    requireBuiltCli();
    const packages = ['corpus', 'corpus-mainnet', 'corpus-deps'].flatMap((c) => findPackageDirs(fixturePath(c)).map((d) => loadPackageDir(d)));
    node = await startFakeGrpc(chainOfPackages(packages, loadProtocolConfig(FIXTURES_ROOT)));
  });
  afterAll(async () => node?.close());
  /** A machine with no fixtures: SMI_FIXTURES names nothing, no ../shared beside the working directory. */
  const bare = (cache: string, rpc = node.url): NodeJS.ProcessEnv => ({ SMI_FIXTURES: path.join(cache, 'no-fixtures-here'), XDG_CACHE_HOME: cache, SMI_RPC_URL: rpc });

  it('the quick start command fetches the framework and the sample once, then runs as on the fixtures; a rerun needs no node', async () => {
    const cache = tmp('smi-home-');
    const cwd = tmp('smi-work-');
    const quick = ['benchmark-local', '--sample', '--use-ptb', '--no-timings', '--output', 'results.jsonl', '--summary', 'summary.json'];
    const first = await runSmi(quick, { cwd, env: bare(cache) });
    expect(first.code, first.stderr.slice(-2000)).toBe(0);
    expect(first.stderr).not.toMatch(STACK_TRACE);
    expect(first.stderr).toMatch(/no framework here: fetching it from/);
    expect(first.stderr).toMatch(new RegExp(`fetching the sample corpus \\(${SAMPLE_PACKAGE_IDS.length} packages`));
    const asked = node.requests.length;
    expect(asked).toBeGreaterThan(SAMPLE_PACKAGE_IDS.length);
    // The same benchmark on the fixtures.
    const withFixtures = tmp('smi-ref-');
    const ref = await runSmi(quick, { cwd: withFixtures });
    expect(ref.code, ref.stderr.slice(-2000)).toBe(0);
    const summary = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { headline: unknown; total_functions?: number };
    expect(summary(cwd).headline).toEqual(summary(withFixtures).headline);
    expect(rowsOf(path.join(cwd, 'results.jsonl'))).toEqual(rowsOf(path.join(withFixtures, 'results.jsonl')));
    // Again, with the node gone: everything comes from the cache.
    const again = await runSmi(['benchmark-local', '--sample', '--tier-a-only', '--output', 'again.jsonl'], { cwd, env: bare(cache, 'http://127.0.0.1:9') });
    expect(again.code, again.stderr.slice(-2000)).toBe(0);
    expect(again.stderr).not.toMatch(/fetching/);
    expect(node.requests.length).toBe(asked);
  }, 300_000);

  it('smi call finds the cached framework; with none anywhere, one error says how to get it', async () => {
    const cache = tmp('smi-home-');
    const cwd = tmp('smi-work-');
    const none = await runSmi(['call', '0x1::u64::max', '--args', '3', '7', '--json'], { cwd, env: bare(cache) });
    expect(none.code).toBe(2);
    const err = JSON.parse(none.stdout) as { error_code: string; message: string };
    expect(err.error_code).toBe('FRAMEWORK_NOT_FOUND');
    expect(err.message).toMatch(/smi fetch framework/);
    const fetched = await runSmi(['fetch', 'framework', '--json'], { cwd, env: bare(cache) });
    expect(fetched.code, fetched.stderr).toBe(0);
    const report = JSON.parse(fetched.stdout) as { protocol_version: number; packages: { id: string }[]; dir: string };
    expect(report.protocol_version).toBe(loadProtocolConfig(FIXTURES_ROOT).version);
    expect(report.dir).toBe(path.join(cache, 'smi', 'framework', String(report.protocol_version)));
    expect(report.packages).toHaveLength(5);
    const call = await runSmi(['call', '0x1::u64::max', '--args', '3', '7', '--json'], { cwd, env: bare(cache) });
    expect(call.code, call.stdout + call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ status: 'success', return_values: [{ type: 'u64', value: '7' }] });
  }, 120_000);

  it('smi fetch packages: ids from a file or stdin, the closure, a JSON report; bad ids and a dead node are clear errors', async () => {
    const cwd = tmp('smi-work-');
    const env = bare(tmp('smi-home-'));
    const stake = '0x0cefa59cdde0de6e99842383caa80badfbf40476fabf203688bfb4a72510b37c';
    const r = await runSmi(['fetch', 'packages', '--ids-file', '-', '--with-deps', '--out', 'corpus', '--json'], { cwd, env, stdin: `# one package\n${stake}\n` });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { status: string; fetched: { id: string }[]; framework_left: string[]; requests: number };
    expect(report.status).toBe('ok');
    expect(report.fetched).toHaveLength(4);
    expect(report.framework_left).toHaveLength(2);
    expect(findPackageDirs(path.join(cwd, 'corpus'))).toHaveLength(4);
    const again = await runSmi(['fetch', 'packages', stake, '--with-deps', '--out', 'corpus'], { cwd, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 fetched .*4 already there.*0 requests/);
    const bad = await runSmi(['fetch', 'packages', 'not-an-id', '--out', 'x', '--json'], { cwd, env });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error_code: 'INVALID_ADDRESS' });
    const dead = await runSmi(['fetch', 'packages', '0xabc', '--out', 'x', '--rpc-retries', '0', '--json'], { cwd, env: bare(tmp('smi-home-'), 'http://127.0.0.1:9') });
    // Nothing fetched, the node did not answer: 69, as in every network command.
    expect(dead.code).toBe(69);
    expect(dead.stderr).not.toMatch(STACK_TRACE);
    const deadReport = JSON.parse(dead.stdout) as { status: string; failed: { code: string }[] };
    expect(deadReport).toMatchObject({ status: 'partial', failed: [{ code: 'UNAVAILABLE' }] });
  }, 120_000);
});

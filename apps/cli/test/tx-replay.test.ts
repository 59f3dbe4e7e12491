/**
 * `smi tx-replay` end to end against loopback Sui nodes (gRPC-web and GraphQL servers on
 * 127.0.0.1 answering from the real mainnet transactions of `fixtures/replay` as raw BCS):
 * fetched, cached, replayed, matched; a rerun from the cache asks the node nothing; a node
 * that is busy is retried; one that is down, or a digest it does not know, is a clear error.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { chainFromReplayFixtures, REPLAY_DIGESTS, replayFixtureEvents } from '../../../test-support/fake-chain.js';
import { type FakeGrpcServer, GRPC_STATUS, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { type FakeGraphQLServer, startFakeGraphQL } from '../../../test-support/fake-graphql.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { runSmi, STACK_TRACE } from './support/spawn-cli.js';

let servers: (FakeGrpcServer | FakeGraphQLServer)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const env = { SMI_FIXTURES: FIXTURES_ROOT };

describeWithFixtures('smi tx-replay against a loopback node', ['fixtures', 'replay'], () => {
  it('gRPC: every fixture transaction fetched, cached, replayed and matched; the rerun comes from the cache; --output writes FetchedTransaction lines', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    // The node serves each transaction's real events (the fixtures keep only their digest).
    const events = new Map<string, number>(REPLAY_DIGESTS.map((d) => [d, replayFixtureEvents(FIXTURES_ROOT, d, chain).length]));
    expect([...events.values()].some((n) => n > 0)).toBe(true);
    const grpc = await startFakeGrpc(chain);
    servers.push(grpc);
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-tx-replay-'));
    const args = ['tx-replay', ...REPLAY_DIGESTS.flatMap((d) => ['--digest', d]), '--rpc-url', grpc.url, '--archive-url', 'none', '--cache-dir', path.join(dir, 'cache'), '--replay'];
    const r = await runSmi([...args, '--output', path.join(dir, 'txs.jsonl')], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    for (const d of REPLAY_DIGESTS) {
      expect(r.stdout).toMatch(new RegExp(`${d} MATCH objects (\\d+)/\\1, gas equal match_score 1\\.00`));
      expect(existsSync(path.join(dir, 'cache', `${d}.json`))).toBe(true);
    }
    expect(r.stdout).toMatch(/Total: 2 {2}Successful: 2 {2}Status match: 2 {2}Full match: 2/);
    // Input objects were asked at the versions the transactions read, packages by id.
    const objects = grpc.requests.filter((q) => q.method === 'GetObject' || q.method === 'BatchGetObjects');
    expect(objects.length).toBeGreaterThan(5);
    expect(grpc.requests.some((q) => q.method === 'GetEpoch')).toBe(true);
    const lines = readFileSync(path.join(dir, 'txs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { digest: string; commands: unknown[]; inputs: unknown[]; effects: { status: unknown; gas_used: object; events_count: number } });
    expect(lines.map((l) => l.digest).sort()).toEqual([...REPLAY_DIGESTS].sort());
    expect(lines.every((l) => l.commands.length > 0 && l.effects.status === 'Success')).toBe(true);
    for (const l of lines) expect(l.effects.events_count, l.digest).toBe(events.get(l.digest));
    const asked = grpc.requests.length;
    const again = await runSmi(args, { env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(grpc.requests.length).toBe(asked);
  }, 120_000);

  it('--recent N walks back from the latest checkpoint; --download-only fills the cache; --from-cache --parallel replays it offline', async () => {
    const grpc = await startFakeGrpc(chainFromReplayFixtures(FIXTURES_ROOT));
    servers.push(grpc);
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-tx-replay-recent-'));
    const cache = path.join(dir, 'cache');
    const dl = await runSmi(['tx-replay', '--recent', '2', '--rpc-url', grpc.url, '--cache-dir', cache, '--download-only'], { env, cwd: dir });
    expect(dl.code, dl.stderr).toBe(0);
    expect(dl.stderr).toMatch(/2 transactions from/);
    for (const d of REPLAY_DIGESTS) expect(existsSync(path.join(cache, `${d}.json`))).toBe(true);
    await grpc.close();
    servers = [];
    const par = await runSmi(['tx-replay', '--from-cache', '--cache-dir', cache, '--parallel', '--threads', '2'], { env, cwd: dir });
    expect(par.code, par.stderr).toBe(0);
    expect(par.stdout).toMatch(/Total: 2 {2}Successful: 2 {2}Status match: 2 {2}Full match: 2/);
  }, 120_000);

  it('GraphQL: the same transaction fetched and matched', async () => {
    const gql = await startFakeGraphQL(chainFromReplayFixtures(FIXTURES_ROOT));
    servers.push(gql);
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-tx-replay-gql-'));
    const r = await runSmi(['tx-replay', '--digest', REPLAY_DIGESTS[1], '--rpc-url', gql.url, '--replay', '--json'], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n')[0])).toMatchObject({ digest: REPLAY_DIGESTS[1], match: true, gas_match: true, comparison: { match_score: 1 } });
  }, 120_000);

  it('a busy node is retried; an unknown digest and a node that is down are clear errors (exit 1 and 69, no stack trace); bad flags exit 2', async () => {
    const grpc = await startFakeGrpc(chainFromReplayFixtures(FIXTURES_ROOT), { failures: [{ method: 'GetTransaction', times: 2, grpcStatus: GRPC_STATUS.UNAVAILABLE, message: 'try later' }] });
    servers.push(grpc);
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-tx-replay-err-'));
    const busy = await runSmi(['tx-replay', '--digest', REPLAY_DIGESTS[0], '--rpc-url', grpc.url, '--replay', '--verbose'], { env, cwd: dir });
    expect(busy.code, busy.stderr).toBe(0);
    expect(busy.stderr).toMatch(/retry 1/);
    const unknown = await runSmi(['tx-replay', '--digest', '11111111111111111111111111111111', '--rpc-url', grpc.url, '--archive-url', 'none'], { env, cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/NOT_FOUND/);
    expect(unknown.stderr).not.toMatch(STACK_TRACE);
    const down = await runSmi(['tx-replay', '--digest', REPLAY_DIGESTS[0], '--rpc-url', 'http://127.0.0.1:9', '--rpc-retries', '1'], { env, cwd: dir });
    // A node that does not answer: exit 69 (EX_UNAVAILABLE), as in every network command.
    expect(down.code).toBe(69);
    expect(down.stderr).toMatch(/UNAVAILABLE/);
    expect(down.stderr).not.toMatch(STACK_TRACE);
    const flags = await runSmi(['tx-replay', '--from-cache', '--json'], { env, cwd: dir });
    expect(flags.code).toBe(2);
    expect(JSON.parse(flags.stdout)).toMatchObject({ status: 'error' });
  }, 120_000);
});

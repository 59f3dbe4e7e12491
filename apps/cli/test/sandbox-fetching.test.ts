/**
 * `smi sandbox-exec --enable-fetching` against a loopback Sui gRPC node serving the real
 * mainnet packages and objects of `fixtures/replay`: a request that needs an object and a
 * package the session does not hold fetches them, is answered with `fetched`, and the state
 * file keeps them, so a later run without fetching (and without a node) uses them.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { chainFromReplayFixtures } from '../../../test-support/fake-chain.js';
import { type FakeGrpcServer, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { requireBuiltCli, type Response, runSmi } from './sandbox-exec-helpers.js';

const COIN = '0x1520bcb11fd3a4b8bc175d2e0d33dff295cede495737bd3820ff94a440549004';
const LENDING = '0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0';
const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';

let servers: FakeGrpcServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describeWithFixtures('smi sandbox-exec --enable-fetching', ['fixtures', 'replay'], () => {
  beforeAll(() => requireBuiltCli());

  it('fetches what a request needs from the node, answers with "fetched", and keeps it in the state file', async () => {
    const grpc = await startFakeGrpc(chainFromReplayFixtures(FIXTURES_ROOT));
    servers.push(grpc);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-sandbox-fetch-'));
    const state = path.join(dir, 'state.json');
    const fetching = ['--enable-fetching', '--rpc-url', grpc.url, '--archive-url', 'none', '--state-file', state];

    const inspect = await runSmi(['sandbox-exec', ...fetching, '--verbose'], JSON.stringify({ action: 'inspect_object', object_id: COIN }));
    expect(inspect.code, inspect.stderr).toBe(0);
    const r = JSON.parse(inspect.stdout) as Response;
    expect(r).toMatchObject({ success: true, data: { object_id: COIN, version: 4346051 }, fetched: [{ kind: 'object', id: COIN, version: 4346051 }] });
    expect(inspect.stderr).toContain(`fetched object ${COIN} (version 4346051) from ${grpc.url}`);
    expect(grpc.requests.some((q) => q.method === 'GetObject' || q.method === 'BatchGetObjects')).toBe(true);

    const call = await runSmi(['sandbox-exec', ...fetching, '--json'], JSON.stringify({ action: 'call_function', package: LENDING, module: 'safe_math', function: 'add', args: ['40', '2'] }));
    expect(call.code, call.stderr).toBe(0);
    const c = JSON.parse(call.stdout) as Response & { data: { returns: { value: string }[] } };
    expect(c.success, c.error).toBe(true);
    expect(c.data.returns[0].value).toBe('42');
    expect(c.fetched).toEqual([
      { kind: 'package', id: LENDING, version: 4 },
      { kind: 'package', id: ORACLE, version: 1 },
    ]);

    // The state file holds the fetched object and packages.
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { objects: { id: string }[] };
    expect(saved.objects.map((o) => o.id)).toEqual(expect.arrayContaining([COIN, LENDING, ORACLE]));

    // Offline (no fetching, no node): the state file is enough.
    await grpc.close();
    servers = [];
    const offline = await runSmi(['sandbox-exec', '--state-file', state], JSON.stringify({ action: 'inspect_object', object_id: COIN }));
    expect(offline.code, offline.stderr).toBe(0);
    const o = JSON.parse(offline.stdout) as Response;
    expect(o).toMatchObject({ success: true, data: { object_id: COIN, version: 4346051 } });
    expect(o.fetched).toBeUndefined();
  }, 120_000);

  it('an object the node does not have: a MissingObject response naming it (exit 0, the request was handled); without the flag no node is asked', async () => {
    const grpc = await startFakeGrpc(chainFromReplayFixtures(FIXTURES_ROOT));
    servers.push(grpc);
    const missing = `0x${'de'.repeat(32)}`;
    const r = await runSmi(['sandbox-exec', '--enable-fetching', '--rpc-url', grpc.url, '--archive-url', 'none'], JSON.stringify({ action: 'inspect_object', object_id: missing }));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: false, error_category: 'MissingObject', fetch_error: { kind: 'object', id: missing, code: 'NOT_FOUND' } });
    const asked = grpc.requests.length;
    const off = await runSmi(['sandbox-exec', '--rpc-url', grpc.url], JSON.stringify({ action: 'inspect_object', object_id: COIN }));
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ success: false, error_category: 'MissingObject' });
    expect(grpc.requests.length).toBe(asked);
  }, 120_000);
});

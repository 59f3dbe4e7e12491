/**
 * `smi doctor` against loopback servers that speak what the real ones speak: a full node
 * (gRPC-web over HTTP/1.1), the archive (native gRPC over HTTP/2 only) and GraphQL; and the
 * local data it finds or does not.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emptyChain } from '../../../test-support/fake-chain.js';
import { type FakeGraphQLServer, startFakeGraphQL } from '../../../test-support/fake-graphql.js';
import { type FakeGrpcServer, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { requireBuiltCli, runSmi, STACK_TRACE } from './support/spawn-cli.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Report {
  status: string;
  data: { framework: { found: boolean; origin?: string; error?: string } };
  endpoints: { role: string; probes: { transport: string; url: string; ok: boolean; checkpoint: string | null }[] }[];
}

describeWithFixtures('smi doctor', ['fixtures', 'framework'], () => {
  let node: FakeGrpcServer;
  let archive: FakeGrpcServer;
  let graphql: FakeGraphQLServer;
  beforeAll(async () => {
    requireBuiltCli();
    const chain = emptyChain();
    chain.checkpoints.push({ sequence: 4242n, digests: [] });
    node = await startFakeGrpc(chain);
    archive = await startFakeGrpc(chain, { kind: 'archive' });
    graphql = await startFakeGraphQL(chain);
  });
  afterAll(async () => {
    await node?.close();
    await archive?.close();
    await graphql?.close();
  });

  it('says which protocol each endpoint answers, and which URL to give the archive', async () => {
    const archiveAsHttp = archive.url.replace(/^grpc:/, 'http:');
    const r = await runSmi(['doctor', '--rpc-url', node.url, '--archive-url', archiveAsHttp, '--rpc-timeout-seconds', '5', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.data.framework).toMatchObject({ found: true, origin: 'fixtures' });
    const byRole = Object.fromEntries(report.endpoints.map((e) => [e.role, Object.fromEntries(e.probes.map((p) => [p.transport, p.ok]))]));
    expect(byRole).toEqual({ node: { 'grpc-web': true, grpc: false }, archive: { 'grpc-web': false, grpc: true } });
    expect(report.endpoints[1]?.probes.find((p) => p.ok)?.checkpoint).toBe('4242');
    const text = await runSmi(['doctor', '--rpc-url', node.url, '--archive-url', archiveAsHttp, '--rpc-timeout-seconds', '5']);
    expect(text.stdout).toContain(`-> use ${archive.url}`);
    const g = await runSmi(['doctor', '--rpc-url', graphql.url, '--archive-url', 'none', '--json']);
    expect((JSON.parse(g.stdout) as Report).endpoints).toMatchObject([{ role: 'node', probes: [{ transport: 'graphql', ok: true, checkpoint: '4242' }] }]);
  });

  it('from any folder, with SMI_FIXTURES unset, the data beside the checkout is found (or its absence said)', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'smi-elsewhere-'));
    const env = { SMI_FIXTURES: '', XDG_CACHE_HOME: elsewhere };
    const beside = path.resolve(REPO_ROOT, '..', 'shared');
    const r = await runSmi(['doctor', '--offline', '--json'], { cwd: elsewhere, env });
    if (!existsSync(path.join(beside, 'fixtures', 'framework'))) {
      // A checkout with no `../shared` beside it (CI's fresh clone in a temp folder): nothing
      // is found, and the report says where to get the framework.
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as Report & { data: { fixtures: string | null } };
      expect(report.data.fixtures).toBeNull();
      expect(report.data.framework.error).toMatch(/smi fetch framework/);
      return;
    }
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { data: { fixtures: string } }).data.fixtures).toBe(beside);
    const call = await runSmi(['call', '0x1::u64::max', '--args', '3', '7'], { cwd: elsewhere, env });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/u64 = "7"/);
  });

  it('a dead endpoint and a machine without the framework: exit 1, each said plainly', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'smi-home-'));
    const env = { SMI_FIXTURES: path.join(home, 'none'), XDG_CACHE_HOME: home };
    const r = await runSmi(['doctor', '--offline', '--json'], { cwd: home, env });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.data.framework.found).toBe(false);
    expect(report.data.framework.error).toMatch(/smi fetch framework/);
    const dead = await runSmi(['doctor', '--rpc-url', 'http://127.0.0.1:9', '--archive-url', 'none', '--rpc-timeout-seconds', '3']);
    // A node that does not answer: 69, as in every network command.
    expect(dead.code).toBe(69);
    expect(dead.stdout).toMatch(/no protocol answers/);
    expect(dead.stderr).not.toMatch(STACK_TRACE);
  });
});

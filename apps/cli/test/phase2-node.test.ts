/**
 * `smi phase2 --simulation-mode dry-run|dev-inspect` from the command line, against a fake
 * full node on loopback gRPC-web whose simulations run in our own simulator: a plan file's
 * plan is a hit through a dry run, a dev-inspect paid by --gas-coin sends no checks, and the
 * preflight stops a run that cannot work before it starts (exit 2 with its code).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeGrpcServer, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { type Phase2NodeFixture, phase2NodeFixture, PUBLISHER, RECEIPT, SENDER, SHOP } from '../../../test-support/phase2-node-fixture.js';
import { requireBuiltCli, runSmi } from './support/spawn-cli.js';

let f: Phase2NodeFixture;
let server: FakeGrpcServer;
let dir: string;
let planFile: string;

const BUY = {
  calls: [
    { target: `${SHOP}::shop::new_item`, args: [{ u64: 3 }] },
    { target: `${SHOP}::shop::buy`, args: [{ result: 0 }] },
  ],
};
const base = (): string[] => ['phase2', '--corpus-root', f.corpus, '--samples', '0', '--agent', 'mock-planfile', '--plan-file', planFile, '--archive-url', 'none', '--no-log', '--quiet'];

describeWithFixtures('smi phase2 on a node', ['fixtures', 'framework'], () => {
  beforeAll(async () => {
    requireBuiltCli();
    f = await phase2NodeFixture();
    server = await startFakeGrpc(f.chain);
    dir = mkdtempSync(path.join(tmpdir(), 'smi-phase2-node-'));
    planFile = path.join(dir, 'plans.json');
    writeFileSync(planFile, JSON.stringify({ [SHOP]: BUY }));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("--simulation-mode dry-run: the plan file's plan creates a target type on the node; the run JSON names the node and the gas coin", async () => {
    const out = path.join(dir, 'dry.json');
    const r = await runSmi([...base(), '--simulation-mode', 'dry-run', '--rpc-url', server.url, '--sender', SENDER, '--out', out, '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', done: 1 });
    const run = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown> & { packages: Record<string, unknown>[] };
    expect(run).toMatchObject({ schema_version: 2, simulation_mode: 'dry-run', rpc_url: server.url, sender: SENDER, gas_coin: f.coins[0] });
    expect(run.packages[0]).toMatchObject({ package_id: SHOP, simulation_mode: 'dry-run', dry_run_ok: true, fell_back_to_dev_inspect: false, hit_types: [RECEIPT], score: { created_hits: 1 } });
    const sim = server.requests.filter((q) => q.method === 'SimulateTransaction');
    expect(sim.length).toBeGreaterThan(0);
    expect(sim.every((q) => (q.request as { checks?: number }).checks === 0)).toBe(true);
  }, 120_000);

  it('--simulation-mode dev-inspect with --gas-coin: checks disabled, paid by that coin', async () => {
    const before = f.chain.simulations.length;
    const out = path.join(dir, 'inspect.json');
    const r = await runSmi([...base(), '--simulation-mode', 'dev-inspect', '--rpc-url', server.url, '--sender', SENDER, '--gas-coin', f.coins[1], '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const sent = f.chain.simulations.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((s) => !s.checks && s.data.V1.gasData.payment[0]?.objectId === f.coins[1])).toBe(true);
    const run = JSON.parse(readFileSync(out, 'utf8')) as { gas_coin: string; packages: Record<string, unknown>[] };
    expect(run.gas_coin).toBe(f.coins[1]);
    expect(run.packages[0]).toMatchObject({ simulation_mode: 'dev-inspect', dev_inspect_ok: true, dry_run_ok: false, hit_types: [RECEIPT] });
  }, 120_000);

  it('the preflight: an endpoint that does not answer, an unfunded sender for a non-mock agent, options a node mode cannot take (exit 2)', async () => {
    const down = await runSmi([...base(), '--simulation-mode', 'dry-run', '--rpc-url', 'http://127.0.0.1:9', '--rpc-retries', '0', '--sender', SENDER, '--json'], { cwd: dir });
    expect(down.code).toBe(2);
    expect(JSON.parse(down.stdout)).toMatchObject({ status: 'error', error_code: 'ENDPOINT_UNREACHABLE' });
    const poor = await runSmi(
      ['phase2', '--corpus-root', f.corpus, '--samples', '0', '--agent', 'baseline-search', '--simulation-mode', 'dry-run', '--rpc-url', server.url, '--sender', PUBLISHER, '--no-log', '--json'],
      { cwd: dir },
    );
    expect(poor.code).toBe(2);
    expect(JSON.parse(poor.stdout)).toMatchObject({ status: 'error', error_code: 'SENDER_NOT_FUNDED' });
    const strict = await runSmi([...base(), '--simulation-mode', 'dev-inspect', '--require-dry-run', '--rpc-url', server.url, '--json'], { cwd: dir });
    expect(strict.code).toBe(2);
    expect(JSON.parse(strict.stdout)).toMatchObject({ error_code: 'USAGE' });
    const price = await runSmi([...base(), '--gas-price', '1000', '--json'], { cwd: dir });
    expect(JSON.parse(price.stdout)).toMatchObject({ error_code: 'NEEDS_NETWORK' });
  }, 120_000);
});

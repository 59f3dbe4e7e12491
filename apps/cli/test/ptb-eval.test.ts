/**
 * `smi ptb-eval` from the command line: a cached mainnet transaction whose app package was
 * dropped from the cache fails as MissingPackage offline, heals from a loopback gRPC node with
 * --enable-fetching (the package is written back to the cache), and runs offline after that.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { chainFromReplayFixtures, REPLAY_DIGESTS } from '../../../test-support/fake-chain.js';
import { startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { runSmi, STACK_TRACE } from './support/spawn-cli.js';

const APP = '0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d';
const env = { SMI_FIXTURES: FIXTURES_ROOT };

describeWithFixtures('smi ptb-eval', ['fixtures', 'replay'], () => {
  it('a missing package: MissingPackage offline; healed from a loopback node, saved to the cache; then runs offline', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-ptb-eval-'));
    const cache = path.join(dir, 'cache');
    const digest = REPLAY_DIGESTS[0];
    const imported = await runSmi(['tx-replay', '--import-snapshot', fixturePath('fixtures', 'replay', `${digest}.json`), '--cache-dir', cache, '--quiet'], { env, cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    const file = path.join(cache, `${digest}.json`);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, unknown>; smi: { objects: Record<string, unknown> } };
    delete entry.packages[APP];
    delete entry.smi.objects[APP];
    writeFileSync(file, JSON.stringify(entry));
    const offline = await runSmi(['ptb-eval', '--cache-dir', cache, '--output', '-'], { env, cwd: dir });
    expect(offline.code).toBe(1);
    expect(JSON.parse(offline.stdout.trim())).toMatchObject({ digest, status: 'Failed', error_category: 'MissingPackage', healing_actions: [{ action_type: 'deploy_package', success: false }] });
    expect(offline.stderr).toMatch(/Third-party: 0\/1/);
    const grpc = await startFakeGrpc(chainFromReplayFixtures(FIXTURES_ROOT));
    try {
      const healed = await runSmi(['ptb-eval', '--cache-dir', cache, '--enable-fetching', '--rpc-url', grpc.url, '--show-healing', '--json'], { env, cwd: dir });
      expect(healed.code, healed.stderr).toBe(0);
      expect(healed.stderr).toMatch(new RegExp(`deploy_package ok: Deployed ${APP}`));
      expect(JSON.parse(healed.stdout)).toMatchObject({ total: 1, success: 1, healing: { transactions_healed: 1, successful_actions: 1, success_rate: 1 } });
    } finally {
      await grpc.close();
    }
    // The healed package was kept: no node needed now.
    const again = await runSmi(['ptb-eval', '--cache-dir', cache, '--output', '-'], { env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ digest, status: 'Success', retry_count: 0, effects_match: true });
    const empty = await runSmi(['ptb-eval', '--cache-dir', path.join(dir, 'nothing'), '--json'], { env, cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr + empty.stdout).not.toMatch(STACK_TRACE);
  }, 120_000);
});

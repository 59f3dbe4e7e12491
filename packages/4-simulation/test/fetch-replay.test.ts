/**
 * Fetching a mainnet transaction through the data-source interface and replaying it: the chain
 * holds the real transactions of `fixtures/replay` as raw BCS (as a node serves them), the
 * fetch asks for every input object at the version it read and every package it reaches, the
 * framework comes from the snapshot of the transaction's protocol version, and the replay
 * matches the effects mainnet signed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SYSTEM_PACKAGES } from '@smi/bytecode';
import { loadProtocolConfig } from '@smi/move-vm';
import { chainFromReplayFixtures, chainSource, REPLAY_DIGESTS } from '../../../test-support/fake-chain.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { DataSourceError, fetchReplaySnapshot, frameworkSnapshotFor, NotProgrammableError, replayCachedParallel, replaySnapshot, TransactionCache } from '../src/index.js';
import { suiBcs, transactionDigest } from '@smi/ptb';

describeWithFixtures('fetch a mainnet transaction through a data source, then replay it', ['fixtures', 'replay'], () => {
  for (const digest of REPLAY_DIGESTS) {
    it(`${digest}: fetched (inputs at their versions, packages by linkage), replayed, every object and the gas match`, async () => {
      const chain = chainFromReplayFixtures(FIXTURES_ROOT);
      const asked: string[] = [];
      const fetched = await fetchReplaySnapshot(chainSource(chain), digest, {
        localSystemPackage: (id, protocol) => frameworkSnapshotFor(FIXTURES_ROOT, protocol)?.packages.find((p) => p.id === id),
        onFetch: (what) => asked.push(what),
      });
      expect(asked[0]).toBe(`transaction ${digest}`);
      // System packages: the modules of the protocol version (the node only has their latest).
      expect(fetched.systemPackages.length).toBeGreaterThan(0);
      expect(fetched.systemPackages.every((p) => p.source === 'local' && SYSTEM_PACKAGES.has(p.id))).toBe(true);
      const protocolConfig = loadProtocolConfig(FIXTURES_ROOT, fetched.snapshot.protocolVersion);
      const report = replaySnapshot(fetched.snapshot, { protocolConfig, packages: fetched.packages });
      expect(report.status.match, report.status.message).toBe(true);
      expect(
        report.objects.filter((o) => !o.match),
        JSON.stringify(report.objects.filter((o) => !o.match)),
      ).toEqual([]);
      expect(report.match).toBe(true);
      expect(report.gasMatch).toBe(true);
      // Cached in the original's CachedTransaction shape (plus the smi section), read back, replayed again: the same.
      const cache = new TransactionCache(mkdtempSync(path.join(tmpdir(), 'smi-tx-cache-')));
      const file = cache.write(fetched);
      const entry = JSON.parse(readFileSync(file, 'utf8')) as {
        transaction: { digest: string; commands: { type: string }[]; effects: { status: unknown } };
        packages: Record<string, [string, string][]>;
        objects: Record<string, string>;
        cached_at: number;
      };
      expect(entry.transaction).toMatchObject({ digest, effects: { status: 'Success' } });
      expect(entry.transaction.commands.length).toBeGreaterThan(0);
      expect(Object.keys(entry.packages).length).toBeGreaterThan(0);
      expect(cache.digests()).toEqual([digest]);
      const again = cache.read(digest);
      const report2 = replaySnapshot(again.snapshot, { protocolConfig, packages: again.packages });
      expect({ match: report2.match, gas: report2.gasMatch }).toEqual({ match: true, gas: true });
    });
  }

  it('cached transactions replayed on 2 worker threads: outcomes in order, both match (and the original match_score is 1)', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    const cache = new TransactionCache(mkdtempSync(path.join(tmpdir(), 'smi-tx-cache-')));
    for (const d of REPLAY_DIGESTS)
      cache.write(await fetchReplaySnapshot(chainSource(chain), d, { localSystemPackage: (id, p) => frameworkSnapshotFor(FIXTURES_ROOT, p)?.packages.find((x) => x.id === id) }));
    const seen: string[] = [];
    const out = await replayCachedParallel(cache.dir, [...REPLAY_DIGESTS], 2, { fixturesRoot: FIXTURES_ROOT, onOutcome: (o) => seen.push(o.digest) });
    expect(out.map((o) => o.digest)).toEqual([...REPLAY_DIGESTS]);
    expect(seen.sort()).toEqual([...REPLAY_DIGESTS].sort());
    for (const o of out) expect(o).toMatchObject({ local_success: true, match: true, gas_match: true, error: null, comparison: { match_score: 1, notes: [] } });
  });

  it('a system transaction (not programmable) is said to have nothing to replay', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    const tx = chain.transactions.get(REPLAY_DIGESTS[0])!;
    const data = suiBcs.TransactionData.parse(tx.transactionBcs);
    const system = { ...data, V1: { ...data.V1, kind: { $kind: 'EndOfEpochTransaction', EndOfEpochTransaction: [] } } } as typeof data;
    const digest = transactionDigest(system);
    chain.transactions.set(digest, { ...tx, digest, transactionBcs: suiBcs.TransactionData.serialize(system).toBytes() });
    await expect(fetchReplaySnapshot(chainSource(chain), digest)).rejects.toBeInstanceOf(NotProgrammableError);
  });

  it('a transaction the node does not have, or that hashes to another digest, is a clear error', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    await expect(fetchReplaySnapshot(chainSource(chain), '11111111111111111111111111111111')).rejects.toThrow(/transaction 11111111111111111111111111111111 not found at memory:/);
    const [a, b] = REPLAY_DIGESTS;
    chain.transactions.set(b, { ...chain.transactions.get(a)!, digest: b });
    const wrong = fetchReplaySnapshot(chainSource(chain), b);
    await expect(wrong).rejects.toBeInstanceOf(DataSourceError);
    await expect(wrong).rejects.toThrow(new RegExp(`answered for ${b} a transaction whose digest is ${a}`));
  });
});

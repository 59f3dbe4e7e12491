/**
 * `fetchPackages` and `fetchFramework` against the loopback gRPC and GraphQL nodes serving the
 * real packages of the fixtures: the linkage closure, the checks on every answer (a truncated or
 * corrupted answer is an error, nothing is written), resuming from disk, the framework and its
 * protocol config in the cache, and the order in which `locateFramework` looks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalAddress, findPackageDirs, loadPackageDir, type MovePackage } from '@smi/bytecode';
import { loadProtocolConfig } from '@smi/move-vm';
import { GraphQLDataSource, GrpcDataSource } from '@smi/network';
import { objectDigest, suiBcs } from '@smi/ptb';
import { fetchFramework, fetchPackages, frameworkSnapshotFor, loadFrameworkDir, locateFramework, locateProtocolConfig, packageObjectOf, readReplaySnapshot, type SuiDataSource } from '@smi/simulation';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chainOfPackages, chainProtocolConfig, emptyChain, type FakeChain, REPLAY_DIGESTS } from '../../../test-support/fake-chain.js';
import { startFakeGraphQL, type FakeGraphQLServer } from '../../../test-support/fake-graphql.js';
import { startFakeGrpc, type FakeGrpcServer } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const STAKE = canonicalAddress('0x0cefa59cdde0de6e99842383caa80badfbf40476fabf203688bfb4a72510b37c');
/** What its linkage names, transitively, outside the framework (the corpus README's table). */
const STAKE_DEPS = [
  '0x34cc6762780f4f6f153c924c0680cfe2a1fb4601e7d33cc28a92297b62de1e0e',
  '0x56d2bf0e2808c3771dd7187b6af84f88c4bb3709d0fd94eac659cd341e27dd2d',
  '0xca5fb99af8ee7f40da48ed782107b40c8d669f17b85c76d7af7aec856d430f34',
].map((a) => canonicalAddress(a));
const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'smi-fetch-'));

describeWithFixtures('fetching packages and the framework from a node', ['corpus-mainnet'], () => {
  let corpus: MovePackage[];
  let framework: MovePackage[];
  let chain: FakeChain;
  let grpc: FakeGrpcServer;
  let graphql: FakeGraphQLServer;
  const latest = () => loadProtocolConfig(FIXTURES_ROOT);
  beforeAll(async () => {
    corpus = findPackageDirs(fixturePath('corpus-mainnet')).map((d) => loadPackageDir(d));
    framework = loadFrameworkDir(fixturePath('fixtures', 'framework')).map((b) => b.pkg);
    chain = chainOfPackages([...framework, ...corpus], latest());
    grpc = await startFakeGrpc(chain);
    graphql = await startFakeGraphQL(chain);
  });
  afterAll(async () => {
    await grpc?.close();
    await graphql?.close();
  });
  const sources = (): [string, SuiDataSource][] => [
    ['gRPC', new GrpcDataSource({ url: grpc.url })],
    ['GraphQL', new GraphQLDataSource(graphql.url)],
  ];

  it('a package with its linkage closure, byte for byte, its digest checked; the framework left to fetch framework', async () => {
    for (const [name, source] of sources()) {
      const out = tmp();
      const r = await fetchPackages(source, [STAKE], out, { withDeps: true });
      expect(r.failed, name).toEqual([]);
      expect(r.fetched.map((f) => f.id).sort(), name).toEqual([STAKE, ...STAKE_DEPS].sort());
      expect(r.system, name).toEqual(['0x1', '0x2'].map((a) => canonicalAddress(a)));
      expect(r.requests, name).toBe(4);
      for (const f of r.fetched) {
        const original = corpus.find((p) => p.id === f.id) as MovePackage;
        const written = loadPackageDir(path.join(out, f.id));
        expect(
          written.modules.map((m) => Buffer.from(m.bytes).toString('hex')),
          `${name} ${f.id}`,
        ).toEqual(original.modules.map((m) => Buffer.from(m.bytes).toString('hex')));
        expect(written.linkageTable).toEqual(original.linkageTable);
        expect(written.typeOriginTable).toEqual(original.typeOriginTable);
        expect(written.originalId).toBe(original.originalId);
        const meta = JSON.parse(readFileSync(path.join(out, f.id, 'metadata.json'), 'utf8')) as { objectDigest: string; version: number };
        const stored = chain.objects.get(f.id)?.values().next().value as Uint8Array;
        expect(meta.objectDigest).toBe(objectDigest(suiBcs.Object.parse(stored)));
        expect(meta.version).toBe(original.version);
      }
      // Run again: everything is on disk, nothing is asked of the node.
      const again = await fetchPackages(source, [STAKE], out, { withDeps: true });
      expect(again.requests, name).toBe(0);
      expect(again.cached.sort(), name).toEqual([STAKE, ...STAKE_DEPS].sort());
    }
  });

  it('a truncated or corrupted answer fails that package and writes nothing; the others are fetched', async () => {
    const victim = STAKE_DEPS[1] as string;
    const cases: [string, (b: Uint8Array) => Uint8Array][] = [
      ['truncated', (b) => b.subarray(0, b.length - 40)],
      ['one byte flipped in a module', (b) => Uint8Array.from(b, (x, i) => (i === b.length - 100 ? x ^ 1 : x))],
    ];
    for (const [what, tamper] of cases) {
      chain.tamper = (id, _v, bytes) => (id === victim ? tamper(bytes) : bytes);
      try {
        for (const [name, source] of sources()) {
          const out = tmp();
          const r = await fetchPackages(source, [STAKE], out, { withDeps: true });
          expect(
            r.failed.map((f) => [f.id, f.code]),
            `${name} ${what}`,
          ).toEqual([[victim, 'INVALID_RESPONSE']]);
          expect(r.failed[0]?.message).toMatch(/corrupted or truncated/);
          expect(
            findPackageDirs(out)
              .map((d) => path.basename(d))
              .sort(),
          ).toEqual([STAKE, ...STAKE_DEPS].filter((id) => id !== victim).sort());
        }
      } finally {
        delete chain.tamper;
      }
    }
  });

  it('an id that no node has, or that names a Move object, fails with its code; a run stopped by its signal resumes', async () => {
    const [, source] = sources()[0] as [string, SuiDataSource];
    const out = tmp();
    const missing = canonicalAddress('0xabc123');
    const r = await fetchPackages(source, [missing, STAKE], out);
    expect(r.failed.map((f) => [f.id, f.code])).toEqual([[missing, 'NOT_FOUND']]);
    expect(r.fetched.map((f) => f.id)).toEqual([STAKE]);
    // Stopped before it starts: nothing fetched, the rest comes on the next run.
    const stopped = new AbortController();
    stopped.abort();
    const out2 = tmp();
    const first = await fetchPackages(source, STAKE_DEPS, out2, { signal: stopped.signal });
    expect(first.interrupted).toBe(true);
    expect(first.fetched).toEqual([]);
    const second = await fetchPackages(source, STAKE_DEPS, out2);
    expect(second.fetched.map((f) => f.id).sort()).toEqual([...STAKE_DEPS].sort());
  });

  it('fetch framework: the system packages and the protocol config into the cache, where the lookup finds them', async () => {
    for (const [name, source] of sources()) {
      const cache = tmp();
      const r = await fetchFramework(source, cache);
      const version = latest().version;
      expect(r.protocolVersion, name).toBe(version);
      expect(r.packages.map((p) => p.id).sort(), name).toEqual(framework.map((p) => p.id).sort());
      const config = loadProtocolConfig(cache, version);
      const fixture = latest();
      for (const [k, v] of Object.entries(fixture.featureFlags)) if (typeof v === 'boolean') expect(config.featureFlags[k], `${name} flag ${k}`).toBe(v);
      for (const [k, v] of Object.entries(fixture.values)) if (v !== null && typeof v !== 'object') expect(config.values[k], `${name} ${k}`).toBe(v);
      const found = locateFramework({ cacheDir: cache, env: {} });
      expect(found.origin).toBe('cache');
      expect(found.protocolVersion).toBe(version);
      expect(found.packages.map((p) => p.id).sort(), name).toEqual(framework.map((p) => p.id).sort());
      for (const p of found.packages) {
        const want = framework.find((f) => f.id === p.id) as MovePackage;
        expect(
          p.modules.map((m) => m.name),
          p.id,
        ).toEqual(want.modules.map((m) => m.name));
      }
      expect(locateProtocolConfig(undefined, { cacheDir: cache, env: {} }).version).toBe(version);
      // Again: the packages are in the cache, only the config is asked for.
      const again = await fetchFramework(source, cache);
      expect(again.packages.every((p) => p.cached)).toBe(true);
      expect(again.requests).toBe(1);
    }
  });

  it('the framework is looked up in order: --framework, SMI_FRAMEWORK, the corpus, the fixtures, the cache; none: one error saying how to get it', async () => {
    const cache = tmp();
    await fetchFramework(new GrpcDataSource({ url: grpc.url }), cache);
    const bundles = fixturePath('fixtures', 'framework');
    const corpusFramework = tmp();
    await fetchPackages(new GrpcDataSource({ url: grpc.url }), ['0x1', '0x2', '0x3'], corpusFramework);
    const own = findPackageDirs(corpusFramework).map((d) => loadPackageDir(d));
    const all = { framework: bundles, corpus: own, fixtures: FIXTURES_ROOT, cacheDir: cache, env: { SMI_FRAMEWORK: corpusFramework } };
    expect(locateFramework(all).origin).toBe('flag');
    const { framework: _f, ...noFlag } = all;
    expect(locateFramework(noFlag).origin).toBe('env');
    expect(locateFramework({ ...noFlag, env: {} }).origin).toBe('corpus');
    expect(locateFramework({ ...noFlag, corpus: [], env: {} }).origin).toBe('fixtures');
    expect(locateFramework({ cacheDir: cache, env: {} }).origin).toBe('cache');
    // A folder of packages in the sui-packages layout is a framework too (SMI_FRAMEWORK).
    expect(
      locateFramework({ env: { SMI_FRAMEWORK: corpusFramework }, cacheDir: tmp() })
        .packages.map((p) => p.id)
        .sort(),
    ).toEqual(own.map((p) => p.id).sort());
    // Only what a call needs: a package and the system packages its modules name, transitively.
    const ids = (o: Parameters<typeof locateFramework>[0]) =>
      locateFramework(o)
        .packages.map((p) => p.id)
        .sort();
    const [one, two, three] = ['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a));
    for (const where of [
      { fixtures: FIXTURES_ROOT, env: {} },
      { cacheDir: cache, env: {} },
    ]) {
      expect(ids({ ...where, closureOf: [one] })).toEqual([one]);
      expect(ids({ ...where, closureOf: [two] })).toEqual([one, two]);
      expect(ids({ ...where, closureOf: [three] })).toEqual([one, two, three]);
    }
    const empty = tmp();
    expect(() => locateFramework({ cacheDir: empty, env: {} })).toThrow(/no Sui framework found.*smi fetch framework/);
    const notFramework = tmp();
    writeFileSync(path.join(notFramework, 'README'), 'nothing here');
    expect(() => locateFramework({ framework: notFramework, env: {} })).toThrow(/holds no framework/);
    expect(() => locateProtocolConfig(77_777, { cacheDir: empty, env: {} })).toThrow(/smi fetch framework --protocol-version 77777/);
  });

  it('fetch framework --protocol-version N: the system packages as they ran under N, found by their versions and the epochs that made them', async () => {
    // A chain whose framework was upgraded twice: v1 at genesis (protocol 10), v2 by the
    // end-of-epoch transaction of epoch 4 (protocol 100 from epoch 5), v3 by that of epoch 8
    // (protocol 110 from epoch 9).
    const history = [10, 100, 110].map((pv) => frameworkSnapshotFor(FIXTURES_ROOT, pv) as { version: number; packages: MovePackage[] });
    const upgrades = REPLAY_DIGESTS.map((digest, i) => {
      const snap = readReplaySnapshot(fixturePath('fixtures', 'replay', `${digest}.json`));
      const effects = snap.signedEffects as NonNullable<typeof snap.signedEffects>;
      const epoch = i === 0 ? 4n : 8n;
      if (effects.$kind === 'V1') effects.V1.executedEpoch = epoch;
      else effects.V2.executedEpoch = epoch;
      return { digest, transactionBcs: suiBcs.TransactionData.serialize(snap.transaction).toBytes(), effectsBcs: suiBcs.TransactionEffects.serialize(effects).toBytes() };
    });
    const c = emptyChain();
    for (const u of upgrades) c.transactions.set(u.digest, { ...u, eventsBcs: null, checkpoint: 1n, timestampMs: 1n, unchangedLoadedRuntimeObjects: null });
    const ids = ['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a));
    for (const id of ids) {
      const versions = new Map<bigint, Uint8Array>();
      history.forEach((h, i) => {
        const pkg = h.packages.find((p) => p.id === id) as MovePackage;
        const o = packageObjectOf({ ...pkg, version: i + 1 });
        if (i > 0) o.previousTransaction = (upgrades[i - 1] as { digest: string }).digest;
        versions.set(BigInt(i + 1), suiBcs.Object.serialize(o).toBytes());
      });
      c.objects.set(id, versions);
    }
    for (let e = 0n; e <= 12n; e++) c.epochs.set(e, { epoch: e, protocolVersion: e <= 4n ? 10 : e <= 8n ? 100 : 110, referenceGasPrice: 1000n, startTimestampMs: 1000n * e });
    c.protocolConfigs = new Map([10, 100, 110].map((v) => [v, chainProtocolConfig(loadProtocolConfig(FIXTURES_ROOT, v))]));
    const g = await startFakeGrpc(c);
    const q = await startFakeGraphQL(c);
    try {
      for (const [name, source] of [
        ['gRPC', new GrpcDataSource({ url: g.url })],
        ['GraphQL', new GraphQLDataSource(q.url)],
      ] as const) {
        for (const [pv, version] of [
          [10, 1],
          [100, 2],
          [110, 3],
        ] as const) {
          const cache = tmp();
          const r = await fetchFramework(source, cache, { protocolVersion: pv });
          expect(r.protocolVersion, `${name} ${pv}`).toBe(pv);
          expect(
            r.packages.map((p) => [p.id, p.version]),
            `${name} ${pv}`,
          ).toEqual(ids.map((id) => [id, version]));
          expect(r.absent.length).toBe(2);
          const found = locateFramework({ cacheDir: cache, env: {}, protocolVersion: pv });
          const want = history[version - 1] as { packages: MovePackage[] };
          expect(found.packages.length, `${name} ${pv}`).toBeGreaterThan(0);
          for (const p of found.packages) {
            const w = want.packages.find((x) => x.id === p.id) as MovePackage;
            expect(
              p.modules.map((m) => Buffer.from(m.bytes).toString('hex')),
              `${name} ${pv} ${p.id}`,
            ).toEqual(w.modules.map((m) => Buffer.from(m.bytes).toString('hex')));
          }
          expect(locateProtocolConfig(pv, { cacheDir: cache, env: {} }).version).toBe(pv);
        }
        // A version no epoch ran: not found, and nothing written.
        await expect(fetchFramework(source, tmp(), { protocolVersion: 50 }), name).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
    } finally {
      await g.close();
      await q.close();
    }
  });
});

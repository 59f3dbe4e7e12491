/**
 * The client against what the real servers answer (sui-rpc-api, sui-indexer-alt-graphql):
 * a query over the service's size limits (GraphQL RESOURCE_EXHAUSTED) and a node's internal
 * failure (INTERNAL) are reported at once, not retried as outages, while HTTP 429 is a rate
 * limit; page sizes follow the service's limits (object changes 1024 a page, events 50);
 * published packages are not created objects; and a checkpoint outside GraphQL's retention
 * window makes a replay fall back instead of failing.
 */
import { canonicalAddress } from '@smi/bytecode';
import { loadProtocolConfig } from '@smi/move-vm';
import { suiBcs } from '@smi/ptb';
import { fetchReplaySnapshot, fetchRuntimeChildren, readReplaySnapshot, replaySnapshot, type SuiDataSource } from '@smi/simulation';
import { afterEach, describe, expect, it } from 'vitest';
import { chainFromReplayFixtures, emptyChain, type FakeChain, REPLAY_DIGESTS } from '../../../test-support/fake-chain.js';
import { fakeEventsBcs, type FakeGraphQLServer, startFakeGraphQL } from '../../../test-support/fake-graphql.js';
import { type FakeGrpcServer, GRPC_STATUS, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { dataSourceFor, GraphQLDataSource, GrpcDataSource, withResilience } from '../src/index.js';
import { addr, rejection, sampleChain } from './support.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
const grpc = async (chain: FakeChain, options: Parameters<typeof startFakeGrpc>[1] = {}): Promise<FakeGrpcServer> => {
  const s = await startFakeGrpc(chain, options);
  servers.push(s);
  return s;
};
const graphql = async (chain: FakeChain, options: Parameters<typeof startFakeGraphQL>[1] = {}): Promise<FakeGraphQLServer> => {
  const s = await startFakeGraphQL(chain, options);
  servers.push(s);
  return s;
};
const resilient = (s: SuiDataSource) => withResilience(s, { retries: 4, baseDelayMs: 1, random: () => 0 });

describe('failures the servers mean differently', () => {
  it('GraphQL RESOURCE_EXHAUSTED is a query over the limits: REJECTED at once; HTTP 429 is a rate limit, retried', async () => {
    const s = await graphql(sampleChain(), { failures: [{ match: 'epoch', errorCode: 'RESOURCE_EXHAUSTED', message: 'Query has too many nodes', times: 5 }] });
    const source = resilient(new GraphQLDataSource(s.url));
    const e = await rejection(source.getEpoch(7n));
    expect(e.code).toBe('REJECTED');
    expect(e.message).toMatch(/too many nodes/);
    expect(s.requests.filter((r) => r.operationName === 'SmiEpoch')).toHaveLength(1);
    const limited = await graphql(sampleChain(), { failures: [{ match: 'epoch', httpStatus: 429, retryAfter: '0', times: 2 }] });
    const ok = await resilient(new GraphQLDataSource(limited.url)).getEpoch(7n);
    expect(ok.epoch).toBe(7n);
    expect(limited.requests.filter((r) => r.operationName === 'SmiEpoch')).toHaveLength(3);
  });

  it("a node's internal error is INTERNAL, reported after one try; UNAVAILABLE is retried", async () => {
    const g = await grpc(sampleChain(), { failures: [{ method: 'GetEpoch', grpcStatus: GRPC_STATUS.INTERNAL, message: 'db read failed', times: 5 }] });
    const e = await rejection(resilient(new GrpcDataSource({ url: g.url })).getEpoch(7n));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toMatch(/failed internally.*db read failed/);
    expect(g.requests.filter((r) => r.method === 'GetEpoch')).toHaveLength(1);
    const q = await graphql(sampleChain(), { failures: [{ match: 'epoch', errorCode: 'INTERNAL_SERVER_ERROR', message: 'Unexpected error', times: 5 }] });
    expect((await rejection(resilient(new GraphQLDataSource(q.url)).getEpoch(7n))).code).toBe('INTERNAL');
    expect(q.requests.filter((r) => r.operationName === 'SmiEpoch')).toHaveLength(1);
    const busy = await grpc(sampleChain(), { failures: [{ method: 'GetEpoch', grpcStatus: GRPC_STATUS.UNAVAILABLE, times: 2 }] });
    expect((await resilient(new GrpcDataSource({ url: busy.url })).getEpoch(7n)).epoch).toBe(7n);
    expect(busy.requests.filter((r) => r.method === 'GetEpoch')).toHaveLength(3);
  });
});

describe('page sizes and what a simulation created', () => {
  /** A chain whose simulation creates `objects` objects and one package, and emits `events` events. */
  const simulating = (objects: number, events: number): FakeChain => {
    const chain = emptyChain();
    chain.simulate = () => ({
      effectsBcs: Uint8Array.from([9, 9]),
      eventsBcs: events === 0 ? null : fakeEventsBcs(events),
      commandResults: null,
      createdObjects: [...Array.from({ length: objects }, (_, i) => ({ id: addr(0x1000 + i), type: `${addr(0xabc)}::m::Thing` })), { id: addr(0x9999), type: 'package' }],
    });
    return chain;
  };

  it('GraphQL: object changes come in one page of up to 1024; only events past 50 ask the simulation again; a larger pageSize is clamped', async () => {
    const s = await graphql(simulating(300, 120));
    const sim = await new GraphQLDataSource({ url: s.url, pageSize: 5000 }).simulateTransaction(Uint8Array.from([1]), { checks: true });
    expect(sim.createdObjects).toHaveLength(300);
    expect(sim.createdObjects?.some((o) => o.id === addr(0x9999))).toBe(false);
    const sims = s.requests.filter((r) => r.operationName === 'SmiSimulateTransaction');
    // 120 events: pages of 50, 50, 20; the 300 object changes in the first page.
    expect(sims).toHaveLength(3);
    expect(sims[0]?.variables).toMatchObject({ changesFirst: 1024, eventsFirst: 50 });
    const small = await graphql(simulating(3, 0));
    await new GraphQLDataSource({ url: small.url, pageSize: 2 }).simulateTransaction(Uint8Array.from([1]), { checks: true });
    expect(small.requests.filter((r) => r.operationName === 'SmiSimulateTransaction').map((r) => r.variables.changesFirst)).toEqual([2, 2]);
  });

  it('gRPC: a published package is not a created object', async () => {
    const g = await grpc(simulating(2, 0));
    const sim = await new GrpcDataSource({ url: g.url }).simulateTransaction(Uint8Array.from([1]), { checks: true });
    expect(sim.createdObjects?.map((o) => o.id)).toEqual([addr(0x1000), addr(0x1001)]);
  });

  it('the fake refuses what the service refuses: a page over its limit, a query over its size limits, a string UInt53, a bad address', async () => {
    const s = await graphql(sampleChain());
    const ask = async (query: string, variables: Record<string, unknown> = {}) => {
      const r = await fetch(s.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      return ((await r.json()) as { errors?: { message: string; extensions?: { code?: string } }[] }).errors?.[0];
    };
    expect(await ask('query { checkpoint(sequenceNumber: 100) { transactions(first: 51) { nodes { digest } } } }')).toMatchObject({
      message: 'Page size is too large: 51 > 50',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const wide = `query { ${Array.from({ length: 301 }, (_, i) => `a${i}: checkpoint { sequenceNumber }`).join(' ')} }`;
    expect(await ask(wide)).toMatchObject({ message: 'Query has over 300 nodes', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect((await ask('query($e: UInt53!) { epoch(epochId: $e) { epochId } }', { e: '7' }))?.message).toMatch(/UInt53/);
    expect((await ask('query($a: SuiAddress!) { object(address: $a) { version } }', { a: 'not-an-address' }))?.message).toMatch(/SuiAddress/);
    // Our client sends what passes.
    expect((await new GraphQLDataSource(s.url).getEpoch(7n)).epoch).toBe(7n);
  });
});

describeWithFixtures('a checkpoint outside the retention window (GraphQL)', ['fixtures', 'replay'], () => {
  it('the replay falls back to the current system packages instead of failing', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    chain.retainedFrom = 5000n;
    const s = await graphql(chain);
    const f = await fetchReplaySnapshot(withResilience(new GraphQLDataSource(s.url), { retries: 0 }), REPLAY_DIGESTS[0]);
    const two = f.systemPackages.find((p) => p.id === canonicalAddress('0x2'));
    expect(two?.source).toBe('current');
    expect(s.requests.some((r) => r.operationName === 'SmiObjectAtCheckpoint')).toBe(true);
  });
});

describeWithFixtures('dynamic-field children the node could not name', ['fixtures', 'replay'], () => {
  const CHILD = canonicalAddress('0x898dd24cc48476a7a2ff36372a443fefa53545b016feb317bb091e60e06b2e4c');
  const digest = REPLAY_DIGESTS[0];

  it('an empty runtime-objects list is unknown; replaying finds a child the snapshot lacks, fetched at or below its root version, and the replay matches', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    // The child at a later version too: the replay must get the one it read, not the latest.
    const child = chain.objects.get(CHILD) as Map<bigint, Uint8Array>;
    const [readVersion, bytes] = [...child][0] as [bigint, Uint8Array];
    const later = suiBcs.Object.parse(bytes);
    if (later.data.$kind === 'Move') later.data.Move.version = readVersion + 1_000_000n;
    child.set(readVersion + 1_000_000n, suiBcs.Object.serialize(later).toBytes());
    const protocolConfig = loadProtocolConfig(FIXTURES_ROOT, readReplaySnapshot(`${FIXTURES_ROOT}/fixtures/replay/${digest}.json`).protocolVersion);
    for (const [name, server] of [
      ['GraphQL', await graphql(chain)],
      ['gRPC', await grpc(chain)],
    ] as const) {
      const source = withResilience(name === 'GraphQL' ? new GraphQLDataSource(server.url) : new GrpcDataSource({ url: server.url }), { retries: 0 });
      const f = await fetchReplaySnapshot(source, digest);
      expect(f.runtimeObjectsKnown, name).toBe(false);
      expect(f.snapshot.loadedChildObjects).toEqual([]);
      // The fixtures hold no transaction that reads a child it leaves unchanged: this one's
      // child is also in its effects (so fetched as an input); taken out, it is such a child.
      expect(f.snapshot.objects.delete(CHILD)).toBe(true);
      const without = replaySnapshot(f.snapshot, { protocolConfig, packages: f.packages });
      expect(without.match).toBe(false);
      const children = await fetchRuntimeChildren(source, f, { protocolConfig });
      const report = replaySnapshot(f.snapshot, { protocolConfig, packages: f.packages });
      if (name === 'GraphQL') {
        expect(children).toEqual([{ id: CHILD, version: readVersion, how: 'root-version' }]);
        expect(report.match, name).toBe(true);
        expect(f.snapshot.loadedChildObjects).toEqual([{ id: CHILD, version: readVersion }]);
      } else {
        // gRPC cannot bound a version by a root, nor give one at a checkpoint: the current one, labelled so.
        expect(children).toEqual([{ id: CHILD, version: readVersion + 1_000_000n, how: 'current' }]);
      }
    }
  });

  it('a list the node gives is trusted: nothing to find', async () => {
    const chain = chainFromReplayFixtures(FIXTURES_ROOT);
    const tx = chain.transactions.get(digest);
    if (tx) tx.unchangedLoadedRuntimeObjects = [{ id: CHILD, version: [...(chain.objects.get(CHILD) as Map<bigint, Uint8Array>).keys()][0] as bigint }];
    const g = await grpc(chain);
    const f = await fetchReplaySnapshot(new GrpcDataSource({ url: g.url }), digest);
    expect(f.runtimeObjectsKnown).toBe(true);
    expect(f.snapshot.loadedChildObjects.map((c) => c.id)).toEqual([CHILD]);
  });
});

describe('the archive speaks native gRPC over HTTP/2 only', () => {
  it('a native source reads it (answers, NOT_FOUND, INTERNAL); a gRPC-web one cannot reach it; mainnet-archive is native', async () => {
    const archive = await grpc(sampleChain(), { kind: 'archive', failures: [{ method: 'GetCheckpoint', grpcStatus: GRPC_STATUS.INTERNAL, message: 'store read failed' }] });
    expect(archive.url).toMatch(/^grpc:\/\//);
    const native = new GrpcDataSource(archive.url);
    expect(native.transport).toBe('grpc');
    expect((await native.getEpoch(7n)).protocolVersion).toBe(68);
    expect((await native.getObject(addr(0xa), 3n)).version).toBe(3n);
    expect((await rejection(native.getObject(addr(0xeee)))).code).toBe('NOT_FOUND');
    expect((await rejection(native.checkpointTransactions(100n))).code).toBe('INTERNAL');
    expect(archive.requests.every((r) => r.headers['content-type'] === 'application/grpc')).toBe(true);
    const web = new GrpcDataSource({ url: archive.url.replace(/^grpc:/, 'http:'), transport: 'grpc-web', timeoutMs: 5000 });
    const refused = await rejection(web.getEpoch(7n));
    expect(refused.code).toBe('UNAVAILABLE');
    expect((dataSourceFor('mainnet-archive') as GrpcDataSource).transport).toBe('grpc');
    expect((dataSourceFor('mainnet') as GrpcDataSource).transport).toBe('grpc-web');
    expect((dataSourceFor('grpcs://archive.example:443') as GrpcDataSource).transport).toBe('grpc');
  });
});

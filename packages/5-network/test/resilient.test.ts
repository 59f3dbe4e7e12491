import { dataSourceFor, endpointKind, GraphQLDataSource, GrpcDataSource, parseRetryAfter, resolveEndpoint, SUI_ENDPOINTS, withResilience, type RetryEvent } from '@smi/network';
import { describe, expect, it, vi } from 'vitest';
import { emptyChain } from '../../../test-support/fake-chain.js';
import { GRPC_STATUS, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { startFakeGraphQL } from '../../../test-support/fake-graphql.js';
import { addr, deadUrl, OBJ_A, rejection, sampleChain, TX_FULL, TX_MISSING } from './support.js';

const fast = { baseDelayMs: 5, maxDelayMs: 20 };

describe('withResilience: retries', () => {
  it('retries UNAVAILABLE with backoff until it succeeds', async () => {
    const server = await startFakeGrpc(sampleChain(), { failures: [{ method: 'GetTransaction', times: 2, grpcStatus: GRPC_STATUS.UNAVAILABLE }] });
    try {
      const retries: RetryEvent[] = [];
      const source = withResilience(new GrpcDataSource(server.url), { ...fast, retries: 3, onRetry: (e) => retries.push(e) });
      const tx = await source.getTransaction(TX_FULL);
      expect(tx.digest).toBe(TX_FULL);
      expect(server.requests.length).toBe(3);
      expect(retries.map((r) => [r.method, r.attempt, r.error.code])).toEqual([
        ['getTransaction', 1, 'UNAVAILABLE'],
        ['getTransaction', 2, 'UNAVAILABLE'],
      ]);
      // Equal jitter: between half and all of base * 2^(attempt-1).
      expect(retries[0].delayMs).toBeGreaterThanOrEqual(2);
      expect(retries[0].delayMs).toBeLessThanOrEqual(5);
      expect(retries[1].delayMs).toBeGreaterThanOrEqual(5);
      expect(retries[1].delayMs).toBeLessThanOrEqual(10);
    } finally {
      await server.close();
    }
  });

  it('honours Retry-After on RATE_LIMITED (gRPC RESOURCE_EXHAUSTED, GraphQL HTTP 429)', async () => {
    const grpc = await startFakeGrpc(sampleChain(), { failures: [{ method: 'GetObject', grpcStatus: GRPC_STATUS.RESOURCE_EXHAUSTED, retryAfter: '0.08' }] });
    const gql = await startFakeGraphQL(sampleChain(), { failures: [{ match: 'object', httpStatus: 429, retryAfter: '0.06' }] });
    try {
      // The wait is a timer: with fake timers, the retry goes out only once `wait` ms have passed.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      for (const [inner, server, wait] of [
        [new GrpcDataSource(grpc.url), grpc, 80],
        [new GraphQLDataSource(gql.url), gql, 60],
      ] as const) {
        const delays: number[] = [];
        let retried!: () => void;
        const retry = new Promise<void>((resolve) => (retried = resolve));
        const source = withResilience(inner, {
          ...fast,
          onRetry: (e) => {
            delays.push(e.delayMs);
            retried();
          },
        });
        const got = source.getObject(OBJ_A, 5n);
        await retry;
        await vi.advanceTimersByTimeAsync(wait - 1);
        expect(server.requests.length).toBe(1);
        await vi.advanceTimersByTimeAsync(1);
        expect(await got).toMatchObject({ version: 5n });
        expect(delays).toEqual([wait]);
        expect(server.requests.length).toBe(2);
      }
    } finally {
      vi.useRealTimers();
      await grpc.close();
      await gql.close();
    }
  });

  it('gives up after the retries, saying so; a Retry-After beyond the limit fails at once', async () => {
    const server = await startFakeGrpc(sampleChain(), {
      failures: [
        { method: 'GetEpoch', times: 10, grpcStatus: GRPC_STATUS.UNAVAILABLE, message: 'overloaded' },
        { method: 'GetServiceInfo', httpStatus: 429, retryAfter: '120' },
      ],
    });
    try {
      const source = withResilience(new GrpcDataSource(server.url), { ...fast, retries: 2, maxRetryAfterMs: 1000 });
      const e = await rejection(source.getEpoch(7n));
      expect(e.code).toBe('UNAVAILABLE');
      expect(e.message).toBe(`epoch 7: ${server.url} is unavailable (LedgerService.GetEpoch: UNAVAILABLE: overloaded); gave up after 3 tries`);
      expect(server.requests.filter((r) => r.method === 'GetEpoch').length).toBe(3);
      const limited = await rejection(source.latestCheckpoint());
      expect(limited.code).toBe('RATE_LIMITED');
      expect(limited.details.retryAfterMs).toBe(120_000);
      expect(server.requests.filter((r) => r.method === 'GetServiceInfo').length).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('does not retry what another try cannot fix', async () => {
    const server = await startFakeGrpc(sampleChain({ simulate: false }));
    try {
      const source = withResilience(new GrpcDataSource(server.url), { ...fast, onRetry: () => expect.fail('no retry expected') });
      expect((await rejection(source.getTransaction(TX_MISSING))).code).toBe('NOT_FOUND');
      expect((await rejection(source.simulateTransaction(Uint8Array.from([1]), { checks: true }))).code).toBe('UNSUPPORTED');
      expect(server.requests.length).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('a dead endpoint is UNAVAILABLE after the retries, with a clear message', async () => {
    const url = await deadUrl();
    const retries: RetryEvent[] = [];
    const source = withResilience(new GrpcDataSource(url), { ...fast, retries: 2, onRetry: (e) => retries.push(e) });
    const e = await rejection(source.getObject(OBJ_A, 3n));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toMatch(
      new RegExp(
        `^object ${OBJ_A} at version 3: ${url.replace(/\./g, '\\.')} is unavailable \\(LedgerService\\.GetObject: no answer, fetch failed: connect ECONNREFUSED .*\\); gave up after 3 tries$`,
      ),
    );
    expect(e.details.endpoint).toBe(url);
    expect(retries.length).toBe(2);
  });
});

describe('withResilience: concurrency', () => {
  it('caps the calls on the wire at once', async () => {
    const server = await startFakeGrpc(sampleChain(), { delayMs: 40 });
    try {
      const source = withResilience(new GrpcDataSource(server.url), { ...fast, concurrency: 3 });
      const got = await Promise.all(Array.from({ length: 10 }, () => source.getObject(OBJ_A)));
      expect(got.every((o) => o.version === 5n)).toBe(true);
      expect(server.requests.length).toBe(10);
      expect(server.maxInFlight).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('waiting between retries holds no slot', async () => {
    const server = await startFakeGrpc(sampleChain(), { failures: [{ method: 'GetTransaction', grpcStatus: GRPC_STATUS.UNAVAILABLE }] });
    try {
      // With fake timers the retry's wait never ends on its own: the other call can only
      // finish meanwhile if the wait holds no slot.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let retried!: () => void;
      const retry = new Promise<void>((resolve) => (retried = resolve));
      const source = withResilience(new GrpcDataSource(server.url), { baseDelayMs: 200, maxDelayMs: 200, concurrency: 1, onRetry: () => retried() });
      let txDone = false;
      const tx = source.getTransaction(TX_FULL).finally(() => (txDone = true));
      await retry;
      expect(await source.getObject(OBJ_A)).toMatchObject({ version: 5n });
      expect(txDone).toBe(false);
      expect(server.requests.map((r) => r.method)).toEqual(['GetTransaction', 'GetObject']);
      await vi.advanceTimersByTimeAsync(200);
      expect((await tx).digest).toBe(TX_FULL);
      expect(server.requests).toHaveLength(3);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });
});

describe('withResilience: archive fallback', () => {
  it('asks the archive when the full node has no such transaction, object version or epoch', async () => {
    const fullnode = await startFakeGrpc(emptyChain());
    const archive = await startFakeGrpc(sampleChain());
    try {
      const source = withResilience(new GrpcDataSource(fullnode.url), { ...fast, fallback: new GrpcDataSource(archive.url) });
      expect((await source.getTransaction(TX_FULL)).effectsBcs).toEqual(Uint8Array.from([4, 5, 6, 7]));
      expect(await source.getObject(OBJ_A, 3n)).toMatchObject({ version: 3n });
      expect((await source.getEpoch(7n)).protocolVersion).toBe(68);
      expect(fullnode.requests.map((r) => r.method)).toEqual(['GetTransaction', 'GetObject', 'GetEpoch']);
      expect(archive.requests.map((r) => r.method)).toEqual(['GetTransaction', 'GetObject', 'GetEpoch']);
      // Only those three fall back.
      expect((await rejection(source.checkpointTransactions(100n))).code).toBe('NOT_FOUND');
      expect(archive.requests.length).toBe(3);
    } finally {
      await fullnode.close();
      await archive.close();
    }
  });

  it('an epoch the full node has not indexed (its number, no fields) is NOT_FOUND there, so the archive is asked; an archive that has not either answers empty: NOT_FOUND', async () => {
    const fullnode = await startFakeGrpc(emptyChain());
    const archive = await startFakeGrpc(sampleChain(), { kind: 'archive' });
    try {
      const direct = await rejection(new GrpcDataSource(fullnode.url).getEpoch(7n));
      expect(direct.code).toBe('NOT_FOUND');
      const source = withResilience(new GrpcDataSource(fullnode.url), { ...fast, fallback: new GrpcDataSource(archive.url) });
      expect((await source.getEpoch(7n)).protocolVersion).toBe(68);
      expect(archive.requests.map((r) => r.method)).toEqual(['GetEpoch']);
      const neither = await rejection(source.getEpoch(9n));
      expect(neither.code).toBe('NOT_FOUND');
      expect(neither.message).toContain(`; fallback: epoch 9 not found at ${archive.url}`);
    } finally {
      await fullnode.close();
      await archive.close();
    }
  });

  it('not at the archive either: NOT_FOUND naming both endpoints', async () => {
    const fullnode = await startFakeGrpc(emptyChain());
    const archive = await startFakeGraphQL(sampleChain());
    try {
      const source = withResilience(new GrpcDataSource(fullnode.url), { ...fast, fallback: new GraphQLDataSource(archive.url) });
      const e = await rejection(source.getObject(addr(0xeee), 2n));
      expect(e.code).toBe('NOT_FOUND');
      expect(e.message).toContain(`object ${addr(0xeee)} at version 2 not found at ${fullnode.url}`);
      expect(e.message).toContain(`; fallback: object ${addr(0xeee)} at version 2 not found at ${archive.url}`);
      expect(e.details.endpoint).toBe(archive.url);
    } finally {
      await fullnode.close();
      await archive.close();
    }
  });
});

describe('dataSourceFor and the named endpoints', () => {
  it('picks GraphQL for a /graphql path, gRPC otherwise, or what `kind` says', () => {
    expect(dataSourceFor('https://graphql.mainnet.sui.io/graphql')).toBeInstanceOf(GraphQLDataSource);
    expect(dataSourceFor('https://fullnode.mainnet.sui.io:443')).toBeInstanceOf(GrpcDataSource);
    expect(dataSourceFor('http://127.0.0.1:9000/api', { kind: 'graphql' })).toBeInstanceOf(GraphQLDataSource);
    expect(endpointKind('http://127.0.0.1:9000/graphql/')).toBe('graphql');
    expect(() => endpointKind('not a url')).toThrow(/not a URL/);
  });

  it('knows the public endpoints by name', () => {
    expect(resolveEndpoint('mainnet')).toBe('https://fullnode.mainnet.sui.io:443');
    expect(resolveEndpoint('mainnet-archive')).toBe('https://archive.mainnet.sui.io:443');
    expect(resolveEndpoint('mainnet-graphql')).toBe('https://graphql.mainnet.sui.io/graphql');
    expect(resolveEndpoint('testnet')).toBe(SUI_ENDPOINTS.testnet.fullnode);
    expect(dataSourceFor('testnet-graphql').endpoint).toBe(SUI_ENDPOINTS.testnet.graphql);
    expect(dataSourceFor('mainnet-archive')).toBeInstanceOf(GrpcDataSource);
  });

  it('builds working sources for the loopback fakes, wrapped when asked', async () => {
    const grpc = await startFakeGrpc(sampleChain(), { failures: [{ method: 'GetServiceInfo', grpcStatus: GRPC_STATUS.UNAVAILABLE }] });
    const gql = await startFakeGraphQL(sampleChain());
    try {
      expect(await dataSourceFor(grpc.url, { format: 'binary', resilience: fast }).latestCheckpoint()).toBe(100n);
      expect(grpc.requests.map((r) => r.format)).toEqual(['binary', 'binary']);
      expect(await dataSourceFor(gql.url).latestCheckpoint()).toBe(100n);
    } finally {
      await grpc.close();
      await gql.close();
    }
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(['3'])).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

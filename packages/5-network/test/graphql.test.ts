import { GraphQLDataSource } from '@smi/network';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEventsBcs, startFakeGraphQL, type FakeGraphQLServer } from '../../../test-support/fake-graphql.js';
import { addr, deadUrl, OBJ_A, OBJ_B, OTHER_TYPE, OWNER, rejection, sampleChain, SUI_COIN, TX_BARE, TX_FULL, TX_MANY_EVENTS, TX_MISSING, USD_COIN } from './support.js';

describe('GraphQLDataSource', () => {
  let server: FakeGraphQLServer;
  let source: GraphQLDataSource;

  beforeAll(async () => {
    server = await startFakeGraphQL(sampleChain());
    source = new GraphQLDataSource(server.url);
  });
  afterAll(() => server.close());

  const last = () => server.requests.at(-1)!;

  it('gets a transaction; the events come back as one TransactionEvents BCS put together from each event', async () => {
    const tx = await source.getTransaction(TX_FULL);
    expect(tx).toEqual({
      digest: TX_FULL,
      transactionBcs: Uint8Array.from([1, 2, 3]),
      effectsBcs: Uint8Array.from([4, 5, 6, 7]),
      eventsBcs: fakeEventsBcs(3),
      checkpoint: 100n,
      timestampMs: 1_700_000_000_123n,
      unchangedLoadedRuntimeObjects: null,
    });
    expect(last().operationName).toBe('SmiTransaction');
    expect(last().rootFields).toEqual(['transaction']);
    expect(last().variables).toEqual({ digest: TX_FULL, eventsFirst: 50 });
  });

  it('follows the events connection past the first page', async () => {
    const before = server.requests.length;
    const tx = await source.getTransaction(TX_MANY_EVENTS);
    expect(tx.eventsBcs).toEqual(fakeEventsBcs(120, 3));
    const asked = server.requests.slice(before);
    expect(asked.map((r) => r.operationName)).toEqual(['SmiTransaction', 'SmiTransactionEvents', 'SmiTransactionEvents']);
    expect(asked[1].variables.after).toEqual(expect.any(String));
  });

  it('a transaction without events, checkpoint or time', async () => {
    const tx = await source.getTransaction(TX_BARE);
    expect(tx).toMatchObject({ eventsBcs: null, checkpoint: null, timestampMs: null, effectsBcs: Uint8Array.from([9]) });
  });

  it('an unknown transaction is NOT_FOUND, naming it and the endpoint', async () => {
    const e = await rejection(source.getTransaction(TX_MISSING));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe(`transaction ${TX_MISSING} not found at ${server.url}`);
  });

  it('gets an epoch', async () => {
    expect(await source.getEpoch(7n)).toEqual({ epoch: 7n, protocolVersion: 68, referenceGasPrice: 750n, startTimestampMs: 1_699_999_999_000n });
    expect(last()).toMatchObject({ operationName: 'SmiEpoch', variables: { epochId: 7 } });
    expect((await rejection(source.getEpoch(8n))).code).toBe('NOT_FOUND');
    expect((await rejection(source.getEpoch(2n ** 60n))).code).toBe('REJECTED');
  });

  it('gets an object at a version and at its latest version', async () => {
    expect(await source.getObject(OBJ_A, 3n)).toEqual({ id: OBJ_A, version: 3n, bcs: Uint8Array.from([0xa, 3]) });
    expect(last()).toMatchObject({ operationName: 'SmiObject', variables: { address: OBJ_A, version: 3 } });
    expect(await source.getObject('0xa')).toEqual({ id: OBJ_A, version: 5n, bcs: Uint8Array.from([0xa, 5]) });
    expect(last().variables.version).toBeNull();
    expect(await source.getObject(OBJ_B)).toMatchObject({ version: 1n });
    const e = await rejection(source.getObject(OBJ_A, 4n));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe(`object ${OBJ_A} at version 4 not found at ${server.url}`);
  });

  it("the latest checkpoint, and a checkpoint's transactions over several pages", async () => {
    expect(await source.latestCheckpoint()).toBe(100n);
    expect(last().rootFields).toEqual(['checkpoint']);
    expect(await source.checkpointTransactions(99n)).toEqual([TX_BARE]);
    const before = server.requests.length;
    const digests = await source.checkpointTransactions(100n);
    expect(digests.length).toBe(120);
    expect(digests.slice(0, 2)).toEqual([TX_FULL, TX_MANY_EVENTS]);
    expect(server.requests.length - before).toBe(3);
    expect((await rejection(source.checkpointTransactions(5n))).code).toBe('NOT_FOUND');
  });

  it('lists owned objects page by page, with type filters', async () => {
    const small = new GraphQLDataSource({ url: server.url, pageSize: 2 });
    const before = server.requests.length;
    const all = await small.listOwnedObjects(OWNER);
    expect(all.map((o) => o.id)).toEqual([addr(0x101), addr(0x102), addr(0x103), addr(0x104), addr(0x105)]);
    expect(all[3]).toEqual({ id: addr(0x104), version: 4n, digest: expect.any(String), type: OTHER_TYPE });
    // The service's page limits first (once per source), then three pages of 2.
    expect(server.requests.length - before).toBe(4);
    expect(server.requests[before].operationName).toBe('SmiServiceLimits');
    expect(server.requests[before + 1].variables).toMatchObject({ owner: OWNER, filter: null, first: 2, after: null });
    const coins = await source.listOwnedObjects(OWNER, `${addr(2)}::coin::Coin`);
    expect(coins.map((o) => o.type)).toEqual([SUI_COIN, SUI_COIN, USD_COIN, SUI_COIN]);
    expect(last().variables.filter).toEqual({ type: `${addr(2)}::coin::Coin` });
    expect((await source.listOwnedObjects(OWNER, SUI_COIN)).length).toBe(3);
  });

  it('simulates with checks and as dev-inspect', async () => {
    const sim = await source.simulateTransaction(Uint8Array.from([5, 6]), { checks: true });
    expect(sim).toEqual({
      effectsBcs: Uint8Array.from([1, 5, 6]),
      eventsBcs: fakeEventsBcs(2, 9),
      commandResults: [{ returnValues: [{ type: 'u64', bcs: Uint8Array.from([42, 0, 0, 0, 0, 0, 0, 0]) }] }, { returnValues: [] }],
      createdObjects: [{ id: addr(0xc1), type: OTHER_TYPE }],
    });
    expect(last().operationName).toBe('SmiSimulateTransaction');
    expect(last().variables).toMatchObject({ transaction: { bcs: { value: 'BQY=' } }, checksEnabled: true });
    expect((await source.simulateTransaction(Uint8Array.from([5]), { checks: false })).effectsBcs).toEqual(Uint8Array.from([0, 5]));
    expect(last().variables.checksEnabled).toBe(false);
    const e = await rejection(source.simulateTransaction(Uint8Array.from([0xff]), { checks: true }));
    expect(e.code).toBe('REJECTED');
    expect(e.message).toContain('BAD_USER_INPUT: invalid transaction: bad kind');
  });
});

describe('GraphQLDataSource failures', () => {
  it('maps HTTP 429 (Retry-After), 503, GraphQL error codes, non-JSON and wrongly shaped answers', async () => {
    const server = await startFakeGraphQL(sampleChain(), {
      failures: [
        { match: 'object', httpStatus: 429, retryAfter: '3' },
        { match: 'object', httpStatus: 503 },
        { match: 'object', errorCode: 'REQUEST_TIMEOUT', message: 'Request timed out' },
        { match: 'SmiObject', errorCode: 'BAD_USER_INPUT', message: 'Invalid version' },
        { match: 'object', errorCode: 'FEATURE_UNAVAILABLE', message: 'archival lookups are off' },
        { match: 'object', malformed: true },
        { match: 'object', raw: { data: { object: { address: OBJ_A, version: 'three', objectBcs: 'AQ==' } } } },
      ],
    });
    try {
      const source = new GraphQLDataSource(server.url);
      const get = () => rejection(source.getObject(OBJ_A, 3n));
      const limited = await get();
      expect(limited.code).toBe('RATE_LIMITED');
      expect(limited.details).toMatchObject({ retryAfterMs: 3000, status: 429, endpoint: server.url });
      expect(limited.message).toBe(`object ${OBJ_A} at version 3: rate limited by ${server.url} (retry after 3000 ms) (SmiObject: HTTP 429 Too Many Requests: HTTP 429)`);
      expect((await get()).code).toBe('UNAVAILABLE');
      expect((await get()).code).toBe('UNAVAILABLE');
      const rejected = await get();
      expect(rejected.code).toBe('REJECTED');
      expect(rejected.message).toContain('BAD_USER_INPUT: Invalid version');
      expect((await get()).code).toBe('UNSUPPORTED');
      const notJson = await get();
      expect(notJson.code).toBe('INVALID_RESPONSE');
      expect(notJson.message).toContain('not JSON');
      const shape = await get();
      expect(shape.code).toBe('INVALID_RESPONSE');
      expect(shape.message).toContain('object.version');
      expect(await source.getObject(OBJ_A, 3n)).toMatchObject({ version: 3n });
    } finally {
      await server.close();
    }
  });

  it('a service without simulation is UNSUPPORTED', async () => {
    const server = await startFakeGraphQL(sampleChain({ simulate: false }));
    try {
      const e = await rejection(new GraphQLDataSource(server.url).simulateTransaction(Uint8Array.from([1]), { checks: true }));
      expect(e.code).toBe('UNSUPPORTED');
      expect(e.message).toContain('FEATURE_UNAVAILABLE');
    } finally {
      await server.close();
    }
  });

  it('a dead endpoint is UNAVAILABLE, saying the connection was refused', async () => {
    const url = await deadUrl('/graphql');
    const e = await rejection(new GraphQLDataSource(url).latestCheckpoint());
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toContain(`the latest checkpoint: ${url} is unavailable (SmiLatestCheckpoint: no answer, fetch failed`);
    expect(e.message).toContain('ECONNREFUSED');
  });
});

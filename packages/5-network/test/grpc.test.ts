import { GrpcTypes, SuiGrpcClient } from '@mysten/sui/grpc';
import { GRPC_READ_MASKS, GrpcDataSource } from '@smi/network';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReadMask, GRPC_STATUS, startFakeGrpc, type FakeGrpcServer } from '../../../test-support/fake-grpc.js';
import { fakeEventsBcs } from '../../../test-support/fake-graphql.js';
import { addr, deadUrl, OBJ_A, OBJ_B, OTHER_TYPE, OWNER, rejection, sampleChain, SUI_COIN, TX_BARE, TX_FULL, TX_MISSING, USD_COIN } from './support.js';

describe.each(['text', 'binary'] as const)('GrpcDataSource over gRPC-web (%s)', (format) => {
  let server: FakeGrpcServer;
  let source: GrpcDataSource;
  const contentType = format === 'text' ? 'application/grpc-web-text' : 'application/grpc-web+proto';

  beforeAll(async () => {
    server = await startFakeGrpc(sampleChain());
    source = new GrpcDataSource({ url: server.url, format, pageSize: 2 });
  });
  afterAll(() => server.close());

  const last = () => server.requests.at(-1)!;

  it('gets a transaction with its BCS, checkpoint, time and runtime-loaded objects, asking exactly for them', async () => {
    const tx = await source.getTransaction(TX_FULL);
    expect(tx).toEqual({
      digest: TX_FULL,
      transactionBcs: Uint8Array.from([1, 2, 3]),
      effectsBcs: Uint8Array.from([4, 5, 6, 7]),
      eventsBcs: fakeEventsBcs(3),
      checkpoint: 100n,
      timestampMs: 1_700_000_000_123n,
      unchangedLoadedRuntimeObjects: [{ id: addr(0x77), version: 9n }],
    });
    const req = last();
    expect(req.service).toBe('sui.rpc.v2.LedgerService');
    expect(req.method).toBe('GetTransaction');
    expect(req.format).toBe(format);
    expect(req.headers['content-type']).toBe(contentType);
    expect(req.request?.digest).toBe(TX_FULL);
    expect(req.readMask).toEqual(['digest', 'transaction.bcs', 'effects.bcs', 'events.bcs', 'checkpoint', 'timestamp', 'effects.unchanged_loaded_runtime_objects']);
  });

  it('a transaction without events, checkpoint or time', async () => {
    const tx = await source.getTransaction(TX_BARE);
    expect(tx.eventsBcs).toBeNull();
    expect(tx.checkpoint).toBeNull();
    expect(tx.timestampMs).toBeNull();
    // An empty list is no promise that nothing was loaded (the archive and old transactions answer it empty): unknown.
    expect(tx.unchangedLoadedRuntimeObjects).toBeNull();
  });

  it('every read mask this source sends names fields the protos have; the fake refuses one that does not, as the server does', async () => {
    const client = new SuiGrpcClient({ baseUrl: server.url, network: 'mainnet' });
    const refused = await client.ledgerService.getObject({ objectId: OBJ_A, readMask: { paths: ['object_id', 'bcs.nope'] } }).response.then(
      () => null,
      (e: unknown) => e,
    );
    expect(String(refused)).toMatch(/invalid read_mask path: bcs\.nope/);
    for (const [call, paths] of Object.entries(GRPC_READ_MASKS)) {
      const type = {
        getTransaction: GrpcTypes.ExecutedTransaction,
        getEpoch: GrpcTypes.Epoch,
        getProtocolConfig: GrpcTypes.Epoch,
        epochVersion: GrpcTypes.Epoch,
        getObject: GrpcTypes.Object,
        checkpointTransactions: GrpcTypes.Checkpoint,
        listOwnedObjects: GrpcTypes.Object,
        simulateTransaction: GrpcTypes.SimulateTransactionResponse,
      }[call];
      expect(type, call).toBeDefined();
      expect(() => checkReadMask(type as Parameters<typeof checkReadMask>[0], paths), call).not.toThrow();
    }
  });

  it('an unknown transaction is NOT_FOUND, naming it and the endpoint', async () => {
    const e = await rejection(source.getTransaction(TX_MISSING));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain(`transaction ${TX_MISSING} not found at ${server.url}`);
    expect(e.details).toMatchObject({ endpoint: server.url, status: 'NOT_FOUND' });
  });

  it('a digest that is not base58 is REJECTED before anything is sent', async () => {
    const before = server.requests.length;
    const e = await rejection(source.getTransaction('not-a-digest!'));
    expect(e.code).toBe('REJECTED');
    expect(server.requests.length).toBe(before);
  });

  it('gets an epoch', async () => {
    expect(await source.getEpoch(7n)).toEqual({ epoch: 7n, protocolVersion: 68, referenceGasPrice: 750n, startTimestampMs: 1_699_999_999_000n });
    expect(last().method).toBe('GetEpoch');
    expect(last().request?.epoch).toBe(7n);
    expect(last().readMask).toEqual(['epoch', 'reference_gas_price', 'start', 'protocol_config.protocol_version']);
    const e = await rejection(source.getEpoch(8n));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain(`epoch 8 not found at ${server.url}`);
  });

  it('gets an object at a version and at its latest version, short ids normalized', async () => {
    expect(await source.getObject(OBJ_A, 3n)).toEqual({ id: OBJ_A, version: 3n, bcs: Uint8Array.from([0xa, 3]) });
    expect(last().request).toMatchObject({ objectId: OBJ_A, version: 3n });
    expect(last().readMask).toEqual(['object_id', 'version', 'digest', 'bcs']);
    expect(await source.getObject('0xa')).toEqual({ id: OBJ_A, version: 5n, bcs: Uint8Array.from([0xa, 5]) });
    expect(last().request?.version).toBeUndefined();
    expect(await source.getObject(OBJ_B)).toMatchObject({ version: 1n });
  });

  it('an object at a version the node does not have is NOT_FOUND, naming the version', async () => {
    const e = await rejection(source.getObject(OBJ_A, 4n));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain(`object ${OBJ_A} at version 4 not found at ${server.url}`);
    const f = await rejection(source.getObject(addr(0xeee)));
    expect(f.message).toContain(`object ${addr(0xeee)} (latest version) not found at ${server.url}`);
  });

  it("the latest checkpoint and a checkpoint's transactions", async () => {
    expect(await source.latestCheckpoint()).toBe(100n);
    expect(last().method).toBe('GetServiceInfo');
    expect(await source.checkpointTransactions(99n)).toEqual([TX_BARE]);
    expect(last().method).toBe('GetCheckpoint');
    expect(last().request?.checkpointId).toEqual({ oneofKind: 'sequenceNumber', sequenceNumber: 99n });
    expect(last().readMask).toEqual(['sequence_number', 'transactions.digest']);
    expect((await source.checkpointTransactions(100n)).length).toBe(120);
    expect((await rejection(source.checkpointTransactions(5n))).code).toBe('NOT_FOUND');
  });

  it('lists owned objects page by page, with a base-type and a full-type filter', async () => {
    const before = server.requests.length;
    const all = await source.listOwnedObjects(OWNER);
    expect(all.map((o) => o.id)).toEqual([addr(0x101), addr(0x102), addr(0x103), addr(0x104), addr(0x105)]);
    expect(all[3]).toMatchObject({ version: 4n, type: OTHER_TYPE });
    const pages = server.requests.slice(before);
    expect(pages.length).toBe(3);
    expect(pages.every((r) => r.service === 'sui.rpc.v2.StateService' && r.method === 'ListOwnedObjects')).toBe(true);
    expect(pages[0].request).toMatchObject({ owner: OWNER, pageSize: 2 });
    expect(pages[0].request?.pageToken).toBeUndefined();
    expect(pages[1].request?.pageToken).toBeInstanceOf(Uint8Array);
    expect(pages[0].readMask).toEqual(['object_id', 'version', 'digest', 'object_type']);

    const coins = await source.listOwnedObjects(OWNER, `${addr(2)}::coin::Coin`);
    expect(coins.map((o) => o.type)).toEqual([SUI_COIN, SUI_COIN, USD_COIN, SUI_COIN]);
    expect(last().request?.objectType).toBe(`${addr(2)}::coin::Coin`);
    const sui = await source.listOwnedObjects(OWNER, SUI_COIN);
    expect(sui.map((o) => o.id)).toEqual([addr(0x101), addr(0x102), addr(0x105)]);
    expect(await source.listOwnedObjects(addr(0x5))).toEqual([]);
  });

  it('simulates with checks and as dev-inspect, returning effects, events and command outputs', async () => {
    const sim = await source.simulateTransaction(Uint8Array.from([5, 6]), { checks: true });
    expect(sim.effectsBcs).toEqual(Uint8Array.from([1, 5, 6]));
    expect(sim.eventsBcs).toEqual(fakeEventsBcs(2, 9));
    expect(sim.commandResults).toEqual([{ returnValues: [{ type: 'u64', bcs: Uint8Array.from([42, 0, 0, 0, 0, 0, 0, 0]) }] }, { returnValues: [] }]);
    expect(last().service).toBe('sui.rpc.v2.TransactionExecutionService');
    expect(last().request).toMatchObject({ checks: 0, doGasSelection: false });
    expect(sim.createdObjects).toEqual([{ id: addr(0xc1), type: OTHER_TYPE }]);
    expect(last().readMask).toEqual([
      'transaction.effects.bcs',
      'transaction.effects.changed_objects.object_id',
      'transaction.effects.changed_objects.id_operation',
      'transaction.effects.changed_objects.object_type',
      'transaction.effects.changed_objects.output_state',
      'transaction.events.bcs',
      'command_outputs',
    ]);
    const inspect = await source.simulateTransaction(Uint8Array.from([5, 6]), { checks: false });
    expect(inspect.effectsBcs).toEqual(Uint8Array.from([0, 5, 6]));
    expect(last().request?.checks).toBe(1);
  });

  it('a transaction the node refuses to simulate is REJECTED with its reason', async () => {
    const e = await rejection(source.simulateTransaction(Uint8Array.from([0xff]), { checks: true }));
    expect(e.code).toBe('REJECTED');
    expect(e.message).toContain('invalid transaction: bad kind');
    expect(e.message).toContain(server.url);
  });
});

describe('GrpcDataSource failures', () => {
  it('a node without SimulateTransaction is UNSUPPORTED', async () => {
    const server = await startFakeGrpc(sampleChain({ simulate: false }));
    try {
      const e = await rejection(new GrpcDataSource(server.url).simulateTransaction(Uint8Array.from([1]), { checks: true }));
      expect(e.code).toBe('UNSUPPORTED');
      expect(e.message).toMatch(/not supported by http:\/\/127\.0\.0\.1:\d+ \(TransactionExecutionService\.SimulateTransaction: UNIMPLEMENTED/);
    } finally {
      await server.close();
    }
  });

  it('maps UNAVAILABLE, RESOURCE_EXHAUSTED (with Retry-After), HTTP 429, DEADLINE_EXCEEDED, INVALID_ARGUMENT and a page that is not gRPC-web', async () => {
    const server = await startFakeGrpc(sampleChain(), {
      failures: [
        { method: 'GetObject', grpcStatus: GRPC_STATUS.UNAVAILABLE, message: 'node is syncing' },
        { method: 'GetObject', grpcStatus: GRPC_STATUS.RESOURCE_EXHAUSTED, retryAfter: '2', message: 'slow down' },
        { method: 'GetObject', httpStatus: 429, retryAfter: '1' },
        { method: 'GetObject', grpcStatus: GRPC_STATUS.DEADLINE_EXCEEDED },
        { method: 'GetObject', grpcStatus: GRPC_STATUS.FAILED_PRECONDITION, message: 'bad version' },
        { method: 'GetObject', malformed: true },
        { method: 'GetObject', httpStatus: 503 },
      ],
    });
    try {
      const source = new GrpcDataSource(server.url);
      const get = () => rejection(source.getObject(OBJ_A, 3n));
      const unavailable = await get();
      expect(unavailable.code).toBe('UNAVAILABLE');
      expect(unavailable.message).toBe(`object ${OBJ_A} at version 3: ${server.url} is unavailable (LedgerService.GetObject: UNAVAILABLE: node is syncing)`);
      expect(unavailable.retryable).toBe(true);
      const exhausted = await get();
      expect(exhausted.code).toBe('RATE_LIMITED');
      expect(exhausted.details.retryAfterMs).toBe(2000);
      expect(exhausted.message).toContain(`rate limited by ${server.url} (retry after 2000 ms)`);
      const http429 = await get();
      expect(http429.code).toBe('RATE_LIMITED');
      expect(http429.details.retryAfterMs).toBe(1000);
      expect((await get()).code).toBe('UNAVAILABLE');
      const rejected = await get();
      expect(rejected.code).toBe('REJECTED');
      expect(rejected.retryable).toBe(false);
      const malformed = await get();
      expect(malformed.code).toBe('INVALID_RESPONSE');
      expect(malformed.message).toContain(`malformed answer from ${server.url}`);
      expect((await get()).code).toBe('UNAVAILABLE');
      expect(await source.getObject(OBJ_A, 3n)).toMatchObject({ version: 3n });
    } finally {
      await server.close();
    }
  });

  it('a call that gets no answer in time is UNAVAILABLE', { timeout: 10_000 }, async () => {
    const server = await startFakeGrpc(sampleChain(), { failures: [{ method: 'GetServiceInfo', hang: true }] });
    try {
      const e = await rejection(new GrpcDataSource({ url: server.url, timeoutMs: 150 }).latestCheckpoint());
      expect(e.code).toBe('UNAVAILABLE');
      expect(e.message).toContain(`the latest checkpoint: ${server.url} is unavailable`);
      expect(e.details.status).toBe('DEADLINE_EXCEEDED');
      expect(e.message).toContain('no answer within 150 ms');
    } finally {
      await server.close();
    }
  });

  it('a dead endpoint is UNAVAILABLE, saying the connection was refused', async () => {
    const url = await deadUrl();
    const e = await rejection(new GrpcDataSource(url).getTransaction(TX_FULL));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toContain(`transaction ${TX_FULL}: ${url} is unavailable`);
    expect(e.message).toContain('ECONNREFUSED');
  });
});

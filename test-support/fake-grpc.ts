/**
 * A fake Sui full node on 127.0.0.1 (node:http, port 0) answering gRPC-web, as `SuiGrpcClient`
 * from `@mysten/sui/grpc` speaks it: `POST /sui.rpc.v2.<Service>/<Method>`, a body frame
 * `[0x00][u32 length][protobuf]` (base64 for `application/grpc-web-text`, raw for
 * `application/grpc-web+proto`), an answer in the same format with a trailer frame
 * (`grpc-status:0`), or a trailers-only error (`grpc-status` in the headers). It serves a
 * {@link FakeChain}: GetTransaction, GetEpoch, GetObject, GetServiceInfo, GetCheckpoint,
 * ListOwnedObjects and SimulateTransaction, honouring the read mask (fields outside it are
 * left out), NOT_FOUND (5) for unknown digests, objects, versions, epochs and checkpoints, and
 * UNIMPLEMENTED (12) for anything else. Failures can be scripted per method (a gRPC status,
 * an HTTP status with `Retry-After`, a body that is not gRPC-web, a hang), every request is
 * recorded decoded, and the most calls in flight at once is kept. A simulation's effects carry
 * the chain's BCS and, as `changed_objects`, only the created objects with their types.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createHttp2Server, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GrpcTypes } from '@mysten/sui/grpc';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { type FakeChain, storedObjectDigest } from './fake-chain.js';

/** gRPC status codes the fake uses. */
export const GRPC_STATUS = {
  OK: 0,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

/** A scripted failure: the next `times` calls of `method` answer it instead. */
export interface FakeGrpcFailure {
  /** A method name (`GetTransaction`), or `*` for any. */
  method: string;
  /** How many calls it takes (default 1). */
  times?: number;
  /** Answer this gRPC status (trailers-only). */
  grpcStatus?: number;
  /** Answer this HTTP status instead (429, 503), no gRPC status. */
  httpStatus?: number;
  message?: string;
  /** A `Retry-After` header value. */
  retryAfter?: string;
  /** Answer 200 with an HTML page (not gRPC-web). */
  malformed?: boolean;
  /** Never answer (until the client gives up or the server closes). */
  hang?: boolean;
}

/** How the fake behaves. */
export interface FakeGrpcOptions {
  failures?: FakeGrpcFailure[];
  /** Hold every answer this long (to observe concurrency). */
  delayMs?: number;
  /**
   * Which server it plays (default `fullnode`). As the real ones do (sui-rpc-api's
   * `get_epoch`): for an epoch it has not indexed a full node answers the epoch number with
   * every other field absent, an archive an empty answer (neither is NOT_FOUND). And as they
   * are reached: the full node fake speaks gRPC-web over HTTP/1.1, the archive fake only
   * native gRPC over cleartext HTTP/2 (`grpc://` URL), so a gRPC-web client cannot talk to it.
   */
  kind?: 'fullnode' | 'archive';
}

/** A request as the fake received it. */
export interface FakeGrpcRequest {
  index: number;
  /** `sui.rpc.v2.LedgerService`. */
  service: string;
  /** `GetTransaction`. */
  method: string;
  format: 'text' | 'binary';
  headers: IncomingMessage['headers'];
  /** The decoded request message (`null` for a method the fake does not serve). */
  request: Record<string, unknown> | null;
  /** Its `read_mask` paths. */
  readMask: string[];
}

/** A running fake. */
export interface FakeGrpcServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: FakeGrpcRequest[];
  /** Requests being answered now, and the most at once so far. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** A gRPC error status a handler answers. */
class GrpcStatus extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Codec<T> {
  fromBinary(data: Uint8Array): T;
  toBinary(message: T): Uint8Array;
}

interface Route {
  decode(body: Uint8Array): object;
  answer(request: object): Uint8Array;
}

function route<I extends object, O extends object>(input: Codec<I>, output: Codec<O>, handle: (request: I) => O): Route {
  return {
    decode: (body) => input.fromBinary(body),
    answer: (request) => output.toBinary(handle(request as I)),
  };
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isMessage = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !Array.isArray(v);

/** A protobuf-ts message type, as far as read-mask checks look at it. */
interface MaskedType {
  readonly typeName: string;
  readonly fields: readonly { name: string; kind: string; T?: unknown }[];
}

/**
 * Refuse a read mask with a path the message does not have, as the real server does
 * (sui-rpc-api validates every path against the message it reads: INVALID_ARGUMENT).
 */
export function checkReadMask(type: MaskedType, paths: readonly string[]): void {
  for (const p of paths) {
    let t: MaskedType | undefined = type;
    for (const part of p.split('.')) {
      const f: MaskedType['fields'][number] | undefined = t?.fields.find((x) => x.name === part);
      if (t === undefined || f === undefined) throw new GrpcStatus(GRPC_STATUS.INVALID_ARGUMENT, `invalid read_mask path: ${p} (${type.typeName} has no such field)`);
      t = f.kind === 'message' && typeof f.T === 'function' ? (f.T as () => MaskedType)() : undefined;
    }
  }
}

/** `value` with only the fields `paths` (snake_case field paths) select; no paths: all of it. */
export function applyReadMask<T extends object>(value: T, paths: readonly string[]): T {
  if (paths.length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = snake(key);
    if (paths.includes(name)) {
      out[key] = v;
      continue;
    }
    const sub = paths.filter((p) => p.startsWith(`${name}.`)).map((p) => p.slice(name.length + 1));
    if (sub.length === 0) continue;
    if (Array.isArray(v)) out[key] = v.map((e: unknown) => (isMessage(e) ? applyReadMask(e, sub) : e));
    else if (isMessage(v)) out[key] = applyReadMask(v, sub);
  }
  return out as T;
}

const timestamp = (ms: bigint) => ({ seconds: ms / 1000n, nanos: Number(ms % 1000n) * 1_000_000 });

/** The routes of `chain`, by `/<service>/<method>`. */
function routes(chain: FakeChain, kind: 'fullnode' | 'archive'): Map<string, Route> {
  const T = GrpcTypes;
  const latestVersion = (versions: Map<bigint, Uint8Array>) => [...versions.keys()].reduce((a, b) => (b > a ? b : a));
  const m = new Map<string, Route>();
  const ledger = (method: string, r: Route) => m.set(`/sui.rpc.v2.LedgerService/${method}`, r);

  ledger(
    'GetTransaction',
    route(T.GetTransactionRequest, T.GetTransactionResponse, (req) => {
      const tx = chain.transactions.get(req.digest ?? '');
      if (!tx) throw new GrpcStatus(GRPC_STATUS.NOT_FOUND, `Transaction ${req.digest} not found`);
      const executed = T.ExecutedTransaction.create({
        digest: tx.digest,
        transaction: { digest: tx.digest, bcs: { name: 'TransactionData', value: tx.transactionBcs } },
        effects: {
          bcs: { name: 'TransactionEffects', value: tx.effectsBcs },
          transactionDigest: tx.digest,
          unchangedLoadedRuntimeObjects: (tx.unchangedLoadedRuntimeObjects ?? []).map((o) => ({ objectId: o.id, version: o.version })),
        },
        ...(tx.eventsBcs ? { events: { bcs: { name: 'TransactionEvents', value: tx.eventsBcs } } } : {}),
        ...(tx.checkpoint !== null ? { checkpoint: tx.checkpoint } : {}),
        ...(tx.timestampMs !== null ? { timestamp: timestamp(tx.timestampMs) } : {}),
      });
      checkReadMask(T.ExecutedTransaction, req.readMask?.paths ?? []);
      return T.GetTransactionResponse.create({ transaction: applyReadMask(executed, req.readMask?.paths ?? []) });
    }),
  );

  ledger(
    'GetEpoch',
    route(T.GetEpochRequest, T.GetEpochResponse, (req) => {
      checkReadMask(T.Epoch, req.readMask?.paths ?? []);
      const n = req.epoch ?? [...chain.epochs.keys()].reduce((a, b) => (b > a ? b : a), 0n);
      const e = chain.epochs.get(n);
      if (!e) return kind === 'archive' ? T.GetEpochResponse.create({}) : T.GetEpochResponse.create({ epoch: applyReadMask(T.Epoch.create({ epoch: n }), req.readMask?.paths ?? []) });
      const epoch = T.Epoch.create({
        epoch: e.epoch,
        referenceGasPrice: e.referenceGasPrice,
        start: timestamp(e.startTimestampMs),
        protocolConfig: {
          protocolVersion: BigInt(e.protocolVersion),
          ...(chain.protocolConfigs?.get(e.protocolVersion)
            ? { featureFlags: chain.protocolConfigs.get(e.protocolVersion)?.featureFlags, attributes: chain.protocolConfigs.get(e.protocolVersion)?.attributes }
            : {}),
        },
      });
      return T.GetEpochResponse.create({ epoch: applyReadMask(epoch, req.readMask?.paths ?? []) });
    }),
  );

  ledger(
    'GetObject',
    route(T.GetObjectRequest, T.GetObjectResponse, (req) => {
      checkReadMask(T.Object, req.readMask?.paths ?? []);
      const id = normalizeSuiAddress(req.objectId ?? '');
      const versions = chain.objects.get(id);
      if (!versions || versions.size === 0) throw new GrpcStatus(GRPC_STATUS.NOT_FOUND, `Object ${id} not found`);
      const version = req.version ?? latestVersion(versions);
      const bytes = versions.get(version);
      if (!bytes) throw new GrpcStatus(GRPC_STATUS.NOT_FOUND, `Object ${id} at version ${version} not found`);
      const object = T.Object.create({ objectId: id, version, digest: storedObjectDigest(bytes), bcs: { name: 'Object', value: chain.tamper?.(id, version, bytes) ?? bytes } });
      return T.GetObjectResponse.create({ object: applyReadMask(object, req.readMask?.paths ?? []) });
    }),
  );

  ledger(
    'GetServiceInfo',
    route(T.GetServiceInfoRequest, T.GetServiceInfoResponse, () => {
      const last = chain.checkpoints.at(-1);
      return T.GetServiceInfoResponse.create({
        chainId: 'fake',
        chain: 'fake',
        server: 'smi-fake-grpc',
        ...(last ? { checkpointHeight: last.sequence, lowestAvailableCheckpoint: chain.checkpoints[0].sequence } : {}),
      });
    }),
  );

  ledger(
    'GetCheckpoint',
    route(T.GetCheckpointRequest, T.GetCheckpointResponse, (req) => {
      const id = req.checkpointId;
      let c: FakeChain['checkpoints'][number] | undefined;
      if (id.oneofKind === 'sequenceNumber') c = chain.checkpoints.find((x) => x.sequence === id.sequenceNumber);
      else if (id.oneofKind === undefined) c = chain.checkpoints.at(-1);
      else throw new GrpcStatus(GRPC_STATUS.UNIMPLEMENTED, 'the fake does not look checkpoints up by digest');
      if (!c) throw new GrpcStatus(GRPC_STATUS.NOT_FOUND, `Checkpoint ${id.oneofKind === 'sequenceNumber' ? id.sequenceNumber : 'latest'} not found`);
      const checkpoint = T.Checkpoint.create({ sequenceNumber: c.sequence, transactions: c.digests.map((digest) => ({ digest })) });
      checkReadMask(T.Checkpoint, req.readMask?.paths ?? []);
      return T.GetCheckpointResponse.create({ checkpoint: applyReadMask(checkpoint, req.readMask?.paths ?? []) });
    }),
  );

  m.set(
    '/sui.rpc.v2.StateService/ListOwnedObjects',
    route(T.ListOwnedObjectsRequest, T.ListOwnedObjectsResponse, (req) => {
      const owner = normalizeSuiAddress(req.owner ?? '');
      const filter = req.objectType;
      const all = (chain.owned.get(owner) ?? []).filter((o) => !filter || o.type === filter || (!filter.includes('<') && o.type.startsWith(`${filter}<`)));
      const size = Math.min(1000, req.pageSize || 50);
      const start = req.pageToken && req.pageToken.length > 0 ? Number(new TextDecoder().decode(req.pageToken)) : 0;
      if (!Number.isSafeInteger(start) || start < 0) throw new GrpcStatus(GRPC_STATUS.INVALID_ARGUMENT, 'invalid page_token');
      const page = all.slice(start, start + size);
      const next = start + size < all.length ? new TextEncoder().encode(String(start + size)) : undefined;
      const paths = req.readMask?.paths.length ? req.readMask.paths : ['object_id', 'version', 'object_type'];
      checkReadMask(T.Object, paths);
      return T.ListOwnedObjectsResponse.create({
        objects: page.map((o) => applyReadMask(T.Object.create({ objectId: o.id, version: o.version, digest: o.digest, objectType: o.type }), paths)),
        ...(next ? { nextPageToken: next } : {}),
      });
    }),
  );

  m.set(
    '/sui.rpc.v2.TransactionExecutionService/SimulateTransaction',
    route(T.SimulateTransactionRequest, T.SimulateTransactionResponse, (req) => {
      if (!chain.simulate) throw new GrpcStatus(GRPC_STATUS.UNIMPLEMENTED, 'SimulateTransaction is not served here');
      const bytes = req.transaction?.bcs?.value;
      if (!bytes) throw new GrpcStatus(GRPC_STATUS.INVALID_ARGUMENT, 'transaction.bcs is required');
      const checks = req.checks !== T.SimulateTransactionRequest_TransactionChecks.DISABLED;
      let sim: ReturnType<NonNullable<FakeChain['simulate']>>;
      try {
        sim = chain.simulate(bytes, checks);
      } catch (error) {
        throw new GrpcStatus(GRPC_STATUS.INVALID_ARGUMENT, error instanceof Error ? error.message : String(error));
      }
      const response = T.SimulateTransactionResponse.create({
        transaction: {
          effects: {
            bcs: { name: 'TransactionEffects', value: sim.effectsBcs },
            // Only what the data source reads: the created objects, with their types.
            // A created object of type `package` is a published package, as the node reports one.
            changedObjects: (sim.createdObjects ?? []).map((o) => ({
              objectId: o.id,
              idOperation: T.ChangedObject_IdOperation.CREATED,
              objectType: o.type,
              outputState: o.type === 'package' ? T.ChangedObject_OutputObjectState.PACKAGE_WRITE : T.ChangedObject_OutputObjectState.OBJECT_WRITE,
            })),
          },
          ...(sim.eventsBcs ? { events: { bcs: { name: 'TransactionEvents', value: sim.eventsBcs } } } : {}),
        },
        commandOutputs: (sim.commandResults ?? []).map((c) => ({ returnValues: c.returnValues.map((r) => ({ value: { name: r.type, value: r.bcs } })), mutatedByRef: [] })),
      });
      checkReadMask(T.SimulateTransactionResponse, req.readMask?.paths ?? []);
      return T.SimulateTransactionResponse.create(applyReadMask(response, req.readMask?.paths ?? []));
    }),
  );
  return m;
}

/** `[flag][u32 big-endian length][data]`. */
/** What a handler writes to: an HTTP/1.1 response (gRPC-web) or an HTTP/2 one (native gRPC). */
/** What a handler reads: an HTTP/1.1 or an HTTP/2 request. */
interface Request {
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

interface Reply {
  writeHead(status: number, headers: Record<string, string>): unknown;
  addTrailers(trailers: Record<string, string>): void;
  end(data?: string | Uint8Array): unknown;
  on(event: 'close' | 'finish', listener: () => void): unknown;
  destroy(): unknown;
  readonly headersSent: boolean;
}

function frame(flag: number, data: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flag;
  head.writeUInt32BE(data.length, 1);
  return Buffer.concat([head, Buffer.from(data)]);
}

/** Start a fake node serving `chain`. */
export async function startFakeGrpc(chain: FakeChain, options: FakeGrpcOptions = {}): Promise<FakeGrpcServer> {
  const table = routes(chain, options.kind ?? 'fullnode');
  const requests: FakeGrpcRequest[] = [];
  const failures = (options.failures ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  const hanging = new Set<{ destroy(): unknown }>();
  let inFlight = 0;
  let maxInFlight = 0;

  const native = options.kind === 'archive';
  const answer = async (req: Request, res: Reply, raw: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    const [, service = '', method = ''] = path.split('/');
    const contentType = String(req.headers['content-type'] ?? '');
    const format: 'text' | 'binary' = contentType.startsWith('application/grpc-web-text') ? 'text' : 'binary';
    const replyType = native ? 'application/grpc' : format === 'text' ? 'application/grpc-web-text' : 'application/grpc-web+proto';
    const trailersOnly = (code: number, message: string, extra: Record<string, string> = {}) => {
      if (native) {
        // Over HTTP/2 the status goes in trailers after the (empty) response.
        res.writeHead(200, { 'content-type': replyType, ...extra });
        res.addTrailers({ 'grpc-status': String(code), 'grpc-message': encodeURIComponent(message) });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': replyType, 'grpc-status': String(code), 'grpc-message': encodeURIComponent(message), ...extra });
      res.end();
    };
    const body = format === 'text' ? Buffer.from(raw.toString('latin1'), 'base64') : raw;
    const r = table.get(path);
    let decoded: object | null = null;
    if (r && body.length >= 5 && body[0] === 0) {
      try {
        decoded = r.decode(body.subarray(5, 5 + body.readUInt32BE(1)));
      } catch {
        decoded = null;
      }
    }
    const record = decoded as { readMask?: { paths: string[] } } | null;
    requests.push({
      index: requests.length,
      service,
      method,
      format,
      headers: req.headers,
      request: decoded as Record<string, unknown> | null,
      readMask: record?.readMask?.paths ?? [],
    });
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));

    const failure = failures.find((f) => f.left > 0 && (f.method === '*' || f.method === method));
    if (failure) {
      failure.left--;
      const extra: Record<string, string> = failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : {};
      if (failure.hang) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (failure.malformed) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      if (failure.httpStatus !== undefined) {
        res.writeHead(failure.httpStatus, { 'content-type': 'text/plain', ...extra });
        res.end(failure.message ?? `HTTP ${failure.httpStatus}`);
        return;
      }
      trailersOnly(failure.grpcStatus ?? GRPC_STATUS.UNAVAILABLE, failure.message ?? 'scripted failure', extra);
      return;
    }
    if (!r) return trailersOnly(GRPC_STATUS.UNIMPLEMENTED, `unknown method ${path}`);
    if (!decoded) return trailersOnly(GRPC_STATUS.INVALID_ARGUMENT, 'the request body is not a gRPC-web frame of the method input');
    let message: Uint8Array;
    try {
      message = r.answer(decoded);
    } catch (error) {
      if (error instanceof GrpcStatus) return trailersOnly(error.code, error.message);
      return trailersOnly(GRPC_STATUS.INTERNAL, error instanceof Error ? error.message : String(error));
    }
    if (native) {
      // Native gRPC: the message in a data frame, the status in HTTP/2 trailers.
      res.writeHead(200, { 'content-type': replyType });
      res.addTrailers({ 'grpc-status': '0', 'grpc-message': 'OK' });
      res.end(frame(0x00, message));
      return;
    }
    const out = Buffer.concat([frame(0x00, message), frame(0x80, Buffer.from('grpc-status:0\r\ngrpc-message:OK\r\n'))]);
    res.writeHead(200, { 'content-type': replyType });
    res.end(format === 'text' ? out.toString('base64') : out);
  };

  const handle = (req: Request, res: Reply) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          inFlight--;
        }
      };
      res.on('finish', finish);
      res.on('close', finish);
      answer(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(error));
        }
      });
    });
  };
  const sessions = new Set<Http2Session>();
  // The two servers' request and response types differ in details the handler does not use.
  const server = native
    ? createHttp2Server((req, res) => handle(req as unknown as Request, res as unknown as Reply))
    : createServer((req, res) => handle(req as unknown as Request, res as unknown as Reply));
  if (native) server.on('session', (s: Http2Session) => sessions.add(s).size);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${native ? 'grpc' : 'http'}://127.0.0.1:${port}`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        for (const s of sessions) s.destroy();
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

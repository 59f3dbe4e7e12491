/**
 * {@link SuiDataSource} over a full node's (or the archive's) `sui.rpc.v2` gRPC API, spoken as
 * gRPC-web over `fetch` by `SuiGrpcClient` from `@mysten/sui/grpc`. It calls the raw service
 * clients with explicit read masks, so a node returns exactly the BCS the simulation decodes,
 * and turns every failure into a {@link DataSourceError} that names the endpoint and the request.
 */
import type { SuiGrpcClient } from '@mysten/sui/grpc';
import type { ChainEpoch, ChainObject, ChainProtocolConfig, ChainSimulation, ChainTransaction, OwnedObjectInfo, SuiDataSource } from '@smi/simulation';
import { causeText, checkDigest, checkU64, describeObject, endpointLabel, failure, checkAddress } from './errors.js';
import {
  checkAnswer,
  checkpointAnswer,
  epochAnswer,
  epochVersionAnswer,
  objectAnswer,
  protocolConfigAnswer,
  ownedPageAnswer,
  serviceInfoAnswer,
  simulationAnswer,
  timestampMs,
  transactionAnswer,
} from './grpc-answers.js';
import { mapGrpcError } from './grpc-errors.js';
import { isNativeGrpcUrl, nativeGrpcTransport } from './grpc-native.js';
import { grpcSdk } from './grpc-sdk.js';

/** The read masks this source sends, per call (field paths of the `sui.rpc.v2` protos). */
export const GRPC_READ_MASKS = {
  getTransaction: ['digest', 'transaction.bcs', 'effects.bcs', 'events.bcs', 'checkpoint', 'timestamp', 'effects.unchanged_loaded_runtime_objects'],
  getEpoch: ['epoch', 'reference_gas_price', 'start', 'protocol_config.protocol_version'],
  getObject: ['object_id', 'version', 'digest', 'bcs'],
  getProtocolConfig: ['epoch', 'protocol_config.protocol_version', 'protocol_config.feature_flags', 'protocol_config.attributes'],
  epochVersion: ['epoch', 'protocol_config.protocol_version'],
  checkpointTransactions: ['sequence_number', 'transactions.digest'],
  listOwnedObjects: ['object_id', 'version', 'digest', 'object_type'],
  simulateTransaction: [
    'transaction.effects.bcs',
    'transaction.effects.changed_objects.object_id',
    'transaction.effects.changed_objects.id_operation',
    'transaction.effects.changed_objects.object_type',
    'transaction.effects.changed_objects.output_state',
    'transaction.events.bcs',
    'command_outputs',
  ],
} as const satisfies Record<string, readonly string[]>;

/** How to reach a gRPC endpoint. */
export interface GrpcDataSourceOptions {
  /** Base URL, e.g. `https://fullnode.mainnet.sui.io:443` (no path). */
  url: string;
  /** gRPC-web body format: base64 text (the SDK's default) or binary protobuf. */
  format?: 'text' | 'binary';
  /** Deadline of each call (default 30 s); an expired one is UNAVAILABLE. */
  timeoutMs?: number;
  /** Extra request headers (an API key). */
  headers?: Record<string, string>;
  /** `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** Objects per `ListOwnedObjects` page (default 500, the node caps it at 1000). */
  pageSize?: number;
  /** An existing client to use instead of building one (the other transport options are then ignored). */
  client?: SuiGrpcClient;
  /** The network name given to the SDK client (default `mainnet`; it does not change any call this source makes). */
  network?: string;
  /**
   * `grpc-web` (HTTP/1.1 or 2 over `fetch`; full nodes) or `grpc` (native gRPC over HTTP/2; the
   * archive speaks only this). Default: `grpc` for `grpc://` and `grpcs://` URLs, else `grpc-web`.
   */
  transport?: 'grpc-web' | 'grpc';
}

type Unary<T> = PromiseLike<{ response: T }>;

/**
 * `fetch` whose failures carry their causes in the message (`fetch failed: connect
 * ECONNREFUSED …`): the gRPC-web transport keeps only the message of what fetch threw.
 */
function explainingFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      if (!(error instanceof Error) || error.name === 'AbortError' || error.name === 'TimeoutError') throw error;
      const explained = new Error(causeText(error), { cause: error });
      explained.name = error.name;
      throw explained;
    }
  };
}

/** Live chain data from a `sui.rpc.v2` endpoint over gRPC-web. */
export class GrpcDataSource implements SuiDataSource {
  readonly endpoint: string;
  readonly client: SuiGrpcClient;
  /** The wire protocol it speaks. */
  readonly transport: 'grpc-web' | 'grpc';
  private readonly timeoutMs: number;
  private readonly pageSize: number;

  constructor(options: GrpcDataSourceOptions | string) {
    const o: GrpcDataSourceOptions = typeof options === 'string' ? { url: options } : options;
    this.endpoint = endpointLabel(o.url);
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.pageSize = Math.max(1, Math.min(1000, o.pageSize ?? 500));
    this.transport = o.transport ?? (isNativeGrpcUrl(o.url) ? 'grpc' : 'grpc-web');
    this.client =
      o.client ??
      (this.transport === 'grpc'
        ? new (grpcSdk().SuiGrpcClient)({ network: o.network ?? 'mainnet', transport: nativeGrpcTransport(this.endpoint, o.headers) })
        : new (grpcSdk().SuiGrpcClient)({
            network: o.network ?? 'mainnet',
            baseUrl: this.endpoint,
            format: o.format ?? 'text',
            ...(o.headers ? { meta: o.headers } : {}),
            fetch: explainingFetch(o.fetch ?? globalThis.fetch),
          }));
  }

  /** Run one unary call, mapping its failure. */
  private async call<T>(what: string, rpc: string, run: (options: { timeout: number; abort: AbortSignal }) => Unary<T>): Promise<T> {
    // `timeout` only tells the server (grpc-timeout); the signal ends the wait here.
    const abort = AbortSignal.timeout(this.timeoutMs);
    try {
      const { response } = await run({ timeout: this.timeoutMs, abort });
      return response;
    } catch (error) {
      if (abort.aborted) throw failure('UNAVAILABLE', what, this.endpoint, { reason: `${rpc}: no answer within ${this.timeoutMs} ms`, status: 'DEADLINE_EXCEEDED' });
      throw mapGrpcError(error, what, this.endpoint, rpc, this.transport);
    }
  }

  async getTransaction(digest: string): Promise<ChainTransaction> {
    const what = `transaction ${digest}`;
    const rpc = 'LedgerService.GetTransaction';
    checkDigest(digest, this.endpoint);
    const answer = await this.call(what, rpc, (options) => this.client.ledgerService.getTransaction({ digest, readMask: { paths: [...GRPC_READ_MASKS.getTransaction] } }, options));
    const tx = checkAnswer(transactionAnswer, answer, what, this.endpoint, rpc).transaction;
    if (tx.digest !== undefined && tx.digest !== digest) {
      throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: answered transaction ${tx.digest}` });
    }
    return {
      digest,
      transactionBcs: tx.transaction.bcs.value,
      effectsBcs: tx.effects.bcs.value,
      eventsBcs: tx.events?.bcs?.value ?? null,
      checkpoint: tx.checkpoint ?? null,
      timestampMs: tx.timestamp ? timestampMs(tx.timestamp) : null,
      // An empty list is no promise that nothing was loaded: the archive, and a node serving a
      // transaction it did not execute, answer it empty. Unknown, then: the replay finds the
      // children it reads.
      unchangedLoadedRuntimeObjects:
        tx.effects.unchangedLoadedRuntimeObjects.length === 0
          ? null
          : tx.effects.unchangedLoadedRuntimeObjects.map((o) => ({
              id: checkAddress(o.objectId, what, this.endpoint),
              version: o.version,
            })),
    };
  }

  async getEpoch(epoch: bigint): Promise<ChainEpoch> {
    const what = `epoch ${epoch}`;
    const rpc = 'LedgerService.GetEpoch';
    checkU64(epoch, what, this.endpoint);
    const answer = await this.call(what, rpc, (options) => this.client.ledgerService.getEpoch({ epoch, readMask: { paths: [...GRPC_READ_MASKS.getEpoch] } }, options));
    // An epoch the node has not indexed is no error there: a full node answers its number with
    // every other field absent, an archive an empty answer. That is "not found here", so the
    // archive is asked; only a malformed answer is INVALID_RESPONSE.
    const raw = (answer as { epoch?: { referenceGasPrice?: unknown; start?: unknown; protocolConfig?: { protocolVersion?: unknown } } } | null)?.epoch;
    if (raw == null || raw.referenceGasPrice == null || raw.start == null || raw.protocolConfig?.protocolVersion == null) {
      throw failure('NOT_FOUND', what, this.endpoint, { reason: `${rpc}: the node has not indexed epoch ${epoch} (its answer has no fields)` });
    }
    const e = checkAnswer(epochAnswer, answer, what, this.endpoint, rpc).epoch;
    if (e.epoch !== epoch) throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: answered epoch ${e.epoch}` });
    const protocolVersion = Number(e.protocolConfig.protocolVersion);
    if (!Number.isSafeInteger(protocolVersion)) {
      throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: protocol version ${e.protocolConfig.protocolVersion}` });
    }
    return { epoch: e.epoch, protocolVersion, referenceGasPrice: e.referenceGasPrice, startTimestampMs: timestampMs(e.start) };
  }

  async getObject(id: string, version?: bigint): Promise<ChainObject> {
    const what = describeObject(id, version);
    const rpc = 'LedgerService.GetObject';
    const objectId = checkAddress(id, what, this.endpoint);
    if (version !== undefined) checkU64(version, what, this.endpoint);
    const answer = await this.call(what, rpc, (options) =>
      this.client.ledgerService.getObject({ objectId, ...(version !== undefined ? { version } : {}), readMask: { paths: [...GRPC_READ_MASKS.getObject] } }, options),
    );
    const o = checkAnswer(objectAnswer, answer, what, this.endpoint, rpc).object;
    if (o.objectId !== undefined && checkAddress(o.objectId, what, this.endpoint) !== objectId) {
      throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: answered object ${o.objectId}` });
    }
    if (version !== undefined && o.version !== version) {
      throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: answered version ${o.version}` });
    }
    return { id: objectId, version: o.version, bcs: o.bcs.value, ...(o.digest !== undefined ? { digest: o.digest } : {}) };
  }

  /**
   * The protocol config of `version` (default: the current epoch's). The gRPC API serves a
   * config per epoch, so a version is found by a binary search over the epochs (versions
   * never go down): the first epoch that ran it.
   */
  async getProtocolConfig(version?: number): Promise<ChainProtocolConfig> {
    const what = version === undefined ? 'the current protocol config' : `protocol config ${version}`;
    const rpc = 'LedgerService.GetEpoch';
    const epochVersion = async (epoch?: bigint): Promise<{ epoch: bigint; version: number }> => {
      const answer = await this.call(what, rpc, (options) =>
        this.client.ledgerService.getEpoch({ ...(epoch !== undefined ? { epoch } : {}), readMask: { paths: [...GRPC_READ_MASKS.epochVersion] } }, options),
      );
      const raw = (answer as { epoch?: { protocolConfig?: { protocolVersion?: unknown } } } | null)?.epoch;
      if (raw?.protocolConfig?.protocolVersion == null) throw failure('NOT_FOUND', what, this.endpoint, { reason: `${rpc}: the node has not indexed epoch ${epoch ?? 'current'}` });
      const e = checkAnswer(epochVersionAnswer, answer, what, this.endpoint, rpc).epoch;
      return { epoch: e.epoch, version: Number(e.protocolConfig.protocolVersion) };
    };
    let epoch: bigint | undefined;
    if (version !== undefined) {
      const current = await epochVersion();
      if (version > current.version) throw failure('NOT_FOUND', what, this.endpoint, { reason: `the network runs protocol ${current.version}` });
      let [lo, hi] = [0n, current.epoch];
      while (lo < hi) {
        const mid = (lo + hi) / 2n;
        if ((await epochVersion(mid)).version >= version) hi = mid;
        else lo = mid + 1n;
      }
      if ((await epochVersion(lo)).version !== version) throw failure('NOT_FOUND', what, this.endpoint, { reason: `no epoch ran protocol ${version} (epoch ${lo} was the first after it)` });
      epoch = lo;
    }
    const answer = await this.call(what, rpc, (options) =>
      this.client.ledgerService.getEpoch({ ...(epoch !== undefined ? { epoch } : {}), readMask: { paths: [...GRPC_READ_MASKS.getProtocolConfig] } }, options),
    );
    const c = checkAnswer(protocolConfigAnswer, answer, what, this.endpoint, rpc).epoch.protocolConfig;
    const protocolVersion = Number(c.protocolVersion);
    if (version !== undefined && protocolVersion !== version) throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: answered protocol ${protocolVersion}` });
    return { protocolVersion, featureFlags: { ...c.featureFlags }, attributes: { ...c.attributes } };
  }

  async latestCheckpoint(): Promise<bigint> {
    const what = 'the latest checkpoint';
    const rpc = 'LedgerService.GetServiceInfo';
    const answer = await this.call(what, rpc, (options) => this.client.ledgerService.getServiceInfo({}, options));
    return checkAnswer(serviceInfoAnswer, answer, what, this.endpoint, rpc).checkpointHeight;
  }

  async checkpointTransactions(sequence: bigint): Promise<string[]> {
    const what = `checkpoint ${sequence}`;
    const rpc = 'LedgerService.GetCheckpoint';
    checkU64(sequence, what, this.endpoint);
    const answer = await this.call(what, rpc, (options) =>
      this.client.ledgerService.getCheckpoint(
        {
          checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: sequence },
          readMask: { paths: [...GRPC_READ_MASKS.checkpointTransactions] },
        },
        options,
      ),
    );
    const c = checkAnswer(checkpointAnswer, answer, what, this.endpoint, rpc).checkpoint;
    if (c.sequenceNumber !== undefined && c.sequenceNumber !== sequence) {
      throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: answered checkpoint ${c.sequenceNumber}` });
    }
    return c.transactions.map((t) => t.digest);
  }

  async listOwnedObjects(owner: string, type?: string): Promise<OwnedObjectInfo[]> {
    const what = `objects owned by ${owner}${type ? ` of type ${type}` : ''}`;
    const rpc = 'StateService.ListOwnedObjects';
    const address = checkAddress(owner, what, this.endpoint);
    const out: OwnedObjectInfo[] = [];
    const seen = new Set<string>();
    let pageToken: Uint8Array | undefined;
    for (;;) {
      const answer = await this.call(what, rpc, (options) =>
        this.client.stateService.listOwnedObjects(
          {
            owner: address,
            pageSize: this.pageSize,
            ...(pageToken ? { pageToken } : {}),
            ...(type ? { objectType: type } : {}),
            readMask: { paths: [...GRPC_READ_MASKS.listOwnedObjects] },
          },
          options,
        ),
      );
      const page = checkAnswer(ownedPageAnswer, answer, what, this.endpoint, rpc);
      for (const o of page.objects) {
        out.push({ id: checkAddress(o.objectId, what, this.endpoint), version: o.version, digest: o.digest, type: o.objectType });
      }
      const next = page.nextPageToken;
      if (!next || next.length === 0) return out;
      const key = Buffer.from(next).toString('base64');
      if (seen.has(key)) throw failure('INVALID_RESPONSE', what, this.endpoint, { reason: `${rpc}: the same page token came back twice` });
      seen.add(key);
      pageToken = next;
    }
  }

  async simulateTransaction(transactionBcs: Uint8Array, options: { checks: boolean }): Promise<ChainSimulation> {
    const what = `simulation of a ${transactionBcs.length}-byte transaction${options.checks ? '' : ' (checks disabled)'}`;
    const rpc = 'TransactionExecutionService.SimulateTransaction';
    const answer = await this.call(what, rpc, (callOptions) =>
      this.client.transactionExecutionService.simulateTransaction(
        {
          transaction: { bcs: { value: transactionBcs } },
          readMask: { paths: [...GRPC_READ_MASKS.simulateTransaction] },
          checks: options.checks ? grpcSdk().GrpcTypes.SimulateTransactionRequest_TransactionChecks.ENABLED : grpcSdk().GrpcTypes.SimulateTransactionRequest_TransactionChecks.DISABLED,
          doGasSelection: false,
        },
        callOptions,
      ),
    );
    const s = checkAnswer(simulationAnswer, answer, what, this.endpoint, rpc);
    // Created objects, without the packages the transaction published (a package write, whose
    // `object_type` is `package`): they are no objects of a Move type.
    const { ChangedObject_IdOperation: IdOperation, ChangedObject_OutputObjectState: OutputState } = grpcSdk().GrpcTypes;
    const created = s.transaction.effects.changedObjects.filter((c) => c.idOperation === IdOperation.CREATED && c.outputState !== OutputState.PACKAGE_WRITE && c.objectType !== 'package');
    return {
      effectsBcs: s.transaction.effects.bcs.value,
      eventsBcs: s.transaction.events?.bcs?.value ?? null,
      commandResults: s.commandOutputs.length === 0 ? null : s.commandOutputs.map((c) => ({ returnValues: c.returnValues.map((r) => ({ type: r.value.name ?? '', bcs: r.value.value })) })),
      // A node that leaves out a created object's type cannot say what was created.
      createdObjects: created.every((c) => c.objectId !== undefined && c.objectType !== undefined)
        ? created.map((c) => ({ id: checkAddress(c.objectId as string, what, this.endpoint), type: c.objectType as string }))
        : null,
    };
  }
}

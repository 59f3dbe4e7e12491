/**
 * {@link SuiDataSource} over Sui's GraphQL RPC (`https://graphql.mainnet.sui.io/graphql`).
 * Every answer is checked with zod; connections are followed page by page. GraphQL has no
 * BCS of a transaction's whole `TransactionEvents`, so it is put together from each event's
 * `eventBcs` (a BCS vector: the count, then the events); it does not report the objects read
 * at run time (`unchangedLoadedRuntimeObjects` is `null`).
 */
import { type ChainEpoch, type ChainObject, type ChainProtocolConfig, type ChainSimulation, type ChainTransaction, DataSourceError, type OwnedObjectInfo, type SuiDataSource } from '@smi/simulation';
import { base64Bytes, bcsVector } from './bytes.js';
import { checkDigest, checkU64, describeObject, endpointLabel, failure, checkAddress } from './errors.js';
import { GraphQLHttp, type GraphQLHttpOptions } from './graphql-http.js';
import {
  CHECKPOINT_TRANSACTIONS_QUERY,
  checkpointTransactionsData,
  dateTimeMs,
  EPOCH_QUERY,
  epochData,
  LATEST_CHECKPOINT_QUERY,
  latestCheckpointData,
  OBJECT_AT_CHECKPOINT_QUERY,
  OBJECT_BOUNDED_QUERY,
  OBJECT_QUERY,
  PROTOCOL_CONFIG_QUERY,
  protocolConfigData,
  SERVICE_LIMITS_QUERY,
  serviceLimitsData,
  objectData,
  OWNED_OBJECTS_QUERY,
  ownedObjectsData,
  SIMULATE_QUERY,
  simulateData,
  TRANSACTION_EVENTS_QUERY,
  TRANSACTION_QUERY,
  transactionData,
  transactionEventsData,
} from './graphql-queries.js';

/** How to reach a GraphQL endpoint. */
export interface GraphQLDataSourceOptions extends GraphQLHttpOptions {
  /** The endpoint, e.g. `https://graphql.mainnet.sui.io/graphql`. */
  url: string;
  /**
   * Items per connection page at most (default: each connection's maximum, which the service
   * says in `serviceConfig.maxPageSize`: 50 for most, 1024 for a transaction's object changes).
   */
  pageSize?: number;
}

/** Page sizes per connection. */
interface PageSizes {
  events: number;
  objectChanges: number;
  checkpointTransactions: number;
  addressObjects: number;
}

/** What the public service allows, when it cannot be asked (a service without `serviceConfig.maxPageSize`). */
const DEFAULT_PAGE_LIMITS: PageSizes = { events: 50, objectChanges: 50, checkpointTransactions: 50, addressObjects: 50 };

interface Page<T> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: T[];
}

/** Live chain data from a Sui GraphQL RPC endpoint. */
export class GraphQLDataSource implements SuiDataSource {
  readonly endpoint: string;
  private readonly http: GraphQLHttp;
  private readonly pageSize: number;
  private limits: Promise<PageSizes> | null = null;

  constructor(options: GraphQLDataSourceOptions | string) {
    const o: GraphQLDataSourceOptions = typeof options === 'string' ? { url: options } : options;
    this.endpoint = endpointLabel(o.url);
    this.http = new GraphQLHttp(o.url, o);
    this.pageSize = Math.max(1, o.pageSize ?? Number.MAX_SAFE_INTEGER);
  }

  /**
   * Page sizes: the service's maximum per connection (asked once), clamped to `pageSize`. A
   * larger page than the service allows is an error there, so the limits are asked rather
   * than assumed; a service that cannot say gets the public service's 50.
   */
  private pages(): Promise<PageSizes> {
    this.limits ??= this.http
      .request('the service limits', 'SmiServiceLimits', SERVICE_LIMITS_QUERY, {}, serviceLimitsData)
      .then(
        (d) => d.serviceConfig,
        (e: unknown) => {
          if (e instanceof DataSourceError && (e.code === 'REJECTED' || e.code === 'UNSUPPORTED' || e.code === 'INVALID_RESPONSE')) return DEFAULT_PAGE_LIMITS;
          this.limits = null;
          throw e;
        },
      )
      .then((l) => {
        const clamp = (v: number | null, d: number) => Math.max(1, Math.min(this.pageSize, v ?? d));
        return {
          events: clamp(l.events, DEFAULT_PAGE_LIMITS.events),
          objectChanges: clamp(l.objectChanges, DEFAULT_PAGE_LIMITS.objectChanges),
          checkpointTransactions: clamp(l.checkpointTransactions, DEFAULT_PAGE_LIMITS.checkpointTransactions),
          addressObjects: clamp(l.addressObjects, DEFAULT_PAGE_LIMITS.addressObjects),
        };
      });
    return this.limits;
  }

  private invalid(what: string, reason: string): Error {
    return failure('INVALID_RESPONSE', what, this.endpoint, { reason });
  }

  /** A u64 as a GraphQL `UInt53` (a JSON number), or REJECTED. */
  private uint53(value: bigint, what: string): number {
    checkU64(value, what, this.endpoint);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw failure('REJECTED', what, this.endpoint, { reason: `${value} does not fit GraphQL's UInt53` });
    return Number(value);
  }

  /** Every node of a connection: `first`, then `next(cursor)` while there are more. */
  private async allPages<T>(what: string, operation: string, first: Page<T>, next: (after: string) => Promise<Page<T>>): Promise<T[]> {
    const out = [...first.nodes];
    const seen = new Set<string>();
    let page = first;
    while (page.pageInfo.hasNextPage) {
      const cursor = page.pageInfo.endCursor;
      if (cursor === null) throw this.invalid(what, `${operation}: hasNextPage without an endCursor`);
      if (seen.has(cursor)) throw this.invalid(what, `${operation}: the same cursor came back twice`);
      seen.add(cursor);
      page = await next(cursor);
      out.push(...page.nodes);
    }
    return out;
  }

  /** The BCS of `TransactionEvents` from its events' BCS, `null` when there are none. */
  private eventsBcs(what: string, nodes: { eventBcs: string | null }[]): Uint8Array | null {
    if (nodes.length === 0) return null;
    return bcsVector(
      nodes.map((n, i) => {
        if (n.eventBcs === null) throw this.invalid(what, `event ${i} has no eventBcs`);
        return base64Bytes(n.eventBcs);
      }),
    );
  }

  async getTransaction(digest: string): Promise<ChainTransaction> {
    const what = `transaction ${digest}`;
    const op = 'SmiTransaction';
    checkDigest(digest, this.endpoint);
    const pages = await this.pages();
    const data = await this.http.request(what, op, TRANSACTION_QUERY, { digest, eventsFirst: pages.events }, transactionData);
    const tx = data.transaction;
    if (tx === null) throw failure('NOT_FOUND', what, this.endpoint);
    if (tx.digest !== digest) throw this.invalid(what, `${op}: answered transaction ${tx.digest}`);
    if (tx.transactionBcs === null) throw this.invalid(what, `${op}: no transactionBcs`);
    const effects = tx.effects;
    if (effects === null || effects.effectsBcs === null) throw this.invalid(what, `${op}: no effectsBcs`);
    if (effects.events === null) throw this.invalid(what, `${op}: no events connection`);
    const events = await this.allPages(what, 'SmiTransactionEvents', effects.events, async (after) => {
      const more = await this.http.request(what, 'SmiTransactionEvents', TRANSACTION_EVENTS_QUERY, { digest, eventsFirst: pages.events, after }, transactionEventsData);
      const page = more.transaction?.effects?.events;
      if (!page) throw this.invalid(what, 'SmiTransactionEvents: the transaction or its events went missing');
      return page;
    });
    return {
      digest,
      transactionBcs: base64Bytes(tx.transactionBcs),
      effectsBcs: base64Bytes(effects.effectsBcs),
      eventsBcs: this.eventsBcs(what, events),
      checkpoint: effects.checkpoint ? BigInt(effects.checkpoint.sequenceNumber) : null,
      timestampMs: effects.timestamp ? dateTimeMs(effects.timestamp) : null,
      unchangedLoadedRuntimeObjects: null,
    };
  }

  async getEpoch(epoch: bigint): Promise<ChainEpoch> {
    const what = `epoch ${epoch}`;
    const op = 'SmiEpoch';
    const data = await this.http.request(what, op, EPOCH_QUERY, { epochId: this.uint53(epoch, what) }, epochData);
    const e = data.epoch;
    if (e === null) throw failure('NOT_FOUND', what, this.endpoint);
    if (BigInt(e.epochId) !== epoch) throw this.invalid(what, `${op}: answered epoch ${e.epochId}`);
    if (e.referenceGasPrice === null || e.startTimestamp === null || e.protocolConfigs === null) {
      throw this.invalid(what, `${op}: no ${e.referenceGasPrice === null ? 'referenceGasPrice' : e.startTimestamp === null ? 'startTimestamp' : 'protocolConfigs'}`);
    }
    return {
      epoch,
      protocolVersion: e.protocolConfigs.protocolVersion,
      referenceGasPrice: BigInt(e.referenceGasPrice),
      startTimestampMs: dateTimeMs(e.startTimestamp),
    };
  }

  /**
   * One object query (`query`, with `address` and `extra` variables), its answer checked: the
   * object asked for, with a version and its BCS; `accept` refuses a version it should not have.
   */
  private async objectQuery(what: string, op: string, query: string, id: string, extra: Record<string, number | null>, accept: (version: bigint) => boolean = () => true): Promise<ChainObject> {
    const address = checkAddress(id, what, this.endpoint);
    const data = await this.http.request(what, op, query, { address, ...extra }, objectData);
    const o = data.object;
    if (o === null) throw failure('NOT_FOUND', what, this.endpoint);
    if (checkAddress(o.address, what, this.endpoint) !== address) throw this.invalid(what, `${op}: answered object ${o.address}`);
    if (o.version === null || o.objectBcs === null) throw this.invalid(what, `${op}: no ${o.version === null ? 'version' : 'objectBcs'}`);
    if (!accept(BigInt(o.version))) throw this.invalid(what, `${op}: answered version ${o.version}`);
    return { id: address, version: BigInt(o.version), bcs: base64Bytes(o.objectBcs), ...(o.digest !== null ? { digest: o.digest } : {}) };
  }

  async getObject(id: string, version?: bigint): Promise<ChainObject> {
    const what = describeObject(id, version);
    return this.objectQuery(what, 'SmiObject', OBJECT_QUERY, id, { version: version === undefined ? null : this.uint53(version, what) }, (v) => version === undefined || v === version);
  }

  /** The config of protocol `version` (default: the current one). */
  async getProtocolConfig(version?: number): Promise<ChainProtocolConfig> {
    const what = version === undefined ? 'the current protocol config' : `protocol config ${version}`;
    const op = 'SmiProtocolConfig';
    const data = await this.http.request(what, op, PROTOCOL_CONFIG_QUERY, { version: version === undefined ? null : this.uint53(BigInt(version), what) }, protocolConfigData);
    const c = data.protocolConfigs;
    if (c === null) throw failure('NOT_FOUND', what, this.endpoint);
    if (version !== undefined && c.protocolVersion !== version) throw this.invalid(what, `${op}: answered protocol ${c.protocolVersion}`);
    const attributes: Record<string, string> = {};
    for (const { key, value } of c.configs) if (value !== null) attributes[key] = value;
    return { protocolVersion: c.protocolVersion, featureFlags: Object.fromEntries(c.featureFlags.map((f) => [f.key, f.value])), attributes };
  }

  /** The latest version of the object at or below `rootVersion` (a child as read through its root). */
  async getObjectBounded(id: string, rootVersion: bigint): Promise<ChainObject> {
    const what = `${describeObject(id)} at or below version ${rootVersion}`;
    return this.objectQuery(what, 'SmiObjectBounded', OBJECT_BOUNDED_QUERY, id, { rootVersion: this.uint53(rootVersion, what) }, (v) => v <= rootVersion);
  }

  /** The object as it was when `checkpoint` was executed (an old transaction's system packages). */
  async getObjectAtCheckpoint(id: string, checkpoint: bigint): Promise<ChainObject> {
    const what = `${describeObject(id)} at checkpoint ${checkpoint}`;
    return this.objectQuery(what, 'SmiObjectAtCheckpoint', OBJECT_AT_CHECKPOINT_QUERY, id, { atCheckpoint: this.uint53(checkpoint, what) });
  }

  async latestCheckpoint(): Promise<bigint> {
    const what = 'the latest checkpoint';
    const data = await this.http.request(what, 'SmiLatestCheckpoint', LATEST_CHECKPOINT_QUERY, {}, latestCheckpointData);
    if (data.checkpoint === null) throw this.invalid(what, 'SmiLatestCheckpoint: no checkpoint');
    return BigInt(data.checkpoint.sequenceNumber);
  }

  async checkpointTransactions(sequence: bigint): Promise<string[]> {
    const what = `checkpoint ${sequence}`;
    const op = 'SmiCheckpointTransactions';
    const sequenceNumber = this.uint53(sequence, what);
    const ask = async (after: string | null) => {
      const data = await this.http.request(what, op, CHECKPOINT_TRANSACTIONS_QUERY, { sequenceNumber, first: (await this.pages()).checkpointTransactions, after }, checkpointTransactionsData);
      const c = data.checkpoint;
      if (c === null) throw failure('NOT_FOUND', what, this.endpoint);
      if (c.sequenceNumber !== sequenceNumber) throw this.invalid(what, `${op}: answered checkpoint ${c.sequenceNumber}`);
      if (c.transactions === null) throw this.invalid(what, `${op}: no transactions connection`);
      return c.transactions;
    };
    const nodes = await this.allPages(what, op, await ask(null), ask);
    return nodes.map((n) => n.digest);
  }

  async listOwnedObjects(owner: string, type?: string): Promise<OwnedObjectInfo[]> {
    const what = `objects owned by ${owner}${type ? ` of type ${type}` : ''}`;
    const op = 'SmiOwnedObjects';
    const address = checkAddress(owner, what, this.endpoint);
    const ask = async (after: string | null) => {
      const variables = { owner: address, filter: type ? { type } : null, first: (await this.pages()).addressObjects, after };
      const data = await this.http.request(what, op, OWNED_OBJECTS_QUERY, variables, ownedObjectsData);
      const objects = data.address?.objects;
      if (!objects) throw this.invalid(what, `${op}: no objects connection`);
      return objects;
    };
    const nodes = await this.allPages(what, op, await ask(null), ask);
    return nodes.map((n) => {
      const repr = n.contents?.type?.repr;
      if (n.version === null || n.digest === null || repr === undefined) throw this.invalid(what, `${op}: object ${n.address} lacks its version, digest or type`);
      return { id: checkAddress(n.address, what, this.endpoint), version: BigInt(n.version), digest: n.digest, type: repr };
    });
  }

  async simulateTransaction(transactionBcs: Uint8Array, options: { checks: boolean }): Promise<ChainSimulation> {
    const what = `simulation of a ${transactionBcs.length}-byte transaction${options.checks ? '' : ' (checks disabled)'}`;
    const op = 'SmiSimulateTransaction';
    const transaction = { bcs: { value: Buffer.from(transactionBcs).toString('base64') } };
    // Object changes are paged at the service's maximum (1024 on the public service: one page
    // for almost every transaction); events (50 a page) beyond the first page ask the
    // simulation again, which must come out the same.
    const pages = await this.pages();
    const ask = async (eventsAfter: string | null, changesAfter: string | null) => {
      const variables = { transaction, checksEnabled: options.checks, eventsFirst: pages.events, eventsAfter, changesFirst: pages.objectChanges, changesAfter };
      const data = await this.http.request(what, op, SIMULATE_QUERY, variables, simulateData);
      const s = data.simulateTransaction;
      if (s.effects === null || s.effects.effectsBcs === null) throw this.invalid(what, `${op}: no effectsBcs`);
      if (s.effects.events === null) throw this.invalid(what, `${op}: no events connection`);
      if (s.effects.objectChanges === null) throw this.invalid(what, `${op}: no objectChanges connection`);
      return { effectsBcs: s.effects.effectsBcs, events: s.effects.events, changes: s.effects.objectChanges, outputs: s.outputs };
    };
    const first = await ask(null, null);
    // More than one page of events or object changes: the simulation is asked again for the
    // next page, and must come out the same.
    const again = async (eventsAfter: string | null, changesAfter: string | null) => {
      const next = await ask(eventsAfter, changesAfter);
      if (next.effectsBcs !== first.effectsBcs) throw this.invalid(what, `${op}: the effects changed between pages`);
      return next;
    };
    const events = await this.allPages(what, op, first.events, async (after) => (await again(after, null)).events);
    const changes = await this.allPages(what, op, first.changes, async (after) => (await again(null, after)).changes);
    const created = changes.filter((c) => c.idCreated === true);
    return {
      effectsBcs: base64Bytes(first.effectsBcs),
      eventsBcs: this.eventsBcs(what, events),
      commandResults:
        first.outputs === null
          ? null
          : first.outputs.map((c, i) => ({
              returnValues: (c.returnValues ?? []).map((r, j) => {
                if (r.value === null || r.value.bcs === null) throw this.invalid(what, `${op}: return value ${j} of command ${i} has no bcs`);
                return { type: r.value.type?.repr ?? '', bcs: base64Bytes(r.value.bcs) };
              }),
            })),
      // A created object whose output has no Move type (a package) is not listed; one whose
      // type the service left out makes the list unknown.
      createdObjects: created.some((c) => c.outputState?.asMoveObject != null && c.outputState.asMoveObject.contents?.type == null)
        ? null
        : created.flatMap((c) => {
            const repr = c.outputState?.asMoveObject?.contents?.type?.repr;
            return repr === undefined ? [] : [{ id: checkAddress(c.address, what, this.endpoint), type: repr }];
          }),
    };
  }
}

/**
 * A fake Sui GraphQL RPC on 127.0.0.1 (node:http, port 0) serving a {@link FakeChain}. Queries
 * are parsed, validated and executed by graphql-js against Sui's real schema (the one
 * `@mysten/sui` ships, `src/graphql/generated/schema.graphql`), so a query the real service
 * would refuse is refused here too (`GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`), and
 * only the fields a query selects are answered. Root fields served: `transaction`, `epoch`,
 * `object`, `checkpoint`, `address { objects }`, `simulateTransaction`; connections page with
 * opaque cursors and at most 50 items a page, as the public service. A transaction's events are
 * served one by one (`eventBcs`), split out of the chain's `TransactionEvents` BCS; a
 * simulation's `objectChanges` are only its created objects, with their types. Failures can
 * be scripted per operation or root field; every request is recorded.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { ChainTransaction } from '@smi/simulation';
import { buildSchema, execute, GraphQLError, type GraphQLSchema, Kind, parse, validate, type DocumentNode } from 'graphql';
import { type FakeChain, storedObjectDigest } from './fake-chain.js';
import { pageSizeError, queryLimitError, strictScalars } from './graphql-limits.js';

/** Sui's `Event` (sui-types), for building and splitting `TransactionEvents` BCS in tests. */
export const EventBcs = bcs.struct('Event', {
  packageId: bcs.Address,
  transactionModule: bcs.string(),
  sender: bcs.Address,
  type: bcs.StructTag,
  contents: bcs.vector(bcs.u8()),
});

/** `TransactionEvents { data: vector<Event> }`. */
export const TransactionEventsBcs = bcs.struct('TransactionEvents', { data: bcs.vector(EventBcs) });

/** The BCS of a `TransactionEvents` with `count` made-up events (`seed` varies the contents). */
export function fakeEventsBcs(count: number, seed = 1): Uint8Array {
  const data = Array.from({ length: count }, (_, i) => ({
    packageId: normalizeSuiAddress(`0x${(seed * 1000 + i).toString(16)}`),
    transactionModule: 'm',
    sender: normalizeSuiAddress('0xa11ce'),
    type: { address: normalizeSuiAddress('0x2'), module: 'event', name: `E${i}`, typeParams: [] },
    contents: [seed & 0xff, i & 0xff, 7],
  }));
  return TransactionEventsBcs.serialize({ data }).toBytes();
}

/** A scripted failure: the next `times` requests matching answer it instead. */
export interface FakeGraphQLFailure {
  /** An operation name (`SmiTransaction`) or a root field (`transaction`), or `*`. */
  match: string;
  times?: number;
  /** Answer this HTTP status (429, 503) with `Retry-After` when given. */
  httpStatus?: number;
  retryAfter?: string;
  /** Answer 200 with a GraphQL error with this `extensions.code`. */
  errorCode?: string;
  message?: string;
  /** Answer 200 with a body that is not JSON. */
  malformed?: boolean;
  /** Answer 200 with this JSON body as it is (a wrong shape). */
  raw?: unknown;
}

/** How the fake behaves. */
export interface FakeGraphQLOptions {
  failures?: FakeGraphQLFailure[];
  /** Hold every answer this long. */
  delayMs?: number;
}

/** A request as the fake received it. */
export interface FakeGraphQLRequest {
  index: number;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  /** Root fields the query selects. */
  rootFields: string[];
  headers: IncomingMessage['headers'];
}

/** A running fake. */
export interface FakeGraphQLServer {
  /** `http://127.0.0.1:<port>/graphql`. */
  url: string;
  requests: FakeGraphQLRequest[];
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const SCHEMA_FILE = fileURLToPath(new URL('../node_modules/@mysten/sui/src/graphql/generated/schema.graphql', import.meta.url));
let schemaCache: GraphQLSchema | undefined;

/** Sui's GraphQL schema, as `@mysten/sui` ships it. */
export function suiGraphQLSchema(): GraphQLSchema {
  if (schemaCache === undefined) {
    schemaCache = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
    strictScalars(schemaCache);
  }
  return schemaCache;
}

const MAX_PAGE = 50;

/**
 * The service's page limits (sui-indexer-alt-graphql: 50 by default; object changes of a
 * transaction's effects, 1024), served by `serviceConfig.maxPageSize` and enforced.
 */
const PAGE_LIMITS: Record<string, number> = { 'TransactionEffects.objectChanges': 1024 };
function maxPageSize(type: string, field: string): number {
  return PAGE_LIMITS[`${type}.${field}`] ?? MAX_PAGE;
}
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const iso = (ms: bigint) => new Date(Number(ms)).toISOString();
const userError = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** A connection over `items` (cursor = the next index). */
function connection<T>(items: readonly T[], args: PageArgs, max = MAX_PAGE) {
  const first = args.first ?? MAX_PAGE;
  if (first < 0) throw userError(`Invalid page size ${first}`);
  if (first > max) throw pageSizeError(first, max);
  const start = args.after ? Number(Buffer.from(args.after, 'base64').toString('utf8').replace(/^c:/, '')) + 1 : 0;
  if (!Number.isSafeInteger(start)) throw userError(`Invalid cursor ${args.after}`);
  const nodes = items.slice(start, start + first);
  const cursor = (i: number) => Buffer.from(`c:${i}`).toString('base64');
  return {
    nodes,
    edges: nodes.map((node, i) => ({ node, cursor: cursor(start + i) })),
    pageInfo: {
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: nodes.length > 0 ? cursor(start) : null,
      endCursor: nodes.length > 0 ? cursor(start + nodes.length - 1) : null,
    },
  };
}

/** Each event's BCS, out of a `TransactionEvents`. */
function splitEvents(eventsBcs: Uint8Array | null): { eventBcs: string }[] {
  if (!eventsBcs) return [];
  let parsed: ReturnType<typeof TransactionEventsBcs.parse>;
  try {
    parsed = TransactionEventsBcs.parse(eventsBcs);
  } catch (error) {
    throw new GraphQLError(`fake: events are not TransactionEvents BCS (${String(error)})`, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  }
  return parsed.data.map((e) => ({ eventBcs: b64(EventBcs.serialize(e).toBytes()) }));
}

/** A `Transaction` node of the chain (fields resolved only when selected). */
function transactionNode(tx: ChainTransaction) {
  return {
    digest: tx.digest,
    transactionBcs: b64(tx.transactionBcs),
    effects: {
      digest: tx.digest,
      effectsBcs: b64(tx.effectsBcs),
      timestamp: tx.timestampMs === null ? null : iso(tx.timestampMs),
      checkpoint: tx.checkpoint === null ? null : { sequenceNumber: Number(tx.checkpoint) },
      events: (args: PageArgs) => connection(splitEvents(tx.eventsBcs), args),
    },
  };
}

/** Does an object of `type` match a GraphQL type filter (package, module, name or instantiation)? */
function typeMatches(type: string, filter: string): boolean {
  if (filter.includes('<')) return type === filter;
  const parts = filter.split('::').length;
  if (parts === 3) return type === filter || type.startsWith(`${filter}<`);
  return type.startsWith(`${filter}::`);
}

function rootValue(chain: FakeChain) {
  const latest = (versions: Map<bigint, Uint8Array>) => [...versions.keys()].reduce((a, b) => (b > a ? b : a));
  return {
    transaction: ({ digest }: { digest: string }) => {
      const tx = chain.transactions.get(digest);
      return tx ? transactionNode(tx) : null;
    },
    serviceConfig: () => ({ maxPageSize: ({ type, field }: { type: string; field: string }) => maxPageSize(type, field) }),
    protocolConfigs: ({ version }: { version?: number | null }) => {
      const configs = chain.protocolConfigs ?? new Map();
      const current = [...chain.epochs.values()].reduce((a, e) => Math.max(a, e.protocolVersion), 0);
      const c = configs.get(version ?? current);
      if (!c) return null;
      return {
        protocolVersion: c.protocolVersion,
        featureFlags: Object.entries(c.featureFlags).map(([key, value]) => ({ key, value })),
        configs: Object.entries(c.attributes).map(([key, value]) => ({ key, value })),
      };
    },
    epoch: ({ epochId }: { epochId?: number | null }) => {
      const n = epochId === undefined || epochId === null ? [...chain.epochs.keys()].reduce((a, b) => (b > a ? b : a), 0n) : BigInt(epochId);
      const e = chain.epochs.get(n);
      if (!e) return null;
      return {
        epochId: Number(e.epoch),
        referenceGasPrice: String(e.referenceGasPrice),
        startTimestamp: iso(e.startTimestampMs),
        protocolConfigs: { protocolVersion: e.protocolVersion },
      };
    },
    object: ({ address, version, rootVersion, atCheckpoint }: { address: string; version?: number | null; rootVersion?: number | null; atCheckpoint?: number | null }) => {
      const id = normalizeSuiAddress(address);
      const given = [version, rootVersion, atCheckpoint].filter((x) => x !== undefined && x !== null).length;
      if (given > 1) throw userError('It is an error to specify more than one of version, rootVersion, or atCheckpoint');
      const versions = chain.objects.get(id);
      if (!versions || versions.size === 0) return null;
      let v: bigint;
      if (rootVersion !== undefined && rootVersion !== null) {
        const below = [...versions.keys()].filter((x) => x <= BigInt(rootVersion));
        if (below.length === 0) return null;
        v = below.reduce((a, b) => (b > a ? b : a));
        const bytes = versions.get(v) as Uint8Array;
        return { address: id, version: Number(v), digest: storedObjectDigest(bytes) ?? null, objectBcs: b64(chain.tamper?.(id, v, bytes) ?? bytes) };
      }
      if (atCheckpoint !== undefined && atCheckpoint !== null) {
        if (chain.retainedFrom !== undefined && BigInt(atCheckpoint) < chain.retainedFrom) {
          throw userError(`Checkpoint ${atCheckpoint} is outside the available range (the service keeps checkpoints from ${chain.retainedFrom})`);
        }
        // The newest version written at or before the checkpoint.
        const written = [...(chain.objectCheckpoints?.get(id) ?? new Map<bigint, bigint>())].filter(([, cp]) => cp <= BigInt(atCheckpoint)).map(([ver]) => ver);
        if (written.length === 0) return null;
        v = written.reduce((a, b) => (b > a ? b : a));
      } else v = version === undefined || version === null ? latest(versions) : BigInt(version);
      const bytes = versions.get(v);
      return bytes ? { address: id, version: Number(v), digest: storedObjectDigest(bytes) ?? null, objectBcs: b64(chain.tamper?.(id, v, bytes) ?? bytes) } : null;
    },
    checkpoint: ({ sequenceNumber, digest }: { sequenceNumber?: number | null; digest?: string | null }) => {
      if (digest) throw userError('fake: checkpoints by digest are not served');
      const c = sequenceNumber === undefined || sequenceNumber === null ? chain.checkpoints.at(-1) : chain.checkpoints.find((x) => x.sequence === BigInt(sequenceNumber));
      if (!c) return null;
      return {
        sequenceNumber: Number(c.sequence),
        transactions: (args: PageArgs) =>
          connection(
            c.digests.map((d) => {
              const tx = chain.transactions.get(d);
              return tx ? transactionNode(tx) : { digest: d };
            }),
            args,
          ),
      };
    },
    address: ({ address }: { address: string }) => {
      const owner = normalizeSuiAddress(address);
      return {
        address: owner,
        objects: (args: PageArgs & { filter?: { type?: string | null } | null }) => {
          const type = args.filter?.type;
          const owned = (chain.owned.get(owner) ?? []).filter((o) => !type || typeMatches(o.type, type));
          return connection(
            owned.map((o) => ({ address: o.id, version: Number(o.version), digest: o.digest, contents: { type: { repr: o.type } } })),
            args,
          );
        },
      };
    },
    simulateTransaction: ({ transaction, checksEnabled }: { transaction: unknown; checksEnabled?: boolean | null }) => {
      if (!chain.simulate) throw new GraphQLError('fake: simulation is not served here', { extensions: { code: 'FEATURE_UNAVAILABLE' } });
      const value = (transaction as { bcs?: { value?: unknown } } | null)?.bcs?.value;
      if (typeof value !== 'string') throw userError('transaction must be {"bcs": {"value": "<base64>"}} here');
      let sim: ReturnType<NonNullable<FakeChain['simulate']>>;
      try {
        sim = chain.simulate(Buffer.from(value, 'base64'), checksEnabled !== false);
      } catch (error) {
        throw userError(error instanceof Error ? error.message : String(error));
      }
      return {
        effects: {
          effectsBcs: b64(sim.effectsBcs),
          events: (args: PageArgs) => connection(splitEvents(sim.eventsBcs), args),
          // Only the created objects, with their types (what the data source reads).
          objectChanges: (args: PageArgs) =>
            connection(
              (sim.createdObjects ?? []).map((o) => ({
                address: o.id,
                idCreated: true,
                idDeleted: false,
                // A created object of type `package` is a published package: no Move object.
                outputState: o.type === 'package' ? { address: o.id, asMoveObject: null, asMovePackage: { address: o.id } } : { address: o.id, asMoveObject: { contents: { type: { repr: o.type } } } },
              })),
              args,
              maxPageSize('TransactionEffects', 'objectChanges'),
            ),
        },
        outputs:
          sim.commandResults === null
            ? null
            : sim.commandResults.map((c) => ({
                returnValues: c.returnValues.map((r) => ({ value: { bcs: b64(r.bcs), type: { repr: r.type } } })),
                mutatedReferences: [],
              })),
      };
    },
  };
}

function rootFieldsOf(document: DocumentNode, operationName: string | null): string[] {
  const out: string[] = [];
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operationName && def.name?.value !== operationName) continue;
    for (const sel of def.selectionSet.selections) if (sel.kind === Kind.FIELD) out.push(sel.name.value);
  }
  return out;
}

/** Start a fake GraphQL service serving `chain`. */
export async function startFakeGraphQL(chain: FakeChain, options: FakeGraphQLOptions = {}): Promise<FakeGraphQLServer> {
  const schema = suiGraphQLSchema();
  const root = rootValue(chain);
  const requests: FakeGraphQLRequest[] = [];
  const failures = (options.failures ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  let inFlight = 0;
  let maxInFlight = 0;

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/graphql')) return json(res, 404, { errors: [{ message: `no route ${req.method} ${req.url}` }] });
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return json(res, 400, { errors: [{ message: 'body is not JSON', extensions: { code: 'BAD_REQUEST' } }] });
    }
    const query = typeof body.query === 'string' ? body.query : '';
    const variables = (typeof body.variables === 'object' && body.variables !== null ? body.variables : {}) as Record<string, unknown>;
    const operationName = typeof body.operationName === 'string' ? body.operationName : null;
    let document: DocumentNode | null = null;
    let parseError: GraphQLError | null = null;
    try {
      document = parse(query);
    } catch (error) {
      parseError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
    }
    const rootFields = document ? rootFieldsOf(document, operationName) : [];
    requests.push({ index: requests.length, operationName, query, variables, rootFields, headers: req.headers });
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));

    const failure = failures.find((f) => f.left > 0 && (f.match === '*' || f.match === operationName || rootFields.includes(f.match)));
    if (failure) {
      failure.left--;
      const extra: Record<string, string> = failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : {};
      if (failure.malformed) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>oops</html>');
        return;
      }
      if (failure.raw !== undefined) return json(res, 200, failure.raw, extra);
      if (failure.httpStatus !== undefined) return json(res, failure.httpStatus, { errors: [{ message: failure.message ?? `HTTP ${failure.httpStatus}` }] }, extra);
      return json(res, 200, { data: null, errors: [{ message: failure.message ?? 'scripted failure', extensions: { code: failure.errorCode ?? 'INTERNAL_SERVER_ERROR' } }] }, extra);
    }
    if (!document) return json(res, 200, { errors: [{ message: parseError?.message ?? 'no query', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
    const invalid = validate(schema, document);
    if (invalid.length > 0) {
      return json(res, 200, { errors: invalid.map((e) => ({ message: e.message, locations: e.locations, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) });
    }
    const limited = queryLimitError(document);
    if (limited !== null) return json(res, 200, { data: null, errors: [limited] });
    const result = await execute({ schema, document, rootValue: root, variableValues: variables, operationName });
    return json(res, 200, result);
  };

  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (d: Buffer) => (data += d.toString()));
    req.on('end', () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      answer(req, res, data).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { errors: [{ message: String(error) }] });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

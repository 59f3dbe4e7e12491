/**
 * Sui's public endpoints by name, and `dataSourceFor`, which builds the right data source for
 * a URL or a name (GraphQL when the URL's path ends in `/graphql`, gRPC otherwise). The public
 * endpoints are rate-limited ("not production endpoints"); use your own for heavy work.
 */
import type { SuiDataSource } from '@smi/simulation';
import { DataSourceError } from '@smi/simulation';
import { GraphQLDataSource } from './graphql.js';
import { GrpcDataSource } from './grpc.js';
import { withResilience, type ResilienceOptions } from './resilient.js';

/** Public endpoints: full node (gRPC), archive (gRPC, history) and GraphQL, per network. */
export const SUI_ENDPOINTS = {
  mainnet: {
    fullnode: 'https://fullnode.mainnet.sui.io:443',
    archive: 'https://archive.mainnet.sui.io:443',
    graphql: 'https://graphql.mainnet.sui.io/graphql',
  },
  testnet: {
    fullnode: 'https://fullnode.testnet.sui.io:443',
    archive: 'https://archive.testnet.sui.io:443',
    graphql: 'https://graphql.testnet.sui.io/graphql',
  },
} as const;

/** A name `dataSourceFor` knows: `mainnet` (the full node), `mainnet-archive`, `mainnet-graphql`, and the same for testnet. */
export type EndpointName = keyof typeof SUI_ENDPOINTS | `${keyof typeof SUI_ENDPOINTS}-${'archive' | 'graphql'}`;

/** The URL of a named endpoint, or `nameOrUrl` itself when it is not a name. */
export function resolveEndpoint(nameOrUrl: EndpointName | (string & {})): string {
  const [network, kind] = nameOrUrl.split('-', 2) as [string, string | undefined];
  if (network !== 'mainnet' && network !== 'testnet') return nameOrUrl;
  const urls = SUI_ENDPOINTS[network];
  if (kind === undefined) return urls.fullnode;
  if (kind === 'archive') return urls.archive;
  if (kind === 'graphql') return urls.graphql;
  return nameOrUrl;
}

/** How `dataSourceFor` builds a source. */
export interface DataSourceForOptions {
  /** The protocol; by default GraphQL when the URL's path ends in `/graphql`, else gRPC. */
  kind?: 'grpc' | 'graphql';
  /** Deadline of each call (default 30 s). */
  timeoutMs?: number;
  /** Extra request headers (an API key). */
  headers?: Record<string, string>;
  /** `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** gRPC-web body format (gRPC only; default `text`). */
  format?: 'text' | 'binary';
  /**
   * gRPC only: `grpc-web` or native `grpc` over HTTP/2. Default: native for the archive names
   * (`mainnet-archive`: the archive speaks nothing else) and `grpc://`/`grpcs://` URLs, else gRPC-web.
   */
  transport?: 'grpc-web' | 'grpc';
  /** Items per page when listing (default 500 for gRPC, 50 for GraphQL). */
  pageSize?: number;
  /** Wrap the source in {@link withResilience} with these options (default: not wrapped). */
  resilience?: ResilienceOptions;
}

/** Which protocol a URL speaks, by its path. */
export function endpointKind(url: string): 'grpc' | 'graphql' {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    throw new DataSourceError('REJECTED', `${JSON.stringify(url)} is not a URL or an endpoint name (mainnet, testnet, mainnet-archive, mainnet-graphql, …)`);
  }
  return /\/graphql\/?$/.test(path) ? 'graphql' : 'grpc';
}

/** A data source for `nameOrUrl` (a URL, or a name such as `mainnet` or `mainnet-graphql`). */
export function dataSourceFor(nameOrUrl: EndpointName | (string & {}), options: DataSourceForOptions = {}): SuiDataSource {
  const url = resolveEndpoint(nameOrUrl);
  const kind = options.kind ?? endpointKind(url);
  const common = {
    url,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
  };
  const transport = options.transport ?? (/-archive$/.test(nameOrUrl) ? 'grpc' : undefined);
  const source: SuiDataSource =
    kind === 'graphql' ? new GraphQLDataSource(common) : new GrpcDataSource({ ...common, ...(options.format ? { format: options.format } : {}), ...(transport !== undefined ? { transport } : {}) });
  return options.resilience ? withResilience(source, options.resilience) : source;
}

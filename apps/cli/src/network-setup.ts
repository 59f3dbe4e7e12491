/**
 * The options every command that talks to a Sui node shares (`--rpc-url`, `--testnet`,
 * `--archive-url`, retries, concurrency, timeout), and the data source they make: gRPC or
 * GraphQL by the URL, wrapped with retries on UNAVAILABLE/RATE_LIMITED, a cap on calls in
 * flight, and the archive asked when the full node has pruned what was asked.
 */
import { dataSourceFor, resolveEndpoint, type RetryEvent } from '@smi/network';
import type { SuiDataSource } from '@smi/simulation';
import { UsageError } from './errors.js';
import { errorMessage } from '@smi/bytecode';

/** Arguments of the network options. */
export interface NetworkArgs {
  'rpc-url'?: string;
  testnet: boolean;
  'archive-url'?: string;
  'rpc-retries': number;
  'rpc-concurrency': number;
  'rpc-timeout-seconds': number;
}

/** The network options as yargs declarations. */
export const NETWORK_OPTIONS = {
  'rpc-url': {
    type: 'string',
    describe:
      'Sui endpoint: a gRPC URL (https://fullnode.mainnet.sui.io:443), a GraphQL URL (…/graphql), or a name: mainnet, testnet, mainnet-graphql, mainnet-archive (default $SMI_RPC_URL, else mainnet; JSON-RPC is gone)',
  },
  testnet: { type: 'boolean', default: false, describe: 'Use testnet (the same as --rpc-url testnet)' },
  'archive-url': { type: 'string', describe: "Where to ask when the node has pruned a transaction or object (default: the network's archive for named endpoints; none to disable)" },
  'rpc-retries': { type: 'number', default: 4, describe: 'Retries of a call the node refused as busy or unavailable (backoff, Retry-After honoured)' },
  'rpc-concurrency': { type: 'number', default: 8, describe: 'Calls to the node at once' },
  'rpc-timeout-seconds': { type: 'number', default: 30, describe: 'Deadline of one call' },
} as const;

/** The endpoint the options name. */
function endpointOf(args: NetworkArgs): string {
  if (args.testnet && args['rpc-url'] !== undefined && !/^testnet/.test(args['rpc-url'])) throw new UsageError('give either --testnet or --rpc-url', 'USAGE');
  return resolveEndpoint(namedEndpoint(args));
}

/** The endpoint as the user named it: `--rpc-url`, `--testnet`, `$SMI_RPC_URL`, else mainnet. */
function namedEndpoint(args: Pick<NetworkArgs, 'rpc-url' | 'testnet'>): string {
  const env = process.env.SMI_RPC_URL;
  return args['rpc-url'] ?? (args.testnet ? 'testnet' : env !== undefined && env !== '' ? env : 'mainnet');
}

/**
 * The endpoints the options name, as named: the node (`--rpc-url`, `--testnet`, `$SMI_RPC_URL`,
 * else mainnet) and the archive asked when it has pruned what was asked (`--archive-url`; for a
 * bare network name, that network's archive; `none` for no archive).
 */
export function endpointsOf(args: Pick<NetworkArgs, 'rpc-url' | 'testnet' | 'archive-url'>): { node: string; archive?: string } {
  const node = namedEndpoint(args);
  const network = /^(mainnet|testnet)$/.exec(node)?.[1];
  const archive = args['archive-url'] === 'none' ? undefined : (args['archive-url'] ?? (network !== undefined ? `${network}-archive` : undefined));
  return archive === undefined ? { node } : { node, archive };
}

/** The data source the options describe (`onRetry` hears every retry, for --verbose). */
export function dataSourceOf(args: NetworkArgs, onRetry?: (message: string) => void): SuiDataSource {
  for (const [name, v, min] of [
    ['rpc-retries', args['rpc-retries'], 0],
    ['rpc-concurrency', args['rpc-concurrency'], 1],
    ['rpc-timeout-seconds', args['rpc-timeout-seconds'], 0.001],
  ] as const) {
    if (!Number.isFinite(v) || v < min) throw new UsageError(`--${name} ${v}: expected a number of at least ${min}`, 'INVALID_NUMBER');
  }
  const named = namedEndpoint(args);
  const url = endpointOf(args);
  const archive = endpointsOf(args).archive;
  const timeoutMs = args['rpc-timeout-seconds'] * 1000;
  const resilience = {
    retries: args['rpc-retries'],
    concurrency: args['rpc-concurrency'],
    ...(onRetry ? { onRetry: (e: RetryEvent) => onRetry(`${e.method}: ${e.error.message}; retry ${e.attempt} in ${Math.round(e.delayMs)} ms`) } : {}),
  };
  const fallback = archive === undefined ? undefined : dataSourceFor(archive, { timeoutMs, resilience: { retries: args['rpc-retries'], concurrency: args['rpc-concurrency'] } });
  try {
    return dataSourceFor(url, { timeoutMs, resilience: { ...resilience, ...(fallback ? { fallback } : {}) } });
  } catch (e) {
    throw new UsageError(`--rpc-url ${named}: ${errorMessage(e)}`, 'INVALID_URL');
  }
}

// Fetch a transaction, its epoch and the latest checkpoint from a Sui node, the way the replay
// does: gRPC (or GraphQL for a …/graphql URL), retried when the node is busy, at most four
// calls at once, and the archive asked when the full node has pruned the transaction.
// Needs the network. From the repo root, after `pnpm build`:
//   node packages/5-network/examples/fetch-transaction.mjs [DIGEST] [URL or name]
// e.g. … ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL mainnet-graphql
import { dataSourceFor } from '@smi/network';
import { DataSourceError } from '@smi/simulation';

const digest = process.argv[2] ?? 'ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL';
const endpoint = process.argv[3] ?? process.env.SMI_RPC_URL ?? 'mainnet';

const archive = dataSourceFor('mainnet-archive', { resilience: { retries: 2 } });
const source = dataSourceFor(endpoint, {
  timeoutMs: 20_000,
  resilience: {
    retries: 3,
    concurrency: 4,
    fallback: archive,
    onRetry: (e) => console.error(`retry ${e.attempt} of ${e.method} in ${e.delayMs} ms: ${e.error.message}`),
  },
});

try {
  console.log(`latest checkpoint at ${source.endpoint}: ${await source.latestCheckpoint()}`);
  const tx = await source.getTransaction(digest);
  console.log(`transaction ${tx.digest}: ${tx.transactionBcs.length} bytes, effects ${tx.effectsBcs.length} bytes, events ${tx.eventsBcs?.length ?? 0} bytes, checkpoint ${tx.checkpoint}`);
  console.log(`runtime-loaded objects: ${tx.unchangedLoadedRuntimeObjects === null ? 'not reported' : tx.unchangedLoadedRuntimeObjects.length}`);
} catch (error) {
  if (!(error instanceof DataSourceError)) throw error;
  console.error(`${error.code}: ${error.message}`);
  process.exitCode = 1;
}

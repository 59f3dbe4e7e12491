// @smi/network: a data source for a named endpoint, and a failing node (a fetch answering 503,
// no network used) reported as a typed, retryable DataSourceError.
import { dataSourceFor } from '@smi/network';
import { DataSourceError } from '@smi/simulation';
import { check, done } from './fixtures.mjs';

const mainnet = dataSourceFor('mainnet');
check(mainnet.endpoint.startsWith('https://'), `mainnet resolves to a URL (${mainnet.endpoint})`);
let calls = 0;
const busy = dataSourceFor('https://node.invalid/graphql', {
  fetch: async () => {
    calls++;
    return new Response('busy', { status: 503 });
  },
});
let error: unknown;
try {
  await busy.latestCheckpoint();
} catch (e) {
  error = e;
}
check(error instanceof DataSourceError, `a DataSourceError (got ${String(error)})`);
check(error.retryable, `retryable (${error.code})`);
done(`mainnet is ${mainnet.endpoint}; a node answering 503 is ${error.code} after ${calls} call(s)`);

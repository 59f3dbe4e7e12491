/**
 * A worker thread of {@link replayCachedParallel}: replays the cached transactions it is sent,
 * one at a time, and answers each with its outcome.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TransactionCache } from './cache.js';
import { replayCached, type ReplayOneOptions } from './replay-one.js';

const port = parentPort;
if (port === null) throw new Error('worker.ts runs as a worker thread of replayCachedParallel');
const { dir, options } = workerData as { dir: string; options: ReplayOneOptions };
const cache = new TransactionCache(dir);
port.on('message', (m: { digest: string }) => port.postMessage(replayCached(cache, m.digest, options)));
port.postMessage({ ready: true });

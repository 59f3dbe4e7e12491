/**
 * Replaying many cached transactions on worker threads (`smi tx-replay --from-cache
 * --parallel --threads N`): each worker replays one transaction at a time; outcomes come back
 * in the order the digests were given.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReplayOneOptions, ReplayOutcome } from './replay-one.js';

function workerUrl(): URL {
  const beside = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // Running from src (tests): the built worker.
  return new URL('../../dist/worker.js', import.meta.url);
}

/** Replay `digests` of the cache at `dir` on `threads` workers. */
export async function replayCachedParallel(
  dir: string,
  digests: readonly string[],
  threads: number,
  options: ReplayOneOptions & { onOutcome?: (o: ReplayOutcome) => void; signal?: AbortSignal },
): Promise<ReplayOutcome[]> {
  const { onOutcome, signal, ...replay } = options;
  const results: ReplayOutcome[] = new Array<ReplayOutcome>(digests.length);
  let next = 0;
  const n = Math.max(1, Math.min(threads, digests.length));
  await Promise.all(
    Array.from({ length: n }, () => {
      const worker = new Worker(workerUrl(), { workerData: { dir, options: replay } });
      return new Promise<void>((resolve, reject) => {
        let current = -1;
        const send = (): void => {
          if (next >= digests.length || signal?.aborted) {
            void worker.terminate().then(() => resolve());
            return;
          }
          current = next++;
          worker.postMessage({ digest: digests[current] });
        };
        worker.on('message', (m: ReplayOutcome | { ready: true }) => {
          if ('ready' in m) return send();
          results[current] = m;
          onOutcome?.(m);
          send();
        });
        worker.on('error', reject);
      });
    }),
  );
  return results.filter((r) => r !== undefined);
}

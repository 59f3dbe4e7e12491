/**
 * A worker thread of `runBenchmark`: builds its own benchmark (session, baseline) from
 * the options it was given, then answers `{type: "run", position, target}` messages with
 * the target's row, one at a time, in the order they came.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Benchmark, type TargetRef } from './benchmark.js';
import { unfinishedRow, type WorkerMessage } from './runner.js';
import { deserializeOptions, type SerializedOptions } from './serialize.js';
import { errorMessage } from '@smi/bytecode';

const port = parentPort;
if (port === null) throw new Error('worker.ts runs as a worker thread of runBenchmark');

const post = (m: WorkerMessage): void => port.postMessage(m);

try {
  const options = deserializeOptions(workerData as SerializedOptions);
  const bench = await Benchmark.create(options);
  // One target at a time: they share the session, whose state each one restores.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: { type: 'run'; position: number; target: TargetRef }) => {
    queue = queue.then(() =>
      bench.runTarget(m.target).then(
        (row) => post({ type: 'row', position: m.position, row }),
        (e: unknown) => post({ type: 'row', position: m.position, row: unfinishedRow(m.target, `internal error: ${errorMessage(e)}`, options.phaseErrors ?? true) }),
      ),
    );
  });
  post({ type: 'ready', graph: bench.graphStats, inits: [...bench.baseline.inits] });
} catch (e) {
  post({ type: 'fatal', message: errorMessage(e) });
}

/**
 * A whole run: the targets (filtered, optionally one shard of them), run in this thread
 * or on worker threads, rows handed back in output order as soon as they are ready,
 * and a summary. Every worker builds the same baseline, and every target starts from
 * it, so rows are the same whatever the number of workers. A target that runs past the
 * time limit is reported as such and its worker replaced.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Benchmark, type BenchmarkOptions, selectTargets, type TargetRef } from './benchmark.js';
import { Catalogue, isCoreFramework } from './catalogue.js';
import { ChunkQueue } from './chunk-queue.js';
import type { GraphStats } from './constructor-graph.js';
import type { BenchmarkRow } from './row.js';
import { serializeOptions } from './serialize.js';
import { type BenchmarkSummary, SummaryBuilder } from './summary.js';
import type { InitRun } from './baseline.js';
import { errorSource, isExpectedLimitation } from './taxonomy.js';
import { errorMessage } from '@smi/bytecode';

/** Options of a run. */
export interface RunOptions extends BenchmarkOptions {
  /** Worker threads; 0 runs in this thread (no time limit then). */
  jobs: number;
  /** Only shard `index` (1-based) of `count`: targets `i` with `i % count === index - 1`. */
  shard?: { index: number; count: number };
  /** Rows of the first targets of the selection, already done (a resumed run): skipped, but counted. */
  done?: readonly BenchmarkRow[];
  /** Rows of target packages that could not be read (written by the caller): counted in the summary. */
  loadFailures?: readonly BenchmarkRow[];
  /** The targets, when the caller computed them already ({@link runTargets} of the same options). */
  selected?: readonly TargetRef[];
  /** Wall-clock limit of one target on a worker (default 60 s). */
  timeoutMs?: number;
  /** Stop between targets when aborted (rows done so far are kept). */
  signal?: AbortSignal;
  /** Called once the targets are known and the first worker is ready. */
  onStart?: (info: { targets: number; skipped: number; graph: GraphStats; inits: readonly InitRun[] }) => void;
  /** Each row, in output order. */
  onRow?: (row: BenchmarkRow, done: number, total: number) => void;
}

/** What a run gives back. */
export interface RunResult {
  summary: BenchmarkSummary;
  interrupted: boolean;
}

/** Messages of the worker protocol. */
export type WorkerMessage = { type: 'ready'; graph: GraphStats; inits: InitRun[] } | { type: 'row'; position: number; row: BenchmarkRow } | { type: 'fatal'; message: string };

/** The row of a target that could not be run to the end (an internal error, a time limit). */
export function unfinishedRow(t: TargetRef, reason: string, phaseErrors = true): BenchmarkRow {
  return {
    target_package: t.packageId,
    target_module: t.module,
    target_function: t.name,
    ...(t.duplicateOf === undefined ? {} : { duplicate_of: t.duplicateOf }),
    status: 'miss',
    failure_stage: 'B2',
    failure_reason: reason,
    error_code: 'E403',
    ...(phaseErrors ? { error_phase: 'Execution' as const, error_source: errorSource('E403', { reason }), is_expected_limitation: isExpectedLimitation('E403', { reason }) } : {}),
    abort: { code: null, location: null, category: 'unknown' },
  };
}

/** The targets of a run, after filters and shard. */
export function runTargets(options: RunOptions): TargetRef[] {
  const all = [...options.framework, ...(options.dependencies ?? []), ...options.targets];
  const unique = [...new Map(all.map((p) => [p.id, p])).values()];
  const catalogue = new Catalogue(unique);
  const targets = selectTargets(catalogue, new Set(options.targets.map((p) => p.id)), options);
  if (options.shard === undefined) return targets;
  const { index, count } = options.shard;
  return targets.filter((t) => t.index % count === index - 1);
}

function workerUrl(): URL {
  const beside = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // Running from src (tests): the built worker.
  return new URL('../dist/worker.js', import.meta.url);
}

/** Run the benchmark. */
export async function runBenchmark(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const selected = options.selected ?? runTargets(options);
  const skipped = Math.min(options.done?.length ?? 0, selected.length);
  const todo = selected.slice(skipped);
  const summary = new SummaryBuilder();
  for (const row of options.loadFailures ?? []) summary.add(row);
  for (const row of (options.done ?? []).slice(0, skipped)) summary.add(row);
  let graph: GraphStats | undefined;
  let inits: readonly InitRun[] = [];
  const emit = (row: BenchmarkRow, done: number): void => {
    summary.add(row);
    options.onRow?.(row, done + skipped, selected.length);
  };
  let interrupted = false;
  if (options.jobs <= 0) {
    const bench = await Benchmark.create(options);
    graph = bench.graphStats;
    inits = bench.baseline.inits;
    options.onStart?.({ targets: selected.length, skipped, graph, inits });
    for (const [i, t] of todo.entries()) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      let row: BenchmarkRow;
      try {
        row = await bench.runTarget(t);
      } catch (e) {
        row = unfinishedRow(t, `internal error: ${errorMessage(e)}`, options.phaseErrors ?? true);
      }
      emit(row, i + 1);
    }
  } else {
    const r = await runOnWorkers(
      options,
      todo,
      (row, done) => emit(row, done),
      (g, i) => {
        graph = g;
        inits = i;
        options.onStart?.({ targets: selected.length, skipped, graph: g, inits: i });
      },
    );
    interrupted = r.interrupted;
  }
  const elapsed = Math.round(performance.now() - started);
  const failedInits = inits
    .filter((i) => !i.success)
    .map((i) => {
      const code = i.error_code ?? 'FAILED';
      const error = i.error ?? 'failed';
      // The code is a field of its own: not repeated at the head of the message.
      return { package: i.package, module: i.module, error_code: code, message: error.startsWith(`${code}: `) ? error.slice(code.length + 2) : error };
    });
  return {
    summary: summary.build({
      ...(options.tierAOnly === true || options.staticOnly === true ? { tier_b: 'not_run' as const } : {}),
      ...(options.includeFramework !== true && options.targets.some((t) => isCoreFramework(t.id))
        ? {
            framework_skipped: options.targets
              .filter((t) => isCoreFramework(t.id))
              .map((t) => t.id)
              .sort(),
          }
        : {}),
      ...(graph === undefined ? {} : { graph }),
      inits: { run: inits.length, failed: failedInits.length, ...(failedInits.length > 0 ? { failures: failedInits } : {}) },
      elapsed_ms: elapsed,
      ...(interrupted ? { interrupted: true as const } : {}),
    }),
    interrupted,
  };
}

interface Slot {
  worker: Worker;
  /** The chunk being run: positions not answered yet, and since when the current one runs. */
  busy: { pending: number[]; since: number } | null;
  ready: boolean;
  /** The package of the last chunk it ran. */
  package: string | null;
}

async function runOnWorkers(
  options: RunOptions,
  todo: readonly TargetRef[],
  emit: (row: BenchmarkRow, done: number) => void,
  onReady: (graph: GraphStats, inits: InitRun[]) => void,
): Promise<{ interrupted: boolean }> {
  const { jobs, signal, onRow: _onRow, onStart: _onStart, shard: _shard, done: _done, timeoutMs: _t, loadFailures: _l, selected: _s, ...benchmarkOptions } = options;
  const init = serializeOptions(benchmarkOptions);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const results: (BenchmarkRow | undefined)[] = new Array(todo.length);
  const originals = new Map([...options.framework, ...(options.dependencies ?? []), ...options.targets].map((p) => [p.id, p.originalId]));
  const chunks = new ChunkQueue(todo, (id) => originals.get(id) ?? id);
  let emitted = 0;
  let started = false;
  let stopping = false;
  const slots: Slot[] = [];
  return new Promise((resolve, reject) => {
    const flush = (): void => {
      while (emitted < todo.length && results[emitted] !== undefined) {
        emit(results[emitted] as BenchmarkRow, emitted + 1);
        results[emitted] = undefined;
        emitted++;
      }
    };
    let done = false;
    const finish = (interrupted: boolean): void => {
      if (done) return;
      done = true;
      clearInterval(watchdog);
      for (const s of slots) void s.worker.terminate();
      resolve({ interrupted });
    };
    const dispatch = (slot: Slot): void => {
      if (stopping || signal?.aborted) {
        stopping = true;
        if (slots.every((s) => s.busy === null)) finish(emitted < todo.length);
        return;
      }
      const chunk = chunks.take(slot.package);
      if (chunk === null) {
        if (slots.every((s) => s.busy === null)) finish(false);
        return;
      }
      const positions = chunk.positions;
      slot.package = chunk.package;
      slot.busy = { pending: [...positions], since: performance.now() };
      for (const position of positions) slot.worker.postMessage({ type: 'run', position, target: todo[position] });
    };
    const spawn = (): Slot => {
      const slot: Slot = { worker: new Worker(workerUrl(), { workerData: init }), busy: null, ready: false, package: null };
      slot.worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          slot.ready = true;
          if (!started) {
            started = true;
            onReady(m.graph, m.inits);
          }
          dispatch(slot);
        } else if (m.type === 'row') {
          results[m.position] = m.row;
          flush();
          const busy = slot.busy;
          if (busy !== null) {
            busy.pending = busy.pending.filter((p) => p !== m.position);
            busy.since = performance.now();
            if (busy.pending.length === 0) {
              slot.busy = null;
              dispatch(slot);
            }
          }
        } else {
          finishWithError(new Error(`worker failed: ${m.message}`));
        }
      });
      slot.worker.on('error', (e) => finishWithError(e));
      return slot;
    };
    const finishWithError = (e: Error): void => {
      if (done) return;
      done = true;
      clearInterval(watchdog);
      for (const s of slots) void s.worker.terminate();
      reject(e);
    };
    // A target past its time limit: its worker is replaced and the target reported as such.
    const watchdog = setInterval(
      () => {
        for (const [i, slot] of slots.entries()) {
          if (slot.busy === null || performance.now() - slot.busy.since < timeoutMs) continue;
          // The first pending target is the one running; the rest of the chunk goes back in line.
          const [position, ...rest] = slot.busy.pending;
          slot.busy = null;
          const pkg = slot.package;
          void slot.worker.terminate();
          results[position] = unfinishedRow(todo[position], `time limit exceeded: the target ran for more than ${timeoutMs} ms`, options.phaseErrors ?? true);
          if (pkg !== null) chunks.putBack({ package: pkg, positions: rest });
          flush();
          slots[i] = spawn();
        }
      },
      Math.max(10, Math.min(250, timeoutMs / 4)),
    );
    signal?.addEventListener('abort', () => {
      stopping = true;
      if (slots.every((s) => s.busy === null)) finish(emitted < todo.length);
    });
    if (todo.length === 0) {
      finish(false);
      return;
    }
    const count = Math.max(1, Math.min(jobs, todo.length));
    for (let i = 0; i < count; i++) slots.push(spawn());
  });
}

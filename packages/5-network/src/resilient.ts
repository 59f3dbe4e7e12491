/**
 * `withResilience`: a {@link SuiDataSource} around another that retries the failures worth
 * another try (UNAVAILABLE, RATE_LIMITED) with exponential backoff and jitter, honours a
 * server's `Retry-After`, caps how many calls are on the wire at once, and asks a fallback
 * (the archive) when the source has no such transaction, object or epoch.
 */
import { DataSourceError, type SuiDataSource } from '@smi/simulation';
import pLimit from 'p-limit';

/** A retry about to happen. */
export interface RetryEvent {
  /** The data source method (`getObject`). */
  method: keyof Omit<SuiDataSource, 'endpoint'>;
  /** 1 for the first retry. */
  attempt: number;
  /** How long it waits first. */
  delayMs: number;
  error: DataSourceError;
}

/** How to be resilient. */
export interface ResilienceOptions {
  /** Retries after the first try (default 4). */
  retries?: number;
  /** The first backoff (default 250 ms); doubled each retry, with jitter. */
  baseDelayMs?: number;
  /** The largest computed backoff (default 10 s). */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` to honour (default 60 s): a server asking for more fails the call
   * at once (RATE_LIMITED, with its `retryAfterMs`).
   */
  maxRetryAfterMs?: number;
  /** Calls on the wire at once (default 8); waiting between retries holds no slot. */
  concurrency?: number;
  /**
   * Asked when the source answers NOT_FOUND for `getTransaction`, `getObject` or `getEpoch`
   * (an archive endpoint, itself wrapped in `withResilience` for its own retries).
   */
  fallback?: SuiDataSource;
  /** Told of each retry before its wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `source`, retried, rate-capped and backed by `options.fallback`. */
export function withResilience(source: SuiDataSource, options: ResilienceOptions = {}): SuiDataSource {
  const retries = Math.max(0, options.retries ?? 4);
  const baseDelayMs = Math.max(0, options.baseDelayMs ?? 250);
  const maxDelayMs = Math.max(baseDelayMs, options.maxDelayMs ?? 10_000);
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const random = options.random ?? Math.random;
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  const fallback = options.fallback;

  /** Backoff before retry `attempt` (1-based): equal jitter over an exponential step. */
  const backoff = (attempt: number): number => {
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(step / 2 + (random() * step) / 2);
  };

  async function retried<T>(method: RetryEvent['method'], run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await limit(run);
      } catch (error) {
        if (!(error instanceof DataSourceError) || !error.retryable) throw error;
        const retryAfterMs = error.details.retryAfterMs;
        if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs) throw error;
        if (attempt > retries) {
          throw new DataSourceError(error.code, `${error.message}; gave up after ${retries + 1} tries`, error.details);
        }
        const delayMs = Math.max(backoff(attempt), retryAfterMs ?? 0);
        options.onRetry?.({ method, attempt, delayMs, error });
        await sleep(delayMs);
      }
    }
  }

  async function orFallback<T>(primary: () => Promise<T>, secondary: (f: SuiDataSource) => Promise<T>): Promise<T> {
    try {
      return await primary();
    } catch (error) {
      if (!fallback || !(error instanceof DataSourceError) || error.code !== 'NOT_FOUND') throw error;
      try {
        return await secondary(fallback);
      } catch (second) {
        if (!(second instanceof DataSourceError)) throw second;
        throw new DataSourceError(second.code, `${error.message}; fallback: ${second.message}`, second.details);
      }
    }
  }

  return {
    endpoint: source.endpoint,
    getTransaction: (digest) =>
      orFallback(
        () => retried('getTransaction', () => source.getTransaction(digest)),
        (f) => f.getTransaction(digest),
      ),
    getEpoch: (epoch) =>
      orFallback(
        () => retried('getEpoch', () => source.getEpoch(epoch)),
        (f) => f.getEpoch(epoch),
      ),
    getObject: (id, version) =>
      orFallback(
        () => retried('getObject', () => source.getObject(id, version)),
        (f) => f.getObject(id, version),
      ),
    ...(source.getObjectAtCheckpoint
      ? {
          getObjectAtCheckpoint: (id: string, checkpoint: bigint) =>
            orFallback(
              () => retried('getObjectAtCheckpoint', () => (source.getObjectAtCheckpoint as NonNullable<SuiDataSource['getObjectAtCheckpoint']>)(id, checkpoint)),
              (f) => (f.getObjectAtCheckpoint ? f.getObjectAtCheckpoint(id, checkpoint) : Promise.reject(new DataSourceError('UNSUPPORTED', `${f.endpoint} cannot answer objects at a checkpoint`))),
            ),
        }
      : {}),
    ...(source.getObjectBounded
      ? {
          getObjectBounded: (id: string, rootVersion: bigint) =>
            orFallback(
              () => retried('getObjectBounded', () => (source.getObjectBounded as NonNullable<SuiDataSource['getObjectBounded']>)(id, rootVersion)),
              (f) => (f.getObjectBounded ? f.getObjectBounded(id, rootVersion) : Promise.reject(new DataSourceError('UNSUPPORTED', `${f.endpoint} cannot answer objects bounded by a root version`))),
            ),
        }
      : {}),
    ...(source.getProtocolConfig
      ? {
          getProtocolConfig: (version?: number) =>
            orFallback(
              () => retried('getProtocolConfig', () => (source.getProtocolConfig as NonNullable<SuiDataSource['getProtocolConfig']>)(version)),
              (f) => (f.getProtocolConfig ? f.getProtocolConfig(version) : Promise.reject(new DataSourceError('UNSUPPORTED', `${f.endpoint} cannot answer protocol configs`))),
            ),
        }
      : {}),
    latestCheckpoint: () => retried('latestCheckpoint', () => source.latestCheckpoint()),
    checkpointTransactions: (sequence) => retried('checkpointTransactions', () => source.checkpointTransactions(sequence)),
    listOwnedObjects: (owner, type) => retried('listOwnedObjects', () => source.listOwnedObjects(owner, type)),
    simulateTransaction: (transactionBcs, opts) => retried('simulateTransaction', () => source.simulateTransaction(transactionBcs, opts)),
  };
}

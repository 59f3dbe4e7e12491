/**
 * Retries owned by the harness (the SDK's are off): a call that fails with a retryable
 * {@link ModelError} (`rate_limit`, `transient`) is tried again after the server's
 * `Retry-After`, or a capped exponential backoff with jitter, until an attempt cap or a
 * deadline, whichever comes first. The wait is cut short when the signal aborts.
 */
import { ModelError } from './types.js';

/** How many times, and how long, to try. */
export interface RetryPolicy {
  /** Most attempts in all (1 = no retry). */
  maxAttempts: number;
  /** First backoff, ms (doubled each retry). */
  baseDelayMs: number;
  /** Longest backoff, ms. */
  maxDelayMs: number;
  /** Give up when the next try would start after this time (`Date.now()` ms). */
  deadline?: number;
}

/** The original's defaults: 6 attempts, backoff 1 s doubling to 8 s. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 8000 };

/** A retry about to happen (for logs and events). */
export interface RetryNotice {
  attempt: number;
  delayMs: number;
  error: ModelError;
}

/** Wait `ms`, or less when `signal` aborts (then reject with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The backoff before retry `attempt` (1-based): exponential, capped, with jitter (half fixed, half random). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

/**
 * Run `call` (given the attempt number, 1-based) until it succeeds or fails for good.
 * Non-retryable errors and errors other than {@link ModelError} are thrown at once; the
 * last error is thrown with `details.attempts` set when the cap or deadline is reached.
 */
export async function withRetries<T>(
  call: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  options: { signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void; random?: () => number } = {},
): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await call(attempt), attempts: attempt };
    } catch (e) {
      if (!(e instanceof ModelError) || !e.retryable) {
        if (e instanceof ModelError) e.details.attempts = attempt;
        throw e;
      }
      if (attempt >= policy.maxAttempts) {
        e.details.attempts = attempt;
        throw new ModelError(e.kind, `${e.message} (gave up after ${attempt} attempt${attempt === 1 ? '' : 's'})`, { ...e.details, attempts: attempt });
      }
      let delay = e.details.retryAfterMs ?? backoffMs(policy, attempt, options.random);
      if (policy.deadline !== undefined) {
        const left = policy.deadline - Date.now();
        if (left <= 0 || delay >= left) {
          throw new ModelError('timeout', `${e.message} (no time left to retry: the deadline is in ${Math.max(0, left)} ms, the wait ${delay} ms)`, { ...e.details, attempts: attempt });
        }
        delay = Math.min(delay, left);
      }
      options.onRetry?.({ attempt, delayMs: delay, error: e });
      await sleep(delay, options.signal);
    }
  }
}

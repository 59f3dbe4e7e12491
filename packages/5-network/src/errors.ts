/**
 * Shared failure helpers for the data sources: one wording for every {@link DataSourceError}
 * ("object 0x… at version 5 not found at https://…"), `Retry-After` parsing, and the checks
 * of what a caller asks before anything goes on the wire.
 */
import { isValidTransactionDigest } from '@mysten/sui/utils';
import { DataSourceError, type DataSourceErrorCode } from '@smi/simulation';
import { parseAddress } from '@smi/bytecode';

/** Extra facts for a failure's message and details. */
export interface FailureFacts {
  /** What the server or the transport said. */
  reason?: string;
  /** gRPC status name or HTTP status. */
  status?: string | number;
  retryAfterMs?: number;
}

/** A {@link DataSourceError} naming what was asked (`what`) of which endpoint. */
export function failure(code: DataSourceErrorCode, what: string, endpoint: string, facts: FailureFacts = {}): DataSourceError {
  const why = facts.reason ? ` (${facts.reason})` : '';
  let message: string;
  switch (code) {
    case 'NOT_FOUND':
      message = `${what} not found at ${endpoint}${why}`;
      break;
    case 'UNAVAILABLE':
      message = `${what}: ${endpoint} is unavailable${why}`;
      break;
    case 'RATE_LIMITED':
      message = `${what}: rate limited by ${endpoint}${facts.retryAfterMs !== undefined ? ` (retry after ${facts.retryAfterMs} ms)` : ''}${why}`;
      break;
    case 'UNSUPPORTED':
      message = `${what}: not supported by ${endpoint}${why}`;
      break;
    case 'REJECTED':
      message = `${what}: rejected by ${endpoint}${why}`;
      break;
    case 'INVALID_RESPONSE':
      message = `${what}: malformed answer from ${endpoint}${why}`;
      break;
    case 'INTERNAL':
      message = `${what}: ${endpoint} failed internally${why}`;
      break;
  }
  const details: { endpoint: string; retryAfterMs?: number; status?: string | number } = { endpoint };
  if (facts.retryAfterMs !== undefined) details.retryAfterMs = facts.retryAfterMs;
  if (facts.status !== undefined) details.status = facts.status;
  return new DataSourceError(code, message, details);
}

/**
 * Milliseconds to wait from a `Retry-After` value (delay-seconds or an HTTP date), or
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined, now: number = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const text = v.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The words for an object request: `object 0x… at version 5` or `object 0x… (latest version)`. */
export function describeObject(id: string, version?: bigint): string {
  return version === undefined ? `object ${id} (latest version)` : `object ${id} at version ${version}`;
}

/** `0x` + 64 hex of an object id or address, or REJECTED before anything is sent. */
export function checkAddress(value: string, what: string, endpoint: string): string {
  const normalized = parseAddress(value.trim());
  if (normalized === undefined) throw failure('REJECTED', what, endpoint, { reason: `${JSON.stringify(value)} is not a Sui address` });
  return normalized;
}

/** A base58 transaction digest, or REJECTED before anything is sent. */
export function checkDigest(digest: string, endpoint: string): string {
  if (!isValidTransactionDigest(digest)) throw failure('REJECTED', `transaction ${digest}`, endpoint, { reason: 'not a base58 transaction digest' });
  return digest;
}

/** A non-negative u64 argument, or REJECTED. */
export function checkU64(value: bigint, what: string, endpoint: string): bigint {
  if (value < 0n || value > 0xffff_ffff_ffff_ffffn) throw failure('REJECTED', what, endpoint, { reason: `${value} is not a u64` });
  return value;
}

/** A readable summary of a zod failure (`path: message; …`), for INVALID_RESPONSE messages. */
export function zodSummary(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** The endpoint as messages show it: the URL without a trailing slash. */
export function endpointLabel(url: string): string {
  return url.replace(/\/+$/, '');
}

/** An error's message with its causes' (undici hides `ECONNREFUSED` in `cause`). */
export function causeText(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !e.message.includes(code) ? `${e.message} [${code}]` : e.message);
    e = e.cause;
  }
  return parts.join(': ') || String(error);
}

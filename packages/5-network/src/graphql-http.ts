/**
 * One GraphQL request over `fetch` (`POST url` with `{query, variables, operationName}`, as
 * `SuiGraphQLClient.query` sends it), with the HTTP status, `Retry-After`, GraphQL `errors`
 * (by `extensions.code`) and the answer's shape (zod) turned into {@link DataSourceError}s.
 * Plain fetch rather than `SuiGraphQLClient.query`, because that one throws away the HTTP
 * status's headers (no `Retry-After`) and the error codes.
 */
import type { DataSourceErrorCode } from '@smi/simulation';
import { z } from 'zod';
import { causeText, failure, parseRetryAfter, zodSummary } from './errors.js';

/** How to reach a GraphQL endpoint. */
export interface GraphQLHttpOptions {
  /** Deadline of each request (default 30 s); an expired one is UNAVAILABLE. */
  timeoutMs?: number;
  /** Extra request headers (an API key). */
  headers?: Record<string, string>;
  /** `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

const envelope = z.object({
  data: z.unknown().optional(),
  errors: z
    .array(
      z.object({
        message: z.string(),
        path: z.array(z.union([z.string(), z.number()])).optional(),
        extensions: z.object({ code: z.string().optional() }).passthrough().optional(),
      }),
    )
    .optional(),
});

/** Sui GraphQL's `extensions.code` values (sui-indexer-alt-graphql, Apollo's names) to ours. */
function codeForGraphQLError(code: string | undefined): DataSourceErrorCode {
  switch (code) {
    case 'REQUEST_TIMEOUT':
    case 'SERVICE_UNAVAILABLE':
      return 'UNAVAILABLE';
    case 'INTERNAL_SERVER_ERROR':
      // The service's own fault (sui-indexer-alt-graphql's RpcError::InternalError): the same
      // query fails the same way, so it is reported, not retried.
      return 'INTERNAL';
    case 'TOO_MANY_REQUESTS':
    case 'RATE_LIMITED':
      return 'RATE_LIMITED';
    case 'FEATURE_UNAVAILABLE':
    case 'UNSUPPORTED':
      return 'UNSUPPORTED';
    case 'NOT_FOUND':
      return 'NOT_FOUND';
    default:
      // BAD_USER_INPUT, BAD_REQUEST, GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED,
      // RESOURCE_EXHAUSTED (the query is over the service's size limits: a rate limit is HTTP
      // 429), and anything unnamed: the server would not answer this query.
      return 'REJECTED';
  }
}

function codeForHttpStatus(status: number): DataSourceErrorCode {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 404 || status === 405 || status === 501) return 'UNSUPPORTED';
  if (status === 500) return 'INTERNAL';
  if (status >= 500 || status === 408) return 'UNAVAILABLE';
  return 'REJECTED';
}

/** A GraphQL endpoint, asked one validated query at a time. */
export class GraphQLHttp {
  private readonly timeoutMs: number;
  private readonly headers: Record<string, string>;
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly url: string,
    options: GraphQLHttpOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.headers = options.headers ?? {};
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /**
   * Send `query` (named `operationName`) with `variables`; the `data` checked against `schema`.
   * Failures name `what` was asked.
   */
  async request<S extends z.ZodType>(what: string, operationName: string, query: string, variables: Record<string, unknown>, schema: S): Promise<z.output<S>> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...this.headers },
        body: JSON.stringify({ query, variables, operationName }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw failure('UNAVAILABLE', what, this.url, {
        reason: timedOut ? `${operationName}: no answer within ${this.timeoutMs} ms` : `${operationName}: no answer, ${causeText(error)}`,
      });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw failure('UNAVAILABLE', what, this.url, { reason: `${operationName}: the answer broke off, ${causeText(error)}`, status: response.status });
    }
    let body: unknown;
    let parsedBody = true;
    try {
      body = JSON.parse(text);
    } catch {
      parsedBody = false;
    }
    const env = parsedBody ? envelope.safeParse(body) : undefined;
    if (!response.ok) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const first = env?.success ? env.data.errors?.[0]?.message : undefined;
      const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      throw failure(codeForHttpStatus(response.status), what, this.url, {
        reason: `${operationName}: ${status}${first ? `: ${first}` : ''}`,
        status: response.status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    }
    if (!env) throw failure('INVALID_RESPONSE', what, this.url, { reason: `${operationName}: not JSON: ${JSON.stringify(text.slice(0, 80))}` });
    if (!env.success) throw failure('INVALID_RESPONSE', what, this.url, { reason: `${operationName}: ${zodSummary(env.error.issues)}` });
    const errors = env.data.errors ?? [];
    if (errors.length > 0) {
      const e = errors[0];
      const code = e.extensions?.code;
      const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : '';
      throw failure(codeForGraphQLError(code), what, this.url, { reason: `${operationName}: ${code ? `${code}: ` : ''}${e.message}${more}`, ...(code ? { status: code } : {}) });
    }
    const data = schema.safeParse(env.data.data);
    if (!data.success) throw failure('INVALID_RESPONSE', what, this.url, { reason: `${operationName}: ${zodSummary(data.error.issues)}` });
    return data.data;
  }
}

/**
 * From a failed gRPC-web call (a protobuf-ts `RpcError`, or anything the transport threw) to a
 * {@link DataSourceError}. The transport reports its own troubles (the socket refused, a body
 * that is not gRPC-web) as `INTERNAL` with no response metadata; the server's statuses come
 * with the response headers as metadata, which tells the two apart.
 */
import { grpcSdk } from './grpc-sdk.js';
import { DataSourceError, type DataSourceErrorCode } from '@smi/simulation';
import { causeText, failure, parseRetryAfter } from './errors.js';

/** Transport messages that mean the endpoint could not be reached (undici, Node sockets). */
const CONNECTION_TROUBLE = /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|socket|network|terminated|other side closed/i;

/** What grpc-js says when the stream, not the server, failed. */
const NATIVE_CLIENT_TROUBLE =
  /RST_STREAM|Call ended without gRPC status|Protocol error|Failed to parse server response|Response message parsing error|No connection established|ECONNREFUSED|ECONNRESET/i;

function codeForStatus(status: string, fromServer: boolean, message: string): DataSourceErrorCode {
  switch (status) {
    case 'NOT_FOUND':
      return 'NOT_FOUND';
    case 'UNAVAILABLE':
    case 'DEADLINE_EXCEEDED':
    case 'ABORTED':
    case 'CANCELLED':
      return 'UNAVAILABLE';
    case 'RESOURCE_EXHAUSTED':
      return 'RATE_LIMITED';
    case 'UNIMPLEMENTED':
      return 'UNSUPPORTED';
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
    case 'PERMISSION_DENIED':
    case 'UNAUTHENTICATED':
    case 'ALREADY_EXISTS':
      return 'REJECTED';
    case 'DATA_LOSS':
      return 'INVALID_RESPONSE';
    case 'INTERNAL':
      // From the server: the node failed on its side (the same request fails the same way),
      // reported as such rather than retried; from the transport (no response metadata): the
      // connection failed or the answer was not gRPC.
      if (fromServer) return 'INTERNAL';
      return CONNECTION_TROUBLE.test(message) ? 'UNAVAILABLE' : 'INVALID_RESPONSE';
    default:
      // UNKNOWN: from the server, an HTTP error of a proxy in front of the node (a 502/503), worth
      // another try; from the transport, as INTERNAL.
      if (fromServer) return 'UNAVAILABLE';
      return CONNECTION_TROUBLE.test(message) ? 'UNAVAILABLE' : 'INVALID_RESPONSE';
  }
}

/**
 * A {@link DataSourceError} for a failed call of `rpc` (`LedgerService.GetTransaction`) asking
 * for `what` at `endpoint`. A `DataSourceError` passes through.
 */
export function mapGrpcError(error: unknown, what: string, endpoint: string, rpc: string, transport: 'grpc-web' | 'grpc' = 'grpc-web'): DataSourceError {
  if (error instanceof DataSourceError) return error;
  // Only an Error can be an RpcError: the SDK is loaded to check (it is, once a call was made).
  // (The native transport's RpcError is the same class; its name is checked too, should a
  // second copy of protobuf-ts be installed.)
  if (error instanceof Error && (error instanceof grpcSdk().RpcError || (error.name === 'RpcError' && 'code' in error && 'meta' in error))) {
    const rpcError = error as Error & { code: string; meta: Record<string, string | string[]> };
    // gRPC-web: the server's statuses come with response headers. Native gRPC (grpc-js) strips
    // the status from the metadata, so what the client made up itself is told by its words.
    const fromServer = transport === 'grpc' ? !NATIVE_CLIENT_TROUBLE.test(error.message) : Object.keys(rpcError.meta).length > 0;
    const code = codeForStatus(rpcError.code, fromServer, error.message);
    const retryAfter = rpcError.meta['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    const detail = error.message && error.message !== rpcError.code ? `${rpcError.code}: ${error.message}` : rpcError.code;
    const reason = fromServer || code !== 'UNAVAILABLE' ? `${rpc}: ${detail}` : `${rpc}: no answer, ${error.message}`;
    return failure(code, what, endpoint, { reason, status: rpcError.code, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  }
  const text = causeText(error);
  const code: DataSourceErrorCode = CONNECTION_TROUBLE.test(text) ? 'UNAVAILABLE' : 'INVALID_RESPONSE';
  return failure(code, what, endpoint, { reason: `${rpc}: ${text || String(error)}` });
}

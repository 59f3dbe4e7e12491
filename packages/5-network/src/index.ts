/**
 * @smi/network: live Sui chain data for SMI. `SuiDataSource` (from `@smi/simulation`) over a
 * full node's or the archive's gRPC API (`GrpcDataSource`, gRPC-web via `@mysten/sui/grpc`) and
 * over Sui's GraphQL RPC (`GraphQLDataSource`), `withResilience` for retries with backoff, a
 * concurrency cap and an archive fallback, and `dataSourceFor` for a URL or a named endpoint.
 * Answers are raw BCS; failures are `DataSourceError`s with stable codes.
 */
export { GrpcDataSource, GRPC_READ_MASKS } from './grpc.js';
export type { GrpcDataSourceOptions } from './grpc.js';
export { GraphQLDataSource } from './graphql.js';
export type { GraphQLDataSourceOptions } from './graphql.js';
export { withResilience } from './resilient.js';
export type { ResilienceOptions, RetryEvent } from './resilient.js';
export { dataSourceFor, endpointKind, resolveEndpoint, SUI_ENDPOINTS } from './endpoints.js';
export type { DataSourceForOptions, EndpointName } from './endpoints.js';
export { parseRetryAfter } from './errors.js';

/**
 * Native gRPC over HTTP/2 for `SuiGrpcClient` (the SDK's documented alternative to its
 * gRPC-web default): `@protobuf-ts/grpc-transport` over `@grpc/grpc-js`, loaded on first use.
 * The archive (`archive.mainnet.sui.io`) speaks only this; full nodes speak both. URLs:
 * `grpcs://host:port` (TLS; `https://` given to a native source is the same) and `grpc://host:port`
 * (cleartext HTTP/2, a local node or a test server).
 */
import { createRequire } from 'node:module';
import type { SuiGrpcClientOptions } from '@mysten/sui/grpc';

/** The SDK's transport type (protobuf-ts `RpcTransport`). */
export type RpcTransport = Extract<SuiGrpcClientOptions, { transport: object }>['transport'];

interface GrpcTransportModule {
  GrpcTransport: new (options: { host: string; channelCredentials: unknown; meta?: Record<string, string> }) => RpcTransport;
}
interface GrpcJsModule {
  ChannelCredentials: { createSsl(): unknown; createInsecure(): unknown };
}

/** Does `url` name native gRPC by its scheme (`grpc://`, `grpcs://`)? */
export function isNativeGrpcUrl(url: string): boolean {
  return /^grpcs?:\/\//i.test(url);
}

/** A native gRPC transport to `url`. */
export function nativeGrpcTransport(url: string, headers?: Record<string, string>): RpcTransport {
  const u = new URL(url);
  const secure = u.protocol === 'grpcs:' || u.protocol === 'https:';
  const port = u.port !== '' ? u.port : secure ? '443' : '80';
  const require = createRequire(import.meta.url);
  const { GrpcTransport } = require('@protobuf-ts/grpc-transport') as GrpcTransportModule;
  const { ChannelCredentials } = require('@grpc/grpc-js') as GrpcJsModule;
  return new GrpcTransport({
    host: `${u.hostname}:${port}`,
    channelCredentials: secure ? ChannelCredentials.createSsl() : ChannelCredentials.createInsecure(),
    ...(headers ? { meta: headers } : {}),
  });
}

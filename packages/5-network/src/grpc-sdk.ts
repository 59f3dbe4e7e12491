/**
 * `@mysten/sui/grpc`, loaded on first use. It takes about 0.2 s to load (the protobuf service
 * descriptors), which every process importing this package paid — the `smi` CLI for any
 * command, most of which never talk to a node. It is an ES module without top-level await,
 * so Node's `require` loads it synchronously (the same instance an `import` gives).
 */
import { createRequire } from 'node:module';
import type * as Sdk from '@mysten/sui/grpc';

let sdk: typeof Sdk | null = null;

/** The SDK's `@mysten/sui/grpc` module. */
export function grpcSdk(): typeof Sdk {
  sdk ??= createRequire(import.meta.url)('@mysten/sui/grpc') as typeof Sdk;
  return sdk;
}

/**
 * What crosses into a worker thread: packages as their module bytes (decoded again on the
 * other side) and the protocol config as its data; the other options clone as they are.
 */
import { type LinkageEntry, type MovePackage, packageFromBytes, type TypeOrigin } from '@smi/bytecode';
import { type ConfigMap, ProtocolConfig } from '@smi/move-vm';
import type { BenchmarkOptions } from './benchmark.js';

/** A package as bytes. */
export interface SerializedPackage {
  id: string;
  version: number | null;
  modules: Uint8Array[];
  typeOriginTable: TypeOrigin[];
  linkageTable: Record<string, LinkageEntry>;
}

/** A protocol config as data. */
export interface SerializedProtocolConfig {
  version: number;
  featureFlags: ConfigMap;
  values: ConfigMap;
  header: ConfigMap;
  file?: string;
}

/** Benchmark options as they cross into a worker. */
export type SerializedOptions = Omit<BenchmarkOptions, 'framework' | 'dependencies' | 'targets' | 'protocolConfig'> & {
  framework: SerializedPackage[];
  dependencies: SerializedPackage[];
  targets: SerializedPackage[];
  protocolConfig: SerializedProtocolConfig;
};

function packageOut(p: MovePackage): SerializedPackage {
  return { id: p.id, version: p.version, modules: p.modules.map((m) => m.bytes), typeOriginTable: p.typeOriginTable, linkageTable: p.linkageTable };
}

function packageIn(p: SerializedPackage): MovePackage {
  return { ...packageFromBytes(p.modules, { id: p.id, version: p.version }), typeOriginTable: p.typeOriginTable, linkageTable: p.linkageTable };
}

/** Options ready to post to a worker. */
export function serializeOptions(o: BenchmarkOptions): SerializedOptions {
  const { framework, dependencies, targets, protocolConfig, ...rest } = o;
  return {
    ...rest,
    framework: framework.map(packageOut),
    dependencies: (dependencies ?? []).map(packageOut),
    targets: targets.map(packageOut),
    protocolConfig: {
      version: protocolConfig.version,
      featureFlags: protocolConfig.featureFlags,
      values: protocolConfig.values,
      header: protocolConfig.header,
      ...(protocolConfig.file === undefined ? {} : { file: protocolConfig.file }),
    },
  };
}

/** Options as a worker received them. */
export function deserializeOptions(o: SerializedOptions): BenchmarkOptions {
  return {
    ...o,
    framework: o.framework.map(packageIn),
    dependencies: o.dependencies.map(packageIn),
    targets: o.targets.map(packageIn),
    protocolConfig: new ProtocolConfig(o.protocolConfig),
  };
}

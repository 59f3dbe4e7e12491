/**
 * Fetching the framework into the user cache: the system packages (0x1, 0x2, 0x3, 0xb, 0xdee9)
 * as they are now or as they were under a protocol version, and that version's protocol
 * config, written as `<cache>/framework/<version>/<id>/` (sui-packages layout) and
 * `<cache>/protocol-config/sui_protocol_config__test__Mainnet_version_<version>.snap` (the form
 * of the upstream snapshots), so every command finds them without `SMI_FIXTURES`.
 *
 * A node serves a system package at any of its versions, but says nothing of which version a
 * protocol version ran: version `v` (> 1) was written by the end-of-epoch transaction of epoch
 * `e` and ran from epoch `e + 1`, so the version live under protocol `N` is the highest whose
 * first epoch ran protocol `N` or earlier (versions go up one by one; a binary search).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, SYSTEM_PACKAGES } from '@smi/bytecode';
import { parseProtocolConfigSnap, type ProtocolConfig } from '@smi/move-vm';
import { suiBcs } from '@smi/ptb';
import { type ChainProtocolConfig, DataSourceError, type SuiDataSource } from '../data-source.js';
import { verifyPackageAnswer } from './fetch-packages.js';
import { hasPackageDir, storedVersion, writePackageDir } from './package-dir.js';

/** The system packages every framework has; 0xb and 0xdee9 are fetched when the network has them. */
const REQUIRED = new Set(['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a)));

/** The file name of a protocol version's config, as the upstream snapshots are named. */
export function protocolConfigFileName(version: number): string {
  return `sui_protocol_config__test__Mainnet_version_${version}.snap`;
}

const PLAIN = /^(-?(0|[1-9][0-9]*)|true|false)$/;

/** A node's protocol config as the text of an upstream snapshot (`parseProtocolConfigSnap` reads it). */
export function protocolConfigSnapText(c: ChainProtocolConfig, source: string): string {
  const scalar = (v: string): string => (PLAIN.test(v) ? v : JSON.stringify(v));
  const lines = ['---', `source: ${JSON.stringify(`fetched from ${source}`)}`, `expression: ${JSON.stringify(`protocol config ${c.protocolVersion}`)}`, '---', `version: ${c.protocolVersion}`];
  const flags = Object.keys(c.featureFlags).sort();
  lines.push(flags.length === 0 ? 'feature_flags: {}' : 'feature_flags:');
  for (const k of flags) lines.push(`  ${k}: ${c.featureFlags[k] ? 'true' : 'false'}`);
  for (const k of Object.keys(c.attributes).sort()) {
    if (k === 'version' || k === 'feature_flags') continue;
    lines.push(`${k}: ${scalar(c.attributes[k] as string)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What {@link fetchFramework} is doing. */
export type FetchFrameworkEvent =
  | { $kind: 'ProtocolConfig'; version: number }
  | { $kind: 'Searching'; id: string; version: bigint }
  | { $kind: 'Package'; id: string; version: number; cached: boolean }
  | { $kind: 'Absent'; id: string };

/** What a framework fetch wrote. */
export interface FetchFrameworkReport {
  endpoint: string;
  protocolVersion: number;
  /** `<cache>/framework/<version>`. */
  dir: string;
  protocolConfigFile: string;
  packages: { id: string; version: number; cached: boolean }[];
  /** Optional system packages the network does not have. */
  absent: string[];
  requests: number;
  bytes: number;
  seconds: number;
}

/**
 * Fetch the framework of protocol `options.protocolVersion` (default: the current one) from
 * `source` into `cacheRoot`. Packages already in the cache are kept.
 */
export async function fetchFramework(
  source: SuiDataSource,
  cacheRoot: string,
  options: { protocolVersion?: number; onEvent?: (e: FetchFrameworkEvent) => void; now?: () => Date } = {},
): Promise<FetchFrameworkReport> {
  const started = performance.now();
  let requests = 0;
  let bytes = 0;
  if (source.getProtocolConfig === undefined) throw new DataSourceError('UNSUPPORTED', `${source.endpoint} cannot answer protocol configs`, { endpoint: source.endpoint });
  requests++;
  const config = await source.getProtocolConfig(options.protocolVersion);
  const version = config.protocolVersion;
  options.onEvent?.({ $kind: 'ProtocolConfig', version });
  const snapText = protocolConfigSnapText(config, source.endpoint);
  const checked: ProtocolConfig = parseProtocolConfigSnap(snapText, { file: protocolConfigFileName(version) });
  const dir = path.join(cacheRoot, 'framework', String(version));
  const report: FetchFrameworkReport = { endpoint: source.endpoint, protocolVersion: checked.version, dir, protocolConfigFile: '', packages: [], absent: [], requests: 0, bytes: 0, seconds: 0 };
  const getObject = async (id: string, v?: bigint) => {
    requests++;
    const o = await source.getObject(id, v);
    bytes += o.bcs.length;
    return o;
  };
  /** The protocol version that package `id` at version `v` first ran under. */
  const firstProtocol = async (id: string, v: bigint): Promise<number> => {
    if (v <= 1n) return 0;
    options.onEvent?.({ $kind: 'Searching', id, version: v });
    const o = suiBcs.Object.parse((await getObject(id, v)).bcs);
    requests++;
    const tx = await source.getTransaction(o.previousTransaction);
    const effects = suiBcs.TransactionEffects.parse(tx.effectsBcs);
    const executed = effects.$kind === 'V1' ? effects.V1.executedEpoch : effects.V2.executedEpoch;
    requests++;
    return (await source.getEpoch(executed + 1n)).protocolVersion;
  };
  for (const id of SYSTEM_PACKAGES.keys()) {
    if (hasPackageDir(dir, id)) {
      const stored = storedVersion(dir, id);
      report.packages.push({ id, version: stored, cached: true });
      options.onEvent?.({ $kind: 'Package', id, version: stored, cached: true });
      continue;
    }
    let current;
    try {
      current = await getObject(id);
    } catch (e) {
      if (e instanceof DataSourceError && e.code === 'NOT_FOUND' && !REQUIRED.has(id)) {
        report.absent.push(id);
        options.onEvent?.({ $kind: 'Absent', id });
        continue;
      }
      throw e;
    }
    let answer = current;
    if (options.protocolVersion !== undefined) {
      let [lo, hi] = [1n, current.version];
      while (lo < hi) {
        const mid = (lo + hi + 1n) / 2n;
        if ((await firstProtocol(id, mid)) <= version) lo = mid;
        else hi = mid - 1n;
      }
      if (lo !== current.version) answer = await getObject(id, lo);
    }
    const v = verifyPackageAnswer(answer, id, source.endpoint, answer.version);
    mkdirSync(dir, { recursive: true });
    writePackageDir(dir, v.object, {
      source: source.endpoint,
      originalId: v.pkg.originalId,
      fetchedAt: (options.now?.() ?? new Date()).toISOString(),
      ...(v.digest !== undefined ? { objectDigest: v.digest } : {}),
    });
    report.packages.push({ id, version: Number(answer.version), cached: false });
    options.onEvent?.({ $kind: 'Package', id, version: Number(answer.version), cached: false });
  }
  const configDir = path.join(cacheRoot, 'protocol-config');
  mkdirSync(configDir, { recursive: true });
  const file = path.join(configDir, protocolConfigFileName(version));
  if (!existsSync(file)) {
    writeFileSync(`${file}.partial`, snapText);
    renameSync(`${file}.partial`, file);
  }
  report.protocolConfigFile = file;
  report.requests = requests;
  report.bytes = bytes;
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

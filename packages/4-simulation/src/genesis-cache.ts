/**
 * Genesis results kept in memory. Environments are made all the time (every test, every
 * benchmark worker, every sandbox session and reset), and the genesis transaction is
 * costly: `validator::new` checks each validator's BLS proof of possession, a pairing
 * computed in JS. Its result depends only on what it runs on, so a second environment over
 * the same framework and protocol config re-applies the first one's result: the same
 * objects, ids, versions and digests, and the same counters. A genesis is its system
 * transactions in order (the one creating the system objects, then the SuiSystemState's
 * upgrade), each result kept.
 *
 * What the genesis transaction depends on, and so the key:
 * - the protocol config (by identity: configs are immutable and loaded once per file);
 * - the framework packages it can reach (0x1, 0x2, 0x3, 0xb: framework code links only
 *   to framework code): storage id, version and a digest of the module bytes of each one
 *   loaded, so two loads of the same files share a result and a different build does not;
 * - its inputs: the chain start time (the clock), the gas price in its `TxContext`, the
 *   native options, and the system-transaction counter (its digest, hence its ids).
 */
import { canonicalAddress, type MovePackage } from '@smi/bytecode';
import { blake2b256Of, type MoveVM, type ProtocolConfig, type SuiRegistryOptions } from '@smi/move-vm';
import type { ExecutionResult } from '@smi/ptb';

/** Packages genesis code runs in or links to. */
const GENESIS_PACKAGES = new Set(['0x1', '0x2', '0x3', '0xb'].map((a) => canonicalAddress(a)));
/** Results kept per protocol config (different clocks or gas prices each make one). */
const MAX_PER_CONFIG = 16;

const results = new WeakMap<ProtocolConfig, Map<string, readonly ExecutionResult[]>>();
const digests = new WeakMap<MovePackage, string>();

function packageDigest(p: MovePackage): string {
  let d = digests.get(p);
  if (d === undefined) {
    d = Buffer.from(blake2b256Of(...p.modules.map((m) => m.bytes))).toString('hex');
    digests.set(p, d);
  }
  return d;
}

/** What the genesis transaction runs with, besides the packages and the protocol config. */
export interface GenesisInputs {
  chainStartMs: bigint;
  gasPrice: bigint;
  natives: SuiRegistryOptions;
  systemCounter: bigint;
}

/** The key of a genesis run on `vm`'s packages with `inputs`. */
export function genesisKey(vm: MoveVM, inputs: GenesisInputs): string {
  const framework: string[] = [];
  for (const id of vm.packageIds()) {
    const p = vm.packageById(id);
    if (p === undefined || !GENESIS_PACKAGES.has(canonicalAddress(p.originalId))) continue;
    framework.push(`${id}@${p.version ?? '-'}:${packageDigest(p)}`);
  }
  return JSON.stringify([framework, String(inputs.chainStartMs), String(inputs.gasPrice), inputs.natives, String(inputs.systemCounter)]);
}

/** The results of an earlier genesis with this config and key (its system transactions in order), if they were kept. */
export function cachedGenesis(config: ProtocolConfig, key: string): readonly ExecutionResult[] | undefined {
  return results.get(config)?.get(key);
}

/** Keep the results of a genesis (the oldest of the config's goes when it has too many). */
export function rememberGenesis(config: ProtocolConfig, key: string, result: readonly ExecutionResult[]): void {
  let byKey = results.get(config);
  if (byKey === undefined) results.set(config, (byKey = new Map()));
  byKey.set(key, result);
  if (byKey.size > MAX_PER_CONFIG) byKey.delete(byKey.keys().next().value as string);
}

/**
 * Shards: `--shard K/N` runs the packages whose id hashes (FNV-1a 64, seed 0, over the
 * canonical id) to `K - 1` modulo `N`. The shards of one run share its spec, and `smi
 * merge` joins them into what the whole run would have written.
 */
import { canonicalId, fnv1a64 } from '../dataset.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** A shard `K/N` (1-based `k`). */
export interface Shard {
  k: number;
  n: number;
}

/** Why a shard text is not one. */
export class ShardError extends SmiError<'INVALID_SHARD'> {
  override readonly name = 'ShardError';

  constructor(message: string, options?: SmiErrorOptions) {
    super('INVALID_SHARD', message, options);
  }
}

/** Parse `K/N` (1 ≤ K ≤ N). */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const k = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || k < 1 || k > n) throw new ShardError(`--shard ${JSON.stringify(text)}: expected K/N with 1 <= K <= N (for example 1/4)`);
  return { k, n };
}

/** The shard (1-based) a package belongs to among `n`. */
export function shardOf(packageId: string, n: number): number {
  return Number(fnv1a64(0, canonicalId(packageId)) % BigInt(n)) + 1;
}

/** `true` when `packageId` is in `shard` (always, without a shard). */
export function inShard(packageId: string, shard: Shard | null): boolean {
  return shard === null || shardOf(packageId, shard.n) === shard.k;
}

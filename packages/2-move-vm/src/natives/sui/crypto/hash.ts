/**
 * `sui::hash` (blake2b256, keccak256) and `sui::hmac` (hmac_sha3_256).
 *
 * Gas (upstream `crypto/hash.rs`, `crypto/hmac.rs`): base, then per byte × |data| + per
 * block × ⌈|data| / block⌉ with blocks of 128 bytes (BLAKE2b) and 136 bytes (Keccak);
 * HMAC charges per byte × (|key| + |msg|) + per block × ⌊(|key| + |msg| + 270) / 136⌋.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import type { NativeFunction } from '../../registry.js';
import { blake2b256Of } from './blake2b.js';
import { bytesArg, chargeBytesAndBlocks, chargeParam, cost, type CryptoEnv, vecU8 } from './common.js';

/** BLAKE2b with a 32-byte digest, as fastcrypto's `Blake2b256`. */
export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2b256Of(data);
}

const HMAC_BLOCK = 136;

/** The `sui::hash` natives. */
export function hashNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    blake2b256: (ctx, _t, [data]) => {
      chargeParam(ctx, env, 'hash_blake2b256_cost_base');
      const msg = bytesArg(data);
      chargeBytesAndBlocks(ctx, env, 'hash_blake2b256_data_cost_per_byte', 'hash_blake2b256_data_cost_per_block', msg.length, 128);
      return [vecU8(blake2b256(msg))];
    },
    keccak256: (ctx, _t, [data]) => {
      chargeParam(ctx, env, 'hash_keccak256_cost_base');
      const msg = bytesArg(data);
      chargeBytesAndBlocks(ctx, env, 'hash_keccak256_data_cost_per_byte', 'hash_keccak256_data_cost_per_block', msg.length, 136);
      return [vecU8(keccak_256(msg))];
    },
  };
}

/** The `sui::hmac` natives. */
export function hmacNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    hmac_sha3_256: (ctx, _t, [keyArg, msgArg]) => {
      chargeParam(ctx, env, 'hmac_hmac_sha3_256_cost_base');
      const msg = bytesArg(msgArg);
      const key = bytesArg(keyArg);
      const n = msg.length + key.length;
      ctx.charge(cost(env, 'hmac_hmac_sha3_256_input_cost_per_byte') * n + cost(env, 'hmac_hmac_sha3_256_input_cost_per_block') * Math.floor((n + 2 * HMAC_BLOCK - 2) / HMAC_BLOCK));
      return [vecU8(hmac(sha3_256, key, msg))];
    },
  };
}

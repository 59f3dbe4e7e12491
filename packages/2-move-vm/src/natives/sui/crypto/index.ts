/**
 * The cryptographic natives of the Sui framework (0x2), implemented for real after
 * upstream `sui-move-natives/src/crypto/*.rs` over fastcrypto: hash, hmac, ed25519,
 * ecdsa_k1, ecdsa_r1, bls12381, ecvrf, groth16, group_ops, poseidon, zkLogin checks,
 * nitro_attestation; vdf and rangeproofs behave as on mainnet (disabled) and fail with
 * `UNSUPPORTED_NATIVE` when enabled.
 *
 * Gas: each native charges its protocol-config cost parameters (base, per byte, per block,
 * ...) through `ctx.charge`, in internal gas units, in the order upstream charges them.
 */
import type { NativeFunction, NativeRegistry } from '../../registry.js';
import type { CryptoEnv } from './common.js';
import { type CryptoCostTable, type CryptoFeatures, PROTOCOL_135_CRYPTO_COSTS, PROTOCOL_135_CRYPTO_FEATURES } from './config.js';
import { ecdsaK1Natives, ecdsaR1Natives } from './ecdsa.js';
import { groth16Natives } from './groth16.js';
import { groupOpsNatives } from './group-ops.js';
import { hashNatives, hmacNatives } from './hash.js';
import { nitroNatives } from './nitro.js';
import { poseidonNatives, zkLoginIdNatives, zkLoginIssuerNatives } from './poseidon.js';
import { bls12381Natives, ecvrfNatives, ed25519Natives } from './signatures.js';
import { rangeproofsNatives, vdfNatives } from './unsupported.js';

export { PROTOCOL_135_CRYPTO_COSTS, PROTOCOL_135_CRYPTO_FEATURES, cryptoOptionsFromProtocolConfig } from './config.js';
export type { CryptoCostTable, CryptoFeatures } from './config.js';

/** Options of {@link registerSuiCrypto}. */
export interface SuiCryptoOptions {
  /**
   * `true`: every verification native (`*_verify`, `verify_groth16_proof_internal`,
   * `check_zklogin_*`, `ecvrf_verify`, `vdf_verify_internal`, bulletproofs) returns `true`
   * after charging gas, without looking at its inputs (the original sandbox's behaviour).
   * Natives that compute values (hashes, recovery, group operations, nitro) stay real.
   */
  permissiveCrypto?: boolean;
  /** Cost parameters by protocol-config name, over the protocol-135 defaults. */
  costs?: Readonly<Record<string, number>>;
  /** Feature flags, over the protocol-135 mainnet defaults. */
  features?: Partial<CryptoFeatures>;
}

const SUI = '0x2';

/** Every crypto native, by module, for an environment. */
export function suiCryptoNatives(options: SuiCryptoOptions = {}): Record<string, Record<string, NativeFunction>> {
  const env: CryptoEnv = {
    permissive: options.permissiveCrypto ?? false,
    costs: { ...PROTOCOL_135_CRYPTO_COSTS, ...(options.costs ?? {}) } as CryptoCostTable,
    features: { ...PROTOCOL_135_CRYPTO_FEATURES, ...(options.features ?? {}) },
  };
  return {
    hash: hashNatives(env),
    hmac: hmacNatives(env),
    ed25519: ed25519Natives(env),
    ecdsa_k1: ecdsaK1Natives(env),
    ecdsa_r1: ecdsaR1Natives(env),
    bls12381: bls12381Natives(env),
    ecvrf: ecvrfNatives(env),
    groth16: groth16Natives(env),
    group_ops: groupOpsNatives(env),
    poseidon: poseidonNatives(env),
    zklogin_verified_id: zkLoginIdNatives(env),
    zklogin_verified_issuer: zkLoginIssuerNatives(env),
    vdf: vdfNatives(env),
    rangeproofs: rangeproofsNatives(env),
    nitro_attestation: nitroNatives(env),
  };
}

/** Register the crypto natives of the Sui framework at 0x2 (replacing any already there). */
export function registerSuiCrypto(registry: NativeRegistry, options: SuiCryptoOptions = {}): NativeRegistry {
  for (const [module, natives] of Object.entries(suiCryptoNatives(options))) registry.registerModule(SUI, module, natives);
  return registry;
}

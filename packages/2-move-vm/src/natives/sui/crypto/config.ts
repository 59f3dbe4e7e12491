/**
 * Configuration of the Sui crypto natives: cost parameters (internal gas, from the
 * protocol config's `NativesCostTable` inputs) and the feature flags that gate some
 * natives, with the values of Sui mainnet protocol version 135 as defaults.
 */
import type { ProtocolConfig } from '../../../config/protocol-config.js';

/** Cost parameters of the crypto natives, by protocol-config name (internal gas units). */
export type CryptoCostTable = Readonly<Record<string, number>>;

/**
 * Protocol-135 (mainnet) values of every cost parameter the crypto natives read. Keys
 * absent here (`vdf_verify_vdf_cost`, `vdf_hash_to_input_cost`) are unset on mainnet.
 */
export const PROTOCOL_135_CRYPTO_COSTS: CryptoCostTable = Object.freeze({
  crypto_invalid_arguments_cost: 100,
  bls12381_bls12381_min_sig_verify_cost_base: 44064,
  bls12381_bls12381_min_sig_verify_msg_cost_per_byte: 2,
  bls12381_bls12381_min_sig_verify_msg_cost_per_block: 2,
  bls12381_bls12381_min_pk_verify_cost_base: 49282,
  bls12381_bls12381_min_pk_verify_msg_cost_per_byte: 2,
  bls12381_bls12381_min_pk_verify_msg_cost_per_block: 2,
  ecdsa_k1_ecrecover_keccak256_cost_base: 500,
  ecdsa_k1_ecrecover_keccak256_msg_cost_per_byte: 2,
  ecdsa_k1_ecrecover_keccak256_msg_cost_per_block: 2,
  ecdsa_k1_ecrecover_sha256_cost_base: 500,
  ecdsa_k1_ecrecover_sha256_msg_cost_per_byte: 2,
  ecdsa_k1_ecrecover_sha256_msg_cost_per_block: 2,
  ecdsa_k1_decompress_pubkey_cost_base: 52,
  ecdsa_k1_secp256k1_verify_keccak256_cost_base: 1470,
  ecdsa_k1_secp256k1_verify_keccak256_msg_cost_per_byte: 2,
  ecdsa_k1_secp256k1_verify_keccak256_msg_cost_per_block: 2,
  ecdsa_k1_secp256k1_verify_sha256_cost_base: 1470,
  ecdsa_k1_secp256k1_verify_sha256_msg_cost_per_byte: 2,
  ecdsa_k1_secp256k1_verify_sha256_msg_cost_per_block: 2,
  ecdsa_r1_ecrecover_keccak256_cost_base: 1173,
  ecdsa_r1_ecrecover_keccak256_msg_cost_per_byte: 2,
  ecdsa_r1_ecrecover_keccak256_msg_cost_per_block: 2,
  ecdsa_r1_ecrecover_sha256_cost_base: 1173,
  ecdsa_r1_ecrecover_sha256_msg_cost_per_byte: 2,
  ecdsa_r1_ecrecover_sha256_msg_cost_per_block: 2,
  ecdsa_r1_secp256r1_verify_keccak256_cost_base: 4225,
  ecdsa_r1_secp256r1_verify_keccak256_msg_cost_per_byte: 2,
  ecdsa_r1_secp256r1_verify_keccak256_msg_cost_per_block: 2,
  ecdsa_r1_secp256r1_verify_sha256_cost_base: 4225,
  ecdsa_r1_secp256r1_verify_sha256_msg_cost_per_byte: 2,
  ecdsa_r1_secp256r1_verify_sha256_msg_cost_per_block: 2,
  ecvrf_ecvrf_verify_cost_base: 4848,
  ecvrf_ecvrf_verify_alpha_string_cost_per_byte: 2,
  ecvrf_ecvrf_verify_alpha_string_cost_per_block: 2,
  ed25519_ed25519_verify_cost_base: 1802,
  ed25519_ed25519_verify_msg_cost_per_byte: 2,
  ed25519_ed25519_verify_msg_cost_per_block: 2,
  groth16_prepare_verifying_key_bls12381_cost_base: 53838,
  groth16_prepare_verifying_key_bn254_cost_base: 82010,
  groth16_verify_groth16_proof_internal_bls12381_cost_base: 72090,
  groth16_verify_groth16_proof_internal_bls12381_cost_per_public_input: 8213,
  groth16_verify_groth16_proof_internal_bn254_cost_base: 115502,
  groth16_verify_groth16_proof_internal_bn254_cost_per_public_input: 9484,
  groth16_verify_groth16_proof_internal_public_input_cost_per_byte: 2,
  hash_blake2b256_cost_base: 10,
  hash_blake2b256_data_cost_per_byte: 2,
  hash_blake2b256_data_cost_per_block: 2,
  hash_keccak256_cost_base: 10,
  hash_keccak256_data_cost_per_byte: 2,
  hash_keccak256_data_cost_per_block: 2,
  poseidon_bn254_cost_base: 260,
  poseidon_bn254_cost_per_block: 388,
  group_ops_bls12381_decode_scalar_cost: 7,
  group_ops_bls12381_decode_g1_cost: 2848,
  group_ops_bls12381_decode_g2_cost: 3770,
  group_ops_bls12381_decode_gt_cost: 3068,
  group_ops_bls12381_scalar_add_cost: 10,
  group_ops_bls12381_g1_add_cost: 1556,
  group_ops_bls12381_g2_add_cost: 3048,
  group_ops_bls12381_gt_add_cost: 188,
  group_ops_bls12381_scalar_sub_cost: 10,
  group_ops_bls12381_g1_sub_cost: 1550,
  group_ops_bls12381_g2_sub_cost: 3019,
  group_ops_bls12381_gt_sub_cost: 497,
  group_ops_bls12381_scalar_mul_cost: 11,
  group_ops_bls12381_g1_mul_cost: 4842,
  group_ops_bls12381_g2_mul_cost: 9108,
  group_ops_bls12381_gt_mul_cost: 27490,
  group_ops_bls12381_scalar_div_cost: 91,
  group_ops_bls12381_g1_div_cost: 5091,
  group_ops_bls12381_g2_div_cost: 9206,
  group_ops_bls12381_gt_div_cost: 27804,
  group_ops_bls12381_g1_hash_to_base_cost: 2962,
  group_ops_bls12381_g2_hash_to_base_cost: 8688,
  group_ops_bls12381_g1_hash_to_cost_per_byte: 2,
  group_ops_bls12381_g2_hash_to_cost_per_byte: 2,
  group_ops_bls12381_g1_msm_base_cost: 62648,
  group_ops_bls12381_g2_msm_base_cost: 131192,
  group_ops_bls12381_g1_msm_base_cost_per_input: 1333,
  group_ops_bls12381_g2_msm_base_cost_per_input: 3216,
  group_ops_bls12381_msm_max_len: 32,
  group_ops_bls12381_pairing_cost: 26897,
  group_ops_bls12381_g1_to_uncompressed_g1_cost: 2099,
  group_ops_bls12381_uncompressed_g1_to_g1_cost: 677,
  group_ops_bls12381_uncompressed_g1_sum_base_cost: 77,
  group_ops_bls12381_uncompressed_g1_sum_cost_per_term: 26,
  group_ops_bls12381_uncompressed_g1_sum_max_terms: 1200,
  group_ops_ristretto_decode_scalar_cost: 5,
  group_ops_ristretto_decode_point_cost: 216,
  group_ops_ristretto_scalar_add_cost: 2,
  group_ops_ristretto_point_add_cost: 8,
  group_ops_ristretto_scalar_sub_cost: 2,
  group_ops_ristretto_point_sub_cost: 8,
  group_ops_ristretto_scalar_mul_cost: 5,
  group_ops_ristretto_point_mul_cost: 1763,
  group_ops_ristretto_scalar_div_cost: 557,
  group_ops_ristretto_point_div_cost: 2244,
  verify_bulletproofs_ristretto255_base_cost: 23866,
  verify_bulletproofs_ristretto255_cost_per_bit_and_commitment: 1324,
  hmac_hmac_sha3_256_cost_base: 52,
  hmac_hmac_sha3_256_input_cost_per_byte: 2,
  hmac_hmac_sha3_256_input_cost_per_block: 2,
  check_zklogin_id_cost_base: 200,
  check_zklogin_issuer_cost_base: 200,
  nitro_attestation_parse_base_cost: 2650,
  nitro_attestation_parse_cost_per_byte: 50,
  nitro_attestation_verify_base_cost: 2481600,
  nitro_attestation_verify_cost_per_cert: 2618450,
});

/** Feature flags that change what the crypto natives do. */
export interface CryptoFeatures {
  /** `group_ops` natives (all but MSM and the uncompressed-G1 ones); off: abort 0. */
  readonly enable_group_ops_native_functions: boolean;
  /** `group_ops::internal_multi_scalar_mul`; off: abort 0. */
  readonly enable_group_ops_native_function_msm: boolean;
  /** `group_ops::internal_convert` / `internal_sum` (uncompressed G1); off: abort 0. */
  readonly uncompressed_g1_group_elements: boolean;
  /** Ristretto255 types (5, 6) in `group_ops`; off: abort 0. */
  readonly enable_ristretto255_group_ops: boolean;
  /** `poseidon::poseidon_bn254_internal`; off: abort 1. */
  readonly enable_poseidon: boolean;
  /** `vdf` natives; off: abort 1. */
  readonly enable_vdf: boolean;
  /** `rangeproofs` natives; off: abort 0. */
  readonly enable_verify_bulletproofs_ristretto255: boolean;
  /** `groth16::prepare_verifying_key_internal` rejects keys with more than 8 public inputs. */
  readonly limit_groth16_pvk_inputs: boolean;
  /** `nitro_attestation::load_nitro_attestation_internal`; off: abort 0. */
  readonly enable_nitro_attestation: boolean;
  /** Nitro: strict parsing, PCRs as an index map. */
  readonly enable_nitro_attestation_upgraded_parsing: boolean;
  /** Nitro: keep every non-zero PCR (not only 0, 1, 2, 3, 4, 8). */
  readonly enable_nitro_attestation_all_nonzero_pcrs_parsing: boolean;
  /** Nitro: keep PCRs 0, 1, 2, 3, 4, 8 even when zero. */
  readonly enable_nitro_attestation_always_include_required_pcrs_parsing: boolean;
}

/** Feature flags of Sui mainnet at protocol version 135. */
export const PROTOCOL_135_CRYPTO_FEATURES: CryptoFeatures = Object.freeze({
  enable_group_ops_native_functions: true,
  enable_group_ops_native_function_msm: false,
  uncompressed_g1_group_elements: true,
  enable_ristretto255_group_ops: false,
  enable_poseidon: true,
  enable_vdf: false,
  enable_verify_bulletproofs_ristretto255: false,
  limit_groth16_pvk_inputs: true,
  enable_nitro_attestation: true,
  enable_nitro_attestation_upgraded_parsing: true,
  enable_nitro_attestation_all_nonzero_pcrs_parsing: true,
  enable_nitro_attestation_always_include_required_pcrs_parsing: true,
});

/** Extra cost parameters that exist only on devnet-era configs (not in protocol 135). */
const OPTIONAL_COST_KEYS = ['vdf_verify_vdf_cost', 'vdf_hash_to_input_cost'] as const;

/**
 * Cost table and feature flags read from a protocol config snapshot (for another
 * protocol version or chain than the defaults). Parameters the config lacks stay unset:
 * natives that need them fail as upstream does.
 */
export function cryptoOptionsFromProtocolConfig(config: ProtocolConfig): { costs: CryptoCostTable; features: CryptoFeatures } {
  const costs: Record<string, number> = {};
  for (const key of [...Object.keys(PROTOCOL_135_CRYPTO_COSTS), ...OPTIONAL_COST_KEYS]) {
    const v = config.optionalInt(key);
    if (v !== undefined) costs[key] = v;
  }
  const features = {} as Record<keyof CryptoFeatures, boolean>;
  for (const name of Object.keys(PROTOCOL_135_CRYPTO_FEATURES) as (keyof CryptoFeatures)[]) features[name] = config.flag(name);
  return { costs: Object.freeze(costs), features: Object.freeze(features) };
}

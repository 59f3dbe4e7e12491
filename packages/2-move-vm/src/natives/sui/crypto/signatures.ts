/**
 * `sui::ed25519`, `sui::bls12381` (signature verification) and `sui::ecvrf`.
 *
 * - ed25519 (fastcrypto over ed25519-consensus): ZIP-215 rules — non-canonical point
 *   encodings accepted, canonical `s` required, cofactored equation; a 64-byte signature
 *   and a 32-byte key, anything else is `false`.
 * - BLS12-381 (blst): min_sig = signature in G1, key in G2 (DST `..G1_XMD..`); min_pk the
 *   reverse (DST `..G2_XMD..`). Either encoding (compressed with the compression bit, or
 *   uncompressed without) parses; the key must not be the identity and must be in the
 *   subgroup, the signature in the subgroup; failures are `false`.
 * - ECVRF (fastcrypto `vrf.rs`, ristretto255, suite `sui_vrf`): hash of 64 bytes else abort
 *   1, key of 32 bytes else abort 2, proof `gamma‖c(16)‖s` of 80 bytes else abort 3.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import type { NativeFunction } from '../../registry.js';
import * as bls from './bls12381.js';
import { abort, bytesArg, bytesEqual, chargeBytesAndBlocks, chargeParam, concatBytes, type CryptoEnv, leToBigInt } from './common.js';
import { hashToRistretto, L, R_BASE, rMul, rPointFromBytes, rScalarFromBytes } from './ristretto.js';

/** ZIP-215 Ed25519 verification. */
function ed25519Verify(sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean {
  if (sig.length !== 64 || pk.length !== 32) return false;
  try {
    return ed25519.verify(sig, msg, pk, { zip215: true });
  } catch {
    return false;
  }
}

export function g1Blst(b: Uint8Array): bls.G1 | null {
  if (b.length === 96 && (b[0] & 0x80) === 0) return bls.g1DeserializeTrusted(b);
  if (b.length === 48 && (b[0] & 0x80) !== 0) return bls.g1UncompressTrusted(b);
  return null;
}

export function g2Blst(b: Uint8Array): bls.G2 | null {
  if (b.length === 192 && (b[0] & 0x80) === 0) return bls.g2DeserializeTrusted(b);
  if (b.length === 96 && (b[0] & 0x80) !== 0) return bls.g2UncompressTrusted(b);
  return null;
}

/** BLS min_sig verification: signature in G1, key in G2. */
export function blsMinSigVerify(sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean {
  const s = g1Blst(sig);
  if (s === null) return false;
  const k = g2Blst(pk);
  if (k === null || k.is0() || !k.isTorsionFree() || !bls.inSubgroup(s)) return false;
  return blsMinSigPairingCheck(s, k, msg);
}

/** `-g2`, one point for every check (so its Miller-loop lines are computed once). */
let negatedG2: bls.G2 | null = null;

/**
 * The pairing equation of min_sig verification, `e(s, -g2) · e(H(msg), k) = 1`, on points
 * already checked (`s` in G1's subgroup, `k` in G2's and not the identity; `H(msg)` is on
 * the curve by construction), so the pairing does not check them again.
 */
export function blsMinSigPairingCheck(s: bls.G1, k: bls.G2, msg: Uint8Array): boolean {
  negatedG2 ??= bls.G2Point.BASE.negate();
  const lhs = bls.multiPairingOfChecked([
    [s, negatedG2],
    [bls.hashToG1(msg), k],
  ]);
  return bls.gtEquals(lhs, bls.GT_IDENTITY);
}

/** BLS min_pk verification: key in G1, signature in G2. */
function blsMinPkVerify(sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean {
  const s = g2Blst(sig);
  if (s === null) return false;
  const k = g1Blst(pk);
  if (k === null || k.is0() || !k.isTorsionFree() || !bls.inSubgroup(s)) return false;
  const lhs = bls.multiPairing([
    [bls.G1Point.BASE.negate(), s],
    [k, bls.hashToG2(msg)],
  ]);
  return bls.gtEquals(lhs, bls.GT_IDENTITY);
}

const VRF_SUITE = new TextEncoder().encode('sui_vrf');
const VRF_DST = 'ECVRF_ristretto255_XMD:SHA-512_R255MAP_RO_sui_vrf';

/** ECVRF verification of fastcrypto (after the length/encoding checks that abort). */
function ecvrfVerify(output: Uint8Array, alpha: Uint8Array, pkBytes: Uint8Array, proof: Uint8Array): boolean | 'bad-key' | 'bad-proof' {
  const pk = rPointFromBytes(pkBytes);
  if (pk === null) return 'bad-key';
  const gamma = proof.length === 80 ? rPointFromBytes(proof.subarray(0, 32)) : null;
  const c = proof.subarray(32, 48);
  const s = proof.length === 80 ? rScalarFromBytes(proof.subarray(48, 80)) : null;
  if (gamma === null || s === null) return 'bad-proof';
  if (pk.is0()) return false;
  const h = hashToRistretto(concatBytes(pk.toBytes(), alpha), VRF_DST);
  const challenge = leToBigInt(c);
  const negC = (L - challenge) % L;
  const u = rMul(R_BASE, s).add(rMul(pk, negC));
  const v = rMul(h, s).add(rMul(gamma, negC));
  const cPrime = sha512(concatBytes(VRF_SUITE, Uint8Array.of(2), pk.toBytes(), h.toBytes(), gamma.toBytes(), u.toBytes(), v.toBytes(), Uint8Array.of(0))).subarray(0, 16);
  if (!bytesEqual(cPrime, c)) return false;
  const hash = sha512(concatBytes(VRF_SUITE, Uint8Array.of(3), gamma.toBytes(), Uint8Array.of(0)));
  return bytesEqual(hash, output);
}

function verify3(env: CryptoEnv, prefix: string, blockSize: number, check: (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array) => boolean): NativeFunction {
  return (ctx, _t, [sigArg, pkArg, msgArg]) => {
    chargeParam(ctx, env, `${prefix}_cost_base`);
    const msg = bytesArg(msgArg);
    chargeBytesAndBlocks(ctx, env, `${prefix}_msg_cost_per_byte`, `${prefix}_msg_cost_per_block`, msg.length, blockSize);
    if (env.permissive) return [true];
    return [check(bytesArg(sigArg), bytesArg(pkArg), msg)];
  };
}

/** The `sui::ed25519` natives. */
export function ed25519Natives(env: CryptoEnv): Record<string, NativeFunction> {
  return { ed25519_verify: verify3(env, 'ed25519_ed25519_verify', 128, ed25519Verify) };
}

/** The `sui::bls12381` natives. */
export function bls12381Natives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    bls12381_min_sig_verify: verify3(env, 'bls12381_bls12381_min_sig_verify', 64, blsMinSigVerify),
    bls12381_min_pk_verify: verify3(env, 'bls12381_bls12381_min_pk_verify', 64, blsMinPkVerify),
  };
}

/** The `sui::ecvrf` natives. */
export function ecvrfNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    ecvrf_verify: (ctx, _t, [hashArg, alphaArg, pkArg, proofArg]) => {
      chargeParam(ctx, env, 'ecvrf_ecvrf_verify_cost_base');
      const alpha = bytesArg(alphaArg);
      chargeBytesAndBlocks(ctx, env, 'ecvrf_ecvrf_verify_alpha_string_cost_per_byte', 'ecvrf_ecvrf_verify_alpha_string_cost_per_block', alpha.length, 128);
      if (env.permissive) return [true];
      const output = bytesArg(hashArg);
      if (output.length !== 64) abort(1);
      const r = ecvrfVerify(output, alpha, bytesArg(pkArg), bytesArg(proofArg));
      if (r === 'bad-key') abort(2);
      if (r === 'bad-proof') abort(3);
      return [r];
    },
  };
}

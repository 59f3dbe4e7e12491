/**
 * Deterministic key pairs and signatures for offline networks (the validators of a
 * simulated genesis). They use the same curve code, encodings and DST as the verifying
 * natives, so what is signed here verifies there exactly as a fastcrypto signature would:
 *
 * - BLS12-381 min-sig (fastcrypto `BLS12381KeyPair`): public key in G2 (96 bytes,
 *   compressed), signature in G1 (48 bytes, compressed), hashed with `DST_G1`.
 * - Ed25519: the public key of a 32-byte seed (RFC 8032), as fastcrypto derives it.
 *
 * Not for real keys: the secrets are derived from public seeds (and products are variable-time).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { beToBigInt } from './common.js';
import { G2Point, g1ToBytes, g2ToBytes, hashToG1, R } from './bls12381.js';

/** A BLS12-381 min-sig key pair. */
export interface BlsMinSigKeyPair {
  /** The secret scalar, in `[1, r)`. */
  secretKey: bigint;
  /** The compressed G2 public key (96 bytes). */
  publicKey: Uint8Array;
}

/**
 * The G2 generator without noble's precomputed tables: `BASE.multiply` builds them on first
 * use (a quarter of a second), which pays off for many multiplications, not for the few
 * keys of a genesis. The secrets are public here, so the variable-time product is fine.
 */
let plainG2Base: ReturnType<typeof G2Point.fromAffine> | null = null;

/** The BLS12-381 min-sig key pair of a seed (any bytes; the scalar is the seed, big-endian, reduced into `[1, r)`). */
export function blsMinSigKeyPair(seed: Uint8Array): BlsMinSigKeyPair {
  const secretKey = (beToBigInt(seed) % (R - 1n)) + 1n;
  plainG2Base ??= G2Point.fromAffine(G2Point.BASE.toAffine());
  return { secretKey, publicKey: g2ToBytes(plainG2Base.multiplyUnsafe(secretKey)) };
}

/** A min-sig signature of `message` (compressed G1, 48 bytes): `sk · H(message)`. */
export function blsMinSigSign(secretKey: bigint, message: Uint8Array): Uint8Array {
  return g1ToBytes(hashToG1(message).multiply(secretKey));
}

/** The Ed25519 public key of a 32-byte seed. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(seed);
}

/**
 * Ristretto255 as fastcrypto encodes it (`groups/ristretto255.rs`): points in 32-byte
 * compressed form, scalars in 32 little-endian bytes (canonical `< ℓ`, or reduced when
 * trusted), and hashing to the group with `expand_message_xmd(SHA-512)` + the one-way map.
 */
import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519.js';
import { bigIntToLe, leToBigInt, mod } from './common.js';

/** A ristretto255 point. */
export type RistrettoPoint = InstanceType<typeof ristretto255.Point>;

const RPoint = ristretto255.Point;
/** The base point. */
export const R_BASE: RistrettoPoint = RPoint.BASE;
/** Group order ℓ. */
export const L = ristretto255.Point.Fn.ORDER;

/** Scalar from 32 LE bytes: canonical unless `trusted` (then reduced mod ℓ). */
export function rScalarFromBytes(b: Uint8Array, trusted = false): bigint | null {
  if (b.length !== 32) return null;
  const x = leToBigInt(b);
  if (trusted) return mod(x, L);
  return x < L ? x : null;
}

/** 32 LE bytes of a scalar. */
export function rScalarToBytes(x: bigint): Uint8Array {
  return bigIntToLe(mod(x, L), 32);
}

/** Point from its 32-byte encoding, or `null`. */
export function rPointFromBytes(b: Uint8Array): RistrettoPoint | null {
  if (b.length !== 32) return null;
  try {
    return RPoint.fromBytes(b);
  } catch {
    return null;
  }
}

/** `hash_to_ristretto255_with_dst(msg, dst)`. */
export function hashToRistretto(msg: Uint8Array, dst: string): RistrettoPoint {
  return ristretto255_hasher.hashToCurve(msg, { DST: dst });
}

/** `p · n` for any scalar `n` (0 gives the identity). */
export function rMul(p: RistrettoPoint, n: bigint): RistrettoPoint {
  const k = mod(n, L);
  return k === 0n ? RPoint.ZERO : p.multiplyUnsafe(k);
}

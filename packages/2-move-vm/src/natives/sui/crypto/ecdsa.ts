/**
 * `sui::ecdsa_k1` (secp256k1, libsecp256k1 semantics) and `sui::ecdsa_r1` (secp256r1,
 * fastcrypto/p256 semantics): verify, public-key recovery, decompression.
 *
 * Behaviour (upstream `crypto/ecdsa_k1.rs`, `crypto/ecdsa_r1.rs` over fastcrypto):
 * - hash flag 0 = Keccak-256, 1 = SHA-256 of the message; any other flag charges
 *   `crypto_invalid_arguments_cost` and makes verify return `false` / recover abort 0;
 * - verify: 64-byte `r‖s` (each < n; r1 also rejects zero) and a SEC1 key (33 or 65 bytes;
 *   k1 also takes the hybrid tags 6/7, r1 the compact tag 5); a high `s` never verifies;
 *   malformed inputs give `false`;
 * - recover: 65-byte `r‖s‖v` with `v` in 0..=3, else abort 1 (`EInvalidSignature`); a
 *   failed recovery aborts 0 (`EFailToRecoverPubKey`); the key comes back compressed;
 * - `decompress_pubkey`: a k1 key (33 or 65 bytes) to 65 bytes, else abort 2.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p256 } from '@noble/curves/nist.js';
import type { WeierstrassPoint, WeierstrassPointCons } from '@noble/curves/abstract/weierstrass.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { NativeContext, NativeFunction } from '../../registry.js';
import { abort, beToBigInt, bytesArg, chargeBytesAndBlocks, chargeParam, type CryptoEnv, invert, mod, u8Arg, vecU8 } from './common.js';

type Point = WeierstrassPoint<bigint>;

const KECCAK256 = 0;
const SHA256 = 1;
const FAIL_TO_RECOVER_PUBKEY = 0;
const INVALID_SIGNATURE = 1;
const INVALID_PUBKEY = 2;

interface CurveDef {
  readonly Point: WeierstrassPointCons<bigint>;
  readonly p: bigint;
  readonly n: bigint;
  readonly a: bigint;
  readonly b: bigint;
}

function curveDef(Point: WeierstrassPointCons<bigint>): CurveDef {
  const c = Point.CURVE();
  return { Point, p: c.p, n: c.n, a: c.a, b: c.b };
}

const K1 = curveDef(secp256k1.Point);
const R1 = curveDef(p256.Point);

/** Square root mod p for p ≡ 3 (mod 4), or `null`. */
function sqrtMod(c: CurveDef, v: bigint): bigint | null {
  const y = c.Point.Fp.pow(v, (c.p + 1n) / 4n);
  return c.Point.Fp.sqr(y) === v ? y : null;
}

function rhs(c: CurveDef, x: bigint): bigint {
  const Fp = c.Point.Fp;
  return Fp.add(Fp.add(Fp.mul(Fp.sqr(x), x), Fp.mul(c.a, x)), c.b);
}

/** The point with x-coordinate `x` and y of parity `odd`, or `null`. */
function liftX(c: CurveDef, x: bigint, odd: boolean): Point | null {
  if (x >= c.p) return null;
  let y = sqrtMod(c, rhs(c, x));
  if (y === null) return null;
  if (((y & 1n) === 1n) !== odd) y = mod(-y, c.p);
  return c.Point.fromAffine({ x, y });
}

/** SEC1 public key (no identity). `hybrid`: tags 6/7 (libsecp256k1); `compact`: tag 5 (RustCrypto). */
function decodeSec1(c: CurveDef, bytes: Uint8Array, opts: { hybrid: boolean; compact: boolean }): Point | null {
  const tag = bytes[0];
  if (bytes.length === 33 && (tag === 2 || tag === 3)) return liftX(c, beToBigInt(bytes.subarray(1)), tag === 3);
  if (bytes.length === 33 && tag === 5 && opts.compact) {
    const pt = liftX(c, beToBigInt(bytes.subarray(1)), false);
    if (pt === null) return null;
    const y = pt.toAffine().y;
    const other = mod(-y, c.p);
    return y <= other ? pt : pt.negate();
  }
  if (bytes.length === 65 && (tag === 4 || (opts.hybrid && (tag === 6 || tag === 7)))) {
    const x = beToBigInt(bytes.subarray(1, 33));
    const y = beToBigInt(bytes.subarray(33));
    if (x >= c.p || y >= c.p) return null;
    if (tag !== 4 && (y & 1n) !== BigInt(tag & 1)) return null;
    if (c.Point.Fp.sqr(y) !== rhs(c, x)) return null;
    return c.Point.fromAffine({ x, y });
  }
  return null;
}

function digest(hash: number, msg: Uint8Array): Uint8Array {
  return hash === KECCAK256 ? keccak_256(msg) : sha256(msg);
}

/** `u1·G + u2·Q` (scalars already reduced mod n, either may be 0). */
function mulAdd(c: CurveDef, u1: bigint, q: Point, u2: bigint): Point {
  return c.Point.BASE.multiplyUnsafe(u1).add(q.multiplyUnsafe(u2));
}

/** Plain ECDSA verification with low-s required. */
function ecdsaVerify(c: CurveDef, sig: Uint8Array, pk: Point, z: bigint): boolean {
  const r = beToBigInt(sig.subarray(0, 32));
  const s = beToBigInt(sig.subarray(32, 64));
  if (r === 0n || s === 0n || r >= c.n || s >= c.n) return false;
  if (s > c.n >> 1n) return false;
  const w = invert(s, c.n);
  const pt = mulAdd(c, mod(z * w, c.n), pk, mod(r * w, c.n));
  if (pt.is0()) return false;
  return mod(pt.toAffine().x, c.n) === r;
}

/** Recovery `Q = r⁻¹(s·R − z·G)`; `null` on failure. */
function recover(c: CurveDef, rx: bigint, odd: boolean, r: bigint, s: bigint, z: bigint): Point | null {
  const big = liftX(c, rx, odd);
  if (big === null) return null;
  const rInv = invert(r, c.n);
  const q = mulAdd(c, mod(-z * rInv, c.n), big, mod(s * rInv, c.n));
  return q.is0() ? null : q;
}

interface Costs {
  readonly prefix: string;
}

/** Charge the per-hash base and message costs; `false` when the hash flag is unknown. */
function chargeForHash(ctx: NativeContext, env: CryptoEnv, c: Costs, hash: number, msgLen: number): boolean {
  if (hash !== KECCAK256 && hash !== SHA256) {
    chargeParam(ctx, env, 'crypto_invalid_arguments_cost');
    return false;
  }
  const h = hash === KECCAK256 ? 'keccak256' : 'sha256';
  chargeParam(ctx, env, `${c.prefix}_${h}_cost_base`);
  chargeBytesAndBlocks(ctx, env, `${c.prefix}_${h}_msg_cost_per_byte`, `${c.prefix}_${h}_msg_cost_per_block`, msgLen, hash === KECCAK256 ? 136 : 64);
  return true;
}

function verifyNative(env: CryptoEnv, c: CurveDef, prefix: string): NativeFunction {
  return (ctx, _t, [sigArg, pkArg, msgArg, hashArg]) => {
    const msg = bytesArg(msgArg);
    if (!chargeForHash(ctx, env, { prefix }, u8Arg(hashArg), msg.length)) return [env.permissive];
    if (env.permissive) return [true];
    const sig = bytesArg(sigArg);
    if (sig.length !== 64) return [false];
    const pk = decodeSec1(c, bytesArg(pkArg), { hybrid: c === K1, compact: c === R1 });
    if (pk === null) return [false];
    return [ecdsaVerify(c, sig, pk, mod(beToBigInt(digest(u8Arg(hashArg), msg)), c.n))];
  };
}

function recoverNative(env: CryptoEnv, c: CurveDef, prefix: string): NativeFunction {
  return (ctx, _t, [sigArg, msgArg, hashArg]) => {
    const msg = bytesArg(msgArg);
    const hash = u8Arg(hashArg);
    if (!chargeForHash(ctx, env, { prefix }, hash, msg.length)) abort(FAIL_TO_RECOVER_PUBKEY);
    const sig = bytesArg(sigArg);
    if (sig.length !== 65 || sig[64] > 3) abort(INVALID_SIGNATURE);
    const r = beToBigInt(sig.subarray(0, 32));
    const s = beToBigInt(sig.subarray(32, 64));
    const v = sig[64];
    const z = mod(beToBigInt(digest(hash, msg)), c.n);
    let q: Point | null;
    if (c === K1) {
      // libsecp256k1: r, s < n at parse; zero r or s, or r + n ≥ p for v ≥ 2, fail recovery.
      if (r >= c.n || s >= c.n) abort(INVALID_SIGNATURE);
      if (r === 0n || s === 0n || ((v & 2) !== 0 && r >= c.p - c.n)) abort(FAIL_TO_RECOVER_PUBKEY);
      q = recover(c, (v & 2) !== 0 ? r + c.n : r, (v & 1) === 1, r, s, z);
    } else {
      // p256: r, s in [1, n) at parse; x = (r + n) mod 2^256 for v ≥ 2.
      if (r === 0n || s === 0n || r >= c.n || s >= c.n) abort(INVALID_SIGNATURE);
      q = recover(c, (v & 2) !== 0 ? (r + c.n) % (1n << 256n) : r, (v & 1) === 1, r, s, z);
    }
    if (q === null) abort(FAIL_TO_RECOVER_PUBKEY);
    return [vecU8(q.toBytes(true))];
  };
}

/** The `sui::ecdsa_k1` natives. */
export function ecdsaK1Natives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    secp256k1_ecrecover: recoverNative(env, K1, 'ecdsa_k1_ecrecover'),
    secp256k1_verify: verifyNative(env, K1, 'ecdsa_k1_secp256k1_verify'),
    decompress_pubkey: (ctx, _t, [pkArg]) => {
      chargeParam(ctx, env, 'ecdsa_k1_decompress_pubkey_cost_base');
      const pk = decodeSec1(K1, bytesArg(pkArg), { hybrid: true, compact: false });
      if (pk === null) abort(INVALID_PUBKEY);
      return [vecU8(pk.toBytes(false))];
    },
  };
}

/** The `sui::ecdsa_r1` natives. */
export function ecdsaR1Natives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    secp256r1_ecrecover: recoverNative(env, R1, 'ecdsa_r1_ecrecover'),
    secp256r1_verify: verifyNative(env, R1, 'ecdsa_r1_secp256r1_verify'),
  };
}

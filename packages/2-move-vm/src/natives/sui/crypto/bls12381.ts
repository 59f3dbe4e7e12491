/**
 * BLS12-381 with blst's encodings and checks, as fastcrypto uses them (`groups/bls12381.rs`,
 * `bls12381/mod.rs`): ZCash-format G1 (48/96 bytes) and G2 (96/192 bytes), big-endian
 * scalars (32 bytes), and GT as 12 big-endian Fp in blst's order `a[j][i][k]` for
 * i ∈ 0..3 (Fp2 of Fp6), j ∈ 0..2 (Fp6 of Fp12), k ∈ 0..2 (Fp of Fp2).
 *
 * "Trusted" decoders (`*Trusted`, blst `uncompress`/`deserialize`) check the encoding and
 * that the point is on the curve, not the subgroup; the checked ones add the subgroup
 * (`in_g1`/`in_g2`/`fp12_in_group`) check.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js';
import type { Fp12, Fp2 } from '@noble/curves/abstract/tower.js';
import { beToBigInt, bigIntToBe, concatBytes, mod } from './common.js';

/** A G1 point. */
export type G1 = WeierstrassPoint<bigint>;
/** A G2 point. */
export type G2 = WeierstrassPoint<Fp2>;
/** A GT element (an Fp12). */
export type GT = Fp12;

// biome-ignore lint/suspicious/noRedeclare: as in noble, `Fp2` names both the element type and its field
const { Fp, Fp2, Fp12 } = bls12_381.fields;
/** Base field modulus. */
export const P = Fp.ORDER;
/** Group order. */
export const R = bls12_381.fields.Fr.ORDER;
const HALF_P = (P - 1n) / 2n;
const B1 = 4n;
const B2: Fp2 = { c0: 4n, c1: 4n };

/** Domain separation tags of fastcrypto (min_sig hashes to G1, min_pk to G2). */
export const DST_G1 = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
const DST_G2 = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_';

export const G1Point = bls12_381.G1.Point;
export const G2Point = bls12_381.G2.Point;

function allZero(b: Uint8Array, from: number): boolean {
  for (let i = from; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

/** Infinity encoding: flag byte `flag`, then zeros (blst requires the other flag bits clear). */
function isInfinity(b: Uint8Array): boolean {
  return (b[0] & 0x3f) === 0 && allZero(b, 1);
}

function fp2Gt(a: Fp2): boolean {
  return a.c1 !== 0n ? a.c1 > HALF_P : a.c0 > HALF_P;
}

function sqrtFp(v: bigint): bigint | null {
  const y = Fp.pow(v, (P + 1n) / 4n);
  return Fp.sqr(y) === v ? y : null;
}

function sqrtFp2(v: Fp2): Fp2 | null {
  let y: Fp2;
  try {
    y = Fp2.sqrt(v);
  } catch {
    return null;
  }
  return Fp2.eql(Fp2.sqr(y), v) ? y : null;
}

function readFp2(b: Uint8Array, off: number): Fp2 | null {
  const c1 = beToBigInt(b.subarray(off, off + 48));
  const c0 = beToBigInt(b.subarray(off + 48, off + 96));
  return c1 < P && c0 < P ? { c0, c1 } : null;
}

function maskedCopy(b: Uint8Array, len: number): Uint8Array {
  const c = b.slice(0, len);
  c[0] &= 0x1f;
  return c;
}

/** blst `p1_uncompress`: 48 bytes, compression bit set; on-curve, not subgroup, checked. */
export function g1UncompressTrusted(b: Uint8Array): G1 | null {
  if (b.length < 48 || (b[0] & 0x80) === 0) return null;
  if (b[0] & 0x40) return isInfinity(b.subarray(0, 48)) ? G1Point.ZERO : null;
  const x = beToBigInt(maskedCopy(b, 48));
  if (x >= P || x === 0n) return null;
  let y = sqrtFp(Fp.add(Fp.mul(Fp.sqr(x), x), B1));
  if (y === null) return null;
  if (y > HALF_P !== ((b[0] & 0x20) !== 0)) y = Fp.neg(y);
  return G1Point.fromAffine({ x, y });
}

/** blst `p1_deserialize`: 96-byte uncompressed, or (compression bit set) 48-byte compressed. */
export function g1DeserializeTrusted(b: Uint8Array): G1 | null {
  if ((b[0] & 0x80) !== 0) return g1UncompressTrusted(b);
  if (b.length < 96) return null;
  if ((b[0] & 0xe0) !== 0) return (b[0] & 0x40) !== 0 && isInfinity(b.subarray(0, 96)) ? G1Point.ZERO : null;
  const x = beToBigInt(b.subarray(0, 48));
  const y = beToBigInt(b.subarray(48, 96));
  if (x >= P || y >= P) return null;
  if (Fp.sqr(y) !== Fp.add(Fp.mul(Fp.sqr(x), x), B1) || x === 0n) return null;
  return G1Point.fromAffine({ x, y });
}

/** blst `p2_uncompress`: 96 bytes, compression bit set. */
export function g2UncompressTrusted(b: Uint8Array): G2 | null {
  if (b.length < 96 || (b[0] & 0x80) === 0) return null;
  if (b[0] & 0x40) return isInfinity(b.subarray(0, 96)) ? G2Point.ZERO : null;
  const x = readFp2(maskedCopy(b, 96), 0);
  if (x === null || Fp2.is0(x)) return null;
  let y = sqrtFp2(Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2));
  if (y === null) return null;
  if (fp2Gt(y) !== ((b[0] & 0x20) !== 0)) y = Fp2.neg(y);
  return G2Point.fromAffine({ x, y });
}

/** blst `p2_deserialize`: 192-byte uncompressed, or (compression bit set) 96-byte compressed. */
export function g2DeserializeTrusted(b: Uint8Array): G2 | null {
  if ((b[0] & 0x80) !== 0) return g2UncompressTrusted(b);
  if (b.length < 192) return null;
  if ((b[0] & 0xe0) !== 0) return (b[0] & 0x40) !== 0 && isInfinity(b.subarray(0, 192)) ? G2Point.ZERO : null;
  const x = readFp2(b, 0);
  const y = readFp2(b, 96);
  if (x === null || y === null || Fp2.is0(x)) return null;
  if (!Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2))) return null;
  return G2Point.fromAffine({ x, y });
}

/** Subgroup check (the identity passes). */
export function inSubgroup(p: G1 | G2): boolean {
  return p.is0() || p.isTorsionFree();
}

/** Checked G1 (`from_byte_array`): 48-byte compressed, in G1. */
export function g1FromBytes(b: Uint8Array): G1 | null {
  if (b.length !== 48) return null;
  const p = g1UncompressTrusted(b);
  return p !== null && inSubgroup(p) ? p : null;
}

/** Checked G2 (`from_byte_array`): 96-byte compressed, in G2. */
export function g2FromBytes(b: Uint8Array): G2 | null {
  if (b.length !== 96) return null;
  const p = g2UncompressTrusted(b);
  return p !== null && inSubgroup(p) ? p : null;
}

/** Trusted G1 of exactly 48 bytes. */
export function g1Trusted(b: Uint8Array): G1 | null {
  return b.length === 48 ? g1UncompressTrusted(b) : null;
}

/** Trusted G2 of exactly 96 bytes. */
export function g2Trusted(b: Uint8Array): G2 | null {
  return b.length === 96 ? g2UncompressTrusted(b) : null;
}

/** blst `p1_compress`. */
export function g1ToBytes(p: G1): Uint8Array {
  const out = new Uint8Array(48);
  if (p.is0()) {
    out[0] = 0xc0;
    return out;
  }
  const { x, y } = p.toAffine();
  out.set(bigIntToBe(x, 48));
  out[0] |= 0x80 | (y > HALF_P ? 0x20 : 0);
  return out;
}

/** blst `p1_serialize` (96 bytes). */
export function g1ToUncompressed(p: G1): Uint8Array {
  const out = new Uint8Array(96);
  if (p.is0()) {
    out[0] = 0x40;
    return out;
  }
  const { x, y } = p.toAffine();
  return concatBytes(bigIntToBe(x, 48), bigIntToBe(y, 48));
}

/** blst `p2_compress`. */
export function g2ToBytes(p: G2): Uint8Array {
  const out = new Uint8Array(96);
  if (p.is0()) {
    out[0] = 0xc0;
    return out;
  }
  const { x, y } = p.toAffine();
  out.set(bigIntToBe(x.c1, 48), 0);
  out.set(bigIntToBe(x.c0, 48), 48);
  out[0] |= 0x80 | (fp2Gt(y) ? 0x20 : 0);
  return out;
}

/** A scalar from 32 big-endian bytes: canonical (`< r`) unless `trusted` (then reduced). */
export function scalarFromBytes(b: Uint8Array, trusted = false): bigint | null {
  if (b.length !== 32) return null;
  const x = beToBigInt(b);
  if (trusted) return mod(x, R);
  return x < R ? x : null;
}

/** 32 big-endian bytes of a scalar. */
export function scalarToBytes(x: bigint): Uint8Array {
  return bigIntToBe(mod(x, R), 32);
}

const GT_BYTES = 576;

/** GT element from blst's 576-byte layout, field elements `< p` (no group check). */
export function gtFromBytesTrusted(b: Uint8Array): GT | null {
  if (b.length !== GT_BYTES) return null;
  const v: bigint[][][] = [
    [[], [], []],
    [[], [], []],
  ];
  let off = 0;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 2; j++)
      for (let k = 0; k < 2; k++) {
        const x = beToBigInt(b.subarray(off, off + 48));
        if (x >= P) return null;
        v[j][i][k] = x;
        off += 48;
      }
  const fp6 = (j: number) => ({
    c0: { c0: v[j][0][0], c1: v[j][0][1] },
    c1: { c0: v[j][1][0], c1: v[j][1][1] },
    c2: { c0: v[j][2][0], c1: v[j][2][1] },
  });
  return { c0: fp6(0), c1: fp6(1) };
}

/** `fp12_in_group`: non-zero and of order dividing r. */
export function gtInGroup(f: GT): boolean {
  return !Fp12.is0(f) && Fp12.eql(Fp12.pow(f, R), Fp12.ONE);
}

/** blst's 576-byte layout of a GT element. */
export function gtToBytes(f: GT): Uint8Array {
  const out = new Uint8Array(GT_BYTES);
  const fp6 = [f.c0, f.c1];
  let off = 0;
  for (const i of [0, 1, 2] as const)
    for (let j = 0; j < 2; j++) {
      const c = i === 0 ? fp6[j].c0 : i === 1 ? fp6[j].c1 : fp6[j].c2;
      out.set(bigIntToBe(c.c0, 48), off);
      out.set(bigIntToBe(c.c1, 48), off + 48);
      off += 96;
    }
  return out;
}

/** GT "scalar multiplication" (exponentiation); 0 gives the identity. */
export function gtMul(f: GT, n: bigint): GT {
  return n === 0n ? Fp12.ONE : Fp12.pow(f, n);
}

/** GT group operation (Fp12 multiplication). */
export function gtAdd(a: GT, b: GT): GT {
  return Fp12.mul(a, b);
}

/** GT inverse. */
export function gtNeg(a: GT): GT {
  return Fp12.inv(a);
}

/** The GT identity (Fp12 one). */
export const GT_IDENTITY: GT = Fp12.ONE;

/** Pairing `e(p, q)`; the identity when either input is the identity. */
export function pairing(p: G1, q: G2): GT {
  if (p.is0() || q.is0()) return Fp12.ONE;
  return bls12_381.pairing(p, q);
}

/** Product of pairings (skipping identity pairs), one final exponentiation. */
export function multiPairing(pairs: readonly (readonly [G1, G2])[]): GT {
  const live = pairs.filter(([a, b]) => !a.is0() && !b.is0()).map(([g1, g2]) => ({ g1, g2 }));
  return live.length === 0 ? Fp12.ONE : bls12_381.pairingBatch(live);
}

/** Miller-loop line coefficients of a G2 point (noble's pairing precomputes). */
type G2Lines = ReturnType<typeof bls12_381.utils.calcPairingPrecomputes>;
const linesByPoint = new WeakMap<G2, G2Lines>();

function g2Lines(q: G2): G2Lines {
  let lines = linesByPoint.get(q);
  if (lines === undefined) {
    lines = bls12_381.utils.calcPairingPrecomputes(q);
    linesByPoint.set(q, lines);
  }
  return lines;
}

/**
 * {@link multiPairing} of points the caller has already checked (on the curve, in their
 * subgroups): the same product, computed as noble's `pairingBatch` does (each G2 point's
 * line coefficients, one batched Miller loop, one final exponentiation), without its
 * validity checks of every point again, and with each G2 point's coefficients kept while
 * the point lives (the negated generator of every min-sig check, a key checked again).
 */
export function multiPairingOfChecked(pairs: readonly (readonly [G1, G2])[]): GT {
  const live: [G2Lines, bigint, bigint][] = [];
  for (const [g1, g2] of pairs) {
    if (g1.is0() || g2.is0()) continue;
    const a = g1.toAffine();
    live.push([g2Lines(g2), a.x, a.y]);
  }
  return live.length === 0 ? Fp12.ONE : Fp12.finalExponentiate(bls12_381.millerLoopBatch(live));
}

/** GT equality. */
export function gtEquals(a: GT, b: GT): boolean {
  return Fp12.eql(a, b);
}

/** `hash_to_curve` into G1 with fastcrypto's DST. */
export function hashToG1(msg: Uint8Array, dst: string = DST_G1): G1 {
  return bls12_381.G1.hashToCurve(msg, { DST: dst }) as unknown as G1;
}

/** `hash_to_curve` into G2 with fastcrypto's DST. */
export function hashToG2(msg: Uint8Array, dst: string = DST_G2): G2 {
  return bls12_381.G2.hashToCurve(msg, { DST: dst }) as unknown as G2;
}

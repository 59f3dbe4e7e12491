/**
 * `sui::groth16`: verifying-key preparation and Groth16 proof verification on BN254
 * (fastcrypto-zkp `bn254`, arkworks encodings) and BLS12-381 (fastcrypto-zkp `bls12381`,
 * blst encodings with arkworks' GT layout).
 *
 * Encodings:
 * - BN254 (arkworks, compressed, little-endian): G1 32 bytes, G2 64 (c0‖c1), flags in the
 *   top two bits of the last byte (0x80 "y is the larger root", 0x40 infinity); Fq12 384
 *   bytes (natural order, LE); scalars 32 LE bytes `< r`. Readers take a prefix of their
 *   input (trailing bytes ignored), as arkworks' `deserialize_compressed` does.
 * - BLS12-381: G1 48 / G2 96 bytes compressed (ZCash), subgroup-checked; GT 576 bytes in
 *   arkworks order (12 LE Fp, natural order), checked in GT; scalars 32 LE bytes `< r`;
 *   proofs exactly `a‖b‖c` (192 bytes); vk `alpha‖beta‖gamma‖delta‖u64 n‖n×G1`.
 *
 * Natives: `prepare_verifying_key_internal` aborts 1 (`EInvalidCurve`), 0
 * (`EInvalidVerifyingKey`) or 2 (`ETooManyPublicInputs`, more than 8 inputs);
 * `verify_groth16_proof_internal` aborts 1 on an unknown curve and 2 on more than 8 public
 * inputs, and returns `false` for anything malformed.
 */
import { bn254 } from '@noble/curves/bn254.js';
import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js';
import type { Fp12, Fp2 } from '@noble/curves/abstract/tower.js';
import type { NativeFunction } from '../../registry.js';
import * as bls from './bls12381.js';
import { abort, bigIntToLe, bytesArg, chargeParam, concatBytes, cost, type CryptoEnv, leToBigInt, u8Arg, vecU8 } from './common.js';

const BLS12381 = 0;
const BN254 = 1;
const INVALID_VERIFYING_KEY = 0;
const INVALID_CURVE = 1;
const TOO_MANY_PUBLIC_INPUTS = 2;
const MAX_PUBLIC_INPUTS = 8;

// ---------------------------------------------------------------- BN254 (arkworks)

const { Fp: BFp, Fp2: BFp2, Fp12: BFp12 } = bn254.fields;
const BP = BFp.ORDER;
const BR = bn254.fields.Fr.ORDER;
const B_G2: Fp2 = bn254.G2.Point.CURVE().b;
type BG1 = WeierstrassPoint<bigint>;
type BG2 = WeierstrassPoint<Fp2>;

function sqrtBn(v: bigint): bigint | null {
  const y = BFp.pow(v, (BP + 1n) / 4n);
  return BFp.sqr(y) === v ? y : null;
}

function fp2Greater(a: Fp2, b: Fp2): boolean {
  return a.c1 !== b.c1 ? a.c1 > b.c1 : a.c0 > b.c0;
}

/** Flags of an arkworks SW point; `null` for the invalid "both set". */
function swFlags(byte: number): { negative: boolean; infinity: boolean } | null {
  const negative = (byte & 0x80) !== 0;
  const infinity = (byte & 0x40) !== 0;
  return negative && infinity ? null : { negative, infinity };
}

/** arkworks BN254 G1, compressed, validated (prefix of `b`). */
function bnG1Decode(b: Uint8Array): BG1 | null {
  if (b.length < 32) return null;
  const flags = swFlags(b[31]);
  if (flags === null) return null;
  const raw = b.slice(0, 32);
  raw[31] &= 0x3f;
  const x = leToBigInt(raw);
  if (x >= BP) return null;
  if (flags.infinity) return bn254.G1.Point.ZERO;
  let y = sqrtBn(BFp.add(BFp.mul(BFp.sqr(x), x), 3n));
  if (y === null) return null;
  const neg = BFp.neg(y);
  if (y > neg !== flags.negative) y = neg;
  return bn254.G1.Point.fromAffine({ x, y });
}

/** arkworks BN254 G2, compressed, validated (prefix of `b`). */
function bnG2Decode(b: Uint8Array): BG2 | null {
  if (b.length < 64) return null;
  const flags = swFlags(b[63]);
  if (flags === null) return null;
  const c0 = leToBigInt(b.subarray(0, 32));
  const raw = b.slice(32, 64);
  raw[31] &= 0x3f;
  const c1 = leToBigInt(raw);
  if (c0 >= BP || c1 >= BP) return null;
  if (flags.infinity) return bn254.G2.Point.ZERO;
  const x: Fp2 = { c0, c1 };
  const v = BFp2.add(BFp2.mul(BFp2.sqr(x), x), B_G2);
  let y: Fp2;
  try {
    y = BFp2.sqrt(v);
  } catch {
    return null;
  }
  if (!BFp2.eql(BFp2.sqr(y), v)) return null;
  const neg = BFp2.neg(y);
  if (fp2Greater(y, neg) !== flags.negative) y = neg;
  const p = bn254.G2.Point.fromAffine({ x, y });
  return p.isTorsionFree() ? p : null;
}

/** arkworks compressed BN254 G1. */
function bnG1Encode(p: BG1): Uint8Array {
  if (p.is0()) return Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 0x40 : 0));
  const { x, y } = p.toAffine();
  const out = bigIntToLe(x, 32);
  if (y > BFp.neg(y)) out[31] |= 0x80;
  return out;
}

/** arkworks compressed BN254 G2. */
function bnG2Encode(p: BG2): Uint8Array {
  if (p.is0()) return Uint8Array.from({ length: 64 }, (_, i) => (i === 63 ? 0x40 : 0));
  const { x, y } = p.toAffine();
  const out = concatBytes(bigIntToLe(x.c0, 32), bigIntToLe(x.c1, 32));
  if (fp2Greater(y, BFp2.neg(y))) out[63] |= 0x80;
  return out;
}

/** Fq12 coefficients in natural order (c0.c0.c0, c0.c0.c1, c0.c1.c0, …). */
function fp12Coeffs(f: Fp12): bigint[] {
  const out: bigint[] = [];
  for (const c6 of [f.c0, f.c1]) for (const c2 of [c6.c0, c6.c1, c6.c2]) out.push(c2.c0, c2.c1);
  return out;
}

function fp12FromCoeffs(v: readonly bigint[]): Fp12 {
  const fp2 = (i: number): Fp2 => ({ c0: v[i], c1: v[i + 1] });
  return { c0: { c0: fp2(0), c1: fp2(2), c2: fp2(4) }, c1: { c0: fp2(6), c1: fp2(8), c2: fp2(10) } };
}

/** Fp12 in arkworks' layout: 12 little-endian field elements of `size` bytes, each `< p`. */
function fp12FromLe(b: Uint8Array, size: number, p: bigint): Fp12 | null {
  if (b.length < 12 * size) return null;
  const v: bigint[] = [];
  for (let i = 0; i < 12; i++) {
    const x = leToBigInt(b.subarray(i * size, (i + 1) * size));
    if (x >= p) return null;
    v.push(x);
  }
  return fp12FromCoeffs(v);
}

function fp12ToLe(f: Fp12, size: number): Uint8Array {
  return concatBytes(...fp12Coeffs(f).map((x) => bigIntToLe(x, size)));
}

function bnMultiPairing(pairs: readonly (readonly [BG1, BG2])[]): Fp12 {
  const live = pairs.filter(([a, b]) => !a.is0() && !b.is0()).map(([g1, g2]) => ({ g1, g2 }));
  return live.length === 0 ? BFp12.ONE : bn254.pairingBatch(live);
}

function bnPrepare(vk: Uint8Array): Uint8Array[] | null {
  const alpha = bnG1Decode(vk.subarray(0));
  const beta = bnG2Decode(vk.subarray(32));
  const gamma = bnG2Decode(vk.subarray(96));
  const delta = bnG2Decode(vk.subarray(160));
  if (alpha === null || beta === null || gamma === null || delta === null || vk.length < 232) return null;
  const n = leToBigInt(vk.subarray(224, 232));
  if (BigInt(vk.length - 232) < n * 32n) return null;
  const abc: BG1[] = [];
  for (let i = 0; i < Number(n); i++) {
    const p = bnG1Decode(vk.subarray(232 + 32 * i));
    if (p === null) return null;
    abc.push(p);
  }
  const alphaBeta = bnMultiPairing([[alpha, beta]]);
  return [concatBytes(...abc.map(bnG1Encode)), fp12ToLe(alphaBeta, 32), bnG2Encode(gamma.negate()), bnG2Encode(delta.negate())];
}

function bnVerify(abcBytes: Uint8Array, alphaBeta: Uint8Array, gammaNeg: Uint8Array, deltaNeg: Uint8Array, inputs: Uint8Array, proof: Uint8Array): boolean {
  if (inputs.length % 32 !== 0 || abcBytes.length % 32 !== 0) return false;
  const abc: BG1[] = [];
  for (let i = 0; i < abcBytes.length; i += 32) {
    const p = bnG1Decode(abcBytes.subarray(i, i + 32));
    if (p === null) return false;
    abc.push(p);
  }
  const ab = fp12FromLe(alphaBeta, 32, BP);
  const gn = bnG2Decode(gammaNeg);
  const dn = bnG2Decode(deltaNeg);
  const a = bnG1Decode(proof);
  const b = bnG2Decode(proof.subarray(32));
  const c = bnG1Decode(proof.subarray(96));
  if (ab === null || gn === null || dn === null || a === null || b === null || c === null) return false;
  const xs: bigint[] = [];
  for (let i = 0; i < inputs.length; i += 32) {
    const x = leToBigInt(inputs.subarray(i, i + 32));
    if (x >= BR) return false;
    xs.push(x);
  }
  if (xs.length + 1 !== abc.length) return false;
  let acc = abc[0];
  xs.forEach((x, i) => {
    if (x !== 0n) acc = acc.add(abc[i + 1].multiplyUnsafe(x));
  });
  return BFp12.eql(
    bnMultiPairing([
      [a, b],
      [acc, gn],
      [c, dn],
    ]),
    ab,
  );
}

// ---------------------------------------------------------------- BLS12-381 (fastcrypto)

function blsPrepare(vk: Uint8Array): Uint8Array[] | null {
  const fixed = 48 + 3 * 96 + 8;
  if (vk.length < fixed || (vk.length - fixed) % 48 !== 0) return null;
  const alpha = bls.g1FromBytes(vk.subarray(0, 48));
  const beta = bls.g2FromBytes(vk.subarray(48, 144));
  const gamma = bls.g2FromBytes(vk.subarray(144, 240));
  const delta = bls.g2FromBytes(vk.subarray(240, 336));
  if (alpha === null || beta === null || gamma === null || delta === null) return null;
  const n = leToBigInt(vk.subarray(336, 344));
  if (n === 0n || BigInt((vk.length - fixed) / 48) !== n) return null;
  const abc: bls.G1[] = [];
  for (let off = fixed; off < vk.length; off += 48) {
    const p = bls.g1FromBytes(vk.subarray(off, off + 48));
    if (p === null) return null;
    abc.push(p);
  }
  return [concatBytes(...abc.map(bls.g1ToBytes)), fp12ToLe(bls.pairing(alpha, beta), 48), bls.g2ToBytes(gamma.negate()), bls.g2ToBytes(delta.negate())];
}

function blsVerify(abcBytes: Uint8Array, alphaBeta: Uint8Array, gammaNeg: Uint8Array, deltaNeg: Uint8Array, inputs: Uint8Array, proof: Uint8Array): boolean {
  if (inputs.length % 32 !== 0 || abcBytes.length % 48 !== 0 || proof.length !== 192 || alphaBeta.length !== 576) return false;
  const xs: bigint[] = [];
  for (let i = 0; i < inputs.length; i += 32) {
    const x = leToBigInt(inputs.subarray(i, i + 32));
    if (x >= bls.R) return false;
    xs.push(x);
  }
  const a = bls.g1FromBytes(proof.subarray(0, 48));
  const b = bls.g2FromBytes(proof.subarray(48, 144));
  const c = bls.g1FromBytes(proof.subarray(144, 192));
  if (a === null || b === null || c === null) return false;
  const abc: bls.G1[] = [];
  for (let i = 0; i < abcBytes.length; i += 48) {
    const p = bls.g1FromBytes(abcBytes.subarray(i, i + 48));
    if (p === null) return false;
    abc.push(p);
  }
  const ab = fp12FromLe(alphaBeta, 48, bls.P);
  if (ab === null || !bls.gtInGroup(ab)) return false;
  const gn = bls.g2FromBytes(gammaNeg);
  const dn = bls.g2FromBytes(deltaNeg);
  if (gn === null || dn === null || xs.length + 1 !== abc.length) return false;
  let acc = abc[0];
  xs.forEach((x, i) => {
    if (x !== 0n) acc = acc.add(abc[i + 1].multiplyUnsafe(x));
  });
  const lhs = bls.multiPairing([
    [a, b],
    [acc, gn],
    [c, dn],
  ]);
  return bls.gtEquals(lhs, ab);
}

/** Public inputs a verifying key of `len` bytes declares (upstream `get_public_inputs_num`). */
function publicInputsNum(g1: number, g2: number, len: number): number | null {
  const prefix = 2 * g1 + 3 * g2 + 8;
  if (len < prefix || (len - prefix) % g1 !== 0) return null;
  return (len - prefix) / g1;
}

/** The `sui::groth16` natives. */
export function groth16Natives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    prepare_verifying_key_internal: (ctx, _t, [curveArg, vkArg]) => {
      const vk = bytesArg(vkArg);
      const curve = u8Arg(curveArg);
      if (curve !== BLS12381 && curve !== BN254) {
        chargeParam(ctx, env, 'crypto_invalid_arguments_cost');
        abort(INVALID_CURVE);
      }
      chargeParam(ctx, env, curve === BN254 ? 'groth16_prepare_verifying_key_bn254_cost_base' : 'groth16_prepare_verifying_key_bls12381_cost_base');
      if (env.features.limit_groth16_pvk_inputs) {
        const n = curve === BN254 ? publicInputsNum(32, 64, vk.length) : publicInputsNum(48, 96, vk.length);
        if (n === null) abort(INVALID_VERIFYING_KEY);
        if (n > MAX_PUBLIC_INPUTS) abort(TOO_MANY_PUBLIC_INPUTS);
      }
      const parts = curve === BN254 ? bnPrepare(vk) : blsPrepare(vk);
      if (parts === null) abort(INVALID_VERIFYING_KEY);
      return [parts.map(vecU8)];
    },
    verify_groth16_proof_internal: (ctx, _t, [curveArg, abcArg, alphaArg, gammaArg, deltaArg, inputsArg, proofArg]) => {
      const inputs = bytesArg(inputsArg);
      const curve = u8Arg(curveArg);
      if (curve !== BLS12381 && curve !== BN254) {
        chargeParam(ctx, env, 'crypto_invalid_arguments_cost');
        return env.permissive ? [true] : abort(INVALID_CURVE);
      }
      const name = curve === BN254 ? 'bn254' : 'bls12381';
      chargeParam(ctx, env, `groth16_verify_groth16_proof_internal_${name}_cost_base`);
      ctx.charge(
        cost(env, `groth16_verify_groth16_proof_internal_${name}_cost_per_public_input`) * Math.ceil(inputs.length / 32) +
          cost(env, 'groth16_verify_groth16_proof_internal_public_input_cost_per_byte') * inputs.length,
      );
      if (env.permissive) return [true];
      if (inputs.length > 32 * MAX_PUBLIC_INPUTS) abort(TOO_MANY_PUBLIC_INPUTS);
      const args = [abcArg, alphaArg, gammaArg, deltaArg].map(bytesArg) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
      const proof = bytesArg(proofArg);
      return [curve === BN254 ? bnVerify(...args, inputs, proof) : blsVerify(...args, inputs, proof)];
    },
  };
}

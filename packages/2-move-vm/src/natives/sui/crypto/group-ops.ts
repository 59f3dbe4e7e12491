/**
 * `sui::group_ops` natives over BLS12-381 (types 0 scalar, 1 G1, 2 G2, 3 GT,
 * 4 uncompressed G1) and ristretto255 (5 scalar, 6 point), as upstream
 * `crypto/group_ops.rs`.
 *
 * Aborts: 0 `ENotSupported` (feature off), 1 `EInvalidInput` (unknown type, bad encoding,
 * division by zero, bad lengths), 2 `EInputTooLong` (MSM or sum over the limit). Each
 * operation charges its own cost parameter (`group_ops_bls12381_<group>_<op>_cost`,
 * `group_ops_ristretto_<group>_<op>_cost`) before decoding; an unknown type charges nothing.
 * Operands of add/sub/mul/div/pairing are decoded "trusted" (no subgroup check), as the
 * Move API only passes validated elements.
 */
import type { NativeContext, NativeFunction } from '../../registry.js';
import * as bls from './bls12381.js';
import { abort, bytesArg, bytesVecArg, chargeParam, cost, type CryptoEnv, invert, u8Arg, vecU8 } from './common.js';
import * as rist from './ristretto.js';

const NOT_SUPPORTED = 0;
const INVALID_INPUT = 1;
const INPUT_TOO_LONG = 2;

/** Arithmetic of one group: decoding (trusted), encoding, and the four operations. */
interface Group<E> {
  readonly costPrefix: string;
  readonly ristretto: boolean;
  decode(b: Uint8Array): E | null;
  encode(e: E): Uint8Array;
  add(a: E, b: E): E;
  sub(a: E, b: E): E;
  /** `e · s` for a scalar `s` (as bigint, reduced). */
  mul(s: bigint, e: E): E;
  /** Decode the scalar operand of mul/div (trusted). */
  scalar(b: Uint8Array): bigint | null;
  /** Scalar field order. */
  readonly order: bigint;
}

const blsScalar = (b: Uint8Array) => bls.scalarFromBytes(b, true);

const SCALAR: Group<bigint> = {
  costPrefix: 'group_ops_bls12381_scalar',
  ristretto: false,
  decode: blsScalar,
  encode: bls.scalarToBytes,
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (s, e) => s * e,
  scalar: blsScalar,
  order: bls.R,
};

const G1: Group<bls.G1> = {
  costPrefix: 'group_ops_bls12381_g1',
  ristretto: false,
  decode: bls.g1Trusted,
  encode: bls.g1ToBytes,
  add: (a, b) => a.add(b),
  sub: (a, b) => a.subtract(b),
  mul: (s, e) => (s === 0n ? bls.G1Point.ZERO : e.multiplyUnsafe(s)),
  scalar: blsScalar,
  order: bls.R,
};

const G2: Group<bls.G2> = {
  costPrefix: 'group_ops_bls12381_g2',
  ristretto: false,
  decode: bls.g2Trusted,
  encode: bls.g2ToBytes,
  add: (a, b) => a.add(b),
  sub: (a, b) => a.subtract(b),
  mul: (s, e) => (s === 0n ? bls.G2Point.ZERO : e.multiplyUnsafe(s)),
  scalar: blsScalar,
  order: bls.R,
};

const GT: Group<bls.GT> = {
  costPrefix: 'group_ops_bls12381_gt',
  ristretto: false,
  decode: bls.gtFromBytesTrusted,
  encode: bls.gtToBytes,
  add: bls.gtAdd,
  sub: (a, b) => bls.gtAdd(a, bls.gtNeg(b)),
  mul: (s, e) => bls.gtMul(e, s),
  scalar: blsScalar,
  order: bls.R,
};

const rScalar = (b: Uint8Array) => rist.rScalarFromBytes(b, true);

const R_SCALAR: Group<bigint> = {
  costPrefix: 'group_ops_ristretto_scalar',
  ristretto: true,
  decode: rScalar,
  encode: rist.rScalarToBytes,
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (s, e) => s * e,
  scalar: rScalar,
  order: rist.L,
};

const R_POINT: Group<rist.RistrettoPoint> = {
  costPrefix: 'group_ops_ristretto_point',
  ristretto: true,
  decode: rist.rPointFromBytes,
  encode: (p) => p.toBytes(),
  add: (a, b) => a.add(b),
  sub: (a, b) => a.subtract(b),
  mul: (s, e) => rist.rMul(e, s),
  scalar: rScalar,
  order: rist.L,
};

/** Groups by type code for add/sub/mul/div (4, uncompressed G1, has none of these). */
const GROUPS: Readonly<Record<number, Group<never> | undefined>> = {
  0: SCALAR as Group<never>,
  1: G1 as Group<never>,
  2: G2 as Group<never>,
  3: GT as Group<never>,
  5: R_SCALAR as Group<never>,
  6: R_POINT as Group<never>,
};

function requireSupported(env: CryptoEnv): void {
  if (!env.features.enable_group_ops_native_functions) abort(NOT_SUPPORTED);
}

function groupFor(env: CryptoEnv, type: number): Group<unknown> {
  const g = GROUPS[type] as Group<unknown> | undefined;
  if (g === undefined) abort(INVALID_INPUT);
  if (g.ristretto && !env.features.enable_ristretto255_group_ops) abort(NOT_SUPPORTED);
  return g;
}

type Op = 'add' | 'sub' | 'mul' | 'div';

function binary(env: CryptoEnv, op: Op): NativeFunction {
  return (ctx, _t, [typeArg, e1Arg, e2Arg]) => {
    requireSupported(env);
    const e1 = bytesArg(e1Arg);
    const e2 = bytesArg(e2Arg);
    const g = groupFor(env, u8Arg(typeArg));
    chargeParam(ctx, env, `${g.costPrefix}_${op}_cost`);
    if (op === 'add' || op === 'sub') {
      const a = g.decode(e1);
      const b = g.decode(e2);
      if (a === null || b === null) abort(INVALID_INPUT);
      return [vecU8(g.encode(op === 'add' ? g.add(a, b) : g.sub(a, b)))];
    }
    const s = g.scalar(e1);
    const e = g.decode(e2);
    if (s === null || e === null) abort(INVALID_INPUT);
    if (op === 'mul') return [vecU8(g.encode(g.mul(s, e)))];
    if (s === 0n) abort(INVALID_INPUT);
    return [vecU8(g.encode(g.mul(invert(s, g.order), e)))];
  };
}

/** `msm_num_of_additions` of upstream: the additions a windowed MSM of `n` terms needs. */
function msmNumOfAdditions(n: number): number {
  const wbits = Math.floor(Math.log2(n));
  const w = wbits === 0 ? 1 : wbits <= 4 ? 2 : wbits <= 12 ? wbits - 2 : wbits - 3;
  return Math.ceil(255 / w) * (n + 2 ** w + 1);
}

function msm<E>(ctx: NativeContext, env: CryptoEnv, g: Group<E>, pointSize: number, name: 'g1' | 'g2', scalars: Uint8Array, points: Uint8Array): unknown[] {
  const maxLen = cost(env, 'group_ops_bls12381_msm_max_len');
  if (points.length === 0 || scalars.length === 0 || scalars.length % 32 !== 0 || points.length % pointSize !== 0) abort(INVALID_INPUT);
  const n = scalars.length / 32;
  if (points.length / pointSize !== n) abort(INVALID_INPUT);
  if (n > maxLen) abort(INPUT_TOO_LONG);
  ctx.charge(cost(env, 'group_ops_bls12381_decode_scalar_cost') * n);
  const ss: (bigint | null)[] = [];
  for (let i = 0; i < n; i++) ss.push(g.scalar(scalars.subarray(32 * i, 32 * i + 32)));
  ctx.charge(cost(env, `group_ops_bls12381_decode_${name}_cost`) * n);
  const ps: (E | null)[] = [];
  for (let i = 0; i < n; i++) ps.push(g.decode(points.subarray(pointSize * i, pointSize * (i + 1))));
  if (ss.includes(null) || ps.includes(null)) abort(INVALID_INPUT);
  ctx.charge(cost(env, `group_ops_bls12381_${name}_msm_base_cost`) + cost(env, `group_ops_bls12381_${name}_msm_base_cost_per_input`) * msmNumOfAdditions(n));
  let acc: E | null = null;
  for (let i = 0; i < n; i++) {
    const term = g.mul(ss[i] as bigint, ps[i] as E);
    acc = acc === null ? term : g.add(acc, term);
  }
  return [vecU8(g.encode(acc as E))];
}

/** The `sui::group_ops` natives. */
export function groupOpsNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    internal_validate: (ctx, _t, [typeArg, bytesIn]) => {
      requireSupported(env);
      const b = bytesArg(bytesIn);
      const type = u8Arg(typeArg);
      const check = (param: string, ok: () => boolean): boolean => {
        chargeParam(ctx, env, param);
        return ok();
      };
      switch (type) {
        case 0:
          return [check('group_ops_bls12381_decode_scalar_cost', () => bls.scalarFromBytes(b) !== null)];
        case 1:
          return [check('group_ops_bls12381_decode_g1_cost', () => bls.g1FromBytes(b) !== null)];
        case 2:
          return [check('group_ops_bls12381_decode_g2_cost', () => bls.g2FromBytes(b) !== null)];
        case 5:
        case 6:
          if (!env.features.enable_ristretto255_group_ops) abort(NOT_SUPPORTED);
          return type === 5
            ? [check('group_ops_ristretto_decode_scalar_cost', () => rist.rScalarFromBytes(b) !== null)]
            : [check('group_ops_ristretto_decode_point_cost', () => rist.rPointFromBytes(b) !== null)];
        default:
          return [false];
      }
    },
    internal_add: binary(env, 'add'),
    internal_sub: binary(env, 'sub'),
    internal_mul: binary(env, 'mul'),
    internal_div: binary(env, 'div'),
    internal_hash_to: (ctx, _t, [typeArg, mArg]) => {
      requireSupported(env);
      const m = bytesArg(mArg);
      if (m.length === 0) abort(INVALID_INPUT);
      const type = u8Arg(typeArg);
      if (type !== 1 && type !== 2) abort(INVALID_INPUT);
      const name = type === 1 ? 'g1' : 'g2';
      ctx.charge(cost(env, `group_ops_bls12381_${name}_hash_to_base_cost`) + cost(env, `group_ops_bls12381_${name}_hash_to_cost_per_byte`) * m.length);
      return [vecU8(type === 1 ? bls.g1ToBytes(bls.hashToG1(m)) : bls.g2ToBytes(bls.hashToG2(m)))];
    },
    internal_multi_scalar_mul: (ctx, _t, [typeArg, scalarsArg, elementsArg]) => {
      if (!env.features.enable_group_ops_native_function_msm) abort(NOT_SUPPORTED);
      const points = bytesArg(elementsArg);
      const scalars = bytesArg(scalarsArg);
      const type = u8Arg(typeArg);
      if (type === 1) return msm(ctx, env, G1, 48, 'g1', scalars, points);
      if (type === 2) return msm(ctx, env, G2, 96, 'g2', scalars, points);
      cost(env, 'group_ops_bls12381_msm_max_len');
      return abort(INVALID_INPUT);
    },
    internal_pairing: (ctx, _t, [typeArg, e1Arg, e2Arg]) => {
      requireSupported(env);
      if (u8Arg(typeArg) !== 1) abort(INVALID_INPUT);
      chargeParam(ctx, env, 'group_ops_bls12381_pairing_cost');
      const p = bls.g1Trusted(bytesArg(e1Arg));
      const q = p === null ? null : bls.g2Trusted(bytesArg(e2Arg));
      if (p === null || q === null) abort(INVALID_INPUT);
      return [vecU8(bls.gtToBytes(bls.pairing(p, q)))];
    },
    internal_convert: (ctx, _t, [fromArg, toArg, eArg]) => {
      if (!env.features.uncompressed_g1_group_elements) abort(NOT_SUPPORTED);
      const e = bytesArg(eArg);
      const from = u8Arg(fromArg);
      const to = u8Arg(toArg);
      if (from === 4 && to === 1) {
        chargeParam(ctx, env, 'group_ops_bls12381_uncompressed_g1_to_g1_cost');
        if (e.length !== 96 || (e[0] & 0xa0) !== 0) abort(INVALID_INPUT);
        const p = bls.g1DeserializeTrusted(e);
        if (p === null || !bls.inSubgroup(p)) abort(INVALID_INPUT);
        return [vecU8(bls.g1ToBytes(p))];
      }
      if (from === 1 && to === 4) {
        chargeParam(ctx, env, 'group_ops_bls12381_g1_to_uncompressed_g1_cost');
        const p = bls.g1Trusted(e);
        if (p === null) abort(INVALID_INPUT);
        return [vecU8(bls.g1ToUncompressed(p))];
      }
      return abort(INVALID_INPUT);
    },
    internal_sum: (ctx, _t, [typeArg, termsArg]) => {
      if (!env.features.uncompressed_g1_group_elements) abort(NOT_SUPPORTED);
      const terms = bytesVecArg(termsArg);
      if (u8Arg(typeArg) !== 4) abort(INVALID_INPUT);
      if (terms.length > cost(env, 'group_ops_bls12381_uncompressed_g1_sum_max_terms')) abort(INPUT_TOO_LONG);
      ctx.charge(cost(env, 'group_ops_bls12381_uncompressed_g1_sum_base_cost') + cost(env, 'group_ops_bls12381_uncompressed_g1_sum_cost_per_term') * terms.length);
      let acc = bls.G1Point.ZERO;
      for (const t of terms) {
        const p = t.length === 96 ? bls.g1DeserializeTrusted(t) : null;
        if (p === null) abort(INVALID_INPUT);
        acc = acc.add(p);
      }
      return [vecU8(bls.g1ToUncompressed(acc))];
    },
  };
}

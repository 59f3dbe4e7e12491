/**
 * `sui::vdf` and `sui::rangeproofs`: both are off on Sui mainnet (protocol 135), where
 * they abort with their `ENotSupported` code (vdf: 1, rangeproofs: 0) exactly as here.
 * With the feature flags on, the input checks and gas charges that precede the
 * cryptography are done as upstream; the class-group VDF (fastcrypto-vdf) and the
 * Bulletproofs verifier (merlin transcripts) are not implemented, so the call fails with
 * `UNSUPPORTED_NATIVE` — or, for the verifications in permissive mode, returns `true`.
 */
import { VmError } from '../../../errors.js';
import type { NativeFunction } from '../../registry.js';
import { abort, bytesArg, bytesVecArg, chargeParam, cost, type CryptoEnv, u8Arg } from './common.js';
import { rScalarFromBytes } from './ristretto.js';

function unsupported(name: string, why: string): never {
  throw new VmError('UNSUPPORTED_NATIVE', `${name}: ${why}`);
}

/** The `sui::vdf` natives. */
export function vdfNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    vdf_verify_internal: (ctx) => {
      if (!env.features.enable_vdf) abort(1);
      chargeParam(ctx, env, 'vdf_verify_vdf_cost');
      if (env.permissive) return [true];
      return unsupported('0x2::vdf::vdf_verify_internal', 'class-group VDF verification (fastcrypto-vdf) is not implemented');
    },
    hash_to_input_internal: (ctx) => {
      if (!env.features.enable_vdf) abort(1);
      chargeParam(ctx, env, 'vdf_hash_to_input_cost');
      return unsupported('0x2::vdf::hash_to_input_internal', 'class-group hash-to-group (fastcrypto-vdf) is not implemented');
    },
  };
}

const MAX_PROOF_SIZE = 864;

/**
 * Structure of a dalek `RangeProof` (`from_bytes`): a multiple of 32 bytes, 4 points and 3
 * canonical scalars, then an inner-product proof of 2·k points and 2 canonical scalars.
 */
function wellFormedRangeProof(b: Uint8Array): boolean {
  if (b.length % 32 !== 0 || b.length < 7 * 32) return false;
  const ipp = (b.length - 7 * 32) / 32;
  if (ipp < 2 || (ipp - 2) % 2 !== 0 || (ipp - 2) / 2 >= 32) return false;
  const scalarAt = (i: number) => rScalarFromBytes(b.subarray(32 * i, 32 * i + 32)) !== null;
  return scalarAt(4) && scalarAt(5) && scalarAt(6) && scalarAt(b.length / 32 - 2) && scalarAt(b.length / 32 - 1);
}

const MAX_TOTAL_BITS = 512;

/** The `sui::rangeproofs` natives. */
export function rangeproofsNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    // The binding older frameworks call: upstream keeps it only to abort with NOT_SUPPORTED.
    verify_bulletproofs_ristretto255_internal: () => abort(0),
    verify_bulletproofs_with_dst_ristretto255_internal: (ctx, _t, [proofArg, bitsArg, commitmentsArg]) => {
      if (!env.features.enable_verify_bulletproofs_ristretto255) abort(0);
      chargeParam(ctx, env, 'verify_bulletproofs_ristretto255_base_cost');
      const perBit = cost(env, 'verify_bulletproofs_ristretto255_cost_per_bit_and_commitment');
      if (env.permissive) {
        ctx.charge(perBit * bytesVecArg(commitmentsArg).length * u8Arg(bitsArg));
        return [true];
      }
      const proof = bytesArg(proofArg);
      if (proof.length > MAX_PROOF_SIZE || !wellFormedRangeProof(proof)) abort(1);
      const bits = u8Arg(bitsArg);
      if (![8, 16, 32, 64].includes(bits)) abort(2);
      const n = bytesVecArg(commitmentsArg).length;
      if (n === 0 || (n & (n - 1)) !== 0 || n * bits > MAX_TOTAL_BITS) abort(3);
      ctx.charge(perBit * n * bits);
      return unsupported('0x2::rangeproofs::verify_bulletproofs_with_dst_ristretto255_internal', 'Bulletproofs verification is not implemented');
    },
  };
}

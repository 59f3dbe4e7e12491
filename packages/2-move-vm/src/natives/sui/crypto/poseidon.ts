/**
 * `sui::poseidon` (Poseidon over BN254, circomlib parameters, 1..=16 inputs) and the
 * zkLogin helpers `zklogin_verified_id::check_zklogin_id_internal` and
 * `zklogin_verified_issuer::check_zklogin_issuer_internal` (fastcrypto-zkp `bn254`).
 *
 * Poseidon inputs are 32-byte little-endian canonical field elements; the output is the
 * same encoding. Aborts: 0 non-canonical input (or none), 1 not supported, 2 more than 16.
 *
 * zkLogin address: `blake2b256(0x05 ‖ |iss| ‖ iss ‖ seed as 32 BE bytes)` with
 * `seed = poseidon(H(name, 32), H(value, 115), H(aud, 145), pin_hash)`, where `H(s, n)`
 * packs the code points of `s` (8 bits each, zero-padded to `n`) into 248-bit chunks and
 * hashes them (a Poseidon tree of width 16). Bad strings (not UTF-8, too long, a code
 * point above 255) abort 0; a mismatching address is `false`.
 */
import { createRequire } from 'node:module';
import type { NativeFunction } from '../../registry.js';
import { blake2b256 } from './hash.js';
import { abort, bigArg, bigIntToBe, bigIntToLe, bytesArg, bytesEqual, bytesVecArg, chargeParam, cost, concatBytes, type CryptoEnv, fromHex, leToBigInt, vecU8 } from './common.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** BN254 scalar field modulus. */
const BN254_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

type PoseidonFn = (inputs: bigint[]) => bigint;

/**
 * The hasher of each arity (1..=16), loaded on first use: each one's module parses its round
 * constants (thousands of decimal strings to bigints) when it loads, about 0.2 s for all
 * sixteen, which every process paid at startup although few transactions hash anything.
 * poseidon-lite is CommonJS, so a synchronous `require` loads one arity's module alone.
 */
const HASHERS: (PoseidonFn | undefined)[] = [];
const requireHasher = createRequire(import.meta.url);

function hasher(arity: number): PoseidonFn {
  let f = HASHERS[arity - 1];
  if (f === undefined) {
    const name = `poseidon${arity}`;
    f = (requireHasher(`poseidon-lite/${name}`) as Record<string, PoseidonFn>)[name];
    HASHERS[arity - 1] = f;
  }
  return f;
}

/** Poseidon of 1..=16 field elements (circomlib-compatible). */
export function poseidon(inputs: readonly bigint[]): bigint {
  if (inputs.length === 0 || inputs.length > 16) throw new RangeError(`poseidon: ${inputs.length} inputs`);
  return hasher(inputs.length)([...inputs]);
}

/** fastcrypto's `poseidon_merkle_tree`: chunks of 16 hashed level by level. */
function poseidonTree(inputs: readonly bigint[]): bigint {
  if (inputs.length <= 16) return poseidon(inputs);
  const next: bigint[] = [];
  for (let i = 0; i < inputs.length; i += 16) next.push(poseidon(inputs.slice(i, i + 16)));
  return poseidonTree(next);
}

const MAX_INPUTS = 16;

/** The `sui::poseidon` natives. */
export function poseidonNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    poseidon_bn254_internal: (ctx, _t, [dataArg]) => {
      if (!env.features.enable_poseidon) abort(1);
      chargeParam(ctx, env, 'poseidon_bn254_cost_base');
      const inputs = bytesVecArg(dataArg);
      if (inputs.length > MAX_INPUTS) abort(2);
      ctx.charge(cost(env, 'poseidon_bn254_cost_per_block') * inputs.length);
      if (inputs.length === 0) abort(0);
      const xs = inputs.map((b) => {
        const x = b.length === 32 ? leToBigInt(b) : BN254_R;
        if (x >= BN254_R) abort(0);
        return x;
      });
      return [vecU8(bigIntToLe(poseidon(xs), 32))];
    },
  };
}

const PACK_WIDTH = 248;
const utf8 = new TextDecoder('utf-8', { fatal: true });

class ZkLoginInputError extends SmiError<'ZKLOGIN_INVALID_INPUT'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('ZKLOGIN_INVALID_INPUT', message, options);
  }
}

function decodeUtf8(b: Uint8Array): string {
  try {
    return utf8.decode(b);
  } catch {
    throw new ZkLoginInputError('not UTF-8');
  }
}

/** `hash_ascii_str_to_field(s, maxLen)` of fastcrypto-zkp. */
function hashAsciiStrToField(s: string, maxLen: number): bigint {
  const codes = [...s].map((c) => c.codePointAt(0) as number);
  if (codes.length > maxLen) throw new ZkLoginInputError('string too long');
  if (codes.some((c) => c > 255)) throw new ZkLoginInputError('code point wider than 8 bits');
  let bits = '';
  for (let i = 0; i < maxLen; i++) bits += (codes[i] ?? 0).toString(2).padStart(8, '0');
  const chunks: bigint[] = [];
  for (let end = bits.length; end > 0; end -= PACK_WIDTH) chunks.unshift(BigInt('0b' + bits.slice(Math.max(0, end - PACK_WIDTH), end)));
  return poseidonTree(chunks);
}

/** zkLogin address of an address seed and issuer. */
function zkLoginAddress(addressSeed: bigint, iss: Uint8Array): Uint8Array {
  return blake2b256(concatBytes(Uint8Array.of(0x05, iss.length & 0xff), iss, bigIntToBe(addressSeed % BN254_R, 32)));
}

/** `gen_address_seed_with_salt_hash` of fastcrypto-zkp. */
function zkLoginAddressSeed(pinHash: bigint, name: string, value: string, aud: string): bigint {
  return poseidon([hashAsciiStrToField(name, 32), hashAsciiStrToField(value, 115), hashAsciiStrToField(aud, 145), pinHash % BN254_R]);
}

function addressBytes(a: unknown): Uint8Array {
  return fromHex(String(a).slice(2).padStart(64, '0'));
}

function zkCheck(env: CryptoEnv, compute: () => boolean): unknown[] {
  try {
    if (env.permissive) return [true];
    return [compute()];
  } catch (e) {
    if (e instanceof ZkLoginInputError) abort(0);
    throw e;
  }
}

/** The `sui::zklogin_verified_id` natives. */
export function zkLoginIdNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    check_zklogin_id_internal: (ctx, _t, [addr, nameArg, valueArg, issArg, audArg, pinArg]) => {
      chargeParam(ctx, env, 'check_zklogin_id_cost_base');
      return zkCheck(env, () => {
        const name = decodeUtf8(bytesArg(nameArg));
        const value = decodeUtf8(bytesArg(valueArg));
        const aud = decodeUtf8(bytesArg(audArg));
        const iss = bytesArg(issArg);
        decodeUtf8(iss);
        const seed = zkLoginAddressSeed(bigArg(pinArg), name, value, aud);
        return bytesEqual(zkLoginAddress(seed, iss), addressBytes(addr));
      });
    },
  };
}

/** The `sui::zklogin_verified_issuer` natives. */
export function zkLoginIssuerNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    check_zklogin_issuer_internal: (ctx, _t, [addr, seedArg, issArg]) => {
      chargeParam(ctx, env, 'check_zklogin_issuer_cost_base');
      return zkCheck(env, () => {
        const iss = bytesArg(issArg);
        decodeUtf8(iss);
        return bytesEqual(zkLoginAddress(bigArg(seedArg), iss), addressBytes(addr));
      });
    },
  };
}

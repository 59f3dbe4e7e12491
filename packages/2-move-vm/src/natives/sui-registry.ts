/**
 * One call to get every native a Sui VM needs: move-stdlib (0x1), the Sui framework and
 * system natives (0x2, 0x3) and the crypto natives, with the validator's BLS checks wired
 * to the crypto natives' BLS12-381 implementation.
 */
import * as bls from './sui/crypto/bls12381.js';
import { registerSuiCrypto, type SuiCryptoOptions } from './sui/crypto/index.js';
import { blsMinSigPairingCheck, g1Blst, g2Blst } from './sui/crypto/signatures.js';
import { registerSuiNatives } from './sui/index.js';
import type { BlsMinSigBackend } from './sui/validator.js';
import { registerMoveStdlib } from './move-stdlib.js';
import { NativeRegistry } from './registry.js';

/** Keys and signatures decoded and checked at most this many each (the oldest go first). */
const CHECKED_LIMIT = 256;

/**
 * Decode-and-check results by encoding. Validator metadata names the same keys again and
 * again (a proof of possession's check decodes and subgroup-checks its key three times, and
 * every genesis checks the same validators): each check, a pure function of the bytes, is
 * done once.
 */
function memo<T>(check: (bytes: Uint8Array) => T): (bytes: Uint8Array) => T {
  const seen = new Map<string, T>();
  return (bytes) => {
    const key = Buffer.from(bytes).toString('hex');
    if (seen.has(key)) return seen.get(key) as T;
    const value = check(bytes);
    seen.set(key, value);
    if (seen.size > CHECKED_LIMIT) seen.delete(seen.keys().next().value as string);
    return value;
  };
}

/** A min-sig public key (either encoding) that is not the identity and is in G2's subgroup, or `null`. */
const checkedKey = memo((bytes: Uint8Array): bls.G2 | null => {
  const k = g2Blst(bytes);
  return k !== null && !k.is0() && k.isTorsionFree() ? k : null;
});

/** A min-sig signature (either encoding) in G1's subgroup, or `null`. */
const checkedSignature = memo((bytes: Uint8Array): bls.G1 | null => {
  const s = g1Blst(bytes);
  return s !== null && bls.inSubgroup(s) ? s : null;
});

/** fastcrypto's min-sig BLS12-381 rules on our BLS12-381 code. */
export const blsMinSigBackend: BlsMinSigBackend = {
  isValidPublicKey: (bytes) => bytes.length === 96 && checkedKey(bytes) !== null,
  isValidSignature: (bytes) => bytes.length === 48 && checkedSignature(bytes) !== null,
  // `blsMinSigVerify` with the checked points reused.
  verify: (signature, publicKey, message) => {
    const s = checkedSignature(signature);
    const k = s === null ? null : checkedKey(publicKey);
    return s !== null && k !== null && blsMinSigPairingCheck(s, k, message);
  },
};

/** Options of {@link suiNativeRegistry}. */
export type SuiRegistryOptions = SuiCryptoOptions;

/** A registry with every native of the Sui framework packages. */
export function suiNativeRegistry(options: SuiRegistryOptions = {}): NativeRegistry {
  const registry = registerMoveStdlib(new NativeRegistry());
  registerSuiNatives(registry, { bls: blsMinSigBackend });
  registerSuiCrypto(registry, options);
  return registry;
}

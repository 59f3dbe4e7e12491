/**
 * One call to get every native a Sui VM needs: move-stdlib (0x1), the Sui framework and
 * system natives (0x2, 0x3) and the crypto natives, with the validator's BLS checks wired
 * to the crypto natives' BLS12-381 implementation.
 */
import * as bls from './sui/crypto/bls12381.js';
import { registerSuiCrypto, type SuiCryptoOptions } from './sui/crypto/index.js';
import { blsMinSigVerify, g1Blst, g2Blst } from './sui/crypto/signatures.js';
import { registerSuiNatives } from './sui/index.js';
import type { BlsMinSigBackend } from './sui/validator.js';
import { registerMoveStdlib } from './move-stdlib.js';
import { NativeRegistry } from './registry.js';

/** fastcrypto's min-sig BLS12-381 rules on our BLS12-381 code. */
export const blsMinSigBackend: BlsMinSigBackend = {
  isValidPublicKey: (bytes) => {
    if (bytes.length !== 96) return false;
    const k = g2Blst(bytes);
    return k !== null && !k.is0() && k.isTorsionFree();
  },
  isValidSignature: (bytes) => {
    if (bytes.length !== 48) return false;
    const s = g1Blst(bytes);
    return s !== null && bls.inSubgroup(s);
  },
  verify: (signature, publicKey, message) => blsMinSigVerify(signature, publicKey, message),
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

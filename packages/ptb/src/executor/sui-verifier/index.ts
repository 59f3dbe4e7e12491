/**
 * Sui's own verifier passes over a published or upgraded module (upstream
 * `sui_verify_module_unmetered`), run after the Move bytecode verifier, in upstream's
 * order. A failure throws an {@link ExecutionFailure} of kind `SuiMoveVerificationError`
 * (`InvariantViolation` for the framework invariants of private generics v2) whose
 * message is upstream's.
 *
 * Not implemented: the `id_leak_verifier` pass (an abstract interpretation proving a
 * fresh `UID` is what every object is packed with).
 */
import type { CompiledModule } from '@smi/bytecode';
import type { SuiVerifierConfig } from './config.js';
import { verifyEntryPoints } from './entry-points.js';
import { verifyGlobalStorageAccess } from './global-storage-access.js';
import { verifyOneTimeWitness } from './one-time-witness.js';
import { verifyPrivateGenerics } from './private-generics.js';
import { verifyPrivateGenericsV2 } from './private-generics-v2.js';
import { verifyStructWithKey } from './struct-with-key.js';
import { verifyTxContextRestrictions } from './tx-context-restrictions.js';

export { LATEST_SUI_VERIFIER_CONFIG, suiVerifierConfig } from './config.js';
export type { SuiVerifierConfig } from './config.js';

/**
 * Run every Sui verifier pass on `module`.
 *
 * @throws {ExecutionFailure} `SuiMoveVerificationError` (or `InvariantViolation`) with upstream's message.
 */
export function suiVerifyModule(module: CompiledModule, config: SuiVerifierConfig): void {
  verifyStructWithKey(module);
  verifyGlobalStorageAccess(module);
  if (config.privateGenericsVerifierV2) verifyPrivateGenericsV2(module);
  else verifyPrivateGenerics(module, config);
  verifyEntryPoints(module, config);
  verifyTxContextRestrictions(module, config);
  verifyOneTimeWitness(module);
}


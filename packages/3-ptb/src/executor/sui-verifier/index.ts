/**
 * Sui's own verifier passes over a published or upgraded module (upstream
 * `sui_verify_module_unmetered`), run after the Move bytecode verifier, in upstream's
 * order. A failure throws an {@link ExecutionFailure} of kind `SuiMoveVerificationError`
 * (`InvariantViolation` for the framework invariants of private generics v2) whose
 * message is upstream's.
 *
 * The passes: `struct_with_key`, `global_storage_access`, `id_leak` (an abstract
 * interpretation proving every object is packed with a fresh `UID`), `private_generics`
 * (v1 or v2), `entry_points`, `tx_context_restrictions` and `one_time_witness`.
 */
import type { CompiledModule } from '@smi/bytecode';
import type { SuiVerifierConfig } from './config.js';
import { verifyEntryPoints } from './entry-points.js';
import { verifyGlobalStorageAccess } from './global-storage-access.js';
import { verifyIdLeak } from './id-leak.js';
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
  verifyIdLeak(module);
  if (config.privateGenericsVerifierV2) verifyPrivateGenericsV2(module);
  else verifyPrivateGenerics(module, config);
  verifyEntryPoints(module, config);
  verifyTxContextRestrictions(module, config);
  verifyOneTimeWitness(module);
}

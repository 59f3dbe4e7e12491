/**
 * The bytecode verifier as the IR VM suite runs it at publish: `@smi/bytecode`'s
 * `verifyModule` with upstream's `VerifierConfig::default()` limits (what the Move
 * transactional test harness uses), its errors turned into {@link VmErrorReport}s.
 */
import {
  formatLocation,
  isVerificationError,
  MOVE_DEFAULT_VERIFIER_LIMITS,
  verifyModule,
  type VerificationError,
  type VerifierLimits,
} from '@smi/bytecode';
import type { ModuleVerifier, VmErrorReport } from './ir-vm-adapter.js';

/** A verifier error as an error block of the transcript. */
export function reportOfVerificationError(e: VerificationError): VmErrorReport {
  return {
    majorStatus: e.code,
    location: formatLocation(e.location),
    indices: e.indices.map(([kind, index]) => `(${kind}, ${index})`),
    offsets: e.offsets,
    message: e.detail,
  };
}

/** A {@link ModuleVerifier} running `verifyModule` with `limits` (default: upstream's test defaults). */
export function bytecodeVerifier(limits: Readonly<VerifierLimits> = MOVE_DEFAULT_VERIFIER_LIMITS): ModuleVerifier {
  return (module, dependencies) => {
    try {
      verifyModule(module, { limits, dependencies });
      return undefined;
    } catch (e) {
      if (!isVerificationError(e)) throw e;
      return reportOfVerificationError(e);
    }
  };
}

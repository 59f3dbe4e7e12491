/**
 * The bytecode verifier as the IR VM suite runs it at publish: `@smi/bytecode`'s
 * `verifyModule` with upstream's `VerifierConfig::default()` limits (what the Move
 * transactional test harness uses), its errors turned into {@link VmErrorReport}s.
 */
import { formatLocation, isVerificationError, MOVE_DEFAULT_VERIFIER_LIMITS, verifyModule, type CompiledModule, type VerificationError, type VerifierLimits } from '@smi/bytecode';

/** An error as upstream's `format_vm_error` prints it. */
export interface VmErrorReport {
  /** Upstream `StatusCode` name. */
  majorStatus: string;
  subStatus?: bigint;
  /** `undefined`, `0x42` (package) or `0x42::m` (module). */
  location: string;
  /** `(FunctionHandle, 0)` pairs, as printed. */
  indices?: readonly string[];
  /** `(function definition index, code offset)` pairs. */
  offsets?: readonly (readonly [number, number])[];
  message?: string;
}

/**
 * Verifies a module before it is published. Without `dependencies`: the checks of the
 * module alone; with them: also its linking against them. Returns the first error, or
 * `undefined` when the module passes.
 */
export type ModuleVerifier = (module: CompiledModule, dependencies?: readonly CompiledModule[]) => VmErrorReport | undefined;

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

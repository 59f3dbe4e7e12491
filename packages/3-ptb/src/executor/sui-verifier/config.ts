/**
 * The fields of upstream `VerifierConfig` that Sui's own passes read, derived from the
 * protocol config as `ProtocolConfig::verifier_config` does (feature flags).
 */
import type { ProtocolConfig } from '@smi/move-vm';

export interface SuiVerifierConfig {
  /** `allow_receiving_object_id` (protocol 33+): `transfer::receiving_object_id` is public. */
  allowReceivingObjectId: boolean;
  /** `reject_mutable_random_on_entry_functions`: no `&mut Random` parameter on `entry` functions. */
  rejectMutableRandomOnEntryFunctions: boolean;
  /** `private_generics_verifier_v2` (protocol 100+). */
  privateGenericsVerifierV2: boolean;
  /** `disable_entry_point_signature_check` (protocol 108+). */
  disableEntryPointSignatureCheck: boolean;
  /** `framework_tx_context_mut_restrictions` (protocol 131+). */
  frameworkTxContextMutRestrictions: boolean;
}

/** What the latest protocol version (135) sets: used when the VM has no protocol config. */
export const LATEST_SUI_VERIFIER_CONFIG: Readonly<SuiVerifierConfig> = Object.freeze({
  allowReceivingObjectId: true,
  rejectMutableRandomOnEntryFunctions: true,
  privateGenericsVerifierV2: true,
  disableEntryPointSignatureCheck: true,
  frameworkTxContextMutRestrictions: true,
});

/** The Sui verifier settings of a protocol version (the latest when `null`). */
export function suiVerifierConfig(config: ProtocolConfig | null | undefined): SuiVerifierConfig {
  if (config === null || config === undefined) return { ...LATEST_SUI_VERIFIER_CONFIG };
  return {
    allowReceivingObjectId: config.flag('allow_receiving_object_id'),
    rejectMutableRandomOnEntryFunctions: config.flag('reject_mutable_random_on_entry_functions'),
    privateGenericsVerifierV2: config.flag('private_generics_verifier_v2'),
    disableEntryPointSignatureCheck: config.flag('disable_entry_point_signature_check'),
    frameworkTxContextMutRestrictions: config.flag('framework_tx_context_mut_restrictions'),
  };
}

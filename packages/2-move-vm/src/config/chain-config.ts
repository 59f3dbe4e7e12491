/**
 * Protocol configs of chains other than mainnet. Upstream's `ProtocolConfig::get_for_version`
 * takes a `Chain` (Mainnet, Testnet, Unknown = devnet and local networks) and gates some
 * assignments on it (`if chain != Chain::Mainnet { ... }`); the snapshots we hold are
 * mainnet's. {@link protocolConfigForChain} applies the gated assignments that change
 * execution (natives, the executor, limits and costs), with the later assignments of the
 * same keys, as `crates/sui-protocol-config/src/lib.rs` makes them up to protocol 134.
 * Consensus, checkpoint and signature settings are left out, and so are the devnet-only
 * `group_ops` costs of protocols 36 to 40.
 */
import type { ConfigValue } from './protocol-config.js';
import { ProtocolConfig } from './protocol-config.js';

/** A chain as upstream's test runner names it (`init --chain`). */
export type SuiChain = 'mainnet' | 'testnet' | 'unknown';

/** Which chains an assignment applies to: all, mainnet only, all but mainnet, or devnet only (`Unknown`). */
type Scope = 'all' | 'mainnet' | 'notMainnet' | 'unknown';

/** `[protocol version, chains, key, value]`: booleans are feature flags, numbers values. */
type Assignment = readonly [number, Scope, string, boolean | number];

/** Every assignment of each key below, in version order. */
const ASSIGNMENTS: readonly Assignment[] = [
  [26, 'unknown', 'receive_objects', true],
  [26, 'unknown', 'transfer_receive_object_cost_base', 52],
  [28, 'unknown', 'enable_effects_v2', true],
  [30, 'notMainnet', 'enable_effects_v2', true],
  [31, 'unknown', 'shared_object_deletion', true],
  [32, 'notMainnet', 'receive_objects', true],
  [32, 'notMainnet', 'transfer_receive_object_cost_base', 52],
  [33, 'all', 'receive_objects', true],
  [33, 'all', 'transfer_receive_object_cost_base', 52],
  [33, 'notMainnet', 'shared_object_deletion', true],
  [33, 'all', 'enable_effects_v2', true],
  [35, 'unknown', 'enable_poseidon', true],
  [35, 'unknown', 'poseidon_bn254_cost_base', 260],
  [35, 'unknown', 'poseidon_bn254_cost_per_block', 10],
  [36, 'unknown', 'enable_group_ops_native_functions', true],
  [36, 'unknown', 'enable_group_ops_native_function_msm', true],
  [36, 'all', 'shared_object_deletion', true],
  [41, 'all', 'enable_group_ops_native_functions', true],
  [49, 'unknown', 'move_binary_format_version', 7],
  [49, 'unknown', 'enable_vdf', true],
  [49, 'unknown', 'vdf_verify_vdf_cost', 1500],
  [49, 'unknown', 'vdf_hash_to_input_cost', 100],
  [51, 'unknown', 'enable_coin_deny_list_v2', true],
  [52, 'notMainnet', 'move_binary_format_version', 7],
  [52, 'all', 'enable_coin_deny_list_v2', true],
  [55, 'all', 'move_binary_format_version', 7],
  [68, 'unknown', 'uncompressed_g1_group_elements', true],
  [69, 'notMainnet', 'uncompressed_g1_group_elements', true],
  [70, 'all', 'poseidon_bn254_cost_per_block', 388],
  [74, 'unknown', 'enable_nitro_attestation', true],
  [77, 'all', 'uncompressed_g1_group_elements', true],
  [79, 'notMainnet', 'enable_nitro_attestation', true],
  [83, 'notMainnet', 'resolve_type_input_ids_to_defining_id', true],
  [83, 'notMainnet', 'transfer_party_transfer_internal_cost_base', 52],
  [83, 'notMainnet', 'enable_nitro_attestation_upgraded_parsing', true],
  [83, 'notMainnet', 'enable_nitro_attestation', true],
  [84, 'mainnet', 'resolve_type_input_ids_to_defining_id', true],
  [84, 'mainnet', 'transfer_party_transfer_internal_cost_base', 52],
  [84, 'mainnet', 'enable_nitro_attestation_upgraded_parsing', true],
  [84, 'mainnet', 'enable_nitro_attestation', true],
  [85, 'unknown', 'enable_party_transfer', true],
  [86, 'notMainnet', 'enable_party_transfer', true],
  [94, 'all', 'enable_party_transfer', true],
  [101, 'notMainnet', 'enable_poseidon', true],
  [104, 'all', 'poseidon_bn254_cost_base', 260],
  [104, 'notMainnet', 'enable_nitro_attestation_all_nonzero_pcrs_parsing', true],
  [105, 'notMainnet', 'enable_nitro_attestation_always_include_required_pcrs_parsing', true],
  [106, 'unknown', 'enable_accumulators', true],
  [106, 'unknown', 'enable_address_balance_gas_payments', true],
  [106, 'unknown', 'enable_authenticated_event_streams', true],
  [106, 'unknown', 'enable_object_funds_withdraw', true],
  [108, 'notMainnet', 'address_aliases', true],
  [108, 'notMainnet', 'enable_accumulators', true],
  [108, 'notMainnet', 'enable_address_balance_gas_payments', true],
  [108, 'all', 'enable_poseidon', true],
  [110, 'all', 'enable_nitro_attestation_all_nonzero_pcrs_parsing', true],
  [110, 'all', 'enable_nitro_attestation_always_include_required_pcrs_parsing', true],
  [110, 'notMainnet', 'enable_object_funds_withdraw', true],
  [112, 'unknown', 'enable_ristretto255_group_ops', true],
  [113, 'unknown', 'defer_unpaid_amplification', true],
  [114, 'notMainnet', 'enable_authenticated_event_streams', true],
  [116, 'all', 'address_aliases', true],
  [116, 'all', 'defer_unpaid_amplification', false],
  [119, 'notMainnet', 'enable_gasless', true],
  [119, 'notMainnet', 'gasless_max_computation_units', 50_000],
  [119, 'notMainnet', 'enable_coin_reservation_obj_refs', true],
  [119, 'notMainnet', 'convert_withdrawal_compatibility_ptb_arguments', true],
  [121, 'notMainnet', 'defer_unpaid_amplification', true],
  [121, 'notMainnet', 'gasless_max_tps', 50],
  [122, 'all', 'defer_unpaid_amplification', true],
  [122, 'unknown', 'enable_verify_bulletproofs_ristretto255', true],
  [122, 'all', 'gasless_max_computation_units', 5_000],
  [122, 'all', 'gasless_max_tps', 300],
  [124, 'all', 'enable_accumulators', true],
  [124, 'all', 'enable_address_balance_gas_payments', true],
  [124, 'all', 'enable_authenticated_event_streams', true],
  [124, 'all', 'enable_coin_reservation_obj_refs', true],
  [124, 'all', 'enable_object_funds_withdraw', true],
  [124, 'all', 'convert_withdrawal_compatibility_ptb_arguments', true],
  [124, 'all', 'enable_gasless', true],
  [127, 'notMainnet', 'enable_ristretto255_group_ops', true],
  [127, 'notMainnet', 'enable_verify_bulletproofs_ristretto255', true],
  [134, 'unknown', 'enable_allowances', true],
];

function applies(scope: Scope, chain: SuiChain): boolean {
  switch (scope) {
    case 'all':
      return true;
    case 'mainnet':
      return chain === 'mainnet';
    case 'notMainnet':
      return chain !== 'mainnet';
    case 'unknown':
      return chain === 'unknown';
  }
}

/**
 * `cfg` (a mainnet config) as `chain` has it at the same protocol version. For each key
 * above, the last assignment that applies to `chain` wins; a key only mainnet assigned so
 * far is unset (a flag off); any other key keeps mainnet's value.
 */
export function protocolConfigForChain(cfg: ProtocolConfig, chain: SuiChain): ProtocolConfig {
  if (chain === 'mainnet') return cfg;
  const last = new Map<string, Assignment | null>();
  for (const a of ASSIGNMENTS) {
    const [version, scope, key] = a;
    if (version > cfg.version) break;
    if (applies(scope, chain)) last.set(key, a);
    else if (scope === 'mainnet' && !last.has(key)) last.set(key, null);
  }
  const featureFlags: Record<string, ConfigValue> = { ...cfg.featureFlags };
  const values: Record<string, ConfigValue> = { ...cfg.values };
  for (const [key, a] of last) {
    const isFlag = ASSIGNMENTS.some(([, , k, v]) => k === key && typeof v === 'boolean');
    const target = isFlag ? featureFlags : values;
    if (a === null) delete target[key];
    else target[key] = a[3];
  }
  return new ProtocolConfig({ version: cfg.version, featureFlags, values, header: cfg.header, ...(cfg.file === undefined ? {} : { file: cfg.file }) });
}

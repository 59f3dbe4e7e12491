/**
 * Native cost parameters of the non-crypto Sui natives (`NativesCostTable`), in internal
 * gas units. A native charges the parameters of the protocol config its
 * {@link ObjectRuntime} carries, or, without one, the mainnet protocol-135 values below.
 */
import type { ProtocolConfig } from '../../config/protocol-config.js';
import { invariantViolation } from './errors.js';

/** The cost parameters at mainnet protocol version 135. */
export const PROTOCOL_135_SUI_NATIVE_COSTS = Object.freeze({
  address_from_bytes_cost_base: 52,
  address_to_u256_cost_base: 52,
  address_from_u256_cost_base: 52,
  config_read_setting_impl_cost_base: 100,
  config_read_setting_impl_cost_per_byte: 40,
  package_original_package_id_impl_cost_base: 52,
  package_original_package_id_impl_cost_per_byte: 15,
  dynamic_field_hash_type_and_key_cost_base: 52,
  dynamic_field_hash_type_and_key_type_cost_per_byte: 2,
  dynamic_field_hash_type_and_key_value_cost_per_byte: 2,
  dynamic_field_hash_type_and_key_type_tag_cost_per_byte: 2,
  dynamic_field_add_child_object_cost_base: 52,
  dynamic_field_add_child_object_type_cost_per_byte: 10,
  dynamic_field_add_child_object_value_cost_per_byte: 1,
  dynamic_field_add_child_object_struct_tag_cost_per_byte: 10,
  dynamic_field_borrow_child_object_cost_base: 52,
  dynamic_field_borrow_child_object_child_ref_cost_per_byte: 1,
  dynamic_field_borrow_child_object_type_cost_per_byte: 10,
  dynamic_field_remove_child_object_cost_base: 52,
  dynamic_field_remove_child_object_child_cost_per_byte: 1,
  dynamic_field_remove_child_object_type_cost_per_byte: 2,
  dynamic_field_has_child_object_cost_base: 52,
  dynamic_field_has_child_object_with_ty_cost_base: 52,
  dynamic_field_has_child_object_with_ty_type_cost_per_byte: 2,
  dynamic_field_has_child_object_with_ty_type_tag_cost_per_byte: 2,
  scratch_add_cost_base: 13,
  scratch_read_cost_base: 13,
  scratch_read_value_cost: 1,
  scratch_remove_cost_base: 13,
  scratch_exists_cost_base: 13,
  scratch_exists_with_type_cost_base: 13,
  scratch_exists_with_type_type_cost: 1,
  event_emit_cost_base: 52,
  event_emit_value_size_derivation_cost_per_byte: 2,
  event_emit_tag_size_derivation_cost_per_byte: 5,
  event_emit_output_cost_per_byte: 10,
  event_emit_auth_stream_cost: 52,
  object_borrow_uid_cost_base: 52,
  object_delete_impl_cost_base: 52,
  object_record_new_uid_cost_base: 52,
  object_record_new_uid_from_hash_cost_base: 1,
  transfer_transfer_internal_cost_base: 52,
  transfer_party_transfer_internal_cost_base: 52,
  transfer_freeze_object_cost_base: 52,
  transfer_share_object_cost_base: 52,
  transfer_receive_object_cost_base: 52,
  transfer_receive_object_cost_per_byte: 1,
  transfer_receive_object_type_cost_per_byte: 2,
  tx_context_derive_id_cost_base: 52,
  tx_context_fresh_id_cost_base: 52,
  tx_context_sender_cost_base: 30,
  tx_context_epoch_cost_base: 30,
  tx_context_epoch_timestamp_ms_cost_base: 30,
  tx_context_sponsor_cost_base: 30,
  tx_context_rgp_cost_base: 30,
  tx_context_gas_price_cost_base: 30,
  tx_context_gas_budget_cost_base: 30,
  tx_context_ids_created_cost_base: 30,
  tx_context_replace_cost_base: 30,
  types_is_one_time_witness_cost_base: 52,
  types_is_one_time_witness_type_tag_cost_per_byte: 2,
  types_is_one_time_witness_type_cost_per_byte: 2,
  validator_validate_metadata_cost_base: 20000,
  validator_validate_metadata_data_cost_per_byte: 2,
});

/** Name of a cost parameter of these natives. */
export type SuiNativeCostKey = keyof typeof PROTOCOL_135_SUI_NATIVE_COSTS;

/**
 * The value of cost parameter `key` under `config` (protocol-135 value without a config).
 * @throws {VmError} `UNKNOWN_INVARIANT_VIOLATION_ERROR` when the config lacks it (the
 * native did not exist at that protocol version; upstream: "gas cost is not set").
 */
export function nativeCost(config: ProtocolConfig | null, key: SuiNativeCostKey): number {
  if (config === null) return PROTOCOL_135_SUI_NATIVE_COSTS[key];
  const v = config.optionalInt(key);
  if (v === undefined) throw invariantViolation(`gas cost ${key} is not set at protocol version ${config.version}`);
  return v;
}

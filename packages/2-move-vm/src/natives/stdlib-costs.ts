/**
 * Cost parameters of the move-stdlib natives (upstream `make_stdlib_gas_params_for_protocol_config`),
 * in internal gas units, and which VM's formulas apply. A parameter the protocol config
 * lacks costs 0 (upstream `get_gas_cost_or_default!`: the keys arrived at protocol 53);
 * `type_name_id_base_cost` is the exception: without it the `type_name` id natives do not exist.
 */
import type { ProtocolConfig } from '../config/protocol-config.js';

/** The move-stdlib natives' costs under one protocol version. */
export interface StdlibNativeCosts {
  /**
   * The current VM's formulas (`execution_version >= 4`): `string::index_of` charges the
   * whole haystack before searching. The old VM charged the bytes up to the match.
   */
  readonly latestVm: boolean;
  readonly bcsPerByteSerialized: number;
  readonly bcsLegacyMinOutputSize: number;
  readonly bcsFailure: number;
  readonly debugPrintBase: number;
  readonly debugPrintStackTraceBase: number;
  readonly hashSha2Base: number;
  readonly hashSha2PerByte: number;
  readonly hashSha2LegacyMinInputLen: number;
  readonly hashSha3Base: number;
  readonly hashSha3PerByte: number;
  readonly hashSha3LegacyMinInputLen: number;
  readonly stringCheckUtf8Base: number;
  readonly stringCheckUtf8PerByte: number;
  readonly stringIsCharBoundaryBase: number;
  readonly stringSubStringBase: number;
  readonly stringSubStringPerByte: number;
  readonly stringIndexOfBase: number;
  readonly stringIndexOfPerBytePattern: number;
  readonly stringIndexOfPerByteSearched: number;
  readonly typeNameGetBase: number;
  readonly typeNameGetPerByte: number;
  /** `null`: the `type_name::{defining,original}_id` natives are not available. */
  readonly typeNameIdBase: number | null;
  readonly vectorEmptyBase: number;
  readonly vectorLengthBase: number;
  readonly vectorPushBackBase: number;
  /** Per abstract memory unit of the pushed element (no vector headers, no traversal); 0 turns it off. */
  readonly vectorPushBackLegacyPerUnit: number;
  readonly vectorBorrowBase: number;
  readonly vectorPopBackBase: number;
  readonly vectorDestroyEmptyBase: number;
  readonly vectorSwapBase: number;
}

type NumericKey = Exclude<keyof StdlibNativeCosts, 'latestVm' | 'typeNameIdBase'>;

/** The protocol config key of each parameter. */
const CONFIG_KEYS: Readonly<Record<NumericKey, string>> = {
  bcsPerByteSerialized: 'bcs_per_byte_serialized_cost',
  bcsLegacyMinOutputSize: 'bcs_legacy_min_output_size_cost',
  bcsFailure: 'bcs_failure_cost',
  debugPrintBase: 'debug_print_base_cost',
  debugPrintStackTraceBase: 'debug_print_stack_trace_base_cost',
  hashSha2Base: 'hash_sha2_256_base_cost',
  hashSha2PerByte: 'hash_sha2_256_per_byte_cost',
  hashSha2LegacyMinInputLen: 'hash_sha2_256_legacy_min_input_len_cost',
  hashSha3Base: 'hash_sha3_256_base_cost',
  hashSha3PerByte: 'hash_sha3_256_per_byte_cost',
  hashSha3LegacyMinInputLen: 'hash_sha3_256_legacy_min_input_len_cost',
  stringCheckUtf8Base: 'string_check_utf8_base_cost',
  stringCheckUtf8PerByte: 'string_check_utf8_per_byte_cost',
  stringIsCharBoundaryBase: 'string_is_char_boundary_base_cost',
  stringSubStringBase: 'string_sub_string_base_cost',
  stringSubStringPerByte: 'string_sub_string_per_byte_cost',
  stringIndexOfBase: 'string_index_of_base_cost',
  stringIndexOfPerBytePattern: 'string_index_of_per_byte_pattern_cost',
  stringIndexOfPerByteSearched: 'string_index_of_per_byte_searched_cost',
  typeNameGetBase: 'type_name_get_base_cost',
  typeNameGetPerByte: 'type_name_get_per_byte_cost',
  vectorEmptyBase: 'vector_empty_base_cost',
  vectorLengthBase: 'vector_length_base_cost',
  vectorPushBackBase: 'vector_push_back_base_cost',
  vectorPushBackLegacyPerUnit: 'vector_push_back_legacy_per_abstract_memory_unit_cost',
  vectorBorrowBase: 'vector_borrow_base_cost',
  vectorPopBackBase: 'vector_pop_back_base_cost',
  vectorDestroyEmptyBase: 'vector_destroy_empty_base_cost',
  vectorSwapBase: 'vector_swap_base_cost',
};

/** The costs at mainnet protocol version 135 (the default of a VM without a protocol config). */
export const PROTOCOL_135_STDLIB_COSTS: StdlibNativeCosts = Object.freeze({
  latestVm: true,
  bcsPerByteSerialized: 2,
  bcsLegacyMinOutputSize: 1,
  bcsFailure: 52,
  debugPrintBase: 52,
  debugPrintStackTraceBase: 52,
  hashSha2Base: 52,
  hashSha2PerByte: 2,
  hashSha2LegacyMinInputLen: 1,
  hashSha3Base: 52,
  hashSha3PerByte: 2,
  hashSha3LegacyMinInputLen: 1,
  stringCheckUtf8Base: 52,
  stringCheckUtf8PerByte: 2,
  stringIsCharBoundaryBase: 52,
  stringSubStringBase: 52,
  stringSubStringPerByte: 2,
  stringIndexOfBase: 52,
  stringIndexOfPerBytePattern: 2,
  stringIndexOfPerByteSearched: 2,
  typeNameGetBase: 52,
  typeNameGetPerByte: 2,
  typeNameIdBase: 52,
  vectorEmptyBase: 52,
  vectorLengthBase: 52,
  vectorPushBackBase: 52,
  vectorPushBackLegacyPerUnit: 2,
  vectorBorrowBase: 52,
  vectorPopBackBase: 52,
  vectorDestroyEmptyBase: 52,
  vectorSwapBase: 52,
});

/**
 * Every native free (upstream `GasParameters::zeros()`: what the Move VM's own test harness
 * and `move unit test` run with).
 */
export const ZERO_STDLIB_COSTS: StdlibNativeCosts = Object.freeze({
  ...Object.fromEntries(Object.keys(CONFIG_KEYS).map((k) => [k, 0])),
  latestVm: true,
  typeNameIdBase: 0,
} as unknown as StdlibNativeCosts);

/** The costs `config` sets (missing parameters cost 0; the formulas of the VM its `execution_version` runs). */
export function stdlibNativeCosts(config: ProtocolConfig): StdlibNativeCosts {
  const out: Record<string, number | boolean | null> = { latestVm: (config.optionalInt('execution_version') ?? 0) >= 4 };
  for (const [name, key] of Object.entries(CONFIG_KEYS)) out[name] = config.optionalInt(key) ?? 0;
  out.typeNameIdBase = config.optionalInt('type_name_id_base_cost') ?? null;
  return Object.freeze(out) as unknown as StdlibNativeCosts;
}

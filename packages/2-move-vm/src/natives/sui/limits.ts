/**
 * The limits and feature flags the object runtime and the Sui natives read from the
 * protocol config, with their mainnet protocol-135 values for when no config is given.
 */
import type { ProtocolConfig } from '../../config/protocol-config.js';

/** Limits the runtime enforces (protocol config names). */
export interface ObjectRuntimeLimits {
  max_num_new_move_object_ids: number;
  max_num_deleted_move_object_ids: number;
  max_num_transferred_move_object_ids: number;
  object_runtime_max_num_cached_objects: number;
  object_runtime_max_num_store_entries: number;
  max_num_event_emit: number;
  max_event_emit_size: number;
  /** `undefined` when the protocol has no total limit. */
  max_event_emit_size_total: number | undefined;
  max_move_object_size: number;
  /** `undefined`: no limit. */
  max_scratch_pad_size: number | undefined;
  max_accumulator_type_nodes: number | undefined;
}

/** Mainnet protocol 135 limits (metered transactions). */
export const PROTOCOL_135_OBJECT_RUNTIME_LIMITS: Readonly<ObjectRuntimeLimits> = Object.freeze({
  max_num_new_move_object_ids: 2048,
  max_num_deleted_move_object_ids: 2048,
  max_num_transferred_move_object_ids: 2048,
  object_runtime_max_num_cached_objects: 1000,
  object_runtime_max_num_store_entries: 1000,
  max_num_event_emit: 1024,
  max_event_emit_size: 256000,
  max_event_emit_size_total: 65536000,
  max_move_object_size: 256000,
  max_scratch_pad_size: 16384,
  max_accumulator_type_nodes: 16,
});

/** The `*_system_tx` variants used for unmetered (system) transactions. */
const SYSTEM_TX_LIMITS: Readonly<Partial<Record<keyof ObjectRuntimeLimits, string>>> = {
  max_num_new_move_object_ids: 'max_num_new_move_object_ids_system_tx',
  max_num_deleted_move_object_ids: 'max_num_deleted_move_object_ids_system_tx',
  max_num_transferred_move_object_ids: 'max_num_transferred_move_object_ids_system_tx',
  object_runtime_max_num_cached_objects: 'object_runtime_max_num_cached_objects_system_tx',
  object_runtime_max_num_store_entries: 'object_runtime_max_num_store_entries_system_tx',
};

/** Feature flags the natives consult, with their protocol-135 values. */
export const PROTOCOL_135_NATIVE_FLAGS: Readonly<Record<string, boolean>> = Object.freeze({
  hardened_otw_check: true,
  enable_party_transfer: true,
  enable_accumulators: true,
  enable_authenticated_event_streams: true,
  object_runtime_charge_cache_load_gas: true,
  abstract_size_in_object_runtime: true,
  early_return_receive_object_mismatched_type: true,
  minimize_child_object_mutations: true,
});

/**
 * The limits under `cfg` (protocol 135 without one); `isMetered = false` takes the
 * system-transaction variants where they exist.
 */
export function readObjectRuntimeLimits(cfg: ProtocolConfig | null, isMetered: boolean): ObjectRuntimeLimits {
  const d = PROTOCOL_135_OBJECT_RUNTIME_LIMITS;
  if (cfg === null) return { ...d };
  const num = (key: keyof ObjectRuntimeLimits): number => {
    const sys = SYSTEM_TX_LIMITS[key];
    const name = !isMetered && sys !== undefined ? sys : key;
    return cfg.optionalInt(name) ?? cfg.optionalInt(key) ?? (d[key] as number);
  };
  return {
    max_num_new_move_object_ids: num('max_num_new_move_object_ids'),
    max_num_deleted_move_object_ids: num('max_num_deleted_move_object_ids'),
    max_num_transferred_move_object_ids: num('max_num_transferred_move_object_ids'),
    object_runtime_max_num_cached_objects: num('object_runtime_max_num_cached_objects'),
    object_runtime_max_num_store_entries: num('object_runtime_max_num_store_entries'),
    max_num_event_emit: num('max_num_event_emit'),
    max_event_emit_size: num('max_event_emit_size'),
    max_event_emit_size_total: cfg.optionalInt('max_event_emit_size_total'),
    max_move_object_size: num('max_move_object_size'),
    max_scratch_pad_size: cfg.optionalInt('max_scratch_pad_size'),
    max_accumulator_type_nodes: cfg.optionalInt('max_accumulator_type_nodes'),
  };
}

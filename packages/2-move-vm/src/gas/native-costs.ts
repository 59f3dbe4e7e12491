/**
 * Cost formulas of the natives met so far (move-stdlib and Sui framework), in internal
 * gas, with their parameters read from the protocol config (`NativesCostTable`).
 *
 * A native's cost is what it reports (`context.gas_used()`); the meter adds the `Call`
 * charge, {@link GasMeter.chargeNativeBefore} and the return-value pushes around it (see
 * `gas-meter.ts`). Every formula takes the sizes it needs as numbers, because which size
 * function applies changed with the VM:
 * - type size (`Type::size()`): {@link typeSize} — 1 per node, in every version;
 * - type tag size (`abstract_size_for_gas_metering`): {@link typeTagAbstractSize};
 * - value size: the old VM's natives (execution version <= 3, so protocol <= 118, and the
 *   `sui move test` traces) used `Value::legacy_size` ({@link legacyValueSize}); the current
 *   natives use `abstract_size` = {@link abstractMemorySize} with
 *   {@link nativeAbstractSizeConfig}, and `add_child_object` now charges a flat
 *   `PRE_EXISTING_ABSTRACT_SIZE` = 2 for the child.
 *
 * Natives that do work before failing charge only what they reached (`native_charge_gas_early_exit!`
 * stops with `OUT_OF_GAS` when the charge passes the gas left when the native started).
 */
import type { ProtocolConfig } from '../config/protocol-config.js';

/** A type as the natives see it after instantiation (the tracer's JSON type-tag shape). */
export type GasTypeTag = 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256' | 'address' | 'signer' | { readonly vector: GasTypeTag } | { readonly struct: GasStructTag };

/** A struct tag: address (hex, any form), module, name, type arguments. */
export interface GasStructTag {
  readonly address: string;
  readonly module: string;
  readonly name: string;
  readonly type_args: readonly GasTypeTag[];
}

/** `Type::size()`: 1 per node (a non-generic datatype is one node; type arguments add theirs). */
export function typeSize(t: GasTypeTag): number {
  if (typeof t === 'string') return 1;
  if ('vector' in t) return 1 + typeSize(t.vector);
  let n = 1;
  for (const a of t.struct.type_args) n += typeSize(a);
  return n;
}

/** `TYPETAG_ENUM_ABSTRACT_SIZE` = `ENUM_BASE_ABSTRACT_SIZE` (8) + `BOX_ABSTRACT_SIZE` (16). */
const TYPETAG_ENUM_ABSTRACT_SIZE = 24;
/** `AccountAddress::LENGTH`, the address part of a struct tag's size. */
const ADDRESS_LENGTH = 32;

/** `TypeTag::abstract_size_for_gas_metering`: 24 + (0 | inner tag | struct tag). */
export function typeTagAbstractSize(t: GasTypeTag): number {
  if (typeof t === 'string') return TYPETAG_ENUM_ABSTRACT_SIZE;
  if ('vector' in t) return TYPETAG_ENUM_ABSTRACT_SIZE + typeTagAbstractSize(t.vector);
  return TYPETAG_ENUM_ABSTRACT_SIZE + structTagAbstractSize(t.struct);
}

/** `StructTag::abstract_size_for_gas_metering`: 32 + |module| + |name| + the type-argument tags. */
export function structTagAbstractSize(s: GasStructTag): number {
  let n = ADDRESS_LENGTH + s.module.length + s.name.length;
  for (const a of s.type_args) n += typeTagAbstractSize(a);
  return n;
}

/** `tx_context` natives and their cost keys (each costs its base only). */
const TX_CONTEXT_NATIVE_COST_KEYS: Readonly<Record<string, string>> = Object.freeze({
  native_sender: 'tx_context_sender_cost_base',
  native_epoch: 'tx_context_epoch_cost_base',
  native_epoch_timestamp_ms: 'tx_context_epoch_timestamp_ms_cost_base',
  native_sponsor: 'tx_context_sponsor_cost_base',
  native_rgp: 'tx_context_rgp_cost_base',
  native_gas_price: 'tx_context_gas_price_cost_base',
  native_gas_budget: 'tx_context_gas_budget_cost_base',
  native_ids_created: 'tx_context_ids_created_cost_base',
  replace: 'tx_context_replace_cost_base',
  fresh_id: 'tx_context_fresh_id_cost_base',
  derive_id: 'tx_context_derive_id_cost_base',
  last_created_id: 'tx_context_derive_id_cost_base',
});

/** Base-only natives of `0x2::{object,transfer,address}` and their cost keys. */
const BASE_ONLY_NATIVE_COST_KEYS: Readonly<Record<string, string>> = Object.freeze({
  'object::borrow_uid': 'object_borrow_uid_cost_base',
  'object::delete_impl': 'object_delete_impl_cost_base',
  'object::record_new_uid': 'object_record_new_uid_cost_base',
  'transfer::transfer_impl': 'transfer_transfer_internal_cost_base',
  'transfer::party_transfer_impl': 'transfer_party_transfer_internal_cost_base',
  'transfer::freeze_object_impl': 'transfer_freeze_object_cost_base',
  'transfer::share_object_impl': 'transfer_share_object_cost_base',
  'address::from_bytes': 'address_from_bytes_cost_base',
  'address::to_u256': 'address_to_u256_cost_base',
  'address::from_u256': 'address_from_u256_cost_base',
  'string::internal_is_char_boundary': 'string_is_char_boundary_base_cost',
});

/**
 * Native cost formulas over one protocol version's parameters. Missing parameters (a
 * native that did not exist yet) raise `PROTOCOL_CONFIG_MISSING_KEY` when used.
 */
export class NativeCostSchedule {
  private readonly params = new Map<string, number>();

  constructor(readonly config: ProtocolConfig) {}

  /** A cost parameter (internal gas, or bytes for `bcs_legacy_min_output_size_cost`). */
  param(key: string): number {
    let v = this.params.get(key);
    if (v === undefined) {
      v = this.config.int(key);
      this.params.set(key, v);
    }
    return v;
  }

  /** A `tx_context` native by Move name (`native_sender`, `fresh_id`...). */
  txContext(functionName: string): number {
    const key = TX_CONTEXT_NATIVE_COST_KEYS[functionName];
    if (key === undefined) throw new RangeError(`no cost formula for tx_context::${functionName}`);
    return this.param(key);
  }

  /** A base-only native by `module::function` (see {@link BASE_ONLY_NATIVE_COST_KEYS}). */
  baseOnly(moduleAndFunction: string): number {
    const key = BASE_ONLY_NATIVE_COST_KEYS[moduleAndFunction];
    if (key === undefined) throw new RangeError(`no base-only cost formula for ${moduleAndFunction}`);
    return this.param(key);
  }

  /** `std::string::internal_check_utf8`: base + per byte × length. */
  stringCheckUtf8(byteLength: number): number {
    return this.param('string_check_utf8_base_cost') + this.param('string_check_utf8_per_byte_cost') * byteLength;
  }

  /** `std::string::internal_sub_string(s, i, j)`: base, + per byte × (j − i) when `j >= i`. */
  stringSubString(i: number, j: number): number {
    const base = this.param('string_sub_string_base_cost');
    return j < i ? base : base + this.param('string_sub_string_per_byte_cost') * (j - i);
  }

  /**
   * `std::string::internal_index_of(s, r)` as the old VM (execution version <= 3, the VM
   * traces) charged it: base + per pattern byte × |r| + per searched byte × position, where
   * position is the match index, or |s| when there is none. The current VM charges |s|
   * whatever the match (the native, `natives/move-stdlib.ts`, does both).
   */
  stringIndexOf(patternLength: number, position: number): number {
    return this.param('string_index_of_base_cost') + this.param('string_index_of_per_byte_pattern_cost') * patternLength + this.param('string_index_of_per_byte_searched_cost') * position;
  }

  /** `std::bcs::to_bytes`: per byte × max(serialized length, legacy minimum); failure: `bcs_failure_cost`. */
  bcsToBytes(serializedLength: number | 'failure'): number {
    if (serializedLength === 'failure') return this.param('bcs_failure_cost');
    return this.param('bcs_per_byte_serialized_cost') * Math.max(serializedLength, this.param('bcs_legacy_min_output_size_cost'));
  }

  /** `sui::types::is_one_time_witness<T>`: base + per type node × size(T) + per tag byte × tag size(T). */
  typesIsOneTimeWitness(t: GasTypeTag): number {
    return (
      this.param('types_is_one_time_witness_cost_base') +
      this.param('types_is_one_time_witness_type_cost_per_byte') * typeSize(t) +
      this.param('types_is_one_time_witness_type_tag_cost_per_byte') * typeTagAbstractSize(t)
    );
  }

  /** `dynamic_field::hash_type_and_key<K>(parent, k)`: base + per type node × size(K) + per value byte × size(k) + per tag byte × tag size(K). */
  dynamicFieldHashTypeAndKey(keyType: GasTypeTag, keyValueSize: number): number {
    return (
      this.param('dynamic_field_hash_type_and_key_cost_base') +
      this.param('dynamic_field_hash_type_and_key_type_cost_per_byte') * typeSize(keyType) +
      this.param('dynamic_field_hash_type_and_key_value_cost_per_byte') * keyValueSize +
      this.param('dynamic_field_hash_type_and_key_type_tag_cost_per_byte') * typeTagAbstractSize(keyType)
    );
  }

  /**
   * `dynamic_field::add_child_object<Child>(parent, child)`: base + per value byte ×
   * `childValueSize` (old VM: legacy size of the child; now the constant 2) + per type node
   * × size(Child) + per struct-tag byte × struct tag size(Child).
   */
  dynamicFieldAddChildObject(childType: GasStructTag, childValueSize: number): number {
    return (
      this.param('dynamic_field_add_child_object_cost_base') +
      this.param('dynamic_field_add_child_object_value_cost_per_byte') * childValueSize +
      this.param('dynamic_field_add_child_object_type_cost_per_byte') * typeSize({ struct: childType }) +
      this.param('dynamic_field_add_child_object_struct_tag_cost_per_byte') * structTagAbstractSize(childType)
    );
  }

  /**
   * `dynamic_field::borrow_child_object(_mut)<Child>`: base + per type node × size(Child) +
   * per byte × `childRefSize` (old VM: 8, the reference's legacy size; now 8 for a value
   * already cached, else the traversed size of the reference) + `loadedBytes` (the bytes of
   * a child loaded from storage, at least 1, when `object_runtime_charge_cache_load_gas` is on).
   */
  dynamicFieldBorrowChildObject(childType: GasTypeTag, childRefSize: number, loadedBytes = 0): number {
    return (
      this.param('dynamic_field_borrow_child_object_cost_base') +
      this.param('dynamic_field_borrow_child_object_type_cost_per_byte') * typeSize(childType) +
      this.param('dynamic_field_borrow_child_object_child_ref_cost_per_byte') * childRefSize +
      loadedBytes
    );
  }

  /** `dynamic_field::remove_child_object<Child>`: base + per type node × size(Child) + per byte × `childSize` + `loadedBytes`. */
  dynamicFieldRemoveChildObject(childType: GasTypeTag, childSize: number, loadedBytes = 0): number {
    return (
      this.param('dynamic_field_remove_child_object_cost_base') +
      this.param('dynamic_field_remove_child_object_type_cost_per_byte') * typeSize(childType) +
      this.param('dynamic_field_remove_child_object_child_cost_per_byte') * childSize +
      loadedBytes
    );
  }

  /** `dynamic_field::has_child_object(parent, id)`: base + `loadedBytes`. */
  dynamicFieldHasChildObject(loadedBytes = 0): number {
    return this.param('dynamic_field_has_child_object_cost_base') + loadedBytes;
  }

  /** `dynamic_field::has_child_object_with_ty<Child>`: base + per type node × size + per tag byte × struct tag size + `loadedBytes`. */
  dynamicFieldHasChildObjectWithTy(childType: GasStructTag, loadedBytes = 0): number {
    return (
      this.param('dynamic_field_has_child_object_with_ty_cost_base') +
      this.param('dynamic_field_has_child_object_with_ty_type_cost_per_byte') * typeSize({ struct: childType }) +
      this.param('dynamic_field_has_child_object_with_ty_type_tag_cost_per_byte') * structTagAbstractSize(childType) +
      loadedBytes
    );
  }
}

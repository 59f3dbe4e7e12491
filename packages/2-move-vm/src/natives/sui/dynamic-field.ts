/**
 * Natives of `0x2::dynamic_field`, `0x2::config` and `0x2::scratch`, after upstream
 * `dynamic_field.rs`, `config.rs` and `scratch/`: children live in the
 * {@link ObjectRuntime}'s child store as runtime values, so a `&mut Child` borrowed here
 * writes in place; loading from storage goes through the runtime's child provider.
 *
 * Abort codes: `dynamic_field` EFieldDoesNotExist 1, EFieldTypeMismatch 2 (EFieldAlreadyExists
 * 0 is raised by the Move code before `add_child_object`); `scratch` EEntryAlreadyExists 0,
 * EEntryDoesNotExist 1, EEntryTypeMismatch 2.
 */
import { copyValue } from '../../values/value.js';
import type { Type } from '../../types/runtime-type.js';
import type { NativeContext, NativeFunction } from '../registry.js';
import { MemoryLimitSubStatus, invariantViolation, memoryLimitError } from './errors.js';
import { abort, charge, chargeCacheOrLoad, costOf, legacySizes, objectRuntimeSize, runtime } from './native-env.js';
import { legacyRuntimeValueSize } from '../../gas/value-size.js';
import { hashTypeAndKey, structTagAbstractSize, structTagOf, typeKey, typeTagAbstractSize, typeTagOf } from './type-tag.js';
import { abstractSize, argAddress, argU64, objectIdOf, optionNone, optionValue, uidAddress } from './values.js';

/** Upstream `PRE_EXISTING_ABSTRACT_SIZE`: what `add_child_object` charges for the child, and `remove` for a cached one. */
const PRE_EXISTING_ABSTRACT_SIZE = 2;
/** Upstream `BORROW_ABSTRACT_SIZE`: the size charged for borrowing a cached child. */
const BORROW_ABSTRACT_SIZE = 8;

function borrowChild(ctx: NativeContext, native: string, t: Type, uid: unknown, id: unknown): unknown[] {
  charge(ctx, 'dynamic_field_borrow_child_object_cost_base');
  const child = argAddress(id);
  const parent = uidAddress(uid);
  charge(ctx, 'dynamic_field_borrow_child_object_type_cost_per_byte', t.nodes);
  structTagOf(t);
  const rt = runtime(ctx, native);
  const r = rt.children.getOrFetch(parent, child, t, ctx);
  if (r.kind === 'mismatchedType') abort(2);
  if (r.entry.value === undefined) abort(1);
  chargeCacheOrLoad(ctx, rt, r.cache);
  // Old VM (legacy sizes): the reference's legacy size, 8.
  const size = r.cache.kind === 'cachedValue' || legacySizes(ctx) ? BORROW_ABSTRACT_SIZE : BORROW_ABSTRACT_SIZE + abstractSize(ctx.types, r.entry.value, t);
  charge(ctx, 'dynamic_field_borrow_child_object_child_ref_cost_per_byte', size);
  return [r.entry.value];
}

/** `sui::dynamic_field`. */
export const dynamicFieldNatives: Record<string, NativeFunction> = {
  hash_type_and_key: (ctx, [k], [parent, key]) => {
    charge(ctx, 'dynamic_field_hash_type_and_key_cost_base');
    charge(ctx, 'dynamic_field_hash_type_and_key_type_cost_per_byte', k.nodes);
    charge(ctx, 'dynamic_field_hash_type_and_key_value_cost_per_byte', objectRuntimeSize(ctx, key, k));
    const tag = typeTagOf(k);
    charge(ctx, 'dynamic_field_hash_type_and_key_type_tag_cost_per_byte', typeTagAbstractSize(tag));
    return [hashTypeAndKey(argAddress(parent), tag, ctx.bcs.encode(key, k))];
  },
  add_child_object: (ctx, [t], [parent, child]) => {
    charge(ctx, 'dynamic_field_add_child_object_cost_base');
    charge(ctx, 'dynamic_field_add_child_object_value_cost_per_byte', legacySizes(ctx) ? legacyRuntimeValueSize(ctx.types, child, t) : PRE_EXISTING_ABSTRACT_SIZE);
    const id = objectIdOf(child);
    charge(ctx, 'dynamic_field_add_child_object_type_cost_per_byte', t.nodes);
    const tag = structTagOf(t);
    charge(ctx, 'dynamic_field_add_child_object_struct_tag_cost_per_byte', structTagAbstractSize(tag));
    runtime(ctx, '0x2::dynamic_field::add_child_object').children.add(argAddress(parent), id, t, child);
    return [];
  },
  borrow_child_object: (ctx, [t], [uid, id]) => borrowChild(ctx, '0x2::dynamic_field::borrow_child_object', t, uid, id),
  borrow_child_object_mut: (ctx, [t], [uid, id]) => borrowChild(ctx, '0x2::dynamic_field::borrow_child_object_mut', t, uid, id),
  remove_child_object: (ctx, [t], [parentArg, id]) => {
    charge(ctx, 'dynamic_field_remove_child_object_cost_base');
    const child = argAddress(id);
    const parent = argAddress(parentArg);
    charge(ctx, 'dynamic_field_remove_child_object_type_cost_per_byte', t.nodes);
    structTagOf(t);
    const rt = runtime(ctx, '0x2::dynamic_field::remove_child_object');
    const r = rt.children.getOrFetch(parent, child, t, ctx);
    if (r.kind === 'mismatchedType') abort(2);
    const value = r.entry.value;
    if (value === undefined) abort(1);
    r.entry.value = undefined;
    chargeCacheOrLoad(ctx, rt, r.cache);
    const size = legacySizes(ctx) ? legacyRuntimeValueSize(ctx.types, value, t) : r.cache.kind === 'cachedValue' ? PRE_EXISTING_ABSTRACT_SIZE : abstractSize(ctx.types, value, t);
    charge(ctx, 'dynamic_field_remove_child_object_child_cost_per_byte', size);
    return [value];
  },
  has_child_object: (ctx, _t, [parent, id]) => {
    charge(ctx, 'dynamic_field_has_child_object_cost_base');
    const rt = runtime(ctx, '0x2::dynamic_field::has_child_object');
    const r = rt.children.exists(argAddress(parent), argAddress(id));
    chargeCacheOrLoad(ctx, rt, r.cache);
    return [r.exists];
  },
  has_child_object_with_ty: (ctx, [t], [parent, id]) => {
    charge(ctx, 'dynamic_field_has_child_object_with_ty_cost_base');
    const child = argAddress(id);
    const p = argAddress(parent);
    charge(ctx, 'dynamic_field_has_child_object_with_ty_type_cost_per_byte', t.nodes);
    const tag = structTagOf(t);
    charge(ctx, 'dynamic_field_has_child_object_with_ty_type_tag_cost_per_byte', structTagAbstractSize(tag));
    const rt = runtime(ctx, '0x2::dynamic_field::has_child_object_with_ty');
    const r = rt.children.existsWithType(p, child, t);
    chargeCacheOrLoad(ctx, rt, r.cache);
    return [r.exists];
  },
};

function structFields(v: unknown, n: number, what: string): unknown[] {
  if (!Array.isArray(v) || v.length !== n) throw invariantViolation(`struct expected to have ${n} fields (${what})`);
  return v;
}

/**
 * `sui::config`: `read_setting_impl<Field<Name, Setting<V>>, Setting<V>, SettingData<V>, V>`
 * reads the setting's dynamic field from storage (latest version, never this
 * transaction's writes) and returns the value for the current epoch: the newer value once
 * `current_epoch > newer_value_epoch`, the older one before.
 */
export const configNatives: Record<string, NativeFunction> = {
  read_setting_impl: (ctx, [fieldSettingType, , , valueType], [config, name, epoch]) => {
    costOf(ctx, 'config_read_setting_impl_cost_per_byte');
    charge(ctx, 'config_read_setting_impl_cost_base');
    const currentEpoch = argU64(epoch);
    structTagOf(fieldSettingType);
    const rt = runtime(ctx, '0x2::config::read_setting_impl');
    const field = rt.children.readConfigSetting(argAddress(config), argAddress(name), fieldSettingType, ctx);
    let result: unknown = optionNone(valueType);
    if (field !== undefined) {
      const [, , setting] = structFields(field, 3, 'Field');
      const [dataOpt] = structFields(setting, 1, 'Setting');
      const data = optionValue(dataOpt);
      if (data !== undefined) {
        const [newerEpoch, newerValue, olderValue] = structFields(data, 3, 'SettingData');
        result = currentEpoch > (newerEpoch as bigint) ? newerValue : olderValue;
      }
    }
    const optionVec = (result as unknown[])[0];
    const size = 2 + objectRuntimeSize(ctx, optionVec, ctx.types.vector(valueType));
    charge(ctx, 'config_read_setting_impl_cost_per_byte', size);
    return [result];
  },
};

/** `sui::scratch`: a per-transaction map from hashed keys to typed values. */
export const scratchNatives: Record<string, NativeFunction> = {
  add_impl: (ctx, [t], [key, value]) => {
    charge(ctx, 'scratch_add_cost_base');
    const r = runtime(ctx, '0x2::scratch::add_impl').scratchAdd(argAddress(key), t, value);
    if (r === 'duplicate') abort(0);
    if (r === 'limit') throw memoryLimitError(MemoryLimitSubStatus.SCRATCH_SIZE_LIMIT_EXCEEDED, 'Per-transaction scratch size limit was exceeded');
    return [];
  },
  read_impl: (ctx, [t], [key]) => {
    costOf(ctx, 'scratch_read_value_cost');
    charge(ctx, 'scratch_read_cost_base');
    const e = runtime(ctx, '0x2::scratch::read_impl').scratchGet(argAddress(key));
    if (e === undefined) abort(1);
    if (e.key !== typeKey(t)) abort(2);
    charge(ctx, 'scratch_read_value_cost', abstractSize(ctx.types, e.value, t));
    return [copyValue(e.value)];
  },
  remove_impl: (ctx, [t], [key]) => {
    charge(ctx, 'scratch_remove_cost_base');
    const e = runtime(ctx, '0x2::scratch::remove_impl').scratchRemove(argAddress(key));
    if (e === undefined) abort(1);
    if (e.key !== typeKey(t)) abort(2);
    return [e.value];
  },
  exists_impl: (ctx, _t, [key]) => {
    charge(ctx, 'scratch_exists_cost_base');
    return [runtime(ctx, '0x2::scratch::exists_impl').scratchGet(argAddress(key)) !== undefined];
  },
  exists_with_type_impl: (ctx, [t], [key]) => {
    costOf(ctx, 'scratch_exists_with_type_type_cost');
    charge(ctx, 'scratch_exists_with_type_cost_base');
    charge(ctx, 'scratch_exists_with_type_type_cost', t.nodes);
    const e = runtime(ctx, '0x2::scratch::exists_with_type_impl').scratchGet(argAddress(key));
    return [e !== undefined && e.key === typeKey(t)];
  },
};

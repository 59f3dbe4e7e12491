/**
 * Plumbing shared by the Sui natives: the object runtime of the call, gas charges from
 * the cost table, the load charge of children read from storage.
 */
import { NativeAbort } from '../../errors.js';
import { legacyRuntimeValueSize } from '../../gas/value-size.js';
import type { Type } from '../../types/runtime-type.js';
import type { NativeContext } from '../registry.js';
import { abstractSize } from './values.js';
import type { CacheInfo } from './child-store.js';
import { nativeCost, type SuiNativeCostKey } from './costs.js';
import { findObjectRuntime, type ObjectRuntime, requireObjectRuntime } from './object-runtime.js';

/** The call's object runtime (required). */
export function runtime(ctx: NativeContext, native: string): ObjectRuntime {
  return requireObjectRuntime(ctx.extensions, native);
}

/** Cost parameters upstream reads with `..._as_option().unwrap_or(0)`: 0 at protocol versions without them. */
const ZERO_WHEN_UNSET: ReadonlySet<SuiNativeCostKey> = new Set<SuiNativeCostKey>([
  'transfer_receive_object_cost_base',
  'transfer_receive_object_cost_per_byte',
  'transfer_receive_object_type_cost_per_byte',
]);

/** Cost parameter `key` (the runtime's protocol config, else protocol 135). */
export function costOf(ctx: NativeContext, key: SuiNativeCostKey): number {
  const config = findObjectRuntime(ctx.extensions)?.protocolConfig ?? null;
  if (config !== null && ZERO_WHEN_UNSET.has(key) && config.optionalInt(key) === undefined) return 0;
  return nativeCost(config, key);
}

/** Charge `key × times` (`native_charge_gas_early_exit!`). */
export function charge(ctx: NativeContext, key: SuiNativeCostKey, times = 1): void {
  const units = costOf(ctx, key) * times;
  if (units > 0) ctx.charge(units);
}

/**
 * Upstream `charge_cache_or_load_gas!`: a child loaded from storage in this call costs its
 * size in bytes (at least 1) when `object_runtime_charge_cache_load_gas` is on.
 */
export function chargeCacheOrLoad(ctx: NativeContext, rt: ObjectRuntime, cache: CacheInfo): void {
  if (cache.kind !== 'loaded' || !rt.flag('object_runtime_charge_cache_load_gas')) return;
  ctx.charge(Math.max(cache.bytes ?? 0, 1));
}

/**
 * The size the object-runtime natives charge for a value (upstream `abstract_size`): its
 * abstract size, or the old VM's legacy size while `abstract_size_in_object_runtime` is off.
 */
export function objectRuntimeSize(ctx: NativeContext, value: unknown, t: Type): number {
  return legacySizes(ctx) ? legacyRuntimeValueSize(ctx.types, value, t) : abstractSize(ctx.types, value, t);
}

/** Whether the natives charge legacy sizes (`abstract_size_in_object_runtime` off). */
export function legacySizes(ctx: NativeContext): boolean {
  const rt = findObjectRuntime(ctx.extensions);
  return rt !== undefined && rt !== null && !rt.flag('abstract_size_in_object_runtime');
}

/** Abort the native with `code`. */
export function abort(code: number): never {
  throw new NativeAbort(code);
}

/**
 * Native function registry. Natives are keyed by `address::module::function` with the
 * address in canonical form. A declared native the registry lacks fails, when called,
 * with `MISSING_NATIVE_FUNCTION` naming it; never silently.
 */
import { canonicalAddress } from '@smi/bytecode';
import type { BcsCodec } from '../values/bcs.js';
import type { StdlibNativeCosts } from './stdlib-costs.js';
import type { Type, TypeTable } from '../types/runtime-type.js';

/** What a native sees of the VM. */
export interface NativeContext {
  readonly types: TypeTable;
  readonly bcs: BcsCodec;
  /** Cost parameters of the move-stdlib natives under the VM's protocol config. */
  readonly costs: StdlibNativeCosts;
  /** Runtime limits of the running call (vector length, value depth, ...). */
  readonly limits: { readonly maxVectorLength: number; readonly maxValueDepth: number | null };
  /** Charge `units` of gas (throws `OUT_OF_GAS` when exhausted). */
  charge(units: number): void;
  /** Type tag text of a type (`formatType` options). */
  typeTag(t: Type, options?: { originalIds?: boolean; address?: 'full' | 'short' | 'bare'; separator?: string }): string;
  /** Original id of the package that holds `address` (the address itself when unknown). */
  originalIdOf(address: string): string;
  /** Output of `0x1::debug` natives. */
  debugPrint(line: string): void;
  /** Per-call extensions (the Sui runtime hangs its object runtime here). */
  readonly extensions: Map<string, unknown>;
  /** Stack trace text of the running frames (for `debug::print_stack_trace`). */
  stackTrace(): string;
}

/**
 * A native: receives the type arguments and the argument values (references as
 * references), returns the result values. Aborts by throwing {@link NativeAbort}.
 */
export type NativeFunction = (ctx: NativeContext, typeArgs: readonly Type[], args: unknown[]) => unknown[];

/** Map of natives by `0x<64 hex>::module::function`. */
export class NativeRegistry {
  private readonly map = new Map<string, NativeFunction>();

  /** Key of a native. */
  static key(address: string, module: string, name: string): string {
    return `${canonicalAddress(address)}::${module}::${name}`;
  }

  /** Register (or replace) a native. */
  register(address: string, module: string, name: string, fn: NativeFunction): this {
    this.map.set(NativeRegistry.key(address, module, name), fn);
    return this;
  }

  /** Register every entry of `natives` under `address::module`. */
  registerModule(address: string, module: string, natives: Readonly<Record<string, NativeFunction>>): this {
    for (const [name, fn] of Object.entries(natives)) this.register(address, module, name, fn);
    return this;
  }

  /** The native, or `undefined`. */
  get(address: string, module: string, name: string): NativeFunction | undefined {
    return this.map.get(NativeRegistry.key(address, module, name));
  }

  /** Every registered key, sorted. */
  keys(): string[] {
    return [...this.map.keys()].sort();
  }

  /** A copy of this registry (to extend without changing the original). */
  clone(): NativeRegistry {
    const r = new NativeRegistry();
    for (const [k, v] of this.map) r.map.set(k, v);
    return r;
  }
}

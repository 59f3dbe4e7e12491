/**
 * Source-level declarations of the framework that bytecode does not keep, re-added to
 * its stubs so that code written against the real framework compiles against them:
 *
 * - `#[defines_primitive(T)]` on the `std` modules that give primitive types their
 *   methods (`v.length()`, `x.min(y)`);
 * - `#[syntax(index)]` on the functions behind `v[i]`, `map[&k]`, `table[k]`;
 * - `public use fun` method aliases (`id.to_inner()`, `coin.split_vec(...)`).
 *
 * The lists follow the upstream sources (`crates/sui-framework/packages/*`). Each entry is
 * emitted only when the bytecode has what it names, so older framework versions get the
 * subset that applies. Macros (`public macro fun`) have no bytecode at all: ours are
 * declared in `stub-macros.ts`, each only when the package has what its body uses.
 *
 * The names come from a table derived from the upstream sources
 * (`framework-extras.generated.ts`, written by `scripts/derive-framework-extras.mjs`).
 */
import { FRAMEWORK_EXTRAS_SOURCE, GENERATED_FRAMEWORK_EXTRAS } from './framework-extras.generated.js';
import type { GeneratedModuleExtras } from './stub-extras-types.js';
import type { MacroDeclaration } from './stub-extras-types.js';
import { frameworkMacros } from './stub-macros.js';

export { FRAMEWORK_EXTRAS_SOURCE };

/** Source-only declarations of one module. */
export interface ModuleSourceExtras {
  /** The primitive type this `std` module defines methods for. */
  definesPrimitive?: string;
  /** Functions marked `#[syntax(index)]`. */
  indexFunctions?: readonly string[];
  /**
   * `public use fun` aliases: `[function, type, method]`. `function` is a function of
   * this module, or `module::function` in the same package; `type` is a datatype of
   * this module, or the module's primitive.
   */
  methodAliases?: readonly (readonly [string, string, string])[];
  /** Public macros, declared when the package has what their bodies use (see `stub-macros.ts`). */
  macros?: readonly MacroDeclaration[];
}

/**
 * Declarations that earlier framework versions made and the upstream sources no longer do
 * (each is still emitted only when the bytecode has what it names).
 */
const EARLIER_EXTRAS: Readonly<Record<string, ModuleSourceExtras>> = {
  '0x1::string': {
    methodAliases: [
      ['bytes', 'String', 'as_bytes'],
      ['sub_string', 'String', 'substring'],
    ],
  },
};

function merged(a: ModuleSourceExtras | undefined, b: ModuleSourceExtras | undefined): ModuleSourceExtras | undefined {
  if (!a || !b) return a ?? b;
  const union = <T>(x: readonly T[] | undefined, y: readonly T[] | undefined, key: (t: T) => string): T[] | undefined => {
    if (!x && !y) return undefined;
    const seen = new Map<string, T>();
    for (const t of [...(x ?? []), ...(y ?? [])]) if (!seen.has(key(t))) seen.set(key(t), t);
    return [...seen.values()];
  };
  return {
    definesPrimitive: a.definesPrimitive ?? b.definesPrimitive,
    indexFunctions: union(a.indexFunctions, b.indexFunctions, (f) => f),
    methodAliases: union(a.methodAliases, b.methodAliases, (t) => `${t[1]}.${t[2]}`),
    macros: union(a.macros, b.macros, (m) => m.name),
  };
}

const FRAMEWORK_EXTRAS: ReadonlyMap<string, ModuleSourceExtras> = (() => {
  const out = new Map<string, ModuleSourceExtras>();
  const keys = new Set([...Object.keys(GENERATED_FRAMEWORK_EXTRAS), ...Object.keys(EARLIER_EXTRAS)]);
  for (const key of keys) {
    const [address, module] = key.split('::');
    const generated = GENERATED_FRAMEWORK_EXTRAS[key] as GeneratedModuleExtras | undefined;
    const macros = frameworkMacros(address, module);
    const fromUpstream: ModuleSourceExtras | undefined = generated && {
      definesPrimitive: generated.definesPrimitive,
      indexFunctions: generated.indexFunctions,
      methodAliases: generated.methodAliases,
      macros: macros.length > 0 ? macros : undefined,
    };
    const extras = merged(fromUpstream, EARLIER_EXTRAS[key]);
    if (extras) out.set(key, extras);
  }
  return out;
})();

/**
 * The source-only declarations of a framework module (`address` short or canonical),
 * or `undefined` when there are none.
 */
export function frameworkSourceExtras(address: string, moduleName: string): ModuleSourceExtras | undefined {
  const short = '0x' + (address.toLowerCase().replace(/^0x/, '').replace(/^0+/, '') || '0');
  return FRAMEWORK_EXTRAS.get(`${short}::${moduleName}`);
}

/** Bumped when the stub generator or the build's package-graph rules change (what compiles, and how, for the same sources). */
const STUB_GENERATOR_REVISION = 4;

let fingerprint: string | undefined;

/**
 * A short fingerprint of everything that decides the framework's stubs besides the bytecode:
 * the generator's revision, the derived table, the earlier-version entries and our macro
 * declarations. Caches of compiled code key on it, so a change of the stubs invalidates them.
 */
export function stubDeclarationsFingerprint(): string {
  if (fingerprint === undefined) {
    const text = JSON.stringify([STUB_GENERATOR_REVISION, GENERATED_FRAMEWORK_EXTRAS, EARLIER_EXTRAS, [...FRAMEWORK_EXTRAS.entries()]]);
    // FNV-1a, 32 bits: no dependency on a crypto module; collisions only cost a stale cache entry.
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    fingerprint = `${STUB_GENERATOR_REVISION}-${h.toString(16).padStart(8, '0')}`;
  }
  return fingerprint;
}

/** Shapes of the framework's source-only declarations (see `stub-extras.ts`). */

/** What the upstream sources of one framework module declare that its bytecode does not keep (names only). */
export interface GeneratedModuleExtras {
  /** The primitive type this `std` module defines methods for (`#[defines_primitive(T)]`). */
  definesPrimitive?: string;
  /** Functions marked `#[syntax(index)]`. */
  indexFunctions?: readonly string[];
  /** `public use fun` aliases: `[function, type, method]` (`function` is `fn` or `module::fn` of the same package). */
  methodAliases?: readonly (readonly [string, string, string])[];
  /** Names of the module's public macros. */
  publicMacros?: readonly string[];
}

/** One macro of a framework module. */
export interface MacroDeclaration {
  /** The macro's name (called as `name!`). */
  name: string;
  /**
   * What the body uses: `module::function` (a public function) or `module::name!` (another
   * declared macro) of its own package, or `0x<address>::module::...` of another package.
   */
  needs: readonly string[];
  /** The declaration, `public macro fun ... { ... }`, as Move 2024 source. */
  source: string;
}

export function macro(name: string, needs: readonly string[], source: string): MacroDeclaration {
  return { name, needs, source: source.trim() };
}

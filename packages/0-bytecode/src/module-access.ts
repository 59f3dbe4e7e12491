/**
 * Read-only accessors that resolve the indices of a {@link CompiledModule} into names,
 * so that every consumer (interface JSON, disassembler, stubs, the VM loader) reads a
 * module the same way.
 */
import type { CompiledModule, DatatypeHandle, FunctionDefinition, FunctionHandle, ModuleHandle, SignatureToken } from './file-format.js';
import { Ability, type AbilitySet } from './file-format.js';
import { shortAddress } from './util/address.js';

export { addressFromBytes, canonicalAddress, shortAddress, writeAddressBytes } from './util/address.js';

/** The module's own handle. */
export function selfHandle(m: CompiledModule): ModuleHandle {
  return m.moduleHandles[m.selfModuleHandleIndex];
}

/** The module's name. */
export function moduleName(m: CompiledModule): string {
  return m.identifiers[selfHandle(m).name];
}

/** The module's address (`0x` + 64 hex). */
export function moduleAddress(m: CompiledModule): string {
  return m.addressIdentifiers[selfHandle(m).address];
}

/** Address and name of the module behind a module handle. */
export function moduleHandleId(m: CompiledModule, index: number): { address: string; name: string } {
  const h = m.moduleHandles[index];
  return { address: m.addressIdentifiers[h.address], name: m.identifiers[h.name] };
}

/** Name of a datatype handle. */
export function datatypeName(m: CompiledModule, handle: DatatypeHandle): string {
  return m.identifiers[handle.name];
}

/** Name of a function handle. */
export function functionName(m: CompiledModule, handle: FunctionHandle): string {
  return m.identifiers[handle.name];
}

/** Handle of a function definition. */
export function functionHandleOf(m: CompiledModule, def: FunctionDefinition): FunctionHandle {
  return m.functionHandles[def.function];
}

/** `true` when the datatype handle is declared by this module itself. */
export function isSelfHandle(m: CompiledModule, handle: { module: number }): boolean {
  return handle.module === m.selfModuleHandleIndex;
}

const ABILITY_NAMES: readonly [number, string][] = [
  [Ability.Copy, 'copy'],
  [Ability.Drop, 'drop'],
  [Ability.Store, 'store'],
  [Ability.Key, 'key'],
];

/** Ability names in the fixed order copy, drop, store, key. */
export function abilityNames(set: AbilitySet): string[] {
  const out: string[] = [];
  for (const [bit, name] of ABILITY_NAMES) if (set & bit) out.push(name);
  return out;
}

/** Move spelling of a primitive type. */
export type PrimitiveName = 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256' | 'address' | 'signer';

/** Move spelling of each primitive token kind (`Bool` → `bool`). */
export const PRIMITIVE_NAME: Readonly<Record<string, PrimitiveName>> = {
  Bool: 'bool',
  U8: 'u8',
  U16: 'u16',
  U32: 'u32',
  U64: 'u64',
  U128: 'u128',
  U256: 'u256',
  Address: 'address',
  Signer: 'signer',
};

/** The primitive types' Move spellings, in the order of their token kinds (bool, u8 … u256, address, signer). */
export const PRIMITIVE_NAMES: readonly PrimitiveName[] = Object.values(PRIMITIVE_NAME);

/** Whether `name` spells a primitive type (`u64`, `address`, ...). */
export function isPrimitiveName(name: string): name is PrimitiveName {
  return (PRIMITIVE_NAMES as readonly string[]).includes(name);
}

/** How {@link renderToken} spells the parts of a type that depend on the context. */
export interface TokenRenderer {
  /** A datatype (by handle index) applied to already-rendered type arguments (empty when none). */
  datatype: (index: number, typeArguments: string[]) => string;
  /** A type parameter. */
  typeParameter: (index: number) => string;
}

/**
 * Render a signature token in Move syntax (`vector<u8>`, `&mut T`, ...), delegating
 * datatypes and type parameters to `r`. Shared by every printer of types.
 */
export function renderToken(token: SignatureToken, r: TokenRenderer): string {
  const go = (t: SignatureToken): string => {
    switch (t.$kind) {
      case 'Vector':
        return `vector<${go(t.type)}>`;
      case 'Reference':
        return `&${go(t.type)}`;
      case 'MutableReference':
        return `&mut ${go(t.type)}`;
      case 'TypeParameter':
        return r.typeParameter(t.index);
      case 'Datatype':
        return r.datatype(t.index, []);
      case 'DatatypeInstantiation':
        return r.datatype(t.index, t.typeArguments.map(go));
      default:
        return PRIMITIVE_NAME[t.$kind];
    }
  };
  return go(token);
}

/**
 * Render a signature token in Move syntax, with datatypes as `0xADDR::module::Name`
 * (short addresses by default) and type parameters named by `typeParamName`.
 */
export function formatToken(m: CompiledModule, token: SignatureToken, options: { typeParamName?: (index: number) => string; fullAddresses?: boolean } = {}): string {
  const addr = (a: string) => (options.fullAddresses ? a : shortAddress(a));
  return renderToken(token, {
    typeParameter: options.typeParamName ?? ((i: number) => `T${i}`),
    datatype: (index, args) => {
      const h = m.datatypeHandles[index];
      const mod = moduleHandleId(m, h.module);
      const name = `${addr(mod.address)}::${mod.name}::${m.identifiers[h.name]}`;
      return args.length === 0 ? name : `${name}<${args.join(', ')}>`;
    },
  });
}

/**
 * Read-only accessors that resolve the indices of a {@link CompiledModule} into names,
 * so that every consumer (interface JSON, disassembler, stubs, the VM loader) reads a
 * module the same way.
 */
import type {
  CompiledModule,
  DatatypeHandle,
  FunctionDefinition,
  FunctionHandle,
  ModuleHandle,
  SignatureToken,
} from './file-format.js';
import { Ability, type AbilitySet } from './file-format.js';

/** Canonical form of an address: `0x` + 64 lowercase hex digits. */
export function canonicalAddress(address: string): string {
  if (isCanonicalAddress(address)) return address;
  let hex = address.toLowerCase();
  if (hex.startsWith('0x')) hex = hex.slice(2);
  if (hex.length === 0 || hex.length > 64 || !/^[0-9a-f]+$/.test(hex)) {
    throw new RangeError(`invalid address: ${JSON.stringify(address)}`);
  }
  return '0x' + hex.padStart(64, '0');
}

/** `true` for `0x` + 64 lowercase hex digits (the common case, checked without allocating). */
function isCanonicalAddress(a: string): boolean {
  if (a.length !== 66 || a.charCodeAt(0) !== 48 || a.charCodeAt(1) !== 120) return false;
  for (let i = 2; i < 66; i++) {
    const c = a.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Character codes of the two hex digits of each byte value, and the `0x` + 64 digits being built. */
const HEX_CODES = new Uint16Array(512);
for (let i = 0; i < 256; i++) {
  const h = i.toString(16).padStart(2, '0');
  HEX_CODES[2 * i] = h.charCodeAt(0);
  HEX_CODES[2 * i + 1] = h.charCodeAt(1);
}
const ADDRESS_CODES: number[] = [48, 120, ...new Array<number>(64).fill(48)];

/**
 * The canonical address (`0x` + 64 lowercase hex digits) of the 32 bytes at `at` in `bytes`.
 * Built as one flat string (appending digit pairs makes a rope of 32 strings, flattened again
 * by the first lookup that hashes it).
 */
export function addressFromBytes(bytes: Uint8Array, at = 0): string {
  for (let i = 0; i < 32; i++) {
    const b = bytes[at + i] << 1;
    ADDRESS_CODES[2 + 2 * i] = HEX_CODES[b];
    ADDRESS_CODES[3 + 2 * i] = HEX_CODES[b + 1];
  }
  return String.fromCharCode.apply(null, ADDRESS_CODES);
}

/** Value of each ASCII hex digit, -1 for other characters. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/**
 * Write the 32 bytes of `a` (`0x` + 64 hex digits, either case) into `out` at `at`; `false`,
 * with `out` partly written, when `a` is not in that form.
 */
export function writeAddressBytes(a: string, out: Uint8Array, at: number): boolean {
  if (a.length !== 66 || a.charCodeAt(0) !== 48 || (a.charCodeAt(1) | 32) !== 120) return false;
  for (let i = 0; i < 32; i++) {
    const c1 = a.charCodeAt(2 + 2 * i);
    const c2 = a.charCodeAt(3 + 2 * i);
    const hi = c1 < 128 ? NIBBLE[c1] : -1;
    const lo = c2 < 128 ? NIBBLE[c2] : -1;
    if ((hi | lo) < 0) return false;
    out[at + i] = (hi << 4) | lo;
  }
  return true;
}

/** Shortest form of an address: `0x` + hex without leading zeros (`0x2`). */
export function shortAddress(address: string): string {
  const hex = canonicalAddress(address).slice(2).replace(/^0+/, '');
  return '0x' + (hex === '' ? '0' : hex);
}

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
export function formatToken(
  m: CompiledModule,
  token: SignatureToken,
  options: { typeParamName?: (index: number) => string; fullAddresses?: boolean } = {},
): string {
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

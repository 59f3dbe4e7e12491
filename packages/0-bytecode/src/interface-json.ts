/**
 * The "bytecode interface JSON" (`schema_version: 1`) of the original
 * `sui_move_interface_extractor --emit-bytecode-json`, rebuilt from {@link CompiledModule}s.
 *
 * The original keys are reproduced exactly (see `docs/original-feature-inventory.md` §2).
 * What the original left out is added under new keys only, so a consumer of the old
 * schema sees the same data:
 * - per module: `enums`, `constants`, `friends`;
 * - per function: `is_init`.
 * {@link toOriginalInterface} strips those additions again, for byte-for-byte comparison
 * with the original tool.
 */
import { canonicalJson, compareCodePoints } from './canonical-json.js';
import type { AbilitySet, CompiledModule, FieldDefinition, FunctionDefinition, SignatureToken, Visibility } from './file-format.js';
import { Ability } from './file-format.js';
import { abilityNames, moduleAddress, moduleHandleId, moduleName, PRIMITIVE_NAME, type PrimitiveName } from './module-access.js';
import { canonicalAddress } from './util/address.js';

// ---------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------

/** Ability names, always listed in the fixed order copy, drop, store, key. */
export type AbilityName = 'copy' | 'drop' | 'store' | 'key';

/** `kind` of a primitive {@link InterfaceType}. */
export type InterfacePrimitiveKind = PrimitiveName;

/** A type, discriminated by `kind`. Datatypes (structs and enums) carry full 64-hex addresses. */
export type InterfaceType =
  | { kind: InterfacePrimitiveKind }
  | { kind: 'vector'; type: InterfaceType }
  | { kind: 'ref'; mutable: boolean; to: InterfaceType }
  | { kind: 'type_param'; index: number }
  | { kind: 'datatype'; address: string; module: string; name: string; type_args: InterfaceType[] };

/** A field of a struct or enum variant. */
export interface InterfaceField {
  name: string;
  type: InterfaceType;
}

/** A type parameter of a struct or enum. */
export interface InterfaceDatatypeTypeParam {
  constraints: AbilityName[];
  is_phantom: boolean;
}

/** A type parameter of a function. */
export interface InterfaceFunctionTypeParam {
  constraints: AbilityName[];
}

/** A struct (original schema). */
export interface StructInterface {
  abilities: AbilityName[];
  type_params: InterfaceDatatypeTypeParam[];
  is_native: boolean;
  /** Declaration order; empty for a native struct. */
  fields: InterfaceField[];
}

/** A struct of this module named in an `acquires` list. */
export interface InterfaceDatatypeRef {
  address: string;
  module: string;
  name: string;
}

/** Function visibility in the JSON. */
export type InterfaceVisibility = 'public' | 'friend' | 'private';

/** A function as the original tool wrote it. */
export interface OriginalFunctionInterface {
  visibility: InterfaceVisibility;
  is_entry: boolean;
  is_native: boolean;
  type_params: InterfaceFunctionTypeParam[];
  params: InterfaceType[];
  returns: InterfaceType[];
  /** Sorted by name. */
  acquires: InterfaceDatatypeRef[];
}

/** A function, with the `is_init` addition. */
export interface FunctionInterface extends OriginalFunctionInterface {
  /** `true` when Sui would run this function as the module initializer at publish time. */
  is_init: boolean;
}

/** A variant of an enum (addition). */
export interface EnumVariantInterface {
  name: string;
  fields: InterfaceField[];
}

/** An enum (addition). */
export interface EnumInterface {
  abilities: AbilityName[];
  type_params: InterfaceDatatypeTypeParam[];
  /** Declaration order (= variant tag order). */
  variants: EnumVariantInterface[];
}

/**
 * A decoded constant value: `bool` as a boolean, `u8`/`u16`/`u32` as numbers,
 * `u64`/`u128`/`u256` as decimal strings, `address` and `vector<u8>` as `0x` hex strings,
 * other vectors as arrays.
 */
export type ConstantValue = boolean | number | string | ConstantValue[];

/** An entry of the constant pool (addition). */
export interface ConstantInterface {
  /** Index in the constant pool (the `LdConst` operand). */
  index: number;
  type: InterfaceType;
  /** The raw BCS bytes, `0x` + lowercase hex. */
  bcs: string;
  /** Present when the type is decodable (primitives and vectors of them) and the bytes parse exactly. */
  value?: ConstantValue;
}

/** A friend module (addition). */
export interface FriendInterface {
  address: string;
  module: string;
}

/** A module as the original tool wrote it. */
export interface OriginalModuleInterface {
  /** `0x` + 64 lowercase hex. */
  address: string;
  structs: Record<string, StructInterface>;
  functions: Record<string, OriginalFunctionInterface>;
}

/** A module, with the additions. */
export interface ModuleInterface extends OriginalModuleInterface {
  functions: Record<string, FunctionInterface>;
  enums: Record<string, EnumInterface>;
  constants: ConstantInterface[];
  /** Declaration order. */
  friends: FriendInterface[];
}

/** A package as the original tool wrote it. */
export interface OriginalPackageInterface {
  schema_version: 1;
  /** As given by the caller (not re-padded). */
  package_id: string;
  /** Sorted. */
  module_names: string[];
  modules: Record<string, OriginalModuleInterface>;
}

/** A package, with the additions. */
export interface PackageInterface extends OriginalPackageInterface {
  modules: Record<string, ModuleInterface>;
}

/** Input of {@link buildInterfaceJson}. */
export interface InterfaceInput {
  /** Written verbatim as `package_id`. */
  packageId: string;
  modules: CompiledModule[];
}

// ---------------------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------------------

const VISIBILITY: Readonly<Record<Visibility, InterfaceVisibility>> = {
  Public: 'public',
  Friend: 'friend',
  Private: 'private',
};

function abilities(set: AbilitySet): AbilityName[] {
  return abilityNames(set) as AbilityName[];
}

/** Convert a signature token of module `m` into an {@link InterfaceType}. */
export function interfaceType(m: CompiledModule, token: SignatureToken): InterfaceType {
  switch (token.$kind) {
    case 'Vector':
      return { kind: 'vector', type: interfaceType(m, token.type) };
    case 'Reference':
      return { kind: 'ref', mutable: false, to: interfaceType(m, token.type) };
    case 'MutableReference':
      return { kind: 'ref', mutable: true, to: interfaceType(m, token.type) };
    case 'TypeParameter':
      return { kind: 'type_param', index: token.index };
    case 'Datatype':
    case 'DatatypeInstantiation': {
      const handle = m.datatypeHandles[token.index];
      const mod = moduleHandleId(m, handle.module);
      const args = token.$kind === 'Datatype' ? [] : token.typeArguments.map((t) => interfaceType(m, t));
      return { kind: 'datatype', address: mod.address, module: mod.name, name: m.identifiers[handle.name], type_args: args };
    }
    default:
      return { kind: PRIMITIVE_NAME[token.$kind] };
  }
}

function fields(m: CompiledModule, defs: readonly FieldDefinition[]): InterfaceField[] {
  return defs.map((f) => ({ name: m.identifiers[f.name], type: interfaceType(m, f.type) }));
}

function datatypeTypeParams(params: readonly { constraints: AbilitySet; isPhantom: boolean }[]): InterfaceDatatypeTypeParam[] {
  return params.map((p) => ({ constraints: abilities(p.constraints), is_phantom: p.isPhantom }));
}

function structs(m: CompiledModule): Record<string, StructInterface> {
  return Object.fromEntries(
    m.structDefs.map((def): [string, StructInterface] => {
      const handle = m.datatypeHandles[def.structHandle];
      const info = def.fieldInformation;
      return [
        m.identifiers[handle.name],
        {
          abilities: abilities(handle.abilities),
          type_params: datatypeTypeParams(handle.typeParameters),
          is_native: info.$kind === 'Native',
          fields: info.$kind === 'Native' ? [] : fields(m, info.fields),
        },
      ];
    }),
  );
}

function enums(m: CompiledModule): Record<string, EnumInterface> {
  return Object.fromEntries(
    m.enumDefs.map((def): [string, EnumInterface] => {
      const handle = m.datatypeHandles[def.enumHandle];
      return [
        m.identifiers[handle.name],
        {
          abilities: abilities(handle.abilities),
          type_params: datatypeTypeParams(handle.typeParameters),
          variants: def.variants.map((v) => ({ name: m.identifiers[v.variantName], fields: fields(m, v.fields) })),
        },
      ];
    }),
  );
}

const SUI_FRAMEWORK = canonicalAddress('0x2');

/** `true` for `&TxContext` / `&mut TxContext` of `0x2::tx_context`. */
function isTxContextRef(m: CompiledModule, t: SignatureToken): boolean {
  if (t.$kind !== 'Reference' && t.$kind !== 'MutableReference') return false;
  const inner = t.type;
  if (inner.$kind !== 'Datatype') return false;
  const handle = m.datatypeHandles[inner.index];
  const mod = moduleHandleId(m, handle.module);
  return mod.address === SUI_FRAMEWORK && mod.name === 'tx_context' && m.identifiers[handle.name] === 'TxContext';
}

/**
 * Index of the datatype handle of the module's one-time-witness candidate (Sui's rule: the
 * first struct named like the module in ASCII upper case whose only field is a `bool`), or
 * `-1` when the module has none.
 */
function otwCandidate(m: CompiledModule): number {
  const wanted = moduleName(m).toUpperCase();
  for (const def of m.structDefs) {
    const handle = m.datatypeHandles[def.structHandle];
    if (m.identifiers[handle.name] !== wanted) continue;
    const info = def.fieldInformation;
    if (info.$kind === 'Declared' && info.fields.length === 1 && info.fields[0].type.$kind === 'Bool') {
      return def.structHandle;
    }
  }
  return -1;
}

/**
 * Whether `def` is a module initializer Sui accepts: named `init`, private, not `entry`,
 * no type parameters, no return values, and parameters either `(ctx)` when the module has
 * no one-time-witness candidate, or `(otw, ctx)` with `otw` the module's one-time witness
 * (drop only, no type parameters) passed by value; `ctx` is `&mut TxContext` or
 * `&TxContext` (Sui accepts both).
 */
export function isInitFunction(m: CompiledModule, def: FunctionDefinition): boolean {
  const handle = m.functionHandles[def.function];
  if (m.identifiers[handle.name] !== 'init') return false;
  if (def.visibility !== 'Private' || def.isEntry || handle.typeParameters.length > 0) return false;
  if (m.signatures[handle.return].length > 0) return false;
  const params = m.signatures[handle.parameters];
  if (params.length === 0 || !isTxContextRef(m, params[params.length - 1])) return false;
  const otw = otwCandidate(m);
  if (otw < 0) return params.length === 1;
  const witness = m.datatypeHandles[otw];
  if (witness.abilities !== Ability.Drop || witness.typeParameters.length > 0) return false;
  return params.length === 2 && params[0].$kind === 'Datatype' && params[0].index === otw;
}

function functions(m: CompiledModule): Record<string, FunctionInterface> {
  const address = moduleAddress(m);
  const module = moduleName(m);
  return Object.fromEntries(
    m.functionDefs.map((def): [string, FunctionInterface] => {
      const handle = m.functionHandles[def.function];
      const acquires = def.acquiresGlobalResources
        .map((idx) => ({ address, module, name: m.identifiers[m.datatypeHandles[m.structDefs[idx].structHandle].name] }))
        .sort((a, b) => compareCodePoints(a.name, b.name));
      return [
        m.identifiers[handle.name],
        {
          visibility: VISIBILITY[def.visibility],
          is_entry: def.isEntry,
          is_native: def.code === null,
          type_params: handle.typeParameters.map((c) => ({ constraints: abilities(c) })),
          params: m.signatures[handle.parameters].map((t) => interfaceType(m, t)),
          returns: m.signatures[handle.return].map((t) => interfaceType(m, t)),
          acquires,
          is_init: isInitFunction(m, def),
        },
      ];
    }),
  );
}

const hex = (bytes: Uint8Array): string => '0x' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Decode BCS `data` of type `t`; `undefined` when the type is not decodable or the bytes do not fit. */
export function decodeConstantValue(t: SignatureToken, data: Uint8Array): ConstantValue | undefined {
  let pos = 0;
  const fail = Symbol('fail');
  const take = (n: number): Uint8Array => {
    if (pos + n > data.length) throw fail;
    const out = data.subarray(pos, pos + n);
    pos += n;
    return out;
  };
  const uint = (n: number): bigint => {
    const b = take(n);
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return v;
  };
  const uleb = (): number => {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = take(1)[0];
      v += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (byte === 0 && shift > 0) throw fail; // non-canonical
        if (v > 0xffffffff) throw fail;
        return v;
      }
    }
    throw fail;
  };
  const read = (tok: SignatureToken): ConstantValue => {
    switch (tok.$kind) {
      case 'Bool': {
        const b = take(1)[0];
        if (b > 1) throw fail;
        return b === 1;
      }
      case 'U8':
        return Number(uint(1));
      case 'U16':
        return Number(uint(2));
      case 'U32':
        return Number(uint(4));
      case 'U64':
        return uint(8).toString();
      case 'U128':
        return uint(16).toString();
      case 'U256':
        return uint(32).toString();
      case 'Address':
        return hex(take(32));
      case 'Vector': {
        const n = uleb();
        if (tok.type.$kind === 'U8') return hex(take(n));
        const out: ConstantValue[] = [];
        for (let i = 0; i < n; i++) out.push(read(tok.type));
        return out;
      }
      default:
        throw fail;
    }
  };
  try {
    const value = read(t);
    return pos === data.length ? value : undefined;
  } catch (e) {
    if (e === fail) return undefined;
    throw e;
  }
}

function constants(m: CompiledModule): ConstantInterface[] {
  return m.constantPool.map((c, index) => {
    const entry: ConstantInterface = { index, type: interfaceType(m, c.type), bcs: hex(c.data) };
    const value = decodeConstantValue(c.type, c.data);
    if (value !== undefined) entry.value = value;
    return entry;
  });
}

function friends(m: CompiledModule): FriendInterface[] {
  return m.friendDecls.map((f) => ({ address: m.addressIdentifiers[f.address], module: m.identifiers[f.name] }));
}

/** The interface of one module (all struct, enum and function definitions, private and native included). */
export function buildModuleInterface(m: CompiledModule): ModuleInterface {
  return {
    address: moduleAddress(m),
    structs: structs(m),
    functions: functions(m),
    enums: enums(m),
    constants: constants(m),
    friends: friends(m),
  };
}

/**
 * Build the bytecode interface JSON of a package (`schema_version: 1`), exactly as the
 * original tool's `--emit-bytecode-json` plus the additions `enums`, `constants`,
 * `friends` (per module) and `is_init` (per function). `package_id` is written as given.
 * Render it with {@link renderInterfaceJson}.
 */
export function buildInterfaceJson(input: InterfaceInput): PackageInterface {
  const entries = input.modules.map((m): [string, ModuleInterface] => [moduleName(m), buildModuleInterface(m)]);
  const modules = Object.fromEntries(entries);
  return {
    schema_version: 1,
    package_id: input.packageId,
    module_names: Object.keys(modules).sort(compareCodePoints),
    modules,
  };
}

function stripFunction(f: OriginalFunctionInterface): OriginalFunctionInterface {
  const { visibility, is_entry, is_native, type_params, params, returns, acquires } = f;
  return { visibility, is_entry, is_native, type_params, params, returns, acquires };
}

/**
 * Drop the additions (`enums`, `constants`, `friends`, `is_init`) and keep only what the
 * original tool emitted, for byte-for-byte comparison with its output.
 */
export function toOriginalInterface(pkg: OriginalPackageInterface): OriginalPackageInterface {
  const modules = Object.fromEntries(
    Object.entries(pkg.modules).map(([name, mod]): [string, OriginalModuleInterface] => [
      name,
      {
        address: mod.address,
        structs: mod.structs,
        functions: Object.fromEntries(Object.entries(mod.functions).map(([fn, f]) => [fn, stripFunction(f)])),
      },
    ]),
  );
  return { schema_version: pkg.schema_version, package_id: pkg.package_id, module_names: pkg.module_names, modules };
}

/**
 * Render an interface as the original tool writes it: keys sorted recursively, two-space
 * pretty printing, trailing newline.
 */
export function renderInterfaceJson(pkg: OriginalPackageInterface): string {
  return canonicalJson(pkg);
}

/** Summary counts of an interface, for sanity checks. */
export interface InterfaceSanity {
  modules: number;
  structs: number;
  functions: number;
  /** Structs with the `key` ability. */
  key_structs: number;
}

/** Count modules, structs, functions and `key` structs of an interface. */
export function interfaceSanity(pkg: OriginalPackageInterface): InterfaceSanity {
  const counts: InterfaceSanity = { modules: 0, structs: 0, functions: 0, key_structs: 0 };
  for (const mod of Object.values(pkg.modules)) {
    counts.modules++;
    const structList = Object.values(mod.structs);
    counts.structs += structList.length;
    counts.key_structs += structList.filter((s) => s.abilities.includes('key')).length;
    counts.functions += Object.keys(mod.functions).length;
  }
  return counts;
}

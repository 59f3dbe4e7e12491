/**
 * The interface JSON checked against an independent reader: every module of the framework
 * packages and of the corpus is read again by the reference deserializer
 * (`@mysten/move-bytecode-template`, Sui's Rust deserializer compiled to WASM), and the
 * interface this test derives from its raw module object (names, abilities, type
 * parameters, fields and their types, functions with visibility, entry, native, parameter
 * and return types, acquires, enums and their variants, constants, friends, initializers)
 * must equal ours. The golden test beside this one only sees a change; this one sees an
 * error, since the expected side is never written by our own code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize } from '@mysten/move-bytecode-template';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { deserializeModule } from '../src/deserializer.js';
import { buildInterfaceJson, type PackageInterface } from '../src/interface-json.js';
import { parseModuleBundle } from '../src/package-loader.js';

// ---------------------------------------------------------------------------------------
// The reference deserializer's module object (the fields this test reads)
// ---------------------------------------------------------------------------------------

type TToken = string | { Vector: TToken } | { Reference: TToken } | { MutableReference: TToken } | { TypeParameter: number } | { Datatype: number } | { DatatypeInstantiation: [number, TToken[]] };
interface TField {
  name: number;
  signature: TToken;
}
interface TModule {
  self_module_handle_idx: number;
  module_handles: { address: number; name: number }[];
  datatype_handles: { module: number; name: number; abilities: number; type_parameters: { constraints: number; is_phantom: boolean }[] }[];
  function_handles: { module: number; name: number; parameters: number; return_: number; type_parameters: number[] }[];
  friend_decls: { address: number; name: number }[];
  signatures: TToken[][];
  identifiers: string[];
  address_identifiers: string[];
  constant_pool: { type_: TToken; data: number[] }[];
  struct_defs: { struct_handle: number; field_information: string | { Declared: TField[] } | { Native: unknown } }[];
  function_defs: { function: number; visibility: string; is_entry: boolean; acquires_global_resources: number[]; code?: unknown }[];
  enum_defs?: { enum_handle: number; variants: { variant_name: number; fields: TField[] }[] }[];
}

// ---------------------------------------------------------------------------------------
// The expected interface, derived from the reference object alone
// ---------------------------------------------------------------------------------------

const ABILITIES: [number, string][] = [
  [0x1, 'copy'],
  [0x2, 'drop'],
  [0x4, 'store'],
  [0x8, 'key'],
];
const abilityList = (set: number): string[] => ABILITIES.filter(([bit]) => (set & bit) !== 0).map(([, name]) => name);
const PRIMITIVES: Record<string, string> = { Bool: 'bool', U8: 'u8', U16: 'u16', U32: 'u32', U64: 'u64', U128: 'u128', U256: 'u256', Address: 'address', Signer: 'signer' };
const VISIBILITY: Record<string, string> = { Public: 'public', Friend: 'friend', Private: 'private' };
const fullAddress = (hex: string): string => '0x' + hex.toLowerCase().replace(/^0x/, '').padStart(64, '0');
const hexOf = (bytes: readonly number[]): string => '0x' + bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

function moduleId(t: TModule, handle: number): { address: string; name: string } {
  const h = t.module_handles[handle];
  return { address: fullAddress(t.address_identifiers[h.address]), name: t.identifiers[h.name] };
}

function typeOf(t: TModule, tok: TToken): unknown {
  if (typeof tok === 'string') {
    const kind = PRIMITIVES[tok];
    if (kind === undefined) throw new Error(`unknown primitive token ${tok}`);
    return { kind };
  }
  if ('Vector' in tok) return { kind: 'vector', type: typeOf(t, tok.Vector) };
  if ('Reference' in tok) return { kind: 'ref', mutable: false, to: typeOf(t, tok.Reference) };
  if ('MutableReference' in tok) return { kind: 'ref', mutable: true, to: typeOf(t, tok.MutableReference) };
  if ('TypeParameter' in tok) return { kind: 'type_param', index: tok.TypeParameter };
  const [index, args] = 'Datatype' in tok ? [tok.Datatype, []] : tok.DatatypeInstantiation;
  const h = t.datatype_handles[index];
  const mod = moduleId(t, h.module);
  return { kind: 'datatype', address: mod.address, module: mod.name, name: t.identifiers[h.name], type_args: args.map((a) => typeOf(t, a)) };
}

const fieldsOf = (t: TModule, fields: readonly TField[]): unknown[] => fields.map((f) => ({ name: t.identifiers[f.name], type: typeOf(t, f.signature) }));
const datatypeParams = (ps: readonly { constraints: number; is_phantom: boolean }[]): unknown[] => ps.map((p) => ({ constraints: abilityList(p.constraints), is_phantom: p.is_phantom }));

/** Little-endian unsigned integer of `bytes`, as a bigint. */
function uintLe(bytes: readonly number[]): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/**
 * The value of a constant (BCS: little-endian integers, ULEB128 vector lengths), as the
 * interface writes it: `u8`..`u32` as numbers, wider integers as decimal strings, addresses
 * and `vector<u8>` as hex, other vectors as arrays; `null` when the bytes do not fit the type.
 */
function constantValue(tok: TToken, data: readonly number[]): { value: unknown } | null {
  const width: Record<string, number> = { U8: 1, U16: 2, U32: 4, U64: 8, U128: 16, U256: 32 };
  let pos = 0;
  const take = (n: number): number[] => {
    if (pos + n > data.length) throw new RangeError('short');
    const out = data.slice(pos, pos + n);
    pos += n;
    return out;
  };
  const uleb = (): number => {
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      const [b] = take(1);
      n += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return n;
    }
  };
  const read = (t: TToken): unknown => {
    if (t === 'Bool') {
      const [b] = take(1);
      if (b > 1) throw new RangeError('bool');
      return b === 1;
    }
    if (t === 'Address') return hexOf(take(32));
    if (typeof t === 'string' && width[t] !== undefined) {
      const v = uintLe(take(width[t]));
      return width[t] <= 4 ? Number(v) : v.toString();
    }
    if (typeof t === 'object' && 'Vector' in t) {
      const n = uleb();
      if (t.Vector === 'U8') return hexOf(take(n));
      return Array.from({ length: n }, () => read(t.Vector));
    }
    throw new RangeError('not a constant type');
  };
  try {
    const value = read(tok);
    return pos === data.length ? { value } : null;
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

/** `&TxContext` or `&mut TxContext` of `0x2::tx_context`. */
function isTxContextRef(t: TModule, tok: TToken): boolean {
  if (typeof tok === 'string') return false;
  const inner = 'Reference' in tok ? tok.Reference : 'MutableReference' in tok ? tok.MutableReference : null;
  if (inner === null || typeof inner === 'string' || !('Datatype' in inner)) return false;
  const h = t.datatype_handles[inner.Datatype];
  const mod = moduleId(t, h.module);
  return mod.address === fullAddress('2') && mod.name === 'tx_context' && t.identifiers[h.name] === 'TxContext';
}

/** Sui's initializer rule (sui-verifier's `entry_points_verifier`, one-time witness included). */
function isInit(t: TModule, def: TModule['function_defs'][number]): boolean {
  const h = t.function_handles[def.function];
  if (t.identifiers[h.name] !== 'init' || def.visibility !== 'Private' || def.is_entry || h.type_parameters.length > 0) return false;
  if (t.signatures[h.return_].length > 0) return false;
  const params = t.signatures[h.parameters];
  if (params.length === 0 || !isTxContextRef(t, params[params.length - 1])) return false;
  const self = moduleId(t, t.self_module_handle_idx).name;
  const otw = t.struct_defs.find((d) => {
    if (t.identifiers[t.datatype_handles[d.struct_handle].name] !== self.toUpperCase()) return false;
    const info = d.field_information;
    return typeof info === 'object' && 'Declared' in info && info.Declared.length === 1 && info.Declared[0].signature === 'Bool';
  });
  if (otw === undefined) return params.length === 1;
  const w = t.datatype_handles[otw.struct_handle];
  if (w.abilities !== 0x2 || w.type_parameters.length > 0) return false;
  const first = params[0];
  return params.length === 2 && typeof first === 'object' && 'Datatype' in first && first.Datatype === otw.struct_handle;
}

/** The interface of one module, from the reference deserializer's object. */
function expectedModule(t: TModule): { name: string; iface: Record<string, unknown> } {
  const self = moduleId(t, t.self_module_handle_idx);
  const structs = Object.fromEntries(
    t.struct_defs.map((d) => {
      const h = t.datatype_handles[d.struct_handle];
      const info = d.field_information;
      const declared = typeof info === 'object' && 'Declared' in info ? info.Declared : null;
      return [
        t.identifiers[h.name],
        { abilities: abilityList(h.abilities), type_params: datatypeParams(h.type_parameters), is_native: declared === null, fields: declared === null ? [] : fieldsOf(t, declared) },
      ];
    }),
  );
  const enums = Object.fromEntries(
    (t.enum_defs ?? []).map((d) => {
      const h = t.datatype_handles[d.enum_handle];
      return [
        t.identifiers[h.name],
        {
          abilities: abilityList(h.abilities),
          type_params: datatypeParams(h.type_parameters),
          variants: d.variants.map((v) => ({ name: t.identifiers[v.variant_name], fields: fieldsOf(t, v.fields) })),
        },
      ];
    }),
  );
  const functions = Object.fromEntries(
    t.function_defs.map((d) => {
      const h = t.function_handles[d.function];
      const acquires = d.acquires_global_resources
        .map((i) => ({ address: self.address, module: self.name, name: t.identifiers[t.datatype_handles[t.struct_defs[i].struct_handle].name] }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return [
        t.identifiers[h.name],
        {
          visibility: VISIBILITY[d.visibility],
          is_entry: d.is_entry,
          is_native: d.code === undefined || d.code === null,
          type_params: h.type_parameters.map((c) => ({ constraints: abilityList(c) })),
          params: t.signatures[h.parameters].map((tok) => typeOf(t, tok)),
          returns: t.signatures[h.return_].map((tok) => typeOf(t, tok)),
          acquires,
          is_init: isInit(t, d),
        },
      ];
    }),
  );
  const constants = t.constant_pool.map((c, index) => ({ index, type: typeOf(t, c.type_), bcs: hexOf(c.data), ...(constantValue(c.type_, c.data) ?? {}) }));
  const friends = t.friend_decls.map((f) => ({ address: fullAddress(t.address_identifiers[f.address]), module: t.identifiers[f.name] }));
  return { name: self.name, iface: { address: self.address, structs, functions, enums, constants, friends } };
}

// ---------------------------------------------------------------------------------------
// The packages
// ---------------------------------------------------------------------------------------

interface RealPackage {
  label: string;
  modules: Uint8Array[];
}

function corpusPackages(): RealPackage[] {
  const root = fixturePath('corpus');
  return readdirSync(root)
    .filter((d) => d.startsWith('0x'))
    .sort()
    .map((id) => {
      const dir = path.join(root, id, 'bytecode_modules');
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.mv'))
        .sort();
      return { label: `corpus ${id}`, modules: files.map((f) => new Uint8Array(readFileSync(path.join(dir, f)))) };
    });
}

function frameworkPackages(): RealPackage[] {
  const root = fixturePath('fixtures', 'framework');
  return readdirSync(root)
    .sort()
    .map((f) => ({ label: `framework ${f}`, modules: parseModuleBundle(new Uint8Array(readFileSync(path.join(root, f)))) }));
}

/** What the compared interfaces held, so that each kind of fact is known to have been compared. */
interface Tally {
  modules: number;
  structs: number;
  enums: number;
  functions: number;
  natives: number;
  entries: number;
  inits: number;
  friends: number;
  constants: number;
}

function tally(ifaces: readonly Record<string, unknown>[]): Tally {
  const t: Tally = { modules: ifaces.length, structs: 0, enums: 0, functions: 0, natives: 0, entries: 0, inits: 0, friends: 0, constants: 0 };
  for (const m of ifaces) {
    const fns = Object.values(m.functions as Record<string, { is_native: boolean; is_entry: boolean; is_init: boolean }>);
    t.structs += Object.keys(m.structs as object).length;
    t.enums += Object.keys(m.enums as object).length;
    t.functions += fns.length;
    t.natives += fns.filter((f) => f.is_native).length;
    t.entries += fns.filter((f) => f.is_entry).length;
    t.inits += fns.filter((f) => f.is_init).length;
    t.friends += (m.friends as unknown[]).length;
    t.constants += (m.constants as unknown[]).length;
  }
  return t;
}

/** Compare our interface of `pkg` with the reference's, module by module; returns the tally of the reference's side. */
function checkPackage(pkg: RealPackage): Tally {
  const ours: PackageInterface = buildInterfaceJson({ packageId: '0x0', modules: pkg.modules.map((b) => deserializeModule(b)) });
  const expected = pkg.modules.map((b) => expectedModule(deserialize(b) as unknown as TModule));
  expect(ours.module_names, pkg.label).toEqual(expected.map((e) => e.name).sort());
  for (const { name, iface } of expected) {
    // Compared as plain JSON: what is written out is what must agree.
    expect(JSON.parse(JSON.stringify(ours.modules[name])), `${pkg.label}::${name}`).toEqual(iface);
  }
  return tally(expected.map((e) => e.iface));
}

function sum(ts: readonly Tally[]): Tally {
  const out = tally([]);
  for (const t of ts) for (const k of Object.keys(out) as (keyof Tally)[]) out[k] += t[k];
  return out;
}

describeWithFixtures('interface JSON against the reference deserializer: framework', ['fixtures', 'framework'], () => {
  it('agrees on every module of move-stdlib, sui-framework, sui-system, deepbook and bridge', () => {
    const packages = frameworkPackages();
    expect(packages.map((p) => p.label)).toEqual(['framework bridge', 'framework deepbook', 'framework move-stdlib', 'framework sui-framework', 'framework sui-system']);
    const tallies = packages.map((p) => checkPackage(p));
    expect(tallies.map((t) => t.modules)).toEqual([8, 7, 22, 67, 11]);
    // System packages have no initializers.
    expect(sum(tallies)).toEqual({ modules: 115, structs: 251, enums: 4, functions: 1735, natives: 97, entries: 67, inits: 0, friends: 75, constants: 595 });
  });
});

describeWithFixtures('interface JSON against the reference deserializer: corpus', ['corpus'], () => {
  it('agrees on every module of every corpus package', () => {
    const packages = corpusPackages();
    expect(packages).toHaveLength(12);
    const tallies = packages.map((p) => checkPackage(p));
    for (const [i, t] of tallies.entries()) expect(t.modules, packages[i].label).toBeGreaterThan(0);
    expect(sum(tallies)).toEqual({ modules: 207, structs: 543, enums: 4, functions: 3104, natives: 97, entries: 138, inits: 34, friends: 126, constants: 1234 });
  });
});

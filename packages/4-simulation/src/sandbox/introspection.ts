/**
 * Introspection of the loaded packages, read from their bytecode (the interface JSON of
 * `@smi/bytecode` and its disassembler): modules, functions, structs, constructors,
 * searches. Module paths are `<package storage id>::<module>`; type strings use full
 * addresses, type parameters as `T0`, `T1`….
 */
import {
  canonicalAddress,
  type CompiledModule,
  disassembleFunction,
  type FunctionInterface,
  type InterfaceType,
  type ModuleInterface,
  type MovePackage,
  abilityNames,
  buildModuleInterface,
  errorMessage,
} from '@smi/bytecode';
import { formatType, type Json } from '@smi/move-vm';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import { RequestError } from './request.js';

const interfaces = new WeakMap<CompiledModule, ModuleInterface>();

/** The interface of a module (cached per module). */
function interfaceOf(m: CompiledModule): ModuleInterface {
  let i = interfaces.get(m);
  if (i === undefined) {
    i = buildModuleInterface(m);
    interfaces.set(m, i);
  }
  return i;
}

/** Text of an interface type: `u64`, `vector<T0>`, `&mut 0x…02::coin::Coin<T0>`. */
export function typeText(t: InterfaceType): string {
  switch (t.kind) {
    case 'vector':
      return `vector<${typeText(t.type)}>`;
    case 'ref':
      return `&${t.mutable ? 'mut ' : ''}${typeText(t.to)}`;
    case 'type_param':
      return `T${t.index}`;
    case 'datatype':
      return `${t.address}::${t.module}::${t.name}${t.type_args.length > 0 ? `<${t.type_args.map(typeText).join(', ')}>` : ''}`;
    default:
      return t.kind;
  }
}

function parseAddress(text: string, what: string): string {
  try {
    return canonicalAddress(text);
  } catch {
    throw new RequestError(`${what}: "${text}" is not an address`);
  }
}

/** Parse `0x2::coin` into a package address and a module name. */
function parseModulePath(path: string): { address: string; module: string } {
  const parts = path.split('::');
  if (parts.length !== 2 || parts[1] === '') throw new RequestError(`module path "${path}" is not <address>::<module>`);
  return { address: parseAddress(parts[0], 'module path'), module: parts[1] };
}

/** Parse `0x2::coin::Coin` (type arguments allowed and returned as text). */
function parseTypePath(path: string): { address: string; module: string; name: string; typeArgs: string | null } {
  const lt = path.indexOf('<');
  const head = (lt < 0 ? path : path.slice(0, lt)).trim();
  const parts = head.split('::');
  if (parts.length !== 3 || parts.some((p) => p === '')) throw new RequestError(`type path "${path}" is not <address>::<module>::<name>`);
  return { address: parseAddress(parts[0], 'type path'), module: parts[1], name: parts[2], typeArgs: lt < 0 ? null : path.slice(lt) };
}

/** The package at `address` (a storage id, or the original id of a loaded package). */
export function packageAt(env: SimulationEnvironment, address: string): MovePackage {
  const direct = env.vm.packageById(address);
  if (direct !== undefined) return direct;
  let newest: MovePackage | undefined;
  for (const id of env.vm.packageIds()) {
    const p = env.vm.packageById(id);
    if (p !== undefined && p.originalId === address && (newest === undefined || (p.version ?? 0) > (newest.version ?? 0))) newest = p;
  }
  if (newest === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `package ${address} is not loaded`, { address });
  return newest;
}

/** A module of a loaded package. */
function moduleAt(env: SimulationEnvironment, address: string, module: string): { pkg: MovePackage; module: CompiledModule } {
  const pkg = packageAt(env, address);
  const m = pkg.modules.find((x) => x.name === module);
  if (m === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `module ${pkg.id}::${module} does not exist`, { address: pkg.id, module });
  return { pkg, module: m.module };
}

/** Every loaded module, by package storage id. */
function* allModules(env: SimulationEnvironment): Generator<{ pkg: MovePackage; name: string; iface: ModuleInterface }> {
  for (const id of env.vm.packageIds()) {
    const pkg = env.vm.packageById(id);
    if (pkg === undefined) continue;
    for (const m of pkg.modules) yield { pkg, name: m.name, iface: interfaceOf(m.module) };
  }
}

export function listModules(env: SimulationEnvironment, pkg: string | undefined): Json {
  const only = pkg === undefined ? undefined : packageAt(env, parseAddress(pkg, 'package')).id;
  const modules: string[] = [];
  for (const { pkg: p, name } of allModules(env)) if (only === undefined || p.id === only) modules.push(`${p.id}::${name}`);
  return { modules, count: modules.length };
}

export function listMembers(env: SimulationEnvironment, path: string, kind: 'functions' | 'structs'): Json {
  const { address, module } = parseModulePath(path);
  const { pkg, module: m } = moduleAt(env, address, module);
  const iface = interfaceOf(m);
  const names = kind === 'functions' ? Object.keys(iface.functions) : Object.keys(iface.structs);
  return { module: `${pkg.id}::${module}`, [kind]: names, count: names.length };
}

function functionJson(pkgId: string, module: string, name: string, f: FunctionInterface): Record<string, Json> {
  return {
    path: `${pkgId}::${module}::${name}`,
    package: pkgId,
    module,
    name,
    visibility: f.visibility,
    is_entry: f.is_entry,
    is_native: f.is_native,
    params: f.params.map(typeText),
    returns: f.returns.map(typeText),
    type_params: f.type_params.map((p, i) => ({ name: `T${i}`, constraints: p.constraints })),
  };
}

export function functionInfo(env: SimulationEnvironment, path: string, name: string): Json {
  const { address, module } = parseModulePath(path);
  const { pkg, module: m } = moduleAt(env, address, module);
  const f = interfaceOf(m).functions[name];
  if (f === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `function ${pkg.id}::${module}::${name} does not exist`, { address: pkg.id, module });
  return functionJson(pkg.id, module, name, f);
}

/** Public functions (of any loaded module) that return the type, best first. */
export function findConstructors(env: SimulationEnvironment, typePath: string): Json {
  const t = parseTypePath(typePath);
  const original = packageAt(env, t.address).originalId;
  const found: { json: Record<string, Json>; same: boolean; arity: number }[] = [];
  for (const { pkg, name: module, iface } of allModules(env)) {
    for (const [fname, f] of Object.entries(iface.functions)) {
      if (f.visibility !== 'public' && !f.is_entry) continue;
      const index = f.returns.findIndex((r) => r.kind === 'datatype' && r.address === original && r.module === t.module && r.name === t.name);
      if (index < 0) continue;
      found.push({ json: { ...functionJson(pkg.id, module, fname, f), return_index: index }, same: pkg.originalId === original && module === t.module, arity: f.params.length });
    }
  }
  found.sort((a, b) => Number(b.same) - Number(a.same) || a.arity - b.arity);
  return { type: `${original}::${t.module}::${t.name}`, constructors: found.map((f) => f.json), count: found.length };
}

function globRegex(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

function shortAddr(a: string): string {
  const s = a.slice(2).replace(/^0+/, '');
  return `0x${s === '' ? '0' : s}`;
}

/** `true` when `pattern` matches the full path, the short-address path, `module::name` or `name`. */
function matches(re: RegExp, address: string, module: string, name: string): boolean {
  return [`${address}::${module}::${name}`, `${shortAddr(address)}::${module}::${name}`, `${module}::${name}`, name].some((s) => re.test(s));
}

const ABILITIES = ['copy', 'drop', 'store', 'key'];

function abilityList(filter: string | string[] | null | undefined): string[] {
  if (filter === undefined || filter === null) return [];
  const list = (Array.isArray(filter) ? filter : filter.split(/[\s,+]+/)).map((a) => a.trim().toLowerCase()).filter((a) => a !== '');
  for (const a of list) if (!ABILITIES.includes(a)) throw new RequestError(`ability_filter: unknown ability "${a}" (copy, drop, store, key)`);
  return list;
}

export function searchTypes(env: SimulationEnvironment, pattern: string, filter: string | string[] | null | undefined): Json {
  const re = globRegex(pattern);
  const need = abilityList(filter);
  const out: string[] = [];
  for (const { pkg, name: module, iface } of allModules(env)) {
    const types: [string, string[]][] = [
      ...Object.entries(iface.structs).map(([n, s]): [string, string[]] => [n, s.abilities]),
      ...Object.entries(iface.enums).map(([n, e]): [string, string[]] => [n, e.abilities]),
    ];
    for (const [n, abilities] of types) {
      if (!need.every((a) => abilities.includes(a))) continue;
      if (matches(re, pkg.id, module, n)) out.push(`${pkg.id}::${module}::${n}`);
    }
  }
  return { pattern, ability_filter: need.length > 0 ? need.join(',') : null, matches: out, count: out.length };
}

export function searchFunctions(env: SimulationEnvironment, pattern: string, entryOnly: boolean): Json {
  const re = globRegex(pattern);
  const out: string[] = [];
  for (const { pkg, name: module, iface } of allModules(env)) {
    for (const [n, f] of Object.entries(iface.functions)) {
      if (entryOnly && !f.is_entry) continue;
      if (matches(re, pkg.id, module, n)) out.push(`${pkg.id}::${module}::${n}`);
    }
  }
  return { pattern, entry_only: entryOnly, matches: out, count: out.length };
}

/** Structs of a package (optionally one module, one name), the original `inspect_struct`. */
export function inspectStruct(env: SimulationEnvironment, pkgAddress: string, module: string | undefined, structName: string | undefined): Json {
  const pkg = packageAt(env, parseAddress(pkgAddress, 'package'));
  if (module !== undefined && !pkg.modules.some((m) => m.name === module)) {
    throw new SimulationEnvironmentError('MISSING_PACKAGE', `module ${pkg.id}::${module} does not exist`, { address: pkg.id, module });
  }
  const structs: Json[] = [];
  for (const m of pkg.modules) {
    if (module !== undefined && m.name !== module) continue;
    for (const [n, s] of Object.entries(interfaceOf(m.module).structs)) {
      if (structName !== undefined && n !== structName) continue;
      structs.push({
        package: pkg.id,
        module: m.name,
        name: n,
        abilities: s.abilities,
        type_params: s.type_params.map((p, i) => ({ name: `T${i}`, constraints: p.constraints, is_phantom: p.is_phantom })),
        fields: s.fields.map((f) => ({ name: f.name, field_type: typeText(f.type) })),
      });
    }
  }
  return { structs, count: structs.length };
}

/** One struct (or enum) in detail; with type arguments, its instantiated fields as well. */
export function structInfo(env: SimulationEnvironment, typePath: string): Json {
  const t = parseTypePath(typePath);
  const { pkg, module: m } = moduleAt(env, t.address, t.module);
  const iface = interfaceOf(m);
  const s = iface.structs[t.name];
  const e = iface.enums[t.name];
  if (s === undefined && e === undefined) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `type ${pkg.id}::${t.module}::${t.name} does not exist`, { address: pkg.id, module: t.module });
  }
  const abilities = (s ?? e).abilities;
  const out: Record<string, Json> = {
    type_path: `${pkg.id}::${t.module}::${t.name}`,
    package: pkg.id,
    module: t.module,
    name: t.name,
    kind: s !== undefined ? 'struct' : 'enum',
    abilities,
    is_object: abilities.includes('key'),
    type_params: (s ?? e).type_params.map((p) => ({ constraints: p.constraints, is_phantom: p.is_phantom })),
  };
  if (s !== undefined) {
    out.is_native = s.is_native;
    out.fields = s.fields.map((f) => ({ name: f.name, type_str: typeText(f.type), type_json: f.type as unknown as Json }));
  } else {
    out.variants = e.variants.map((v) => ({ name: v.name, fields: v.fields.map((f) => ({ name: f.name, type_str: typeText(f.type) })) }));
  }
  if (t.typeArgs !== null) {
    const instance = `${pkg.id}::${t.module}::${t.name}${t.typeArgs}`;
    let type;
    try {
      type = env.vm.resolveType(instance, pkg.id);
    } catch (err) {
      throw new SimulationEnvironmentError('TYPE_MISMATCH', `${instance} does not resolve: ${errorMessage(err)}`);
    }
    const d = type.datatype;
    out.instantiation = {
      type: formatType(type),
      abilities: abilityNames(type.abilities),
      fields: d === null ? [] : d.fields().map((f) => ({ name: f.name, type_str: formatType(env.vm.types.subst(f.type, type.typeArgs)) })),
    };
  }
  return out;
}

export function disassemble(env: SimulationEnvironment, path: string, fn: string): Json {
  const { address, module } = parseModulePath(path);
  const { pkg, module: m } = moduleAt(env, address, module);
  const f = interfaceOf(m).functions[fn];
  if (f === undefined) throw new SimulationEnvironmentError('MISSING_PACKAGE', `function ${pkg.id}::${module}::${fn} does not exist`, { address: pkg.id, module });
  return { module_path: `${pkg.id}::${module}`, function: fn, visibility: f.visibility, is_entry: f.is_entry, disassembly: disassembleFunction(m, fn) };
}

/**
 * Move source stubs generated from bytecode alone.
 *
 * A stub package declares what other packages can use of a compiled package: every
 * struct and enum (abilities, type parameters, fields) and the signatures of every
 * public or entry function, with `abort 0` bodies. Compiling against stubs gives the
 * same bytecode as compiling against the real sources, because a dependent module only
 * records the datatype handles (name, abilities, type parameters) and function handles
 * (name, signature) of what it uses. The compiled modules then link against the real
 * bytecode at run time.
 *
 * What bytecode does not carry cannot be in a stub: macros (`public macro fun`, e.g.
 * `vector::do!`), `public use fun` method aliases, `#[syntax(index)]` and
 * `#[defines_primitive]` attributes, constants and doc comments. For the framework, the
 * attributes and aliases are re-added from a table of the upstream sources (see
 * `stub-extras.ts`); macros stay absent.
 */
import type { AbilitySet, CompiledModule, DatatypeHandle, DatatypeTypeParameter, FieldDefinition, FunctionDefinition, SignatureToken } from './file-format.js';
import { abilityNames, canonicalAddress, moduleAddress, moduleHandleId, moduleName, renderToken, shortAddress } from './module-access.js';
import { frameworkSourceExtras, type ModuleSourceExtras } from './stub-extras.js';
import type { MacroDeclaration } from './stub-extras-types.js';

/**
 * Words that Move 2024 reserves. An identifier from bytecode that is one of them is
 * written as a restricted identifier (`` `type` ``).
 */
export const MOVE_RESERVED_WORDS: ReadonlySet<string> = new Set([
  'abort',
  'acquires',
  'as',
  'break',
  'const',
  'continue',
  'copy',
  'else',
  'enum',
  'false',
  'for',
  'friend',
  'fun',
  'if',
  'let',
  'loop',
  'match',
  'module',
  'move',
  'mut',
  'native',
  'public',
  'return',
  'struct',
  'true',
  'type',
  'use',
  'while',
]);

/** Write a bytecode identifier as a Move source identifier, escaping reserved words. */
export function moveSourceIdentifier(name: string): string {
  return MOVE_RESERVED_WORDS.has(name) ? '`' + name + '`' : name;
}

/** Package and named-address names of a stub package. */
export interface StubPackageNames {
  /** `[package] name` of the stub's Move.toml (e.g. `Sui`). */
  packageName: string;
  /** Named address the stub's modules are declared under (e.g. `sui`). */
  addressName: string;
}

/** The system packages, by canonical address, with their upstream package and address names. */
export const SYSTEM_PACKAGES: ReadonlyMap<string, StubPackageNames & { directory: string }> = new Map(
  (
    [
      ['0x1', 'MoveStdlib', 'std', 'move-stdlib'],
      ['0x2', 'Sui', 'sui', 'sui-framework'],
      ['0x3', 'SuiSystem', 'sui_system', 'sui-system'],
      ['0xb', 'Bridge', 'bridge', 'bridge'],
      ['0xdee9', 'DeepBook', 'deepbook', 'deepbook'],
    ] as const
  ).map(([address, packageName, addressName, directory]) => [canonicalAddress(address), { packageName, addressName, directory }]),
);

/**
 * Default names of a stub package: the upstream names for system packages, otherwise
 * `packageName` (default `pkg_<first 8 hex digits>`) and its snake-case form as the
 * named address.
 */
export function stubPackageNames(address: string, packageName?: string): StubPackageNames {
  const system = SYSTEM_PACKAGES.get(canonicalAddress(address));
  if (system && packageName === undefined) {
    return { packageName: system.packageName, addressName: system.addressName };
  }
  const name = packageName ?? `pkg_${canonicalAddress(address).slice(2).replace(/^0+/, '').slice(0, 8) || '0'}`;
  return { packageName: name, addressName: system?.addressName ?? toAddressName(name) };
}

/** snake_case form of a package name, usable as a named address. */
function toAddressName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .toLowerCase();
  const safe = /^[a-z_]/.test(snake) ? snake : `p_${snake}`;
  return MOVE_RESERVED_WORDS.has(safe) ? `${safe}_` : safe;
}

/** Options of {@link generateMoveStubs}. */
export interface MoveStubOptions {
  /** Package name; only used to derive the default `addressName`. */
  packageName?: string;
  /** Named address the modules are declared under (default from {@link stubPackageNames}). */
  addressName?: string;
  /**
   * Source-only declarations to re-add per module (attributes, method aliases); default:
   * the framework's ({@link frameworkSourceExtras}); `false` for none.
   */
  sourceExtras?: ((address: string, moduleName: string) => ModuleSourceExtras | undefined) | false;
  /**
   * The modules of the packages this one depends on, for macros whose bodies use another
   * package's macros (`sui::bcs::peel_vec!` uses `std::vector::tabulate!`): such a macro is
   * declared only when that package is given and can declare what it uses.
   */
  packages?: readonly (readonly CompiledModule[])[];
}

/**
 * Generate Move 2024 source stubs for the modules of one package.
 *
 * Returns one file per module, keyed by path (`sources/<module>.move`). Datatypes are
 * referenced by numeric address (`0x2::coin::Coin<T0>`), so a stub needs no named
 * address other than its own. All modules must share one address.
 */
export function generateMoveStubs(modules: readonly CompiledModule[], options: MoveStubOptions = {}): Map<string, string> {
  const files = new Map<string, string>();
  if (modules.length === 0) return files;
  const address = moduleAddress(modules[0]);
  const addressName = options.addressName ?? stubPackageNames(address, options.packageName).addressName;
  const byName = new Map<string, CompiledModule>();
  for (const m of modules) {
    if (moduleAddress(m) !== address) {
      throw new RangeError(`stub package mixes addresses ${shortAddress(address)} and ${shortAddress(moduleAddress(m))} (module ${moduleName(m)})`);
    }
    if (byName.has(moduleName(m))) throw new RangeError(`duplicate module ${moduleName(m)} in stub package`);
    byName.set(moduleName(m), m);
  }
  const extrasOf = options.sourceExtras === false ? undefined : (options.sourceExtras ?? frameworkSourceExtras);
  const packages = new Map<string, ReadonlyMap<string, CompiledModule>>([[address, byName]]);
  for (const other of options.packages ?? []) {
    if (other.length === 0 || moduleAddress(other[0]) === address) continue;
    packages.set(moduleAddress(other[0]), new Map(other.map((o) => [moduleName(o), o])));
  }
  // The macros each module can declare, computed on demand (macros use macros of other modules).
  const macroNames = new Map<string, ReadonlySet<string>>();
  const macrosOf: MacrosOf = (at, module) => {
    const key = `${at}::${module}`;
    const known = macroNames.get(key);
    if (known) return known;
    macroNames.set(key, new Set()); // a cycle declares nothing
    const pkg = packages.get(at);
    const target = pkg?.get(module);
    const extras = target && extrasOf?.(at, module);
    const names = new Set(extras && target && pkg ? declarableMacros(target, extras, packages, macrosOf).map((d) => d.name) : []);
    macroNames.set(key, names);
    return names;
  };
  for (const m of modules) {
    const extras = extrasOf?.(address, moduleName(m));
    files.set(`sources/${moduleName(m)}.move`, moduleStub(m, addressName, extras ? checkedExtras(m, extras, packages, macrosOf) : {}));
  }
  return files;
}

/** The macros a module (`address` canonical) can declare. */
type MacrosOf = (address: string, module: string) => ReadonlySet<string>;

/** Where a stub package finds one of its dependencies. */
export type StubDependencySource = { local: string } | { git: string; rev: string; subdir?: string };

/** Options of {@link generateStubManifest}. */
export interface StubManifestOptions extends StubPackageNames {
  /** The package's address (its original id), bound to `addressName`. */
  address: string;
  /** Id recorded as `published-at` (default `address`). */
  publishedAt?: string;
  /** Dependencies by name. System packages may be left out: the builder adds `std` and `sui` implicitly. */
  dependencies?: Readonly<Record<string, StubDependencySource>>;
  /** Move edition (default `2024`). */
  edition?: string;
}

/**
 * Generate the Move.toml of a stub package: a legacy-style manifest with
 * `published-at` and one named address, so dependents see the package at its real
 * address and list it among their dependency ids.
 */
export function generateStubManifest(options: StubManifestOptions): string {
  const address = canonicalAddress(options.address);
  const lines = [
    '[package]',
    `name = ${tomlString(options.packageName)}`,
    `edition = ${tomlString(options.edition ?? '2024')}`,
    `published-at = ${tomlString(canonicalAddress(options.publishedAt ?? address))}`,
    '',
    '[dependencies]',
  ];
  for (const [name, source] of Object.entries(options.dependencies ?? {})) {
    lines.push(`${tomlKey(name)} = ${tomlDependency(source)}`);
  }
  lines.push('', '[addresses]', `${tomlKey(options.addressName)} = ${tomlString(address)}`, '');
  return lines.join('\n');
}

/** The repository `sui move build` fetches the system packages from, as a stub's git dependency names it. */
export const SUI_FRAMEWORK_GIT = { git: 'https://github.com/MystenLabs/sui.git', rev: 'framework/mainnet', directory: 'crates/sui-framework/packages' } as const;

/** A package given to {@link generateStubTree}. */
export interface StubTreePackage {
  /** Original id: the address its modules carry. */
  originalId: string;
  /** Storage id of the version stubbed (its `published-at`). */
  id: string;
  modules: readonly CompiledModule[];
}

/** Options of {@link generateStubTree}. */
export interface StubTreeOptions {
  /** The root's `[package] name` (default from {@link stubPackageNames}). */
  packageName?: string;
  /** Folder of the dependencies' stubs, relative to the root's (default `deps`). */
  depsDir?: string;
}

/** One stub package of a {@link StubTree}. */
export interface StubTreeEntry extends StubPackageNames {
  /** Its folder, relative to the root's (`.` for the root). */
  dir: string;
  /** Original id. */
  address: string;
  /** Storage id (`published-at`). */
  publishedAt: string;
}

/** What {@link generateStubTree} writes. */
export interface StubTree {
  /** Files by path relative to the root's folder. */
  files: Map<string, string>;
  /** The root first, then each dependency. */
  packages: StubTreeEntry[];
  /** Original ids of the non-system packages some module uses that `resolve` did not give, sorted. */
  missing: string[];
}

/** Canonical addresses (other than its own) the modules of a package use. */
function packageReferences(modules: readonly CompiledModule[]): string[] {
  const out = new Set<string>();
  for (const m of modules) for (let i = 0; i < m.moduleHandles.length; i++) out.add(canonicalAddress(moduleHandleId(m, i).address));
  if (modules.length > 0) out.delete(canonicalAddress(moduleAddress(modules[0])));
  return [...out].sort();
}

/**
 * Stub packages of a package and of every non-system package it uses, transitively, so that
 * the whole builds (`smi build`, `sui move build`) and a package can depend on it as a local
 * dependency: the root's files at the top, each dependency's under `deps/<name>/`. Every
 * Move.toml binds its own named address to the package's original id, records its storage
 * id as `published-at`, and names its dependencies: `local` paths to the other stubs, git
 * dependencies on MystenLabs/sui for the system packages other than `std` and `sui` (which
 * the builders add themselves). `resolve` finds a package by original id (the version its
 * dependent links to).
 */
export function generateStubTree(root: StubTreePackage, resolve: (originalId: string) => StubTreePackage | undefined, options: StubTreeOptions = {}): StubTree {
  const depsDir = options.depsDir ?? 'deps';
  const rootAddress = canonicalAddress(root.originalId);
  const order: { pkg: StubTreePackage; entry: StubTreeEntry }[] = [];
  const byAddress = new Map<string, StubTreeEntry>();
  const missing = new Set<string>();
  const taken = new Set<string>([...SYSTEM_PACKAGES.values()].flatMap((s) => [s.packageName, s.addressName].map((n) => n.toLowerCase())));
  const unique = (name: string): string => {
    let candidate = name;
    for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${name}_${i}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  };
  const add = (pkg: StubTreePackage, isRoot: boolean): void => {
    const address = canonicalAddress(pkg.originalId);
    const names = stubPackageNames(address, isRoot ? options.packageName : undefined);
    const system = SYSTEM_PACKAGES.has(address);
    const packageName = system ? names.packageName : unique(names.packageName);
    const addressName = system || packageName === names.packageName ? names.addressName : toAddressName(packageName);
    if (!system) taken.add(addressName.toLowerCase());
    const entry = { packageName, addressName, dir: isRoot ? '.' : `${depsDir}/${packageName}`, address, publishedAt: canonicalAddress(pkg.id) };
    byAddress.set(address, entry);
    order.push({ pkg, entry });
  };
  add(root, true);
  for (let i = 0; i < order.length; i++) {
    for (const r of packageReferences(order[i].pkg.modules)) {
      if (SYSTEM_PACKAGES.has(r) || byAddress.has(r) || missing.has(r)) continue;
      const found = resolve(r);
      if (found === undefined || canonicalAddress(found.originalId) !== r) missing.add(r);
      else add(found, false);
    }
  }
  const files = new Map<string, string>();
  const all = order.map((o) => o.pkg.modules);
  for (const { pkg, entry } of order) {
    const prefix = entry.dir === '.' ? '' : `${entry.dir}/`;
    const others = all.filter((m) => m !== pkg.modules);
    for (const [rel, text] of generateMoveStubs(pkg.modules, { addressName: entry.addressName, packages: others })) files.set(prefix + rel, text);
    const dependencies: Record<string, StubDependencySource> = {};
    for (const r of packageReferences(pkg.modules)) {
      const system = SYSTEM_PACKAGES.get(r);
      if (system) {
        if (r !== canonicalAddress('0x1') && r !== canonicalAddress('0x2') && r !== rootAddress) {
          dependencies[system.packageName] = { git: SUI_FRAMEWORK_GIT.git, subdir: `${SUI_FRAMEWORK_GIT.directory}/${system.directory}`, rev: SUI_FRAMEWORK_GIT.rev };
        }
        continue;
      }
      const dep = byAddress.get(r);
      if (dep === undefined) continue;
      // Dependencies sit side by side under `depsDir`; the root reaches them there.
      dependencies[dep.packageName] = { local: entry.dir === '.' ? dep.dir : `../${dep.packageName}` };
    }
    files.set(`${prefix}Move.toml`, generateStubManifest({ packageName: entry.packageName, addressName: entry.addressName, address: entry.address, publishedAt: entry.publishedAt, dependencies }));
  }
  return { files, packages: order.map((o) => o.entry), missing: [...missing].sort() };
}

/** A dependency's inline table: `{ local = "../x" }` or `{ git = "...", subdir = "...", rev = "..." }`. */
export function tomlDependency(source: StubDependencySource): string {
  if ('local' in source) return `{ local = ${tomlString(source.local)} }`;
  const subdir = source.subdir === undefined ? '' : `, subdir = ${tomlString(source.subdir)}`;
  return `{ git = ${tomlString(source.git)}${subdir}, rev = ${tomlString(source.rev)} }`;
}

/** A TOML basic string. */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** A TOML key: bare when possible, quoted otherwise. */
export function tomlKey(s: string): string {
  return /^[A-Za-z0-9_-]+$/.test(s) ? s : JSON.stringify(s);
}

const INDENT = '    ';

/** Source extras that hold for this module's bytecode, ready to print. */
interface CheckedExtras {
  definesPrimitive?: string;
  indexFunctions?: ReadonlySet<string>;
  /** `public use fun` lines without indentation. */
  aliases?: string[];
  /** Macro declarations whose bodies have what they use. */
  macros?: string[];
}

function publicFunction(m: CompiledModule, name: string): FunctionDefinition | undefined {
  return m.functionDefs.find((d) => d.visibility === 'Public' && m.identifiers[m.functionHandles[d.function].name] === name);
}

function declaresDatatype(m: CompiledModule, name: string): boolean {
  const named = (handle: number) => m.identifiers[m.datatypeHandles[handle].name] === name;
  return m.structDefs.some((d) => named(d.structHandle)) || m.enumDefs.some((d) => named(d.enumHandle));
}

/** Keep the extras whose functions and types exist in the bytecode. */
function checkedExtras(m: CompiledModule, extras: ModuleSourceExtras, packages: ReadonlyMap<string, ReadonlyMap<string, CompiledModule>>, macrosOf: MacrosOf): CheckedExtras {
  const self = moduleAddress(m);
  const pkg = packages.get(self) ?? new Map<string, CompiledModule>();
  const out: CheckedExtras = {};
  if (extras.definesPrimitive !== undefined) out.definesPrimitive = extras.definesPrimitive;
  if (extras.indexFunctions) {
    out.indexFunctions = new Set(extras.indexFunctions.filter((f) => publicFunction(m, f) !== undefined));
  }
  const macros = declarableMacros(m, extras, packages, macrosOf);
  const aliases: string[] = [];
  for (const [fn, type, method] of extras.methodAliases ?? []) {
    const [modName, fnName] = fn.includes('::') ? fn.split('::') : [moduleName(m), fn];
    const target = pkg.get(modName);
    if (!target) continue;
    // The alias names a public function, or a macro declared in its module (`scratch::get_do`).
    const macro = target === m ? macros.some((d) => d.name === fnName) : macrosOf(self, modName).has(fnName);
    if (!publicFunction(target, fnName) && !macro) continue;
    if (type !== extras.definesPrimitive && !declaresDatatype(m, type)) continue;
    // A function of the module already is that method of that type.
    if (m.functionDefs.some((d) => isCallableFromOutside(d) && m.identifiers[m.functionHandles[d.function].name] === method && firstParameterIs(m, d, type))) {
      continue;
    }
    const path = target === m ? moveSourceIdentifier(fnName) : `${shortAddress(moduleAddress(m))}::${moveSourceIdentifier(modName)}::${moveSourceIdentifier(fnName)}`;
    aliases.push(`public use fun ${path} as ${moveSourceIdentifier(type)}.${moveSourceIdentifier(method)};`);
  }
  if (aliases.length > 0) out.aliases = aliases;
  if (macros.length > 0) out.macros = macros.map((d) => d.source);
  return out;
}

/**
 * The macros of a module whose bodies have what they use in the package (public functions,
 * and macros that are themselves declarable, in this module or another); of several
 * declarations of one name, the first that can be declared. In the module's order.
 */
function declarableMacros(m: CompiledModule, extras: ModuleSourceExtras, packages: ReadonlyMap<string, ReadonlyMap<string, CompiledModule>>, macrosOf: MacrosOf): MacroDeclaration[] {
  const self = moduleAddress(m);
  const candidates = extras.macros ?? [];
  const chosen = new Map<string, MacroDeclaration>();
  const holds = (need: string): boolean => {
    const parts = need.split('::');
    const [at, mod, member] = parts.length === 3 ? [canonicalAddress(parts[0]), parts[1], parts[2]] : [self, parts[0], parts[1]];
    if (member.endsWith('!')) {
      const name = member.slice(0, -1);
      return at === self && mod === moduleName(m) ? chosen.has(name) : macrosOf(at, mod).has(name);
    }
    const target = packages.get(at)?.get(mod);
    return target !== undefined && publicFunction(target, member) !== undefined;
  };
  // Macros of one module use each other in any order: add what can be added until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of candidates) {
      if (chosen.has(d.name) || !d.needs.every(holds)) continue;
      chosen.set(d.name, d);
      changed = true;
    }
  }
  return candidates.filter((d) => chosen.get(d.name) === d);
}

function moduleStub(m: CompiledModule, addressName: string, extras: CheckedExtras): string {
  const out: string[] = ['// Generated from bytecode: declarations only, function bodies abort.'];
  if (extras.definesPrimitive !== undefined) out.push(`#[defines_primitive(${extras.definesPrimitive})]`);
  // Fields and type parameters a body would use are never used by `abort 0`: no warning for each of them when the stub is built.
  out.push('#[allow(unused)]');
  out.push(`module ${moveSourceIdentifier(addressName)}::${moveSourceIdentifier(moduleName(m))} {`);
  for (const alias of extras.aliases ?? []) out.push(INDENT + alias);
  for (const source of extras.macros ?? []) out.push('', ...source.split('\n').map((l) => INDENT + l));
  const datatypeParams = (h: DatatypeHandle) => typeParameterList(h.typeParameters);
  for (const def of m.structDefs) {
    const h = m.datatypeHandles[def.structHandle];
    const fields = def.fieldInformation.$kind === 'Declared' ? def.fieldInformation.fields : [];
    out.push('');
    out.push(`${INDENT}public struct ${moveSourceIdentifier(m.identifiers[h.name])}${datatypeParams(h)}${hasClause(h.abilities)} {`);
    for (const f of fields) out.push(`${INDENT}${INDENT}${fieldDecl(m, f, addressName)},`);
    out.push(`${INDENT}}`);
  }
  for (const def of m.enumDefs) {
    const h = m.datatypeHandles[def.enumHandle];
    out.push('');
    out.push(`${INDENT}public enum ${moveSourceIdentifier(m.identifiers[h.name])}${datatypeParams(h)}${hasClause(h.abilities)} {`);
    for (const v of def.variants) {
      const name = moveSourceIdentifier(m.identifiers[v.variantName]);
      if (v.fields.length === 0) out.push(`${INDENT}${INDENT}${name},`);
      else out.push(`${INDENT}${INDENT}${name} { ${v.fields.map((f) => fieldDecl(m, f, addressName)).join(', ')} },`);
    }
    out.push(`${INDENT}}`);
  }
  for (const def of m.functionDefs) {
    if (!isCallableFromOutside(def)) continue;
    out.push('');
    if (extras.indexFunctions?.has(m.identifiers[m.functionHandles[def.function].name])) out.push(`${INDENT}#[syntax(index)]`);
    out.push(INDENT + functionStub(m, def, addressName));
  }
  out.push('}', '');
  return out.join('\n');
}

/** `true` when the function's first parameter is `type` (a datatype of the module or a primitive), by value or reference. */
function firstParameterIs(m: CompiledModule, def: FunctionDefinition, type: string): boolean {
  let token: SignatureToken | undefined = m.signatures[m.functionHandles[def.function].parameters][0];
  while (token && (token.$kind === 'Reference' || token.$kind === 'MutableReference')) token = token.type;
  if (!token) return false;
  if (token.$kind === 'Datatype' || token.$kind === 'DatatypeInstantiation') {
    const h = m.datatypeHandles[token.index];
    return h.module === m.selfModuleHandleIndex && m.identifiers[h.name] === type;
  }
  return token.$kind.toLowerCase() === type;
}

/** Public functions and entry functions: what another package or a transaction can call. */
function isCallableFromOutside(def: FunctionDefinition): boolean {
  return def.visibility === 'Public' || def.isEntry;
}

function functionStub(m: CompiledModule, def: FunctionDefinition, addressName: string): string {
  const h = m.functionHandles[def.function];
  const modifiers = (def.visibility === 'Public' ? 'public ' : '') + (def.isEntry ? 'entry ' : '');
  const typeParams = h.typeParameters.length === 0 ? '' : `<${h.typeParameters.map((c, i) => `T${i}${constraintClause(c)}`).join(', ')}>`;
  const params = m.signatures[h.parameters].map((t, i) => `_a${i}: ${sourceType(m, t, addressName)}`).join(', ');
  const returns = m.signatures[h.return];
  const ret = returns.length === 0 ? '' : returns.length === 1 ? `: ${sourceType(m, returns[0], addressName)}` : `: (${returns.map((t) => sourceType(m, t, addressName)).join(', ')})`;
  return `${modifiers}fun ${moveSourceIdentifier(m.identifiers[h.name])}${typeParams}(${params})${ret} { abort 0 }`;
}

function fieldDecl(m: CompiledModule, f: FieldDefinition, addressName: string): string {
  return `${moveSourceIdentifier(m.identifiers[f.name])}: ${sourceType(m, f.type, addressName)}`;
}

function typeParameterList(params: readonly DatatypeTypeParameter[]): string {
  if (params.length === 0) return '';
  return `<${params.map((p, i) => `${p.isPhantom ? 'phantom ' : ''}T${i}${constraintClause(p.constraints)}`).join(', ')}>`;
}

function constraintClause(set: AbilitySet): string {
  const names = abilityNames(set);
  return names.length === 0 ? '' : `: ${names.join(' + ')}`;
}

function hasClause(set: AbilitySet): string {
  const names = abilityNames(set);
  return names.length === 0 ? '' : ` has ${names.join(', ')}`;
}

/**
 * A signature token as Move source: type parameters `T<i>`; the package's own datatypes under
 * its named address (`addressName`), so the stub still compiles when a build places the package
 * elsewhere (at 0x0, to publish it); other packages' datatypes by numeric address.
 */
function sourceType(m: CompiledModule, token: SignatureToken, addressName: string): string {
  return renderToken(token, {
    typeParameter: (i) => `T${i}`,
    datatype: (index, args) => (args.length === 0 ? datatypePath(m, index, addressName) : `${datatypePath(m, index, addressName)}<${args.join(', ')}>`),
  });
}

function datatypePath(m: CompiledModule, index: number, addressName: string): string {
  const h = m.datatypeHandles[index];
  const mh = m.moduleHandles[h.module];
  const at = m.addressIdentifiers[mh.address];
  const address = at === moduleAddress(m) ? moveSourceIdentifier(addressName) : shortAddress(at);
  return `${address}::${moveSourceIdentifier(m.identifiers[mh.name])}::${moveSourceIdentifier(m.identifiers[h.name])}`;
}

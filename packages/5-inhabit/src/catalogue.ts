/**
 * Everything the planner knows about the loaded packages, read from their bytecode alone
 * (no linking, so a package whose dependencies are missing is still described): every
 * datatype (abilities, type parameters, fields when its module is loaded) and every
 * function (visibility, entry, signature, the calls its body makes).
 */
import { Ability, type Bytecode, canonicalAddress, type CompiledModule, type Constant, type MovePackage, moduleName } from '@smi/bytecode';
import { type DatatypeTy, datatypeKey, formatTy, handleKey, type Ty, tyFromToken } from './types.js';

/** A type parameter of a datatype. */
export interface DatatypeParam {
  constraints: number;
  isPhantom: boolean;
}

/** A field of a struct or enum variant. */
export interface FieldDecl {
  name: string;
  type: Ty;
}

/** What is known of a datatype. */
export interface DatatypeDecl {
  key: string;
  address: string;
  module: string;
  name: string;
  abilities: number;
  typeParams: readonly DatatypeParam[];
  kind: 'struct' | 'enum';
  /** `true` for a native struct (no fields known to Move). */
  native: boolean;
  /** Struct fields; `null` when the defining module is not loaded (only its handle is known). */
  fields: readonly FieldDecl[] | null;
  /** Enum variants; `null` when unknown. */
  variants: readonly { name: string; fields: readonly FieldDecl[] }[] | null;
}

/** A call a function body makes (to a function of another module or its own). */
export interface CallSite {
  address: string;
  module: string;
  name: string;
  /** Type arguments, in terms of the caller's type parameters. */
  typeArgs: readonly Ty[];
}

/** What is known of a function. */
export interface FunctionDecl {
  /** Storage id of the package (the id to call). */
  packageId: string;
  /** The modules' self address (the package's original id). */
  address: string;
  module: string;
  name: string;
  defIndex: number;
  visibility: 'Private' | 'Public' | 'Friend';
  isEntry: boolean;
  isNative: boolean;
  /** Ability constraints of each type parameter. */
  typeParams: readonly number[];
  params: readonly Ty[];
  returns: readonly Ty[];
  calls: readonly CallSite[];
  /** The body (`null` for a native), and the module's constant pool it loads from. */
  code: readonly Bytecode[] | null;
  constants: readonly Constant[];
}

/** A loaded package. */
export interface PackageInfo {
  id: string;
  originalId: string;
  version: number;
  modules: readonly string[];
}

export const STD = canonicalAddress('0x1');
export const SUI = canonicalAddress('0x2');
const SUI_SYSTEM = canonicalAddress('0x3');

/** `true` for 0x1, 0x2 and 0x3 (skipped as targets by default, as the original did). */
export function isCoreFramework(id: string): boolean {
  const a = canonicalAddress(id);
  return a === STD || a === SUI || a === SUI_SYSTEM;
}

function datatypeDecls(m: CompiledModule): DatatypeDecl[] {
  const address = canonicalAddress(m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address]);
  const module = moduleName(m);
  const base = (handleIndex: number): Omit<DatatypeDecl, 'kind' | 'native' | 'fields' | 'variants'> => {
    const h = m.datatypeHandles[handleIndex];
    const name = m.identifiers[h.name];
    return {
      key: datatypeKey(address, module, name),
      address,
      module,
      name,
      abilities: h.abilities,
      typeParams: h.typeParameters.map((p) => ({ constraints: p.constraints, isPhantom: p.isPhantom })),
    };
  };
  const fieldsOf = (fs: readonly { name: number; type: Parameters<typeof tyFromToken>[1] }[]): FieldDecl[] => fs.map((f) => ({ name: m.identifiers[f.name], type: tyFromToken(m, f.type) }));
  const out: DatatypeDecl[] = [];
  for (const d of m.structDefs) {
    const native = d.fieldInformation.$kind === 'Native';
    out.push({
      ...base(d.structHandle),
      kind: 'struct',
      native,
      fields: d.fieldInformation.$kind === 'Declared' ? fieldsOf(d.fieldInformation.fields) : [],
      variants: null,
    });
  }
  for (const d of m.enumDefs) {
    out.push({
      ...base(d.enumHandle),
      kind: 'enum',
      native: false,
      fields: null,
      variants: d.variants.map((v) => ({ name: m.identifiers[v.variantName], fields: fieldsOf(v.fields) })),
    });
  }
  return out;
}

/** The datatypes a module names by handle (abilities and type parameters only). */
function handleDecls(m: CompiledModule): DatatypeDecl[] {
  return m.datatypeHandles.map((h, i) => {
    const key = handleKey(m, i);
    const [address, module, name] = key.split('::');
    return {
      key,
      address,
      module,
      name,
      abilities: h.abilities,
      typeParams: h.typeParameters.map((p) => ({ constraints: p.constraints, isPhantom: p.isPhantom })),
      kind: 'struct',
      native: false,
      fields: null,
      variants: null,
    };
  });
}

function callSites(m: CompiledModule, code: readonly { $kind: string; index?: number }[]): CallSite[] {
  const out: CallSite[] = [];
  const seen = new Set<string>();
  for (const ins of code) {
    let handleIndex: number;
    let typeArgs: Ty[] = [];
    if (ins.$kind === 'Call') handleIndex = ins.index as number;
    else if (ins.$kind === 'CallGeneric') {
      const inst = m.functionInstantiations[ins.index as number];
      handleIndex = inst.handle;
      typeArgs = m.signatures[inst.typeParameters].map((t) => tyFromToken(m, t));
    } else continue;
    const h = m.functionHandles[handleIndex];
    const mh = m.moduleHandles[h.module];
    const site: CallSite = {
      address: canonicalAddress(m.addressIdentifiers[mh.address]),
      module: m.identifiers[mh.name],
      name: m.identifiers[h.name],
      typeArgs,
    };
    const key = `${site.address}::${site.module}::${site.name}<${typeArgs.map(formatTy).join(',')}>`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(site);
  }
  return out;
}

function functionDecls(pkg: MovePackage, m: CompiledModule): FunctionDecl[] {
  const address = canonicalAddress(m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address]);
  const module = moduleName(m);
  return m.functionDefs.map((d, defIndex) => {
    const h = m.functionHandles[d.function];
    return {
      packageId: pkg.id,
      address,
      module,
      name: m.identifiers[h.name],
      defIndex,
      visibility: d.visibility,
      isEntry: d.isEntry,
      isNative: d.code === null,
      typeParams: h.typeParameters,
      params: m.signatures[h.parameters].map((t) => tyFromToken(m, t)),
      returns: m.signatures[h.return].map((t) => tyFromToken(m, t)),
      calls: d.code === null ? [] : callSites(m, d.code.code as { $kind: string; index?: number }[]),
      code: d.code === null ? null : d.code.code,
      constants: m.constantPool,
    };
  });
}

function selfKey(m: CompiledModule): string {
  return `${canonicalAddress(m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address])}::${moduleName(m)}`;
}

/** What the loaded packages declare. */
export class Catalogue {
  readonly packages: readonly PackageInfo[];
  private readonly datatypes = new Map<string, DatatypeDecl>();
  private readonly functionsByPackage = new Map<string, FunctionDecl[]>();
  /** Original id → storage id of its newest loaded version. */
  private readonly latest = new Map<string, string>();
  /** `address::module` (newest version) → the modules it uses. */
  private readonly moduleDeps = new Map<string, string[]>();
  private readonly linkCache = new Map<string, string | null>();
  private readonly byName = new Map<string, Map<string, FunctionDecl>>();

  constructor(packages: readonly MovePackage[]) {
    const sorted = [...packages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.packages = sorted.map((p) => ({
      id: p.id,
      originalId: p.originalId,
      version: p.version ?? 1,
      modules: p.modules.map((m) => moduleName(m.module)).sort(),
    }));
    for (const p of this.packages) {
      const cur = this.latest.get(p.originalId);
      const curVersion = cur === undefined ? -1 : (this.packages.find((q) => q.id === cur)?.version ?? 0);
      if (p.version > curVersion) this.latest.set(p.originalId, p.id);
    }
    // Handles first, so that definitions (from any version) replace them.
    for (const p of sorted) for (const { module } of p.modules) for (const d of handleDecls(module)) if (!this.datatypes.has(d.key)) this.datatypes.set(d.key, d);
    for (const p of sorted) {
      const newest = this.latest.get(p.originalId) === p.id;
      for (const { module } of p.modules) {
        for (const d of datatypeDecls(module)) {
          const cur = this.datatypes.get(d.key);
          if (cur === undefined || (cur.fields === null && cur.variants === null) || newest) this.datatypes.set(d.key, d);
        }
      }
      if (newest) {
        for (const { module } of p.modules) {
          const self = selfKey(module);
          this.moduleDeps.set(
            self,
            module.moduleHandles.filter((_, i) => i !== module.selfModuleHandleIndex).map((h) => `${canonicalAddress(module.addressIdentifiers[h.address])}::${module.identifiers[h.name]}`),
          );
        }
      }
      const fns: FunctionDecl[] = [];
      const modules = [...p.modules].sort((a, b) => (moduleName(a.module) < moduleName(b.module) ? -1 : 1));
      for (const { module } of modules) fns.push(...functionDecls(p, module));
      this.functionsByPackage.set(p.id, fns);
    }
  }

  /** The datatype `key`, or `undefined` when no loaded module names it. */
  datatype(key: string): DatatypeDecl | undefined {
    return this.datatypes.get(key);
  }

  /**
   * The first module that module `address::module` needs (transitively) and no loaded
   * package has, or `null` when it links. A module that does not link cannot run (the VM
   * loads modules with all they use), though the rest of its package may.
   */
  missingDependency(address: string, module: string): string | null {
    const key = `${canonicalAddress(address)}::${module}`;
    const cached = this.linkCache.get(key);
    if (cached !== undefined) return cached;
    this.linkCache.set(key, null); // cycles: assume fine while visiting
    const deps = this.moduleDeps.get(key);
    let missing: string | null = deps === undefined ? key : null;
    for (const d of deps ?? []) {
      if (missing !== null) break;
      missing = this.missingDependency(...(d.split('::') as [string, string]));
    }
    this.linkCache.set(key, missing);
    return missing;
  }

  /** Keys of every datatype a loaded module defines or names. */
  datatypeKeys(): Iterable<string> {
    return this.datatypes.keys();
  }

  /** `true` when the module defining `key` is loaded (its fields are known). */
  isDefined(key: string): boolean {
    const d = this.datatypes.get(key);
    return d !== undefined && (d.fields !== null || d.variants !== null);
  }

  /** Every function of package `id`, module by module (name order), definition order within. */
  functionsOf(id: string): readonly FunctionDecl[] {
    return this.functionsByPackage.get(canonicalAddress(id)) ?? [];
  }

  /** Every function of the newest version of each package. */
  *latestFunctions(): Iterable<FunctionDecl> {
    for (const id of [...new Set(this.latest.values())].sort()) yield* this.functionsOf(id);
  }

  /** Function `module::name` of the newest loaded version of package `originalId`, or `undefined`. */
  functionByName(originalId: string, module: string, name: string): FunctionDecl | undefined {
    const id = this.latest.get(originalId);
    if (id === undefined) return undefined;
    let index = this.byName.get(id);
    if (index === undefined) {
      index = new Map(this.functionsOf(id).map((f) => [`${f.module}::${f.name}`, f]));
      this.byName.set(id, index);
    }
    return index.get(`${module}::${name}`);
  }

  /** Storage id of the newest loaded version of the package with original id `originalId`. */
  latestVersionOf(originalId: string): string | undefined {
    return this.latest.get(canonicalAddress(originalId));
  }

  /** `true` when some loaded package has this original id. */
  hasPackage(originalId: string): boolean {
    return this.latest.has(canonicalAddress(originalId));
  }

  /**
   * Abilities of a type. A type parameter has the abilities of its constraints (from
   * `typeParams`); a datatype those it declares, reduced by its non-phantom arguments
   * (`key` needs `store` of every argument, the others the same ability).
   */
  abilities(t: Ty, typeParams: readonly number[] = []): number {
    const ALL = Ability.Copy | Ability.Drop | Ability.Store | Ability.Key;
    switch (t.$kind) {
      case 'Prim':
        return t.name === 'signer' ? Ability.Drop : Ability.Copy | Ability.Drop | Ability.Store;
      case 'Vector':
        return this.abilities(t.elem, typeParams) & (Ability.Copy | Ability.Drop | Ability.Store);
      case 'Ref':
        return Ability.Copy | Ability.Drop;
      case 'Param':
        return typeParams[t.index] ?? ALL;
      case 'Datatype': {
        const d = this.datatypes.get(t.key);
        if (d === undefined) return 0;
        let abilities = d.abilities;
        d.typeParams.forEach((p, i) => {
          if (p.isPhantom || t.args[i] === undefined) return;
          const a = this.abilities(t.args[i], typeParams);
          for (const ab of [Ability.Copy, Ability.Drop, Ability.Store]) if ((a & ab) === 0) abilities &= ~ab;
          if ((a & Ability.Store) === 0) abilities &= ~Ability.Key;
        });
        return abilities;
      }
    }
  }

  /** `true` when the type has `key` (an object). */
  isObject(t: Ty): t is DatatypeTy {
    return t.$kind === 'Datatype' && (this.abilities(t) & Ability.Key) !== 0;
  }
}

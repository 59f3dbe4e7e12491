/**
 * Loader and linker. A {@link Linker} sees one version of every package (keyed by the
 * package's original id, the address its modules carry) and resolves modules,
 * datatypes and functions across them, once. A module loads only when its whole dependency
 * closure is present (eager linking, as the Move VM's loader); what it holds is then
 * resolved lazily. Upgraded packages are linked
 * through the root package's linkage table; datatypes keep their defining id from the
 * type-origin table.
 *
 * Also the translated form of a function ({@link TranslatedCode}): what the translator
 * (`translate.ts`) produces from a {@link LoadedFunction} and the interpreter runs.
 */
import type { CompiledModule, FunctionDefinition, SignatureToken } from '@smi/bytecode';
import { VmError } from '../errors.js';
import type { NativeFunction, NativeRegistry } from '../natives/registry.js';
import type { DatatypeInfo, FieldInfo, Type, TypeTable, VariantInfo } from '../types/runtime-type.js';

/** A package as the VM stores it. */
export interface PackageRecord {
  /** Storage id (where this version lives). */
  storageId: string;
  /** Original id (the address inside its modules). */
  originalId: string;
  version: number | null;
  modules: Map<string, CompiledModule>;
  /** `module::Datatype` → defining package id. */
  typeOrigins: Map<string, string>;
  /** Dependency original id → storage id it links against. */
  linkage: Map<string, string>;
}

/** A function, resolved and ready to translate. */
export interface LoadedFunction {
  readonly module: LoadedModule;
  readonly name: string;
  readonly defIndex: number;
  readonly def: FunctionDefinition;
  readonly visibility: 'Private' | 'Public' | 'Friend';
  readonly isEntry: boolean;
  /** Ability constraints of each type parameter. */
  readonly typeParams: readonly number[];
  readonly params: readonly Type[];
  readonly returns: readonly Type[];
  /** Parameters then declared locals (empty for natives). */
  readonly locals: readonly Type[];
  /** Bound native, for native functions present in the registry. */
  readonly native: NativeFunction | null;
  /** `true` for natives (bound or not). */
  readonly isNative: boolean;
  /** Translated code, filled on first use. */
  code: TranslatedCode | null;
}

/** A call instruction's target: the callee and its (possibly generic) type arguments. */
export interface CallSite {
  readonly callee: LoadedFunction;
  /** Type arguments in terms of the caller's type parameters (empty for `Call`). */
  readonly typeArgs: readonly Type[];
}

/** A vector instruction's element type (possibly generic) and element count. */
export interface VecSite {
  readonly elem: Type;
  readonly count: number;
}

/** A variant instruction's enum type (possibly generic), tag and field count. */
export interface VariantSite {
  readonly enumType: Type;
  readonly tag: number;
  readonly fieldCount: number;
}

/** Pre-decoded code of one function. */
export interface TranslatedCode {
  /** Two words per instruction: internal opcode, operand. */
  readonly code: Int32Array;
  /** Operands of 64-bit and wider immediates. */
  readonly bigints: readonly bigint[];
  /** Decoded constants (copied at each load). */
  readonly constants: readonly unknown[];
  readonly callSites: readonly CallSite[];
  readonly vecSites: readonly VecSite[];
  readonly variantSites: readonly VariantSite[];
  /** Jump tables of `VARIANT_SWITCH`: code offsets indexed by variant tag. */
  readonly jumpTables: readonly Int32Array[];
  /** Type of the value built by each pack instruction (`PACK`, `PACK_VARIANT`, `VEC_PACK`), by offset. */
  readonly packTypes: ReadonlyMap<number, Type>;
  /** Offsets of the generic packs (`PackGeneric`, `PackVariantGeneric`): their instantiation is checked. */
  readonly genericPacks: ReadonlySet<number>;
  /** Number of locals (parameters included). */
  readonly localCount: number;
  /** Largest operand-stack height inside the function. */
  readonly maxStack: number;
  /**
   * Per offset, for the instructions whose gas depends on a value's size (`CopyLoc`,
   * `MoveLoc`, `ReadRef`, `WriteRef`, `Eq`, `Neq`): the (possibly generic) type of that value.
   */
  readonly sizeTypes: readonly (Type | undefined)[];
  /** Per offset: gas measured when the instruction runs (a size its type does not fix; an inlined vector native). */
  readonly sizedAtRunTime: readonly boolean[];
  /** Per `LdConst` offset: the constant's serialized length (its size for gas). */
  readonly constBytes: Int32Array;
  /** `code` with block heads marked (slow mode), see `blocks.ts`. */
  readonly slowCode: Int32Array;
  /** `slowCode` with superinstructions (fast mode). */
  readonly fastCode: Int32Array;
  /** Instructions of the block starting at each offset (0 inside blocks). */
  readonly blockLen: Int32Array;
  /**
   * The interpreter's cache of this function's compiled blocks (`JitCode` of `interpreter/jit.ts`,
   * read through its `jitOf`): `null` until compiled. Opaque to the loader, which only
   * initializes it, so the loader does not depend on the interpreter.
   */
  jit: unknown;
  /** Blocks run in fast mode before compilation. */
  heat: number;
}

/** A module loaded in a linker. */
export class LoadedModule {
  readonly linker: Linker;
  readonly compiled: CompiledModule;
  readonly pkg: PackageRecord;
  readonly address: string;
  readonly name: string;
  /** `0x<64 hex>::name`. */
  readonly id: string;
  private readonly handleTypes: (DatatypeInfo | undefined)[];
  private readonly ownDatatypes = new Map<string, DatatypeInfo>();
  private ownDatatypesBuilt = false;
  private readonly sigCache: (readonly Type[] | undefined)[];
  private readonly handleFunctions: (LoadedFunction | undefined)[];
  private readonly defFunctions: (LoadedFunction | undefined)[];
  private functionIndexByName: Map<string, number> | null = null;

  constructor(linker: Linker, pkg: PackageRecord, compiled: CompiledModule) {
    this.linker = linker;
    this.pkg = pkg;
    this.compiled = compiled;
    const self = compiled.moduleHandles[compiled.selfModuleHandleIndex];
    this.address = compiled.addressIdentifiers[self.address];
    this.name = compiled.identifiers[self.name];
    this.id = `${this.address}::${this.name}`;
    this.handleTypes = new Array<DatatypeInfo | undefined>(compiled.datatypeHandles.length);
    this.sigCache = new Array<readonly Type[] | undefined>(compiled.signatures.length);
    this.handleFunctions = new Array<LoadedFunction | undefined>(compiled.functionHandles.length);
    this.defFunctions = new Array<LoadedFunction | undefined>(compiled.functionDefs.length);
  }

  /** Datatype defined in this module by name, or `undefined`. */
  ownDatatype(name: string): DatatypeInfo | undefined {
    if (!this.ownDatatypesBuilt) this.buildOwnDatatypes();
    return this.ownDatatypes.get(name);
  }

  private buildOwnDatatypes(): void {
    const m = this.compiled;
    const table = this.linker.types;
    const make = (handleIndex: number, isEnum: boolean, defIndex: number): void => {
      const h = m.datatypeHandles[handleIndex];
      const name = m.identifiers[h.name];
      let fields: FieldInfo[] | null = null;
      let variants: VariantInfo[] | null = null;
      const info: DatatypeInfo = {
        uid: table.datatypeUid(),
        address: this.address,
        module: this.name,
        name,
        definingId: this.pkg.typeOrigins.get(`${this.name}::${name}`) ?? this.address,
        abilities: h.abilities,
        typeParams: h.typeParameters,
        isEnum,
        fields: () => {
          if (fields === null) {
            const def = m.structDefs[defIndex];
            fields = isEnum || def.fieldInformation.$kind === 'Native' ? [] : def.fieldInformation.fields.map((f) => ({ name: m.identifiers[f.name], type: this.token(f.type) }));
          }
          return fields;
        },
        variants: () => {
          if (variants === null) {
            variants = isEnum
              ? m.enumDefs[defIndex].variants.map((v) => ({
                  name: m.identifiers[v.variantName],
                  fields: v.fields.map((f) => ({ name: m.identifiers[f.name], type: this.token(f.type) })),
                }))
              : [];
          }
          return variants;
        },
      };
      this.ownDatatypes.set(name, info);
    };
    m.structDefs.forEach((d, i) => make(d.structHandle, false, i));
    m.enumDefs.forEach((d, i) => make(d.enumHandle, true, i));
    this.ownDatatypesBuilt = true;
  }

  /** The datatype behind datatype handle `index` (resolved across modules). */
  datatypeAt(index: number): DatatypeInfo {
    const cached = this.handleTypes[index];
    if (cached) return cached;
    const m = this.compiled;
    const h = m.datatypeHandles[index];
    const mh = m.moduleHandles[h.module];
    const address = m.addressIdentifiers[mh.address];
    const moduleName = m.identifiers[mh.name];
    const name = m.identifiers[h.name];
    const info = address === this.address && moduleName === this.name ? this.ownDatatype(name) : this.linker.module(address, moduleName).ownDatatype(name);
    if (!info) throw new VmError('TYPE_RESOLUTION_FAILURE', `${address}::${moduleName}::${name} not found`);
    if (info.typeParams.length !== h.typeParameters.length) {
      throw new VmError('LINKER_ERROR', `${address}::${moduleName}::${name}: type parameter count differs from ${this.id}'s handle`);
    }
    this.handleTypes[index] = info;
    return info;
  }

  /** Runtime type of a signature token (type parameters kept). */
  token(t: SignatureToken): Type {
    const table = this.linker.types;
    switch (t.$kind) {
      case 'Bool':
        return table.bool;
      case 'U8':
        return table.u8;
      case 'U16':
        return table.u16;
      case 'U32':
        return table.u32;
      case 'U64':
        return table.u64;
      case 'U128':
        return table.u128;
      case 'U256':
        return table.u256;
      case 'Address':
        return table.address;
      case 'Signer':
        return table.signer;
      case 'Vector':
        return table.vector(this.token(t.type));
      case 'Reference':
        return table.reference(this.token(t.type), false);
      case 'MutableReference':
        return table.reference(this.token(t.type), true);
      case 'TypeParameter':
        return table.typeParameter(t.index);
      case 'Datatype':
        return table.datatype(this.datatypeAt(t.index), []);
      case 'DatatypeInstantiation':
        return table.datatype(
          this.datatypeAt(t.index),
          t.typeArguments.map((a) => this.token(a)),
        );
    }
  }

  /** Runtime types of signature `index`. */
  signature(index: number): readonly Type[] {
    let s = this.sigCache[index];
    if (!s) {
      s = this.compiled.signatures[index].map((t) => this.token(t));
      this.sigCache[index] = s;
    }
    return s;
  }

  /** Function defined here by name, or `undefined`. */
  functionByName(name: string): LoadedFunction | undefined {
    if (!this.functionIndexByName) {
      const m = this.compiled;
      this.functionIndexByName = new Map(m.functionDefs.map((d, i) => [m.identifiers[m.functionHandles[d.function].name], i]));
    }
    const i = this.functionIndexByName.get(name);
    return i === undefined ? undefined : this.functionDef(i);
  }

  /** Function definition `index` of this module. */
  functionDef(index: number): LoadedFunction {
    let f = this.defFunctions[index];
    if (f) return f;
    const m = this.compiled;
    const def = m.functionDefs[index];
    const h = m.functionHandles[def.function];
    const name = m.identifiers[h.name];
    const params = this.signature(h.parameters);
    const isNative = def.code === null;
    f = {
      module: this,
      name,
      defIndex: index,
      def,
      visibility: def.visibility,
      isEntry: def.isEntry,
      typeParams: h.typeParameters,
      params,
      returns: this.signature(h.return),
      locals: isNative ? [] : [...params, ...this.signature((def.code as { locals: number }).locals)],
      native: isNative ? (this.linker.natives.get(this.address, this.name, name) ?? null) : null,
      isNative,
      code: null,
    };
    this.defFunctions[index] = f;
    return f;
  }

  /** The function behind function handle `index` (resolved across modules). */
  functionAt(index: number): LoadedFunction {
    const cached = this.handleFunctions[index];
    if (cached) return cached;
    const m = this.compiled;
    const h = m.functionHandles[index];
    const mh = m.moduleHandles[h.module];
    const address = m.addressIdentifiers[mh.address];
    const moduleName = m.identifiers[mh.name];
    const name = m.identifiers[h.name];
    const target = address === this.address && moduleName === this.name ? this : this.linker.module(address, moduleName);
    const f = target.functionByName(name);
    if (!f) throw new VmError('FUNCTION_RESOLUTION_FAILURE', `${address}::${moduleName}::${name} not found (called from ${this.id})`);
    if (f.typeParams.length !== h.typeParameters.length || f.params.length !== this.signature(h.parameters).length) {
      throw new VmError('LINKER_ERROR', `${address}::${moduleName}::${name}: signature differs from ${this.id}'s handle`);
    }
    this.handleFunctions[index] = f;
    return f;
  }
}

/** Resolves modules of one consistent set of package versions. */
export class Linker {
  readonly types: TypeTable;
  readonly natives: NativeRegistry;
  private readonly packages: Map<string, PackageRecord>;
  private readonly modules = new Map<string, LoadedModule>();
  /** Modules whose whole dependency closure this linker holds (checked once each). */
  private readonly linked = new Set<string>();
  /** Modules whose closure misses a module: the error, thrown again on every load. */
  private readonly unlinkable = new Map<string, VmError>();

  /** `packages`: original id → the version to link against. */
  constructor(types: TypeTable, natives: NativeRegistry, packages: Map<string, PackageRecord>) {
    this.types = types;
    this.natives = natives;
    this.packages = packages;
  }

  /** The package linked for `originalId`, or `undefined`. */
  packageOf(originalId: string): PackageRecord | undefined {
    return this.packages.get(originalId);
  }

  /**
   * Module `address::name`, linked: as the Move VM links a module with its whole dependency
   * closure before any of its code runs, every module it names (its module handles, through
   * this linker's versions), and every module those name, must be here, even those its
   * functions would never reach. Checked once per module.
   * @throws {VmError} `MISSING_DEPENDENCY` when the package or module is absent, or when a
   *   module of its closure is (naming that module and the module that needs it).
   */
  module(address: string, name: string): LoadedModule {
    const key = `${address}::${name}`;
    let m = this.modules.get(key);
    if (m) return m;
    const pkg = this.packages.get(address);
    if (!pkg) throw new VmError('MISSING_DEPENDENCY', `package ${address} is not loaded (needed for module ${name})`);
    const compiled = pkg.modules.get(name);
    if (!compiled) throw new VmError('MISSING_DEPENDENCY', `module ${key} not found in package ${pkg.storageId}`);
    this.link(key, compiled);
    m = new LoadedModule(this, pkg, compiled);
    this.modules.set(key, m);
    return m;
  }

  /** Check that the dependency closure of module `key` is here (see {@link module}). */
  private link(key: string, compiled: CompiledModule): void {
    if (this.linked.has(key)) return;
    const known = this.unlinkable.get(key);
    if (known) throw known;
    const seen = new Set([key]);
    const stack: [string, CompiledModule][] = [[key, compiled]];
    while (stack.length > 0) {
      const [user, m] = stack.pop() as [string, CompiledModule];
      for (let i = 0; i < m.moduleHandles.length; i++) {
        if (i === m.selfModuleHandleIndex) continue;
        const h = m.moduleHandles[i];
        const address = m.addressIdentifiers[h.address];
        const dep = `${address}::${m.identifiers[h.name]}`;
        if (seen.has(dep) || this.linked.has(dep)) continue;
        const pkg = this.packages.get(address);
        const found = pkg?.modules.get(m.identifiers[h.name]);
        if (found === undefined) {
          const missing = pkg === undefined ? `package ${address} is not loaded (module ${dep}, used by ${user})` : `module ${dep} not found in package ${pkg.storageId} (used by ${user})`;
          const error = new VmError('MISSING_DEPENDENCY', `cannot link ${key}: ${missing}`, { linkFailure: { root: key, module: dep, usedBy: user } });
          this.unlinkable.set(key, error);
          throw error;
        }
        seen.add(dep);
        stack.push([dep, found]);
      }
    }
    // Every module reached has its closure here too.
    for (const k of seen) this.linked.add(k);
  }

  /** Modules loaded so far (the set of modules a call touched). */
  loadedModules(): string[] {
    return [...this.modules.keys()].sort();
  }
}

/**
 * A read view of a compiled dependency, as upstream's `CompiledDependencyView`: datatype
 * handles by `(module name, datatype name)` (first handle wins) and the functions the
 * module itself declares by name (last handle wins).
 */
import type { AbilitySet, CompiledModule, DatatypeHandle, SignatureToken } from '@smi/bytecode';
import type { ModuleIdent } from './ast.js';

/** Parameter and return types of a dependency function, in the dependency's own indices. */
export interface DependencyFunctionSignature {
  readonly parameters: readonly SignatureToken[];
  readonly returns: readonly SignatureToken[];
  readonly typeParameters: readonly AbilitySet[];
}

/** Lookup tables over one compiled dependency. */
export class DependencyView {
  private readonly structs = new Map<string, number>();
  private readonly functions = new Map<string, number>();

  constructor(readonly module: CompiledModule) {
    const m = module;
    m.datatypeHandles.forEach((h, i) => {
      const key = `${m.identifiers[m.moduleHandles[h.module]?.name ?? -1]}::${m.identifiers[h.name]}`;
      if (!this.structs.has(key)) this.structs.set(key, i);
    });
    m.functionHandles.forEach((h, i) => {
      if (h.module === m.selfModuleHandleIndex) this.functions.set(m.identifiers[h.name], i);
    });
  }

  /** Module and name of a datatype handle of the dependency. */
  sourceStructInfo(index: number): { module: ModuleIdent; name: string } | undefined {
    const m = this.module;
    const h = m.datatypeHandles[index];
    const mh = h === undefined ? undefined : m.moduleHandles[h.module];
    if (h === undefined || mh === undefined) return undefined;
    const address = m.addressIdentifiers[mh.address];
    const moduleName = m.identifiers[mh.name];
    const name = m.identifiers[h.name];
    if (address === undefined || moduleName === undefined || name === undefined) return undefined;
    return { module: { address, name: moduleName }, name };
  }

  /** The handle of datatype `name` of module `moduleName` as the dependency sees it. */
  datatypeHandle(moduleName: string, name: string): DatatypeHandle | undefined {
    const i = this.structs.get(`${moduleName}::${name}`);
    return i === undefined ? undefined : this.module.datatypeHandles[i];
  }

  /** Signature of a function declared by the dependency itself. */
  functionSignature(name: string): DependencyFunctionSignature | undefined {
    const i = this.functions.get(name);
    if (i === undefined) return undefined;
    const h = this.module.functionHandles[i];
    return {
      parameters: this.module.signatures[h.parameters] ?? [],
      returns: this.module.signatures[h.return] ?? [],
      typeParameters: h.typeParameters,
    };
  }
}

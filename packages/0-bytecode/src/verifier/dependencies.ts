/**
 * Linking checks against dependency modules (`dependencies.rs`, and the missing-module check
 * of the VM's linkage step): every imported module exists, every imported datatype exists with
 * compatible abilities and type parameters, every imported function is visible to this module
 * and has the same signature.
 */
import type { AbilitySet, CompiledModule, DatatypeTypeParameter, SignatureToken } from '../file-format.js';
import { PartialError } from './errors.js';
import { isSubset } from './types.js';

function moduleId(m: CompiledModule, handleIndex: number): string {
  const h = m.moduleHandles[handleIndex];
  return `${m.addressIdentifiers[h.address]}::${m.identifiers[h.name]}`;
}

function selfId(m: CompiledModule): string {
  return moduleId(m, m.selfModuleHandleIndex);
}

/** Address of the first module handle (other than self) with no matching dependency, or null. */
export function missingDependency(m: CompiledModule, deps: ReadonlyMap<string, CompiledModule>): string | null {
  for (let i = 0; i < m.moduleHandles.length; i++) {
    if (i === m.selfModuleHandleIndex) continue;
    if (!deps.has(moduleId(m, i))) return m.addressIdentifiers[m.moduleHandles[i].address];
  }
  return null;
}

/** Index dependencies by module id (`0x…::name`; the first of equal ids wins), leaving out the module itself. */
export function dependencyMap(m: CompiledModule, dependencies: readonly CompiledModule[]): Map<string, CompiledModule> {
  const self = selfId(m);
  const map = new Map<string, CompiledModule>();
  for (const d of dependencies) {
    const id = selfId(d);
    if (id !== self && !map.has(id)) map.set(id, d);
  }
  return map;
}

function compatibleTypeParams(local: readonly DatatypeTypeParameter[], defined: readonly DatatypeTypeParameter[]): boolean {
  return local.length === defined.length && local.every((l, i) => (!l.isPhantom || defined[i].isPhantom) && isSubset(defined[i].constraints, l.constraints));
}

function compatibleFunTypeParams(local: readonly AbilitySet[], defined: readonly AbilitySet[]): boolean {
  return local.length === defined.length && local.every((l, i) => isSubset(defined[i], l));
}

function compareStructs(m: CompiledModule, local: number, def: CompiledModule, defined: number): void {
  const a = m.datatypeHandles[local];
  const b = def.datatypeHandles[defined];
  if (moduleId(m, a.module) !== moduleId(def, b.module) || m.identifiers[a.name] !== def.identifiers[b.name]) {
    throw new PartialError('TYPE_MISMATCH');
  }
}

function compareTypes(m: CompiledModule, local: SignatureToken, def: CompiledModule, defined: SignatureToken): void {
  if (local.$kind !== defined.$kind) throw new PartialError('TYPE_MISMATCH');
  switch (local.$kind) {
    case 'Vector':
    case 'Reference':
    case 'MutableReference':
      compareTypes(m, local.type, def, (defined as typeof local).type);
      break;
    case 'Datatype':
      compareStructs(m, local.index, def, (defined as typeof local).index);
      break;
    case 'DatatypeInstantiation': {
      const d = defined as typeof local;
      compareStructs(m, local.index, def, d.index);
      compareSignatures(m, local.typeArguments, def, d.typeArguments);
      break;
    }
    case 'TypeParameter':
      if (local.index !== (defined as typeof local).index) throw new PartialError('TYPE_MISMATCH');
      break;
    default:
      break;
  }
}

function compareSignatures(m: CompiledModule, local: readonly SignatureToken[], def: CompiledModule, defined: readonly SignatureToken[]): void {
  if (local.length !== defined.length) throw new PartialError('TYPE_MISMATCH');
  for (let i = 0; i < local.length; i++) compareTypes(m, local[i], def, defined[i]);
}

/**
 * The dependency pass (upstream `dependencies::verify_module`), given the dependencies by
 * module id. With `ignoreMissing`, imports from modules not given are left unchecked.
 * Throws {@link PartialError}.
 */
export function verifyDependencies(m: CompiledModule, deps: ReadonlyMap<string, CompiledModule>, ignoreMissing = false): void {
  const self = selfId(m);
  m.moduleHandles.forEach((_, idx) => {
    if (idx !== m.selfModuleHandleIndex && !deps.has(moduleId(m, idx)) && !ignoreMissing) {
      throw new PartialError('MISSING_DEPENDENCY').atIndex('ModuleHandle', idx);
    }
  });
  // Module::Name -> handle index in the owner, for datatypes and callable functions. Only
  // the modules `m` has a handle of are ever looked up: callers often pass every module of a
  // whole corpus as the dependencies, so the others are skipped rather than indexed.
  const referenced = new Set<string>();
  for (let i = 0; i < m.moduleHandles.length; i++) if (i !== m.selfModuleHandleIndex) referenced.add(moduleId(m, i));
  const datatypes = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, dep] of deps) {
    if (!referenced.has(id)) continue;
    const friends = new Set(dep.friendDecls.map((f) => `${dep.addressIdentifiers[f.address]}::${dep.identifiers[f.name]}`));
    for (const d of dep.structDefs) datatypes.set(`${id}::${dep.identifiers[dep.datatypeHandles[d.structHandle].name]}`, d.structHandle);
    for (const d of dep.enumDefs) datatypes.set(`${id}::${dep.identifiers[dep.datatypeHandles[d.enumHandle].name]}`, d.enumHandle);
    for (const d of dep.functionDefs) {
      const callable = d.visibility === 'Public' || (d.visibility === 'Friend' && friends.has(self));
      if (callable) functions.set(`${id}::${dep.identifiers[dep.functionHandles[d.function].name]}`, d.function);
    }
  }
  m.datatypeHandles.forEach((h, idx) => {
    if (h.module === m.selfModuleHandleIndex) return;
    const owner = moduleId(m, h.module);
    const dep = deps.get(owner);
    if (dep === undefined) return;
    const defIdx = datatypes.get(`${owner}::${m.identifiers[h.name]}`);
    if (defIdx === undefined) throw new PartialError('LOOKUP_FAILED').atIndex('DatatypeHandle', idx);
    const defined = dep.datatypeHandles[defIdx];
    if (!isSubset(h.abilities, defined.abilities) || !compatibleTypeParams(h.typeParameters, defined.typeParameters)) {
      throw new PartialError('TYPE_MISMATCH').atIndex('DatatypeHandle', idx);
    }
  });
  m.functionHandles.forEach((h, idx) => {
    if (h.module === m.selfModuleHandleIndex) return;
    const owner = moduleId(m, h.module);
    const dep = deps.get(owner);
    if (dep === undefined) return;
    const defIdx = functions.get(`${owner}::${m.identifiers[h.name]}`);
    if (defIdx === undefined) throw new PartialError('LOOKUP_FAILED').atIndex('FunctionHandle', idx);
    const defined = dep.functionHandles[defIdx];
    if (!compatibleFunTypeParams(h.typeParameters, defined.typeParameters)) throw new PartialError('TYPE_MISMATCH').atIndex('FunctionHandle', idx);
    try {
      compareSignatures(m, m.signatures[h.parameters], dep, dep.signatures[defined.parameters]);
      compareSignatures(m, m.signatures[h.return], dep, dep.signatures[defined.return]);
    } catch (e) {
      if (e instanceof PartialError) e.atIndex('FunctionHandle', idx);
      throw e;
    }
  });
}

/**
 * Which callable functions can create an object of a datatype: those whose body packs it,
 * or calls (up to three calls deep, in the loaded packages) a function that does. Read from
 * the bytecode alone; a type only `init` packs has no creator after the publish, for anyone.
 */
import { canonicalAddress, type MovePackage, moduleName } from '@smi/bytecode';
import { type Catalogue, type FunctionDecl, isCallable } from '@smi/inhabit';

/** How many calls deep a creator's helpers are searched. */
const DEPTH = 3;

/** `address::module::name` of every datatype each function of `packages` packs, by `address::module::function`. */
function packsOf(packages: readonly MovePackage[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of packages) {
    for (const { module: m } of p.modules) {
      const self = `${canonicalAddress(m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address])}::${moduleName(m)}`;
      const structName = (def: number): string => m.identifiers[m.datatypeHandles[m.structDefs[def].structHandle].name];
      for (const d of m.functionDefs) {
        if (d.code === null) continue;
        const packed = new Set<string>();
        for (const ins of d.code.code) {
          if (ins.$kind === 'Pack') packed.add(`${self}::${structName(ins.index)}`);
          else if (ins.$kind === 'PackGeneric') packed.add(`${self}::${structName(m.structDefInstantiations[ins.index].def)}`);
        }
        if (packed.size > 0) out.set(`${self}::${m.identifiers[m.functionHandles[d.function].name]}`, packed);
      }
    }
  }
  return out;
}

/** The creators of datatypes among the callable functions of some packages. */
export class Creators {
  private readonly packs: Map<string, Set<string>>;

  constructor(
    packages: readonly MovePackage[],
    private readonly catalogue: Catalogue,
  ) {
    this.packs = packsOf(packages);
  }

  /** `true` when `fn` (or a function it calls, `depth` calls deep) packs datatype `key`. */
  private reaches(fn: FunctionDecl, key: string, depth: number, seen: Set<FunctionDecl>): boolean {
    if (this.packs.get(`${fn.address}::${fn.module}::${fn.name}`)?.has(key) === true) return true;
    if (depth === 0) return false;
    seen.add(fn);
    for (const site of fn.calls) {
      const callee = this.catalogue.functionByName(site.address, site.module, site.name);
      if (callee !== undefined && !seen.has(callee) && this.reaches(callee, key, depth - 1, seen)) return true;
    }
    return false;
  }

  /** `module::name` of the callable functions of `fns` that can create datatype `key` (by original id). */
  of(fns: readonly FunctionDecl[], key: string): Set<string> {
    const out = new Set<string>();
    for (const fn of fns) if (isCallable(fn) && this.reaches(fn, key, DEPTH, new Set())) out.add(`${fn.module}::${fn.name}`);
    return out;
  }
}

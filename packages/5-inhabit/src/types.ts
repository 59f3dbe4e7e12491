/**
 * Move types as the planner sees them: built from the bytecode's signature tokens, with
 * datatypes named by `address::module::Name` (the address in the bytecode, i.e. the
 * package's original id), so the same type has the same key in every package that uses it,
 * whatever is loaded. Type parameters stay as `Param` until a function is instantiated.
 */
import { canonicalAddress, type CompiledModule, type SignatureToken, PRIMITIVE_NAME, type PrimitiveName } from '@smi/bytecode';

/** A Move type. */
export type Ty =
  | { readonly $kind: 'Prim'; readonly name: PrimitiveName }
  | { readonly $kind: 'Vector'; readonly elem: Ty }
  | { readonly $kind: 'Datatype'; readonly key: string; readonly args: readonly Ty[] }
  | { readonly $kind: 'Param'; readonly index: number }
  | { readonly $kind: 'Ref'; readonly mutable: boolean; readonly to: Ty };

/** A datatype type. */
export type DatatypeTy = Extract<Ty, { $kind: 'Datatype' }>;

const primCache = new Map<PrimitiveName, Ty>();

/** The primitive type `name`. */
export function prim(name: PrimitiveName): Ty {
  let t = primCache.get(name);
  if (t === undefined) {
    t = { $kind: 'Prim', name };
    primCache.set(name, t);
  }
  return t;
}

/** `vector<elem>`. */
export function vectorOf(elem: Ty): Ty {
  return { $kind: 'Vector', elem };
}

/** A datatype applied to `args`. */
export function datatype(key: string, args: readonly Ty[] = []): DatatypeTy {
  return { $kind: 'Datatype', key, args };
}

/** The key `0x<64 hex>::module::Name` of a datatype. */
export function datatypeKey(address: string, module: string, name: string): string {
  return `${canonicalAddress(address)}::${module}::${name}`;
}

/** The key of a datatype named in a module by its handle index. */
export function handleKey(m: CompiledModule, handleIndex: number): string {
  const h = m.datatypeHandles[handleIndex];
  const mh = m.moduleHandles[h.module];
  return datatypeKey(m.addressIdentifiers[mh.address], m.identifiers[mh.name], m.identifiers[h.name]);
}

/** A signature token of module `m` as a {@link Ty}. */
export function tyFromToken(m: CompiledModule, t: SignatureToken): Ty {
  switch (t.$kind) {
    case 'Vector':
      return vectorOf(tyFromToken(m, t.type));
    case 'Datatype':
      return datatype(handleKey(m, t.index));
    case 'DatatypeInstantiation':
      return datatype(
        handleKey(m, t.index),
        t.typeArguments.map((a) => tyFromToken(m, a)),
      );
    case 'Reference':
      return { $kind: 'Ref', mutable: false, to: tyFromToken(m, t.type) };
    case 'MutableReference':
      return { $kind: 'Ref', mutable: true, to: tyFromToken(m, t.type) };
    case 'TypeParameter':
      return { $kind: 'Param', index: t.index };
    default:
      return prim(PRIMITIVE_NAME[t.$kind]);
  }
}

/** The type as a type tag: full addresses, `T0` for parameters, `&`/`&mut` for references. */
export function formatTy(t: Ty): string {
  switch (t.$kind) {
    case 'Prim':
      return t.name;
    case 'Vector':
      return `vector<${formatTy(t.elem)}>`;
    case 'Datatype':
      return t.args.length === 0 ? t.key : `${t.key}<${t.args.map(formatTy).join(', ')}>`;
    case 'Param':
      return `T${t.index}`;
    case 'Ref':
      return `${t.mutable ? '&mut ' : '&'}${formatTy(t.to)}`;
  }
}

/** `true` when the type mentions a type parameter. */
export function hasParams(t: Ty): boolean {
  switch (t.$kind) {
    case 'Param':
      return true;
    case 'Vector':
      return hasParams(t.elem);
    case 'Ref':
      return hasParams(t.to);
    case 'Datatype':
      return t.args.some(hasParams);
    default:
      return false;
  }
}

/** Replace type parameter `i` by `args[i]` (parameters without an argument stay). */
export function substTy(t: Ty, args: readonly (Ty | undefined)[]): Ty {
  switch (t.$kind) {
    case 'Param':
      return args[t.index] ?? t;
    case 'Vector':
      return vectorOf(substTy(t.elem, args));
    case 'Ref':
      return { $kind: 'Ref', mutable: t.mutable, to: substTy(t.to, args) };
    case 'Datatype':
      return t.args.length === 0
        ? t
        : datatype(
            t.key,
            t.args.map((a) => substTy(a, args)),
          );
    default:
      return t;
  }
}

/**
 * Match `pattern` (which may mention type parameters) against `concrete`, extending
 * `bindings` (parameter index → type). `false` when they cannot be equal.
 */
export function unify(pattern: Ty, concrete: Ty, bindings: (Ty | undefined)[]): boolean {
  switch (pattern.$kind) {
    case 'Param': {
      const bound = bindings[pattern.index];
      if (bound === undefined) {
        bindings[pattern.index] = concrete;
        return true;
      }
      return formatTy(bound) === formatTy(concrete);
    }
    case 'Prim':
      return concrete.$kind === 'Prim' && concrete.name === pattern.name;
    case 'Vector':
      return concrete.$kind === 'Vector' && unify(pattern.elem, concrete.elem, bindings);
    case 'Ref':
      return concrete.$kind === 'Ref' && concrete.mutable === pattern.mutable && unify(pattern.to, concrete.to, bindings);
    case 'Datatype':
      return concrete.$kind === 'Datatype' && concrete.key === pattern.key && concrete.args.length === pattern.args.length && pattern.args.every((a, i) => unify(a, concrete.args[i], bindings));
  }
}

/** The type behind a reference (the type itself otherwise). */
export function deref(t: Ty): Ty {
  return t.$kind === 'Ref' ? t.to : t;
}

/** `module::Name` of a datatype key (for messages). */
export function shortKey(key: string): string {
  const parts = key.split('::');
  return parts.length === 3 ? `${parts[1]}::${parts[2]}` : key;
}

/** `true` for the datatype `address::module::name` (address canonical). */
export function isDatatype(t: Ty, address: string, module: string, name: string): boolean {
  return t.$kind === 'Datatype' && t.key === `${address}::${module}::${name}`;
}

/**
 * Signature-token helpers shared by the verifier passes: structural equality, substitution,
 * abilities (with upstream's `polymorphic_abilities` rule) and pre-order walks.
 */
import { Ability, type AbilitySet, type CompiledModule, type SignatureToken } from '../file-format.js';

/** Abilities of `bool`, integers and `address`. */
export const PRIMITIVE_ABILITIES: AbilitySet = Ability.Copy | Ability.Drop | Ability.Store;
/** Abilities of references. */
const REFERENCE_ABILITIES: AbilitySet = Ability.Copy | Ability.Drop;
/** Abilities of `signer`. */
const SIGNER_ABILITIES: AbilitySet = Ability.Drop;
/** Every ability. */
export const ALL_ABILITIES: AbilitySet = 0xf;

/** `true` when every ability of `sub` is in `sup`. */
export function isSubset(sub: AbilitySet, sup: AbilitySet): boolean {
  return (sub & sup) === sub;
}

/** What a field needs for its container to have the given abilities (`Key` needs `Store`). */
export function requiredByAbilities(declared: AbilitySet): AbilitySet {
  let out = 0;
  if (declared & Ability.Copy) out |= Ability.Copy;
  if (declared & Ability.Drop) out |= Ability.Drop;
  if (declared & (Ability.Store | Ability.Key)) out |= Ability.Store;
  return out;
}

/** Abilities a container may keep given a type argument's abilities (upstream `required_by`). */
function grantedBy(argument: AbilitySet): AbilitySet {
  let out = 0;
  if (argument & Ability.Copy) out |= Ability.Copy;
  if (argument & Ability.Drop) out |= Ability.Drop;
  if (argument & Ability.Store) out |= Ability.Store | Ability.Key;
  return out;
}

/**
 * Abilities of a generic type from its declared abilities and its non-phantom arguments'
 * abilities (upstream `AbilitySet::polymorphic_abilities`).
 */
function polymorphicAbilities(declared: AbilitySet, phantom: readonly boolean[], args: readonly AbilitySet[]): AbilitySet {
  let out = declared;
  for (let i = 0; i < args.length; i++) if (!phantom[i]) out &= grantedBy(args[i]);
  return out;
}

/** Abilities of a token given the abilities of the type parameters in scope. */
export function abilitiesOf(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken): AbilitySet {
  switch (t.$kind) {
    case 'Bool':
    case 'U8':
    case 'U16':
    case 'U32':
    case 'U64':
    case 'U128':
    case 'U256':
    case 'Address':
      return PRIMITIVE_ABILITIES;
    case 'Signer':
      return SIGNER_ABILITIES;
    case 'Reference':
    case 'MutableReference':
      return REFERENCE_ABILITIES;
    case 'TypeParameter':
      return typeParams[t.index] ?? 0;
    case 'Datatype':
      return m.datatypeHandles[t.index].abilities;
    case 'Vector':
      return polymorphicAbilities(PRIMITIVE_ABILITIES, [false], [abilitiesOf(m, typeParams, t.type)]);
    case 'DatatypeInstantiation': {
      const h = m.datatypeHandles[t.index];
      const args = t.typeArguments.map((a) => abilitiesOf(m, typeParams, a));
      return polymorphicAbilities(
        h.abilities,
        h.typeParameters.map((p) => p.isPhantom),
        args,
      );
    }
  }
}

/** Structural equality of two tokens. */
export function tokenEquals(a: SignatureToken, b: SignatureToken): boolean {
  if (a === b) return true;
  if (a.$kind !== b.$kind) return false;
  switch (a.$kind) {
    case 'Vector':
    case 'Reference':
    case 'MutableReference':
      return tokenEquals(a.type, (b as typeof a).type);
    case 'Datatype':
    case 'TypeParameter':
      return a.index === (b as typeof a).index;
    case 'DatatypeInstantiation': {
      const o = b as typeof a;
      if (a.index !== o.index || a.typeArguments.length !== o.typeArguments.length) return false;
      for (let i = 0; i < a.typeArguments.length; i++) if (!tokenEquals(a.typeArguments[i], o.typeArguments[i])) return false;
      return true;
    }
    default:
      return true;
  }
}

/** Substitute type parameters by `subst` (no-op when `subst` is empty, as upstream). */
export function instantiate(t: SignatureToken, subst: readonly SignatureToken[]): SignatureToken {
  if (subst.length === 0) return t;
  switch (t.$kind) {
    case 'TypeParameter':
      return subst[t.index];
    case 'Vector':
      return { $kind: 'Vector', type: instantiate(t.type, subst) };
    case 'Reference':
      return { $kind: 'Reference', type: instantiate(t.type, subst) };
    case 'MutableReference':
      return { $kind: 'MutableReference', type: instantiate(t.type, subst) };
    case 'DatatypeInstantiation':
      return { $kind: 'DatatypeInstantiation', index: t.index, typeArguments: t.typeArguments.map((a) => instantiate(a, subst)) };
    default:
      return t;
  }
}

/** The type of a datatype applied to `args` (plain `Datatype` when there are none). */
export function datatypeToken(handle: number, args: readonly SignatureToken[]): SignatureToken {
  return args.length === 0 ? { $kind: 'Datatype', index: handle } : { $kind: 'DatatypeInstantiation', index: handle, typeArguments: args };
}

/** `true` for the six integer types. */
export function isInteger(t: SignatureToken): boolean {
  switch (t.$kind) {
    case 'U8':
    case 'U16':
    case 'U32':
    case 'U64':
    case 'U128':
    case 'U256':
      return true;
    default:
      return false;
  }
}

/** `true` for `&T` and `&mut T`. */
export function isReference(t: SignatureToken): boolean {
  return t.$kind === 'Reference' || t.$kind === 'MutableReference';
}

/** Pre-order walk: the token, then its children left to right. */
export function preorder(t: SignatureToken, visit: (t: SignatureToken) => void): void {
  const stack: SignatureToken[] = [t];
  while (stack.length > 0) {
    const cur = stack.pop() as SignatureToken;
    visit(cur);
    switch (cur.$kind) {
      case 'Vector':
      case 'Reference':
      case 'MutableReference':
        stack.push(cur.type);
        break;
      case 'DatatypeInstantiation':
        for (let i = cur.typeArguments.length - 1; i >= 0; i--) stack.push(cur.typeArguments[i]);
        break;
      default:
        break;
    }
  }
}

/**
 * Runtime types. Every type is interned by a {@link TypeTable}, so two equal types are
 * the same object and can be compared with `===` and used as cache keys by `id`.
 * Generic code keeps `TypeParameter` types until it is instantiated.
 */
import { Ability, PRIMITIVE_NAMES } from '@smi/bytecode';

/** Kinds of runtime types (small integers, used in hot paths). */
export const TypeKind = {
  Bool: 0,
  U8: 1,
  U16: 2,
  U32: 3,
  U64: 4,
  U128: 5,
  U256: 6,
  Address: 7,
  Signer: 8,
  Vector: 9,
  Datatype: 10,
  Reference: 11,
  MutableReference: 12,
  TypeParameter: 13,
} as const;
export type TypeKindValue = (typeof TypeKind)[keyof typeof TypeKind];

/** A field of a struct or enum variant, with its declared (possibly generic) type. */
export interface FieldInfo {
  name: string;
  type: Type;
}

/** A variant of an enum. */
export interface VariantInfo {
  name: string;
  fields: FieldInfo[];
}

/** A struct or enum definition, loaded once per link context. */
export interface DatatypeInfo {
  /** Unique number within the type table (identity). */
  readonly uid: number;
  /** Address in the bytecode (the package's original id). */
  readonly address: string;
  readonly module: string;
  readonly name: string;
  /** Id of the package version that first defined the type (type origin); equals `address` when unknown. */
  readonly definingId: string;
  readonly abilities: number;
  readonly typeParams: readonly { constraints: number; isPhantom: boolean }[];
  readonly isEnum: boolean;
  /** Fields of a struct (empty for enums and native structs); resolved lazily. */
  fields(): readonly FieldInfo[];
  /** Variants of an enum (empty for structs); resolved lazily. */
  variants(): readonly VariantInfo[];
}

/** An interned runtime type. */
export interface Type {
  readonly id: number;
  readonly kind: TypeKindValue;
  /** Element of a vector, target of a reference. */
  readonly elem: Type | null;
  /** The datatype of a `Datatype` type. */
  readonly datatype: DatatypeInfo | null;
  /** Type arguments of a `Datatype` type (empty otherwise). */
  readonly typeArgs: readonly Type[];
  /** Index of a `TypeParameter`. */
  readonly index: number;
  /** `true` when the type mentions a type parameter somewhere. */
  readonly generic: boolean;
  /** Abilities of this (instantiated) type; for type parameters, all abilities. */
  readonly abilities: number;
  /** Nesting depth (1 for primitives). */
  readonly depth: number;
  /** Number of type nodes. */
  readonly nodes: number;
}

const ALL = Ability.Copy | Ability.Drop | Ability.Store | Ability.Key;
const PRIMITIVE_ABILITIES = Ability.Copy | Ability.Drop | Ability.Store;

/** Interning table of runtime types. One per VM. */
export class TypeTable {
  private readonly byKey = new Map<string, Type>();
  private nextId = 0;
  private nextDatatypeUid = 0;
  readonly bool: Type;
  readonly u8: Type;
  readonly u16: Type;
  readonly u32: Type;
  readonly u64: Type;
  readonly u128: Type;
  readonly u256: Type;
  readonly address: Type;
  readonly signer: Type;

  constructor() {
    const prim = (kind: TypeKindValue, abilities: number): Type => this.make(`p${kind}`, { kind, elem: null, datatype: null, typeArgs: [], index: 0, generic: false, abilities, depth: 1, nodes: 1 });
    this.bool = prim(TypeKind.Bool, PRIMITIVE_ABILITIES);
    this.u8 = prim(TypeKind.U8, PRIMITIVE_ABILITIES);
    this.u16 = prim(TypeKind.U16, PRIMITIVE_ABILITIES);
    this.u32 = prim(TypeKind.U32, PRIMITIVE_ABILITIES);
    this.u64 = prim(TypeKind.U64, PRIMITIVE_ABILITIES);
    this.u128 = prim(TypeKind.U128, PRIMITIVE_ABILITIES);
    this.u256 = prim(TypeKind.U256, PRIMITIVE_ABILITIES);
    this.address = prim(TypeKind.Address, PRIMITIVE_ABILITIES);
    this.signer = prim(TypeKind.Signer, Ability.Drop);
  }

  private make(key: string, t: Omit<Type, 'id'>): Type {
    const found = this.byKey.get(key);
    if (found) return found;
    const type: Type = Object.freeze({ id: this.nextId++, ...t });
    this.byKey.set(key, type);
    return type;
  }

  /** A fresh datatype uid. */
  datatypeUid(): number {
    return this.nextDatatypeUid++;
  }

  vector(elem: Type): Type {
    return this.make(`v${elem.id}`, {
      kind: TypeKind.Vector,
      elem,
      datatype: null,
      typeArgs: [],
      index: 0,
      generic: elem.generic,
      abilities: elem.abilities & PRIMITIVE_ABILITIES,
      depth: elem.depth + 1,
      nodes: elem.nodes + 1,
    });
  }

  reference(elem: Type, mutable: boolean): Type {
    return this.make(`${mutable ? 'm' : 'r'}${elem.id}`, {
      kind: mutable ? TypeKind.MutableReference : TypeKind.Reference,
      elem,
      datatype: null,
      typeArgs: [],
      index: 0,
      generic: elem.generic,
      abilities: mutable ? Ability.Drop : Ability.Copy | Ability.Drop,
      depth: elem.depth + 1,
      nodes: elem.nodes + 1,
    });
  }

  typeParameter(index: number): Type {
    return this.make(`t${index}`, {
      kind: TypeKind.TypeParameter,
      elem: null,
      datatype: null,
      typeArgs: [],
      index,
      generic: true,
      abilities: ALL,
      depth: 1,
      nodes: 1,
    });
  }

  datatype(info: DatatypeInfo, typeArgs: readonly Type[]): Type {
    let key = `d${info.uid}`;
    let generic = false;
    let depth = 1;
    let nodes = 1;
    for (const a of typeArgs) {
      key += `,${a.id}`;
      generic ||= a.generic;
      if (a.depth + 1 > depth) depth = a.depth + 1;
      nodes += a.nodes;
    }
    return this.make(key, {
      kind: TypeKind.Datatype,
      elem: null,
      datatype: info,
      typeArgs: Object.freeze([...typeArgs]),
      index: 0,
      generic,
      abilities: datatypeAbilities(info, typeArgs),
      depth,
      nodes,
    });
  }

  /** Replace type parameters by `args` (identity for non-generic types). */
  subst(t: Type, args: readonly Type[]): Type {
    if (!t.generic) return t;
    switch (t.kind) {
      case TypeKind.TypeParameter: {
        const a = args[t.index];
        if (a === undefined) throw new RangeError(`type parameter T${t.index} has no argument`);
        return a;
      }
      case TypeKind.Vector:
        return this.vector(this.subst(t.elem as Type, args));
      case TypeKind.Reference:
        return this.reference(this.subst(t.elem as Type, args), false);
      case TypeKind.MutableReference:
        return this.reference(this.subst(t.elem as Type, args), true);
      case TypeKind.Datatype:
        return this.datatype(
          t.datatype as DatatypeInfo,
          t.typeArgs.map((a) => this.subst(a, args)),
        );
      default:
        return t;
    }
  }
}

/**
 * Abilities of `S<args>`: the declared abilities, each kept only when every non-phantom
 * argument has the ability it requires (key needs store; the others need themselves).
 */
function datatypeAbilities(info: DatatypeInfo, args: readonly Type[]): number {
  let abilities = info.abilities;
  for (let i = 0; i < args.length; i++) {
    if (info.typeParams[i]?.isPhantom) continue;
    const a = args[i].abilities;
    if (!(a & Ability.Copy)) abilities &= ~Ability.Copy;
    if (!(a & Ability.Drop)) abilities &= ~Ability.Drop;
    if (!(a & Ability.Store)) abilities &= ~(Ability.Store | Ability.Key);
  }
  return abilities;
}

/** `true` for u8..u256. */
export function isInteger(t: Type): boolean {
  return t.kind >= TypeKind.U8 && t.kind <= TypeKind.U256;
}

/** `true` for references. */
export function isReference(t: Type): boolean {
  return t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference;
}

/** Bit width of an integer kind. */
export function integerBits(kind: TypeKindValue): number {
  switch (kind) {
    case TypeKind.U8:
      return 8;
    case TypeKind.U16:
      return 16;
    case TypeKind.U32:
      return 32;
    case TypeKind.U64:
      return 64;
    case TypeKind.U128:
      return 128;
    case TypeKind.U256:
      return 256;
    default:
      throw new RangeError(`kind ${kind} is not an integer`);
  }
}

/** Options of {@link formatType}. */
export interface FormatTypeOptions {
  /** Address spelling: `full` = `0x` + 64 hex (default), `short` = `0x2`, `bare` = 64 hex without `0x`. */
  address?: 'full' | 'short' | 'bare';
  /** Use the original id instead of the defining id for datatypes. */
  originalIds?: boolean;
}

function spellAddress(a: string, how: FormatTypeOptions['address']): string {
  if (how === 'bare') return a.slice(2);
  if (how === 'short') {
    const s = a.slice(2).replace(/^0+/, '');
    return '0x' + (s === '' ? '0' : s);
  }
  return a;
}

/** Move name of a primitive type (`u64`, `address`, ...), or `undefined` for compound types. */
export function primitiveName(t: Type): string | undefined {
  // TypeKind numbers the primitives in the order of the bytecode's token kinds, as PRIMITIVE_NAMES lists them.
  return t.kind <= TypeKind.Signer ? PRIMITIVE_NAMES[t.kind] : undefined;
}

/** A type as a Move type tag string (`0x…02::coin::Coin<0x…02::sui::SUI>`, `vector<u8>`). */
export function formatType(t: Type, options: FormatTypeOptions = {}): string {
  const prim = primitiveName(t);
  if (prim !== undefined) return prim;
  switch (t.kind) {
    case TypeKind.Vector:
      return `vector<${formatType(t.elem as Type, options)}>`;
    case TypeKind.Reference:
      return `&${formatType(t.elem as Type, options)}`;
    case TypeKind.MutableReference:
      return `&mut ${formatType(t.elem as Type, options)}`;
    case TypeKind.TypeParameter:
      return `T${t.index}`;
    case TypeKind.Datatype: {
      const d = t.datatype as DatatypeInfo;
      const addr = spellAddress(options.originalIds ? d.address : d.definingId, options.address);
      const base = `${addr}::${d.module}::${d.name}`;
      return t.typeArgs.length === 0 ? base : `${base}<${t.typeArgs.map((a) => formatType(a, options)).join(', ')}>`;
    }
    default:
      return '?';
  }
}

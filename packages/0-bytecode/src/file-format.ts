/**
 * The typed model of a compiled Move module, as Sui's binary format defines it
 * (`move-binary-format/src/file_format.rs` upstream).
 *
 * Every table of the binary is an array here and every cross-reference is a plain
 * index (a `number`) into one of those arrays, exactly as in the binary. Nothing is
 * resolved or copied: the deserializer fills these arrays, the serializer writes them
 * back byte for byte.
 *
 * Polymorphic values (signature tokens, instructions, field information) are
 * discriminated unions tagged with `$kind`. Operand-free tokens and instructions are
 * shared frozen singletons, so treat the model as immutable data.
 */

/** A `u16` index into one of the module's tables. */
export type TableIndex = number;

/** Ability bit flags, combined into an {@link AbilitySet}. */
export const Ability = {
  Copy: 0x1,
  Drop: 0x2,
  Store: 0x4,
  Key: 0x8,
} as const;

/** A set of abilities as a bit mask of {@link Ability} flags (`0..=0xF`). */
export type AbilitySet = number;

/** A module handle: an address (index into `addressIdentifiers`) and a name (index into `identifiers`). */
export interface ModuleHandle {
  address: TableIndex;
  name: TableIndex;
}

/** A type parameter of a struct or enum. */
export interface DatatypeTypeParameter {
  constraints: AbilitySet;
  isPhantom: boolean;
}

/** A struct or enum declared in this module or another one. */
export interface DatatypeHandle {
  module: TableIndex;
  name: TableIndex;
  abilities: AbilitySet;
  typeParameters: DatatypeTypeParameter[];
}

/** A function declared in this module or another one. */
export interface FunctionHandle {
  module: TableIndex;
  name: TableIndex;
  /** Index into `signatures`: the parameter types. */
  parameters: TableIndex;
  /** Index into `signatures`: the return types. */
  return: TableIndex;
  /** Ability constraints of each type parameter. */
  typeParameters: AbilitySet[];
}

/** A field of a struct defined in this module: struct definition index and field position. */
export interface FieldHandle {
  owner: TableIndex;
  field: number;
}

/** A generic struct definition applied to type arguments (a signature index). */
export interface StructDefInstantiation {
  def: TableIndex;
  typeParameters: TableIndex;
}

/** A generic enum definition applied to type arguments (a signature index). */
export interface EnumDefInstantiation {
  def: TableIndex;
  typeParameters: TableIndex;
}

/** A generic function handle applied to type arguments (a signature index). */
export interface FunctionInstantiation {
  handle: TableIndex;
  typeParameters: TableIndex;
}

/** A generic field handle applied to type arguments (a signature index). */
export interface FieldInstantiation {
  handle: TableIndex;
  typeParameters: TableIndex;
}

/** A variant of an enum defined in this module: enum definition index and variant tag. */
export interface VariantHandle {
  enumDef: TableIndex;
  variant: number;
}

/** A variant of an instantiated enum: enum instantiation index and variant tag. */
export interface VariantInstantiationHandle {
  enumDef: TableIndex;
  variant: number;
}

/** A type as it appears in a signature. */
export type SignatureToken =
  | { readonly $kind: 'Bool' }
  | { readonly $kind: 'U8' }
  | { readonly $kind: 'U16' }
  | { readonly $kind: 'U32' }
  | { readonly $kind: 'U64' }
  | { readonly $kind: 'U128' }
  | { readonly $kind: 'U256' }
  | { readonly $kind: 'Address' }
  | { readonly $kind: 'Signer' }
  | { readonly $kind: 'Vector'; readonly type: SignatureToken }
  | { readonly $kind: 'Datatype'; readonly index: TableIndex }
  | {
      readonly $kind: 'DatatypeInstantiation';
      readonly index: TableIndex;
      readonly typeArguments: readonly SignatureToken[];
    }
  | { readonly $kind: 'Reference'; readonly type: SignatureToken }
  | { readonly $kind: 'MutableReference'; readonly type: SignatureToken }
  | { readonly $kind: 'TypeParameter'; readonly index: number };

/** The `$kind` of a primitive (operand-free) signature token. */
export type PrimitiveTokenKind = 'Bool' | 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256' | 'Address' | 'Signer';

/** A signature: an ordered list of types (parameters, returns, locals or type arguments). */
export type Signature = SignatureToken[];

/** A constant: its type and its BCS-encoded value. */
export interface Constant {
  type: SignatureToken;
  data: Uint8Array;
}

/** A metadata entry (opaque key and value bytes). */
export interface Metadata {
  key: Uint8Array;
  value: Uint8Array;
}

/** A field of a struct or of an enum variant. */
export interface FieldDefinition {
  name: TableIndex;
  type: SignatureToken;
}

/** The fields of a struct: native (no fields known) or declared. */
export type StructFieldInformation = { readonly $kind: 'Native' } | { readonly $kind: 'Declared'; readonly fields: FieldDefinition[] };

/** A struct defined in this module. */
export interface StructDefinition {
  structHandle: TableIndex;
  fieldInformation: StructFieldInformation;
}

/** A variant of an enum. */
export interface VariantDefinition {
  variantName: TableIndex;
  fields: FieldDefinition[];
}

/** An enum defined in this module. */
export interface EnumDefinition {
  enumHandle: TableIndex;
  variants: VariantDefinition[];
}

/** Function visibility. */
export type Visibility = 'Private' | 'Public' | 'Friend';

/** A jump table used by `VariantSwitch`: one code offset per variant of `headEnum`. */
export interface VariantJumpTable {
  headEnum: TableIndex;
  jumpTable: { readonly $kind: 'Full'; readonly offsets: number[] };
}

/** The body of a non-native function. */
export interface CodeUnit {
  /** Index into `signatures`: the types of the locals that follow the parameters. */
  locals: TableIndex;
  code: Bytecode[];
  jumpTables: VariantJumpTable[];
}

/** A function defined in this module. */
export interface FunctionDefinition {
  function: TableIndex;
  visibility: Visibility;
  isEntry: boolean;
  /** Deprecated global-storage acquires list (struct definition indices); empty on Sui. */
  acquiresGlobalResources: TableIndex[];
  /** `null` for a native function. */
  code: CodeUnit | null;
}

/**
 * A compiled Move module. Field names follow upstream `CompiledModule` in camelCase.
 */
export interface CompiledModule {
  /** Binary format version without the flavor byte (5, 6 or 7). */
  version: number;
  /** `false` for test-only modules carrying the magic `0xDEADC0DE`. */
  publishable: boolean;
  selfModuleHandleIndex: TableIndex;
  moduleHandles: ModuleHandle[];
  datatypeHandles: DatatypeHandle[];
  functionHandles: FunctionHandle[];
  fieldHandles: FieldHandle[];
  friendDecls: ModuleHandle[];
  structDefInstantiations: StructDefInstantiation[];
  functionInstantiations: FunctionInstantiation[];
  fieldInstantiations: FieldInstantiation[];
  signatures: Signature[];
  identifiers: string[];
  /** Addresses as `0x` + 64 lowercase hex digits. */
  addressIdentifiers: string[];
  constantPool: Constant[];
  metadata: Metadata[];
  structDefs: StructDefinition[];
  functionDefs: FunctionDefinition[];
  enumDefs: EnumDefinition[];
  enumDefInstantiations: EnumDefInstantiation[];
  variantHandles: VariantHandle[];
  variantInstantiationHandles: VariantInstantiationHandle[];
}

/** Instructions without operands. */
export type SimpleBytecodeKind =
  | 'Pop'
  | 'Ret'
  | 'CastU8'
  | 'CastU16'
  | 'CastU32'
  | 'CastU64'
  | 'CastU128'
  | 'CastU256'
  | 'LdTrue'
  | 'LdFalse'
  | 'ReadRef'
  | 'WriteRef'
  | 'FreezeRef'
  | 'Add'
  | 'Sub'
  | 'Mul'
  | 'Mod'
  | 'Div'
  | 'BitOr'
  | 'BitAnd'
  | 'Xor'
  | 'Or'
  | 'And'
  | 'Not'
  | 'Eq'
  | 'Neq'
  | 'Lt'
  | 'Gt'
  | 'Le'
  | 'Ge'
  | 'Abort'
  | 'Nop'
  | 'Shl'
  | 'Shr';

/** Instructions with one table-index or code-offset operand, named `index`. */
export type IndexedBytecodeKind =
  | 'BrTrue'
  | 'BrFalse'
  | 'Branch'
  | 'LdConst'
  | 'CopyLoc'
  | 'MoveLoc'
  | 'StLoc'
  | 'MutBorrowLoc'
  | 'ImmBorrowLoc'
  | 'MutBorrowField'
  | 'MutBorrowFieldGeneric'
  | 'ImmBorrowField'
  | 'ImmBorrowFieldGeneric'
  | 'Call'
  | 'CallGeneric'
  | 'Pack'
  | 'PackGeneric'
  | 'Unpack'
  | 'UnpackGeneric'
  | 'VecLen'
  | 'VecImmBorrow'
  | 'VecMutBorrow'
  | 'VecPushBack'
  | 'VecPopBack'
  | 'VecSwap'
  | 'PackVariant'
  | 'PackVariantGeneric'
  | 'UnpackVariant'
  | 'UnpackVariantImmRef'
  | 'UnpackVariantMutRef'
  | 'UnpackVariantGeneric'
  | 'UnpackVariantGenericImmRef'
  | 'UnpackVariantGenericMutRef'
  | 'VariantSwitch'
  | 'ExistsDeprecated'
  | 'ExistsGenericDeprecated'
  | 'MoveFromDeprecated'
  | 'MoveFromGenericDeprecated'
  | 'MoveToDeprecated'
  | 'MoveToGenericDeprecated'
  | 'MutBorrowGlobalDeprecated'
  | 'MutBorrowGlobalGenericDeprecated'
  | 'ImmBorrowGlobalDeprecated'
  | 'ImmBorrowGlobalGenericDeprecated';

/**
 * One instruction. `index` is a table index, a local index or a code offset depending
 * on the instruction (see upstream `Bytecode`). Small immediates (`LdU8`, `LdU16`,
 * `LdU32`) are numbers; 64-bit and wider immediates and vector lengths are bigints.
 */
export type Bytecode =
  | { readonly $kind: SimpleBytecodeKind }
  | { readonly $kind: IndexedBytecodeKind; readonly index: number }
  | { readonly $kind: 'LdU8' | 'LdU16' | 'LdU32'; readonly value: number }
  | { readonly $kind: 'LdU64' | 'LdU128' | 'LdU256'; readonly value: bigint }
  | { readonly $kind: 'VecPack' | 'VecUnpack'; readonly index: TableIndex; readonly count: bigint };

/** Every `$kind` of {@link Bytecode}. */
export type BytecodeKind = Bytecode['$kind'];

/** An empty module skeleton with every table empty; handy for builders and tests. */
export function emptyModule(version = 7): CompiledModule {
  return {
    version,
    publishable: true,
    selfModuleHandleIndex: 0,
    moduleHandles: [],
    datatypeHandles: [],
    functionHandles: [],
    fieldHandles: [],
    friendDecls: [],
    structDefInstantiations: [],
    functionInstantiations: [],
    fieldInstantiations: [],
    signatures: [],
    identifiers: [],
    addressIdentifiers: [],
    constantPool: [],
    metadata: [],
    structDefs: [],
    functionDefs: [],
    enumDefs: [],
    enumDefInstantiations: [],
    variantHandles: [],
    variantInstantiationHandles: [],
  };
}

/**
 * The Move IR syntax tree (upstream `move-ir-types/src/ast.rs`), as `$kind`-tagged
 * unions. Names are plain strings; addresses are canonical (`0x` + 64 lowercase hex
 * digits); 64-bit and wider integers are bigints. Source spans (`loc`) are kept where
 * errors or source names need them.
 */
import type { Loc } from './lexer.js';

/** A module identity: address and name. */
export interface ModuleIdent {
  readonly address: string;
  readonly name: string;
}

/** `import 0x1::M as N;` (`alias` is the module name when no `as` is given). */
export interface ImportDefinition {
  readonly ident: ModuleIdent;
  readonly alias: string;
}

/** An ability name. */
export type AbilityName = 'copy' | 'drop' | 'store' | 'key';

/** A type as written. `module` of a datatype is an import alias or `Self`. */
export type Type =
  | { readonly $kind: 'Address' | 'Signer' | 'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256' | 'Bool'; readonly loc: Loc }
  | { readonly $kind: 'Vector'; readonly type: Type; readonly loc: Loc }
  | { readonly $kind: 'Datatype'; readonly module: string; readonly name: string; readonly typeArguments: readonly Type[]; readonly loc: Loc }
  | { readonly $kind: 'Reference'; readonly mutable: boolean; readonly type: Type; readonly loc: Loc }
  | { readonly $kind: 'TypeParameter'; readonly name: string; readonly loc: Loc };

/** A named variable occurrence (local, parameter, binding). */
export interface Var {
  readonly name: string;
  readonly loc: Loc;
}

/** A type parameter of a function: name and ability constraints (sorted, deduplicated). */
export interface FunctionTypeParameter {
  readonly name: string;
  readonly loc: Loc;
  readonly abilities: readonly AbilityName[];
}

/** A type parameter of a struct or enum. */
export interface DatatypeTypeParameter extends FunctionTypeParameter {
  readonly isPhantom: boolean;
}

/** A field declaration. */
export interface FieldDecl {
  readonly name: string;
  readonly loc: Loc;
  readonly type: Type;
}

/** `public [native] struct S<T> has a, b { f: T }`; `fields` is `null` for a native struct. */
export interface StructDefinition {
  readonly $kind: 'Struct';
  readonly name: string;
  readonly abilities: readonly AbilityName[];
  readonly typeParameters: readonly DatatypeTypeParameter[];
  readonly fields: readonly FieldDecl[] | null;
  readonly loc: Loc;
}

/** One variant of an enum. */
export interface VariantDefinition {
  readonly name: string;
  readonly fields: readonly FieldDecl[];
  readonly loc: Loc;
}

/** `public enum E<T> has a { V { f: T }, W { } }`. */
export interface EnumDefinition {
  readonly $kind: 'Enum';
  readonly name: string;
  readonly abilities: readonly AbilityName[];
  readonly typeParameters: readonly DatatypeTypeParameter[];
  readonly variants: readonly VariantDefinition[];
  readonly loc: Loc;
}

/** A self-describing constant value (upstream `MoveValue`). */
export type ConstantValue =
  | { readonly $kind: 'Bool'; readonly value: boolean }
  | { readonly $kind: 'U8' | 'U16' | 'U32'; readonly value: number }
  | { readonly $kind: 'U64' | 'U128' | 'U256'; readonly value: bigint }
  | { readonly $kind: 'Address'; readonly address: string }
  | { readonly $kind: 'Vector'; readonly elements: readonly ConstantValue[] };

/** `const NAME: type = value;`. */
export interface ConstantDefinition {
  readonly $kind: 'Constant';
  readonly name: string;
  readonly type: Type;
  readonly value: ConstantValue;
  readonly loc: Loc;
}

/** Function visibility as written. */
export type FunctionVisibility = 'Public' | 'Friend' | 'Internal';

/** A function declaration; `body` is `null` for a native function. */
export interface FunctionDefinition {
  readonly $kind: 'Function';
  readonly name: string;
  readonly visibility: FunctionVisibility;
  readonly isEntry: boolean;
  readonly typeParameters: readonly FunctionTypeParameter[];
  readonly parameters: readonly { readonly var: Var; readonly type: Type }[];
  readonly returns: readonly Type[];
  readonly body: FunctionBody | null;
  readonly loc: Loc;
}

/** Locals (`let x: T;`) and labelled blocks of a function. */
export interface FunctionBody {
  readonly locals: readonly { readonly var: Var; readonly type: Type }[];
  readonly blocks: readonly Block[];
}

/** `label name:` followed by statements. */
export interface Block {
  readonly label: string;
  readonly labelLoc: Loc;
  readonly statements: readonly Statement[];
  readonly loc: Loc;
}

/** A whole `mvir` module. */
export interface ModuleDefinition {
  readonly $kind: 'Module';
  readonly publishable: boolean;
  readonly ident: ModuleIdent;
  readonly friends: readonly ModuleIdent[];
  readonly imports: readonly ImportDefinition[];
  readonly structs: readonly StructDefinition[];
  readonly enums: readonly EnumDefinition[];
  readonly constants: readonly ConstantDefinition[];
  readonly functions: readonly FunctionDefinition[];
  readonly loc: Loc;
}

/** A literal usable in expressions. */
export type CopyableValue =
  | { readonly $kind: 'Address'; readonly address: string }
  | { readonly $kind: 'Bool'; readonly value: boolean }
  | { readonly $kind: 'U8' | 'U16' | 'U32'; readonly value: number }
  | { readonly $kind: 'U64' | 'U128' | 'U256'; readonly value: bigint }
  | { readonly $kind: 'ByteArray'; readonly bytes: Uint8Array };

/** Builtin operations spelled like calls. */
export type BuiltinName = 'VecLen' | 'VecImmBorrow' | 'VecMutBorrow' | 'VecPushBack' | 'VecPopBack' | 'VecSwap' | 'Freeze' | 'ToU8' | 'ToU16' | 'ToU32' | 'ToU64' | 'ToU128' | 'ToU256';

/** The callee of a call expression. */
export type FunctionCall =
  | { readonly $kind: 'Builtin'; readonly builtin: BuiltinName; readonly typeArguments: readonly Type[]; readonly loc: Loc }
  | {
      readonly $kind: 'ModuleFunction';
      readonly module: string;
      readonly name: string;
      readonly typeArguments: readonly Type[];
      readonly loc: Loc;
    };

/** Binary operators. */
export type BinaryOperator = 'Add' | 'Sub' | 'Mul' | 'Mod' | 'Div' | 'BitOr' | 'BitAnd' | 'Xor' | 'Shl' | 'Shr' | 'And' | 'Or' | 'Eq' | 'Neq' | 'Lt' | 'Gt' | 'Le' | 'Ge';

/** `field: expression` in a pack. */
export interface FieldExp {
  readonly field: string;
  readonly loc: Loc;
  readonly exp: Exp;
}

/** An expression. */
export type Exp = { readonly loc: Loc } & (
  | { readonly $kind: 'Dereference'; readonly exp: Exp }
  | { readonly $kind: 'Not'; readonly exp: Exp }
  | { readonly $kind: 'Binary'; readonly op: BinaryOperator; readonly lhs: Exp; readonly rhs: Exp }
  | { readonly $kind: 'Value'; readonly value: CopyableValue }
  | { readonly $kind: 'Pack'; readonly name: string; readonly typeArguments: readonly Type[]; readonly fields: readonly FieldExp[] }
  | { readonly $kind: 'VecPack'; readonly type: Type; readonly count: bigint; readonly args: Exp }
  | {
      readonly $kind: 'Borrow';
      readonly mutable: boolean;
      readonly exp: Exp;
      readonly struct: string;
      readonly typeArguments: readonly Type[];
      readonly field: string;
    }
  | { readonly $kind: 'Move'; readonly var: Var }
  | { readonly $kind: 'Copy'; readonly var: Var }
  | { readonly $kind: 'BorrowLocal'; readonly mutable: boolean; readonly var: Var }
  | { readonly $kind: 'Call'; readonly call: FunctionCall; readonly args: Exp }
  | { readonly $kind: 'ExprList'; readonly exps: readonly Exp[] }
  | {
      readonly $kind: 'PackVariant';
      readonly enum: string;
      readonly variant: string;
      readonly typeArguments: readonly Type[];
      readonly fields: readonly FieldExp[];
    }
  | { readonly $kind: 'Constant'; readonly name: string }
);

/** An assignment target. */
export type LValue = { readonly loc: Loc } & ({ readonly $kind: 'Var'; readonly var: Var } | { readonly $kind: 'Mutate'; readonly exp: Exp } | { readonly $kind: 'Pop' });

/** `field: var` in an unpack. */
export interface FieldBinding {
  readonly field: string;
  readonly loc: Loc;
  readonly var: Var;
}

/** How a variant is unpacked. */
export type UnpackType = 'ByValue' | 'ByImmRef' | 'ByMutRef';

/** A statement. */
export type Statement = { readonly loc: Loc } & (
  | { readonly $kind: 'Abort'; readonly exp: Exp | null }
  | { readonly $kind: 'Assert'; readonly cond: Exp; readonly error: Exp }
  | { readonly $kind: 'Return'; readonly exp: Exp }
  | { readonly $kind: 'Assign'; readonly lvalues: readonly LValue[]; readonly exp: Exp }
  | { readonly $kind: 'Exp'; readonly exp: Exp }
  | { readonly $kind: 'Jump'; readonly label: string; readonly labelLoc: Loc }
  | { readonly $kind: 'JumpIf' | 'JumpIfFalse'; readonly cond: Exp; readonly label: string; readonly labelLoc: Loc }
  | {
      readonly $kind: 'Unpack';
      readonly name: string;
      readonly typeArguments: readonly Type[];
      readonly bindings: readonly FieldBinding[];
      readonly exp: Exp;
    }
  | { readonly $kind: 'VecUnpack'; readonly type: Type; readonly count: bigint; readonly lvalues: readonly LValue[]; readonly exp: Exp }
  | {
      readonly $kind: 'UnpackVariant';
      readonly enum: string;
      readonly variant: string;
      readonly typeArguments: readonly Type[];
      readonly bindings: readonly FieldBinding[];
      readonly exp: Exp;
      readonly unpackType: UnpackType;
    }
  | {
      readonly $kind: 'VariantSwitch';
      readonly enum: string;
      readonly arms: readonly { readonly variant: string; readonly label: string }[];
      readonly exp: Exp;
    }
);

/**
 * `TypeTag` and `StructTag` (move-core-types), with the text form Sui prints
 * (`0x2::coin::Coin<0x2::sui::SUI>`). `TypeInput`, which PTB commands carry, has the same
 * BCS layout and is read with the same codec.
 */
import { Address, Str, enumType, lazy, normalizeAddress, struct, vector, type Codec, type Enum } from './codec.js';
import { BcsError } from '@smi/move-vm';
import { isPrimitiveName } from '@smi/bytecode';

/** Variants of {@link TypeTag} (index order; serde names are lowercase). */
export interface TypeTagVariants {
  bool: true;
  u8: true;
  u64: true;
  u128: true;
  address: true;
  signer: true;
  vector: TypeTag;
  struct: StructTag;
  u16: true;
  u32: true;
  u256: true;
}

/** A Move type: `{ $kind: 'u64', u64: true }`, `{ $kind: 'vector', vector: ... }`, `{ $kind: 'struct', struct: ... }`. */
export type TypeTag = Enum<TypeTagVariants>;

/** A struct type: `address::module::name<typeParams>`. */
export interface StructTag {
  /** Defining package address, `0x` + 64 hex digits. */
  address: string;
  module: string;
  name: string;
  typeParams: TypeTag[];
}

/** `TypeTag` codec. */
export const TypeTag: Codec<TypeTag> = enumType<TypeTagVariants>('TypeTag', {
  bool: null,
  u8: null,
  u64: null,
  u128: null,
  address: null,
  signer: null,
  vector: lazy(() => TypeTag),
  struct: lazy(() => StructTag),
  u16: null,
  u32: null,
  u256: null,
});

/** `StructTag` codec (serde names the type parameters `type_args`). */
export const StructTag: Codec<StructTag> = struct<StructTag>('StructTag', { address: Address, module: Str, name: Str, typeParams: vector(TypeTag) }, { rename: { typeParams: 'type_args' } });

type Primitive = Exclude<keyof TypeTagVariants, 'vector' | 'struct'>;

/** Options of {@link formatTypeTag}. */
export interface FormatTypeTagOptions {
  /** Print addresses without leading zeros (`0x2`) instead of 64 digits. */
  short?: boolean;
}

function formatAddress(address: string, short: boolean): string {
  const full = normalizeAddress(address);
  return short ? `0x${full.slice(2).replace(/^0+(?=.)/, '')}` : full;
}

/** Text of a struct tag: `0x…02::coin::Coin<0x…02::sui::SUI>`. */
export function formatStructTag(tag: StructTag, options: FormatTypeTagOptions = {}): string {
  const head = `${formatAddress(tag.address, options.short === true)}::${tag.module}::${tag.name}`;
  return tag.typeParams.length === 0 ? head : `${head}<${tag.typeParams.map((t) => formatTypeTag(t, options)).join(', ')}>`;
}

/** Text of a type tag: `u64`, `vector<u8>`, `0x…02::sui::SUI`. */
export function formatTypeTag(tag: TypeTag, options: FormatTypeTagOptions = {}): string {
  if (tag.$kind === 'vector') return `vector<${formatTypeTag(tag.vector, options)}>`;
  if (tag.$kind === 'struct') return formatStructTag(tag.struct, options);
  return tag.$kind;
}

/** The type tag of a primitive type. */
export function primitiveTypeTag(name: Primitive): TypeTag {
  return { $kind: name, [name]: true } as TypeTag;
}

/** `TypeTag::Struct(tag)`. */
export function structTypeTag(tag: StructTag): TypeTag {
  return { $kind: 'struct', struct: tag };
}

class TypeTagParser {
  private pos = 0;
  private readonly tokens: string[];

  constructor(private readonly text: string) {
    this.tokens = text.match(/::|[<>,]|[A-Za-z0-9_]+|\s+|./g)?.filter((t) => !/^\s+$/.test(t)) ?? [];
  }

  fail(message: string): BcsError {
    return new BcsError('BCS_INVALID_TYPE_TAG', `${message} in type ${JSON.stringify(this.text)}`);
  }

  peek(): string | undefined {
    return this.tokens[this.pos];
  }

  next(): string {
    const t = this.tokens[this.pos++];
    if (t === undefined) throw this.fail('unexpected end');
    return t;
  }

  expect(token: string): void {
    const t = this.next();
    if (t !== token) throw this.fail(`expected ${token}, got ${t}`);
  }

  ident(): string {
    const t = this.next();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) throw this.fail(`expected an identifier, got ${t}`);
    return t;
  }

  typeTag(): TypeTag {
    const head = this.next();
    if (head === 'vector' && this.peek() === '<') {
      this.expect('<');
      const inner = this.typeTag();
      this.expect('>');
      return { $kind: 'vector', vector: inner };
    }
    if (isPrimitiveName(head) && this.peek() !== '::') return primitiveTypeTag(head);
    if (!/^(0x)?[0-9a-fA-F]+$/.test(head)) throw this.fail(`unexpected ${head}`);
    this.expect('::');
    const module = this.ident();
    this.expect('::');
    const name = this.ident();
    const typeParams: TypeTag[] = [];
    if (this.peek() === '<') {
      this.next();
      for (;;) {
        typeParams.push(this.typeTag());
        const t = this.next();
        if (t === '>') break;
        if (t !== ',') throw this.fail(`expected , or >, got ${t}`);
      }
    }
    return { $kind: 'struct', struct: { address: normalizeAddress(head), module, name, typeParams } };
  }

  done(): void {
    if (this.pos !== this.tokens.length) throw this.fail(`unexpected ${this.tokens[this.pos]}`);
  }
}

/** Parses `u64`, `vector<u8>`, `0x2::coin::Coin<0x2::sui::SUI>` (short addresses allowed). */
export function parseTypeTag(text: string): TypeTag {
  const p = new TypeTagParser(text);
  const tag = p.typeTag();
  p.done();
  return tag;
}

/** Parses a struct type; throws `BCS_INVALID_TYPE_TAG` on anything else. */
export function parseStructTag(text: string): StructTag {
  const tag = parseTypeTag(text);
  if (tag.$kind !== 'struct') throw new BcsError('BCS_INVALID_TYPE_TAG', `not a struct type: ${JSON.stringify(text)}`);
  return tag.struct;
}

/** The package addresses a type tag names (its structs' and their type arguments', as written). */
export function typeTagAddresses(t: TypeTag, out: string[] = []): string[] {
  if (t.$kind === 'vector') typeTagAddresses(t.vector, out);
  else if (t.$kind === 'struct') {
    out.push(t.struct.address);
    for (const p of t.struct.typeParams) typeTagAddresses(p, out);
  }
  return out;
}

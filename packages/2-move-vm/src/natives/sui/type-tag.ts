/**
 * Sui type tags of runtime types, and the object-id derivations built on them.
 *
 * - {@link typeTagOf}: the tag of a runtime type as upstream `type_to_type_tag` gives it:
 *   struct addresses are the *defining* ids (the package version that first defined the
 *   type), which is how object types and dynamic-field ids are spelled on chain.
 * - {@link typeTagBcs}: BCS of `move_core_types::TypeTag` (variant indices: bool 0, u8 1,
 *   u64 2, u128 3, address 4, signer 5, vector 6, struct 7, u16 8, u32 9, u256 10; a struct
 *   tag is address (32 bytes), module and name as BCS strings, then its type parameters).
 * - {@link hashTypeAndKey}: dynamic-field ids, blake2b256(0xf0 ‖ parent ‖ u64le(|key|) ‖
 *   key ‖ bcs(TypeTag of K)) (`derive_dynamic_field_id`).
 * - {@link deriveObjectId}: fresh ids, blake2b256(0xf1 ‖ tx digest ‖ u64le(n))
 *   (`ObjectID::derive_id`).
 */
import { addressFromBytes, canonicalAddress, pushUleb128, writeAddressBytes } from '@smi/bytecode';
import { VmError } from '../../errors.js';
import type { GasStructTag, GasTypeTag } from '../../gas/native-costs.js';
import { typeSize, typeTagAbstractSize, structTagAbstractSize } from '../../gas/native-costs.js';
import { type DatatypeInfo, type Type, TypeKind } from '../../types/runtime-type.js';
import { parseTypeTag, type TypeTagAst } from '../../types/type-tag.js';
import { addressValueBytes } from '../../values/bcs.js';
import { blake2b256Of } from './crypto/blake2b.js';

/** A Move type tag (the shape the gas formulas use): primitives by name, `{ vector }`, `{ struct }`. */
export type SuiTypeTag = GasTypeTag;
/** A struct tag: address (`0x` + 64 hex), module, name, type arguments. */
export type SuiStructTag = GasStructTag;

/** `HashingIntentScope::ChildObjectId`. */
const CHILD_OBJECT_ID_SCOPE = 0xf0;
/** `HashingIntentScope::RegularObjectId`. */
const REGULAR_OBJECT_ID_SCOPE = 0xf1;

/** The 32 bytes of an address (`0x` + 64 hex; shorter forms are padded). */
export function addressToBytes(address: string): Uint8Array {
  return addressValueBytes(address.length === 66 ? address : canonicalAddress(address));
}

/** `0x` + 64 lowercase hex of 32 bytes. */
function bytesToAddress(bytes: Uint8Array): string {
  return addressFromBytes(bytes, 0);
}

/** blake2b with a 32-byte digest (Sui's `DefaultHash`). */
export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2b256Of(data);
}

function u64le(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  let x = BigInt.asUintN(64, n);
  for (let i = 0; i < 8; i++) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const tagCache = new WeakMap<Type, SuiTypeTag>();
const keyCache = new WeakMap<Type, string>();

/**
 * The type tag of a runtime type, with defining ids as struct addresses.
 * @throws {VmError} `UNKNOWN_INVARIANT_VIOLATION_ERROR` for references and type parameters.
 */
export function typeTagOf(t: Type): SuiTypeTag {
  const hit = tagCache.get(t);
  if (hit !== undefined) return hit;
  let tag: SuiTypeTag;
  switch (t.kind) {
    case TypeKind.Bool:
      tag = 'bool';
      break;
    case TypeKind.U8:
      tag = 'u8';
      break;
    case TypeKind.U16:
      tag = 'u16';
      break;
    case TypeKind.U32:
      tag = 'u32';
      break;
    case TypeKind.U64:
      tag = 'u64';
      break;
    case TypeKind.U128:
      tag = 'u128';
      break;
    case TypeKind.U256:
      tag = 'u256';
      break;
    case TypeKind.Address:
      tag = 'address';
      break;
    case TypeKind.Signer:
      tag = 'signer';
      break;
    case TypeKind.Vector:
      tag = { vector: typeTagOf(t.elem as Type) };
      break;
    case TypeKind.Datatype: {
      const d = t.datatype as DatatypeInfo;
      tag = { struct: { address: d.definingId, module: d.module, name: d.name, type_args: t.typeArgs.map(typeTagOf) } };
      break;
    }
    default:
      throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `no type tag for a type of kind ${t.kind}`);
  }
  tagCache.set(t, tag);
  return tag;
}

/** The struct tag of a datatype type (objects, events). */
export function structTagOf(t: Type): SuiStructTag {
  const tag = typeTagOf(t);
  if (typeof tag === 'string' || !('struct' in tag)) {
    throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'Sui verifier guarantees this is a struct');
  }
  return tag.struct;
}

/** A type tag from a parsed tag text (addresses made canonical). */
function typeTagFromAst(ast: TypeTagAst): SuiTypeTag {
  switch (ast.$kind) {
    case 'Primitive':
      return ast.name;
    case 'Vector':
      return { vector: typeTagFromAst(ast.elem) };
    case 'Datatype':
      return { struct: { address: canonicalAddress(ast.address), module: ast.module, name: ast.name, type_args: ast.typeArgs.map(typeTagFromAst) } };
  }
}

/**
 * Parse a type tag text (`0x2::coin::Coin<0x2::sui::SUI>`, short addresses allowed).
 * @throws {VmError} `TYPE_MISMATCH` on malformed text.
 */
export function parseSuiTypeTag(text: string): SuiTypeTag {
  return typeTagFromAst(parseTypeTag(text));
}

/** Canonical text of a tag: full addresses, type arguments joined by `, `. */
export function formatTypeTag(tag: SuiTypeTag): string {
  if (typeof tag === 'string') return tag;
  if ('vector' in tag) return `vector<${formatTypeTag(tag.vector)}>`;
  const s = tag.struct;
  const base = `${canonicalAddress(s.address)}::${s.module}::${s.name}`;
  return s.type_args.length === 0 ? base : `${base}<${s.type_args.map(formatTypeTag).join(', ')}>`;
}

/** Canonical tag text of a runtime type: the identity of object and entry types (upstream compares tags). */
export function typeKey(t: Type): string {
  let k = keyCache.get(t);
  if (k === undefined) {
    k = formatTypeTag(typeTagOf(t));
    keyCache.set(t, k);
  }
  return k;
}

/** `TypeTag::node_count` (= `Type::size()`): one per node. */
export function typeTagNodeCount(tag: SuiTypeTag): number {
  return typeSize(tag);
}

export { typeTagAbstractSize, structTagAbstractSize };

const TAG_INDEX: Readonly<Record<string, number>> = {
  bool: 0,
  u8: 1,
  u64: 2,
  u128: 3,
  address: 4,
  signer: 5,
  u16: 8,
  u32: 9,
  u256: 10,
};

const utf8 = new TextEncoder();

function writeTag(out: number[], tag: SuiTypeTag): void {
  if (typeof tag === 'string') {
    out.push(TAG_INDEX[tag]);
    return;
  }
  if ('vector' in tag) {
    out.push(6);
    writeTag(out, tag.vector);
    return;
  }
  out.push(7);
  writeStructTag(out, tag.struct);
}

function writeStructTag(out: number[], s: SuiStructTag): void {
  for (const b of addressToBytes(s.address)) out.push(b);
  for (const ident of [s.module, s.name]) {
    const bytes = utf8.encode(ident);
    pushUleb128(out, bytes.length);
    for (const b of bytes) out.push(b);
  }
  pushUleb128(out, s.type_args.length);
  for (const a of s.type_args) writeTag(out, a);
}

/** BCS of a `TypeTag`. */
export function typeTagBcs(tag: SuiTypeTag): Uint8Array {
  const out: number[] = [];
  writeTag(out, tag);
  return Uint8Array.from(out);
}

/** BCS of a `StructTag` (no variant index). */
export function structTagBcs(tag: SuiStructTag): Uint8Array {
  const out: number[] = [];
  writeStructTag(out, tag);
  return Uint8Array.from(out);
}

/**
 * The id of the dynamic field of `parent` with key bytes `keyBcs` of type `keyType`
 * (`derive_dynamic_field_id`, what `dynamic_field::hash_type_and_key` returns).
 */
export function hashTypeAndKey(parent: string, keyType: SuiTypeTag, keyBcs: Uint8Array): string {
  // The scope byte, the parent and the key's length, written into one reused buffer.
  const head = HASH_HEAD;
  if (!writeAddressBytes(parent, head, 1)) head.set(addressToBytes(parent), 1); // a short form, padded
  head.fill(0, 33);
  for (let i = 33, n = keyBcs.length; i < 41 && n > 0; i++, n = Math.floor(n / 256)) head[i] = n % 256;
  return bytesToAddress(blake2b256Of(head, keyBcs, cachedTypeTagBcs(keyType)));
}

const HASH_HEAD = new Uint8Array(41);
HASH_HEAD[0] = CHILD_OBJECT_ID_SCOPE;
const primitiveTagBcs = new Map<string, Uint8Array>();
const tagBcsCache = new WeakMap<object, Uint8Array>();

/** {@link typeTagBcs}, cached per tag (tags are not changed once made; the bytes are only read). */
function cachedTypeTagBcs(tag: SuiTypeTag): Uint8Array {
  let bytes = typeof tag === 'string' ? primitiveTagBcs.get(tag) : tagBcsCache.get(tag);
  if (bytes === undefined) {
    bytes = typeTagBcs(tag);
    if (typeof tag === 'string') primitiveTagBcs.set(tag, bytes);
    else tagBcsCache.set(tag, bytes);
  }
  return bytes;
}

/** The id of a derived object (`derived_object::derive_address`): the dynamic-field id of key `DerivedObjectKey<K>(key)`. */
export function deriveObjectAddress(parent: string, keyType: SuiTypeTag, keyBcs: Uint8Array): string {
  const wrapped: SuiTypeTag = { struct: { address: canonicalAddress('0x2'), module: 'derived_object', name: 'DerivedObjectKey', type_args: [keyType] } };
  return hashTypeAndKey(parent, wrapped, keyBcs);
}

/** `ObjectID::derive_id(digest, creation_num)`: the `creationNum`-th id created by a transaction. */
export function deriveObjectId(txDigest: Uint8Array, creationNum: bigint): string {
  if (txDigest.length !== 32) throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `transaction digest must be 32 bytes, got ${txDigest.length}`);
  return bytesToAddress(blake2b256(concat([Uint8Array.of(REGULAR_OBJECT_ID_SCOPE), txDigest, u64le(creationNum)])));
}

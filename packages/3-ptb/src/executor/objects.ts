/**
 * Between stored Sui objects and Move values: decoding an object's contents with the
 * VM's types, encoding them back, owners in both shapes, Sui's compact object
 * types and gas-metering sizes, and the objects nested inside a value.
 */
import { Ability, ZERO_ADDRESS } from '@smi/bytecode';
import type { DatatypeInfo, MoveVector, MoveVM, Owner as RuntimeOwner, Type, TypeTable, VariantValue } from '@smi/move-vm';
import { formatType, TypeKind } from '@smi/move-vm';
import { encodeBcs } from '../bcs/shape-encoder.js';
import { type MoveObjectType, moveObjectTypeFromStructTag, moveObjectTypeToStructTag, type Owner, type SuiObject, MoveObjectType as MoveObjectTypeCodec } from '../bcs/object.js';
import { formatStructTag, parseStructTag } from '../bcs/type-tag.js';
import { simpleFailure } from './errors.js';

/** Runtime owner → BCS owner. */
export function toBcsOwner(o: RuntimeOwner): Owner {
  switch (o.$kind) {
    case 'AddressOwner':
      return { $kind: 'AddressOwner', AddressOwner: o.address };
    case 'ObjectOwner':
      return { $kind: 'ObjectOwner', ObjectOwner: o.address };
    case 'Shared':
      return { $kind: 'Shared', Shared: { initialSharedVersion: o.initialSharedVersion } };
    case 'Immutable':
      return { $kind: 'Immutable', Immutable: true };
    case 'ConsensusAddressOwner':
      return { $kind: 'ConsensusAddressOwner', ConsensusAddressOwner: { startVersion: o.startVersion, owner: o.owner } };
  }
}

/** BCS owner → runtime owner (`Party` is not representable and reported as its owner address). */
export function toRuntimeOwner(o: Owner): RuntimeOwner {
  switch (o.$kind) {
    case 'AddressOwner':
      return { $kind: 'AddressOwner', address: o.AddressOwner };
    case 'ObjectOwner':
      return { $kind: 'ObjectOwner', address: o.ObjectOwner };
    case 'Shared':
      return { $kind: 'Shared', initialSharedVersion: o.Shared.initialSharedVersion };
    case 'Immutable':
      return { $kind: 'Immutable' };
    case 'ConsensusAddressOwner':
      return { $kind: 'ConsensusAddressOwner', owner: o.ConsensusAddressOwner.owner, startVersion: o.ConsensusAddressOwner.startVersion };
    case 'Party':
      return { $kind: 'ConsensusAddressOwner', owner: o.Party.permissions.members[0]?.[0] ?? ZERO_ADDRESS, startVersion: o.Party.startVersion };
  }
}

/** Type tag text of a stored Move object. */
export function objectTypeTag(o: SuiObject): string {
  if (o.data.$kind !== 'Move') throw simpleFailure('InvariantViolation', 'a package has no Move type');
  return formatStructTag(moveObjectTypeToStructTag(o.data.Move.type));
}

/** Decode a stored Move object's contents into a runtime value of its type. */
export function decodeObject(vm: MoveVM, o: SuiObject): { value: unknown; type: Type } {
  if (o.data.$kind !== 'Move') throw simpleFailure('InvariantViolation', 'a package is not a Move value');
  const tag = objectTypeTag(o);
  const type = vm.resolveType(tag, moveObjectTypeToStructTag(o.data.Move.type).address);
  return { value: vm.bcs.decode(o.data.Move.contents, type), type };
}

/** Compact object types by runtime type (types are shared objects; their tags never change). */
const objectTypes = new WeakMap<Type, MoveObjectType>();

/** Sui's compact object type of a runtime type (cached: treat the result as read-only). */
export function moveObjectTypeOf(t: Type): MoveObjectType {
  let m = objectTypes.get(t);
  if (m === undefined) {
    m = moveObjectTypeFromStructTag(parseStructTag(formatType(t)));
    objectTypes.set(t, m);
  }
  return m;
}

/** BCS sizes of compact object types (by identity: the cached ones recur). */
const objectTypeSizes = new WeakMap<MoveObjectType, number>();

function objectTypeSize(t: MoveObjectType): number {
  let n = objectTypeSizes.get(t);
  if (n === undefined) {
    n = encodeBcs(MoveObjectTypeCodec, t).length;
    objectTypeSizes.set(t, n);
  }
  return n;
}

/** Upstream `Object::object_size_for_gas_metering`. */
export function objectSizeForGas(o: SuiObject): number {
  const meta = 40 + 32 + 8;
  if (o.data.$kind === 'Move') {
    const m = o.data.Move;
    return meta + m.contents.length + objectTypeSize(m.type) + 1 + 8;
  }
  const p = o.data.Package;
  let size = 8;
  for (const [name, bytes] of p.moduleMap) size += name.length + bytes.length;
  for (const t of p.typeOriginTable) size += t.moduleName.length + t.datatypeName.length + 32;
  size += p.linkageTable.size * (32 + 32 + 8);
  return meta + size;
}

/** Whether values of a type may hold an object (a `key` datatype somewhere inside), by type. */
const holdsObjects = new WeakMap<Type, boolean>();

function mayHoldObject(table: TypeTable, t: Type): boolean {
  if (t.kind === TypeKind.Vector) return mayHoldObject(table, t.elem as Type);
  const d = t.datatype;
  if (t.kind !== TypeKind.Datatype || d === null) return false;
  let r = holdsObjects.get(t);
  if (r === undefined) {
    const fields = d.isEnum ? d.variants().flatMap((v) => v.fields) : d.fields();
    r = (t.abilities & Ability.Key) !== 0 || fields.some((f) => mayHoldObject(table, table.subst(f.type, t.typeArgs)));
    holdsObjects.set(t, r);
  }
  return r;
}

/**
 * The objects among `ids` held inside the values of `roots` (fields, vector elements,
 * options, enum variants, dynamic-field values; objects inside those too): each as its id
 * and type tag (the text {@link objectTypeTag} gives a stored object of that type), sorted
 * by id. The roots themselves do not count. Stops once every id is found; ids found nowhere
 * are left out.
 */
export function findNestedObjects(table: TypeTable, roots: Iterable<{ value: unknown; type: Type }>, ids: Iterable<string>): { id: string; type: string }[] {
  const left = new Set(ids);
  const found: { id: string; type: string }[] = [];
  const visit = (v: unknown, t: Type, root = false): void => {
    if (left.size === 0 || !mayHoldObject(table, t)) return;
    if (t.kind === TypeKind.Vector) {
      const vec = v as MoveVector;
      const elem = t.elem as Type;
      for (let i = 0; i < vec.length && left.size > 0; i++) visit(vec.get(i), elem);
      return;
    }
    const d = t.datatype as DatatypeInfo;
    if (d.isEnum) {
      const e = v as VariantValue;
      d.variants()[e.tag].fields.forEach((f, i) => visit(e.fields[i], table.subst(f.type, t.typeArgs)));
      return;
    }
    const fields = v as unknown[];
    if (!root && (t.abilities & Ability.Key) !== 0) {
      // The first field of an object is its UID { id: ID { bytes: address } }.
      const id = ((fields[0] as unknown[])[0] as unknown[])[0] as string;
      if (left.delete(id)) found.push({ id, type: formatType(t) });
    }
    d.fields().forEach((f, i) => visit(fields[i], table.subst(f.type, t.typeArgs)));
  };
  for (const r of roots) {
    if (left.size === 0) break;
    visit(r.value, r.type, true);
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * `findNestedObjects`: the objects held inside written values (what the executor reports as
 * created and wrapped), on hand-made types: fields, vectors, enum variants, nesting, and the
 * walk stopping once every id is found.
 */
import { describe, expect, it } from 'vitest';
import { Ability } from '@smi/bytecode';
import { type DatatypeInfo, type FieldInfo, MoveVector, type Type, TypeTable, VariantValue, VecKind, type VariantInfo } from '@smi/move-vm';
import { findNestedObjects } from '../src/executor/objects.js';

const PKG = '0x' + 'a'.repeat(64);
const table = new TypeTable();

function datatype(name: string, abilities: number, fields: () => FieldInfo[], variants: () => VariantInfo[] = () => []): Type {
  const info: DatatypeInfo = {
    uid: table.datatypeUid(),
    address: PKG,
    module: 'm',
    name,
    definingId: PKG,
    abilities,
    typeParams: [],
    isEnum: variants().length > 0,
    fields: () => (variants().length > 0 ? [] : fields()),
    variants,
  };
  return table.datatype(info, []);
}

const ID = datatype('ID', Ability.Copy | Ability.Drop | Ability.Store, () => [{ name: 'bytes', type: table.address }]);
const UID = datatype('UID', Ability.Store, () => [{ name: 'id', type: ID }]);
const Inner = datatype('Inner', Ability.Key | Ability.Store, () => [
  { name: 'id', type: UID },
  { name: 'v', type: table.u64 },
]);
const Slot = datatype(
  'Slot',
  Ability.Store,
  () => [],
  () => [
    { name: 'Empty', fields: [] },
    { name: 'Full', fields: [{ name: 'pos0', type: Inner }] },
  ],
);
const Box = datatype('Box', Ability.Key | Ability.Store, () => [
  { name: 'id', type: UID },
  { name: 'inner', type: Inner },
  { name: 'slot', type: Slot },
]);
const Outer = datatype('Outer', Ability.Key, () => [
  { name: 'id', type: UID },
  { name: 'boxes', type: table.vector(Box) },
  { name: 'nums', type: table.vector(table.u64) },
]);

const id = (n: number): string => '0x' + n.toString(16).padStart(64, '0');
const uid = (n: number): unknown[] => [[id(n)]];
const inner = (n: number): unknown[] => [uid(n), BigInt(n)];
const box = (n: number, full: boolean): unknown[] => [uid(n), inner(n + 1), full ? new VariantValue(1, [inner(n + 2)]) : new VariantValue(0, [])];
const outer = (n: number, boxes: unknown[]): unknown[] => [uid(n), MoveVector.fromValues(VecKind.Boxed, boxes), MoveVector.fromValues(VecKind.U64, [1n, 2n])];

describe('findNestedObjects', () => {
  it('finds objects in fields, vectors and enum variants, nested at any depth, sorted by id, with their type tags', () => {
    const root = { value: outer(1, [box(0x10, true), box(0x20, false)]), type: Outer };
    const found = findNestedObjects(table, [root], [id(0x22), id(0x12), id(0x11), id(0x20), id(0x10), id(0x99)]);
    expect(found).toEqual([
      { id: id(0x10), type: `${PKG}::m::Box` },
      { id: id(0x11), type: `${PKG}::m::Inner` },
      { id: id(0x12), type: `${PKG}::m::Inner` },
      { id: id(0x20), type: `${PKG}::m::Box` },
    ]);
  });

  it('does not report the roots themselves, and finds nothing when no id is asked for', () => {
    const root = { value: outer(1, [box(0x10, true)]), type: Outer };
    expect(findNestedObjects(table, [root], [id(1)])).toEqual([]);
    expect(findNestedObjects(table, [root], [])).toEqual([]);
  });

  it('stops once every id is found: later values are not read', () => {
    const poisoned = new Proxy([], {
      get() {
        throw new Error('read after every id was found');
      },
    });
    const unread = {
      type: Outer,
      get value(): unknown {
        throw new Error('root read after every id was found');
      },
    };
    const roots = [{ value: outer(1, [box(0x10, false), poisoned]), type: Outer }, unread];
    expect(findNestedObjects(table, roots, [id(0x11)])).toEqual([{ id: id(0x11), type: `${PKG}::m::Inner` }]);
  });
});

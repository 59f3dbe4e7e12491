/**
 * Objects made outside any transaction: `createObject` encodes typed field values (JSON)
 * with the real layout of the struct, gives the object its owner, and stores it.
 */
import { Ability, canonicalAddress, errorMessage } from '@smi/bytecode';
import { formatType, type Json, objectStorageCost, TypeKind, valueFromJson } from '@smi/move-vm';
import { moveObjectTypeOf, objectSizeForGas, type Owner, type SuiObject } from '@smi/ptb';
import type { EnvironmentCore } from './environment-core.js';
import { SimulationEnvironmentError } from './errors.js';
import { objectView, type ObjectView } from './object-view.js';

/** Who owns a created object. */
export type OwnerSpec = { $kind: 'AddressOwner'; address: string } | { $kind: 'ObjectOwner'; address: string } | { $kind: 'Shared' } | { $kind: 'Immutable' };

/** What {@link createObject} takes. */
export interface CreateObjectSpec {
  /** Struct type with `key` (`0x2::coin::Coin<0x2::sui::SUI>`, `0xabc::pool::Pool<T>`). */
  type: string;
  /**
   * Field values as JSON, by field name (`valueFromJson` rules: integers as numbers or
   * strings, addresses and ids as `0x` strings, `vector<u8>` as hex or arrays, nested
   * structs as objects). The `id` field may be left out: the object then gets `id` below
   * or a fresh one.
   */
  fields: Record<string, Json>;
  /** Default: the sender's address. */
  owner?: OwnerSpec;
  /** Object id (default: a fresh deterministic id). */
  id?: string;
  /** Version (default 1). */
  version?: bigint;
}

function ownerOf(env: EnvironmentCore, spec: OwnerSpec | undefined, version: bigint): Owner {
  const o = spec ?? { $kind: 'AddressOwner', address: env.sender };
  switch (o.$kind) {
    case 'AddressOwner':
      return { $kind: 'AddressOwner', AddressOwner: canonicalAddress(o.address) } as Owner;
    case 'ObjectOwner':
      return { $kind: 'ObjectOwner', ObjectOwner: canonicalAddress(o.address) } as Owner;
    case 'Shared':
      return { $kind: 'Shared', Shared: { initialSharedVersion: version } } as Owner;
    case 'Immutable':
      return { $kind: 'Immutable', Immutable: true } as Owner;
  }
}

/** Create and store an object from typed field values; returns its view. */
export function createObject(env: EnvironmentCore, spec: CreateObjectSpec): ObjectView {
  let type;
  try {
    type = env.vm.resolveType(spec.type);
  } catch (e) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `type ${spec.type} does not resolve: ${errorMessage(e)}`);
  }
  if (type.kind !== TypeKind.Datatype || type.datatype === null || type.datatype.isEnum) {
    throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `${spec.type} is not a struct`);
  }
  if ((type.abilities & Ability.Key) === 0) throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `${formatType(type)} has no key ability: it cannot be an object`);
  if (typeof spec.fields !== 'object' || spec.fields === null || Array.isArray(spec.fields)) {
    throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', 'fields must be a JSON object keyed by field name');
  }
  const id = canonicalAddress(spec.id ?? (typeof spec.fields.id === 'string' ? spec.fields.id : env.freshObjectId()));
  if (env.store.has(id)) throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `object ${id} already exists`, { objectId: id });
  if (spec.fields.id !== undefined && typeof spec.fields.id === 'string' && canonicalAddress(spec.fields.id) !== id) {
    throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `fields.id ${spec.fields.id} differs from id ${id}`);
  }
  const fields: Record<string, Json> = { ...spec.fields, id };
  let value: unknown;
  try {
    value = valueFromJson(env.vm.types, fields, type);
  } catch (e) {
    throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `fields do not fit ${formatType(type)}: ${errorMessage(e)}`);
  }
  const version = spec.version ?? 1n;
  if (version < 1n) throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', 'versions start at 1');
  const object: SuiObject = {
    data: {
      $kind: 'Move',
      Move: { type: moveObjectTypeOf(type), hasPublicTransfer: (type.abilities & Ability.Store) !== 0, version, contents: env.vm.bcs.encode(value, type) },
    },
    owner: ownerOf(env, spec.owner, version),
    previousTransaction: '11111111111111111111111111111111',
    storageRebate: 0n,
  } as SuiObject;
  // As if a transaction had written it: the rebate is what its storage cost.
  object.storageRebate = objectStorageCost(env.protocolConfig, BigInt(objectSizeForGas(object)));
  env.store.put(id, object);
  return objectView(env.vm, id, object);
}

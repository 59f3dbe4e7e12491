/**
 * Sui objects: `Owner`, `MoveObjectType` (with its compact coin forms), Move objects,
 * packages and the `Object` envelope (`sui_types::object::Object`).
 */
import { SUI_ADDRESS, SUI_SYSTEM_ADDRESS } from '@smi/bytecode';
import { Address, Bool, Bytes, Digest, Str, U64, enumType, map, struct, tuple, vector, normalizeAddress, type Codec, type Enum } from './codec.js';
import { StructTag, TypeTag, structTypeTag } from './type-tag.js';

/** `(ObjectID, SequenceNumber, ObjectDigest)`; serde writes it as a 3-tuple. */
export interface ObjectRef {
  objectId: string;
  version: bigint;
  digest: string;
}

/** `ObjectRef` codec. */
export const ObjectRef: Codec<ObjectRef> = struct<ObjectRef>('ObjectRef', { objectId: Address, version: U64, digest: Digest }, { serde: 'tuple' });

/** Permissions of a party-owned object (`RawPartySerde`). */
export interface PartyPermissions {
  defaultPermissions: bigint;
  members: [string, bigint][];
}

/** Variants of {@link Owner}. */
export interface OwnerVariants {
  AddressOwner: string;
  ObjectOwner: string;
  Shared: { initialSharedVersion: bigint };
  Immutable: true;
  ConsensusAddressOwner: { startVersion: bigint; owner: string };
  Party: { startVersion: bigint; permissions: PartyPermissions };
}

/** Who owns an object. */
export type Owner = Enum<OwnerVariants>;

/** `Owner` codec. */
export const Owner: Codec<Owner> = enumType<OwnerVariants>('Owner', {
  AddressOwner: Address,
  ObjectOwner: Address,
  Shared: struct('Shared', { initialSharedVersion: U64 }),
  Immutable: null,
  ConsensusAddressOwner: struct('ConsensusAddressOwner', { startVersion: U64, owner: Address }),
  Party: struct('Party', {
    startVersion: U64,
    permissions: struct<PartyPermissions>('RawPartySerde', { defaultPermissions: U64, members: vector(tuple(Address, U64)) }),
  }),
});

/** Variants of {@link MoveObjectType} (`MoveObjectType_`). */
export interface MoveObjectTypeVariants {
  /** Any type not listed below. */
  Other: StructTag;
  /** `0x2::coin::Coin<0x2::sui::SUI>`. */
  GasCoin: true;
  /** `0x3::staking_pool::StakedSui`. */
  StakedSui: true;
  /** `0x2::coin::Coin<T>`, T not SUI. */
  Coin: TypeTag;
  /** `0x2::dynamic_field::Field<0x2::accumulator::Key<0x2::balance::Balance<0x2::sui::SUI>>, 0x2::accumulator::U128>`. */
  SuiBalanceAccumulatorField: true;
  /** The same for `Balance<T>`, T not SUI. */
  BalanceAccumulatorField: TypeTag;
}

/** A Move object's type in Sui's compact encoding. */
export type MoveObjectType = Enum<MoveObjectTypeVariants>;

/** `MoveObjectType` codec. */
export const MoveObjectType: Codec<MoveObjectType> = enumType<MoveObjectTypeVariants>('MoveObjectType', {
  Other: StructTag,
  GasCoin: null,
  StakedSui: null,
  Coin: TypeTag,
  SuiBalanceAccumulatorField: null,
  BalanceAccumulatorField: TypeTag,
});

/** A Move object (`MoveObject`): `contents` starts with the 32-byte object id. */
export interface MoveObject {
  type: MoveObjectType;
  hasPublicTransfer: boolean;
  version: bigint;
  contents: Uint8Array;
}

/** `MoveObject` codec. */
export const MoveObject: Codec<MoveObject> = struct<MoveObject>('MoveObject', { type: MoveObjectType, hasPublicTransfer: Bool, version: U64, contents: Bytes }, { rename: { type: 'type_' } });

/** Where a datatype of a package was first defined (`TypeOrigin`). */
export interface TypeOrigin {
  moduleName: string;
  datatypeName: string;
  package: string;
}

/** `TypeOrigin` codec. */
export const TypeOrigin: Codec<TypeOrigin> = struct<TypeOrigin>('TypeOrigin', { moduleName: Str, datatypeName: Str, package: Address });

/** The version of a dependency a package links against (`UpgradeInfo`). */
export interface UpgradeInfo {
  upgradedId: string;
  upgradedVersion: bigint;
}

/** `UpgradeInfo` codec. */
export const UpgradeInfo: Codec<UpgradeInfo> = struct<UpgradeInfo>('UpgradeInfo', { upgradedId: Address, upgradedVersion: U64 });

/** A Move package (`MovePackage`). */
export interface MovePackage {
  id: string;
  version: bigint;
  /** Module name → bytecode (BCS: sorted by name). */
  moduleMap: Map<string, Uint8Array>;
  typeOriginTable: TypeOrigin[];
  /** Original package id → the upgraded package linked to. */
  linkageTable: Map<string, UpgradeInfo>;
}

/** `MovePackage` codec. */
export const MovePackage: Codec<MovePackage> = struct<MovePackage>('MovePackage', {
  id: Address,
  version: U64,
  moduleMap: map(Str, Bytes),
  typeOriginTable: vector(TypeOrigin),
  linkageTable: map(Address, UpgradeInfo),
});

/** Variants of {@link ObjectData}. */
export interface ObjectDataVariants {
  Move: MoveObject;
  Package: MovePackage;
}

/** An object's payload (`Data`). */
export type ObjectData = Enum<ObjectDataVariants>;

/** `Data` codec. */
export const ObjectData: Codec<ObjectData> = enumType<ObjectDataVariants>('Data', { Move: MoveObject, Package: MovePackage });

/** A Sui object (`sui_types::object::Object`). */
export interface SuiObject {
  data: ObjectData;
  owner: Owner;
  /** Digest of the transaction that last wrote it. */
  previousTransaction: string;
  storageRebate: bigint;
}

/** `Object` codec. */
export const SuiObject: Codec<SuiObject> = struct<SuiObject>('Object', {
  data: ObjectData,
  owner: Owner,
  previousTransaction: Digest,
  storageRebate: U64,
});

/** The id of an object: a package's `id`, or the first 32 bytes of a Move object's contents. */
export function objectIdOf(object: SuiObject): string {
  if (object.data.$kind === 'Package') return object.data.Package.id;
  const c = object.data.Move.contents;
  let hex = '0x';
  for (let i = 0; i < 32; i++) hex += (c[i] ?? 0).toString(16).padStart(2, '0');
  return hex;
}

/** The version of an object. */
export function objectVersionOf(object: SuiObject): bigint {
  return object.data.$kind === 'Package' ? object.data.Package.version : object.data.Move.version;
}

const SUI: TypeTag = structTypeTag({ address: SUI_ADDRESS, module: 'sui', name: 'SUI', typeParams: [] });

const fw = (module: string, name: string, typeParams: TypeTag[] = []): StructTag => ({ address: SUI_ADDRESS, module, name, typeParams });

function isFw(t: StructTag, module: string, name: string, arity: number): boolean {
  return t.module === module && t.name === name && t.typeParams.length === arity && normalizeAddress(t.address) === SUI_ADDRESS;
}

function isSui(t: TypeTag): boolean {
  return t.$kind === 'struct' && isFw(t.struct, 'sui', 'SUI', 0);
}

function balanceFieldTag(inner: TypeTag): StructTag {
  const key = fw('accumulator', 'Key', [structTypeTag(fw('balance', 'Balance', [inner]))]);
  return fw('dynamic_field', 'Field', [structTypeTag(key), structTypeTag(fw('accumulator', 'U128'))]);
}

/** The full struct tag of a compact object type (`GasCoin` → `0x2::coin::Coin<0x2::sui::SUI>`). */
export function moveObjectTypeToStructTag(type: MoveObjectType): StructTag {
  switch (type.$kind) {
    case 'Other':
      return type.Other;
    case 'GasCoin':
      return fw('coin', 'Coin', [SUI]);
    case 'StakedSui':
      return { address: SUI_SYSTEM_ADDRESS, module: 'staking_pool', name: 'StakedSui', typeParams: [] };
    case 'Coin':
      return fw('coin', 'Coin', [type.Coin]);
    case 'SuiBalanceAccumulatorField':
      return balanceFieldTag(SUI);
    case 'BalanceAccumulatorField':
      return balanceFieldTag(type.BalanceAccumulatorField);
  }
}

/** The balance type `T` if `tag` is `Field<accumulator::Key<balance::Balance<T>>, accumulator::U128>`. */
function accumulatorBalanceType(tag: StructTag): TypeTag | undefined {
  if (!isFw(tag, 'dynamic_field', 'Field', 2)) return undefined;
  const [key, value] = tag.typeParams;
  if (key.$kind !== 'struct' || value.$kind !== 'struct' || !isFw(value.struct, 'accumulator', 'U128', 0)) return undefined;
  if (!isFw(key.struct, 'accumulator', 'Key', 1)) return undefined;
  const balance = key.struct.typeParams[0];
  if (balance.$kind !== 'struct' || !isFw(balance.struct, 'balance', 'Balance', 1)) return undefined;
  return balance.struct.typeParams[0];
}

/**
 * The compact encoding Sui stores for an object of type `tag` (what
 * `MoveObjectType::from(StructTag)` picks); the object digest depends on it.
 */
export function moveObjectTypeFromStructTag(tag: StructTag): MoveObjectType {
  if (isFw(tag, 'coin', 'Coin', 1)) {
    const inner = tag.typeParams[0];
    return isSui(inner) ? { $kind: 'GasCoin', GasCoin: true } : { $kind: 'Coin', Coin: inner };
  }
  if (tag.module === 'staking_pool' && tag.name === 'StakedSui' && tag.typeParams.length === 0 && normalizeAddress(tag.address) === SUI_SYSTEM_ADDRESS) {
    return { $kind: 'StakedSui', StakedSui: true };
  }
  const balance = accumulatorBalanceType(tag);
  if (balance !== undefined) {
    return isSui(balance) ? { $kind: 'SuiBalanceAccumulatorField', SuiBalanceAccumulatorField: true } : { $kind: 'BalanceAccumulatorField', BalanceAccumulatorField: balance };
  }
  return { $kind: 'Other', Other: tag };
}

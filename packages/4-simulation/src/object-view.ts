/**
 * JSON views of objects and owners: what `getObject`, `sandbox-exec` and the CLI print.
 * Move values are decoded with the real layout of their type (`valueToJson`).
 */
import { type Json, type MoveVM, valueToJson } from '@smi/move-vm';
import { decodeObject, objectDigest, objectTypeTag, type Owner, type SuiObject } from '@smi/ptb';
import { versionOf } from './store.js';
import { errorMessage } from '@smi/bytecode';

/** An owner as JSON (`$kind` tagged). */
export type OwnerJson =
  | { $kind: 'AddressOwner'; address: string }
  | { $kind: 'ObjectOwner'; address: string }
  | { $kind: 'Shared'; initialSharedVersion: string }
  | { $kind: 'Immutable' }
  | { $kind: 'ConsensusAddressOwner'; owner: string; startVersion: string }
  | { $kind: 'Party' };

/** JSON of an owner. */
export function ownerToJson(o: Owner): OwnerJson {
  switch (o.$kind) {
    case 'AddressOwner':
      return { $kind: 'AddressOwner', address: o.AddressOwner };
    case 'ObjectOwner':
      return { $kind: 'ObjectOwner', address: o.ObjectOwner };
    case 'Shared':
      return { $kind: 'Shared', initialSharedVersion: o.Shared.initialSharedVersion.toString() };
    case 'Immutable':
      return { $kind: 'Immutable' };
    case 'ConsensusAddressOwner':
      return { $kind: 'ConsensusAddressOwner', owner: o.ConsensusAddressOwner.owner, startVersion: o.ConsensusAddressOwner.startVersion.toString() };
    default:
      return { $kind: 'Party' };
  }
}

/** An object as JSON. */
export interface ObjectView {
  id: string;
  version: string;
  digest: string;
  owner: OwnerJson;
  /** Move type with full addresses; `null` for packages. */
  type: string | null;
  /** BCS of the Move contents (hex); packages: `null`. */
  bcs: string | null;
  /** Decoded Move value; packages: their module names. */
  value: Json;
  storageRebate: string;
  previousTransaction: string;
}

/** JSON view of a stored object (decoding its contents with `vm`). */
export function objectView(vm: MoveVM, id: string, o: SuiObject): ObjectView {
  const common = {
    id,
    version: versionOf(o).toString(),
    digest: objectDigest(o),
    owner: ownerToJson(o.owner),
    storageRebate: o.storageRebate.toString(),
    previousTransaction: o.previousTransaction,
  };
  if (o.data.$kind === 'Package') {
    return { ...common, type: null, bcs: null, value: { modules: [...o.data.Package.moduleMap.keys()] } };
  }
  let value: Json;
  try {
    const { value: v, type } = decodeObject(vm, o);
    value = valueToJson(vm.types, v, type);
  } catch (e) {
    // The type's package is not loaded: show the bytes only, and say why.
    value = { undecodable: errorMessage(e) };
  }
  return { ...common, type: objectTypeTag(o), bcs: Buffer.from(o.data.Move.contents).toString('hex'), value };
}

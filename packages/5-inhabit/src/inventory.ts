/**
 * The objects a benchmark transaction may use as inputs: what the baseline state holds
 * (objects the packages' `init` functions created, the system objects) and, per
 * function, what a setup transaction created. Only objects the sender can use: owned by
 * the sender, shared, or immutable.
 */
import { canonicalAddress } from '@smi/bytecode';
import { parseTypeTag, type TypeTagAst } from '@smi/move-vm';
import { objectTypeTag } from '@smi/ptb';
import type { SimulationEnvironment } from '@smi/simulation';
import { type Catalogue, SUI } from './catalogue.js';
import { datatype, type DatatypeTy, datatypeKey, deref, isDatatype, prim, shortKey, type Ty, vectorOf } from './types.js';

/** How a parameter takes its value. */
export type ParamUse = 'value' | 'ref' | 'mutref';

/** How an object can be passed: owned by the sender, shared, or frozen. */
export type ObjectOwnership = 'owned' | 'shared' | 'immutable';

/** Where an object came from (the provenance of a row that uses it). */
export type ObjectOrigin = 'system' | 'init_state' | 'setup' | 'synthesized';

/** An object a transaction can take as input. */
export interface InventoryObject {
  id: string;
  type: DatatypeTy;
  /** Type tag as stored (type-origin addresses). */
  typeTag: string;
  ownership: ObjectOwnership;
  origin: ObjectOrigin;
  /** The object's contents (BCS), to tell which package an object is about (see {@link mentions}). */
  contents?: Uint8Array;
}

/**
 * `true` when the object's contents hold address `id` (32 bytes): an object made for a
 * package usually names it (an `UpgradeCap` its package, a registry the package's
 * objects), so of several objects of one type, those that name the calling package suit it.
 */
export function mentions(o: InventoryObject, id: string): boolean {
  const c = o.contents;
  if (c === undefined || c.length < 32) return false;
  const want = Buffer.from(canonicalAddress(id).slice(2), 'hex');
  return Buffer.from(c.buffer, c.byteOffset, c.byteLength).indexOf(want) >= 0;
}

/** Ids of the system objects (Clock, Random, DenyList, CoinRegistry, ...): genuine, usable by anyone. */
const SYSTEM_IDS = new Set(['0x5', '0x6', '0x7', '0x8', '0x9', '0xc', '0x403', '0xacc'].map((a) => canonicalAddress(a)));

/** `true` for one of the system objects (the same ids in every environment). */
export function isSystemObject(id: string): boolean {
  return SYSTEM_IDS.has(canonicalAddress(id));
}

/**
 * A type tag as a {@link Ty} keyed by original ids: a datatype named by the storage id of
 * an upgraded package (its type origin) is named by the package's original id instead.
 */
export function tyFromTag(tag: string | TypeTagAst, catalogue: Catalogue): Ty {
  const ast = typeof tag === 'string' ? parseTypeTag(tag) : tag;
  switch (ast.$kind) {
    case 'Primitive':
      return prim(ast.name);
    case 'Vector':
      return vectorOf(tyFromTag(ast.elem, catalogue));
    case 'Datatype': {
      const address = canonicalAddress(ast.address);
      const original = catalogue.packages.find((p) => p.id === address)?.originalId ?? address;
      return datatype(
        datatypeKey(original, ast.module, ast.name),
        ast.typeArgs.map((a) => tyFromTag(a, catalogue)),
      );
    }
  }
}

/** An object `sender` can pass to a transaction, as the store holds it. */
export interface UsableObject {
  id: string;
  /** Type tag as stored (type-origin addresses). */
  typeTag: string;
  ownership: ObjectOwnership;
  /** One of the system objects (Clock, Random, DenyList, SuiSystemState, ...). */
  system: boolean;
  contents: Uint8Array;
}

/**
 * The Move objects `sender` can pass now, sorted by id: its own, shared ones and immutable
 * ones. The one inventory of the chain: benchmark-local's searches and Phase II's prompts,
 * placeholders and chain-search read it.
 */
export function usableObjects(env: SimulationEnvironment, sender: string = env.sender): UsableObject[] {
  const who = canonicalAddress(sender);
  const out: UsableObject[] = [];
  for (const [id, o] of env.store.entries()) {
    if (o.data.$kind !== 'Move') continue;
    let ownership: ObjectOwnership;
    if (o.owner.$kind === 'Shared') ownership = 'shared';
    else if (o.owner.$kind === 'Immutable') ownership = 'immutable';
    else if (o.owner.$kind === 'AddressOwner' && canonicalAddress(o.owner.AddressOwner) === who) ownership = 'owned';
    else continue;
    out.push({ id, typeTag: objectTypeTag(o), ownership, system: isSystemObject(id), contents: o.data.Move.contents });
  }
  return out;
}

/** The usable objects of `env` now, sorted by id, as the search types them; `origin` labels the non-system ones. */
export function inventoryOf(env: SimulationEnvironment, catalogue: Catalogue, origin: ObjectOrigin): InventoryObject[] {
  const out: InventoryObject[] = [];
  for (const o of usableObjects(env)) {
    const type = tyFromTag(o.typeTag, catalogue);
    if (type.$kind !== 'Datatype') continue;
    out.push({ id: o.id, type, typeTag: o.typeTag, ownership: o.ownership, origin: o.system ? 'system' : origin, contents: o.contents });
  }
  return out;
}

const CLOCK = `${SUI}::clock::Clock`;
const RANDOM = `${SUI}::random::Random`;

/** How a parameter of type `t` takes its value. */
export function useOf(t: Ty): ParamUse {
  return t.$kind === 'Ref' ? (t.mutable ? 'mutref' : 'ref') : 'value';
}

/** `true` for `TxContext`, by value or by reference. */
export function isTxContext(t: Ty): boolean {
  return isDatatype(deref(t), SUI, 'tx_context', 'TxContext');
}

/** Why object `o` cannot be passed for a parameter used as `use`, or `null` when it can. */
export function objectTyping(o: InventoryObject, use: ParamUse): string | null {
  if (o.type.key === CLOCK || o.type.key === RANDOM) return use === 'ref' ? null : `${shortKey(o.type.key)} can only be passed by immutable reference`;
  if (o.ownership === 'owned') return null;
  if (o.ownership === 'immutable') return use === 'ref' ? null : `object ${o.id} of type ${shortKey(o.type.key)} is immutable: it can only be passed by &`;
  return use === 'value' ? `object ${o.id} of type ${shortKey(o.type.key)} is shared: it cannot be passed by value` : null;
}

/**
 * A plan as a transaction for a node: the objects it names fetched from the node (their
 * current version and digest, or for a shared object its initial shared version), a builder
 * over them that {@link planToPtb} translates the plan onto, and the `TransactionData` BCS a
 * node simulates (the sender pays with its gas coin at the given price and budget).
 */
import { canonicalAddress } from '@smi/bytecode';
import type { Json as MoveJson } from '@smi/move-vm';
import { decodeBcs, encodeBcs, type ObjectArg, type ObjectRef, objectRefOf, type ProgrammableTransaction, suiBcs, type SuiObject, type TransactionData } from '@smi/ptb';
import { PtbBuilder, type SuiDataSource } from '@smi/simulation';
import { PlanError } from '@smi/inhabit';
import type { PlanTxBuilder } from '@smi/inhabit';
import { pureBcs } from './pure-bcs.js';

/** An object as fetched: its reference and how it is owned. */
export interface FetchedObject {
  ref: ObjectRef;
  owner: SuiObject['owner'];
}

/** Fetch an object's current state (its reference and owner) from the node. */
export async function fetchObject(source: SuiDataSource, id: string): Promise<FetchedObject> {
  const got = await source.getObject(canonicalAddress(id));
  const object = decodeBcs(suiBcs.Object, got.bcs);
  return { ref: objectRefOf(object), owner: object.owner };
}

/** The input an object makes: shared (and consensus-owned) objects by their start version, the rest by reference. */
export function objectArgOf(o: FetchedObject, mutable: boolean): ObjectArg {
  const start = o.owner.$kind === 'Shared' ? o.owner.Shared.initialSharedVersion : o.owner.$kind === 'ConsensusAddressOwner' ? o.owner.ConsensusAddressOwner.startVersion : null;
  if (start === null) return { $kind: 'ImmOrOwnedObject', ImmOrOwnedObject: o.ref } as ObjectArg;
  const mutability = mutable ? { $kind: 'Mutable', Mutable: true } : { $kind: 'Immutable', Immutable: true };
  return { $kind: 'SharedObject', SharedObject: { objectId: o.ref.objectId, initialSharedVersion: start, mutability } } as ObjectArg;
}

/** A builder over objects already fetched: pure values encoded without a VM, objects as the node has them. */
export class NodeTxBuilder extends PtbBuilder implements PlanTxBuilder {
  constructor(private readonly objects: ReadonlyMap<string, FetchedObject>) {
    super();
  }

  pure(type: string, value: MoveJson): ReturnType<PtbBuilder['pureBytes']> {
    return this.pureBytes(pureBcs(type, value));
  }

  object(id: string, options: { mutable: boolean }): ReturnType<PtbBuilder['objectArg']> {
    const o = this.objects.get(canonicalAddress(id));
    if (o === undefined) throw new PlanError('PLAN_PARSE_ERROR', `object ${canonicalAddress(id)} was not fetched from the node`);
    return this.objectArg(objectArgOf(o, options.mutable));
  }
}

/** What a transaction pays gas with. */
export interface GasSettings {
  sender: string;
  /** The gas coin (none: an empty payment, which only a dev-inspect accepts). */
  coin: ObjectRef | null;
  price: bigint;
  budget: bigint;
}

/** The `TransactionData` (V1, no expiration) of `ptb`, as BCS. */
export function transactionDataBcs(ptb: ProgrammableTransaction, gas: GasSettings): Uint8Array {
  const sender = canonicalAddress(gas.sender);
  const data = {
    $kind: 'V1',
    V1: {
      kind: { $kind: 'ProgrammableTransaction', ProgrammableTransaction: ptb },
      sender,
      gasData: { payment: gas.coin === null ? [] : [gas.coin], owner: sender, price: gas.price, budget: gas.budget },
      expiration: { $kind: 'None', None: true },
    },
  } as TransactionData;
  return encodeBcs(suiBcs.TransactionData, data);
}

/**
 * Accumulator writes (address balances and authenticated event streams): the object
 * runtime records `Merge`/`Split` events per accumulator object; a transaction's effects
 * carry one `AccumulatorWriteV1` per object, netted out as upstream's
 * `AccumulatorWriteV1::merge` does (integer amounts: merges minus splits, the larger side
 * naming the operation; event streams: the event indices with the events' digests, in order).
 */
import { SUI_ADDRESS } from '@smi/bytecode';
import { type AccumulatorEvent, formatTypeTag } from '@smi/move-vm';
import { digestToBase58 } from '../bcs/codec.js';
import { encodeBcs } from '../bcs/shape-encoder.js';
import { blake2b256 } from '../bcs/digests.js';
import { Event, type AccumulatorWriteV1, type EffectsObjectChange } from '../bcs/effects.js';
import { parseTypeTag } from '../bcs/type-tag.js';
import { simpleFailure } from './errors.js';

const BALANCE_PREFIX = /^0x0{63}2::balance::Balance<(.*)>$/;

/** `Event::digest`: blake2b256 of the event's BCS (no salt). */
function eventDigest(event: Event): string {
  return digestToBase58(blake2b256(encodeBcs(Event, event)));
}

/** The effects entries of a transaction's accumulator events, one per accumulator object. */
export function accumulatorChanges(events: readonly AccumulatorEvent[], userEvents: readonly Event[]): [string, EffectsObjectChange][] {
  const byId = new Map<string, AccumulatorEvent[]>();
  for (const e of events) {
    const list = byId.get(e.accumulatorId);
    if (list === undefined) byId.set(e.accumulatorId, [e]);
    else list.push(e);
  }
  const out: [string, EffectsObjectChange][] = [];
  for (const [id, list] of byId) {
    const first = list[0];
    let write: AccumulatorWriteV1;
    const address = { address: first.targetAddress, ty: parseTypeTag(formatTypeTag(first.targetType)) };
    if (first.value.$kind === 'EventRef') {
      const refs: [bigint, string][] = [];
      for (const e of list) {
        if (e.value.$kind !== 'EventRef') continue;
        const ev = userEvents[Number(e.value.eventIndex)];
        if (ev === undefined) throw simpleFailure('InvariantViolation', `no authenticated event at index ${e.value.eventIndex}`);
        refs.push([e.value.eventIndex, eventDigest(ev)]);
      }
      write = { address, operation: { $kind: 'Merge', Merge: true }, value: { $kind: 'EventDigest', EventDigest: refs } };
    } else {
      let merged = 0n;
      let split = 0n;
      for (const e of list) {
        if (e.value.$kind !== 'U64') continue;
        if (e.action === 'Merge') merged += e.value.amount;
        else split += e.value.amount;
      }
      const merge = merged >= split;
      write = {
        address,
        operation: merge ? { $kind: 'Merge', Merge: true } : { $kind: 'Split', Split: true },
        value: { $kind: 'Integer', Integer: merge ? merged - split : split - merged },
      };
    }
    out.push([id, { inputState: { $kind: 'NotExist', NotExist: true }, outputState: { $kind: 'AccumulatorWriteV1', AccumulatorWriteV1: write }, idOperation: { $kind: 'None', None: true } }]);
  }
  return out;
}

/** Recipients of balances sent to addresses (`Balance<T>` accumulators), as coin owners for the deny list. */
export function fundsRecipients(events: readonly AccumulatorEvent[]): { typeTag: string; owner: string }[] {
  const out: { typeTag: string; owner: string }[] = [];
  for (const e of events) {
    const m = BALANCE_PREFIX.exec(formatTypeTag(e.targetType));
    if (m !== null) out.push({ typeTag: `${SUI_ADDRESS}::coin::Coin<${m[1]}>`, owner: e.targetAddress });
  }
  return out;
}

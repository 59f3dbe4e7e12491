/**
 * Accumulator settlement (address balances and authenticated event streams). A transaction
 * does not change an accumulator directly: its effects carry `AccumulatorWriteV1` entries
 * (merges and splits per accumulator object), and a checkpoint settles the writes of the
 * transactions it contains with one system transaction against the accumulator root 0xacc:
 * `accumulator_settlement::settlement_prologue`, then per accumulator (ordered by its
 * object id) `settle_u128<Balance<T>>(root, owner, merge, split)` with the amounts netted
 * out, or `settle_events(root, stream, root_digest, count, checkpoint)`. Upstream splits
 * this into settlement transactions (root taken non-exclusively) and a barrier transaction
 * that mutates the root; one transaction mutating the root gives the same versions (the
 * accumulator fields and the root at the root's version + 1).
 *
 * The event-stream digest passed to `settle_events` chains the events' digests with
 * blake2b256 in (transaction, event) order; upstream's is a fastcrypto Merkle root of the
 * same commitments. Only the event count and the stream head's version are compared by the
 * conformance suites.
 */
import { canonicalAddress, SUI_ADDRESS } from '@smi/bytecode';
import { blake2b256, digestFromBase58, dynamicFieldId, formatTypeTag, parseTypeTag, type SuiObject, type TransactionEffects } from '@smi/ptb';
import { ACCUMULATOR_ROOT_ID } from './system.js';

const BALANCE = /^0x0{63}2::balance::Balance<.*>$/;

/** The netted writes to one accumulator over a checkpoint. */
export type AccumulatorSettlement = { kind: 'balance'; id: string; owner: string; type: string; merge: bigint; split: bigint } | { kind: 'events'; id: string; stream: string; digests: Uint8Array[] };

/** The accumulator writes of `effects` (in execution order), per accumulator object, ordered by id. */
export function collectSettlements(effects: readonly TransactionEffects[]): AccumulatorSettlement[] {
  const byId = new Map<string, AccumulatorSettlement>();
  for (const fx of effects) {
    if (fx.$kind !== 'V2') continue;
    for (const [id, change] of fx.V2.changedObjects) {
      if (change.outputState.$kind !== 'AccumulatorWriteV1') continue;
      const w = change.outputState.AccumulatorWriteV1;
      const type = formatTypeTag(w.address.ty);
      const prev = byId.get(id);
      if (w.value.$kind === 'Integer') {
        const s = prev?.kind === 'balance' ? prev : { kind: 'balance' as const, id, owner: canonicalAddress(w.address.address), type, merge: 0n, split: 0n };
        if (w.operation.$kind === 'Merge') s.merge += w.value.Integer;
        else s.split += w.value.Integer;
        byId.set(id, s);
      } else if (w.value.$kind === 'EventDigest') {
        const s = prev?.kind === 'events' ? prev : { kind: 'events' as const, id, stream: canonicalAddress(w.address.address), digests: [] };
        for (const [, digest] of w.value.EventDigest) s.digests.push(digestFromBase58(digest));
        byId.set(id, s);
      }
    }
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `true` for `0x2::balance::Balance<T>` accumulators (the only integer kind settled). */
export function isBalanceAccumulator(type: string): boolean {
  return BALANCE.test(type);
}

/** Gross SUI deposited to and withdrawn from address balances (the prologue's conservation figures). */
export function suiFlows(settlements: readonly AccumulatorSettlement[]): { input: bigint; output: bigint } {
  let input = 0n;
  let output = 0n;
  const sui = `${SUI_ADDRESS}::balance::Balance<${SUI_ADDRESS}::sui::SUI>`;
  for (const s of settlements) {
    if (s.kind !== 'balance' || s.type !== sui) continue;
    input += s.merge;
    output += s.split;
  }
  return { input, output };
}

/** The digest of an event stream's new events (see the module note). */
export function eventsDigest(digests: readonly Uint8Array[]): Uint8Array {
  let acc: Uint8Array = new Uint8Array(32);
  for (const d of digests) {
    const both = new Uint8Array(64);
    both.set(acc);
    both.set(d, 32);
    acc = blake2b256(both);
  }
  return acc;
}

/** The accumulator object holding `owner`'s balance of `balanceType` (`0x2::balance::Balance<T>`): the dynamic field `accumulator::Key<Balance<T>> { owner }` of the root. */
export function balanceAccumulatorId(owner: string, balanceType: string): string {
  return dynamicFieldId(ACCUMULATOR_ROOT_ID, parseTypeTag(`0x2::accumulator::Key<${balanceType}>`), hexToBytes(canonicalAddress(owner)));
}

function hexToBytes(address: string): Uint8Array {
  return Uint8Array.from(Buffer.from(address.slice(2), 'hex'));
}

/**
 * The settled value of a balance accumulator object (`Field<Key<T>, U128>`), read from its
 * BCS: `{ id, name: Key { address }, value: U128 { value: u128 } }`, the u128 at bytes 64..80.
 */
export function settledValue(o: SuiObject | undefined): bigint | undefined {
  if (o === undefined || o.data.$kind !== 'Move') return undefined;
  const bytes = o.data.Move.contents;
  let v = 0n;
  for (let i = 79; i >= 64; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/**
 * Gas payment locations (upstream `GasCharger` smashing and `finish_gas_coin`). A
 * transaction pays gas from coins and/or from the gas owner's address balance (SUI held by
 * the accumulator root 0xacc). The first payment is the smash target: a coin receives the
 * value of every payment (a reservation from the address balance is withdrawn into it),
 * or, when the address balance comes first, every coin is deposited into the address
 * balance and the commands see an ephemeral gas coin (a fresh id) holding the total.
 * While the commands run, the gas budget is withheld from the gas coin; at the end it is
 * returned to wherever the coin went: the coin itself (kept or transferred), or the
 * recipient's address balance when the coin was sent with `coin::send_funds`, which also
 * moves the charge there. An ephemeral coin left in place goes back to the address
 * balance (the net change), one that was transferred or sent withdraws its full value.
 */
import { type AccumulatorEvent, parseSuiTypeTag } from '@smi/move-vm';
import { dynamicFieldId } from '../bcs/digests.js';
import { parseTypeTag } from '../bcs/type-tag.js';
import { addressBytes, addressOfNumber } from '@smi/bytecode';

const SUI_BALANCE = '0x2::balance::Balance<0x2::sui::SUI>';
const ACCUMULATOR_ROOT = addressOfNumber(0xacc);

/** Where gas is charged: a coin, or an address balance. */
export type GasLocation = { kind: 'coin'; id: string } | { kind: 'addressBalance'; address: string };

/** What the commands did with the gas coin (upstream `GasCoinTransfer`). */
export type GasCoinTransfer = { kind: 'transfer' } | { kind: 'sendFunds'; recipient: string };

/** How a transaction's gas is paid, as loaded. */
export interface GasPlan {
  /** The smash target (where gas is charged unless the gas coin moves). */
  target: GasLocation;
  /** Value of every payment together (the gas coin's value before the budget is withheld). */
  total: bigint;
  /** Part of the budget withheld from the gas coin while the commands run. */
  withheld: bigint;
  /** The ephemeral gas coin's id (address-balance target), once created. */
  ephemeralId: string | null;
  /** Accumulator events of the smash: a reservation withdrawn into the coin, or coins deposited into the address balance. */
  smashEvents: AccumulatorEvent[];
}

/** The accumulator object of `address`'s balance of `coinType` (`accumulator::Key<Balance<T>> { address }` under 0xacc). */
export function balanceAccumulatorId(address: string, coinType: string): string {
  return dynamicFieldId(ACCUMULATOR_ROOT, parseTypeTag(`0x2::accumulator::Key<0x2::balance::Balance<${coinType}>>`), addressBytes(address));
}

/** The accumulator object of `address`'s SUI balance. */
function suiBalanceAccumulatorId(address: string): string {
  return balanceAccumulatorId(address, '0x2::sui::SUI');
}

/** An accumulator event changing `address`'s SUI balance by `delta` (none for 0). */
export function suiBalanceEvent(address: string, delta: bigint): AccumulatorEvent | null {
  if (delta === 0n) return null;
  return {
    accumulatorId: suiBalanceAccumulatorId(address),
    action: delta > 0n ? 'Merge' : 'Split',
    targetAddress: address,
    targetType: parseSuiTypeTag(SUI_BALANCE),
    value: { $kind: 'U64', amount: delta > 0n ? delta : -delta },
  };
}

/** The smash: where gas is charged and the events of payments merged into the target. */
export function smashPlan(owner: string, coinIds: readonly string[], coinsTotal: bigint, reservation: { amount: bigint; first: boolean } | undefined, budget: bigint): GasPlan {
  const amount = reservation?.amount ?? 0n;
  const total = coinsTotal + amount;
  const toAddress = reservation !== undefined && (reservation.first || coinIds.length === 0);
  const smashEvents: AccumulatorEvent[] = [];
  const push = (e: AccumulatorEvent | null): void => {
    if (e !== null) smashEvents.push(e);
  };
  // The address balance as target keeps its reservation (charged at the end) and receives the coins.
  if (toAddress) push(suiBalanceEvent(owner, coinsTotal));
  else if (amount > 0n) push(suiBalanceEvent(owner, -amount));
  const target: GasLocation = toAddress ? { kind: 'addressBalance', address: owner } : { kind: 'coin', id: coinIds[0] };
  return { target, total, withheld: total >= budget ? budget : 0n, ephemeralId: null, smashEvents };
}

/** The value of a `Coin<SUI>` Move value (`[UID, Balance]`), and a setter. */
export function coinBalance(coin: unknown): bigint {
  return ((coin as unknown[])[1] as unknown[])[0] as bigint;
}

export function setCoinBalance(coin: unknown, value: bigint): void {
  ((coin as unknown[])[1] as unknown[])[0] = value;
}

/**
 * Gasless transactions (protocol flag `enable_gasless`): a programmable transaction paying
 * gas from the address balance at gas price 0. It may only move allowlisted tokens
 * (`Coin<T>`/`Balance<T>` with `T` allowlisted, each with a minimum transfer amount): only
 * MoveCall (to a fixed set of coin/balance functions), MergeCoins and SplitCoins; only owned
 * `Coin<T>` inputs, pure inputs of bounded size, and every object or withdrawal input used.
 * After execution it must have created or mutated nothing, destroyed exactly its input
 * coins, sent each recipient at least the minimum, and left each withdrawn balance empty
 * or above the minimum; otherwise it fails with `InsufficientGas`. It pays nothing: its
 * computation cost is the storage rebate it earns (upstream `validate_gasless_transaction`,
 * `check_gasless_object_inputs`, `check_gasless_execution_requirements`).
 */
import { type AccumulatorEvent, formatTypeTag as formatSuiTypeTag, type ProtocolConfig } from '@smi/move-vm';
import type { ObjectRef, SuiObject } from '../bcs/object.js';
import type { ProgrammableTransaction } from '../bcs/transaction.js';
import { formatTypeTag, parseTypeTag, type TypeTag } from '../bcs/type-tag.js';
import { normalizeAddress } from '../bcs/codec.js';
import { objectTypeTag } from './objects.js';

/** Allowlisted gasless token types (full-address type text) → minimum transfer amount. */
export type GaslessTokens = ReadonlyMap<string, bigint>;

const SUI = normalizeAddress('0x2');

/** `true` for a gasless transaction: gas from the address balance (no coins) at price 0, with the feature on. */
export function isGaslessTransaction(cfg: ProtocolConfig, gas: { payment: readonly ObjectRef[]; price: bigint; addressBalance?: unknown }): boolean {
  return cfg.flag('enable_gasless') && gas.payment.length === 0 && gas.addressBalance !== undefined && gas.price === 0n;
}

/** The canonical text of a type tag (full addresses). */
export function canonicalType(t: TypeTag | string): string {
  return formatTypeTag(typeof t === 'string' ? parseTypeTag(t) : t);
}

function balanceParam(t: TypeTag): TypeTag | null {
  if (t.$kind !== 'struct') return null;
  const s = t.struct;
  return normalizeAddress(s.address) === SUI && s.module === 'balance' && s.name === 'Balance' && s.typeParams.length === 1 ? s.typeParams[0] : null;
}

/** Functions a gasless MoveCall may call, with how their one type argument names the token. */
const GASLESS_FUNCTIONS: readonly [string, string, 'fund' | 'balance'][] = [
  ['balance', 'send_funds', 'fund'],
  ['balance', 'redeem_funds', 'fund'],
  ['balance', 'split', 'fund'],
  ['balance', 'zero', 'fund'],
  ['funds_accumulator', 'withdrawal_split', 'balance'],
  ['coin', 'into_balance', 'fund'],
  ['coin', 'redeem_funds', 'fund'],
  ['coin', 'send_funds', 'fund'],
  ['coin', 'put', 'fund'],
];

/** Indices of the inputs the commands use. */
function usedInputs(tx: ProgrammableTransaction): Set<number> {
  const used = new Set<number>();
  const arg = (a: { $kind: string; Input?: number }): void => {
    if (a.$kind === 'Input' && a.Input !== undefined) used.add(a.Input);
  };
  for (const c of tx.commands) {
    switch (c.$kind) {
      case 'MoveCall':
        c.MoveCall.arguments.forEach(arg);
        break;
      case 'TransferObjects':
        c.TransferObjects.objects.forEach(arg);
        arg(c.TransferObjects.address);
        break;
      case 'SplitCoins':
        arg(c.SplitCoins.coin);
        c.SplitCoins.amounts.forEach(arg);
        break;
      case 'MergeCoins':
        arg(c.MergeCoins.destination);
        c.MergeCoins.sources.forEach(arg);
        break;
      case 'MakeMoveVec':
        c.MakeMoveVec.elements.forEach(arg);
        break;
      case 'Upgrade':
        arg(c.Upgrade.ticket);
        break;
      default:
        break;
    }
  }
  return used;
}

/**
 * The transaction's own gasless rules (`validate_gasless_transaction`); returns the
 * `Unsupported` message of the first one broken, or `null`.
 */
export function gaslessValidityError(tx: ProgrammableTransaction, cfg: ProtocolConfig, tokens: GaslessTokens): string | null {
  if (tx.commands.length === 0) return 'Gasless transactions must have at least one command';
  if (tx.inputs.some((i) => i.$kind === 'Object' && i.Object.$kind === 'Receiving')) return 'Gasless transactions do not support Receiving object inputs';
  for (const c of tx.commands) {
    if (c.$kind === 'MergeCoins' || c.$kind === 'SplitCoins') continue;
    if (c.$kind !== 'MoveCall') return 'Gasless transactions only support MoveCall, MergeCoins, and SplitCoins commands';
    const call = c.MoveCall;
    const name = `${normalizeAddress(call.package)}::${call.module}::${call.function}`;
    const f = GASLESS_FUNCTIONS.find(([m, fn]) => normalizeAddress(call.package) === SUI && m === call.module && fn === call.function);
    if (f === undefined) return `Function ${name} is not supported in gasless transactions`;
    if (call.typeArguments.length !== 1) return `Function ${name} requires 1 type arguments, but ${call.typeArguments.length} were provided`;
    const t = call.typeArguments[0];
    let fund: TypeTag | null = t;
    if (f[2] === 'balance') {
      fund = balanceParam(t);
      if (fund === null) return `Expected a type Balance<_> but got ${formatTypeTag(t, { short: true })}`;
    }
    if (!tokens.has(canonicalType(fund))) return `Fund type ${formatTypeTag(fund, { short: true })} is not currently allowed in gasless transactions`;
  }
  const used = usedInputs(tx);
  const maxUnused = BigInt(cfg.optionalInt('gasless_max_unused_inputs') ?? Number.MAX_SAFE_INTEGER);
  const maxPure = BigInt(cfg.optionalInt('gasless_max_pure_input_bytes') ?? Number.MAX_SAFE_INTEGER);
  let unusedPure = 0n;
  for (let i = 0; i < tx.inputs.length; i++) {
    const input = tx.inputs[i];
    if (input.$kind === 'Pure') {
      const n = BigInt(input.Pure.bytes.length);
      if (n > maxPure) return `Input ${i} has size ${n} bytes, but gasless transactions allow at most ${maxPure} bytes per Pure input`;
      if (!used.has(i)) unusedPure++;
    } else if (!used.has(i)) {
      return input.$kind === 'Object' ? `Gasless transactions do not allow unused Object inputs (input ${i})` : `Gasless transactions do not allow unused FundsWithdrawal inputs (input ${i})`;
    }
  }
  if (unusedPure > maxUnused) return `Gasless transactions allow at most ${maxUnused} unused Pure inputs, but found ${unusedPure}`;
  return null;
}

/** The input objects of a gasless transaction must be owned `Coin<T>` of allowlisted `T` (`check_gasless_object_inputs`). */
export function gaslessObjectInputError(objects: readonly SuiObject[], tokens: GaslessTokens): string | null {
  for (const o of objects) {
    if (o.data.$kind !== 'Move') continue;
    if (o.owner.$kind !== 'AddressOwner' && o.owner.$kind !== 'ConsensusAddressOwner') return 'Gasless transactions only support owned object inputs';
    const m = /^0x0{63}2::coin::Coin<(.*)>$/.exec(objectTypeTag(o));
    if (m === null) return 'Gasless transactions can only use Coin<T> object inputs, but found a non-Coin object';
    if (!tokens.has(canonicalType(m[1]))) return 'Gasless transactions only support allowlisted types for Coin inputs';
  }
  return null;
}

/** Net balance change per (address, token type) of accumulator events. */
function netChanges(events: readonly AccumulatorEvent[]): Map<string, { address: string; token: string; net: bigint }> {
  const out = new Map<string, { address: string; token: string; net: bigint }>();
  for (const e of events) {
    if (e.value.$kind !== 'U64') continue;
    const param = balanceParam(parseTypeTag(formatSuiTypeTag(e.targetType)));
    if (param === null) continue;
    const token = canonicalType(param);
    const key = `${e.targetAddress}|${token}`;
    const cur = out.get(key) ?? { address: e.targetAddress, token, net: 0n };
    cur.net += e.action === 'Merge' ? e.value.amount : -e.value.amount;
    out.set(key, cur);
  }
  return out;
}

/** What a gasless transaction did, for {@link gaslessExecutionError}. */
export interface GaslessOutcome {
  writtenCount: number;
  deleted: ReadonlySet<string>;
  /** Input objects that are coins. */
  inputCoins: ReadonlySet<string>;
  events: readonly AccumulatorEvent[];
  /** Withdrawal reservations: owner → token → amount. */
  reservations: readonly { owner: string; token: string; amount: bigint }[];
}

/** Post-execution rules (`check_gasless_execution_requirements`); the message of the first broken, or `null`. */
export function gaslessExecutionError(o: GaslessOutcome, tokens: GaslessTokens): string | null {
  if (o.writtenCount > 0) return 'Gasless transactions cannot create or mutate objects';
  if (o.deleted.size !== o.inputCoins.size || [...o.inputCoins].some((id) => !o.deleted.has(id))) return 'Gasless transaction must destroy exactly its input Coins';
  const net = netChanges(o.events);
  for (const { address, token, net: amount } of net.values()) {
    const min = tokens.get(token);
    if (amount > 0n && min !== undefined && amount < min) return `Gasless transfer of ${amount} to ${address} is below minimum ${min} for token type ${token}`;
  }
  for (const r of o.reservations) {
    const remaining = r.amount + (net.get(`${r.owner}|${r.token}`)?.net ?? 0n);
    const min = tokens.get(r.token) ?? 0n;
    if (remaining > 0n && min > 0n && remaining < min) return `Gasless withdrawal leaves ${remaining} unused for ${r.owner}, below minimum ${min} for token type ${r.token}`;
  }
  return null;
}

/**
 * The checks a validator makes before it executes a user transaction (upstream
 * `TransactionData::validity_check` and `sui-transaction-checks`): the commands are well
 * formed (no empty argument lists, Random used last), every package a Move call names
 * exists, input objects exist and are used as their ownership allows (owned by the sender,
 * not owned by an object, shared objects as shared, system objects as allowed), and the
 * gas coins can pay the budget. A transaction that fails them is rejected: it has no
 * effects at all. Messages are upstream's (`UserInputError`'s Display).
 */
import type { ProtocolConfig } from '@smi/move-vm';
import type { ObjectRef, SuiObject } from '../bcs/object.js';
import type { FundsWithdrawalArg, ObjectArg, ProgrammableTransaction } from '../bcs/transaction.js';
import { addressDenied, addressDeniedV1, coinDenyConfig, coinTypeOf, denyListCoinType, globallyPaused, isSuiType } from './deny-list.js';
import { formatTypeTag, typeTagAddresses } from '../bcs/type-tag.js';
import { normalizeAddress } from '../bcs/codec.js';
import { balanceAccumulatorId } from './gas-payment.js';
import { canonicalType, gaslessObjectInputError, gaslessValidityError, type GaslessTokens, isGaslessTransaction } from './gasless.js';
import { objectTypeTag } from './objects.js';
import { emptyCommandReason } from './validity.js';
import type { ObjectStore } from './types.js';
import { SmiError, canonicalAddress, addressOfNumber } from '@smi/bytecode';

/** Stable codes of {@link TransactionInputError} (upstream `UserInputError` variants). */
export type TransactionInputErrorCode =
  | 'EmptyCommandInput'
  | 'PostRandomCommandRestrictions'
  | 'DuplicateObjectRefInput'
  | 'DependentPackageNotFound'
  | 'ObjectNotFound'
  | 'ObjectVersionUnavailableForConsumption'
  | 'MovePackageAsObject'
  | 'IncorrectUserSignature'
  | 'InvalidChildObjectArgument'
  | 'NotOwnedObjectError'
  | 'NotSharedObjectError'
  | 'ImmutableParameterExpectedError'
  | 'MutableParameterExpected'
  | 'SharedObjectStartingVersionMismatch'
  | 'MutableObjectUsedMoreThanOnce'
  | 'GasBalanceTooLow'
  | 'GasObjectNotOwnedObject'
  | 'CoinTypeGlobalPause'
  | 'AddressDeniedForCoin'
  | 'InvalidWithdrawReservation'
  | 'Unsupported';

/** A transaction rejected before execution. */
export class TransactionInputError extends SmiError<TransactionInputErrorCode> {
  override readonly name = 'TransactionInputError';

  constructor(code: TransactionInputErrorCode, message: string) {
    super(code, message);
  }
}

/** What the checks need besides the transaction. */
export interface InputCheckRequest {
  transaction: ProgrammableTransaction;
  sender: string;
  /** Who pays gas (the sponsor, or the sender). */
  gasOwner: string;
  payment: ObjectRef[];
  budget: bigint;
  /**
   * SUI reserved from the gas owner's address balance for gas (see `GasInput.addressBalance`);
   * `reservations`: how many coin reservations (`withdraw` gas payments) make it up, absent
   * when the gas is simply paid from the address balance.
   */
  addressBalance?: { amount: bigint; first: boolean; reservations?: number };
  /** Gas price (a gasless transaction pays from the address balance at price 0). */
  price?: bigint;
  /** Tokens gasless transactions may move (see `gasless.ts`). */
  gaslessTokens?: GaslessTokens;
  protocolConfig: ProtocolConfig;
  /**
   * `true` when the object was already received at that version (upstream's received
   * markers): such a `Receiving` input is not checked, the transaction runs and receiving fails.
   */
  previouslyReceived?: (id: string, version: bigint) => boolean;
  /**
   * Dev inspect: only the transaction's own validity and that shared inputs name shared
   * objects (upstream `check_dev_inspect_input`); owners, versions and gas are not checked.
   */
  devInspect?: boolean;
}

const MAX_WITHDRAW_RESERVATIONS = 10;
const RANDOM = addressOfNumber(0x8);
const CLOCK = addressOfNumber(0x6);
const ACCUMULATOR_ROOT = canonicalAddress('0xacc');
/** System objects any transaction may take mutably. */
const MUTABLE_SYSTEM = new Set(['5', 'a', 'c', 'd', '403', '9'].map((s) => canonicalAddress(s)));
/** System objects only taken immutably. */
const IMMUTABLE_SYSTEM = new Set([CLOCK, RANDOM, ACCUMULATOR_ROOT]);

/** Every system object (the authenticator state 0x7 may not be used by user transactions at all). */
const SYSTEM_OBJECTS = new Set([...MUTABLE_SYSTEM, ...IMMUTABLE_SYSTEM, canonicalAddress('0x7')]);

function isSystemObject(id: string): boolean {
  return SYSTEM_OBJECTS.has(id);
}

function versionOf(o: SuiObject): bigint {
  return o.data.$kind === 'Move' ? o.data.Move.version : o.data.Package.version;
}

function fail(code: TransactionInputErrorCode, message: string): TransactionInputError {
  return new TransactionInputError(code, message);
}

function usesInput(c: ProgrammableTransaction['commands'][number], idx: number): boolean {
  const args = (() => {
    switch (c.$kind) {
      case 'MoveCall':
        return c.MoveCall.arguments;
      case 'TransferObjects':
        return [...c.TransferObjects.objects, c.TransferObjects.address];
      case 'SplitCoins':
        return [c.SplitCoins.coin, ...c.SplitCoins.amounts];
      case 'MergeCoins':
        return [c.MergeCoins.destination, ...c.MergeCoins.sources];
      case 'MakeMoveVec':
        return c.MakeMoveVec.elements;
      case 'Upgrade':
        return [c.Upgrade.ticket];
      default:
        return [];
    }
  })();
  return args.some((a) => a.$kind === 'Input' && a.Input === idx);
}

/**
 * Command shapes (upstream `validity_check`): no empty command (`validity.ts`), and only
 * TransferObjects/MergeCoins after a command that uses Random.
 */
function checkCommands(tx: ProgrammableTransaction): void {
  if (tx.commands.some((c) => emptyCommandReason(c) !== null)) throw emptyInput();
  const random = tx.inputs.findIndex((i) => i.$kind === 'Object' && i.Object.$kind === 'SharedObject' && i.Object.SharedObject.objectId === RANDOM);
  if (random >= 0) {
    let used = false;
    for (const c of tx.commands) {
      if (!used) used = usesInput(c, random);
      else if (c.$kind !== 'TransferObjects' && c.$kind !== 'MergeCoins') {
        throw fail('PostRandomCommandRestrictions', 'Commands following a command with Random can only be TransferObjects or MergeCoins');
      }
    }
  }
}

function emptyInput(): TransactionInputError {
  return fail('EmptyCommandInput', 'TransferObjects, MergeCoin, and Publish cannot have empty arguments. If MakeMoveVec has empty arguments, it must have a type specified');
}

function objectIdOfArg(o: ObjectArg): string {
  switch (o.$kind) {
    case 'ImmOrOwnedObject':
      return o.ImmOrOwnedObject.objectId;
    case 'SharedObject':
      return o.SharedObject.objectId;
    case 'Receiving':
      return o.Receiving.objectId;
  }
}

function checkOwned(id: string, object: SuiObject, owner: string): void {
  if (object.data.$kind === 'Package') throw fail('MovePackageAsObject', `A move object is expected, instead a move package is passed: ${id}`);
  switch (object.owner.$kind) {
    case 'Immutable':
      return;
    case 'AddressOwner':
      if (object.owner.AddressOwner !== owner) {
        throw fail(
          'IncorrectUserSignature',
          `Transaction was not signed by the correct sender: Object ${id} is owned by account address ${object.owner.AddressOwner}, but given owner/signer address is ${owner}`,
        );
      }
      return;
    case 'ObjectOwner':
      throw fail('InvalidChildObjectArgument', `Object ${id} is owned by object ${object.owner.ObjectOwner}. Objects owned by other objects cannot be used as input arguments`);
    default:
      throw fail('NotOwnedObjectError', 'Object used as owned is not owned');
  }
}

function checkShared(id: string, object: SuiObject, arg: Extract<ObjectArg, { $kind: 'SharedObject' }>['SharedObject'], sender: string, nonExclusiveAllowed: boolean): void {
  const mutability = arg.mutability.$kind;
  if (mutability === 'NonExclusiveWrite' && !nonExclusiveAllowed) throw fail('Unsupported', 'Feature is not supported: User transactions cannot use SharedObjectMutability::NonExclusiveWrite');
  if (isSystemObject(id) && !MUTABLE_SYSTEM.has(id) && !(IMMUTABLE_SYSTEM.has(id) && mutability === 'Immutable')) {
    throw fail('ImmutableParameterExpectedError', 'Mutable parameter provided, immutable parameter expected');
  }
  switch (object.owner.$kind) {
    case 'Shared':
      if (object.owner.Shared.initialSharedVersion !== arg.initialSharedVersion) throw fail('SharedObjectStartingVersionMismatch', 'Wrong initial version given for shared object');
      return;
    case 'ConsensusAddressOwner':
      if (object.owner.ConsensusAddressOwner.startVersion !== arg.initialSharedVersion) throw fail('SharedObjectStartingVersionMismatch', 'Wrong initial version given for shared object');
      if (object.owner.ConsensusAddressOwner.owner !== sender) {
        throw fail(
          'IncorrectUserSignature',
          `Transaction was not signed by the correct sender: Object ${id} is owned by account address ${object.owner.ConsensusAddressOwner.owner}, but given owner/signer address is ${sender}`,
        );
      }
      return;
    default:
      throw fail('NotSharedObjectError', 'Object used as shared is not shared');
  }
}

/**
 * Check a user transaction before execution. Returns the rejection, or `null` when the
 * transaction may execute. `store` is read as of before the transaction.
 */
export function checkTransactionInput(store: ObjectStore, req: InputCheckRequest): TransactionInputError | null {
  try {
    const gasless = req.price !== undefined && isGaslessTransaction(req.protocolConfig, { payment: req.payment, price: req.price, addressBalance: req.addressBalance });
    const tokens: GaslessTokens = req.gaslessTokens ?? new Map();
    if (gasless && req.budget !== 0n) throw fail('Unsupported', 'Feature is not supported: gas_budget must be 0 for gasless transactions');
    checkCommands(req.transaction);
    // Duplicate object inputs (receiving inputs are checked after the others, upstream `check_receiving_objects`).
    const seen = new Set<string>();
    for (const i of req.transaction.inputs) {
      if (i.$kind !== 'Object' || i.Object.$kind === 'Receiving') continue;
      const id = objectIdOfArg(i.Object);
      if (seen.has(id)) throw fail('DuplicateObjectRefInput', "The transaction inputs contain duplicated ObjectRef's");
      seen.add(id);
    }
    if (req.devInspect === true) {
      for (const i of req.transaction.inputs) {
        if (i.$kind !== 'Object' || i.Object.$kind !== 'SharedObject') continue;
        const arg = i.Object.SharedObject;
        if (arg.mutability.$kind === 'NonExclusiveWrite' && !req.protocolConfig.flag('enable_non_exclusive_writes'))
          throw fail('Unsupported', 'Feature is not supported: User transactions cannot use SharedObjectMutability::NonExclusiveWrite');
        const o = store.getObject(arg.objectId);
        if (o === undefined || (o.owner.$kind !== 'Shared' && o.owner.$kind !== 'ConsensusAddressOwner' && o.owner.$kind !== 'Party')) {
          throw fail('ObjectNotFound', `Could not find the referenced object ${arg.objectId} at version None`);
        }
      }
      return null;
    }
    // Balance withdraw reservations: at most 10, withdrawal inputs and the address-balance gas payment included.
    const ab = req.addressBalance;
    const withdrawals = req.transaction.inputs.flatMap((i) => (i.$kind === 'FundsWithdrawal' ? [i.FundsWithdrawal] : []));
    for (const w of withdrawals) {
      if (w.withdrawFrom.$kind === 'Sponsor') throw fail('InvalidWithdrawReservation', 'Invalid withdraw reservation: Explicit sponsor withdrawals are not yet supported');
      if (w.reservation.MaxAmountU64 === 0n) throw fail('InvalidWithdrawReservation', 'Invalid withdraw reservation: Balance withdraw reservation amount must be non-zero');
    }
    if (withdrawals.length + (ab === undefined ? 0 : (ab.reservations ?? 1)) > MAX_WITHDRAW_RESERVATIONS) {
      throw fail('InvalidWithdrawReservation', `Invalid withdraw reservation: Maximum number of balance withdraw reservations is ${MAX_WITHDRAW_RESERVATIONS}`);
    }
    if (gasless) {
      const why = gaslessValidityError(req.transaction, req.protocolConfig, tokens);
      if (why !== null) throw fail('Unsupported', `Feature is not supported: ${why}`);
    }
    // Address-balance reservations (gas, withdrawal inputs) must be covered by the settled balances.
    const reserved = req.addressBalance?.amount ?? 0n;
    checkReservations(store, req, withdrawals, reserved, gasless ? tokens : null);
    // Packages the commands name: called packages and the packages of type arguments.
    const needPackage = (id: string): void => {
      const p = store.getObject(id);
      if (p === undefined || p.data.$kind !== 'Package') throw fail('DependentPackageNotFound', `Dependent package not found on-chain: ${normalizeAddress(id)}`);
    };
    for (const c of req.transaction.commands) {
      if (c.$kind === 'MoveCall') {
        needPackage(c.MoveCall.package);
        for (const t of c.MoveCall.typeArguments) for (const a of typeTagAddresses(t)) needPackage(a);
      } else if (c.$kind === 'MakeMoveVec' && c.MakeMoveVec.type !== null) {
        for (const a of typeTagAddresses(c.MakeMoveVec.type)) needPackage(a);
      }
    }
    // Gas. A coin reservation is a gas object of the sender: a sponsor cannot pay with one.
    if (ab?.reservations !== undefined && req.gasOwner !== req.sender) {
      throw fail('GasObjectNotOwnedObject', `Gas object is not an owned object with owner: AddressOwner(${req.sender})`);
    }
    let balance = 0n;
    for (const ref of req.payment) {
      const o = store.getObject(ref.objectId);
      if (o === undefined) throw fail('ObjectNotFound', `Could not find the referenced object ${ref.objectId} at version Some(SequenceNumber(${ref.version}))`);
      if (o.owner.$kind !== 'AddressOwner' || o.owner.AddressOwner !== req.gasOwner) {
        const owner = o.owner.$kind === 'AddressOwner' ? `AddressOwner(${o.owner.AddressOwner})` : o.owner.$kind;
        throw fail('GasObjectNotOwnedObject', `Gas object is not an owned object with owner: ${owner}`);
      }
      if (o.data.$kind === 'Move') balance += readCoinBalance(o.data.Move.contents);
    }
    balance += reserved;
    if ((req.payment.length > 0 || req.addressBalance !== undefined) && balance < req.budget) {
      throw fail('GasBalanceTooLow', `Balance of gas object ${balance} is lower than the needed amount: ${req.budget}`);
    }
    // Objects, receiving ones after the others.
    const gasIds = new Set(req.payment.map((p) => p.objectId));
    const objectInputs = req.transaction.inputs.filter((i) => i.$kind === 'Object');
    const ordered = [...objectInputs.filter((i) => i.Object.$kind !== 'Receiving'), ...objectInputs.filter((i) => i.Object.$kind === 'Receiving')];
    for (const i of ordered) {
      if (i.$kind !== 'Object') continue;
      const arg = i.Object;
      const id = objectIdOfArg(arg);
      const object = store.getObject(id);
      switch (arg.$kind) {
        case 'ImmOrOwnedObject': {
          if (object === undefined) throw fail('ObjectNotFound', `Could not find the referenced object ${id} at version Some(SequenceNumber(${arg.ImmOrOwnedObject.version}))`);
          if (versionOf(object) !== arg.ImmOrOwnedObject.version) {
            throw fail(
              'ObjectVersionUnavailableForConsumption',
              `Transaction needs to be rebuilt because object ${id} version ${arg.ImmOrOwnedObject.version} (${arg.ImmOrOwnedObject.digest}) is unavailable for consumption, current version: ${versionOf(object)}`,
            );
          }
          checkOwned(id, object, gasIds.has(id) ? req.gasOwner : req.sender);
          break;
        }
        case 'SharedObject':
          if (object === undefined) throw fail('ObjectNotFound', `Could not find the referenced object ${id} at version None`);
          checkShared(id, object, arg.SharedObject, req.sender, req.protocolConfig.flag('enable_non_exclusive_writes'));
          break;
        case 'Receiving':
          if (object === undefined || req.previouslyReceived?.(id, arg.Receiving.version) === true) continue;
          if (versionOf(object) !== arg.Receiving.version) {
            throw fail(
              'ObjectVersionUnavailableForConsumption',
              `Transaction needs to be rebuilt because object ${id} version ${arg.Receiving.version} (${arg.Receiving.digest}) is unavailable for consumption, current version: ${versionOf(object)}`,
            );
          }
          if (object.data.$kind === 'Package') throw fail('MovePackageAsObject', `A move object is expected, instead a move package is passed: ${id}`);
          switch (object.owner.$kind) {
            case 'AddressOwner':
              break;
            case 'ObjectOwner':
              throw fail('InvalidChildObjectArgument', `Object ${id} is owned by object ${object.owner.ObjectOwner}. Objects owned by other objects cannot be used as input arguments`);
            case 'Immutable':
              throw fail('MutableParameterExpected', 'Immutable parameter provided, mutable parameter expected');
            default:
              throw fail('NotSharedObjectError', 'Object used as shared is not shared');
          }
          if (seen.has(id)) throw fail('DuplicateObjectRefInput', "The transaction inputs contain duplicated ObjectRef's");
          seen.add(id);
          break;
      }
    }
    if (gasless) {
      const objects = req.transaction.inputs
        .flatMap((x) => (x.$kind === 'Object' && x.Object.$kind !== 'Receiving' ? [store.getObject(objectIdOfArg(x.Object))] : []))
        .filter((o): o is SuiObject => o !== undefined);
      const why = gaslessObjectInputError(objects, tokens);
      if (why !== null) throw fail('Unsupported', `Feature is not supported: ${why}`);
    }
    if (req.protocolConfig.flag('enable_coin_deny_list') || req.protocolConfig.flag('enable_coin_deny_list_v2')) checkDenyList(store, req);
    return null;
  } catch (e) {
    if (e instanceof TransactionInputError) return e;
    throw e;
  }
}

/**
 * Withdrawal reservations (address-balance gas, withdrawal inputs) must be covered by the
 * settled balances; a gasless transaction must also leave each balance empty or at least
 * the token's minimum (upstream `check_amounts_available`, `check_remaining_amounts_after_withdrawal`).
 */
function checkReservations(store: ObjectStore, req: InputCheckRequest, withdrawals: readonly FundsWithdrawalArg[], reserved: bigint, gaslessTokens: GaslessTokens | null): void {
  const requested = new Map<string, { owner: string; coinType: string; amount: bigint }>();
  const request = (owner: string, coinType: string, amount: bigint): void => {
    const id = balanceAccumulatorId(owner, coinType);
    const r = requested.get(id);
    if (r === undefined) requested.set(id, { owner, coinType, amount });
    else r.amount += amount;
  };
  if (reserved > 0n) request(req.gasOwner, '0x2::sui::SUI', reserved);
  for (const w of withdrawals) request(req.sender, formatTypeTag(w.typeArg.Balance, { short: true }), w.reservation.MaxAmountU64);
  for (const [id, r] of [...requested].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const available = settledBalance(store, id);
    if (available < r.amount) {
      throw fail(
        'InvalidWithdrawReservation',
        `Invalid withdraw reservation: Insufficient address balance of coin type ${r.coinType} for address ${r.owner}: the transaction requires ${r.amount} but only ${available} is available. Note that the address balance does not include funds held in Coin objects owned by the address; to spend those funds, use the Coin objects directly as transaction inputs.`,
      );
    }
  }
  if (gaslessTokens === null) return;
  for (const [id, r] of [...requested].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const remaining = settledBalance(store, id) - r.amount;
    const min = gaslessTokens.get(canonicalType(r.coinType)) ?? 0n;
    if (remaining > 0n && min > 0n && remaining < min) {
      throw fail(
        'InvalidWithdrawReservation',
        `Invalid withdraw reservation: Invalid gasless withdrawal of coin type ${r.coinType} from address ${r.owner}. Gasless transactions must either use the entire address balance, or leave at least ${min}. Remaining amount would be ${remaining}`,
      );
    }
  }
}

/** Coin deny lists at signing: the sender may not use coins of a type it is denied or that is paused. */
function checkDenyList(store: ObjectStore, req: InputCheckRequest): void {
  const types = new Set<string>();
  for (const i of req.transaction.inputs) {
    // Withdrawing a regulated coin's address balance uses the coin too.
    if (i.$kind === 'FundsWithdrawal') {
      const coin = formatTypeTag(i.FundsWithdrawal.typeArg.Balance);
      if (!isSuiType(coin)) types.add(denyListCoinType(coin));
      continue;
    }
    if (i.$kind !== 'Object') continue;
    const o = store.getObject(objectIdOfArg(i.Object));
    if (o === undefined || o.data.$kind !== 'Move') continue;
    const coin = coinTypeOf(objectTypeTag(o));
    if (coin !== null && !isSuiType(coin)) types.add(denyListCoinType(coin));
  }
  const cfg = req.protocolConfig;
  // Deny list v1 first, then v2 (each when its protocol feature is on).
  if (cfg.flag('enable_coin_deny_list')) {
    for (const t of [...types].sort()) if (addressDeniedV1(store, t, req.sender)) throw fail('AddressDeniedForCoin', `Address ${req.sender} is denied for coin ${t}`);
  }
  if (!cfg.flag('enable_coin_deny_list_v2')) return;
  for (const t of [...types].sort()) {
    const config = coinDenyConfig(store, t);
    if (config === null) continue;
    if (globallyPaused(store, config, null)) throw fail('CoinTypeGlobalPause', `Coin type is globally paused for use: ${t}`);
    if (addressDenied(store, config, req.sender, null)) throw fail('AddressDeniedForCoin', `Address ${req.sender} is denied for coin ${t}`);
  }
}

/** The settled balance an accumulator object holds (the field's `u128`, after its id and key). */
function settledBalance(store: ObjectStore, accumulatorId: string): bigint {
  const o = store.getObject(accumulatorId);
  if (o === undefined || o.data.$kind !== 'Move' || o.data.Move.contents.length < 80) return 0n;
  const c = o.data.Move.contents;
  let v = 0n;
  for (let i = 79; i >= 64; i--) v = (v << 8n) | BigInt(c[i]);
  return v;
}

/** The balance of a `Coin<T>` from its BCS (`UID` then `u64`). */
function readCoinBalance(contents: Uint8Array): bigint {
  if (contents.length < 40) return 0n;
  return new DataView(contents.buffer, contents.byteOffset + 32, 8).getBigUint64(0, true);
}

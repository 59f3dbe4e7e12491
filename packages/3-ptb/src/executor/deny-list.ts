/**
 * Coin deny list v2 (upstream `deny_list_v2.rs`): a regulated coin type has a per-type
 * `Config` under the `DenyList` 0x403 (a dynamic object field keyed by
 * `ConfigKey { per_type_index: 0, per_type_key: <type> }`), whose settings are dynamic
 * fields keyed by `AddressKey(address)` (denied addresses) and `GlobalPauseKey(false)`.
 * Each setting holds a value for the current epoch and one from the next epoch on.
 *
 * Read before execution (the sender may not use a coin of a type it is denied, nor any
 * coin of a paused type) and after it (no new owner of such a coin may be denied; any coin
 * of a type other than SUI written to an address makes the transaction read the deny list).
 */
import { pushUleb128, canonicalAddress, SUI_ADDRESS } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { dynamicFieldId } from '../bcs/digests.js';
import type { SuiObject } from '../bcs/object.js';
import { parseTypeTag } from '../bcs/type-tag.js';
import type { ObjectStore } from './types.js';

/** `0x…403`. */
export const DENY_LIST_ID = canonicalAddress('0x403');
const SUI = canonicalAddress('0x2');
const CONFIG_KEY = parseTypeTag(`${SUI}::dynamic_object_field::Wrapper<${SUI}::deny_list::ConfigKey>`);
const ADDRESS_KEY = parseTypeTag(`${SUI}::deny_list::AddressKey`);
const GLOBAL_PAUSE_KEY = parseTypeTag(`${SUI}::deny_list::GlobalPauseKey`);

function contents(o: SuiObject | undefined): Uint8Array | null {
  return o !== undefined && o.data.$kind === 'Move' ? o.data.Move.contents : null;
}

/** The coin type as the deny list keys it: `to_canonical_string(false)` (no `0x`). */
export function denyListCoinType(coinTypeTag: string): string {
  return coinTypeTag.replace(/0x([0-9a-f]{64})/g, '$1');
}

/** The per-type config object id of a coin type, or `null` when the type is not regulated. */
export function coinDenyConfig(store: ObjectStore, coinType: string): string | null {
  const key = new TextEncoder().encode(coinType);
  const keyBcs = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, ...pushUleb128([], key.length), ...key]);
  const field = contents(store.getObject(dynamicFieldId(DENY_LIST_ID, CONFIG_KEY, keyBcs)));
  // Field<Wrapper<ConfigKey>, ID> { id, name, value }: the value is the last 32 bytes.
  if (field === null || field.length < 64) return null;
  return '0x' + Buffer.from(field.subarray(field.length - 32)).toString('hex');
}

/** A boolean setting of a config (`Setting<bool>`), read at `epoch` (`null`: the newest value). */
function setting(store: ObjectStore, configId: string, keyType: ReturnType<typeof parseTypeTag>, keyBcs: Uint8Array, epoch: bigint | null): boolean {
  const field = contents(store.getObject(dynamicFieldId(configId, keyType, keyBcs)));
  if (field === null) return false;
  // Field { id: UID, name: K, value: Setting { data: Option<SettingData> } }
  let at = 32 + keyBcs.length;
  if (field[at] !== 1) return false;
  at += 1;
  const newerEpoch = new DataView(field.buffer, field.byteOffset + at, 8).getBigUint64(0, true);
  at += 8;
  const readOpt = (): boolean | null => {
    const some = field[at] === 1;
    at += 1;
    if (!some) return null;
    const v = field[at] === 1;
    at += 1;
    return v;
  };
  const newer = readOpt();
  const older = readOpt();
  const useNewer = epoch === null || epoch > newerEpoch;
  return (useNewer ? newer : older) === true;
}

/**
 * Deny list v1 (`deny_list_add`): `DenyList.lists` is a `Bag` whose entry 0 (coins) is a
 * `PerTypeList { id, denied_count: Table, denied_addresses: Table<vector<u8>, VecSet<address>> }`
 * keyed by the coin type's text. Whether `address` is in the set of `coinType`.
 */
export function addressDeniedV1(store: ObjectStore, coinType: string, address: string): boolean {
  const root = contents(store.getObject(DENY_LIST_ID));
  if (root === null || root.length < 72) return false;
  const bag = '0x' + Buffer.from(root.subarray(32, 64)).toString('hex');
  const perType = contents(store.getObject(dynamicFieldId(bag, parseTypeTag('u64'), new Uint8Array(8))));
  // Field<u64, PerTypeList>: id, name (u64), then PerTypeList { id, denied_count { id, size }, denied_addresses { id, size } }.
  if (perType === null || perType.length < 152) return false;
  const table = '0x' + Buffer.from(perType.subarray(112, 144)).toString('hex');
  const key = new TextEncoder().encode(coinType);
  const keyBcs = Uint8Array.from([...pushUleb128([], key.length), ...key]);
  const entry = contents(store.getObject(dynamicFieldId(table, parseTypeTag('vector<u8>'), keyBcs)));
  if (entry === null) return false;
  // Field<vector<u8>, VecSet<address>>: id, name, then the addresses (ULEB count, 32 bytes each).
  let at = 32 + keyBcs.length;
  let count = 0;
  let shift = 0;
  while (at < entry.length) {
    const b = entry[at++];
    count |= (b & 0x7f) << shift;
    shift += 7;
    if ((b & 0x80) === 0) break;
  }
  const want = address.slice(2);
  for (let i = 0; i < count && at + 32 <= entry.length; i++, at += 32) {
    if (Buffer.from(entry.subarray(at, at + 32)).toString('hex') === want) return true;
  }
  return false;
}

/** Whether `address` is denied for coins of the config's type. */
export function addressDenied(store: ObjectStore, configId: string, address: string, epoch: bigint | null): boolean {
  return setting(store, configId, ADDRESS_KEY, Uint8Array.from(Buffer.from(address.slice(2), 'hex')), epoch);
}

/** Whether the config's coin type is paused for everyone. */
export function globallyPaused(store: ObjectStore, configId: string, epoch: bigint | null): boolean {
  return setting(store, configId, GLOBAL_PAUSE_KEY, Uint8Array.of(0), epoch);
}

/** `T` of a `0x2::coin::Coin<T>` type tag text, or `null`. */
export function coinTypeOf(typeTag: string): string | null {
  // A prefix check first: most written objects are not coins, and a regex per object showed in profiles.
  if (!typeTag.startsWith(COIN_PREFIX) || !typeTag.endsWith('>')) return null;
  return typeTag.slice(COIN_PREFIX.length, -1);
}

const COIN_PREFIX = `${SUI_ADDRESS}::coin::Coin<`;

/** `true` for the SUI coin type. */
export function isSuiType(t: string): boolean {
  return t === `${SUI}::sui::SUI`;
}

/** What the deny list says of a transaction's new coin owners. */
export interface DenyListOutcome {
  /** Some coin other than SUI went to an address: the transaction read the deny list. */
  read: boolean;
  /** Distinct (coin type, owner) pairs over coin types other than SUI: what the check charges for. */
  nonGasCoinOwners: number;
  /** The first denial (`CoinTypeGlobalPause` or `AddressDeniedForCoin`), or `null`. */
  failure: { kind: 'CoinTypeGlobalPause'; coinType: string } | { kind: 'AddressDeniedForCoin'; coinType: string; address: string } | null;
}

/** Deny list v2 after execution: no new owner of a regulated coin may be denied at `epoch`. */
export function checkNewCoinOwners(store: ObjectStore, written: readonly { typeTag: string; owner: string | null }[], epoch: bigint): DenyListOutcome {
  const owners = new Map<string, Set<string>>();
  for (const w of written) {
    const coin = coinTypeOf(w.typeTag);
    if (coin === null || isSuiType(coin) || w.owner === null) continue;
    const t = denyListCoinType(coin);
    let set = owners.get(t);
    if (set === undefined) {
      set = new Set();
      owners.set(t, set);
    }
    set.add(w.owner);
  }
  let nonGasCoinOwners = 0;
  for (const set of owners.values()) nonGasCoinOwners += set.size;
  for (const [t, set] of [...owners].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const config = coinDenyConfig(store, t);
    if (config === null) continue;
    if (globallyPaused(store, config, epoch)) return { read: true, nonGasCoinOwners, failure: { kind: 'CoinTypeGlobalPause', coinType: t } };
    for (const address of [...set].sort()) {
      if (addressDenied(store, config, address, epoch)) return { read: true, nonGasCoinOwners, failure: { kind: 'AddressDeniedForCoin', coinType: t, address } };
    }
  }
  return { read: owners.size > 0, nonGasCoinOwners, failure: null };
}

/** Upstream `CONFIG_SETTING_DYNAMIC_FIELD_SIZE_FOR_GAS`: the bytes a deny-list check is deemed to read per owner. */
const CONFIG_SETTING_DYNAMIC_FIELD_SIZE_FOR_GAS = 1000;

/**
 * Upstream `charge_coin_transfers`: each new owner of a coin other than SUI costs the read
 * of `CONFIG_SETTING_DYNAMIC_FIELD_SIZE_FOR_GAS` bytes at `dynamic_field_borrow_child_object_type_cost_per_byte`
 * each, charged as an object read (`obj_access_cost_read_per_byte` per unit), internal gas.
 */
export function coinTransfersCharge(cfg: ProtocolConfig, nonGasCoinOwners: number): number {
  const perOwner = CONFIG_SETTING_DYNAMIC_FIELD_SIZE_FOR_GAS * (cfg.optionalInt('dynamic_field_borrow_child_object_type_cost_per_byte') ?? 0);
  return perOwner * nonGasCoinOwners * (cfg.optionalInt('obj_access_cost_read_per_byte') ?? 0);
}

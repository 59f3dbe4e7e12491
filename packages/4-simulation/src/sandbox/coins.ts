/**
 * Coin metadata. The registry is the store itself: `register_coin` creates (or updates) a
 * frozen `0x2::coin::CoinMetadata<T>` object, exactly what `coin::create_currency` makes,
 * so registrations persist with the state and Move code can read them; `get_coin_metadata`
 * and `list_coins` read every `CoinMetadata<T>` and `coin_registry::Currency<T>` object
 * (those published packages created included). SUI is always known (9 decimals).
 */
import { SUI_ADDRESS } from '@smi/bytecode';
import { formatType, type Json, TypeKind } from '@smi/move-vm';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import type { ObjectView } from '../object-view.js';
import type { RequestOf } from './request.js';
import { resolveTypeString } from './values.js';

const SUI_TYPE = `${SUI_ADDRESS}::sui::SUI`;
const METADATA_PREFIX = `${SUI_ADDRESS}::coin::CoinMetadata<`;
const CURRENCY_PREFIX = `${SUI_ADDRESS}::coin_registry::Currency<`;

interface CoinInfo {
  coin_type: string;
  decimals: number;
  symbol: string;
  name: string;
  description: string;
  icon_url: string | null;
  /** The metadata object, when one exists. */
  object_id: string | null;
}

/** The coin type a metadata object describes, or `null` when it is not one. */
function coinTypeOf(v: ObjectView): string | null {
  const t = v.type;
  if (t === null) return null;
  for (const prefix of [METADATA_PREFIX, CURRENCY_PREFIX]) if (t.startsWith(prefix) && t.endsWith('>')) return t.slice(prefix.length, -1);
  return null;
}

function infoOf(v: ObjectView, coinType: string): CoinInfo | null {
  const value = v.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Record<string, Json>;
  const icon = r.icon_url;
  const iconText = typeof icon === 'string' ? icon : icon !== null && typeof icon === 'object' && !Array.isArray(icon) && typeof icon.url === 'string' ? icon.url : null;
  return {
    coin_type: coinType,
    decimals: typeof r.decimals === 'number' ? r.decimals : Number(r.decimals),
    symbol: String(r.symbol ?? ''),
    name: String(r.name ?? ''),
    description: String(r.description ?? ''),
    icon_url: iconText === '' ? null : iconText,
    object_id: v.id,
  };
}

/** Every coin with metadata in the store (the newest object per type wins), SUI first. */
function registry(env: SimulationEnvironment): Map<string, CoinInfo> {
  const out = new Map<string, CoinInfo>();
  out.set(SUI_TYPE, { coin_type: SUI_TYPE, decimals: 9, symbol: 'SUI', name: 'Sui', description: '', icon_url: null, object_id: null });
  for (const v of env.listObjects({ movesOnly: true })) {
    const coinType = coinTypeOf(v);
    if (coinType === null) continue;
    const info = infoOf(v, coinType);
    if (info !== null) out.set(coinType, info);
  }
  return out;
}

function canonicalCoinType(env: SimulationEnvironment, text: string): string {
  const t = resolveTypeString(env, text);
  if (t.kind !== TypeKind.Datatype) throw new SimulationEnvironmentError('TYPE_MISMATCH', `coin type ${text} is not a struct`);
  return formatType(t);
}

export function registerCoin(env: SimulationEnvironment, req: RequestOf<'register_coin'>): Json {
  const coinType = canonicalCoinType(env, req.coin_type);
  if (!/^[\x20-\x7e]*$/.test(req.symbol)) throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', 'symbol must be printable ASCII (it is a 0x1::ascii::String)');
  const fields: Record<string, Json> = {
    decimals: req.decimals,
    name: req.name,
    symbol: req.symbol,
    description: req.description ?? '',
    icon_url: req.icon_url === undefined ? null : req.icon_url,
  };
  // Re-registering updates the object made by the previous registration (next version).
  const previous = env.listObjects({ movesOnly: true }).find((v) => v.type === `${METADATA_PREFIX}${coinType}>`);
  const prior = previous === undefined ? undefined : env.store.getObject(previous.id);
  if (previous !== undefined) env.store.delete(previous.id);
  let view: ObjectView;
  try {
    view = env.createObject({
      type: `${METADATA_PREFIX}${coinType}>`,
      fields,
      owner: { $kind: 'Immutable' },
      ...(previous !== undefined ? { id: previous.id, version: BigInt(previous.version) + 1n } : {}),
    });
  } catch (e) {
    if (previous !== undefined && prior !== undefined) env.store.put(previous.id, prior);
    throw e;
  }
  return { coin_type: coinType, decimals: req.decimals, symbol: req.symbol, name: req.name, metadata_object_id: view.id, version: Number(view.version) };
}

export function getCoinMetadata(env: SimulationEnvironment, coinTypeText: string): Json {
  const coinType = canonicalCoinType(env, coinTypeText);
  const info = registry(env).get(coinType);
  if (info === undefined) throw new SimulationEnvironmentError('MISSING_OBJECT', `no metadata for coin type ${coinType} (register_coin registers it)`);
  return { ...info };
}

export function listCoins(env: SimulationEnvironment): Json {
  const coins = [...registry(env).values()].map((c) => ({ ...c }));
  return { coins, count: coins.length };
}

/**
 * System objects and system transactions. The shared objects a real network creates at
 * genesis (Clock 0x6, Random 0x8, DenyList 0x403, CoinRegistry 0xc) are made here the same
 * way: by the framework's own `create` functions, run as the system address 0x0. The clock
 * and the randomness are then advanced by the framework's own system entry points
 * (`clock::consensus_commit_prologue`, `random::update_randomness_state`), so their
 * layouts and versions follow the bytecode, not a hand-written encoding.
 */
import { canonicalAddress } from '@smi/bytecode';
import { blake2b256, digestToBase58 } from '@smi/ptb';

/** The system address. */
export const SYSTEM_ADDRESS = canonicalAddress('0x0');
/** `0x2::clock::Clock`. */
export const CLOCK_ID = canonicalAddress('0x6');
/** `0x2::random::Random`. */
export const RANDOM_ID = canonicalAddress('0x8');
/** `0x2::deny_list::DenyList`. */
export const DENY_LIST_ID = canonicalAddress('0x403');
/** `0x2::coin_registry::CoinRegistry`. */
export const COIN_REGISTRY_ID = canonicalAddress('0xc');
/** `0x2::accumulator::AccumulatorRoot`: parent of the address-balance and event-stream accumulators. */
export const ACCUMULATOR_ROOT_ID = canonicalAddress('0xacc');
/** `0x3::sui_system::SuiSystemState` (not created: it needs a validator set). */
export const SYSTEM_STATE_ID = canonicalAddress('0x5');

/** A system object the environment knows about. */
export interface SystemObjectInfo {
  name: string;
  id: string;
  type: string;
  /** Framework function that creates it (`0x2::module::function`). */
  creator: string;
  /** Protocol feature flag that must be on for genesis to create it (none: always created). */
  featureFlag?: string;
  description: string;
}

/** The system objects created at genesis, in creation order. */
export const SYSTEM_OBJECTS: readonly SystemObjectInfo[] = [
  {
    name: 'clock',
    id: CLOCK_ID,
    type: '0x2::clock::Clock',
    creator: '0x2::clock::create',
    description: 'Shared clock: timestamp_ms of the current checkpoint; read through &Clock.',
  },
  {
    name: 'random',
    id: RANDOM_ID,
    type: '0x2::random::Random',
    creator: '0x2::random::create',
    featureFlag: 'random_beacon',
    description: 'Shared randomness beacon; entry functions take &Random and derive a RandomGenerator.',
  },
  {
    name: 'deny_list',
    id: DENY_LIST_ID,
    type: '0x2::deny_list::DenyList',
    creator: '0x2::deny_list::create',
    featureFlag: 'enable_coin_deny_list',
    description: 'Shared deny list of regulated coins (per-type address lists).',
  },
  {
    name: 'coin_registry',
    id: COIN_REGISTRY_ID,
    type: '0x2::coin_registry::CoinRegistry',
    creator: '0x2::coin_registry::create',
    featureFlag: 'enable_coin_registry',
    description: 'Shared registry of coin metadata (Currency<T> objects).',
  },
  {
    name: 'accumulator_root',
    id: ACCUMULATOR_ROOT_ID,
    type: '0x2::accumulator::AccumulatorRoot',
    creator: '0x2::accumulator::create',
    featureFlag: 'enable_accumulators',
    description: 'Shared root of the accumulators (address balances, event streams), settled at checkpoints.',
  },
];

/** blake2b256 of `smi::<label>::` ‖ u64le(counter). */
function labelledHash(label: string, counter: bigint): Uint8Array {
  const text = new TextEncoder().encode(`smi::${label}::`);
  const bytes = new Uint8Array(text.length + 8);
  bytes.set(text);
  new DataView(bytes.buffer).setBigUint64(text.length, counter, true);
  return blake2b256(bytes);
}

/** A deterministic digest for a transaction the environment makes itself (`label`, counter). */
export function syntheticDigest(label: string, counter: bigint): string {
  return digestToBase58(labelledHash(label, counter));
}

/** A deterministic object id for objects the environment makes itself. */
export function syntheticId(label: string, counter: bigint): string {
  return '0x' + Buffer.from(labelledHash(label, counter)).toString('hex');
}

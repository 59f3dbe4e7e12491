/**
 * System objects and system transactions. The shared objects a real network creates at
 * genesis are made here the same way: by the framework's own functions, run as the system
 * address 0x0 in one transaction at epoch 0 (see `genesis.ts`, after upstream's
 * `generate_genesis_system_object`): Clock 0x6, AuthenticatorState 0x7, Random 0x8,
 * DenyList 0x403, CoinRegistry 0xc, AccumulatorRoot 0xacc, Bridge 0x9 and the
 * SuiSystemState 0x5 with its validators, each when the protocol version and the loaded
 * framework have it. The clock and the randomness are then advanced by the framework's own
 * system entry points (`clock::consensus_commit_prologue`, `random::update_randomness_state`),
 * so their layouts and versions follow the bytecode, not a hand-written encoding.
 */
import { canonicalAddress } from '@smi/bytecode';
import { blake2b256, digestToBase58 } from '@smi/ptb';

/** The system address. */
export const SYSTEM_ADDRESS = canonicalAddress('0x0');
/** `0x3::sui_system::SuiSystemState`. */
export const SYSTEM_STATE_ID = canonicalAddress('0x5');
/** `0x2::clock::Clock`. */
export const CLOCK_ID = canonicalAddress('0x6');
/** `0x2::authenticator_state::AuthenticatorState`. */
export const AUTHENTICATOR_STATE_ID = canonicalAddress('0x7');
/** `0x2::random::Random`. */
export const RANDOM_ID = canonicalAddress('0x8');
/** `0xb::bridge::Bridge`. */
export const BRIDGE_ID = canonicalAddress('0x9');
/** `0x2::deny_list::DenyList`. */
export const DENY_LIST_ID = canonicalAddress('0x403');
/** `0x2::coin_registry::CoinRegistry`. */
export const COIN_REGISTRY_ID = canonicalAddress('0xc');
/** `0x2::accumulator::AccumulatorRoot`: parent of the address-balance and event-stream accumulators. */
export const ACCUMULATOR_ROOT_ID = canonicalAddress('0xacc');

/** Names of the system objects. */
export type SystemObjectName = 'clock' | 'authenticator_state' | 'random' | 'deny_list' | 'coin_registry' | 'accumulator_root' | 'bridge' | 'system_state';

/** A system object the environment knows about. */
export interface SystemObjectInfo {
  name: SystemObjectName;
  id: string;
  type: string;
  /** Framework function that creates it (`0x2::module::function`). */
  creator: string;
  /** Other framework functions genesis calls for it (all must exist for it to be created). */
  uses?: readonly string[];
  /**
   * Protocol feature flag that must be on for genesis to create it (none: always created),
   * as upstream's genesis checks it (`create_authenticator_state_in_genesis()` is
   * `enable_jwk_consensus_updates`, `enable_bridge()` is the flag `bridge`).
   */
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
    name: 'authenticator_state',
    id: AUTHENTICATOR_STATE_ID,
    type: '0x2::authenticator_state::AuthenticatorState',
    creator: '0x2::authenticator_state::create',
    featureFlag: 'enable_jwk_consensus_updates',
    description: 'Shared authenticator state: the active JWKs zkLogin signatures are checked against (none at genesis).',
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
  {
    name: 'bridge',
    id: BRIDGE_ID,
    type: '0xb::bridge::Bridge',
    creator: '0xb::bridge::create',
    uses: ['0x2::object::bridge'],
    featureFlag: 'bridge',
    description: 'Shared Sui bridge (chain id 2, SuiCustom, as upstream genesis makes it): empty committee, treasury and transfer records.',
  },
  {
    name: 'system_state',
    id: SYSTEM_STATE_ID,
    type: '0x3::sui_system::SuiSystemState',
    creator: '0x3::genesis::create',
    uses: ['0x2::object::sui_system_state', '0x2::sui::new'],
    description:
      'Shared Sui system state (validators, stake, epoch, storage fund); wraps the versioned inner state. Made at genesis with the total SUI supply and four validators holding the default stake each.',
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

/**
 * The genesis transaction, after upstream's `generate_genesis_system_object`
 * (`sui-genesis-builder`): one programmable transaction, run by the system address 0x0 at
 * epoch 0, whose Move calls create every system object the protocol version enables and the
 * loaded framework can make (see {@link SYSTEM_OBJECTS}):
 *
 * - the singletons made by a `create` of their own (Clock, AuthenticatorState, Random,
 *   DenyList, CoinRegistry, AccumulatorRoot);
 * - the Bridge: `0xb::bridge::create(object::bridge(), SuiCustom)`;
 * - the SuiSystemState: `object::sui_system_state()` and `sui::new()` (the whole supply)
 *   passed to `0x3::genesis::create` with upstream's default chain parameters, the genesis
 *   validators and upstream's `TokenDistributionSchedule::new_for_validators_with_default_allocation`;
 *   then, in a second system transaction, its inner state upgraded to the current version as
 *   mainnet's is ({@link SYSTEM_STATE_UPGRADE}).
 *
 * Nothing is encoded by hand: the parameters are typed JSON encoded with the framework's
 * own struct layouts, and the framework code builds the objects.
 */
import { type Json, type MoveVM, type ProtocolConfig, valueFromJson, VmError } from '@smi/move-vm';
import type { ObjectArg, ProgrammableTransaction } from '@smi/ptb';
import { parseTarget, PtbBuilder } from './builder.js';
import { type GenesisValidator, genesisValidators } from './genesis-validators.js';
import { SYSTEM_OBJECTS, type SystemObjectInfo } from './system.js';

const MIST_PER_SUI = 1_000_000_000n;
/** `sui::sui` `TOTAL_SUPPLY_MIST`: what `sui::new` mints. */
export const TOTAL_SUPPLY_MIST = 10_000_000_000n * MIST_PER_SUI;
/** `sui_types::governance::VALIDATOR_LOW_STAKE_THRESHOLD_MIST`: each genesis validator's stake (default allocation). */
export const VALIDATOR_LOW_STAKE_THRESHOLD_MIST = 20_000_000n * MIST_PER_SUI;
const MIN_VALIDATOR_JOINING_STAKE_MIST = 30_000_000n * MIST_PER_SUI;
const VALIDATOR_VERY_LOW_STAKE_THRESHOLD_MIST = 15_000_000n * MIST_PER_SUI;
const VALIDATOR_LOW_STAKE_GRACE_PERIOD = 7n;
const MAX_VALIDATOR_COUNT = 150n;
/** `BridgeChainId::SuiCustom`, the chain id upstream's genesis gives the bridge. */
export const BRIDGE_CHAIN_ID_SUI_CUSTOM = 2;

/** A `0x…::module::function` that the loaded packages define (a missing package or module is "no"). */
function functionExists(vm: MoveVM, target: string): boolean {
  const t = parseTarget(target);
  try {
    return vm.resolveFunctionIfExists(t.package, t.module, t.function) !== undefined;
  } catch (e) {
    if (e instanceof VmError) return false;
    throw e;
  }
}

/** Whether genesis creates `s` under this protocol version and framework. */
function creates(vm: MoveVM, config: ProtocolConfig, s: SystemObjectInfo): boolean {
  if (s.featureFlag !== undefined && !config.flag(s.featureFlag)) return false;
  return [s.creator, ...(s.uses ?? [])].every((f) => functionExists(vm, f));
}

/** BCS of `value` (typed JSON) as a `type`, with the loaded framework's layout. */
function encode(vm: MoveVM, type: string, value: Json): Uint8Array {
  const t = vm.resolveType(type);
  return vm.bcs.encode(valueFromJson(vm.types, value, t), t);
}

const hex = (bytes: Uint8Array): string => '0x' + Buffer.from(bytes).toString('hex');
const text = (s: string): string => hex(new TextEncoder().encode(s));

/** Upstream `GenesisCeremonyParameters` defaults, as `to_genesis_chain_parameters` gives them. */
export function genesisChainParameters(protocolVersion: number, chainStartMs: bigint): Record<string, Json> {
  return {
    protocol_version: String(protocolVersion),
    chain_start_timestamp_ms: String(chainStartMs),
    epoch_duration_ms: String(24 * 60 * 60 * 1000),
    stake_subsidy_start_epoch: '0',
    stake_subsidy_initial_distribution_amount: String(1_000_000n * MIST_PER_SUI),
    stake_subsidy_period_length: '10',
    stake_subsidy_decrease_rate: 1000,
    max_validator_count: String(MAX_VALIDATOR_COUNT),
    min_validator_joining_stake: String(MIN_VALIDATOR_JOINING_STAKE_MIST),
    validator_low_stake_threshold: String(VALIDATOR_LOW_STAKE_THRESHOLD_MIST),
    validator_very_low_stake_threshold: String(VALIDATOR_VERY_LOW_STAKE_THRESHOLD_MIST),
    validator_low_stake_grace_period: String(VALIDATOR_LOW_STAKE_GRACE_PERIOD),
  };
}

function validatorMetadata(v: GenesisValidator): Record<string, Json> {
  return {
    name: text(v.name),
    description: text(v.description),
    image_url: text(v.imageUrl),
    project_url: text(v.projectUrl),
    sui_address: v.suiAddress,
    gas_price: String(v.gasPrice),
    commission_rate: String(v.commissionRate),
    protocol_public_key: hex(v.protocolPublicKey),
    proof_of_possession: hex(v.proofOfPossession),
    network_public_key: hex(v.networkPublicKey),
    worker_public_key: hex(v.workerPublicKey),
    network_address: text(v.networkAddress),
    p2p_address: text(v.p2pAddress),
    primary_address: text(v.primaryAddress),
    worker_address: text(v.workerAddress),
  };
}

/**
 * Upstream `new_for_validators_with_default_allocation`: each validator gets the low-stake
 * threshold staked with itself; the rest of the supply funds the stake subsidy.
 */
export function tokenDistributionSchedule(validators: readonly GenesisValidator[]): Record<string, Json> {
  const staked = VALIDATOR_LOW_STAKE_THRESHOLD_MIST * BigInt(validators.length);
  return {
    stake_subsidy_fund_mist: String(TOTAL_SUPPLY_MIST - staked),
    allocations: validators.map((v) => ({ recipient_address: v.suiAddress, amount_mist: String(VALIDATOR_LOW_STAKE_THRESHOLD_MIST), staked_with_validator: v.suiAddress })),
  };
}

/** The calls that make `s` (its `creates` check passed). */
function addCreation(tx: PtbBuilder, vm: MoveVM, config: ProtocolConfig, s: SystemObjectInfo, chainStartMs: bigint): void {
  switch (s.name) {
    case 'bridge': {
      const uid = tx.moveCall('0x2::object::bridge');
      tx.moveCall(s.creator, [uid, tx.pureBytes(Uint8Array.of(BRIDGE_CHAIN_ID_SUI_CUSTOM))]);
      return;
    }
    case 'system_state': {
      const uid = tx.moveCall('0x2::object::sui_system_state');
      const supply = tx.moveCall('0x2::sui::new');
      const validators = genesisValidators();
      const params = tx.pureBytes(encode(vm, '0x3::genesis::GenesisChainParameters', genesisChainParameters(config.version, chainStartMs)));
      const metadata = tx.pureBytes(encode(vm, 'vector<0x3::genesis::GenesisValidatorMetadata>', validators.map(validatorMetadata)));
      const schedule = tx.pureBytes(encode(vm, '0x3::genesis::TokenDistributionSchedule', tokenDistributionSchedule(validators)));
      tx.moveCall(s.creator, [uid, supply, params, metadata, schedule]);
      return;
    }
    default:
      tx.moveCall(s.creator);
  }
}

/**
 * The call that brings the SuiSystemState's inner state to the framework's current version.
 * `genesis::create` stores it at version 1 (`sui_system_state_inner::create` always makes the
 * genesis type), and only a mutable load upgrades it: `sui_system::load_inner_maybe_upgrade`,
 * which every function taking `&mut SuiSystemState` goes through (`load_system_state_mut`);
 * until then the functions taking `&SuiSystemState`, which borrow the current version's type,
 * abort. Mainnet's was upgraded long ago, so the environment's genesis calls it once, in a
 * second system transaction (the first one shared the object). The function itself rather
 * than a public caller: it has no other effect, and every framework since the V2 state has it
 * (`active_validator_addresses`, the obvious public caller, came later). A system transaction
 * may call a private function and leave its returned reference unused, as dev-inspect may.
 */
const SYSTEM_STATE_UPGRADE = '0x3::sui_system::load_inner_maybe_upgrade';

/**
 * The second genesis transaction (see {@link SYSTEM_STATE_UPGRADE}) on the SuiSystemState
 * `state` (its shared input, mutable), or `null` when the framework has no such function.
 */
export function systemStateUpgrade(vm: MoveVM, state: ObjectArg): ProgrammableTransaction | null {
  if (!functionExists(vm, SYSTEM_STATE_UPGRADE)) return null;
  const tx = new PtbBuilder();
  tx.moveCall(SYSTEM_STATE_UPGRADE, [tx.objectArg(state)]);
  return tx.build();
}

/** The genesis transaction and the system objects it creates. */
export interface GenesisPlan {
  transaction: ProgrammableTransaction;
  objects: readonly SystemObjectInfo[];
}

/** The genesis transaction for this framework and protocol version; the chain starts at `chainStartMs`. */
export function genesisPlan(vm: MoveVM, config: ProtocolConfig, chainStartMs: bigint): GenesisPlan {
  const tx = new PtbBuilder();
  const objects = SYSTEM_OBJECTS.filter((s) => creates(vm, config, s));
  for (const s of objects) addCreation(tx, vm, config, s, chainStartMs);
  return { transaction: tx.build(), objects };
}

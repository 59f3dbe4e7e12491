import { expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { blsMinSigBackend, proofOfPossessionMessage } from '@smi/move-vm';
import {
  AUTHENTICATOR_STATE_ID,
  BRIDGE_ID,
  CLOCK_ID,
  deriveGenesisValidatorKeys,
  fromFixtures,
  genesisValidators,
  RANDOM_ID,
  SandboxSession,
  SimulationEnvironment,
  SYSTEM_STATE_ID,
  TOTAL_SUPPLY_MIST,
  type ObjectView,
  type TransactionOutcome,
  VALIDATOR_LOW_STAKE_THRESHOLD_MIST,
} from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const SUI = 1_000_000_000n;
const at = (a: string): string => canonicalAddress(a);

/** `0x3::sui_system::request_add_stake` of `amount` split from the gas coin, with `validator`. */
function stake(env: SimulationEnvironment, validator: string, amount: bigint): TransactionOutcome {
  const tx = env.tx();
  const [coin] = tx.splitCoins(tx.gas, [tx.pure('u64', amount.toString())]);
  tx.moveCall('0x3::sui_system::request_add_stake', [tx.object(SYSTEM_STATE_ID), coin, tx.pure('address', validator)]);
  return env.execute(tx.build());
}

/** The `StakedSui` a transaction created. */
function stakedSuiOf(env: SimulationEnvironment, out: TransactionOutcome): ObjectView | undefined {
  return out.written
    .filter((w) => w.kind === 'created')
    .map((w) => env.getObject(w.id))
    .find((o) => o?.type === `${at('0x3')}::staking_pool::StakedSui`);
}

describeWithFixtures('genesis: system objects made by the framework', ['fixtures', 'framework'], () => {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const env = SimulationEnvironment.create({ packages, protocolConfig });
  const addresses = genesisValidators().map((v) => v.suiAddress);

  it('0x5 is the shared SuiSystemState, whose active validators are the genesis validators', () => {
    const state = env.getObject(SYSTEM_STATE_ID);
    expect(state?.type).toBe(`${at('0x3')}::sui_system::SuiSystemState`);
    expect(state?.owner).toEqual({ $kind: 'Shared', initialSharedVersion: '1' });
    expect(addresses).toHaveLength(4);
    expect(new Set(addresses).size).toBe(4);
    const r = env.call('0x3::sui_system::active_validator_addresses', [SYSTEM_STATE_ID], { commit: false });
    expect(r.transaction.status).toEqual({ $kind: 'Success' });
    expect(r.returnValues[0].value).toEqual(addresses);
  });

  it('0x5 holds its inner state at the current version, as mainnet: read-only accessors work from the start', () => {
    // `genesis::create` stores the inner state as V1; genesis then upgrades it (`load_inner_maybe_upgrade`).
    const fresh = SimulationEnvironment.create({ packages, protocolConfig });
    for (const target of ['active_validator_addresses_ref', 'active_validator_voting_powers']) {
      const r = fresh.call(`0x3::sui_system::${target}`, [SYSTEM_STATE_ID], { commit: false });
      expect(r.transaction.status, target).toEqual({ $kind: 'Success' });
    }
    expect(fresh.call('0x3::sui_system::active_validator_addresses_ref', [SYSTEM_STATE_ID]).returnValues[0].value).toEqual(addresses);
    const wrapper = fresh.getObject(SYSTEM_STATE_ID);
    expect(wrapper?.version).toBe('2');
    expect((wrapper?.value as { version: string } | undefined)?.version).toBe('2');
    // A mutable load has nothing left to upgrade (an upgrade moves the inner state to a new dynamic field).
    const touch = fresh.call('0x3::sui_system::active_validator_addresses', [SYSTEM_STATE_ID], { commit: false });
    expect(touch.transaction.written.map((w) => w.kind)).not.toContain('created');
    expect(touch.transaction.deleted).toEqual([]);
  });

  it('the validators hold the default stake each, with equal voting power', () => {
    for (const a of addresses) {
      const r = env.call('0x3::sui_system::active_validator_stake_amount', [SYSTEM_STATE_ID, a], { commit: false });
      expect(r.returnValues[0].value).toBe(VALIDATOR_LOW_STAKE_THRESHOLD_MIST.toString());
    }
    const powers = env.call('0x3::sui_system::active_validator_voting_powers', [SYSTEM_STATE_ID], { commit: false });
    expect(powers.transaction.status).toEqual({ $kind: 'Success' });
    const entries = (powers.returnValues[0].value as { contents: { key: string; value: string }[] }).contents;
    expect(entries.map((e) => e.key).sort()).toEqual([...addresses].sort());
    expect(entries.map((e) => e.value)).toEqual(['2500', '2500', '2500', '2500']);
    // The rest of the supply funds the stake subsidy (`sui::new` minted all of it).
    expect(TOTAL_SUPPLY_MIST - 4n * VALIDATOR_LOW_STAKE_THRESHOLD_MIST).toBe(9_920_000_000n * SUI);
  });

  it('each validator proves possession of its BLS key as upstream does (intent message, epoch 0)', () => {
    // The keys kept as constants are those their seeds give.
    genesisValidators().forEach((v, i) => {
      const derived = deriveGenesisValidatorKeys(i);
      expect(derived.suiAddress).toBe(v.suiAddress);
      for (const k of ['protocolPublicKey', 'proofOfPossession', 'networkPublicKey', 'workerPublicKey'] as const) expect(derived[k], k).toBe(Buffer.from(v[k]).toString('hex'));
    });
    for (const v of genesisValidators()) {
      const message = proofOfPossessionMessage(v.protocolPublicKey, Uint8Array.from(Buffer.from(v.suiAddress.slice(2), 'hex')));
      expect(blsMinSigBackend.verify(v.proofOfPossession, v.protocolPublicKey, message)).toBe(true);
      expect(Buffer.compare(Buffer.from(v.networkPublicKey), Buffer.from(v.workerPublicKey))).not.toBe(0);
    }
  });

  it('request_add_stake with a coin split from gas gives the sender a StakedSui', () => {
    const out = stake(env, addresses[1], 2n * SUI);
    expect(out.status).toEqual({ $kind: 'Success' });
    const staked = stakedSuiOf(env, out);
    expect(staked?.owner).toEqual({ $kind: 'AddressOwner', address: env.sender });
    const value = staked?.value as { pool_id: { bytes: string }; stake_activation_epoch: string; principal: { value: string } };
    expect(value.principal.value).toBe((2n * SUI).toString());
    expect(value.stake_activation_epoch).toBe('1');
    expect(env.call('0x3::sui_system::validator_address_by_pool_id', [SYSTEM_STATE_ID, value.pool_id], { commit: false }).returnValues[0].value).toBe(addresses[1]);
    // The stake is pending until the next epoch; the system state was written.
    expect(out.written.some((w) => w.id === SYSTEM_STATE_ID && w.kind === 'mutated')).toBe(true);
  });

  it('0x9 is the shared Bridge (chain id SuiCustom) and 0x7 the AuthenticatorState', () => {
    const bridge = env.getObject(BRIDGE_ID);
    expect(bridge?.type).toBe(`${at('0xb')}::bridge::Bridge`);
    expect(bridge?.owner).toEqual({ $kind: 'Shared', initialSharedVersion: '1' });
    const auth = env.getObject(AUTHENTICATOR_STATE_ID);
    expect(auth?.type).toBe(`${at('0x2')}::authenticator_state::AuthenticatorState`);
    expect(auth?.owner.$kind).toBe('Shared');
  });

  it('without package 0xb there is no bridge; without 0x3 no system state', () => {
    const no0xb = SimulationEnvironment.create({ packages: packages.filter((p) => p.id !== at('0xb')), protocolConfig });
    expect(no0xb.getObject(BRIDGE_ID)).toBeUndefined();
    expect(no0xb.getObject(SYSTEM_STATE_ID)?.type).toBe(`${at('0x3')}::sui_system::SuiSystemState`);
    const only12 = SimulationEnvironment.create({ packages: packages.filter((p) => [at('0x1'), at('0x2')].includes(p.id)), protocolConfig });
    expect(only12.getObject(SYSTEM_STATE_ID)).toBeUndefined();
    expect(only12.getObject(CLOCK_ID)?.owner.$kind).toBe('Shared');
  });

  it('a second environment re-applies the first genesis: same objects, versions, digests and counters', () => {
    const again = SimulationEnvironment.create({ packages, protocolConfig });
    const a = env.captureState();
    const fresh = SimulationEnvironment.create({ packages, protocolConfig }).captureState();
    expect(again.captureState()).toEqual(fresh);
    // `env` has run transactions since; its system objects were made alike.
    for (const id of [CLOCK_ID, AUTHENTICATOR_STATE_ID, RANDOM_ID, BRIDGE_ID]) expect(fresh.objects.find(([k]) => k === id)).toEqual(a.objects.find(([k]) => k === id));
    // A reset makes the same genesis again.
    again.resetState();
    expect(again.captureState()).toEqual(fresh);
  });

  it('genesis runs at epoch 0 whatever epoch the environment starts at, and the chain starts at its clock', () => {
    const later = SimulationEnvironment.create({ packages, protocolConfig, epoch: 7n, clockMs: 1_800_000_000_000n });
    expect(later.getObject(SYSTEM_STATE_ID)?.type).toBe(`${at('0x3')}::sui_system::SuiSystemState`);
    // Random made at epoch 0, then its first randomness (round 0) at epoch 7.
    expect(later.getObject(RANDOM_ID)?.version).toBe('2');
    expect((later.getObject(CLOCK_ID)?.value as { timestamp_ms: string } | undefined)?.timestamp_ms).toBe('1800000000000');
    const r = later.call('0x3::sui_system::active_validator_addresses', [SYSTEM_STATE_ID], { commit: false });
    expect(r.returnValues[0].value).toEqual(addresses);
  });

  it('get_system_object_info says the system state and the bridge exist, with their fields', async () => {
    const s = SandboxSession.create({ packages, protocolConfig });
    const state = await s.handle({ action: 'get_system_object_info', object_name: 'system_state' });
    // Version 2: genesis's second transaction (the inner state's upgrade) wrote it.
    expect(state.data).toMatchObject({ id: SYSTEM_STATE_ID, exists: true, version: 2, fields: [{ name: 'id' }, { name: 'version' }] });
    const bridge = await s.handle({ action: 'get_system_object_info', object_name: '0x9' });
    expect(bridge.data).toMatchObject({ name: 'bridge', exists: true });
    const auth = await s.handle({ action: 'get_system_object_info', object_name: 'authenticator' });
    expect(auth.data).toMatchObject({ name: 'authenticator_state', id: AUTHENTICATOR_STATE_ID, exists: true });
  });
});

describeWithFixtures('genesis at older protocol versions', ['fixtures', 'framework-snapshots'], () => {
  it.each([
    // [version, authenticator state (JWK updates from 25), random (54), bridge (56; package 0xb from 45)]
    [11, false, false, false],
    [23, false, false, false],
    [45, true, false, false],
    [60, true, true, true],
  ])('protocol %i: the system state, and only the objects its features and framework have', (v, auth, random, bridge) => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT, v);
    const env = SimulationEnvironment.create({ packages, protocolConfig });
    expect(env.getObject(SYSTEM_STATE_ID)?.type).toBe(`${at('0x3')}::sui_system::SuiSystemState`);
    expect(env.getObject(AUTHENTICATOR_STATE_ID) !== undefined).toBe(auth);
    expect(env.getObject(RANDOM_ID) !== undefined).toBe(random);
    expect(env.getObject(BRIDGE_ID) !== undefined).toBe(bridge);
    // The inner state is at the version this framework's `load_inner_maybe_upgrade` upgrades to (V2 in all of them).
    expect((env.getObject(SYSTEM_STATE_ID)?.value as { version: string } | undefined)?.version).toBe('2');
    // Staking with a genesis validator works (it aborts for an address that is not one).
    const v0 = genesisValidators()[0].suiAddress;
    const out = stake(env, v0, SUI);
    expect(out.status).toEqual({ $kind: 'Success' });
    expect(stakedSuiOf(env, out)?.owner).toEqual({ $kind: 'AddressOwner', address: env.sender });
    expect(stake(env, at('0xb0b'), SUI).status.$kind).toBe('Failure');
  });
});

import { expect, it } from 'vitest';
import { fromFixtures, loadCorpus, mergePackages, SimulationEnvironment, SimulationEnvironmentError } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

const LENDING = '0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0';
const CETUS = '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb';

describeWithFixtures('an environment over the corpus', ['corpus'], () => {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const corpus = loadCorpus(fixturePath('corpus'));
  const env = SimulationEnvironment.create({ packages: mergePackages(packages, corpus), protocolConfig });

  it('loads all 12 packages (corpus framework replacing the bundles)', () => {
    expect(corpus).toHaveLength(12);
    expect(env.vm.packageIds()).toHaveLength(12);
  });

  it('runs a mainnet lending package function: ray_mul(2 ray, 3) = 6', () => {
    const r = env.call(`${LENDING}::ray_math::ray_mul`, ['2000000000000000000000000000', '3']);
    expect(r.transaction.status).toEqual({ $kind: 'Success' });
    expect(r.returnValues).toEqual([{ type: 'u256', bcs: '06' + '00'.repeat(31), value: '6' }]);
  });

  it('a package whose dependency is not in the corpus fails with a typed error naming it', () => {
    expect(() => env.call(`${CETUS}::tick_math::get_sqrt_price_at_tick`, [{ bits: 1 }])).toThrow(SimulationEnvironmentError);
    try {
      env.call(`${CETUS}::tick_math::get_sqrt_price_at_tick`, [{ bits: 1 }]);
    } catch (e) {
      expect((e as SimulationEnvironmentError).code).toBe('MISSING_PACKAGE');
      expect((e as Error).message).toMatch(/0x714a63a0/);
    }
  });
});

describeWithFixtures('environments at older protocol versions', ['fixtures', 'framework-snapshots'], () => {
  it.each([11, 23, 60, 100, 134])('protocol %i: the framework of its time, genesis and a split', (v) => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT, v);
    expect(protocolConfig.version).toBe(v);
    const env = SimulationEnvironment.create({ packages, protocolConfig });
    const coin = env.createObject({ type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: 1000 } });
    const tx = env.tx();
    const [a] = tx.splitCoins(tx.object(coin.id), [tx.pure('u64', 100)]);
    tx.transferObjects([a], tx.pure('address', '0xb0b'));
    expect(env.execute(tx.build()).status).toEqual({ $kind: 'Success' });
  });

  it('a version with no framework snapshot is a clear error', () => {
    expect(() => fromFixtures(FIXTURES_ROOT, 1)).toThrow(/no framework snapshot/);
  });
});

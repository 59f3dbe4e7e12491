import { expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { fromFixtures, loadCorpus, mergePackages, SandboxSession, SimulationEnvironment, type TransactionOutcome } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

/** Dola at versions 1 and 2 (one original id), and integer_mate v1 and v3 (no `init` anywhere). */
const DOLA_V1 = '0x826915f8ca6d11597dfe6599b8aa02a4c08bd8d39674855254a06ee83fe7220e';
const DOLA_V2 = '0xc5b2a5049cd71586362d0c6a38e34cfaae7ea9ce6d5401a350506a15f817bf72';
const MATE_V1 = '0x714a63a0dba6da4f017b42d5d0fb78867f18bcde904868e51d951a5a6f5b7f57';
const MATE_V3 = '0xe2b515f0052c0b3f83c23db045d49dbe1732818ccfc5d4596c9482f7f2e76a85';
const UPGRADE_CAP = `${canonicalAddress('0x2')}::package::UpgradeCap`;
const PUBLISHER = canonicalAddress('0x9ab');

interface CapValue {
  id: { id: { bytes: string } };
  package: { bytes: string };
  version: string;
  policy: number;
}

describeWithFixtures('init_package: the publisher gets its UpgradeCap', ['corpus-deps'], () => {
  const { packages: framework, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const packages = mergePackages(framework, [...loadCorpus(fixturePath('corpus')), ...loadCorpus(fixturePath('corpus-deps'))]);
  const newEnv = (): SimulationEnvironment => SimulationEnvironment.create({ packages, protocolConfig, sender: PUBLISHER });

  /** The UpgradeCaps a transaction created. */
  function capsOf(env: SimulationEnvironment, out: TransactionOutcome): { id: string; owner: unknown; value: CapValue }[] {
    return out.written
      .filter((w) => w.kind === 'created')
      .map((w) => env.getObject(w.id))
      .filter((o) => o?.type === UPGRADE_CAP)
      .map((o) => ({ id: o?.id as string, owner: o?.owner, value: o?.value as unknown as CapValue }));
  }

  it('the whole package: its inits, then one UpgradeCap owned by the sender, in the same effects', () => {
    const env = newEnv();
    const out = env.runPackageInits(DOLA_V2);
    expect(out.status).toEqual({ $kind: 'Success' });
    const caps = capsOf(env, out);
    expect(caps).toHaveLength(1);
    expect(caps[0].owner).toEqual({ $kind: 'AddressOwner', address: PUBLISHER });
    expect(caps[0].value).toEqual({ id: { id: { bytes: caps[0].id } }, package: { bytes: DOLA_V2 }, version: '2', policy: 0 });
    // The inits ran too: more objects than the cap.
    expect(out.written.filter((w) => w.kind === 'created').length).toBeGreaterThan(1);
  });

  it('an upgraded package: the cap names the newest loaded version, whichever version is initialised', () => {
    const env = newEnv();
    const out = env.runPackageInits(DOLA_V1);
    expect(out.status).toEqual({ $kind: 'Success' });
    const [cap] = capsOf(env, out);
    expect(cap.value.package.bytes).toBe(DOLA_V2);
    expect(cap.value.version).toBe('2');
  });

  it('modules listed: no cap unless asked; `modules: []` with the cap option gives only the cap', () => {
    const env = newEnv();
    const one = env.runPackageInits(DOLA_V2, { modules: ['oracle'] });
    expect(one.status).toEqual({ $kind: 'Success' });
    expect(capsOf(env, one)).toHaveLength(0);
    const capOnly = env.runPackageInits(DOLA_V2, { modules: [], upgradeCap: true });
    expect(capOnly.status).toEqual({ $kind: 'Success' });
    const created = capOnly.written.filter((w) => w.kind === 'created');
    expect(created).toHaveLength(1);
    expect(capsOf(env, capOnly)[0].value).toMatchObject({ package: { bytes: DOLA_V2 }, version: '2', policy: 0 });
    // And `upgradeCap: false` keeps a whole-package init from making one.
    expect(capsOf(env, newEnv().runPackageInits(DOLA_V2, { upgradeCap: false }))).toHaveLength(0);
  });

  it('sandbox: init_package answers with the cap id; a package with no init at all gets its cap', async () => {
    const s = SandboxSession.create({ packages, protocolConfig });
    const r = await s.handle({ action: 'init_package', package: MATE_V1, modules: [], upgrade_cap: true });
    expect(r.success).toBe(true);
    const data = r.data as { upgrade_cap_id: string };
    expect(r.effects?.created.map((c) => c.id)).toEqual([data.upgrade_cap_id]);
    const cap = await s.handle({ action: 'inspect_object', object_id: data.upgrade_cap_id });
    expect(cap.data).toMatchObject({ type: UPGRADE_CAP, owner: { $kind: 'AddressOwner', address: s.env.sender }, decoded: { package: { bytes: MATE_V3 }, version: '3', policy: 0 } });
    // Without `modules` the cap is the default; with some modules it is not.
    const whole = await s.handle({ action: 'init_package', package: MATE_V3 });
    expect((whole.data as { upgrade_cap_id: string | null }).upgrade_cap_id).not.toBeNull();
    const some = await s.handle({ action: 'init_package', package: DOLA_V2, modules: ['oracle'] });
    expect(some.success).toBe(true);
    expect((some.data as { upgrade_cap_id: string | null }).upgrade_cap_id).toBeNull();
    const bad = await s.handle({ action: 'init_package', package: MATE_V1, upgrade_cap: 'yes' });
    expect(bad.error_category).toBe('ParseError');
  });
});

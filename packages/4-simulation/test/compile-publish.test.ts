import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { compilablePackages, compileAndPublish, type CompileAndPublishOutcome, fromFixtures, loadCorpus, mergePackages, SimulationEnvironment, SimulationEnvironmentError } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';

const SOURCE = `
module helper::counter;

public struct Counter has key, store { id: UID, value: u64 }
public struct COUNTER has drop {}
public struct Made has copy, drop { id: ID }

fun init(otw: COUNTER, ctx: &mut TxContext) {
    assert!(sui::types::is_one_time_witness(&otw), 0);
    let c = Counter { id: object::new(ctx), value: 7 };
    transfer::share_object(c);
}

public fun make(ctx: &mut TxContext): Counter {
    let c = Counter { id: object::new(ctx), value: 0 };
    sui::event::emit(Made { id: object::id(&c) });
    c
}

public fun bump(c: &mut Counter, by: u64) { c.value = c.value + by }
public fun value(c: &Counter): u64 { c.value }
`;

describeWithFixtures('compile and publish Move source in one step', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let out: CompileAndPublishOutcome;
  beforeAll(async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    env = SimulationEnvironment.create({ packages: packages.filter((p) => ['0x1', '0x2'].map((a) => canonicalAddress(a)).includes(p.id)), protocolConfig });
    out = await compileAndPublish(env, { files: { 'sources/counter.move': SOURCE } });
  });

  it('publishes, runs init with the one-time witness, sends the UpgradeCap to the sender', () => {
    expect(out.modules.map((m) => m.name)).toEqual(['counter']);
    expect(env.getObject(out.packageId)?.type).toBeNull();
    const cap = env.getObject(out.upgradeCapId);
    expect(cap?.type).toBe('0x0000000000000000000000000000000000000000000000000000000000000002::package::UpgradeCap');
    expect(cap?.owner).toEqual({ $kind: 'AddressOwner', address: env.sender });
    expect(cap?.value).toMatchObject({ package: { bytes: out.packageId }, version: '1', policy: 0 });
    expect(out.created).toHaveLength(1);
    const shared = env.getObject(out.created[0].id);
    expect(shared?.type).toBe(`${out.packageId}::counter::Counter`);
    expect(shared?.owner.$kind).toBe('Shared');
    expect(shared?.value).toMatchObject({ value: '7' });
  });

  it('the published functions are callable; returned objects go to the sender; events are reported', () => {
    const made = env.call(`${out.packageId}::counter::make`);
    expect(made.transaction.status).toEqual({ $kind: 'Success' });
    expect(made.transaction.events).toHaveLength(1);
    const created = made.transaction.written.find((w) => w.kind === 'created');
    expect(created).toBeDefined();
    const id = created!.id;
    env.call(`${out.packageId}::counter::bump`, [id, 5]);
    env.call(`${out.packageId}::counter::bump`, [id, 6]);
    expect(env.call(`${out.packageId}::counter::value`, [id]).returnValues[0].value).toBe('11');
    expect(env.getObject(id)?.owner).toEqual({ $kind: 'AddressOwner', address: env.sender });
  });

  it('a compile error is a COMPILATION_ERROR with diagnostics', async () => {
    const e = await compileAndPublish(env, { files: { 'sources/bad.move': 'module helper::bad; public fun f(): u64 { true }' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SimulationEnvironmentError);
    expect((e as SimulationEnvironmentError).code).toBe('COMPILATION_ERROR');
  });
});

describeWithFixtures('compile with a corpus loaded', ['corpus'], () => {
  it('packages whose dependencies are missing are not offered to the compiler, so a build still works', async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    const corpus = loadCorpus(fixturePath('corpus'));
    const env = SimulationEnvironment.create({ packages: mergePackages(packages, corpus), protocolConfig });
    const offered = new Set(compilablePackages(env));
    const left = env.vm.packageIds().filter((id) => !offered.has(id));
    // Some corpus packages call packages the corpus lacks: those (and what needs them) stay out.
    expect(left.length).toBeGreaterThan(0);
    expect(offered.has(canonicalAddress('0x2'))).toBe(true);
    const out = await compileAndPublish(env, { files: { 'sources/counter.move': SOURCE } });
    expect(out.modules.map((m) => m.name)).toEqual(['counter']);
  });
});

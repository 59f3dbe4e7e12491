/**
 * Executor rules for Move calls and packages: which functions a PTB may call (visibility,
 * the entry-argument rule of protocol 135), `init` with its one-time witness on `Publish`,
 * `Upgrade` with ticket and receipt, what a failed transaction leaves behind, lamport
 * versions, and dev-inspect (`checks: 'relaxed'`). Expected outcomes follow Sui's static
 * PTB checks (`typing/verify/move_functions.rs`, `private_entry_arguments.rs`), its
 * interpreter and `TemporaryStore`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { packageDigest } from '@smi/ptb';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileAndPublish, fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { balanceOf, compileOnly, createdOf, envWithHelper, expectSuccess, failureOf, HELPER_SOURCES, makeCoin, makeObj, objValue, returned } from './ptb-support.js';

const BOB = canonicalAddress('0xb0b');

describeWithFixtures('PTB executor: Move calls and packages', ['fixtures', 'framework'], () => {
  let env: SimulationEnvironment;
  let pkg: string;
  let capId: string;
  let registryId: string;
  beforeAll(async () => {
    const h = await envWithHelper();
    ({ env, pkg } = h);
    capId = h.published.upgradeCapId;
    registryId = h.published.created.find((c) => c.type?.endsWith('::registry::Registry'))?.id as string;
  });

  describe('which functions a PTB may call', () => {
    it('a function neither public nor entry is NonEntryFunctionInvoked (private, public(package), init)', () => {
      for (const target of [`${pkg}::h::private_fun`, `${pkg}::h::package_fun`]) {
        const tx = env.tx();
        tx.moveCall(`${pkg}::h::add`, [tx.pure('u64', 1), tx.pure('u64', 2)]);
        tx.moveCall(target);
        expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'NonEntryFunctionInvoked', command: 1 });
      }
    });

    it('dev-inspect may call private functions', () => {
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::private_fun`);
      const out = env.execute(tx.build(), { checks: 'relaxed' });
      expectSuccess(out);
      expect(returned(env, out, 0)).toBe('1');
    });

    it('a private entry function takes values returned by earlier non-entry calls (no hot potato around)', () => {
      const obj = makeObj(env, pkg, 1);
      const tx = env.tx();
      const s = tx.moveCall(`${pkg}::h::add`, [tx.pure('u64', 2), tx.pure('u64', 3)]);
      tx.moveCall(`${pkg}::h::private_entry`, [tx.object(obj), s]);
      const n = tx.moveCall(`${pkg}::h::new_obj`, [tx.pure('u64', 4)]);
      tx.moveCall(`${pkg}::h::private_entry`, [n, s]);
      tx.transferObjects([n], tx.pure('address', BOB));
      expectSuccess(env.execute(tx.build()));
      expect(objValue(env, obj)).toBe('5');
    });

    it('a private entry function may consume the last hot potato of its clique', () => {
      const tx = env.tx();
      const p = tx.moveCall(`${pkg}::h::potato`, [tx.pure('u64', 1)]);
      tx.moveCall(`${pkg}::h::private_entry_eat`, [p]);
      expectSuccess(env.execute(tx.build()));
    });

    it('a private entry function given a value entangled with a live hot potato is InvalidArgumentToPrivateEntryFunction', () => {
      const tx = env.tx();
      const p = tx.moveCall(`${pkg}::h::potato`, [tx.pure('u64', 1)]);
      const v = tx.moveCall(`${pkg}::h::peek`, [p, tx.pure('u64', 5)]);
      tx.moveCall(`${pkg}::h::private_entry_value`, [v]);
      tx.moveCall(`${pkg}::h::eat`, [p]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 2, argIdx: 0, argKind: 'InvalidArgumentToPrivateEntryFunction' });
      // Once the potato is gone the clique cools down.
      const ok = env.tx();
      const q = ok.moveCall(`${pkg}::h::potato`, [ok.pure('u64', 1)]);
      const w = ok.moveCall(`${pkg}::h::peek`, [q, ok.pure('u64', 5)]);
      ok.moveCall(`${pkg}::h::eat`, [q]);
      ok.moveCall(`${pkg}::h::private_entry_value`, [w]);
      expectSuccess(env.execute(ok.build()));
      // Public entry functions are not restricted.
      const pub = env.tx();
      const r = pub.moveCall(`${pkg}::h::potato`, [pub.pure('u64', 1)]);
      const o = pub.moveCall(`${pkg}::h::new_obj`, [pub.moveCall(`${pkg}::h::peek`, [r, pub.pure('u64', 5)])]);
      pub.moveCall(`${pkg}::h::public_entry`, [o]);
      pub.moveCall(`${pkg}::h::eat`, [r]);
      pub.transferObjects([o], pub.pure('address', BOB));
      expectSuccess(env.execute(pub.build()));
    });

    it('a value entangled with a shared object taken by value is never fit for a private entry function', () => {
      const shared = makeObj(env, pkg, 3, { $kind: 'Shared' });
      const tx = env.tx();
      const v = tx.moveCall(`${pkg}::h::destroy`, [tx.object(shared)]);
      tx.moveCall(`${pkg}::h::private_entry_value`, [v]);
      expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'InvalidArgumentToPrivateEntryFunction' });
      // By reference, no post-execution check is incurred.
      const byRef = env.tx();
      const w = byRef.moveCall(`${pkg}::h::value`, [byRef.object(shared)]);
      byRef.moveCall(`${pkg}::h::private_entry_value`, [w]);
      expectSuccess(env.execute(byRef.build()));
    });

    it('a public function returning a reference is InvalidPublicFunctionReturnType; dev-inspect returns the value', () => {
      const obj = makeObj(env, pkg, 42);
      const strict = env.tx();
      strict.moveCall(`${pkg}::h::borrow_value`, [strict.object(obj)]);
      const out = env.execute(strict.build());
      expect(out.status.$kind === 'Failure' ? out.status.error : null).toEqual({ $kind: 'InvalidPublicFunctionReturnType', InvalidPublicFunctionReturnType: { idx: 0 } });
      const relaxed = env.tx();
      relaxed.moveCall(`${pkg}::h::borrow_value`, [relaxed.object(obj)]);
      const inspected = env.execute(relaxed.build(), { checks: 'relaxed' });
      expectSuccess(inspected);
      expect(inspected.commandResults[0].returnValues.map((v) => v.type)).toEqual(['u64']);
      expect(returned(env, inspected, 0)).toBe('42');
    });
  });

  describe('Publish and Upgrade', () => {
    it('Publish runs init with the one-time witness and returns the UpgradeCap', () => {
      const registry = env.getObject(registryId);
      expect(registry?.owner.$kind).toBe('Shared');
      expect(registry?.value).toMatchObject({ witnessed: true, creator: env.sender });
      const cap = env.getObject(capId);
      expect(cap?.owner).toEqual({ $kind: 'AddressOwner', address: env.sender });
      expect(cap?.value).toMatchObject({ package: { bytes: pkg }, version: '1', policy: 0 });
      expect(env.getObject(pkg)?.version).toBe('1');
      // init itself is not callable: no PTB value can be its one-time witness (input
      // arguments are verified before visibility, so the pure bool fails first).
      const tx = env.tx();
      tx.moveCall(`${pkg}::registry::init`, [tx.pure('bool', true)]);
      expect(failureOf(env.execute(tx.build()))).toMatchObject({ kind: 'CommandArgumentError', argKind: 'InvalidUsageOfPureArg' });
    });

    it('a published UpgradeCap left unused is UnusedValueWithoutDrop and nothing is published', async () => {
      const modules = await compileOnly(env, HELPER_SOURCES);
      const tx = env.tx();
      tx.publish(modules, ['0x1', '0x2']);
      const before = env.vm.packageIds().length;
      const out = env.execute(tx.build());
      expect(out.status.$kind === 'Failure' ? out.status.error : null).toEqual({ $kind: 'UnusedValueWithoutDrop', UnusedValueWithoutDrop: { resultIdx: 0, secondaryIdx: 0 } });
      expect(out.written.filter((w) => w.object.data.$kind === 'Package')).toEqual([]);
      expect(env.vm.packageIds().length).toBe(before);
    });

    it('Upgrade: authorize_upgrade → Upgrade → commit_upgrade makes version 2, whose new code runs on the original types', async () => {
      const source = HELPER_SOURCES['sources/h.move'].replace('module helper::h {', 'module helper::h {\n    public fun version(): u64 { 2 }');
      const modules = await compileOnly(env, { ...HELPER_SOURCES, 'sources/h.move': source });
      const deps = ['0x1', '0x2'].map((a) => canonicalAddress(a));
      const digest = packageDigest(modules, deps);
      const tx = env.tx();
      const cap = tx.object(capId);
      const ticket = tx.moveCall('0x2::package::authorize_upgrade', [cap, tx.pure('u8', 0), tx.pure('vector<u8>', Array.from(digest))]);
      const receipt = tx.upgrade(modules, deps, pkg, ticket);
      tx.moveCall('0x2::package::commit_upgrade', [cap, receipt]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      const upgraded = out.written.find((w) => w.kind === 'created' && w.object.data.$kind === 'Package');
      const newPkg = upgraded?.id as string;
      expect(newPkg).not.toBe(pkg);
      expect(env.getObject(newPkg)?.version).toBe('2');
      expect(env.getObject(capId)?.value).toMatchObject({ package: { bytes: newPkg }, version: '2' });
      const call = env.tx();
      call.moveCall(`${newPkg}::h::version`);
      const o = call.moveCall(`${newPkg}::h::new_obj`, [call.pure('u64', 1)]);
      call.transferObjects([o], call.pure('address', BOB));
      const ran = env.execute(call.build());
      expectSuccess(ran);
      expect(returned(env, ran, 0)).toBe('2');
      expect(createdOf(ran)[0].type).toBe(`${pkg}::h::Obj`);
    });

    it('an Upgrade whose modules do not match the ticket digest is PackageUpgradeError DigestDoesNotMatch', async () => {
      const fresh = await envWithHelper();
      const modules = await compileOnly(fresh.env, HELPER_SOURCES);
      const deps = ['0x1', '0x2'].map((a) => canonicalAddress(a));
      const tx = fresh.env.tx();
      const cap = tx.object(fresh.published.upgradeCapId);
      const ticket = tx.moveCall('0x2::package::authorize_upgrade', [cap, tx.pure('u8', 0), tx.pure('vector<u8>', Array(32).fill(7))]);
      const receipt = tx.upgrade(modules, deps, fresh.pkg, ticket);
      tx.moveCall('0x2::package::commit_upgrade', [cap, receipt]);
      const out = fresh.env.execute(tx.build());
      expect(failureOf(out)).toMatchObject({ kind: 'PackageUpgradeError', command: 1 });
      const e = out.status.$kind === 'Failure' ? (out.status.error as { PackageUpgradeError?: { upgradeError: { $kind: string; DigestDoesNotMatch?: { digest: Uint8Array | number[] } } } }) : null;
      expect(e?.PackageUpgradeError?.upgradeError.$kind).toBe('DigestDoesNotMatch');
      // The error carries the digest of the modules given, not the ticket's.
      expect(Array.from(e?.PackageUpgradeError?.upgradeError.DigestDoesNotMatch?.digest ?? [])).toEqual(Array.from(packageDigest(modules, deps)));
    });
  });

  describe('failures', () => {
    it('report the failing command and its abort; state stays as it was except gas and the inputs’ versions', () => {
      const gas = makeCoin(env, 10_000_000_000n);
      const obj = makeObj(env, pkg, 1);
      const shared = makeObj(env, pkg, 1, { $kind: 'Shared' });
      const frozen = makeObj(env, pkg, 1, { $kind: 'Immutable' });
      const before = { obj: env.getObject(obj), shared: env.getObject(shared), size: env.store.size };
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::set_value`, [tx.object(obj), tx.pure('u64', 99)]);
      tx.moveCall(`${pkg}::h::bump`, [tx.object(shared)]);
      tx.moveCall(`${pkg}::h::value`, [tx.object(frozen)]);
      const n = tx.moveCall(`${pkg}::h::new_obj`, [tx.pure('u64', 1)]);
      tx.transferObjects([n], tx.pure('address', BOB));
      tx.moveCall(`${pkg}::h::abort_with`, [tx.pure('u64', 7)]);
      const out = env.execute(tx.build(), { gasCoin: gas });
      expect(out.status.$kind === 'Failure' ? out.status.command : undefined).toBe(5);
      const err = out.status.$kind === 'Failure' ? (out.status.error as { MoveAbort?: [{ module: { name: string }; functionName: string | null }, bigint] }) : null;
      expect(err?.MoveAbort?.[1]).toBe(7n);
      expect(err?.MoveAbort?.[0].module.name).toBe('h');
      expect(err?.MoveAbort?.[0].functionName).toBe('abort_with');
      // Contents unchanged; mutable inputs (owned, shared, gas) bumped; nothing created.
      expect(objValue(env, obj)).toBe('1');
      expect(objValue(env, shared)).toBe('1');
      expect(env.getObject(obj)?.bcs).toBe(before.obj?.bcs);
      expect(env.getObject(obj)?.version).toBe('2');
      expect(env.getObject(shared)?.version).toBe('2');
      expect(env.getObject(frozen)?.version).toBe('1');
      expect(env.store.size).toBe(before.size);
      expect(out.written.map((w) => w.kind)).toEqual(['mutated', 'mutated', 'mutated']);
      const g = out.gasUsed;
      expect(g.computationCost).toBeGreaterThan(0n);
      expect(balanceOf(env, gas)).toBe(10_000_000_000n - (g.computationCost + g.storageCost - g.storageRebate));
      expect(out.events).toEqual([]);
    });
  });

  describe('order of checks', () => {
    it('a static error in a later command wins over an abort in an earlier one (the PTB is verified before it runs)', () => {
      const bcs = env.tx();
      bcs.moveCall(`${pkg}::h::abort_with`, [bcs.pure('u64', 7)]);
      bcs.moveCall(`${pkg}::h::add`, [bcs.pure('u64', 1), bcs.pureBytes(new Uint8Array(3))]);
      expect(failureOf(env.execute(bcs.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 1, argKind: 'InvalidBCSBytes' });
      const unused = env.tx();
      unused.moveCall(`${pkg}::h::abort_with`, [unused.pure('u64', 7)]);
      unused.moveCall(`${pkg}::h::potato`, [unused.pure('u64', 1)]);
      expect(failureOf(env.execute(unused.build())).kind).toBe('UnusedValueWithoutDrop');
    });
  });

  describe('versions', () => {
    it('every written object gets the lamport version: 1 + the highest input version (immutable inputs count)', () => {
      const a = env.createObject({ type: `${pkg}::h::Obj`, fields: { value: 1 }, version: 5n }).id;
      const b = env.createObject({ type: `${pkg}::h::Obj`, fields: { value: 1 }, version: 2n }).id;
      const frozen = env.createObject({ type: `${pkg}::h::Obj`, fields: { value: 1 }, version: 9n, owner: { $kind: 'Immutable' } }).id;
      const tx = env.tx();
      tx.moveCall(`${pkg}::h::bump`, [tx.object(a)]);
      tx.moveCall(`${pkg}::h::bump`, [tx.object(b)]);
      tx.moveCall(`${pkg}::h::value`, [tx.object(frozen)]);
      tx.moveCall(`${pkg}::h::mint`, [tx.pure('u64', 1), tx.pure('address', BOB)]);
      const out = env.execute(tx.build());
      expectSuccess(out);
      const lamport = out.effects.$kind === 'V2' ? out.effects.V2.lamportVersion : null;
      expect(lamport).toBe(10n);
      for (const w of out.written) expect(w.object.data.$kind === 'Move' ? w.object.data.Move.version : null).toBe(10n);
      expect(out.written.map((w) => w.kind).sort()).toEqual(['created', 'mutated', 'mutated', 'mutated']);
      expect(env.getObject(frozen)?.version).toBe('9');
    });
  });
});

describeWithFixtures('PTB executor: protocol 100 (before static PTB checks)', ['fixtures', 'framework-snapshots'], () => {
  let env: SimulationEnvironment;
  let pkg: string;
  beforeAll(async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT, 100);
    env = SimulationEnvironment.create({ packages, protocolConfig });
    // Before protocol 108 Sui's entry-point verifier allows only primitives and objects as
    // entry parameters, so the entry function taking a hot potato is left out.
    const files = Object.fromEntries(Object.entries(HELPER_SOURCES).map(([name, text]) => [name, text.replace(/^.*entry fun private_entry_eat.*$/m, '')]));
    pkg = (await compileAndPublish(env, { files })).packageId;
  });

  it('a private entry function refuses any value returned by an earlier Move call', () => {
    const tx = env.tx();
    const s = tx.moveCall(`${pkg}::h::add`, [tx.pure('u64', 2), tx.pure('u64', 3)]);
    tx.moveCall(`${pkg}::h::private_entry_value`, [s]);
    expect(failureOf(env.execute(tx.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'InvalidArgumentToPrivateEntryFunction' });
    const pure = env.tx();
    pure.moveCall(`${pkg}::h::private_entry_value`, [pure.pure('u64', 5)]);
    expectSuccess(env.execute(pure.build()));
  });

  it('an object last mutated by a non-entry call is refused; a public entry call that mutates it clears that', () => {
    const obj = makeObj(env, pkg, 1);
    const tainted = env.tx();
    const t = tainted.object(obj);
    tainted.moveCall(`${pkg}::h::bump`, [t]);
    tainted.moveCall(`${pkg}::h::private_entry`, [t, tainted.pure('u64', 9)]);
    expect(failureOf(env.execute(tainted.build()))).toEqual({ kind: 'CommandArgumentError', command: 1, argIdx: 0, argKind: 'InvalidArgumentToPrivateEntryFunction' });
    const cleared = env.tx();
    const o = cleared.object(obj);
    cleared.moveCall(`${pkg}::h::bump`, [o]);
    cleared.moveCall(`${pkg}::h::public_entry`, [o]);
    cleared.moveCall(`${pkg}::h::private_entry`, [o, cleared.pure('u64', 9)]);
    expectSuccess(env.execute(cleared.build()));
    expect(objValue(env, obj)).toBe('9');
  });

  it('commands run in order: an abort comes before a later command’s bad argument', () => {
    const tx = env.tx();
    tx.moveCall(`${pkg}::h::abort_with`, [tx.pure('u64', 7)]);
    tx.moveCall(`${pkg}::h::add`, [tx.pure('u64', 1), tx.pureBytes(new Uint8Array(3))]);
    expect(failureOf(env.execute(tx.build()))).toMatchObject({ kind: 'MoveAbort', command: 0 });
  });
});

/**
 * Phase II's local simulation counts the objects a plan creates and wraps in the same
 * transaction (Sui's effects omit them): in `createdTypes`, and apart in `createdWrappedTypes`.
 */
import { beforeAll, expect, it } from 'vitest';
import { packageFromBytes } from '@smi/bytecode';
import { compileMovePackage } from '@smi/move-compiler';
import { fromFixtures } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { LocalSimulation } from '../src/phase2/local.js';
import { normalizePlan } from '@smi/inhabit';
import { parsePlan } from '@smi/inhabit';
import { scoreInhabitation } from '../src/phase2/score.js';

const PKG = '0x' + 'ab5'.padStart(64, '0');
const SOURCE = `module nest::nest;

public struct Inner has key, store { id: UID, v: u64 }
public struct Outer has key { id: UID, inner: Inner, list: vector<Inner> }

fun inner(v: u64, ctx: &mut TxContext): Inner { Inner { id: object::new(ctx), v } }

public fun make_outer(ctx: &mut TxContext) {
    transfer::transfer(Outer { id: object::new(ctx), inner: inner(1, ctx), list: vector[inner(2, ctx)] }, ctx.sender());
}
`;

describeWithFixtures('Phase II local simulation: created and wrapped objects', ['fixtures', 'framework'], () => {
  const SENDER = '0x' + 'a11ce'.padStart(64, '0');
  let sim: LocalSimulation;

  beforeAll(async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    const framework = packages.filter((p) => ['0x1', '0x2'].some((a) => BigInt(p.id) === BigInt(a)));
    const compiled = await compileMovePackage({
      files: { 'Move.toml': '[package]\nname = "nest"\nedition = "2024"\n\n[addresses]\nnest = "0x0"\n', 'sources/nest.move': SOURCE },
      dependencies: framework.map((p) => ({ name: BigInt(p.id) === 1n ? 'MoveStdlib' : 'Sui', address: p.originalId, modules: p.modules.map((m) => m.module) })),
      address: PKG,
    });
    sim = LocalSimulation.prepare(PKG, {
      packages: [
        ...framework,
        packageFromBytes(
          compiled.modules.map((m) => m.bytes),
          { id: PKG },
        ),
      ],
      protocolConfig,
      sender: SENDER,
      publisher: SENDER,
      senderCoins: 1,
      coinBalance: 10_000_000_000n,
      gasBudgets: [50_000_000n],
    });
  }, 60_000);

  it('counts the wrapped Inners beside the Outer in createdTypes, and lists them in createdWrappedTypes', () => {
    const r = sim.run(parsePlan(normalizePlan({ calls: [{ target: `${PKG}::nest::make_outer`, args: [] }] }).spec));
    const inner = `${PKG}::nest::Inner`;
    const outer = `${PKG}::nest::Outer`;
    expect(r).toMatchObject({ ok: true, status: 'success', createdWrappedTypes: [inner, inner], createdTypes: [inner, inner, outer].sort() });
    expect(scoreInhabitation([inner, outer], r.createdTypes)).toMatchObject({ targets: 2, created_hits: 2 });
  });

  it('a plan that fails has no created types of either kind', () => {
    const r = sim.run(parsePlan(normalizePlan({ calls: [{ target: `${PKG}::nest::nope`, args: [] }] }).spec));
    expect(r).toMatchObject({ txBuildOk: true, ok: false, status: 'failure', createdTypes: [], createdWrappedTypes: [] });
  });
});

/**
 * Phase II plans: the original's normalization (correction names and counts), its causality
 * messages, the typed parse with every argument kind, and plans run on a local simulation of a
 * package of our own (init objects, publisher-owned caps, sender coins, gas ladder, scoring).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { packageFromBytes } from '@smi/bytecode';
import { compileMovePackage } from '@smi/move-compiler';
import { fromFixtures } from '@smi/simulation';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { LocalSimulation } from '../src/phase2/local.js';
import { normalizePlan, validateCausality } from '@smi/inhabit';
import { parsePlan } from '@smi/inhabit';
import { canonicalBaseType, normalizeTypeString, scoreInhabitation } from '../src/phase2/score.js';
import { listPlans, phase2Package, planVariants } from '../src/phase2/worker.js';

describe('plan normalization and causality, as the original', () => {
  it('corrects what models get wrong, with the original correction names and counts; integers stay exact', () => {
    const r = normalizePlan({
      calls: [
        {
          target: '0x2::m::f',
          args: [
            { object: 'abc' },
            { object_id: '0xdef' },
            { u64: '100' },
            { u256: '115792089237316195423570985008687907853269984665640564039457584007913129639935' },
            { vector_u64: ['1', 2] },
            { address: '1f' },
            { shared_object: { id: '6', mutable: 'false' } },
            { $smi_placeholder: '0x2::coin::Coin<0x2::sui::SUI>' },
          ],
        },
        { target: '0x2::m::g', args: [{ result: '0' }, { nested_result: ['0', '1'] }] },
      ],
    });
    expect(r.corrections).toEqual([
      'call[0].args[0]: arg_kind_object_to_imm_or_owned',
      'call[0].args[0]: address_missing_0x_prefix',
      'call[0].args[1]: arg_kind_object_id_to_imm_or_owned',
      'call[0].args[2]: integer_string_to_int',
      'call[0].args[3]: integer_string_to_int',
      'call[0].args[4]: integer_string_to_int',
      'call[0].args[5]: address_missing_0x_prefix',
      'call[0].args[6].shared_object: address_missing_0x_prefix',
      'call[0].args[6].shared_object: boolean_string_to_bool',
      'call[1].args[0]: result_ref_string_to_int',
      'call[1].args[1]: nested_result_string_to_int',
      'placeholder: $smi_placeholder',
    ]);
    expect(r.correctionCounts).toEqual({
      arg_kind_object_to_imm_or_owned: 1,
      address_missing_0x_prefix: 3,
      arg_kind_object_id_to_imm_or_owned: 1,
      integer_string_to_int: 3,
      boolean_string_to_bool: 1,
      result_ref_string_to_int: 1,
      nested_result_string_to_int: 1,
      placeholder: 1,
    });
    const args = (r.spec as { calls: { args: Record<string, unknown>[] }[] }).calls[0].args;
    expect(args[0]).toEqual({ imm_or_owned_object: '0x' + 'abc'.padStart(64, '0') });
    expect(args[2]).toEqual({ u64: 100 });
    // 2^256-1 is not clamped to 2^63-1 (the original's safe_parse_int did).
    expect(args[3]).toEqual({ u256: '115792089237316195423570985008687907853269984665640564039457584007913129639935' });
    expect(args[6]).toEqual({ shared_object: { id: '0x' + '6'.padStart(64, '0'), mutable: false } });
  });

  it('causality: references must point to earlier calls, with the original messages and score', () => {
    const v = validateCausality({
      calls: [
        { target: 'a', args: [{ result: 0 }, { nested_result: [1, 0] }] },
        { target: 'b', args: [{ result: 0 }, { result: -1 }, { result: 'x' }, 7] },
      ],
    });
    expect(v.errors).toEqual([
      "Causality violation in call 0: references result 0 which hasn't been produced yet",
      "Causality violation in call 0: nested_result references result 1 which hasn't been produced yet",
      'Result index in call 1, arg 1 cannot be negative (got -1)',
      'Result index in call 1, arg 2 must be an integer (got str)',
      'Argument 3 in call 1 must be a dictionary',
    ]);
    expect(v).toMatchObject({ valid: false, callCount: 2, resultReferencesValid: 1, resultReferencesTotal: 5, causalityScore: 0.2 });
    expect(validateCausality({ calls: [] })).toMatchObject({ valid: true, causalityScore: 1 });
    expect(validateCausality([]).errors).toEqual(['PTB spec must be a dictionary']);
    expect(validateCausality({}).errors).toEqual(["PTB spec must contain a 'calls' list"]);
  });

  it('parses every argument kind, and names the ones it does not know', () => {
    const plan = parsePlan({
      calls: [
        {
          target: '0x2::m::f',
          type_args: ['0x2::sui::SUI'],
          args: [
            { u8: 1 },
            { u16: 2 },
            { u32: 3 },
            { u64: 4 },
            { u128: '5' },
            { u256: 6 },
            { bool: true },
            { address: '0x1' },
            { vector_u8_utf8: 'hi' },
            { vector_u8_hex: '0x0102' },
            { vector_u128: [1] },
            { vector_u256: [2] },
            { vector_address: ['0x2'] },
            { pure: '0x0a' },
            { gas_coin: true },
            { sender_sui_coin: { index: 0 } },
            { imm_or_owned_object: '0x5' },
            { shared_object: { id: '0x6', mutable: false } },
          ],
        },
      ],
    });
    expect(plan.calls[0].target).toBe(`0x${'2'.padStart(64, '0')}::m::f`);
    expect(plan.calls[0].args.map((a) => a.$kind)).toEqual([...Array(13).fill('Pure'), 'PureBytes', 'GasCoin', 'SenderSuiCoin', 'ImmOrOwnedObject', 'SharedObject']);
    expect(() => parsePlan({ calls: [{ target: '0x2::m::f', args: [{ string: 'x' }] }] })).toThrow('unsupported PTB arg kind: string');
    expect(() => parsePlan({ calls: [{ target: '0x2::m::f', args: [{ u8: 256 }] }] })).toThrow(/does not fit in u8/);
    expect(() => parsePlan({ calls: [{ target: 'nope', args: [] }] })).toThrow(/target must be 0xADDR::module::function/);
  });

  it('scores by base type with addresses padded', () => {
    expect(normalizeTypeString('0x2::coin::Coin<0x2::sui::SUI>')).toBe(`0x${'2'.padStart(64, '0')}::coin::Coin<0x${'2'.padStart(64, '0')}::sui::SUI>`);
    expect(canonicalBaseType('0xA::m::S<u64>')).toBe(`0x${'a'.padStart(64, '0')}::m::S`);
    expect(scoreInhabitation(['0x1::m::A', '0x1::m::B<u8>'], ['0x1::m::B<u64>', '0x1::m::C'])).toMatchObject({ targets: 2, created_distinct: 2, created_hits: 1, missing: 1 });
  });
});

const PKG = '0x' + 'c0ffee'.padStart(64, '0');
const SOURCE = `module demo::things;

public struct Thing has key, store { id: UID, v: u64 }
public struct Registry has key { id: UID, count: u64 }
public struct AdminCap has key, store { id: UID }
public struct THINGS has drop {}

fun init(_w: THINGS, ctx: &mut TxContext) {
    transfer::share_object(Registry { id: object::new(ctx), count: 0 });
    transfer::public_transfer(AdminCap { id: object::new(ctx) }, ctx.sender());
}

public fun make(v: u64, ctx: &mut TxContext): Thing { Thing { id: object::new(ctx), v } }
public entry fun mint(v: u64, ctx: &mut TxContext) { transfer::public_transfer(make(v, ctx), ctx.sender()) }
public fun register(r: &mut Registry, t: &Thing) { assert!(t.v > 0, 7); r.count = r.count + 1 }
public fun admin_mint(_c: &AdminCap, ctx: &mut TxContext): Thing { make(1, ctx) }
public fun burn_loop(n: u64) { let mut i = 0; while (i < n) { i = i + 1 } }
`;

/** A local simulation of the demo package (compiled at PKG) with the sender's coins and gas budgets given. */
async function demoSimulation(sender: string, senderCoins: number, gasBudgets: bigint[]): Promise<LocalSimulation> {
  const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const framework = packages.filter((p) => ['0x1', '0x2'].some((a) => BigInt(p.id) === BigInt(a)));
  const compiled = await compileMovePackage({
    files: { 'Move.toml': '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n', 'sources/things.move': SOURCE },
    dependencies: framework.map((p) => ({ name: BigInt(p.id) === 1n ? 'MoveStdlib' : 'Sui', address: p.originalId, modules: p.modules.map((m) => m.module) })),
    address: PKG,
  });
  return LocalSimulation.prepare(PKG, {
    packages: [
      ...framework,
      packageFromBytes(
        compiled.modules.map((m) => m.bytes),
        { id: PKG },
      ),
    ],
    protocolConfig,
    sender,
    publisher: '0x' + 'b0b'.padStart(64, '0'),
    senderCoins,
    coinBalance: 10_000_000_000n,
    gasBudgets,
  });
}

describeWithFixtures('plans on a local simulation', ['fixtures', 'framework'], () => {
  let sim: LocalSimulation;
  const SENDER = '0x' + 'a11ce'.padStart(64, '0');
  const thing = `${PKG}::things::Thing`;
  const run = (calls: unknown[]) => sim.run(parsePlan(normalizePlan({ calls }).spec));

  beforeAll(async () => {
    sim = await demoSimulation(SENDER, 2, [1_000_000n, 50_000_000n]);
  }, 60_000);

  it('the publish ran init: the Registry is shared, the AdminCap went to the publisher', () => {
    expect(sim.initFailures).toEqual([]);
    const inv = sim.inventory();
    expect(inv.get(`${PKG}::things::Registry`)).toHaveLength(1);
    expect(inv.get(`${PKG}::things::AdminCap`)).toHaveLength(1);
    expect(sim.resolvePlaceholder(`${PKG}::things::AdminCap`)).toBeUndefined();
    expect(sim.resolvePlaceholder(`${PKG}::things::Registry`)).toBeDefined();
  });

  it('an entry call creates its object; the score counts it', () => {
    const r = run([{ target: `${PKG}::things::mint`, type_args: [], args: [{ u64: '5' }] }]);
    expect(r).toMatchObject({ txBuildOk: true, ok: true, status: 'success', createdTypes: [thing] });
    expect(scoreInhabitation([thing, `${PKG}::things::Registry`], r.createdTypes)).toMatchObject({ created_hits: 1, targets: 2 });
  });

  it('results chain into later calls; a shared object from init and a placeholder resolve', () => {
    const r = run([
      { target: `${PKG}::things::make`, args: [{ u64: 3 }] },
      { target: `${PKG}::things::register`, args: [{ $smi_placeholder: `${PKG}::things::Registry` }, { result: 0 }] },
      { target: '0x2::transfer::public_transfer', type_args: [thing], args: [{ result: 0 }, { address: SENDER }] },
    ]);
    expect(r.error).toBeNull();
    expect(r.createdTypes).toEqual([thing]);
  });

  it('an abort reports its code and place; an object owned by the publisher cannot be used', () => {
    const r = run([
      { target: `${PKG}::things::make`, args: [{ u64: 0 }] },
      { target: `${PKG}::things::register`, args: [{ shared_object: { id: sim.resolvePlaceholder(`${PKG}::things::Registry`)!, mutable: true } }, { result: 0 }] },
      { target: '0x2::transfer::public_transfer', type_args: [thing], args: [{ result: 0 }, { address: SENDER }] },
    ]);
    expect(r).toMatchObject({ ok: false, status: 'failure', effectsError: 'MoveAbort', abortCode: 7, abortLocation: `${PKG}::things::register` });
    const cap = [...sim.inventory().get(`${PKG}::things::AdminCap`)!][0];
    const c = run([{ target: `${PKG}::things::admin_mint`, args: [{ imm_or_owned_object: cap }] }]);
    expect(c.ok).toBe(false);
    expect(c.error).toMatch(/owned|owner/i);
  });

  it('sender coins pay and split; out of gas climbs the gas ladder, and only then', () => {
    const split = run([
      { target: '0x2::coin::split', type_args: ['0x2::sui::SUI'], args: [{ sender_sui_coin: { index: 0 } }, { u64: 1000 }] },
      { target: '0x2::transfer::public_transfer', type_args: ['0x2::coin::Coin<0x2::sui::SUI>'], args: [{ result: 0 }, { address: SENDER }] },
    ]);
    expect(split).toMatchObject({ ok: true, createdTypes: [`0x${'2'.padStart(64, '0')}::coin::Coin<0x${'2'.padStart(64, '0')}::sui::SUI>`] });
    // 0.001 SUI does not pay for a loop of 20,000 rounds: the second budget does.
    const loop = run([{ target: `${PKG}::things::burn_loop`, args: [{ u64: 20000 }] }]);
    expect(loop).toMatchObject({ ok: true, attempts: 2, gasBudgetUsed: 50_000_000 });
    const abort = run([{ target: `${PKG}::things::register`, args: [{ $smi_placeholder: `${PKG}::things::Registry` }, { imm_or_owned_object: '0x1' }] }]);
    expect(abort.ok).toBe(false);
    expect(abort.attempts).toBeLessThanOrEqual(1);
  });
});

describeWithFixtures('a Phase II package: variants, best plan, the row', ['fixtures', 'framework'], () => {
  let sim: LocalSimulation;
  const SENDER = '0x' + 'a11ce'.padStart(64, '0');
  const thing = `${PKG}::things::Thing`;
  const registry = `${PKG}::things::Registry`;
  beforeAll(async () => {
    sim = await demoSimulation(SENDER, 1, [50_000_000n]);
  }, 60_000);

  it("the original's variants: addresses to the sender, integers to 0/2/10/100, duplicates dropped, capped", () => {
    const spec: Parameters<typeof planVariants>[0] = { calls: [{ target: 'x', args: [{ u64: 5 }, { address: '0x1' }, { vector_u8: [1] }] }] };
    const v = planVariants(spec, SENDER, 6);
    expect(v.map((x) => x.name)).toEqual(['base', 'addr_sender', 'ints_0', 'ints_2', 'ints_10', 'ints_100']);
    expect((v[1].spec as { calls: { args: unknown[] }[] }).calls[0].args[1]).toEqual({ address: SENDER });
    expect((v[3].spec as { calls: { args: unknown[] }[] }).calls[0].args).toEqual([{ u64: 2 }, { address: '0x1' }, { vector_u8: [2] }]);
    expect(planVariants({ calls: [{ target: 'x', args: [] }] }, SENDER, 6).map((x) => x.name)).toEqual(['base']);
    expect(planVariants(spec, SENDER, 2)).toHaveLength(2);
  });

  it('keeps the best variant: base aborts (v = 0), ints_2 registers and hits', async () => {
    const row = await phase2Package({
      packageId: PKG,
      targets: [thing, registry],
      source: listPlans([
        {
          calls: [
            { target: `${PKG}::things::make`, args: [{ u64: 0 }] },
            { target: `${PKG}::things::register`, args: [{ $smi_placeholder: registry }, { result: 0 }] },
            { target: '0x2::transfer::public_transfer', type_args: [thing], args: [{ result: 0 }, { address: '0x5' }] },
          ],
        },
      ]),
      sim,
      mode: 'local',
      maxVariants: 4,
    });
    expect(row).toMatchObject({
      score: { targets: 2, created_distinct: 1, created_hits: 1, missing: 1 },
      error: null,
      dry_run_ok: true,
      plan_variant: 'ints_2',
      plan_attempts: 1,
      causality_valid: true,
      formatting_corrections_histogram: { placeholder: 1 },
      hit_types: [thing],
      synthetic: false,
    });
    expect(row.sim_attempts).toBe(4);
  });

  it('a causality error is reported and scores nothing; mock-perfect is labelled synthetic; no plan says so', async () => {
    const bad = await phase2Package({
      packageId: PKG,
      targets: [thing],
      source: listPlans([{ calls: [{ target: `${PKG}::things::mint`, args: [{ result: 0 }] }] }]),
      sim,
      mode: 'local',
      maxVariants: 4,
    });
    expect(bad).toMatchObject({ causality_valid: false, causality_score: 0, score: { created_hits: 0 }, dry_run_ok: false });
    expect(bad.error).toMatch(/^causality: Causality violation in call 0/);
    const perfect = await phase2Package({ packageId: PKG, targets: [thing], source: listPlans([]), sim, mode: 'local', maxVariants: 4, perfect: true });
    expect(perfect).toMatchObject({ synthetic: true, score: { created_hits: 1, targets: 1 }, dry_run_ok: true });
    const empty = await phase2Package({ packageId: PKG, targets: [thing], source: listPlans([]), sim, mode: 'local', maxVariants: 4 });
    expect(empty).toMatchObject({ error: 'the agent gave no plan', score: { created_hits: 0 } });
    const mint = await phase2Package({
      packageId: PKG,
      targets: [thing],
      source: listPlans([{ calls: [{ target: `${PKG}::things::mint`, args: [{ u64: 1 }] }] }]),
      sim,
      mode: 'local',
      maxVariants: 1,
    });
    // The original's static scan: mint hands a Thing to transfer::public_transfer in its own body.
    expect(mint).toMatchObject({ dry_run_ok: true, created_object_types_list: [thing], static_created_object_types: [thing] });
    const buildOnly = await phase2Package({
      packageId: PKG,
      targets: [thing],
      source: listPlans([{ calls: [{ target: `${PKG}::things::mint`, args: [{ u64: 1 }] }] }]),
      sim,
      mode: 'build-only',
      maxVariants: 1,
    });
    expect(buildOnly).toMatchObject({ tx_build_ok: true, dry_run_ok: false, score: { created_hits: 0 } });
  });
});

/**
 * The benchmark on the demo package: every situation of the stages, the row schema, the
 * replay of every Tier B row in a fresh sandbox session, and rows that do not depend on
 * the order targets run in.
 */
import { beforeAll, expect, it } from 'vitest';
import { packageFromBytes, serializeModule } from '@smi/bytecode';
import { Benchmark, type BenchmarkOptions, type BenchmarkRow, rowLine } from '@smi/inhabit';
import { SandboxSession } from '@smi/simulation';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { DEMO, demoPackage, framework, rowOf } from './support.js';

let demoCompiled: Awaited<ReturnType<typeof demoPackage>> | null = null;
function demoModule(): Awaited<ReturnType<typeof demoPackage>>['modules'][number]['module'] {
  if (demoCompiled === null) throw new Error('demo package not compiled yet');
  return demoCompiled.modules[0].module;
}

async function run(options: Partial<BenchmarkOptions> = {}, reverse = false): Promise<BenchmarkRow[]> {
  const demo = await demoPackage();
  const bench = await Benchmark.create({ ...framework(), targets: [demo], usePtb: true, timings: false, ...options });
  const targets = bench.targets();
  const rows: BenchmarkRow[] = new Array(targets.length);
  for (const t of reverse ? [...targets].reverse() : targets) rows[t.index] = await bench.runTarget(t);
  return rows;
}

describeWithFixtures('benchmark: the demo package, Tier A and B', ['fixtures', 'framework'], () => {
  let rows: BenchmarkRow[];
  beforeAll(async () => {
    demoCompiled = await demoPackage();
    rows = await run();
  }, 120_000);

  it('one row per public or entry function, in definition order; init, package and private functions are not targets', () => {
    const names = rows.map((r) => r.target_function);
    expect(names).toContain('private_entry');
    for (const n of ['init', 'package_only', 'private_only', 'make_secret']) expect(names).not.toContain(n);
    expect(rows.every((r) => r.target_package === DEMO && r.target_module === 'shop')).toBe(true);
  });

  it('constructor chains feed the target in one PTB (Result/NestedResult), with real return types', () => {
    const fee = rowOf(rows, 'fee_of');
    expect(fee).toMatchObject({ status: 'tier_b_hit', provenance: 'chain' });
    expect(fee.tier_a_details?.resolved_params).toEqual(['constructible_ref_hop1:&shop::Config']);
    const ptb = fee.transactions?.at(-1) as { commands: { type: string; function?: string; args?: unknown[] }[] };
    expect(ptb.commands.map((c) => c.function)).toEqual(['new_config', 'fee_of']);
    expect(ptb.commands[1].args).toEqual([{ nested_result: [0, 0] }]);
    const two = rowOf(rows, 'unwrap_fee');
    expect(two).toMatchObject({ status: 'tier_b_hit' });
    expect(two.tier_a_details?.resolved_params).toEqual(['constructible_ref_hop2:&shop::Wrapped']);
    expect(rowOf(rows, 'finish_purchase')).toMatchObject({ status: 'tier_b_hit', provenance: 'chain' });
  });

  it('objects the init created (a capability sent to the sender, a shared object) are usable, and say so', () => {
    const add = rowOf(rows, 'add_item');
    expect(add).toMatchObject({ status: 'tier_b_hit', provenance: 'init_state' });
    expect(add.tier_a_details?.resolved_params).toEqual(['init_state:&shop::AdminCap', 'init_state:&mut shop::Shop', 'construct_hop1:shop::Item']);
    expect(add.transactions?.some((t) => (t as { action: string; modules?: string[] }).action === 'init_package')).toBe(true);
  });

  it('a Coin<SUI> comes from the gas coin; returned objects are sent to the sender', () => {
    const buy = rowOf(rows, 'buy');
    expect(buy).toMatchObject({ status: 'tier_b_hit', provenance: 'init_state' });
    expect(buy.tier_a_details?.resolved_params[1]).toBe('gas_coin:coin::Coin');
    expect(buy.created_object_types).toContain(`${DEMO}::shop::Item`);
  });

  it('a setup transaction makes an object a function shares or freezes, used by the next transaction', () => {
    const post = rowOf(rows, 'post');
    expect(post).toMatchObject({ status: 'tier_b_hit', provenance: 'chain' });
    expect(post.tier_a_details?.resolved_params).toEqual(['setup_hop1:&mut shop::Board']);
    const txs = post.transactions?.filter((t) => (t as { action: string }).action === 'execute_ptb') ?? [];
    expect(txs).toHaveLength(2);
    expect(rowOf(rows, 'read_plaque')).toMatchObject({ status: 'tier_b_hit' });
  });

  it('type arguments meet their constraints and are recorded', () => {
    const keep = rowOf(rows, 'keep');
    expect(keep.status).toBe('tier_b_hit');
    expect(keep.type_args).toEqual([
      { type: '0x0000000000000000000000000000000000000000000000000000000000000002::coin::Coin<0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI>', reason: 'default' },
    ]);
  });

  it('pure values of every kind, the clock, private entry functions', () => {
    for (const n of ['name_len', 'now', 'private_entry']) expect(rowOf(rows, n).status, n).toBe('tier_b_hit');
    expect(rowOf(rows, 'now').tier_a_details?.resolved_params).toEqual(['synthesizable:Clock']);
  });

  it('a value the transaction can neither drop nor send is given to a public function that takes it, and the transaction stays strict', () => {
    const r = rowOf(rows, 'leave_receipt');
    expect(r.status).toBe('tier_b_hit');
    expect(r.tier_b_details).toMatchObject({ checks: 'strict', consumed_by: ['shop::finish_purchase'] });
    expect(r.tier_b_details?.undisposable).toBeUndefined();
    const ptb = r.transactions?.at(-1) as { commands: { function?: string; args?: unknown[] }[] };
    expect(ptb.commands.map((c) => c.function)).toEqual(['leave_receipt', 'new_config', 'finish_purchase']);
    expect(ptb.commands[2].args?.[0]).toEqual({ nested_result: [0, 0] });
  });

  it('a value nothing takes: the transaction runs relaxed, and the row says so (a loose hit, not a real one)', () => {
    const r = rowOf(rows, 'issue_ticket');
    expect(r.status).toBe('tier_b_hit');
    expect(r.tier_b_details).toMatchObject({ checks: 'relaxed', undisposable: [`${DEMO}::shop::Ticket`] });
  });

  it('a value the code compares an input with is passed on a later attempt, and the row says which', () => {
    const r = rowOf(rows, 'needs_42');
    expect(r).toMatchObject({ status: 'tier_b_hit', tier_b_details: { attempts: 2, learned_values: { '0': '42' } } });
    const ptb = r.transactions?.at(-1) as { inputs: { value: unknown }[] };
    expect(ptb.inputs[0].value).toBe('42');
  });

  it('a sequence: a function that reads a registry runs after one that registers in it, on the same shared object, in one PTB', () => {
    const r = rowOf(rows, 'lookup');
    expect(r).toMatchObject({ status: 'tier_b_hit', provenance: 'init_state', hit_class: 'structured', tier_b_details: { checks: 'strict', sequence: ['shop::register'] } });
    const ptb = r.transactions?.at(-1) as { inputs: { type: string; object_id?: string }[]; commands: { function?: string; args?: unknown[] }[] };
    expect(ptb.commands.map((c) => c.function)).toEqual(['register', 'lookup']);
    // The same input object for both calls, and the same key.
    expect(ptb.commands[0].args?.[0]).toEqual(ptb.commands[1].args?.[0]);
    expect(ptb.inputs.filter((i) => i.type === 'object')).toHaveLength(1);
  });

  it('a constructor that aborts is replaced by another constructor of the type', () => {
    const r = rowOf(rows, 'token_value');
    expect(r).toMatchObject({ status: 'tier_b_hit', tier_a_details: { resolved_params: ['constructible_ref_hop1:&shop::Token'] } });
    const ptb = r.transactions?.at(-1) as { commands: { function?: string }[] };
    expect(ptb.commands.map((c) => c.function)).toEqual(['mint_token', 'token_value']);
    expect(rowOf(rows, 'mint_token_checked').status).toBe('tier_a_hit');
  });

  it('a byte vector of the length the code compares it with', () => {
    const r = rowOf(rows, 'check_key');
    expect(r.status).toBe('tier_b_hit');
    const ptb = r.transactions?.at(-1) as { inputs: { value: string }[] };
    expect(Buffer.from(ptb.inputs[0].value.slice(2), 'hex')).toHaveLength(32);
  });

  it('hits record how much of the target ran: every instruction of straight-line code, part of code with a failure branch', () => {
    const demo = rowOf(rows, 'post').tier_b_details?.coverage;
    expect(demo).toEqual({ executed: 9, total: 9 });
    const buy = rowOf(rows, 'buy').tier_b_details?.coverage;
    // The bytecode's own length, read independently of the benchmark.
    const module = demoModule();
    const def = module.functionDefs.find((d) => module.identifiers[module.functionHandles[d.function].name] === 'buy');
    expect(buy?.total).toBe(def?.code?.code.length);
    expect(buy?.executed).toBeGreaterThan(0);
    expect(buy?.executed).toBeLessThan(buy?.total ?? 0);
    expect(rowOf(rows, 'never_thirds').tier_b_details?.coverage).toBeUndefined();
  });

  it('an index out of a vector is a vector_bounds_error, located in the function', () => {
    expect(rowOf(rows, 'pick')).toMatchObject({ failure_stage: 'B2', abort: { code: null, location: 'shop::pick', category: 'vector_bounds_error' } });
  });

  it('failures say whose limitation they are', () => {
    expect(rowOf(rows, 'never_thirds')).toMatchObject({ error_source: 'target_package_limitation', is_expected_limitation: false });
    // An abort on a forged input says nothing about the target.
    expect(rowOf(rows, 'burn_secret')).toMatchObject({ failure_stage: 'B2', provenance: 'synthesized', error_source: 'harness_limitation', is_expected_limitation: true });
    expect(rowOf(rows, 'spin')).toMatchObject({ error_source: 'unsupported', is_expected_limitation: true });
    expect(rowOf(rows, 'set_clock')).toMatchObject({ error_source: 'target_package_limitation', is_expected_limitation: false });
  });

  it('value profiles are tried in turn: a function that needs large values succeeds on a later attempt', () => {
    expect(rowOf(rows, 'needs_large').tier_b_details).toMatchObject({ execution_success: true, attempts: 3, value_profile: 'large' });
  });

  it('B2: an abort keeps its code, location and category; status stays tier_a_hit', () => {
    const r = rowOf(rows, 'never_thirds');
    expect(r).toMatchObject({ status: 'tier_a_hit', failure_stage: 'B2', error_code: 'E403', abort: { code: '7', location: 'shop::never_thirds', category: 'assertion_failed' } });
    // Every value profile was tried; the first failure is reported.
    expect(r.tier_b_details?.attempts).toBeGreaterThanOrEqual(3);
    expect(r.tier_b_details?.value_profile).toBe('one');
    expect(rowOf(rows, 'always_underflow').abort?.category).toBe('arithmetic_error');
    // A loop that never ends stops when its gas does.
    expect(rowOf(rows, 'spin')).toMatchObject({ failure_stage: 'B2', abort: { category: 'out_of_gas' } });
  });

  it('A4: Clock only by immutable reference; A5: a function returning a reference', () => {
    expect(rowOf(rows, 'set_clock')).toMatchObject({ status: 'miss', failure_stage: 'A4', error_code: 'E201' });
    expect(rowOf(rows, 'set_clock').failure_reason).toMatch(/Clock can only be passed by immutable reference/);
    expect(rowOf(rows, 'items_ref')).toMatchObject({ status: 'miss', failure_stage: 'A5' });
  });

  it('objects nothing can construct are synthesized from raw BCS, and labelled as such', () => {
    const r = rowOf(rows, 'read_secret');
    expect(r).toMatchObject({ status: 'tier_b_hit', provenance: 'synthesized' });
    expect(r.transactions?.some((t) => (t as { action: string }).action === 'create_test_object')).toBe(true);
  });

  it('rows carry the schema keys, with phase errors on failures', () => {
    const r = rowOf(rows, 'never_thirds');
    expect(Object.keys(JSON.parse(rowLine(r)) as object)).toEqual(
      [
        'target_package',
        'target_module',
        'target_function',
        'status',
        'failure_stage',
        'failure_reason',
        'tier_a_details',
        'tier_b_details',
        'error_code',
        'error_phase',
        'error_source',
        'is_expected_limitation',
        'abort',
        'gas_used',
        'provenance',
        'hit_class',
        'transactions',
      ].filter((k) => (r as unknown as Record<string, unknown>)[k] !== undefined),
    );
    expect(r.tier_b_details?.target_modules_accessed).toEqual([`${DEMO}::shop`]);
    expect(r).toMatchObject({ error_phase: 'Execution', error_source: 'target_package_limitation', is_expected_limitation: false });
  });

  it('every Tier B row replays from its transactions in a fresh sandbox session', async () => {
    const demo = await demoPackage();
    const { framework: fw, protocolConfig } = framework();
    let replayed = 0;
    for (const r of rows.filter((x) => x.transactions !== undefined)) {
      const session = SandboxSession.create({ packages: [...fw, demo], protocolConfig });
      let last: Awaited<ReturnType<SandboxSession['handle']>> | undefined;
      for (const t of r.transactions ?? []) last = await session.handle(t);
      if (r.status === 'tier_b_hit') expect(last?.success, r.target_function).toBe(true);
      else {
        expect(last?.success, r.target_function).toBe(false);
        expect(last?.abort_code === undefined ? null : String(last.abort_code), r.target_function).toBe(r.abort?.code ?? null);
      }
      replayed++;
    }
    expect(replayed).toBeGreaterThan(15);
  });

  it('rows do not depend on the order the targets run in', async () => {
    const reversed = await run({}, true);
    expect(reversed.map(rowLine)).toEqual(rows.map(rowLine));
  });
});

describeWithFixtures('benchmark: options', ['fixtures', 'framework'], () => {
  it('--restricted-state never forges: objects nothing builds stop at A3 (or A4 when only a frozen one exists)', async () => {
    const rows = await run({ restrictedState: true, tierAOnly: true });
    expect(rowOf(rows, 'read_secret')).toMatchObject({ status: 'miss', failure_stage: 'A3', error_code: 'E301' });
    expect(rowOf(rows, 'engrave')).toMatchObject({ status: 'miss', failure_stage: 'A4' });
    expect(rowOf(rows, 'engrave').failure_reason).toMatch(/immutable/);
    expect(rows.some((r) => r.tier_a_details?.resolved_params.some((p) => p.startsWith('synthesized')))).toBe(false);
  });

  it('--no-mm2 and --max-chain-depth 1 allow single-hop chains only', async () => {
    for (const options of [{ multiHop: false }, { maxChainDepth: 1 }]) {
      const rows = await run({ ...options, tierAOnly: true });
      expect(rowOf(rows, 'fee_of').status).toBe('tier_a_hit');
      expect(rowOf(rows, 'unwrap_fee')).toMatchObject({ status: 'miss', failure_stage: 'A3', error_code: 'E302' });
    }
  });

  it('--tier-a-only and --static-only stop early', async () => {
    const a = await run({ tierAOnly: true });
    expect(a.every((r) => r.tier_b_details === undefined && r.transactions === undefined)).toBe(true);
    expect(rowOf(a, 'fee_of').status).toBe('tier_a_hit');
    const s = await run({ staticOnly: true });
    expect(rowOf(s, 'fee_of')).toEqual({ target_package: DEMO, target_module: 'shop', target_function: 'fee_of', status: 'static_pass' });
  });

  it('the direct path (no --use-ptb): one transaction per call; values that are not objects cannot pass', async () => {
    const rows = await run({ usePtb: false });
    expect(rowOf(rows, 'add_item')).toMatchObject({ status: 'tier_b_hit', tier_b_details: { path: 'direct' } });
    const fee = rowOf(rows, 'fee_of');
    expect(fee).toMatchObject({ failure_stage: 'B1' });
    expect(fee.failure_reason).toMatch(/cannot carry/);
    expect(rowOf(rows, 'add_item').transactions?.filter((t) => (t as { action: string }).action === 'call_function')).toHaveLength(2);
  });

  it('the direct path: an attempt that sent nothing accessed no module, whatever ran before it', async () => {
    const rows = await run({ usePtb: false, functionFilter: /^(add_item|total_fee)$/ });
    expect(rowOf(rows, 'add_item').tier_b_details?.target_modules_accessed).toEqual([`${DEMO}::shop`]);
    const total = rowOf(rows, 'total_fee');
    expect(total).toMatchObject({ failure_stage: 'B1', tier_b_details: { path: 'direct' } });
    expect(total.failure_reason).toMatch(/cannot pass a vector/);
    expect(total.tier_b_details?.target_modules_accessed).toBeUndefined();
  });

  it('crypto, clock, seed, phase errors and filters are wired', async () => {
    const rows = await run({ strictCrypto: false, clockBaseMs: 5000n, randomSeed: new Uint8Array(32).fill(7), phaseErrors: false, functionFilter: /^(never_thirds|fee_of)$/ });
    expect(rows.map((r) => r.target_function)).toEqual(['fee_of', 'never_thirds']);
    expect(rows.every((r) => r.permissive_crypto === true)).toBe(true);
    const txs = rowOf(rows, 'fee_of').transactions as { action: string; timestamp_ms?: string; random_seed?: string }[];
    expect(txs[0]).toMatchObject({ action: 'configure', random_seed: `0x${'07'.repeat(32)}` });
    expect(txs[1]).toEqual({ action: 'set_clock', timestamp_ms: '5000' });
    expect(rowOf(rows, 'never_thirds').error_phase).toBeUndefined();
    expect(rowOf(rows, 'never_thirds').error_code).toBe('E403');
    expect((await run({ moduleFilter: /^nope$/ })).length).toBe(0);
  });
});

describeWithFixtures('benchmark: a module that does not verify', ['fixtures', 'framework'], () => {
  it('gives A1 rows that say why, for every function of that module', async () => {
    const demo = await demoPackage();
    const m = demo.modules[0].module;
    const name = (d: (typeof m.functionDefs)[number]): string => m.identifiers[m.functionHandles[d.function].name];
    // A `Pop` on an empty stack: the module still reads, but the verifier refuses it.
    const functionDefs = m.functionDefs.map((d) => (d.code !== null && name(d) === 'fee_of' ? { ...d, code: { ...d.code, code: [{ $kind: 'Pop' } as const, ...d.code.code] } } : d));
    const broken = packageFromBytes([serializeModule({ ...m, functionDefs })]);
    const bench = await Benchmark.create({ ...framework(), targets: [broken], tierAOnly: true, timings: false });
    const rows = await Promise.all(bench.targets().map((t) => bench.runTarget(t)));
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'miss', failure_stage: 'A1', error_code: 'E101' });
      expect(r.failure_reason).toMatch(/^target validation failed: module shop does not verify: /);
    }
  });
});

describeWithFixtures('benchmark: nothing to run', ['fixtures', 'framework'], () => {
  it('a filter that keeps nothing gives no rows', async () => {
    expect(await run({ functionFilter: /^$/ })).toEqual([]);
  });
});

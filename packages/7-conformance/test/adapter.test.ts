import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareTask, expectedOutput, parseAdapterFile, parsePtbCommands, parseType, parseValue, runAdapterSuite } from '@smi/conformance';
import { pureBytes } from '../src/adapter/values.js';
import { stabilize } from '../src/adapter/display.js';
import { statusDisplay } from '../src/adapter/status-text.js';
import { seededAccounts } from '../src/adapter/seeded-accounts.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const names = (n: string): string | undefined => (n === 'A' ? '0x' + 'a'.repeat(64) : undefined);

describe('adapter test format: values', () => {
  it('reads integers, addresses, vectors, strings and Sui object values', () => {
    expect(parseValue('100')).toEqual({ kind: 'inferred', value: 100n });
    expect(parseValue('7u8')).toEqual({ kind: 'int', type: 'u8', value: 7n });
    expect(parseValue('@A')).toEqual({ kind: 'address', address: { kind: 'named', name: 'A' } });
    expect(parseValue('object(2,0)@3')).toEqual({ kind: 'object', id: { kind: 'enumerated', task: 2, index: 0 }, version: 3n });
    expect(parseValue('immshared(6)')).toMatchObject({ kind: 'immshared', id: { kind: 'known' } });
    expect(parseValue('receiving(4,1)')).toMatchObject({ kind: 'receiving', id: { task: 4, index: 1 }, version: null });
    expect(parseValue('vector[1, 2]')).toMatchObject({ kind: 'vector', elems: [{ value: 1n }, { value: 2n }] });
    expect(parseValue('b"hi"')).toMatchObject({
      kind: 'vector',
      elems: [
        { type: 'u8', value: 104n },
        { type: 'u8', value: 105n },
      ],
    });
    expect(() => parseValue('1u8 2')).toThrow(/trailing/);
  });

  it('serializes pure values as upstream (unsuffixed integers are u64, or u256 when larger)', () => {
    expect([...pureBytes(parseValue('1'), names)]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(pureBytes(parseValue('18446744073709551616'), names)).toHaveLength(32);
    expect([...pureBytes(parseValue('vector[1u8, 2u8]'), names)]).toEqual([2, 1, 2]);
    expect(pureBytes(parseValue('@A'), names)[0]).toBe(0xaa);
    expect([...pureBytes(parseValue('x"0f10"'), names)]).toEqual([2, 15, 16]);
  });

  it('reads types with named and numeric addresses', () => {
    expect(parseType('vector<sui::coin::Coin<sui::sui::SUI>>')).toMatchObject({ kind: 'vector', elem: { kind: 'struct', name: 'Coin', typeArgs: [{ name: 'SUI' }] } });
    expect(parseType('0x2::object::ID')).toMatchObject({ kind: 'struct', address: { kind: 'numeric', value: 2n } });
    expect(parseType('u64')).toEqual({ kind: 'primitive', name: 'u64' });
  });
});

describe('adapter test format: PTB commands and tasks', () => {
  it('reads //> commands with index annotations, type arguments and comments', () => {
    const cmds = parsePtbCommands(
      [
        '//> 0: SplitCoins(Gas, [Input(0)]);',
        '// a comment',
        '//> 1: test::m::f<u64, vector<u8>>(Result(0), NestedResult(0,0));',
        '//> MakeMoveVec<u64>([]);',
        '//> TransferObjects([Result(0)], Input(1))',
      ].join('\n'),
    );
    expect(cmds.map((c) => c.kind)).toEqual(['SplitCoins', 'MoveCall', 'MakeMoveVec', 'TransferObjects']);
    expect(cmds[1]).toMatchObject({ package: 'test', module: 'm', function: 'f', typeArgs: [{ name: 'u64' }, { kind: 'vector' }] });
    expect(cmds[1].kind === 'MoveCall' && cmds[1].args[1]).toEqual({ $kind: 'NestedResult', NestedResult: [0, 0] });
    expect(() => parsePtbCommands('//> 1: SplitCoins(Gas, [Input(0)])')).toThrow(/annotated index 1/);
    expect(() => parsePtbCommands('// > SplitCoins(Gas, [Input(0)])')).toThrow(/Remove whitespace/);
  });

  it('splits a file into typed tasks', () => {
    const tasks = parseAdapterFile(
      [
        '//# init --addresses test=0x0 --accounts A B --protocol-version 90',
        '',
        '//# publish --upgradeable --sender A',
        'module test::m { public fun f(): u64 { 1 } }',
        '',
        '//# programmable --sender A --inputs 10 @B --dev-inspect',
        '//> SplitCoins(Gas, [Input(0)]);',
        '',
        '//# run test::m::f --args object(1,0) 5 --type-args u64 --sender B',
        '',
        '//# view-object 2,0 --hide-contents',
        '',
        '//# upgrade --package test --upgrade-capability 1,1 --sender A --policy additive',
        'module test::m { public fun f(): u64 { 2 } }',
        '',
        '//# view-funds sui::balance::Balance<sui::sui::SUI> A',
        '',
        '//# programmable --sender A --address-balance-gas --gas-payment withdraw<sui::balance::Balance<sui::sui::SUI>>(500)',
        '',
        '//# mystery-task',
      ].join('\n'),
    );
    expect(tasks.map((t) => t.command.kind)).toEqual(['init', 'publish', 'programmable', 'run', 'view-object', 'upgrade', 'view-funds', 'programmable', 'unsupported']);
    expect(tasks[0].command).toMatchObject({ addresses: [['test', '0x0']], accounts: ['A', 'B'], protocolVersion: 90 });
    expect(tasks[1].command).toMatchObject({ upgradeable: true, sender: 'A' });
    expect(tasks[2].command).toMatchObject({ devInspect: true, inputs: [{ kind: 'inferred' }, { kind: 'address' }] });
    expect(tasks[3].command).toMatchObject({ module: 'm', function: 'f', sender: 'B', typeArgs: [{ name: 'u64' }] });
    expect(tasks[4].command).toMatchObject({ id: { kind: 'enumerated', task: 2, index: 0 }, hideContents: true });
    expect(tasks[5].command).toMatchObject({ package: 'test', policy: 128 });
    expect(tasks[6].command).toMatchObject({ type: 'sui::balance::Balance<sui::sui::SUI>', account: 'A' });
    expect(tasks[7].command).toMatchObject({ addressBalanceGas: true, gasPayment: [{ kind: 'withdraw', amount: 500n }] });
  });
});

describe('adapter output', () => {
  const ctx = {
    namedAddresses: () => [['sui', '0x' + '2'.padStart(64, '0')] as const],
    fakeOf: (id: string) => (id === '0x' + 'b'.repeat(64) ? ({ kind: 'enumerated', task: 3, index: 1 } as const) : undefined),
    accountAddresses: () => [],
    fakes: () => [],
  };

  it('stabilizes addresses into names, fake ids and _', () => {
    expect(stabilize(`0x2::coin::Coin<0x2::sui::SUI> bytes: 0x${'b'.repeat(64)}, x: 0x${'c'.repeat(64)}, 100u64`, ctx)).toBe('sui::coin::Coin<sui::sui::SUI> bytes: fake(3,1), x: _, 100u64');
  });

  it('prints failure statuses in upstream words (clever abort codes too)', () => {
    const loc = { module: { address: '0x2', name: 'm' }, function: 1, instruction: 4, functionName: 'f' };
    expect(statusDisplay({ $kind: 'MoveAbort', MoveAbort: [loc, 7n] } as never)).toBe('Move Runtime Abort. Location: 0x2::m::f (function index 1) at offset 4, Abort Code: 7');
    const clever = (0b1100n << 60n) | (0xffn << 48n) | (34n << 32n);
    expect(statusDisplay({ $kind: 'MoveAbort', MoveAbort: [loc, clever] } as never)).toBe('Move Abort in 0x2::m::f (function index 1) at offset 4 at line 34');
  });

  it('compares statuses, object lists and values, reporting gas apart', () => {
    const a = 'created: object(1,0)\nmutated: object(0,0)\ngas summary: computation_cost: 1, storage_cost: 2,  storage_rebate: 0, non_refundable_storage_fee: 0';
    expect(compareTask(a, a.replace('storage_cost: 2', 'storage_cost: 3'))).toMatchObject({ pass: true, gas: 'differs' });
    expect(compareTask(a, a.replace('object(1,0)', 'object(1,1)'))).toMatchObject({ pass: false, category: 'objects differ' });
    const e = 'Error: Transaction Effects Status: X\nExecution Error: ExecutionError: ExecutionError { inner: ExecutionErrorInner { kind: K, source: Some("a"), command: Some(0) } }';
    expect(compareTask(e, e.replace('Some("a")', 'None'))).toMatchObject({ pass: true });
    expect(compareTask(e, e.replace('kind: K', 'kind: L'))).toMatchObject({ pass: false, category: 'error kind differs' });
    expect(expectedOutput('//> SplitCoins(Gas, [Input(0)])\nmutated: object(0,0)', '\n//> SplitCoins(Gas, [Input(0)])\n', true)).toBe('mutated: object(0,0)');
  });
});

/**
 * The suite over every folder except `upgrade` and `programmable` (their ~250 offline
 * compilations take most of a minute on a cold cache): the pass count must not fall
 * below what the runner reaches today. Compiled test packages are cached on disk.
 */
const FLOOR = 2587;
const SLOW = ['upgrade', 'programmable'];
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describeWithFixtures('adapter suite', ['fixtures', 'adapter-tests'], () => {
  it(`passes at least ${FLOOR} tasks of the fast folders, every function compiled to JS from its first block`, async () => {
    const dir = fixturePath('fixtures', 'adapter-tests');
    // The VMs the runner creates read the block compiler's threshold from the environment:
    // at 0 every block that can be compiled runs compiled (the other suites use the default).
    const before = process.env.SMI_JIT_THRESHOLD;
    process.env.SMI_JIT_THRESHOLD = '0';
    let summary: Awaited<ReturnType<typeof runAdapterSuite>>;
    try {
      summary = await runAdapterSuite(dir, { fixturesRoot: fixturePath(), exclude: SLOW, cacheDir: path.join(repo, 'node_modules', '.cache', 'smi-adapter-tests') });
    } finally {
      if (before === undefined) delete process.env.SMI_JIT_THRESHOLD;
      else process.env.SMI_JIT_THRESHOLD = before;
    }
    expect(summary.gas.compared).toBeGreaterThan(1000);
    expect(summary.gas.matched).toBe(summary.gas.compared);
    expect(summary.files).toBeGreaterThan(250);
    expect(Object.keys(summary.folders).some((f) => SLOW.includes(f))).toBe(false);
    expect(summary.passed).toBeGreaterThanOrEqual(FLOOR);
    // Every task is judged: passed, failed, or skipped with a reason.
    expect(summary.passed + summary.failed + summary.skipped).toBe(summary.tasks);
    for (const s of summary.skips) expect(s.reason).not.toBe('');
    // A limit for a run that never ends, not a speed test: a fresh clone compiles the suite's sources first.
  }, 600_000);
});

describeWithFixtures('adapter runner: sources upstream compiles and then fails to publish', ['fixtures', 'adapter-tests'], () => {
  const run = (filter: string) =>
    runAdapterSuite(fixturePath('fixtures', 'adapter-tests'), { fixturesRoot: fixturePath(), filter, cacheDir: path.join(repo, 'node_modules', '.cache', 'smi-adapter-tests') });

  it('a package named at std’s address compiles at 0x0 and is placed there (PublishErrorNonZeroAddress)', async () => {
    const s = await run('publish/basic.move');
    expect(s.tasks).toBe(5);
    expect(s.failures).toEqual([]);
  }, 120_000);

  it('identifiers longer than 128 bytes compile; the publish fails with the verifier’s error', async () => {
    const s = await run('size_limits/identitifer_len_limits.move');
    expect(s.tasks).toBe(4);
    expect(s.failures).toEqual([]);
    expect(s.gas).toEqual({ compared: 1, matched: 1 });
  }, 120_000);

  it('charges the deny-list reads of coin transfers: 100 new owners of a coin cost 15,000 more gas units', async () => {
    const s = await run('deny_list_v2/send_many_coins_unregulated.move');
    expect(s.failures).toEqual([]);
    const gasLines = s.gas as { compared: number; matched: number };
    // Every line charges upstream's gas: send_100 15,300,000 MIST of computation, send_10
    // 1,680,000 (11 owners' deny-list reads plus the input objects' and the package's bytes).
    expect(gasLines).toEqual({ compared: 4, matched: 4 });
  }, 120_000);

  it('charges the read of the input objects and of the called packages before execution (a 10,000-iteration loop: 2,800,000 MIST)', async () => {
    const s = await run('address_balances/storage_oog_charges_full_budget.move');
    expect(s.failures).toEqual([]);
    const gasLines = s.gas as { compared: number; matched: number };
    expect(gasLines.matched).toBe(gasLines.compared);
    expect(gasLines.compared).toBeGreaterThanOrEqual(7);
  }, 120_000);

  it('--flavor core compiles without Sui’s source checks; the upgrade then fails in the Sui verifier (one-time witness)', async () => {
    const s = await run('init/upgrade_init_otw_invalid.move');
    expect(s.failures).toEqual([]);
  }, 120_000);

  it('counts a native call as two instructions (the call and the native): the instruction tier of a loop of natives', async () => {
    const s = await run('size_limits/new_id_limits_tests.move');
    expect(s.failures).toEqual([]);
    expect(s.gas).toEqual({ compared: (s.gas as { compared: number }).compared, matched: (s.gas as { compared: number }).compared });
  }, 120_000);
});

describe('adapter runner: upstream’s seeded accounts', () => {
  it('draws upstream’s keys and gas ids from its seeded ChaCha12 RNG (the first key is the address rejections print)', () => {
    const [first, second] = seededAccounts(2);
    expect(first.address).toBe('0xfccc9a421bbb13c1a66a1aa98f0ad75029ede94857779c6915b44f94068b921e');
    expect(first.gas).toMatch(/^0x[0-9a-f]{64}$/);
    expect(second.address).not.toBe(first.address);
    // The draws are a fixed sequence: asking for more accounts extends it.
    expect(seededAccounts(3).slice(0, 2)).toEqual([first, second]);
  });
});

describeWithFixtures('adapter runner: ids as upstream’s', ['fixtures', 'adapter-tests'], () => {
  it('transaction digests and the ids derived from them are upstream’s: fresh ids number in upstream’s order', async () => {
    const s = await runAdapterSuite(fixturePath('fixtures', 'adapter-tests'), {
      fixturesRoot: fixturePath(),
      filter: 'mvcc/receive_object_access_through_parent_dof.move',
      cacheDir: path.join(repo, 'node_modules', '.cache', 'smi-adapter-tests'),
    });
    expect(s.tasks).toBeGreaterThan(8);
    expect(s.failures).toEqual([]);
  }, 120_000);
});

describeWithFixtures('adapter runner: unified linkage', ['fixtures', 'adapter-tests'], () => {
  const run = (filter: string) =>
    runAdapterSuite(fixturePath('fixtures', 'adapter-tests'), { fixturesRoot: fixturePath(), filter, cacheDir: path.join(repo, 'node_modules', '.cache', 'smi-adapter-tests') });

  it('a command pinning a dependency’s newer version makes every call of the transaction run that version', async () => {
    const s = await run('programmable/linkage_public_dep_upgrade.move');
    expect(s.tasks).toBe(9);
    expect(s.failures).toEqual([]);
  }, 120_000);

  it('type arguments resolve in the transaction’s linkage (a newer version’s type; exact/at-least conflicts are InvalidLinkage)', async () => {
    const s = await run('call/upgraded_type.move');
    expect(s.failures).toEqual([]);
  }, 120_000);

  it('an upgrade’s new init runs its own package under the transaction’s linkage', async () => {
    const s = await run('upgrade/upgrade_init_lumpy_ordering_v131.move');
    expect(s.failures).toEqual([]);
  }, 120_000);
});

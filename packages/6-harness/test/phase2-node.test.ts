/**
 * Phase II on a node (`--simulation-mode dry-run|dev-inspect`), offline: a fake full node on
 * loopback gRPC-web (and GraphQL) whose simulations run in our own simulator holding the same
 * objects. The preflight (endpoint, sender, coins, gas price), a plan that creates a target
 * type through a dry run (the same created types as the local simulation, less the objects
 * created and wrapped, which a node's effects omit), a failing plan's abort code and location,
 * a shared object by its initial shared version, the gas ladder, dev-inspect without checks,
 * the dev-inspect fallback and --require-dry-run, and a whole run's row and run JSON.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { canonicalAddress, type Json } from '@smi/bytecode';
import { GraphQLDataSource, GrpcDataSource } from '@smi/network';
import { startFakeGraphQL } from '../../../test-support/fake-graphql.js';
import { type FakeGrpcServer, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { phase2Options } from '../../../test-support/phase2-options.js';
import { COUNTER, ITEM, type Phase2NodeFixture, phase2NodeFixture, PUBLISHER, RECEIPT, REFERENCE_GAS_PRICE, SENDER, SHOP } from '../../../test-support/phase2-node-fixture.js';
import { LocalSimulation } from '../src/phase2/local.js';
import { NodeSimulation } from '../src/phase2/node.js';
import { type NodeContext, NodeSetupError, type NodeSetupOptions, prepareNode } from '../src/phase2/node-setup.js';
import { normalizePlan } from '@smi/inhabit';
import { parsePlan } from '@smi/inhabit';
import { plain, runPhase2 } from '../src/index.js';

const plan = (spec: Json) => parsePlan(normalizePlan(spec).spec);
const BUY = {
  calls: [
    { target: `${SHOP}::shop::new_item`, args: [{ u64: 3 }] },
    { target: `${SHOP}::shop::buy`, args: [{ result: 0 }] },
  ],
};
const FAIL = {
  calls: [
    { target: `${SHOP}::shop::new_item`, args: [{ u64: 0 }] },
    { target: `${SHOP}::shop::buy`, args: [{ result: 0 }] },
  ],
};

let f: Phase2NodeFixture;
let server: FakeGrpcServer;
let source: GrpcDataSource;

const setup = (extra: Partial<NodeSetupOptions> = {}): Promise<NodeContext> => prepareNode({ source, mode: 'dry-run', sender: SENDER, requireDryRun: false, fundedSender: true, ...extra });
const nodeSim = (node: NodeContext, gasBudgets: bigint[] = [50_000_000n]) => new NodeSimulation(node, { packages: [...f.framework, f.shop], gasBudgets });

async function setupError(o: Partial<NodeSetupOptions>): Promise<NodeSetupError> {
  try {
    await setup(o);
  } catch (e) {
    if (e instanceof NodeSetupError) return e;
    throw e;
  }
  throw new Error('expected a NodeSetupError');
}

describeWithFixtures('Phase II on a node (a fake full node running our simulator)', ['fixtures', 'framework'], () => {
  beforeAll(async () => {
    f = await phase2NodeFixture();
    server = await startFakeGrpc(f.chain);
    source = new GrpcDataSource({ url: server.url, timeoutMs: 5000 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("preflight: the node answers, the gas coin is the sender's first Coin<SUI>, the gas price the reference one, the inventory its objects", async () => {
    const node = await setup();
    expect(node.checkpoint).toBe(1n);
    expect(node.gasCoin?.objectId).toBe(f.coins[0]);
    expect(node.senderCoins).toEqual(f.coins);
    expect(node).toMatchObject({ gasPrice: REFERENCE_GAS_PRICE, gasPriceFrom: 'reference', warnings: [] });
    const sim = nodeSim(node);
    expect(sim.inventory().get(ITEM)).toEqual([f.itemId]);
    expect(sim.resolvePlaceholder(ITEM)).toBe(f.itemId);
    expect(sim.inventoryItems().every((i) => i.owner === 'owned')).toBe(true);
    const given = await setup({ gasCoin: f.coins[1], gasPrice: 900n });
    expect(given.senderCoins).toEqual([f.coins[1], f.coins[0]]);
    expect(given).toMatchObject({ gasPrice: 900n, gasPriceFrom: 'given' });
  });

  it("preflight errors: an endpoint that does not answer, 0x0 or an unfunded sender for a dry run, a gas coin not the sender's", async () => {
    const down = await prepareNode({ source: new GrpcDataSource({ url: 'http://127.0.0.1:9', timeoutMs: 2000 }), mode: 'dry-run', sender: SENDER, requireDryRun: false, fundedSender: true }).catch(
      (e: unknown) => e,
    );
    expect(down).toBeInstanceOf(NodeSetupError);
    expect(down).toMatchObject({ code: 'ENDPOINT_UNREACHABLE' });
    expect((await setupError({ sender: '0x0' })).code).toBe('SENDER_IS_ZERO');
    const poor = await setupError({ sender: PUBLISHER });
    expect(poor.code).toBe('SENDER_NOT_FUNDED');
    expect(poor.message).toContain('owns no Coin<SUI>');
    // Mock agents and dev-inspects need no funds (the original's preflight).
    expect((await setup({ sender: PUBLISHER, fundedSender: false })).gasCoin).toBeNull();
    expect((await setup({ sender: '0x0', mode: 'dev-inspect' })).owned).toEqual([]);
    expect((await setupError({ gasCoin: f.counterId })).code).toBe('GAS_COIN_NOT_OWNED');
    expect((await setupError({ gasCoin: '0xdead' })).code).toBe('GAS_COIN_NOT_FOUND');
  });

  it("a plan that creates a target type is a hit through a dry run: the node's created types are the local ones less those created and wrapped", async () => {
    const sim = nodeSim(await setup());
    const run = await sim.run(plan(BUY));
    expect(run).toMatchObject({ txBuildOk: true, ok: true, status: 'success', createdTypes: [RECEIPT], attempts: 1, gasBudgetUsed: 50_000_000, devInspect: false });
    expect(run.fellBackToDevInspect).toBeUndefined();
    const sent = f.chain.simulations.at(-1);
    expect(sent?.checks).toBe(true);
    expect(sent?.data.V1.sender).toBe(SENDER);
    expect(sent?.data.V1.gasData).toMatchObject({ price: REFERENCE_GAS_PRICE, budget: 50_000_000n, payment: [{ objectId: f.coins[0] }] });
    const local = LocalSimulation.prepare(SHOP, {
      packages: [...f.framework, f.shop],
      protocolConfig: f.protocolConfig,
      sender: SENDER,
      publisher: PUBLISHER,
      senderCoins: 1,
      coinBalance: 10_000_000_000n,
      gasBudgets: [50_000_000n],
    }).run(plan(BUY));
    expect(local.createdTypes.filter((t) => !local.createdWrappedTypes.includes(t))).toEqual(run.createdTypes);
    expect(local.createdWrappedTypes).toEqual([ITEM]);
  });

  it('a failing plan reports the abort code and location, as the local simulation does', async () => {
    const run = await nodeSim(await setup()).run(plan(FAIL));
    expect(run).toMatchObject({ txBuildOk: true, ok: false, status: 'failure', effectsError: 'MoveAbort', abortCode: 1, abortLocation: `${SHOP}::shop::new_item`, createdTypes: [], attempts: 1 });
    expect(run.error).toMatch(
      /^MoveAbort\(MoveLocation \{ module: ModuleId \{ address: 0{60}5e0d, name: Identifier\("shop"\) \}, function: \d+, instruction: \d+, function_name: Some\("new_item"\) \}, 1\) in command 0$/,
    );
    const local = LocalSimulation.prepare(SHOP, {
      packages: [...f.framework, f.shop],
      protocolConfig: f.protocolConfig,
      sender: SENDER,
      publisher: PUBLISHER,
      senderCoins: 1,
      coinBalance: 10_000_000_000n,
      gasBudgets: [50_000_000n],
    }).run(plan(FAIL));
    expect(local).toMatchObject({ effectsError: run.effectsError, abortCode: run.abortCode, abortLocation: run.abortLocation });
  });

  it('objects by reference and shared objects by their initial shared version; an object the node lacks does not build', async () => {
    const sim = nodeSim(await setup());
    const run = await sim.run(plan({ calls: [{ target: `${SHOP}::shop::bump`, args: [{ shared_object: { id: f.counterId, mutable: true } }, { $smi_placeholder: ITEM }] }] }));
    expect(run, run.error ?? '').toMatchObject({ ok: true, createdTypes: [] });
    const inputs = f.chain.simulations.at(-1)?.data.V1.kind as {
      ProgrammableTransaction: { inputs: { Object?: Record<string, { objectId: string; initialSharedVersion?: bigint; version?: bigint }> }[] };
    };
    const [shared, owned] = inputs.ProgrammableTransaction.inputs.map((i) => i.Object);
    expect(shared?.SharedObject).toMatchObject({ objectId: f.counterId, initialSharedVersion: expect.any(BigInt) });
    expect(owned?.ImmOrOwnedObject).toMatchObject({ objectId: f.itemId });
    const missing = await sim.run(plan({ calls: [{ target: `${SHOP}::shop::buy`, args: [{ imm_or_owned_object: '0xdead' }] }] }));
    expect(missing).toMatchObject({ txBuildOk: false, ok: false, attempts: 0 });
    expect(missing.error).toMatch(/not found/);
  });

  it('the gas ladder climbs only after running out of gas', async () => {
    const spin = plan({ calls: [{ target: `${SHOP}::shop::spin`, args: [{ u64: 20000 }] }] });
    const run = await nodeSim(await setup(), [2_000_000n, 500_000_000n]).run(spin);
    expect(run).toMatchObject({ ok: true, attempts: 2, gasBudgetUsed: 500_000_000 });
    const low = await nodeSim(await setup(), [2_000_000n]).run(spin);
    expect(low).toMatchObject({ ok: false, status: 'failure', effectsError: 'InsufficientGas', attempts: 1 });
    const once = await nodeSim(await setup(), [50_000_000n, 500_000_000n]).run(plan(FAIL));
    expect(once.attempts).toBe(1);
  });

  it('dev-inspect sends the simulation with checks disabled', async () => {
    const run = await nodeSim(await setup({ mode: 'dev-inspect' })).run(plan(BUY));
    expect(f.chain.simulations.at(-1)?.checks).toBe(false);
    expect(server.requests.at(-1)?.request).toMatchObject({ checks: 1 });
    expect(run).toMatchObject({ ok: true, createdTypes: [RECEIPT], devInspect: true });
  });

  it('a dry run the node refuses falls back to dev-inspect (created ∪ static types), unless a dry run is required', async () => {
    // A gas price under the reference one: the dry run is refused, a dev-inspect runs.
    const make = plan({ calls: [{ target: `${SHOP}::shop::make_item`, args: [{ u64: 4 }] }] });
    const fell = await nodeSim(await setup({ gasPrice: 1n })).run(make);
    expect(fell).toMatchObject({ ok: true, fellBackToDevInspect: true, devInspect: true, createdTypes: [ITEM] });
    expect(f.chain.simulations.slice(-2).map((s) => s.checks)).toEqual([true, false]);
    const strict = await nodeSim(await setup({ gasPrice: 1n, requireDryRun: true })).run(make);
    expect(strict).toMatchObject({ txBuildOk: true, ok: false, status: null, attempts: 1 });
    expect(strict.error).toContain('gas price 1 is under the reference gas price 750');
    console.info(`[phase2 node] a refused dry run: ${strict.error}`);
    expect(strict.fellBackToDevInspect).toBeUndefined();
  });

  it('runPhase2 in dry-run mode: the row and the run JSON name the node, the mode and the gas coin', async () => {
    const node = await setup();
    const planFile = new Map<string, Json>([[SHOP, BUY]]);
    const onShop = { corpusRoot: f.corpus, framework: f.framework, protocolConfig: f.protocolConfig, coinBalance: 0n, gasBudget: 50_000_000n, gasBudgetLadder: [], maxHeuristicVariants: 1 };
    const out = await runPhase2(phase2Options({ ...onShop, agent: 'mock-planfile', planFile, simulationMode: 'dry-run', node, runId: 'node' }));
    const run = plain(out.runJson as never) as Record<string, unknown>;
    expect(run).toMatchObject({ rpc_url: source.endpoint, simulation_mode: 'dry-run', gas_coin: f.coins[0], sender: SENDER });
    const row = (run.packages as Record<string, unknown>[])[0];
    expect(row).toMatchObject({
      package_id: SHOP,
      simulation_mode: 'dry-run',
      dry_run_ok: true,
      dev_inspect_ok: false,
      fell_back_to_dev_inspect: false,
      hit_types: [RECEIPT],
      score: { targets: 3, created_hits: 1 },
    });
    expect(row.missing_types).toEqual([COUNTER, ITEM].sort());
    await expect(runPhase2(phase2Options({ ...onShop, simulationMode: 'dev-inspect', runId: 'x' }))).rejects.toMatchObject({ code: 'NEEDS_NODE' });
  });

  it("the same over GraphQL: the created objects' types come from objectChanges", async () => {
    const gql = await startFakeGraphQL(f.chain);
    try {
      const node = await prepareNode({ source: new GraphQLDataSource(gql.url), mode: 'dry-run', sender: SENDER, requireDryRun: true, fundedSender: true });
      expect(node.gasPrice).toBe(REFERENCE_GAS_PRICE);
      const run = await nodeSim(node).run(plan(BUY));
      expect(run).toMatchObject({ ok: true, createdTypes: [RECEIPT] });
      expect(canonicalAddress(node.gasCoin?.objectId ?? '0x0')).toBe(f.coins[0]);
    } finally {
      await gql.close();
    }
  });

  it('the fixture is what it says (two coins, an Item, a shared Counter)', () => {
    expect(f.coins).toHaveLength(2);
    expect(f.env.getObject(f.counterId)?.owner.$kind).toBe('Shared');
  });
});

/**
 * The Phase II model agents against a loopback OpenAI-compatible server (no mocks of our
 * code): progressive exposure with `need_more` as a tool call (an invalid request, a real one,
 * a repeated one caught by loop detection) and then a plan that fails in the simulator and a
 * revised one that hits; the JSON form when the server refuses tools; a causality error told
 * back; template-search; a helper package that compiles and hits, one repaired after a compile
 * error; epochs with pass@k. The target is a package of our own, compiled for the test.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { compileMovePackage } from '@smi/move-compiler';
import { loadPackageDir } from '@smi/bytecode';
import { fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { type FakeReply, type FakeRequest, type FakeServer, promptOf, startFakeOpenAi } from '../../../test-support/fake-openai.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { PHASE2_SENDER, phase2Options } from '../../../test-support/phase2-options.js';
import { DiskRunStore, OpenAiCompatibleModel, phase2State, plain, runPhase2, type Phase2Options } from '../src/index.js';
import { tempDir } from './support.js';

const PKG = '0x' + '5b09'.padStart(64, '0');
const ITEM = `${PKG}::shop::Item`;
const RECEIPT = `${PKG}::shop::Receipt`;
const SOURCE = `module demo::shop;

public struct Item has key, store { id: UID, price: u64 }
public struct Receipt has key { id: UID, item: Item }

public fun new_item(price: u64, ctx: &mut TxContext): Item { assert!(price > 0, 1); Item { id: object::new(ctx), price } }
public fun buy(item: Item, ctx: &mut TxContext) { transfer::transfer(Receipt { id: object::new(ctx), item }, ctx.sender()) }
public entry fun make_receipt(price: u64, ctx: &mut TxContext) { buy(new_item(price, ctx), ctx) }
fun secret(): u64 { 42 }
`;

let corpus: string;
let base: Partial<Phase2Options>;
let server: FakeServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

const plan = (price: number): string =>
  JSON.stringify({
    calls: [
      { target: `${PKG}::shop::new_item`, args: [{ u64: price }] },
      { target: `${PKG}::shop::buy`, args: [{ result: 0 }] },
    ],
  });

async function run(agent: Phase2Options['agent'], script: (req: FakeRequest) => FakeReply, extra: Partial<Phase2Options> = {}) {
  server = await startFakeOpenAi(script);
  const dir = tempDir('smi-p2-agents-');
  const store = DiskRunStore.at(dir);
  const model = new OpenAiCompatibleModel({ apiKey: 'k', baseUrl: server.url, model: 'fake-model', retry: { maxAttempts: 1 } });
  const out = await runPhase2(phase2Options({ ...base, agent, model, params: { temperature: 0 }, store, runId: 'r', ...extra }));
  const row = (plain(out.runJson.packages as never) as Record<string, unknown>[])[0];
  // Every model agent's run JSON names the model and the cost (unknown without a price).
  expect(plain(out.runJson as never)).toMatchObject({ model: 'fake-model', sender_is_publisher: false, aggregate: { total_cost_usd: null } });
  return { out, row, requests: server.requests, dir };
}

describeWithFixtures('Phase II model agents on a loopback server', ['fixtures', 'framework'], () => {
  beforeAll(async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    const framework = packages.filter((p) => BigInt(p.id) <= 0xdee9n);
    const compiled = await compileMovePackage({
      files: { 'Move.toml': '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n', 'sources/shop.move': SOURCE },
      dependencies: framework.filter((p) => BigInt(p.id) <= 2n).map((p) => ({ name: BigInt(p.id) === 1n ? 'MoveStdlib' : 'Sui', address: p.originalId, modules: p.modules.map((m) => m.module) })),
      address: PKG,
    });
    corpus = tempDir('smi-p2-corpus-');
    const dir = path.join(corpus, PKG, 'bytecode_modules');
    mkdirSync(dir, { recursive: true });
    for (const m of compiled.modules) writeFileSync(path.join(dir, `${m.name}.mv`), m.bytes);
    writeFileSync(path.join(corpus, PKG, 'metadata.json'), JSON.stringify({ id: PKG }));
    base = { corpusRoot: corpus, framework, protocolConfig, coinBalance: 10_000_000_000n, gasBudget: 50_000_000n, gasBudgetLadder: [], maxHeuristicVariants: 1 };
  }, 120_000);

  it('progressive exposure with a need_more tool: an invalid request, a real one, a repeat (loop detection), a failing plan, then a hit', async () => {
    const { row, requests, out } = await run('real-openai-compatible', (req) => {
      switch (req.index) {
        case 0:
          return { content: null, toolCalls: [{ name: 'need_more', arguments: JSON.stringify({ targets: ['shop::nope'], reason: 'look' }) }] };
        case 1:
          return { content: null, toolCalls: [{ name: 'need_more', arguments: JSON.stringify({ targets: ['shop::new_item', `${PKG}::shop::buy`] }) }] };
        case 2:
          return { content: null, toolCalls: [{ name: 'need_more', arguments: JSON.stringify({ targets: ['shop::buy'] }) }] };
        case 3:
          return { content: plan(0) };
        default:
          return { content: plan(5) };
      }
    });
    expect(requests).toHaveLength(5);
    // The first prompt: the summary (entry first, with return types), tools offered.
    expect(promptOf(requests[0])).toContain('  - public entry fun make_receipt(u64, &mut 0x');
    expect(promptOf(requests[0])).toContain(`public fun new_item(u64, &mut 0x${'2'.padStart(64, '0')}::tx_context::TxContext): ${ITEM}`);
    expect(promptOf(requests[0])).not.toContain('secret');
    expect((requests[0].body.tools as { function: { name: string } }[])[0].function.name).toBe('need_more');
    // An invalid request goes back as an error; a real one shows the focused summary.
    expect(promptOf(requests[1])).toContain('module shop has no function nope');
    expect(promptOf(requests[2])).not.toContain('make_receipt');
    expect(promptOf(requests[2])).toContain(`public fun buy(${ITEM}, &mut`);
    // Asking again for what it has: one "plan now" prompt, without tools.
    expect(promptOf(requests[3])).toContain('You already requested those details');
    expect(requests[3].body.tools).toBeUndefined();
    // The plan aborts (price 0); the next attempt is told the simulator's error.
    expect(promptOf(requests[4])).toMatch(/failed on-chain simulation: MoveAbort/);
    expect(row).toMatchObject({
      outcome: 'correct',
      score: { targets: 2, created_hits: 2 },
      plan_attempts: 2,
      planning_calls: 5,
      need_more_rounds: 3,
      need_more_invalid: 1,
      loop_detections: 1,
      need_more_as_tool: true,
      requested_functions: [`${PKG}::shop::new_item`, `${PKG}::shop::buy`],
      dry_run_ok: true,
    });
    // The Item is created and wrapped in the Receipt: counted as created.
    expect(row.created_object_types_list).toEqual([ITEM, RECEIPT].sort());
    expect(row.best_plan).toEqual(JSON.parse(plan(5)));
    expect(out.totals.calls).toBe(5);
  }, 120_000);

  it('a server without tools gets the JSON form; a causality error goes back to the model', async () => {
    const { row, requests } = await run(
      'real-openai-compatible',
      (req) => {
        if (req.body.tools !== undefined) return { status: 400, content: 'tools are not supported by this model' };
        if (promptOf(req).includes('Causality violation')) return { content: plan(3) };
        if (promptOf(req).includes('(not callable')) return { content: JSON.stringify({ calls: [{ target: `${PKG}::shop::buy`, args: [{ result: 1 }] }] }) };
        return { content: JSON.stringify({ need_more: [`${PKG}::shop`], reason: 'whole module' }) };
      },
      { maxPlanAttempts: 2 },
    );
    expect(requests[0].body.tools).toBeDefined();
    expect(requests.slice(1).every((r) => r.body.tools === undefined)).toBe(true);
    expect(promptOf(requests[1])).toContain('{"need_more":["0xADDR::module::function",...],"reason":"..."}');
    // A module request shows the whole module, private functions marked.
    expect(promptOf(requests[2])).toContain('private fun secret(): u64   (not callable from a transaction)');
    expect(promptOf(requests[3])).toContain('Causality violation in call 0: references result 1');
    expect(row).toMatchObject({ outcome: 'correct', need_more_as_tool: false, plan_attempts: 2, causality_valid: true });
  }, 120_000);

  it('a model that never plans ends as its failure, in the denominator', async () => {
    const { row, out } = await run('real-openai-compatible', () => ({ content: 'I think you should call buy.' }), { maxPlanAttempts: 2 });
    expect(row).toMatchObject({ outcome: 'unparseable', score: { targets: 2, created_hits: 0 } });
    const agg = plain(out.runJson.aggregate as never) as Record<string, unknown>;
    expect(agg).toMatchObject({ packages_total: 1, errors: 1 });
  }, 120_000);

  it('template-search: the model fills the skeleton; an unusable answer falls back to the skeleton, labelled', async () => {
    const filled = await run('template-search', () => ({ content: JSON.stringify([{ target: `${PKG}::shop::make_receipt`, args: [{ u64: 9 }] }]) }));
    expect(filled.row).toMatchObject({ outcome: 'correct', template_skeletons: 1, template_fallbacks: 0 });
    expect(promptOf(filled.requests[0])).toContain('"skeleton_calls"');
    const fallback = await run('template-search', () => ({ content: 'no idea' }));
    expect(fallback.row).toMatchObject({ template_fallbacks: 1, outcome: 'correct' });
    // One call in a calls array, in prose that has brackets of its own: the calls array is the answer
    // (the original's first-{-to-last-} span read the call itself, an object without calls).
    const call = JSON.stringify([{ target: `${PKG}::shop::make_receipt`, args: [{ u64: 9 }] }]);
    const prose = await run('template-search', () => ({ content: `Here are the filled calls [1 call]:\n${call}\nThe {u64} argument is 9.` }));
    expect(prose.row).toMatchObject({ outcome: 'correct', template_fallbacks: 0 });
  }, 120_000);

  it('helper-package: a compile error repaired, then the helper publishes and its entrypoint creates both targets; artifacts kept', async () => {
    const helper = (body: string) =>
      JSON.stringify({
        move_toml: '[package]\nname = "helper_pkg"\nedition = "2024"\n\n[addresses]\nhelper_pkg = "0x0"\n',
        files: { 'sources/helper.move': `module helper_pkg::helper;\nuse target_pkg::shop;\n\npublic entry fun run(ctx: &mut TxContext) {\n${body}\n}\n` },
        entrypoints: [{ target: 'helper_pkg::helper::run' }],
        assumptions: ['new_item then buy'],
      });
    const { row, requests, dir } = await run('helper-package', (req) =>
      req.index === 0
        ? { content: helper('    let a: u64 = true;\n    let b: bool = 7;\n    let item = shop::new_item(3, ctx);\n    shop::buy(item, ctx);') }
        : { content: helper('    let item = shop::new_item(3, ctx);\n    shop::buy(item, ctx);') },
    );
    expect(requests).toHaveLength(2);
    const repair = promptOf(requests[1]);
    expect(repair).toContain('BUILD ERRORS');
    // Every error of the compiler's output, with the source lines it points at (not only the first line).
    expect(repair.match(/error\[E\d+\]/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(repair).toContain('let b: bool = 7;');
    expect(row).toMatchObject({ outcome: 'correct', helper_compiled: true, helper_attempts: 2, helper_repair_rounds: 1, score: { targets: 2, created_hits: 2 } });
    const art = path.join(dir, 'artifacts', PKG);
    for (const f of ['interface.json', 'prompt.json', 'llm_response.json', 'validation_report.json', 'transactions.json', 'helper_pkg/Move.toml', 'helper_pkg/sources/helper.move'])
      expect(existsSync(path.join(art, f)), f).toBe(true);
    const report = JSON.parse(readFileSync(path.join(art, 'validation_report.json'), 'utf8')) as { ok: boolean; attempts: { stage: string }[] };
    expect(report.ok).toBe(true);
    expect(report.attempts.map((a) => a.stage)).toEqual(['compile', 'published']);
    // The publish and the entrypoint run, with their effects (the Receipt created; the Item wrapped in it, not in the effects).
    const txs = JSON.parse(readFileSync(path.join(art, 'transactions.json'), 'utf8')) as {
      kind: string;
      transaction: { digest: string; effects: { status: string; created: { object_type?: string }[] } };
    }[];
    expect(txs.map((t) => [t.kind, t.transaction.effects.status])).toEqual([
      ['publish', 'success'],
      ['entrypoints', 'success'],
    ]);
    expect(txs[1].transaction.effects.created.map((c) => c.object_type)).toEqual([RECEIPT]);
    // A helper that compiles at once: one call, no repair; one that never lists entrypoints is told so.
    const once = await run('helper-package', () => ({ content: helper('    shop::make_receipt(4, ctx);') }));
    expect(once.requests).toHaveLength(1);
    expect(once.row).toMatchObject({ outcome: 'correct', helper_attempts: 1, helper_repair_rounds: 0 });
    const never = await run('helper-package', () => ({ content: '{"move_toml": "", "files": {}}' }), { maxRepairRounds: 1 });
    expect(never.requests).toHaveLength(2);
    expect(promptOf(never.requests[1])).toContain('Validation error: move_toml');
    expect(never.row).toMatchObject({ outcome: 'unparseable', helper_compiled: false, score: { created_hits: 0 } });
    expect(String(never.row.error)).toMatch(/never published \(schema\)/);
  }, 180_000);

  it('--state-file: objects prepared in a sandbox session are in the simulation and the inventory the model sees', async () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    const env = SimulationEnvironment.create({ packages: [...packages.filter((p) => BigInt(p.id) <= 2n), loadPackageDir(path.join(corpus, PKG))], protocolConfig });
    const item = env.createObject({ type: ITEM, fields: { price: '3' }, owner: { $kind: 'AddressOwner', address: PHASE2_SENDER } });
    const stateFile = path.join(tempDir('smi-p2-state-'), 'state.json');
    env.saveState(stateFile);
    const state = phase2State(readFileSync(stateFile), stateFile);
    const { row, requests } = await run('real-openai-compatible', () => ({ content: JSON.stringify({ calls: [{ target: `${PKG}::shop::buy`, args: [{ imm_or_owned_object: item.id }] }] }) }), {
      state,
      maxPlanAttempts: 1,
    });
    expect(promptOf(requests[0])).toContain(`- ${ITEM}: 1 objects available (owned): ${item.id}`);
    // The Receipt is created around the prepared Item (which was not created: one target of two).
    expect(row).toMatchObject({ dry_run_ok: true, score: { targets: 2, created_hits: 1 }, hit_types: [RECEIPT] });
  }, 120_000);

  it('epochs: each sample asked again (its own cache key), pass@k in the aggregate', async () => {
    const { out, row, requests } = await run('real-openai-compatible', (req) => ({ content: req.index === 0 ? plan(0) : plan(4) }), { epochs: 2, maxPlanAttempts: 1 });
    expect(requests).toHaveLength(2);
    expect(row.epochs).toEqual([expect.objectContaining({ epoch: 0, all_hit: false }), expect.objectContaining({ epoch: 1, all_hit: true })]);
    const agg = plain(out.runJson.aggregate as never) as { pass_at_k: Record<string, number>; epochs: number };
    expect(agg.epochs).toBe(2);
    expect(agg.pass_at_k['1']).toBeCloseTo(0.5);
    expect(agg.pass_at_k['2']).toBe(1);
  }, 120_000);
});

// Phase II over the shared corpus with a scripted "model" (no network, no key) that plays the
// real agent's protocol: it first asks to see every module of the package (a need_more tool
// call), then plans calls to the functions whose parameters are all plain values (integers,
// bools, addresses, byte strings) and that need no object. Every plan runs on a local
// simulation of the package; the row says what it created.
// From the repo root, after `pnpm build`:
//   node packages/6-harness/examples/phase2-scripted.mjs
import { fromFixtures } from '@smi/simulation';
import { MemoryRunStore, phase2SummaryText, runPhase2, ScriptedModel } from '@smi/harness';

const fixtures = process.env.SMI_FIXTURES ?? '../shared';
const { packages, protocolConfig } = fromFixtures(fixtures);

const VALUES = {
  u8: { u8: 1 },
  u16: { u16: 1 },
  u32: { u32: 1 },
  u64: { u64: 1 },
  u128: { u128: 1 },
  u256: { u256: 1 },
  bool: { bool: true },
  address: { address: '0x1' },
  'vector<u8>': { vector_u8_utf8: 'smi' },
};

/** One answer: a need_more for every module first, then a plan of the plain-valued functions. */
function answer(messages) {
  const prompt = messages.at(-1).content;
  const pkg = /"package_id": "(0x[0-9a-f]+)"/.exec(prompt)[1];
  if (!prompt.includes('(not callable') && !prompt.includes('Your previous PTB plan failed')) {
    const modules = [...prompt.matchAll(/^Module: (\w+)$/gm)].map((m) => `${pkg}::${m[1]}`);
    return { content: '', toolCalls: [{ name: 'need_more', arguments: JSON.stringify({ targets: modules, reason: 'see every function' }) }] };
  }
  const calls = [];
  let module = '';
  for (const m of prompt.matchAll(/^Module: (\w+)$|^ {2}- public(?: entry)? fun (\w+)\(([^)]*)\)(: .*)?$/gm)) {
    if (m[1]) {
      module = m[1];
      continue;
    }
    const params = m[3] === '' ? [] : m[3].split(', ').filter((p) => !p.endsWith('::tx_context::TxContext'));
    if (m[4] !== undefined || !params.every((p) => p in VALUES) || calls.length >= 3) continue;
    calls.push({ target: `${pkg}::${module}::${m[2]}`, args: params.map((p) => VALUES[p]) });
  }
  return { content: JSON.stringify({ calls }) };
}

// A local simulation as `smi phase2` prepares one by default: the fixtures' framework, a sender
// with two coins, a publisher running the packages' inits, a gas budget and a larger one after it.
const local = {
  framework: packages.filter((p) => BigInt(p.id) <= 0xdee9n),
  protocolConfig,
  simulationMode: 'local',
  sender: '0x' + 'a11ce'.padStart(64, '0'),
  publisher: '0x' + 'b0b'.padStart(64, '0'),
  senderCoins: 2,
  coinBalance: 100_000_000_000n,
  gasBudget: 10_000_000n,
  gasBudgetLadder: [50_000_000n],
  maxHeuristicVariants: 4,
};

const result = await runPhase2({
  ...local,
  corpusRoot: `${fixtures}/corpus`,
  samples: 0,
  seed: 0n,
  agent: 'real-openai-compatible',
  model: new ScriptedModel(answer, 'plain-values'),
  maxPlanAttempts: 2,
  baselineMaxCandidates: 25,
  store: new MemoryRunStore(),
  runId: 'example',
});
for (const row of result.runJson.packages) {
  console.log(
    `${row.package_id.slice(0, 10)}… targets ${row.score.targets} hits ${row.score.created_hits} planning calls ${row.planning_calls} ${row.error ? `(${String(row.error).slice(0, 80)})` : ''}`,
  );
}
process.stdout.write(phase2SummaryText(result.runJson));

// Phase II's agents over both shared corpora: mock-empty, the original's baseline-search (the
// reference, measured in the same run), template-search with a scripted model that returns
// each skeleton as it was given (the least a model can do: its placeholders resolve from the
// simulation's objects), chain-search, and chain-search with the publisher sending (the
// labelled upper bound). One line per workload: target types created, the micro hit rate,
// the time; then why chain-search missed what it missed.
// After `pnpm build`, from the repo root:
//   node packages/6-harness/bench/phase2-agents.mjs   (or: pnpm --filter @smi/harness bench:phase2)
import { fromFixtures } from '@smi/simulation';
import { extractJsonValue, MemoryRunStore, plain, runPhase2, ScriptedModel } from '@smi/harness';

const fixtures = process.env.SMI_FIXTURES ?? new URL('../../../../shared', import.meta.url).pathname;
const { packages, protocolConfig } = fromFixtures(fixtures);
const framework = packages.filter((p) => BigInt(p.id) <= 0xdee9n);
const SENDER = '0x' + 'a11ce'.padStart(64, '0');
const PUBLISHER = '0x' + 'b0b'.padStart(64, '0');

/** The scripted model of template-search: the skeleton of the prompt, as it was given. */
const echo = new ScriptedModel((messages) => {
  const prompt = messages.at(-1).content;
  const at = prompt.indexOf('"skeleton_calls"');
  const found = at < 0 ? null : extractJsonValue(prompt.slice(at), Array.isArray);
  return { content: JSON.stringify(found?.$kind === 'ok' ? found.value : []), usage: { input: Math.ceil(prompt.length / 4), output: 50 } };
});

const options = (corpusRoot, agent, extra = {}) => ({
  corpusRoot,
  samples: 0,
  seed: 0n,
  agent,
  framework,
  protocolConfig,
  simulationMode: 'local',
  sender: SENDER,
  publisher: PUBLISHER,
  senderCoins: 2,
  coinBalance: 100_000_000_000n,
  gasBudget: 10_000_000n,
  gasBudgetLadder: [50_000_000n],
  maxHeuristicVariants: 4,
  baselineMaxCandidates: 25,
  store: new MemoryRunStore(),
  runId: 'bench',
  continueOnError: true,
  perPackageTimeoutSeconds: 600,
  ...extra,
});

const WORKLOADS = [
  ['baseline-search', {}],
  ['mock-empty', {}],
  ['template-search (scripted: skeletons as given)', { agent: 'template-search', model: echo, params: { temperature: 0 } }],
  ['chain-search', {}],
  ['chain-search --sender publisher', { agent: 'chain-search', sender: PUBLISHER }],
];

for (const corpus of ['corpus-mainnet', 'corpus']) {
  let ref = null;
  for (const [label, extra] of WORKLOADS) {
    const agent = extra.agent ?? label;
    const started = performance.now();
    const out = await runPhase2(options(`${fixtures}/${corpus}`, agent, extra));
    const seconds = (performance.now() - started) / 1000;
    const a = plain(out.runJson.aggregate);
    const rate = a.targets === 0 ? 0 : a.hits / a.targets;
    ref ??= { hits: a.hits, seconds };
    const vs =
      label === 'baseline-search' ? 'reference' : `${ref.hits === 0 ? '∞' : (a.hits / ref.hits).toFixed(1)}x the reference's hits (${ref.hits}), ${(seconds / ref.seconds).toFixed(1)}x its time`;
    console.log(
      `phase2 ${corpus.padEnd(14)} ${label.padEnd(47)} | ${String(a.hits).padStart(3)}/${a.targets} target types (${(rate * 100).toFixed(1).padStart(4)}%) in ${seconds.toFixed(1).padStart(5)} s | ${vs}`,
    );
    if (a.miss_causes)
      console.log(
        `  why missed: ${Object.entries(a.miss_causes)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
  }
}

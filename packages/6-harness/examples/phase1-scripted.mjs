// Phase I over the shared corpus with a scripted "model" (no network, no key): it says a
// struct has `key` when its first field is `id: UID`. The run is kept in memory; the
// answers go through a response cache in a temp folder, so a second run costs nothing.
// From the repo root, after `pnpm build`:
//   node packages/6-harness/examples/phase1-scripted.mjs
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CachedModel, MemoryRunStore, phase1SummaryText, ResponseCache, runPhase1, ScriptedModel } from '@smi/harness';

const corpusRoot = `${process.env.SMI_FIXTURES ?? '../shared'}/corpus`;

/** Answer a Phase I prompt: the structs whose first field is `id: UID`. */
function answer(messages) {
  const prompt = messages.at(-1).content;
  const { modules } = JSON.parse(prompt.slice(prompt.indexOf('{')));
  const keyTypes = [];
  for (const [name, mod] of Object.entries(modules)) {
    for (const [struct, { fields }] of Object.entries(mod.structs)) {
      if (fields[0]?.name === 'id' && fields[0].type.name === 'UID') keyTypes.push(`${mod.address}::${name}::${struct}`);
    }
  }
  return { content: JSON.stringify({ key_types: keyTypes }), usage: { input: Math.ceil(prompt.length / 4), output: 40 } };
}

const cache = new ResponseCache(mkdtempSync(path.join(os.tmpdir(), 'smi-example-cache-')));
for (const label of ['first run', 'again, from the cache']) {
  const model = new CachedModel(new ScriptedModel(answer, 'uid-heuristic'), cache);
  const result = await runPhase1({
    corpusRoot,
    samples: 0,
    seed: 0n,
    agent: 'real-openai-compatible',
    model,
    price: { input: 3, output: 15 }, // $ per million tokens
    store: new MemoryRunStore(),
    runId: 'example',
  });
  console.log(`${label}: spent $${result.totals.spent_usd} for ${result.totals.calls} calls (${result.totals.cache_hits} from the cache)`);
  process.stdout.write(phase1SummaryText(result.runJson));
}

// Cost of the harness around Phase I over the shared corpus: reading the packages and
// extracting their interfaces (the reference, measured in the same run), then whole
// Phase I runs with a mock agent in memory and on disk (a run directory with events,
// results, ledger), and with a scripted model behind a fresh and a warm response cache.
// One line per workload. After `pnpm build`, from the repo root:
//   node packages/6-harness/bench/phase1.mjs   (or: pnpm --filter @smi/harness bench)
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadPackageDir } from '@smi/bytecode';
import { CachedModel, discoverPackages, DiskRunStore, keyTypes, MemoryRunStore, packageInterface, ResponseCache, runPhase1, ScriptedModel } from '@smi/harness';

const fixtures = process.env.SMI_FIXTURES ?? new URL('../../../../shared', import.meta.url).pathname;
const corpusRoot = `${fixtures}/corpus`;
const ROUNDS = 5;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'smi-bench-phase1-'));

async function measure(label, body) {
  await body(-1); // warm-up
  const started = performance.now();
  let packages = 0;
  for (let i = 0; i < ROUNDS; i++) packages += await body(i);
  return { label, ms: (performance.now() - started) / ROUNDS, packages: packages / ROUNDS };
}

const line = (r, ref) =>
  `phase1: ${r.label.padEnd(40)} | ${r.packages} packages in ${r.ms.toFixed(1).padStart(6)} ms = ${((r.packages / r.ms) * 1000).toFixed(0).padStart(4)} packages/s` +
  (ref ? ` | ${(r.ms / ref.ms).toFixed(2)}x the reference (${ref.ms.toFixed(1)} ms)` : ' | reference');

const ref = await measure('read + extract interfaces (reference)', () => {
  const { packages } = discoverPackages(corpusRoot);
  for (const p of packages)
    keyTypes(
      packageInterface(
        p.packageId,
        loadPackageDir(p.packageDir).modules.map((m) => m.module),
      ),
    );
  return packages.length;
});
console.log(line(ref));

const answer = (messages) => {
  const prompt = messages.at(-1).content;
  return { content: JSON.stringify({ key_types: [] }), usage: { input: Math.ceil(prompt.length / 4), output: 10 } };
};
const runs = [
  ['mock-noisy, in memory', () => ({ agent: 'mock-noisy', store: new MemoryRunStore() })],
  ['mock-noisy, run directory on disk', (i) => ({ agent: 'mock-noisy', store: DiskRunStore.at(path.join(tmp, `disk-${i}`)) })],
  [
    'scripted model, new cache each run',
    (i) => ({ agent: 'real-openai-compatible', model: new CachedModel(new ScriptedModel(answer), new ResponseCache(path.join(tmp, `cache-${i}`))), store: new MemoryRunStore() }),
  ],
  [
    'scripted model, warm cache',
    () => ({ agent: 'real-openai-compatible', model: new CachedModel(new ScriptedModel(answer), new ResponseCache(path.join(tmp, 'warm'))), store: new MemoryRunStore() }),
  ],
];
for (const [label, options] of runs) {
  const r = await measure(label, async (i) => {
    const result = await runPhase1({ corpusRoot, samples: 0, seed: 0n, runId: 'bench', continueOnError: true, ...options(i) });
    return result.runJson.packages.length;
  });
  console.log(line(r, ref));
}

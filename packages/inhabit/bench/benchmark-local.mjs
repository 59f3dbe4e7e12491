// Throughput of the benchmark over the shared corpus: functions per second, Tier A only and
// Tier A+B, in this thread (the reference, measured in the same run) and on 1 and 2 worker
// threads. One line per workload. After `pnpm build`, from the repo root:
//   node packages/inhabit/bench/benchmark-local.mjs   (or: pnpm --filter @smi/inhabit bench)
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { runBenchmark } from '@smi/inhabit';
import { fromFixtures } from '@smi/simulation';

const fixtures = process.env.SMI_FIXTURES ?? new URL('../../../../shared', import.meta.url).pathname;
const { packages: framework, protocolConfig } = fromFixtures(fixtures);
const corpus = findPackageDirs(`${fixtures}/corpus`).map((d) => loadPackageDir(d));
const targets = corpus;
const frameworkOnly = framework.filter((p) => !corpus.some((c) => c.id === p.id));

async function measure(label, options) {
  const started = performance.now();
  const { summary } = await runBenchmark({ framework: frameworkOnly, targets, protocolConfig, usePtb: true, timings: false, ...options });
  const ms = performance.now() - started;
  return { label, ms, rows: summary.rows, a: summary.tier_a_hits, b: summary.tier_b_hits };
}

const line = (r, ref) =>
  `benchmark-local: ${r.label.padEnd(26)} | ${r.rows} functions in ${(r.ms / 1000).toFixed(2)} s = ${(r.rows / (r.ms / 1000)).toFixed(0).padStart(4)} functions/s` +
  ` | Tier A ${r.a}, Tier B ${r.b}` +
  (ref ? ` | ${(ref.ms / r.ms).toFixed(2)}x the in-thread run (reference ${(ref.ms / 1000).toFixed(2)} s)` : ' | reference');

for (const tier of [{ name: 'Tier A only', tierAOnly: true }, { name: 'Tier A+B', tierAOnly: false }]) {
  const ref = await measure(`${tier.name}, in thread`, { tierAOnly: tier.tierAOnly, jobs: 0 });
  console.log(line(ref));
  for (const jobs of [1, 2]) console.log(line(await measure(`${tier.name}, --jobs ${jobs}`, { tierAOnly: tier.tierAOnly, jobs }), ref));
}

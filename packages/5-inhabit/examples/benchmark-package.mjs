// Benchmark one package of the shared corpus (the lending protocol, with its oracle as a
// dependency) and print each function's outcome and the summary. From the repo root,
// after `pnpm build`:
//   node packages/5-inhabit/examples/benchmark-package.mjs
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { runBenchmark, summaryText } from '@smi/inhabit';
import { fromFixtures } from '@smi/simulation';

const fixtures = process.env.SMI_FIXTURES ?? '../shared';
const { packages: framework, protocolConfig } = fromFixtures(fixtures);
const corpus = findPackageDirs(`${fixtures}/corpus`).map((d) => loadPackageDir(d));
const lending = corpus.filter((p) => p.id.startsWith('0xb2345915'));
const oracle = corpus.filter((p) => p.id.startsWith('0xca441b44'));

const { summary } = await runBenchmark({
  framework,
  dependencies: oracle,
  targets: lending,
  protocolConfig,
  usePtb: true,
  jobs: 0, // in this thread
  onRow: (row) => console.log(`${row.target_module}::${row.target_function}: ${row.status}${row.failure_stage ? ` (${row.failure_stage} ${row.error_code})` : ''}`),
});
process.stdout.write(summaryText(summary));

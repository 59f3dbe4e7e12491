// @smi/inhabit: benchmark one corpus package (the price oracle) on a worker thread (so the
// package's ./worker entry is used), Tier A and Tier B.
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { runBenchmark, type BenchmarkRow } from '@smi/inhabit';
import { fromFixtures } from '@smi/simulation';
import { check, done, fixture, ORACLE_ID } from './fixtures.mjs';

const { packages: framework, protocolConfig } = fromFixtures(fixture());
const oracle = findPackageDirs(fixture('corpus'))
  .map((d) => loadPackageDir(d))
  .filter((p) => p.id === ORACLE_ID);
check(oracle.length === 1, 'the oracle package is in the corpus');
const rows: BenchmarkRow[] = [];
const { summary } = await runBenchmark({ framework, targets: oracle, protocolConfig, usePtb: true, jobs: 1, onRow: (row) => rows.push(row) });
check(rows.length > 0 && summary.rows === rows.length, `rows for the oracle's functions (${rows.length})`);
check(summary.tier_b_hits > 0, 'some functions are inhabited by a real transaction');
done(`oracle: ${summary.rows} functions, Tier A ${summary.tier_a_hits}, Tier B ${summary.tier_b_hits} (one worker thread)`);

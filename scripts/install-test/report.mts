// @smi/report: benchmark one package in this thread (with @smi/inhabit), then make the HTML
// report and report.md from its rows, charts rendered offline.
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { runBenchmark, type BenchmarkRow } from '@smi/inhabit';
import { buildReport } from '@smi/report';
import { fromFixtures } from '@smi/simulation';
import { check, done, fixture, ORACLE_ID } from './fixtures.mjs';

const { packages: framework, protocolConfig } = fromFixtures(fixture());
const targets = findPackageDirs(fixture('corpus'))
  .map((d) => loadPackageDir(d))
  .filter((p) => p.id === ORACLE_ID);
const rows: BenchmarkRow[] = [];
await runBenchmark({ framework, targets, protocolConfig, usePtb: true, jobs: 0, onRow: (row) => rows.push(row) });
const report = await buildReport([{ $kind: 'BenchmarkLocal', label: 'oracle', path: 'results.jsonl', rows, damaged: [] }], { title: 'install test' });
check(report.html.includes('<svg') && report.markdown.length > 0, 'an HTML page with charts, and Markdown');
done(`report of ${rows.length} rows: ${report.html.length} bytes of HTML, ${report.charts.length} charts, ${report.markdown.length} bytes of Markdown`);

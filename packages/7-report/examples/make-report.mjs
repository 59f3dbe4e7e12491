// Make an HTML report (and report.md beside it) from benchmark-local rows, run directories
// or run JSON files. From the repo root, after `pnpm build`:
//   node packages/7-report/examples/make-report.mjs report.html results.jsonl runs/phase1
import { writeFileSync } from 'node:fs';
import { buildReport, ReportError, readInputs } from '@smi/report';

const [out, ...inputs] = process.argv.slice(2);
if (out === undefined || inputs.length === 0) {
  console.error('usage: make-report.mjs OUT.html INPUT...');
  process.exit(2);
}
try {
  const report = await buildReport(readInputs(inputs), { title: 'SMI report (example)' });
  writeFileSync(out, report.html);
  writeFileSync(out.replace(/\.html?$/, '') + '.md', report.markdown);
  console.log(`wrote ${out}: ${report.charts.length} charts, ${report.summary.packages} package rows`);
} catch (error) {
  if (!(error instanceof ReportError)) throw error;
  console.error(`${error.code}: ${error.message}`);
  process.exit(2);
}

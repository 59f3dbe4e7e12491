// Read vitest's JSON report (`--reporter=json --outputFile.json=...`, as .ci/run writes it) and
// print the plain closing line CI reads: "Tests: N passed, N failed, N skipped". Under CI
// (`CI=true` or `SMI_REQUIRE_FIXTURES=1`) a skipped or todo test is a failure: each is listed
// by file and name, and the exit status is 1. Failed tests are listed too (exit 1).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`no test report at ${file}: ${e.message}`);
  process.exit(1);
}

const strict = process.env.CI === 'true' || process.env.CI === '1' || process.env.SMI_REQUIRE_FIXTURES === '1';
const skippedStates = new Set(['pending', 'skipped', 'todo', 'disabled']);
const skipped = [];
const failed = [];
let passed = 0;
for (const suite of report.testResults ?? []) {
  const where = path.relative(process.cwd(), suite.name ?? '?');
  const tests = suite.assertionResults ?? [];
  // A file that failed to load has no tests but a message.
  if (suite.status === 'failed' && tests.length === 0) failed.push(`${where}: ${(suite.message ?? 'failed to run').split('\n')[0]}`);
  for (const t of tests) {
    const name = `${where} > ${t.fullName ?? [...(t.ancestorTitles ?? []), t.title].join(' ')}`;
    if (t.status === 'passed') passed++;
    else if (t.status === 'failed') failed.push(name);
    else if (skippedStates.has(t.status)) skipped.push(`${name}${t.status === 'todo' ? ' (todo)' : ''}`);
  }
}
// The totals vitest counted, when it counted more than the per-test lists hold.
const failedCount = Math.max(failed.length, report.numFailedTests ?? 0);
const skippedCount = Math.max(skipped.length, (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0));
console.log(`Tests: ${Math.max(passed, report.numPassedTests ?? 0)} passed, ${failedCount} failed, ${skippedCount} skipped`);

let status = 0;
if (failed.length > 0) {
  console.log(`Failed (${failed.length}):`);
  for (const f of failed) console.log(`  ${f}`);
  status = 1;
} else if (failedCount > 0) status = 1;
if (skippedCount > 0) {
  console.log(`Skipped or todo (${skippedCount})${strict ? ': not allowed under CI (SMI_REQUIRE_FIXTURES=1); every test must run' : ''}:`);
  for (const s of skipped) console.log(`  ${s}`);
  if (strict) status = 1;
}
process.exit(status);

// Run the two upstream IR transactional suites and print what did not match. From the repo
// root, after `pnpm build`:
//   node packages/7-conformance/examples/run-ir-suites.mjs
import { runIrCompilerSuite, runIrVmSuite } from '@smi/conformance';

const fixtures = process.env.SMI_FIXTURES ?? '../shared';
const compiler = await runIrCompilerSuite(`${fixtures}/fixtures/ir-tests/move-ir-compiler-transactional-tests`);
const { verdicts, ...vm } = await runIrVmSuite(`${fixtures}/fixtures/ir-tests/move-vm-transactional-tests`, {
  frameworkDir: `${fixtures}/fixtures/framework`,
});
for (const s of [compiler, vm]) {
  console.log(`${s.suite}: ${s.files} files, ${s.tasks} tasks, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  for (const n of s.notes) console.log(`  ${n}`);
}
for (const v of verdicts.filter((x) => x.status !== 'pass')) console.log(`${v.status} ${v.file} task ${v.task}: ${v.reason}`);

// Run the VM trace suite and print the summary. From the repo root, after `pnpm build`:
//   node packages/7-conformance/examples/run-traces.mjs
import { runTraceSuite } from '@smi/conformance';

const fixtures = process.env.SMI_FIXTURES ?? '../shared';
const { outcomes, ...summary } = await runTraceSuite(`${fixtures}/fixtures/vm-traces`, `${fixtures}/fixtures/framework`);
for (const o of outcomes) console.log(o.status.padEnd(8), o.name);
console.log(JSON.stringify(summary, null, 2));

// @smi/conformance: the upstream VM trace suite; the traces that call into 0x2 need the
// framework's tx_context compiled in test mode, by @smi/move-compiler (an optional peer).
import { runTraceSuite } from '@smi/conformance';
import { check, done, fixture } from './fixtures.mjs';

const { outcomes, ...summary } = await runTraceSuite(fixture('fixtures', 'vm-traces'), fixture('fixtures', 'framework'));
check(summary.tasks > 0 && summary.passed === summary.tasks, `every trace matches (${summary.passed}/${summary.tasks}, failed ${summary.failed})`);
done(`traces: ${summary.passed}/${summary.tasks} match (${outcomes.length} outcomes)`);

// @smi/simulation without its optional peer @smi/move-compiler (the runner moves it away):
// everything but compiling works, and compiling fails with COMPILER_NOT_INSTALLED.
import { compileAndPublish, fromFixtures, SimulationEnvironment, SimulationEnvironmentError } from '@smi/simulation';
import { check, done, fixture } from './fixtures.mjs';

const { packages, protocolConfig } = fromFixtures(fixture());
const env = SimulationEnvironment.create({ packages, protocolConfig });
const max = env.call('0x1::u64::max', [3, 7]);
check(max.transaction.status.$kind === 'Success', 'a call works without the compiler');
let error: unknown;
try {
  await compileAndPublish(env, { files: { 'sources/demo.move': 'module demo::demo;\n' }, packageName: 'demo' });
} catch (e) {
  error = e;
}
check(error instanceof SimulationEnvironmentError && error.code === 'COMPILER_NOT_INSTALLED', `COMPILER_NOT_INSTALLED (got ${String(error)})`);
check(error.message.includes('install @smi/move-compiler'), 'the message says what to install');
done(`without @smi/move-compiler: ${error.code}: ${error.message}`);

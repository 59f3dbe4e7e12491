// bench/sui-verifier: Sui's verifier passes (struct_with_key, global storage access, id_leak,
// private generics) over every module of every corpus package. The tests check that every
// module passes; this measures how long a pass takes. Run after `pnpm build`:
// `pnpm --filter @smi/ptb bench`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { LATEST_SUI_VERIFIER_CONFIG, suiVerifyModule } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..', process.env.SMI_FIXTURES ?? '../shared');
const modules = findPackageDirs(path.join(root, 'corpus')).flatMap((d) => loadPackageDir(d).modules.map((m) => m.module));
if (modules.length === 0) throw new Error(`no corpus modules under ${root}/corpus (set SMI_FIXTURES)`);

function time(fn, minMs = 1500) {
  for (let i = 0; i < 3; i++) fn();
  let runs = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    fn();
    runs++;
    now = performance.now();
  }
  return (now - start) / runs;
}

const ms = time(() => {
  for (const m of modules) suiVerifyModule(m, LATEST_SUI_VERIFIER_CONFIG);
});
console.log(`sui-verifier: ${modules.length} corpus modules | ${ms.toFixed(2)} ms/pass (${((ms * 1000) / modules.length).toFixed(1)} us/module)`);

// bench/deserialize: every module of the latest framework, @smi/bytecode vs the WASM
// template (@mysten/move-bytecode-template), measured in the same run. One line per
// workload. Run after `pnpm build`: `pnpm --filter @smi/bytecode bench`.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize as templateDeserialize, serialize as templateSerialize } from '@mysten/move-bytecode-template';
import { deserializeModule, parseModuleBundle, serializeModule } from '../dist/index.js';
import { mutations, templateStatus } from './mutations.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..', process.env.SMI_FIXTURES ?? '../shared');
const fwDir = path.join(root, 'fixtures', 'framework');
const modules = readdirSync(fwDir)
  .sort()
  .flatMap((f) => parseModuleBundle(new Uint8Array(readFileSync(path.join(fwDir, f)))));
const totalBytes = modules.reduce((n, m) => n + m.length, 0);

function time(fn, minMs = 1500) {
  for (let i = 0; i < 5; i++) fn();
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

const mib = (ms) => (totalBytes / (1024 * 1024) / (ms / 1000)).toFixed(1);
const line = (name, ours, theirs, extra = '') =>
  console.log(
    `${name}: ${modules.length} modules ${totalBytes} B | smi ${ours.toFixed(2)} ms/pass (${mib(ours)} MiB/s) | template ${theirs.toFixed(2)} ms/pass (${mib(theirs)} MiB/s) | ratio ${(theirs / ours).toFixed(2)}x${extra}`,
  );

// Workload 1: deserialize (ours includes the bounds checker, as the template's does).
const oursDe = time(() => {
  for (const m of modules) deserializeModule(m);
});
const theirsDe = time(() => {
  for (const m of modules) templateDeserialize(m);
});
line('deserialize-framework', oursDe, theirsDe, ' (goal >= 2x)');

// Workload 2: serialize the decoded modules.
const decoded = modules.map((m) => deserializeModule(m));
const templateJson = modules.map((m) => templateDeserialize(m));
const oursSer = time(() => {
  for (const m of decoded) serializeModule(m);
});
const theirsSer = time(() => {
  for (const j of templateJson) templateSerialize(j);
});
let identical = 0;
decoded.forEach((m, i) => {
  if (Buffer.compare(Buffer.from(serializeModule(m)), Buffer.from(modules[i])) === 0) identical++;
});
line('serialize-framework', oursSer, theirsSer, ` | round-trip identical ${identical}/${modules.length}`);

// Workload 3: a longer error-parity fuzz run than the CI test.
const count = Number(process.env.SMI_FUZZ_COUNT ?? 30000);
const t0 = performance.now();
let rejected = 0;
let same = 0;
let acceptMismatch = 0;
for (const { bytes } of mutations(modules, count, 424242)) {
  let theirs = null;
  let ours = null;
  try {
    templateDeserialize(bytes);
  } catch (e) {
    theirs = templateStatus(e);
  }
  try {
    deserializeModule(bytes, { allowUnpublishable: false, checkNoExtraneousBytes: false, deprecateGlobalStorageOps: false });
  } catch (e) {
    if (e?.name !== 'BytecodeError') throw e;
    ours = e.code;
  }
  if ((theirs === null) !== (ours === null)) acceptMismatch++;
  else if (theirs !== null) {
    rejected++;
    if (theirs === ours) same++;
  }
}
console.log(
  `fuzz-parity: ${count} mutations in ${((performance.now() - t0) / 1000).toFixed(1)} s | rejected by both ${rejected} | same status code ${same} (${((100 * same) / rejected).toFixed(2)}%) | accept/reject disagreements ${acceptMismatch}`,
);

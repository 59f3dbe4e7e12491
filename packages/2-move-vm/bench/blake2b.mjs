// bench/blake2b: BLAKE2b-256 (`blake2b256Of`, WebAssembly where it compiles, see
// src/natives/sui/crypto/blake2b-wasm.ts) against @noble/hashes' BLAKE2b in the same run.
// One line per input size; times are medians of the runs made in half a second.
// Run after `pnpm build`: `node packages/2-move-vm/bench/blake2b.mjs`.
import { blake2b } from '@noble/hashes/blake2.js';
import { blake2b256Of } from '../dist/index.js';
import { medianTime } from './timing.mjs';

const time = (fn) => medianTime(fn, 500, 20);

for (const [label, size, batch] of [
  ['object digest', 200, 2000],
  ['effects digest', 100_000, 1],
]) {
  const input = Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) & 255);
  if (Buffer.from(blake2b256Of(input)).toString('hex') !== Buffer.from(blake2b(input, { dkLen: 32 })).toString('hex')) throw new Error('digests differ');
  const smi =
    time(() => {
      for (let i = 0; i < batch; i++) blake2b256Of(input);
    }) / batch;
  const noble =
    time(() => {
      for (let i = 0; i < batch; i++) blake2b(input, { dkLen: 32 });
    }) / batch;
  const mbs = (ms) => (size / 1e6 / (ms / 1000)).toFixed(0);
  console.log(
    `blake2b256 ${label}: ${size} bytes | smi ${(smi * 1000).toFixed(2)} µs = ${mbs(smi)} MB/s | @noble/hashes ${(noble * 1000).toFixed(2)} µs = ${mbs(noble)} MB/s | ${(noble / smi).toFixed(1)}x faster`,
  );
}

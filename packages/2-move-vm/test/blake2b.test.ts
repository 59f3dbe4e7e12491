import { blake2b } from '@noble/hashes/blake2.js';
import { describe, expect, it } from 'vitest';
import { blake2b256Of } from '@smi/move-vm';
import { blake2b256Js } from '../src/natives/sui/crypto/blake2b.js';
import { wasmBlake2b } from '../src/natives/sui/crypto/blake2b-wasm.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const noble = (b: Uint8Array): string => hex(blake2b(b, { dkLen: 32 }));

/** Deterministic pseudo-random bytes. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const wasm = wasmBlake2b();
// The default (WebAssembly here) and the JS fallback, through the same checks.
const IMPLEMENTATIONS: [string, (...parts: Uint8Array[]) => Uint8Array][] = [
  ['blake2b256Of', blake2b256Of],
  ['the JS fallback', (...parts) => blake2b256Js(parts)],
];

it('Node compiles the WebAssembly version, and blake2b256Of uses it', () => {
  expect(wasm).not.toBeNull();
  const b = bytes(300, 9);
  expect(hex((wasm as NonNullable<typeof wasm>)([b]))).toBe(noble(b));
});

for (const [name, blake2b256Of] of IMPLEMENTATIONS)
  describe(name, () => {
    it('matches the published test vectors', () => {
      expect(hex(blake2b256Of(new Uint8Array(0)))).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
      expect(hex(blake2b256Of(new TextEncoder().encode('abc')))).toBe('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319');
    });

    it('matches @noble/hashes for every length around the block size and for large inputs', () => {
      for (let n = 0; n <= 1100; n++) {
        const b = bytes(n, n);
        expect(hex(blake2b256Of(b)), `length ${n}`).toBe(noble(b));
      }
      for (const n of [65_536, 100_003]) {
        const b = bytes(n, 7);
        expect(hex(blake2b256Of(b))).toBe(noble(b));
      }
    });

    it('hashes the concatenation of its parts, however they are split', () => {
      for (const n of [0, 1, 127, 128, 129, 255, 256, 257, 600]) {
        const b = bytes(n, 3);
        for (const cuts of [[0], [1], [17, 128], [128], [127, 129, 256], [n]]) {
          const parts: Uint8Array[] = [];
          let at = 0;
          for (const c of cuts.filter((c) => c <= n)) {
            parts.push(b.subarray(at, Math.max(at, c)));
            at = Math.max(at, c);
          }
          parts.push(b.subarray(at), new Uint8Array(0));
          expect(hex(blake2b256Of(...parts)), `length ${n}, cuts ${cuts.join(',')}`).toBe(noble(b));
        }
      }
    });
  });

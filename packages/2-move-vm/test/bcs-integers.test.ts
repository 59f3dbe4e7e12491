import { describe, expect, it } from 'vitest';
import { BcsCodec, TypeTable } from '../src/index.js';

const types = new TypeTable();
const codec = new BcsCodec(types);

/** Little-endian bytes of `v` in `n` bytes, computed byte by byte. */
function le(v: bigint, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}

describe('BCS integers (the codec reads wide integers 32 bits at a time)', () => {
  const cases: [string, number, readonly bigint[]][] = [
    ['u64', 8, [0n, 1n, 0xffn, 0xffffffffn, 0x100000000n, 0x0102030405060708n, (1n << 64n) - 1n]],
    ['u128', 16, [0n, 7n, 1n << 32n, 1n << 64n, (1n << 96n) + 5n, 0x0102030405060708090a0b0c0d0e0f10n, (1n << 128n) - 1n]],
    ['u256', 32, [0n, 1n, 1n << 224n, (1n << 255n) + 1n, (1n << 160n) - 1n, (1n << 256n) - 1n]],
  ];
  for (const [name, n, values] of cases) {
    it(`${name}: encodes and decodes each value, byte for byte`, () => {
      const t = types[name as 'u64' | 'u128' | 'u256'];
      for (const v of values) {
        const bytes = codec.encode(v, t);
        expect(Array.from(bytes)).toEqual(le(v, n));
        expect(codec.decode(bytes, t)).toBe(v);
      }
    });
  }

  it('reads u16 and u32 as numbers', () => {
    expect(codec.decode(Uint8Array.of(0x34, 0x12), types.u16)).toBe(0x1234);
    expect(codec.decode(Uint8Array.of(0xff, 0xff, 0xff, 0xff), types.u32)).toBe(0xffffffff);
  });

  it('rejects a truncated wide integer', () => {
    expect(() => codec.decode(new Uint8Array(7), types.u64)).toThrow();
    expect(() => codec.decode(new Uint8Array(31), types.u256)).toThrow();
  });
});

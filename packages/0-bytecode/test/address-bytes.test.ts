import { describe, expect, it } from 'vitest';
import { addressFromBytes, ByteWriter, writeAddressBytes } from '../src/index.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('address bytes', () => {
  it('addressFromBytes spells 32 bytes as 0x + 64 lowercase hex digits, from any offset', () => {
    const bytes = Uint8Array.from({ length: 40 }, (_, i) => (i * 37 + 11) & 255);
    expect(addressFromBytes(bytes)).toBe(`0x${hex(bytes.subarray(0, 32))}`);
    expect(addressFromBytes(bytes, 8)).toBe(`0x${hex(bytes.subarray(8, 40))}`);
    expect(addressFromBytes(new Uint8Array(32))).toBe(`0x${'0'.repeat(64)}`);
    expect(addressFromBytes(new Uint8Array(32).fill(255))).toBe(`0x${'f'.repeat(64)}`);
  });

  it('writeAddressBytes reads back what addressFromBytes wrote, in either case, and refuses anything else', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 53 + 7) & 255);
    const text = addressFromBytes(bytes);
    const out = new Uint8Array(34);
    expect(writeAddressBytes(text, out, 2)).toBe(true);
    expect(out.subarray(2)).toEqual(bytes);
    expect(writeAddressBytes(`0X${text.slice(2).toUpperCase()}`, out, 0)).toBe(true);
    expect(out.subarray(0, 32)).toEqual(bytes);
    for (const bad of ['0x2', `0x${'g'.repeat(64)}`, `zz${'0'.repeat(64)}`, `0x${'0'.repeat(63)}é`]) expect(writeAddressBytes(bad, out, 0)).toBe(false);
  });
});

describe('ByteWriter', () => {
  it('str writes the ULEB128 byte length then UTF-8, ASCII or not', () => {
    const w = new ByteWriter(4);
    w.str('table');
    w.str('');
    w.str('é€');
    w.str('x'.repeat(200));
    const enc = new TextEncoder();
    const expected = [5, ...enc.encode('table'), 0, 5, ...enc.encode('é€'), 0xc8, 0x01, ...enc.encode('x'.repeat(200))];
    expect(Array.from(w.finish())).toEqual(expected);
  });

  it('address writes 32 bytes or nothing, and written/clear reuse the buffer', () => {
    const w = new ByteWriter(8);
    const a = `0x${'ab'.repeat(32)}`;
    expect(w.address(a)).toBe(true);
    expect(w.address('0x2')).toBe(false);
    expect(w.written()).toEqual(new Uint8Array(32).fill(0xab));
    w.clear();
    expect(w.written().length).toBe(0);
    w.u8(7);
    expect(Array.from(w.finish())).toEqual([7]);
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodePoints } from '../src/canonical-json.js';

describe('canonicalJson', () => {
  it('writes scalars and empty containers like serde_json', () => {
    expect(canonicalJson(null)).toBe('null\n');
    expect(canonicalJson(true)).toBe('true\n');
    expect(canonicalJson(42)).toBe('42\n');
    expect(canonicalJson(-7)).toBe('-7\n');
    expect(canonicalJson('a')).toBe('"a"\n');
    expect(canonicalJson([])).toBe('[]\n');
    expect(canonicalJson({})).toBe('{}\n');
  });

  it('sorts object keys recursively and keeps array order', () => {
    const text = canonicalJson({ b: [3, 1, { z: 1, a: 2 }], a: { y: {}, x: [] } });
    expect(text).toBe(['{', '  "a": {', '    "x": [],', '    "y": {}', '  },', '  "b": [', '    3,', '    1,', '    {', '      "a": 2,', '      "z": 1', '    }', '  ]', '}', ''].join('\n'));
  });

  it('is independent of insertion order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('escapes strings like serde_json (control characters, quotes, backslash; not non-ASCII)', () => {
    expect(canonicalJson('q"b\\n\n\t\u0001é€')).toBe('"q\\"b\\\\n\\n\\t\\u0001é€"\n');
    expect(canonicalJson({ 'k"': 1 })).toBe('{\n  "k\\"": 1\n}\n');
  });

  it('writes bigints as bare integers and skips undefined entries', () => {
    expect(canonicalJson({ v: 340282366920938463463374607431768211455n, u: undefined })).toBe('{\n  "v": 340282366920938463463374607431768211455\n}\n');
    expect(canonicalJson([undefined])).toBe('[\n  null\n]\n');
  });

  it('handles a "__proto__" own key as data', () => {
    const value = Object.fromEntries([
      ['__proto__', 1],
      ['a', 2],
    ]);
    expect(canonicalJson(value)).toBe('{\n  "__proto__": 1,\n  "a": 2\n}\n');
  });

  it('rejects values JSON cannot represent', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson(new Uint8Array(1))).toThrow(TypeError);
    expect(() => canonicalJson(new Map())).toThrow(TypeError);
  });

  it('sorts keys by code point (UTF-8 byte order), like Rust strings', () => {
    // U+FF21 (BMP) sorts before U+1F600 (astral) in UTF-8, though its UTF-16 unit is larger.
    const keys = ['b', 'B', '_', 'a', '\u{1F600}', '\uFF21', 'aa'];
    expect([...keys].sort(compareCodePoints)).toEqual(['B', '_', 'a', 'aa', 'b', '\uFF21', '\u{1F600}']);
    const enc = new TextEncoder();
    const bytewise = [...keys].sort((x, y) => Buffer.compare(Buffer.from(enc.encode(x)), Buffer.from(enc.encode(y))));
    expect([...keys].sort(compareCodePoints)).toEqual(bytewise);
  });

  it('round-trips through JSON.parse', () => {
    const value = { z: [1, { y: 'x', b: false }], a: null, m: { k: [[], {}] } };
    const text = canonicalJson(value);
    expect(JSON.parse(text)).toEqual(value);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    // With keys already in order, the layout is exactly JSON.stringify's two-space layout.
    const sorted = { a: null, m: { k: [[], {}] }, z: [1, { b: false, y: 'x' }] };
    expect(text).toBe(JSON.stringify(sorted, null, 2) + '\n');
  });

  it("writes the compact 'hash' layout as JSON.stringify of the key-sorted value, without a newline", () => {
    const value = { z: [1, { y: 'x', b: false }], a: null, m: { k: [[], {}] }, u: undefined };
    const sorted = { a: null, m: { k: [[], {}] }, z: [1, { b: false, y: 'x' }] };
    expect(canonicalJson(value, { for: 'hash' })).toBe(JSON.stringify(sorted));
    expect(canonicalJson([undefined, 1.5e-7, 'é"\n', {}], { for: 'hash' })).toBe('[null,1.5e-7,"é\\"\\n",{}]');
    // A key missing on one side of a comparison reads as null.
    expect(canonicalJson(undefined, { for: 'hash' })).toBe('null');
    expect(canonicalJson({ v: 2n ** 70n }, { for: 'hash' })).toBe('{"v":1180591620717411303424}');
  });
});

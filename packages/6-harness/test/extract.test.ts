/**
 * Reading JSON out of a model's answer: the original's order (the text, the first fence,
 * the first-`{`-to-last-`}` or `[`-to-`]` span), and with a shape to accept, the first
 * balanced value of that shape anywhere in the answer.
 */
import { describe, expect, it } from 'vitest';
import { extractJsonValue } from '../src/phase1/extract.js';

const calls = (x: unknown): boolean => Array.isArray(x);

describe('extractJsonValue', () => {
  it('reads JSON, a fence, and a span in prose as the original did', () => {
    expect(extractJsonValue('[1, 2]')).toEqual({ $kind: 'ok', value: [1, 2], mode: 'json' });
    expect(extractJsonValue('```json\n{"a": 1}\n```')).toEqual({ $kind: 'ok', value: { a: 1 }, mode: 'fenced' });
    expect(extractJsonValue('so: {"a": [1]} ok')).toEqual({ $kind: 'ok', value: { a: [1] }, mode: 'embedded' });
    expect(extractJsonValue('nothing here').$kind).toBe('unparseable');
  });

  it('the original reads one call in an array in prose as the call; a shape to accept finds the array', () => {
    const text = 'Calls: [{"target": "0x2::m::f", "args": []}] done';
    expect(extractJsonValue(text)).toMatchObject({ value: { target: '0x2::m::f' } });
    expect(extractJsonValue(text, calls)).toEqual({ $kind: 'ok', value: [{ target: '0x2::m::f', args: [] }], mode: 'embedded' });
  });

  it('brackets in the prose around it, and brackets inside strings, do not hide the value', () => {
    const text = 'Filled [1 call] below:\n[{"target": "0x2::m::f", "args": [{"string": "a]b}"}]}]\nThe {u64} is 9 [see above].';
    expect(extractJsonValue(text, calls)).toMatchObject({ $kind: 'ok', value: [{ args: [{ string: 'a]b}' }] }] });
    // Inside a fence, the fenced value is read first.
    expect(extractJsonValue('```\nsee [x]\n[{"a": 1}]\n```', calls)).toEqual({ $kind: 'ok', value: [{ a: 1 }], mode: 'fenced' });
  });

  it('nothing of the shape: the original answer stands', () => {
    expect(extractJsonValue('{"a": 1}', calls)).toEqual({ $kind: 'ok', value: { a: 1 }, mode: 'json' });
    expect(extractJsonValue('no json [at all', calls).$kind).toBe('unparseable');
  });
});

/**
 * The fast path of request parsing (`sandbox/fast-parse.ts`) against zod, the oracle: on
 * generated requests (well-formed ones, and the same with one thing broken or odd), the
 * fast path either leaves the request to zod or gives exactly what zod gives — the same
 * values, the same keys in the same order.
 */
import { describe, expect, it } from 'vitest';
import { parseSandboxRequest } from '@smi/simulation';
import { ACTION_SCHEMAS } from '../src/sandbox/request.js';
import { fastParams } from '../src/sandbox/fast-parse.js';
import { rng } from '../../../test-support/rng.js';

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const ADDR = ['0x2', '0xa11ce', '0x' + 'ab'.repeat(32), 'AbC', '0x' + '0'.repeat(64)];

function u64(r: R): unknown {
  return pick(r, [0, 1, 5, 2 ** 40, Number.MAX_SAFE_INTEGER, '0', '123', '18446744073709551615', '00042']);
}

function jsonValue(r: R, depth = 0): unknown {
  const k = Math.floor(r() * (depth > 2 ? 4 : 6));
  if (k === 0) return pick(r, [null, true, false]);
  if (k === 1) return pick(r, [0, 7, -3, 1.5, 1e21]);
  if (k === 2) return pick(r, ['', 'x', '0x1', '99']);
  if (k === 3) return pick(r, [[], {}]);
  if (k === 4) return [jsonValue(r, depth + 1), jsonValue(r, depth + 1)];
  return { a: jsonValue(r, depth + 1), b: jsonValue(r, depth + 1) };
}

function arg(r: R): unknown {
  const i = Math.floor(r() * 4);
  return pick(r, [i, 'gas', { input: i }, { result: i }, { cmd: i, idx: 0 }, { nested_result: [i, 1] }, { gas_coin: true }]);
}

function input(r: R): Record<string, unknown> {
  switch (Math.floor(r() * 5)) {
    case 0:
      return { type: 'pure', value: jsonValue(r), value_type: pick(r, ['u64', 'address', 'vector<u8>', 'bool']) };
    case 1:
      return { type: 'object', object_id: pick(r, ADDR) };
    case 2:
      return { type: 'object', object_id: pick(r, ADDR), mode: pick(r, ['mutable', 'immutable', 'receiving', 'shared']), version: u64(r) };
    case 3:
      return { type: 'gas', budget: u64(r) };
    default:
      return { type: 'witness', witness_type: '0x2::sui::SUI' };
  }
}

function command(r: R): Record<string, unknown> {
  const args = (): unknown[] => Array.from({ length: Math.floor(r() * 3) }, () => arg(r));
  switch (Math.floor(r() * 7)) {
    case 0:
      return { type: 'move_call', package: pick(r, ADDR), module: 'm', function: 'f', type_args: ['u64'], args: args() };
    case 1:
      return { type: 'move_call', target: '0x2::coin::value', args: args() };
    case 2:
      return { type: 'move_call', package: '0x1', module: 'option', function: 'none', type_args: ['u8'] };
    case 3:
      return { type: 'transfer_objects', objects: args(), recipient: pick(r, [arg(r), '0xb0b', 'gas', '5']) };
    case 4:
      return { type: 'split_coins', coin: arg(r), amounts: args() };
    case 5:
      return { type: 'merge_coins', target: arg(r), sources: args() };
    default:
      return { type: 'make_move_vec', element_type: pick(r, [null, 'u64', undefined]), elements: args() };
  }
}

function txOptions(r: R): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (r() < 0.3) o.sender = pick(r, ADDR);
  if (r() < 0.3) o.gas_budget = u64(r);
  if (r() < 0.2) o.gas_coin = pick(r, ADDR);
  if (r() < 0.2) o.checks = pick(r, ['strict', 'relaxed']);
  return o;
}

function request(r: R): Record<string, unknown> {
  switch (Math.floor(r() * 4)) {
    case 0: {
      const req: Record<string, unknown> = { action: 'execute_ptb', commands: Array.from({ length: 1 + Math.floor(r() * 3) }, () => command(r)), ...txOptions(r) };
      if (r() < 0.8) req.inputs = Array.from({ length: Math.floor(r() * 4) }, () => input(r));
      return req;
    }
    case 1:
      return { action: 'call_function', package: pick(r, ADDR), module: 'u64', function: 'max', args: [jsonValue(r), jsonValue(r)], ...(r() < 0.5 ? { type_args: ['u8'] } : {}), ...txOptions(r) };
    case 2:
      return { action: 'init_package', package: pick(r, ADDR), ...(r() < 0.5 ? { modules: pick(r, [[], ['a'], ['a', 'b']]) } : {}), ...(r() < 0.5 ? { upgrade_cap: r() < 0.5 } : {}), ...txOptions(r) };
    default:
      return {
        action: 'create_test_object',
        type_tag: '0x2::coin::Coin<0x2::sui::SUI>',
        ...(r() < 0.5 ? { value: jsonValue(r) } : {}),
        ...(r() < 0.3 ? { object_id: pick(r, ADDR) } : {}),
        ...(r() < 0.3 ? { owner: pick(r, ['shared', 'immutable', '0xb0b', 'object:0x5', 'nobody']) } : {}),
      };
  }
}

const ODD: readonly unknown[] = [undefined, null, -1, 1.5, 70_000, 2 ** 64, '', 'gas', 'zz', [], [1, 2, 3], {}, { input: -1 }, true, '18446744073709551616', NaN];

/** The request with one value somewhere inside replaced by an odd one, or a key removed or added. */
function mutate(r: R, v: unknown): unknown {
  if (Array.isArray(v)) {
    if (v.length === 0 || r() < 0.2) return [...v, pick(r, ODD)];
    const i = Math.floor(r() * v.length);
    return v.map((x, j) => (j === i ? mutate(r, x) : x));
  }
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    const roll = r();
    if (keys.length === 0 || roll < 0.15) out[pick(r, ['extra', 'input', 'result', 'target', 'mode', 'value'])] = pick(r, ODD);
    else if (roll < 0.3) delete out[pick(r, keys)];
    else {
      const k = pick(r, keys.filter((x) => x !== 'action').concat(keys.length === 1 ? keys : []));
      out[k] = r() < 0.5 ? pick(r, ODD) : mutate(r, out[k]);
    }
    return out;
  }
  return pick(r, ODD);
}

/** Values with their key order and types (bigints, -0) shown. */
function show(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? `${x}n` : Object.is(x, -0) ? '-0' : x));
}

function compare(req: Record<string, unknown>): 'fast' | 'zod' {
  const action = String(req.action) as keyof typeof ACTION_SCHEMAS;
  const fast = fastParams(action, req);
  if (fast === undefined) return 'zod';
  const z = ACTION_SCHEMAS[action].safeParse(req);
  expect(z.success, `${show(req)}: zod rejects what the fast path takes`).toBe(true);
  expect(show(fast), show(req)).toBe(show(z.data));
  return 'fast';
}

describe('sandbox request parsing: the fast path gives what zod gives', () => {
  it('on well-formed requests, and takes nearly all of them', () => {
    const r = rng(1);
    let fast = 0;
    const n = 3000;
    for (let i = 0; i < n; i++) if (compare(request(r)) === 'fast') fast++;
    // What it leaves to zod: generated values zod rejects (1e21 is no u64...) and odd spellings.
    expect(fast / n).toBeGreaterThan(0.8);
  });

  it('on requests with one thing broken or odd', () => {
    const r = rng(2);
    for (let i = 0; i < 20_000; i++) {
      let req = request(r);
      for (let k = 1 + Math.floor(r() * 2); k > 0; k--) req = mutate(r, req) as Record<string, unknown>;
      if (typeof req !== 'object' || req === null || typeof req.action !== 'string' || !(req.action in ACTION_SCHEMAS)) continue;
      compare(req);
    }
  });

  it('parseRequest answers the same through either path, errors included', () => {
    const ok = parseSandboxRequest({ action: 'execute_ptb', commands: [{ type: 'split_coins', coin: 'gas', amounts: [0] }], inputs: [{ type: 'pure', value: 1, value_type: 'u64' }] });
    expect(ok).toEqual({
      action: 'execute_ptb',
      params: { inputs: [{ type: 'pure', value: 1, value_type: 'u64' }], commands: [{ type: 'split_coins', coin: { $kind: 'GasCoin' }, amounts: [{ $kind: 'Input', index: 0 }] }] },
    });
    expect(() => parseSandboxRequest({ action: 'execute_ptb', commands: [{ type: 'split_coins', coin: { bogus: 1 }, amounts: [] }] })).toThrow(
      /invalid execute_ptb request: commands\[0\]\.coin: expected an argument/,
    );
  });
});

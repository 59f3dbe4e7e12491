/**
 * The PTB part of a sandbox request (`execute_ptb`): inputs, commands and the arguments
 * commands refer to, as zod schemas (the trust boundary) normalised into tagged forms.
 *
 * Arguments (`PtbArg`) take every spelling old and new clients use:
 * `3` / `{"input":3}` (input 3), `{"result":1}` (the whole result of command 1),
 * `{"cmd":1,"idx":0}` / `{"nested_result":[1,0]}` (value 0 of command 1), and
 * `"gas"` / `{"gas_coin":true}` (the gas coin).
 */
import type { Json } from '@smi/move-vm';
import { z } from 'zod';

const index = z.number().int().min(0).max(65_535);

/** A JSON value (any). */
export const jsonValue = z.custom<Json>((v) => isJson(v, 0), { error: 'expected a JSON value' });

/** `true` for values JSON can spell (what `JSON.parse` returns). */
export function isJson(v: unknown, depth: number): boolean {
  if (depth > 256) return false;
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every((x) => isJson(x, depth + 1));
  return false;
}

/** A u64 given as a JSON number (exact) or a decimal string. */
export const u64 = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[0-9]{1,20}$/)], {
    error: 'expected a non-negative integer (a number, or a decimal string above 2^53)',
  })
  .transform((v) => BigInt(v))
  .refine((v) => v < 1n << 64n, 'does not fit in u64');

/** A normalised PTB argument. */
export type PtbArgSpec = { $kind: 'Input'; index: number } | { $kind: 'Result'; command: number } | { $kind: 'NestedResult'; command: number; index: number } | { $kind: 'GasCoin' };

export const ptbArg = z
  .union(
    [
      index,
      z.literal('gas'),
      z.object({ input: index }),
      z.object({ cmd: index, idx: index }),
      z.object({ nested_result: z.tuple([index, index]) }),
      z.object({ result: index }),
      z.object({ gas_coin: z.literal(true) }),
    ],
    { error: 'expected an argument: an input index, {"input":i}, {"result":c}, {"cmd":c,"idx":i}, {"nested_result":[c,i]} or "gas"' },
  )
  .transform((a): PtbArgSpec => {
    if (typeof a === 'number') return { $kind: 'Input', index: a };
    if (a === 'gas' || 'gas_coin' in a) return { $kind: 'GasCoin' };
    if ('input' in a) return { $kind: 'Input', index: a.input };
    if ('cmd' in a) return { $kind: 'NestedResult', command: a.cmd, index: a.idx };
    if ('nested_result' in a) return { $kind: 'NestedResult', command: a.nested_result[0], index: a.nested_result[1] };
    return { $kind: 'Result', command: a.result };
  });

const address = z.string().regex(/^(0x)?[0-9a-fA-F]{1,64}$/, 'expected an address (hex, 0x optional)');

/** How an object input is used. */
const objectMode = z.enum(['mutable', 'mut', 'immutable', 'imm', 'owned', 'value', 'shared', 'receiving']);

export const ptbInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pure'), value: jsonValue, value_type: z.string().min(1) }),
  /** `version`: with fetching, the version to fetch when the session does not hold the object. */
  z.object({ type: z.literal('object'), object_id: address, mode: objectMode.optional(), version: u64.optional() }),
  z.object({ type: z.literal('gas'), budget: u64 }),
  z.object({ type: z.literal('witness'), witness_type: z.string().min(1) }),
]);

/** A PTB input of the request. */
export type PtbInputSpec = z.infer<typeof ptbInput>;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64');

export const ptbCommand = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('move_call'),
      package: z.string().optional(),
      module: z.string().optional(),
      function: z.string().optional(),
      /** `0xpkg::module::function`, instead of the three fields. */
      target: z.string().optional(),
      type_args: z.array(z.string()).default([]),
      args: z.array(ptbArg).default([]),
    })
    .refine((c) => c.target !== undefined || (c.package !== undefined && c.module !== undefined && c.function !== undefined), {
      error: 'move_call needs package, module and function (or target)',
    }),
  z.object({ type: z.literal('transfer_objects'), objects: z.array(ptbArg), recipient: z.union([ptbArg, address]) }),
  z.object({ type: z.literal('split_coins'), coin: ptbArg, amounts: z.array(ptbArg) }),
  z.object({ type: z.literal('merge_coins'), target: ptbArg, sources: z.array(ptbArg) }),
  z.object({ type: z.literal('make_move_vec'), element_type: z.string().nullable().optional(), elements: z.array(ptbArg) }),
  z.object({ type: z.literal('publish'), modules: z.array(base64).min(1), dependencies: z.array(address).optional() }),
  z.object({
    type: z.literal('upgrade'),
    modules: z.array(base64).min(1),
    package: address,
    ticket: ptbArg,
    dependencies: z.array(address).optional(),
  }),
  z.object({ type: z.literal('receive'), object_id: address, object_type: z.string().optional() }),
]);

/** A PTB command of the request. */
export type PtbCommandSpec = z.infer<typeof ptbCommand>;

/**
 * The zod pieces tool inputs are made of, with the descriptions clients show to models.
 * They check shapes and types; the sandbox checks the rest (addresses, types that
 * resolve, values that fit their Move types) and its refusals come back as
 * `INVALID_INPUT`, `TYPE_MISMATCH`, ... errors.
 */
import { z } from 'zod';

/** A package id or object id. */
export const address = (what: string): z.ZodString => z.string().min(1).describe(`${what}: 0x followed by up to 64 hex digits (short forms such as 0x2 are fine)`);

/** A module by path, as the sandbox's actions name it. */
export const modulePathArg = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*$/, 'expected "0xpackage::module"')
  .describe('Module path "0xpackage::module", e.g. "0x2::coin" (short package ids are fine)');

/** A module name. */
export const moduleName = z.string().min(1).describe('Module name, e.g. "coin"');

/** A u64 amount (a number, or a decimal string above 2^53). */
export const u64 = (what: string) =>
  z.union([z.number().int().nonnegative(), z.string().regex(/^[0-9]{1,20}$/)]).describe(`${what}: a non-negative integer (a number, or a decimal string above 2^53)`);

/** Type arguments. */
export const typeArgs = z.array(z.string().min(1)).default([]).describe('Type arguments as Move type strings, e.g. ["0x2::sui::SUI"] or ["u64"]');

/** A JSON value read by a Move type. */
export const moveValue = z
  .unknown()
  .describe(
    'A JSON value read by the Move type: integers as numbers or decimal strings, bool, address as "0x…", vector<u8> as "0x…" hex or a number array, ' +
      'other vectors as arrays, String as text, Option as null or the value, structs as objects by field name, enums as {"$variant": name, ...fields}',
  );

/** Options of the tools that run a transaction. */
export const txOptions = {
  sender: address('Sender address (default: the session sender)').optional(),
  gas_budget: u64('Gas budget in MIST (default: the session budget)').optional(),
};

const index = z.number().int().min(0).max(65_535);

/** An argument of a PTB command. */
export const ptbArg = z
  .union([
    index.describe('input i'),
    z.literal('gas').describe('the gas coin'),
    z.object({ input: index }).describe('input i'),
    z.object({ result: index }).describe('the (single) result of command c'),
    z.object({ nested_result: z.tuple([index, index]) }).describe('result i of command c, as [c, i]'),
    z.object({ cmd: index, idx: index }).describe('result idx of command cmd'),
  ])
  .describe('An argument: an input index, {"input": i}, {"result": c}, {"nested_result": [c, i]}, {"cmd": c, "idx": i} or "gas"');

/** An input of a PTB. */
export const ptbInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pure'), value: moveValue, value_type: z.string().min(1).describe('Move type of the value, e.g. "u64", "address", "vector<u8>"') }).describe('A pure value'),
  z
    .object({
      type: z.literal('object'),
      object_id: address('Object id'),
      mode: z.enum(['mutable', 'immutable', 'receiving']).optional().describe('For a shared object: mutable (default) or immutable; receiving: a Receiving<T> of an object sent to another object'),
    })
    .describe('An object of the session (its owner decides owned or shared)'),
  z.object({ type: z.literal('gas'), budget: u64('Balance in MIST') }).describe('A new Coin<SUI> of that balance, owned by the sender'),
]);

/** A command of a PTB. */
export const ptbCommand = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('move_call'),
      package: z.string().min(1).optional().describe('Package id (with module and function; or target)'),
      module: z.string().min(1).optional().describe('Module name'),
      function: z.string().min(1).optional().describe('Function name'),
      target: z.string().min(1).optional().describe('"0xpackage::module::function", instead of package, module and function'),
      type_args: typeArgs,
      args: z.array(ptbArg).default([]).describe('Arguments (a &mut TxContext parameter is supplied, not passed)'),
    })
    .describe('Call a public or entry function'),
  z
    .object({ type: z.literal('transfer_objects'), objects: z.array(ptbArg), recipient: z.union([z.string().min(1), ptbArg]).describe('An address "0x…", or an argument holding one') })
    .describe('Transfer objects to an address'),
  z.object({ type: z.literal('split_coins'), coin: ptbArg, amounts: z.array(ptbArg).describe('Arguments holding u64 amounts (pure inputs)') }).describe('Split a coin into new coins'),
  z.object({ type: z.literal('merge_coins'), target: ptbArg, sources: z.array(ptbArg) }).describe('Merge coins into the target'),
  z
    .object({ type: z.literal('make_move_vec'), element_type: z.string().min(1).optional().describe('Element type (needed when elements is empty or pure)'), elements: z.array(ptbArg) })
    .describe('Build a vector from arguments'),
]);

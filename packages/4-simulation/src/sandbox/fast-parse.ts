/**
 * A fast path of {@link parseRequest} for the requests a benchmark sends thousands of times
 * (`execute_ptb`, `call_function`, `init_package`, `create_test_object`): the same checks and
 * the same output as the zod schemas of `request.ts` and `ptb-request.ts`, written out by
 * hand, for requests that are plainly well-formed. Anything else — a field of an unexpected
 * kind, a value zod would reject, a spelling this path does not know — gets `undefined`,
 * and zod parses the request as before (and words its errors).
 *
 * What "the same output" means, as zod 4 gives it: a new object per object schema, with the
 * schema's keys in the schema's order (unknown keys dropped; an optional key only when the
 * request has it; defaults filled in), new arrays, JSON values (`jsonValue`) as given, u64s
 * as bigints, PTB arguments in their tagged form. `test/sandbox-fast-parse.test.ts` holds
 * both paths to that on generated requests.
 */
import { isJson, type PtbArgSpec } from './ptb-request.js';

type Obj = Record<string, unknown>;

/** The path gives up: zod decides. */
const GIVE_UP = Symbol('give up');
type Out<T> = T | typeof GIVE_UP;

const ADDRESS = /^(0x)?[0-9a-fA-F]{1,64}$/;
const U64_TEXT = /^[0-9]{1,20}$/;
const U64_END = 1n << 64n;
const OWNER = /^(shared|immutable|object:(0x)?[0-9a-fA-F]{1,64}|(0x)?[0-9a-fA-F]{1,64})$/;
const OBJECT_MODES: ReadonlySet<string> = new Set(['mutable', 'mut', 'immutable', 'imm', 'owned', 'value', 'shared', 'receiving']);

/** A plain object (what `JSON.parse` makes), not an array, a class instance or `null`. */
function isObject(v: unknown): v is Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const has = (o: Obj, k: string): boolean => Object.hasOwn(o, k);

function isIndex(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65_535;
}

function address(v: unknown): Out<string> {
  return typeof v === 'string' && ADDRESS.test(v) ? v : GIVE_UP;
}

function name(v: unknown): Out<string> {
  return typeof v === 'string' && v.length >= 1 ? v : GIVE_UP;
}

function u64(v: unknown): Out<bigint> {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER ? BigInt(v) : GIVE_UP;
  if (typeof v !== 'string' || !U64_TEXT.test(v)) return GIVE_UP;
  const n = BigInt(v);
  return n < U64_END ? n : GIVE_UP;
}

function strings(v: unknown, min: number): Out<string[]> {
  if (!Array.isArray(v)) return GIVE_UP;
  const out: string[] = [];
  for (const s of v) {
    if (typeof s !== 'string' || s.length < min) return GIVE_UP;
    out.push(s);
  }
  return out;
}

/**
 * `ptbArg`: zod tries the union's members in order and takes the first that fits (an object
 * member ignores keys it does not name), so the checks go in that order.
 */
function arg(v: unknown): Out<PtbArgSpec> {
  if (typeof v === 'number') return isIndex(v) ? { $kind: 'Input', index: v } : GIVE_UP;
  if (v === 'gas') return { $kind: 'GasCoin' };
  if (!isObject(v)) return GIVE_UP;
  if (isIndex(v.input)) return { $kind: 'Input', index: v.input };
  if (isIndex(v.cmd) && isIndex(v.idx)) return { $kind: 'NestedResult', command: v.cmd, index: v.idx };
  const n = v.nested_result;
  if (Array.isArray(n) && n.length === 2 && isIndex(n[0]) && isIndex(n[1])) return { $kind: 'NestedResult', command: n[0], index: n[1] };
  if (isIndex(v.result)) return { $kind: 'Result', command: v.result };
  if (v.gas_coin === true) return { $kind: 'GasCoin' };
  return GIVE_UP;
}

function args(v: unknown): Out<PtbArgSpec[]> {
  return list(v, arg);
}

/**
 * Copy the optional key `k` of `from` into `to` when `from` has it, read by `read`. An
 * optional key present with the value `undefined` is left to zod.
 */
function optional<T>(to: Obj, from: Obj, k: string, read: (v: unknown) => Out<T>): boolean {
  if (!has(from, k)) return true;
  const v = from[k];
  if (v === undefined) return false;
  const x = read(v);
  if (x === GIVE_UP) return false;
  to[k] = x;
  return true;
}

/** A required key: `undefined` when absent or unfit. */
function required<T>(to: Obj, from: Obj, k: string, read: (v: unknown) => Out<T>): boolean {
  const x = read(from[k]);
  if (x === GIVE_UP) return false;
  to[k] = x;
  return true;
}

/** A key with a default: the default when absent (`undefined` counts as absent for zod's `.default`). */
function withDefault<T>(to: Obj, from: Obj, k: string, read: (v: unknown) => Out<T>, fallback: () => T): boolean {
  const v = from[k];
  if (v === undefined) {
    to[k] = fallback();
    return true;
  }
  return required(to, from, k, read);
}

const json = (v: unknown): Out<unknown> => (isJson(v, 0) ? v : GIVE_UP);
const checks = (v: unknown): Out<string> => (v === 'strict' || v === 'relaxed' ? v : GIVE_UP);
const bool = (v: unknown): Out<boolean> => (typeof v === 'boolean' ? v : GIVE_UP);
const owner = (v: unknown): Out<string> => (typeof v === 'string' && OWNER.test(v) ? v : GIVE_UP);
const mode = (v: unknown): Out<string> => (typeof v === 'string' && OBJECT_MODES.has(v) ? v : GIVE_UP);
const anyString = (v: unknown): Out<string> => (typeof v === 'string' ? v : GIVE_UP);

/** `sender?`, `gas_budget?`, `gas_coin?`, `checks?`: the options of the actions that run a transaction. */
function txOptions(out: Obj, r: Obj): boolean {
  return optional(out, r, 'sender', address) && optional(out, r, 'gas_budget', u64) && optional(out, r, 'gas_coin', address) && optional(out, r, 'checks', checks);
}

function input(v: unknown): Out<Obj> {
  if (!isObject(v)) return GIVE_UP;
  const out: Obj = { type: v.type };
  switch (v.type) {
    case 'pure':
      // `jsonValue` is required: an absent value is `undefined`, which is no JSON value.
      return has(v, 'value') && required(out, v, 'value', json) && required(out, v, 'value_type', name) ? out : GIVE_UP;
    case 'object':
      return required(out, v, 'object_id', address) && optional(out, v, 'mode', mode) && optional(out, v, 'version', u64) ? out : GIVE_UP;
    case 'gas':
      return required(out, v, 'budget', u64) ? out : GIVE_UP;
    case 'witness':
      return required(out, v, 'witness_type', name) ? out : GIVE_UP;
    default:
      return GIVE_UP;
  }
}

/** `transfer_objects`'s recipient: an argument first, else an address. */
function recipient(v: unknown): Out<PtbArgSpec | string> {
  const a = arg(v);
  return a !== GIVE_UP ? a : address(v);
}

const nullableString = (v: unknown): Out<string | null> => (v === null || typeof v === 'string' ? v : GIVE_UP);

function command(v: unknown): Out<Obj> {
  if (!isObject(v)) return GIVE_UP;
  const out: Obj = { type: v.type };
  switch (v.type) {
    case 'move_call': {
      const ok =
        optional(out, v, 'package', anyString) &&
        optional(out, v, 'module', anyString) &&
        optional(out, v, 'function', anyString) &&
        optional(out, v, 'target', anyString) &&
        withDefault(
          out,
          v,
          'type_args',
          (x) => strings(x, 0),
          () => [],
        ) &&
        withDefault(out, v, 'args', args, () => []);
      // The schema's refinement: a target, or the three parts.
      const named = out.target !== undefined || (out.package !== undefined && out.module !== undefined && out.function !== undefined);
      return ok && named ? out : GIVE_UP;
    }
    case 'transfer_objects':
      return required(out, v, 'objects', args) && required(out, v, 'recipient', recipient) ? out : GIVE_UP;
    case 'split_coins':
      return required(out, v, 'coin', arg) && required(out, v, 'amounts', args) ? out : GIVE_UP;
    case 'merge_coins':
      return required(out, v, 'target', arg) && required(out, v, 'sources', args) ? out : GIVE_UP;
    case 'make_move_vec':
      return optional(out, v, 'element_type', nullableString) && required(out, v, 'elements', args) ? out : GIVE_UP;
    default:
      // publish, upgrade, receive: rare, left to zod.
      return GIVE_UP;
  }
}

/** Each element of an array through `item`; give up on a non-array or on any element it gives up on. */
function list<T>(v: unknown, item: (x: unknown) => Out<T>): Out<T[]> {
  if (!Array.isArray(v)) return GIVE_UP;
  const out: T[] = [];
  for (const x of v) {
    const o = item(x);
    if (o === GIVE_UP) return GIVE_UP;
    out.push(o);
  }
  return out;
}

type Reader = (r: Obj) => Obj | undefined;

/** Each action's reader, keys in the order of its schema. */
const READERS: Readonly<Record<string, Reader>> = {
  execute_ptb: (r) => {
    const out: Obj = {};
    const ok =
      withDefault(
        out,
        r,
        'inputs',
        (v) => list(v, input),
        () => [],
      ) &&
      required(out, r, 'commands', (v) => list(v, command)) &&
      txOptions(out, r);
    return ok ? out : undefined;
  },
  call_function: (r) => {
    const out: Obj = {};
    const ok =
      required(out, r, 'package', address) &&
      required(out, r, 'module', name) &&
      required(out, r, 'function', name) &&
      withDefault(
        out,
        r,
        'type_args',
        (v) => strings(v, 0),
        () => [],
      ) &&
      withDefault(
        out,
        r,
        'args',
        (v) => (Array.isArray(v) && v.every((x) => isJson(x, 0)) ? [...(v as unknown[])] : GIVE_UP),
        () => [],
      ) &&
      txOptions(out, r);
    return ok ? out : undefined;
  },
  init_package: (r) => {
    const out: Obj = {};
    const ok = required(out, r, 'package', address) && optional(out, r, 'modules', (v) => strings(v, 1)) && optional(out, r, 'upgrade_cap', bool) && txOptions(out, r);
    return ok ? out : undefined;
  },
  create_test_object: (r) => {
    const out: Obj = {};
    const ok = required(out, r, 'type_tag', name) && optional(out, r, 'value', json) && optional(out, r, 'object_id', address) && optional(out, r, 'owner', owner);
    return ok ? out : undefined;
  },
};

/**
 * The parameters of `raw` (an object whose `action` is `action`) as the action's zod schema
 * would give them, or `undefined` when this path leaves the request to zod.
 */
export function fastParams(action: string, raw: object): unknown {
  const read = READERS[action];
  if (read === undefined || !isObject(raw)) return undefined;
  return read(raw);
}

/**
 * Phase II plans: the original's PTB plan JSON (`{"calls":[{"target","type_args","args"}]}`,
 * its docs/PTB_SCHEMA.md), its normalization of common formatting mistakes (the same
 * correction names and counts as `normalize.py`), its causality validation (the same
 * messages as `validator.py`), and the typed plan the simulator runs.
 *
 * Fixed defects of the original: integers are exact at every width (it clamped integer strings
 * to 2^63-1), addresses are padded to 64 hex digits everywhere (it only added `0x`), and the
 * argument kinds its docs promised but its helper rejected (`pure`, `u128`, `u256`,
 * `vector_u128`, `vector_u256`) are supported.
 */
import { SmiError, parseAddress, type Json } from '@smi/bytecode';

/** One argument of a call, as the simulator takes it. */
export type PlanArg =
  | { $kind: 'Pure'; type: PureKind; value: PureValue }
  | { $kind: 'PureBytes'; bytes: Uint8Array }
  | { $kind: 'ImmOrOwnedObject'; id: string }
  | { $kind: 'SharedObject'; id: string; mutable: boolean }
  | { $kind: 'GasCoin' }
  | { $kind: 'SenderSuiCoin'; index: number; excludeGas: boolean }
  | { $kind: 'Result'; index: number }
  | { $kind: 'NestedResult'; index: number; resultIndex: number }
  | { $kind: 'Placeholder'; type: string };

/** The pure argument kinds and the Move type each one is. */
export const PURE_KINDS = {
  u8: 'u8',
  u16: 'u16',
  u32: 'u32',
  u64: 'u64',
  u128: 'u128',
  u256: 'u256',
  bool: 'bool',
  address: 'address',
  vector_u8_utf8: 'vector<u8>',
  vector_u8_hex: 'vector<u8>',
  vector_u8: 'vector<u8>',
  vector_u16: 'vector<u16>',
  vector_u32: 'vector<u32>',
  vector_u64: 'vector<u64>',
  vector_u128: 'vector<u128>',
  vector_u256: 'vector<u256>',
  vector_bool: 'vector<bool>',
  vector_address: 'vector<address>',
} as const;
export type PureKind = keyof typeof PURE_KINDS;
export type PureValue = bigint | boolean | string | Uint8Array | readonly (bigint | boolean | string)[];

/** One call of a plan. */
export interface PlanCall {
  /** `0x<64 hex>::module::function`. */
  target: string;
  typeArgs: string[];
  args: PlanArg[];
}

/** A typed plan. */
export interface Plan {
  calls: PlanCall[];
}

/** Why a plan does not parse, with where. */
export class PlanError extends SmiError<'PLAN_PARSE_ERROR' | 'UNSUPPORTED_ARG_KIND'> {
  override readonly name = 'PlanError';
  constructor(code: 'PLAN_PARSE_ERROR' | 'UNSUPPORTED_ARG_KIND', message: string) {
    super(code, message);
  }
}

type JsonObject = { [k: string]: Json };

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const INT_KINDS = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'u256']);
const HEX = /^[0-9a-fA-F]{1,64}$/;

/** `0x` + 64 lower-case hex digits, or `undefined` when `s` is not an address. */
export function padAddress(s: string): string | undefined {
  return parseAddress(s.trim());
}

/** An integer from a JSON number or a decimal string, exactly; `undefined` otherwise. */
function toInteger(v: Json): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return BigInt(v.trim());
  return undefined;
}

/** The original's `safe_bool`: booleans, and strings `true`/`1`/`yes` (any case) as true. */
function toBool(v: Json): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return ['true', '1', 'yes'].includes(v.toLowerCase());
  return Boolean(v);
}

/** What normalization did. */
export interface NormalizationResult {
  /** The corrected plan, still JSON (integers that were strings are numbers, or exact strings beyond 2^53). */
  spec: Json;
  /** `call[i].args[j]: <correction>` in the original's words. */
  corrections: string[];
  /** Count per correction name (`integer_string_to_int`, `placeholder`, ...). */
  correctionCounts: Record<string, number>;
}

/** A bigint as JSON: a number when exact, else its decimal string. */
function intJson(v: bigint): Json {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

function normalizeArg(arg: Json, at: string, out: string[]): Json {
  if (!isObject(arg)) return arg;
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(arg)) {
    let k = key;
    let v: Json = value;
    if (key === 'object' || key === 'object_id') {
      k = 'imm_or_owned_object';
      out.push(`${at}: ${key === 'object' ? 'arg_kind_object_to_imm_or_owned' : 'arg_kind_object_id_to_imm_or_owned'}`);
    }
    if (key === 'result' && typeof value === 'string') {
      const n = toInteger(value);
      if (n !== undefined) {
        v = intJson(n);
        out.push(`${at}: result_ref_string_to_int`);
      }
    } else if (key === 'nested_result' && Array.isArray(value)) {
      let changed = false;
      const list = value.map((item) => {
        if (typeof item !== 'string') return item;
        const n = toInteger(item);
        if (n === undefined) return item;
        changed = true;
        return intJson(n);
      });
      if (changed) {
        v = list;
        out.push(`${at}: nested_result_string_to_int`);
      }
    } else if (INT_KINDS.has(key)) {
      const n = toInteger(value);
      if (n !== undefined && typeof value === 'string') {
        v = intJson(n);
        out.push(`${at}: integer_string_to_int`);
      }
    } else if (key.startsWith('vector_') && INT_KINDS.has(key.slice(7)) && Array.isArray(value)) {
      let changed = false;
      const list = value.map((item) => {
        const n = toInteger(item);
        if (n === undefined || typeof item !== 'string') return item;
        changed = true;
        return intJson(n);
      });
      if (changed) {
        v = list;
        out.push(`${at}: integer_string_to_int`);
      }
    } else if ((k === 'imm_or_owned_object' || key === 'address') && typeof value === 'string') {
      if (!/^0[xX]/.test(value.trim()) && HEX.test(value.trim())) out.push(`${at}: address_missing_0x_prefix`);
      v = padAddress(value) ?? value;
    } else if (key === 'shared_object' && isObject(value)) {
      const shared: JsonObject = {};
      for (const [sk, sv] of Object.entries(value)) {
        let nv: Json = sv;
        if (sk === 'id' && typeof sv === 'string') {
          if (!/^0[xX]/.test(sv.trim()) && HEX.test(sv.trim())) out.push(`${at}.shared_object: address_missing_0x_prefix`);
          nv = padAddress(sv) ?? sv;
        } else if (sk === 'mutable') {
          nv = sv === null ? sv : toBool(sv);
          if (nv !== sv) out.push(`${at}.shared_object: boolean_string_to_bool`);
        }
        shared[sk] = nv;
      }
      v = shared;
    } else if (key === 'vector_address' && Array.isArray(value)) {
      v = value.map((a) => (typeof a === 'string' ? (padAddress(a) ?? a) : a));
    }
    result[k] = v;
  }
  return result;
}

/**
 * The original's `normalize_ptb_spec`: fix formatting mistakes models make, recording each
 * correction. The input is not changed. Placeholders left in the plan are kept (the runner
 * resolves them from the objects that exist, or reports them), but counted as the original
 * counted them.
 */
export function normalizePlan(spec: unknown): NormalizationResult {
  const corrections: string[] = [];
  if (!isObject(spec as Json)) return { spec: spec as Json, corrections, correctionCounts: {} };
  const copy = JSON.parse(JSON.stringify(spec)) as JsonObject;
  if (Array.isArray(copy.calls)) {
    copy.calls = copy.calls.map((call, i) => {
      if (!isObject(call) || !Array.isArray(call.args)) return call;
      return { ...call, args: call.args.map((a, j) => normalizeArg(a, `call[${i}].args[${j}]`, corrections)) };
    });
    for (const call of copy.calls) {
      if (!isObject(call) || !Array.isArray(call.args)) continue;
      for (const a of call.args) if (isObject(a) && '$smi_placeholder' in a) corrections.push('placeholder: $smi_placeholder');
    }
  }
  const correctionCounts: Record<string, number> = {};
  for (const c of corrections) {
    const name = c.startsWith('placeholder:') ? 'placeholder' : c.slice(c.indexOf(': ') + 2);
    correctionCounts[name] = (correctionCounts[name] ?? 0) + 1;
  }
  return { spec: copy, corrections, correctionCounts };
}

/** The original's `CausalityValidation`. */
export interface CausalityValidation {
  valid: boolean;
  errors: string[];
  callCount: number;
  resultReferencesValid: number;
  resultReferencesTotal: number;
  /** valid / total references (1 when there are none). */
  causalityScore: number;
}

function pyType(v: Json): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** The original's `validate_ptb_causality_detailed`, message for message. */
export function validateCausality(spec: unknown): CausalityValidation {
  const done = (valid: boolean, errors: string[], callCount: number, ok: number, total: number): CausalityValidation => ({
    valid,
    errors,
    callCount,
    resultReferencesValid: ok,
    resultReferencesTotal: total,
    causalityScore: total === 0 ? 1 : ok / total,
  });
  if (!isObject(spec as Json)) return done(false, ['PTB spec must be a dictionary'], 0, 0, 0);
  const calls = (spec as JsonObject).calls;
  if (!Array.isArray(calls)) return done(false, ["PTB spec must contain a 'calls' list"], 0, 0, 0);
  const errors: string[] = [];
  let ok = 0;
  let total = 0;
  const check = (idx: Json, i: number, j: number, nested: boolean) => {
    total++;
    const what = nested ? 'Nested result index' : 'Result index';
    if (typeof idx !== 'number' || !Number.isInteger(idx)) errors.push(`${what} in call ${i}, arg ${j} must be an integer (got ${pyType(idx)})`);
    else if (idx < 0) errors.push(`${what} in call ${i}, arg ${j} cannot be negative (got ${idx})`);
    else if (idx >= i) {
      errors.push(
        nested
          ? `Causality violation in call ${i}: nested_result references result ${idx} which hasn't been produced yet`
          : `Causality violation in call ${i}: references result ${idx} which hasn't been produced yet`,
      );
    } else ok++;
  };
  calls.forEach((call, i) => {
    if (!isObject(call)) {
      errors.push(`Call at index ${i} must be a dictionary`);
      return;
    }
    if (!Array.isArray(call.args)) return;
    call.args.forEach((arg, j) => {
      if (!isObject(arg)) {
        errors.push(`Argument ${j} in call ${i} must be a dictionary`);
        return;
      }
      if ('result' in arg) check(arg.result, i, j, false);
      if ('nested_result' in arg && Array.isArray(arg.nested_result) && arg.nested_result.length >= 1) check(arg.nested_result[0], i, j, true);
    });
  });
  return done(errors.length === 0, errors, calls.length, ok, total);
}

/**
 * A normalized plan (JSON) → a typed {@link Plan} → a programmable transaction for the
 * simulator. Argument kinds are those of the original's PTB schema (§1.7, docs/PTB_SCHEMA.md);
 * anything else is `unsupported PTB arg kind: <k>`, as its helper said.
 */
import type { Json as MoveJson } from '@smi/move-vm';
import type { PtbBuilder } from '@smi/simulation';
import { padAddress, type Plan, type PlanArg, type PlanCall, PlanError, PURE_KINDS, type PureKind } from './plan.js';
import type { Json } from '@smi/bytecode';

type Argument = ReturnType<PtbBuilder['pureBytes']>;
type CommandOutput = ReturnType<PtbBuilder['moveCall']>;
type ProgrammableTransaction = ReturnType<PtbBuilder['build']>;

/**
 * A transaction builder a plan translates onto: a simulation environment's (objects at their
 * version in its store) or one over objects fetched from a node.
 */
export interface PlanTxBuilder {
  readonly gas: Argument;
  /** A pure input: `value` (JSON) encoded as `type` (`u64`, `address`, `vector<u8>`, ...). */
  pure(type: string, value: MoveJson): Argument;
  pureBytes(bytes: Uint8Array): Argument;
  /** An object input (a shared object as such, mutable unless `mutable` is false). */
  object(id: string, options: { mutable: boolean }): Argument;
  moveCall(target: string, args: readonly Argument[], typeArgs: readonly string[]): CommandOutput;
  build(): ProgrammableTransaction;
}

function isObject(v: unknown): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function integer(v: Json, what: string): bigint {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  throw new PlanError('PLAN_PARSE_ERROR', `${what}: expected an integer, got ${JSON.stringify(v)}`);
}

function index(v: Json, what: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  throw new PlanError('PLAN_PARSE_ERROR', `${what}: expected a non-negative integer index, got ${JSON.stringify(v)}`);
}

function address(v: Json, what: string): string {
  const a = typeof v === 'string' ? padAddress(v) : undefined;
  if (a === undefined) throw new PlanError('PLAN_PARSE_ERROR', `${what}: expected an address, got ${JSON.stringify(v)}`);
  return a;
}

function hexBytes(v: Json, what: string): Uint8Array {
  if (typeof v !== 'string') throw new PlanError('PLAN_PARSE_ERROR', `${what}: expected a hex string`);
  const hex = v.replace(/^0[xX]/, '');
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new PlanError('PLAN_PARSE_ERROR', `${what}: hex must have an even number of digits`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const LIMITS: Record<string, bigint> = { u8: 255n, u16: 65535n, u32: 2n ** 32n - 1n, u64: 2n ** 64n - 1n, u128: 2n ** 128n - 1n, u256: 2n ** 256n - 1n };

function checkedInt(v: Json, width: string, what: string): bigint {
  const n = integer(v, what);
  if (n < 0n || n > LIMITS[width]) throw new PlanError('PLAN_PARSE_ERROR', `${what}: ${n} does not fit in ${width}`);
  return n;
}

/** One argument of the JSON plan, typed. */
export function parseArg(arg: Json, what: string): PlanArg {
  if (!isObject(arg)) throw new PlanError('PLAN_PARSE_ERROR', `${what}: an argument is a single-key object`);
  const keys = Object.keys(arg);
  if (keys.length !== 1) throw new PlanError('PLAN_PARSE_ERROR', `${what}: an argument has exactly one key (got ${keys.join(', ') || 'none'})`);
  const kind = keys[0];
  const v = arg[kind];
  if (kind in LIMITS) return { $kind: 'Pure', type: kind as PureKind, value: checkedInt(v, kind, what) };
  switch (kind) {
    case 'bool':
      if (typeof v !== 'boolean') throw new PlanError('PLAN_PARSE_ERROR', `${what}: bool must be true or false`);
      return { $kind: 'Pure', type: 'bool', value: v };
    case 'address':
      return { $kind: 'Pure', type: 'address', value: address(v, what) };
    case 'vector_u8_utf8':
      if (typeof v !== 'string') throw new PlanError('PLAN_PARSE_ERROR', `${what}: vector_u8_utf8 takes a string`);
      return { $kind: 'Pure', type: 'vector_u8_utf8', value: new TextEncoder().encode(v) };
    case 'vector_u8_hex':
      return { $kind: 'Pure', type: 'vector_u8_hex', value: hexBytes(v, what) };
    case 'pure':
      return { $kind: 'PureBytes', bytes: hexBytes(v, what) };
    case 'vector_bool':
    case 'vector_address':
    case 'vector_u8':
    case 'vector_u16':
    case 'vector_u32':
    case 'vector_u64':
    case 'vector_u128':
    case 'vector_u256': {
      if (!Array.isArray(v)) throw new PlanError('PLAN_PARSE_ERROR', `${what}: ${kind} takes a list`);
      const inner = kind.slice(7);
      const items = v.map((x, i) => {
        if (inner === 'bool') {
          if (typeof x !== 'boolean') throw new PlanError('PLAN_PARSE_ERROR', `${what}[${i}]: expected true or false`);
          return x;
        }
        if (inner === 'address') return address(x, `${what}[${i}]`);
        return checkedInt(x, inner, `${what}[${i}]`);
      });
      return { $kind: 'Pure', type: kind, value: items };
    }
    case 'imm_or_owned_object':
      return { $kind: 'ImmOrOwnedObject', id: address(v, what) };
    case 'shared_object': {
      if (!isObject(v)) throw new PlanError('PLAN_PARSE_ERROR', `${what}: shared_object is {"id","mutable"}`);
      return { $kind: 'SharedObject', id: address(v.id ?? null, `${what}.id`), mutable: v.mutable === undefined ? true : v.mutable === true };
    }
    case 'gas_coin':
      return { $kind: 'GasCoin' };
    case 'sender_sui_coin': {
      const o = isObject(v) ? v : {};
      return { $kind: 'SenderSuiCoin', index: o.index === undefined ? 0 : index(o.index, `${what}.index`), excludeGas: o.exclude_gas === undefined ? true : o.exclude_gas === true };
    }
    case 'result':
      return { $kind: 'Result', index: index(v, what) };
    case 'nested_result': {
      if (!Array.isArray(v) || v.length !== 2) throw new PlanError('PLAN_PARSE_ERROR', `${what}: nested_result is [call, result]`);
      return { $kind: 'NestedResult', index: index(v[0], what), resultIndex: index(v[1], what) };
    }
    case '$smi_placeholder':
      if (typeof v !== 'string') throw new PlanError('PLAN_PARSE_ERROR', `${what}: $smi_placeholder names a type`);
      return { $kind: 'Placeholder', type: v };
    default:
      throw new PlanError('UNSUPPORTED_ARG_KIND', `unsupported PTB arg kind: ${kind}`);
  }
}

/** A normalized JSON plan as a typed {@link Plan}. */
export function parsePlan(spec: unknown): Plan {
  if (!isObject(spec) || !Array.isArray(spec.calls)) throw new PlanError('PLAN_PARSE_ERROR', 'a plan is {"calls":[...]}');
  const calls: PlanCall[] = spec.calls.map((call, i) => {
    if (!isObject(call)) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: a call is {"target","type_args","args"}`);
    const target = call.target;
    const parts = typeof target === 'string' ? target.split('::') : [];
    const pkg = parts.length === 3 ? padAddress(parts[0]) : undefined;
    if (pkg === undefined || !parts[1] || !parts[2]) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: target must be 0xADDR::module::function (got ${JSON.stringify(target)})`);
    const typeArgs = call.type_args ?? [];
    if (!Array.isArray(typeArgs) || typeArgs.some((t) => typeof t !== 'string')) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: type_args is a list of type strings`);
    const args = call.args ?? [];
    if (!Array.isArray(args)) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: args is a list`);
    return { target: `${pkg}::${parts[1]}::${parts[2]}`, typeArgs: typeArgs as string[], args: args.map((a, j) => parseArg(a, `call ${i} arg ${j}`)) };
  });
  return { calls };
}

/** What the translation needs from the run: the sender's SUI coins and how to resolve placeholders. */
export interface PlanContext {
  /** The sender's `Coin<SUI>` ids, the gas coin first. */
  senderCoins: readonly string[];
  /** An object of this type the sender can use, or `undefined`. */
  resolvePlaceholder(type: string): string | undefined;
}

function pureJson(arg: Extract<PlanArg, { $kind: 'Pure' }>): { type: string; value: MoveJson } {
  const type = PURE_KINDS[arg.type];
  const v = arg.value;
  if (v instanceof Uint8Array) return { type, value: '0x' + Buffer.from(v).toString('hex') };
  if (Array.isArray(v)) return { type, value: v.map((x) => (typeof x === 'bigint' ? x.toString() : x)) };
  return { type, value: typeof v === 'bigint' ? v.toString() : (v as boolean | string) };
}

/**
 * The ids of the objects `plan` names (its object arguments, the sender coins and the objects
 * placeholders resolve to), in order, each once: what a builder over fetched objects needs.
 * What cannot be resolved is left out (the translation reports it).
 */
export function planObjectIds(plan: Plan, ctx: PlanContext): string[] {
  const out = new Set<string>();
  for (const call of plan.calls) {
    for (const a of call.args) {
      let id: string | undefined;
      if (a.$kind === 'ImmOrOwnedObject' || a.$kind === 'SharedObject') id = a.id;
      else if (a.$kind === 'SenderSuiCoin') id = (a.excludeGas ? ctx.senderCoins.slice(1) : ctx.senderCoins)[a.index];
      else if (a.$kind === 'Placeholder') id = ctx.resolvePlaceholder(a.type);
      if (id !== undefined) out.add(id);
    }
  }
  return [...out];
}

/** The plan as a programmable transaction on `env`'s builder (a simulation's: inputs read from its store). */
export function planToPtb(env: { tx(): PlanTxBuilder }, plan: Plan, ctx: PlanContext): ProgrammableTransaction {
  const tx = env.tx();
  const outputs: CommandOutput[] = [];
  const objectInputs = new Map<string, Argument>();
  const obj = (id: string, mutable: boolean): Argument => {
    const known = objectInputs.get(id);
    if (known) return known;
    const a = tx.object(id, { mutable });
    objectInputs.set(id, a);
    return a;
  };
  plan.calls.forEach((call, i) => {
    const args = call.args.map((a): Argument => {
      switch (a.$kind) {
        case 'Pure': {
          const { type, value } = pureJson(a);
          return tx.pure(type, value);
        }
        case 'PureBytes':
          return tx.pureBytes(a.bytes);
        case 'ImmOrOwnedObject':
          return obj(a.id, true);
        case 'SharedObject':
          return obj(a.id, a.mutable);
        case 'GasCoin':
          return tx.gas;
        case 'SenderSuiCoin': {
          const coins = a.excludeGas ? ctx.senderCoins.slice(1) : ctx.senderCoins;
          const id = coins[a.index];
          if (id === undefined) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: sender_sui_coin index ${a.index}: the sender has ${coins.length} such coin(s)`);
          return obj(id, true);
        }
        case 'Result':
        case 'NestedResult': {
          if (a.index >= i) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: references the result of call ${a.index}, not made yet`);
          const out = outputs[a.index];
          return a.$kind === 'Result' ? out : out.nested(a.resultIndex);
        }
        case 'Placeholder': {
          const id = ctx.resolvePlaceholder(a.type);
          if (id === undefined) throw new PlanError('PLAN_PARSE_ERROR', `call ${i}: no object of type ${a.type} to put for $smi_placeholder`);
          return obj(id, true);
        }
      }
    });
    outputs.push(tx.moveCall(call.target, args, call.typeArgs));
  });
  return tx.build();
}

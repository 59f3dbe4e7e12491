/**
 * A Tier B transaction (an `execute_ptb` request of `smi sandbox-exec`) as a Phase II plan:
 * the original's plan JSON, `{"calls":[{"target","type_args","args"}]}`, which has Move calls
 * only. The PTB's other commands become the framework calls that do the same: `SplitCoins`
 * of the gas coin `0x2::coin::split`, `MakeMoveVec` `0x1::vector::empty`/`singleton`/
 * `push_back`, `TransferObjects` one `0x2::transfer::public_transfer` per object (the
 * command needs `key + store` too, so it is the same condition). Object inputs keep the ids
 * of the session they came from (looked up in `objects`, the state the transaction started
 * from, else the session's store); the result's `objects` says each one's type and
 * ownership, so that a caller running the plan elsewhere can name its own object of that type.
 */
import { canonicalAddress, SmiError, type SmiErrorOptions } from '@smi/bytecode';
import type { Json, MoveVM } from '@smi/move-vm';
import { objectTypeTag } from '@smi/ptb';
import type { SimulationEnvironment } from '@smi/simulation';
import { type Catalogue, STD, SUI } from './catalogue.js';
import { tyFromTag } from './inventory.js';
import { formatTy, substTy, type Ty, vectorOf } from './types.js';
import { bcsRoundTrip } from './values.js';

type JsonObject = { [k: string]: Json };

/** An object a plan names, as it is in the session the plan was made in. */
export interface PlanObject {
  id: string;
  /** Its type tag as stored. */
  typeTag: string;
  ownership: 'owned' | 'shared' | 'immutable';
}

/** A request as a plan, or why it is not one. */
export type RequestPlan = { $kind: 'Ok'; plan: { calls: Json[] }; objects: PlanObject[] } | { $kind: 'Unsupported'; reason: string };

/** Why a request cannot be a plan. */
class Unsupported extends SmiError<'UNSUPPORTED_INPUT'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('UNSUPPORTED_INPUT', message, options);
  }
}

/** What a command produced: the plan call of each of its results, and their types. */
interface Produced {
  /** Per result: the plan argument that names it. */
  args: Json[];
  types: (Ty | null)[];
}

const NAMED_PRIMS = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'bool', 'address']);

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A pure input as a plan argument: a named kind when there is one, else its BCS bytes (`pure`). */
function pureArg(vm: MoveVM, catalogue: Catalogue, valueType: string, value: Json): Json {
  if (NAMED_PRIMS.has(valueType) && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
    if (valueType === 'bool') return { bool: value === true || value === 'true' };
    return { [valueType]: typeof value === 'number' ? value : String(value) };
  }
  const t = tyFromTag(valueType, catalogue);
  const bytes = bcsRoundTrip(vm, t, value);
  if (bytes.$kind !== 'Ok') throw new Unsupported(`pure input of type ${valueType}: ${bytes.error}`);
  return { pure: '0x' + Buffer.from(bytes.bytes).toString('hex') };
}

/**
 * `request` (an `execute_ptb` of a session over `env`) as a plan. Types of results come from
 * the called functions' signatures in `catalogue`.
 */
export function planOfRequest(request: Json, ctx: { catalogue: Catalogue; env: SimulationEnvironment; objects?: readonly PlanObject[] }): RequestPlan {
  try {
    return convert(request, ctx.catalogue, ctx.env, new Map((ctx.objects ?? []).map((o) => [o.id, o])));
  } catch (e) {
    if (e instanceof Unsupported) return { $kind: 'Unsupported', reason: e.message };
    throw e;
  }
}

function convert(request: Json, catalogue: Catalogue, env: SimulationEnvironment, known: ReadonlyMap<string, PlanObject>): RequestPlan {
  if (!isObject(request) || request.action !== 'execute_ptb') throw new Unsupported(`a ${isObject(request) ? String(request.action) : 'non-object'} request is not a transaction of Move calls`);
  if (request.checks === 'relaxed') throw new Unsupported('the transaction ran with dev-inspect rules (a value was left unconsumed)');
  const inputs = Array.isArray(request.inputs) ? request.inputs : [];
  const commands = Array.isArray(request.commands) ? request.commands : [];
  const objects = new Map<string, PlanObject>();
  const inputArgs: Json[] = inputs.map((input, i) => {
    if (!isObject(input)) throw new Unsupported(`input ${i} is not an object`);
    if (input.type === 'pure') return pureArg(env.vm, catalogue, String(input.value_type), input.value ?? null);
    if (input.type !== 'object' || typeof input.object_id !== 'string') throw new Unsupported(`input ${i} of kind ${String(input.type)}`);
    const id = canonicalAddress(input.object_id);
    let object = known.get(id);
    if (object === undefined) {
      const o = env.store.getObject(id);
      if (o === undefined || o.data.$kind !== 'Move') throw new Unsupported(`input ${i}: object ${id} is not in the session`);
      object = { id, typeTag: objectTypeTag(o), ownership: o.owner.$kind === 'Shared' ? 'shared' : o.owner.$kind === 'Immutable' ? 'immutable' : 'owned' };
    }
    const ownership = object.ownership;
    if (!objects.has(id)) objects.set(id, object);
    if (ownership === 'shared') return { shared_object: { id, mutable: input.mode !== 'immutable' && input.mode !== 'imm' } };
    return { imm_or_owned_object: id };
  });
  const calls: Json[] = [];
  const produced: Produced[] = [];
  const call = (target: string, typeArgs: string[], args: Json[]): number => {
    calls.push({ target, type_args: typeArgs, args });
    return calls.length - 1;
  };
  const argOf = (a: Json, at: string): { arg: Json; type: Ty | null } => {
    if (a === 'gas' || (isObject(a) && 'gas_coin' in a)) return { arg: { gas_coin: true }, type: null };
    if (typeof a === 'number') return { arg: inputArgs[a], type: null };
    if (isObject(a) && typeof a.input === 'number') return { arg: inputArgs[a.input], type: null };
    let c: number | undefined;
    let k = 0;
    if (isObject(a) && typeof a.result === 'number') c = a.result;
    else if (isObject(a) && Array.isArray(a.nested_result) && typeof a.nested_result[0] === 'number' && typeof a.nested_result[1] === 'number') [c, k] = [a.nested_result[0], a.nested_result[1]];
    if (c === undefined || produced[c] === undefined || produced[c].args[k] === undefined) throw new Unsupported(`${at}: argument ${JSON.stringify(a)}`);
    return { arg: produced[c].args[k], type: produced[c].types[k] };
  };
  commands.forEach((cmd, ci) => {
    if (!isObject(cmd)) throw new Unsupported(`command ${ci} is not an object`);
    const at = `command ${ci}`;
    switch (cmd.type) {
      case 'move_call': {
        const [pkg, module, name] = typeof cmd.target === 'string' ? cmd.target.split('::') : [String(cmd.package), String(cmd.module), String(cmd.function)];
        const id = canonicalAddress(pkg);
        const fn = catalogue.functionsOf(id).find((f) => f.module === module && f.name === name);
        if (fn === undefined) throw new Unsupported(`${at}: ${id}::${module}::${name} is not loaded`);
        const typeArgs = (Array.isArray(cmd.type_args) ? cmd.type_args : []).map(String);
        const tys = typeArgs.map((t) => tyFromTag(t, catalogue));
        const args = (Array.isArray(cmd.args) ? cmd.args : []).map((a) => argOf(a, at).arg);
        const c = call(`${id}::${module}::${name}`, typeArgs, args);
        const returns = fn.returns.map((r) => substTy(r, tys));
        produced.push({ args: returns.length <= 1 ? [{ result: c }] : returns.map((_, k) => ({ nested_result: [c, k] })), types: returns.length === 0 ? [null] : returns });
        return;
      }
      case 'split_coins': {
        const coin = argOf(cmd.coin ?? null, at);
        const coinType = coin.type ?? tyFromTag(`${SUI}::coin::Coin<${SUI}::sui::SUI>`, catalogue);
        const inner = coinType.$kind === 'Datatype' ? coinType.args[0] : undefined;
        if (inner === undefined) throw new Unsupported(`${at}: split_coins of a ${formatTy(coinType)}`);
        const amounts = Array.isArray(cmd.amounts) ? cmd.amounts : [];
        const out: Produced = { args: [], types: [] };
        for (const amount of amounts) {
          const c = call(`${SUI}::coin::split`, [formatTy(inner)], [coin.arg, argOf(amount, at).arg]);
          out.args.push({ result: c });
          out.types.push(coinType);
        }
        produced.push(out);
        return;
      }
      case 'make_move_vec': {
        if (typeof cmd.element_type !== 'string') throw new Unsupported(`${at}: make_move_vec without an element type`);
        const elem = cmd.element_type;
        const elements = (Array.isArray(cmd.elements) ? cmd.elements : []).map((e) => argOf(e, at).arg);
        const c = elements.length === 1 ? call(`${STD}::vector::singleton`, [elem], [elements[0]]) : call(`${STD}::vector::empty`, [elem], []);
        if (elements.length > 1) for (const e of elements) call(`${STD}::vector::push_back`, [elem], [{ result: c }, e]);
        produced.push({ args: [{ result: c }], types: [vectorOf(tyFromTag(elem, catalogue))] });
        return;
      }
      case 'transfer_objects': {
        const recipient = typeof cmd.recipient === 'string' ? { address: canonicalAddress(cmd.recipient) } : argOf(cmd.recipient ?? null, at).arg;
        for (const o of Array.isArray(cmd.objects) ? cmd.objects : []) {
          const { arg, type } = argOf(o, at);
          if (type === null) throw new Unsupported(`${at}: an object of unknown type is sent`);
          call(`${SUI}::transfer::public_transfer`, [formatTy(type)], [arg, recipient]);
        }
        produced.push({ args: [], types: [] });
        return;
      }
      default:
        throw new Unsupported(`${at}: a ${String(cmd.type)} command has no Move call that does the same`);
    }
  });
  return { $kind: 'Ok', plan: { calls }, objects: [...objects.values()] };
}

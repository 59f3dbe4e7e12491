/**
 * A PTB being written as an `execute_ptb` request of `smi sandbox-exec` (the format a row
 * records, so anyone can replay it): inputs, commands, and the values commands produced
 * that are still alive, so that what the transaction cannot drop is sent to the sender.
 */
import { Ability } from '@smi/bytecode';
import type { Json } from '@smi/move-vm';
import { type Catalogue, type FunctionDecl, SUI } from './catalogue.js';
import type { Arg, ParamUse, Source } from './sources.js';
import { datatype, formatTy, type Ty } from './types.js';
import { gasCoinAmount, pureValue, type ValueProfile } from './values.js';

const COIN_OF_SUI = datatype(`${SUI}::coin::Coin`, [datatype(`${SUI}::sui::SUI`)]);

/** A value a command produced, until it is consumed. */
interface LiveValue {
  arg: Json;
  type: Ty;
  consumed: boolean;
}

/** Object ids made before the transaction for the sources that need one (setup, synthesized). */
export type PreparedObjects = ReadonlyMap<Source, string>;

/** A PTB request under construction. */
export class PtbDraft {
  readonly inputs: Json[] = [];
  readonly commands: Json[] = [];
  private readonly objectInputs = new Map<string, number>();
  private readonly live: LiveValue[] = [];

  constructor(
    private readonly catalogue: Catalogue,
    private readonly profile: ValueProfile,
    private readonly sender: string,
    private readonly prepared: PreparedObjects,
  ) {}

  private input(json: Json): Json {
    this.inputs.push(json);
    return { input: this.inputs.length - 1 };
  }

  /**
   * The input of object `id` (one per object: a transaction may not name an object twice).
   * A shared object only read is passed read-only, unless some command also mutates it.
   */
  private object(id: string, readOnlyShared: boolean): Json {
    const known = this.objectInputs.get(id);
    if (known !== undefined) {
      if (!readOnlyShared) delete (this.inputs[known] as Record<string, Json>).mode;
      return { input: known };
    }
    const json: Record<string, Json> = { type: 'object', object_id: id };
    if (readOnlyShared) json.mode = 'immutable';
    this.objectInputs.set(id, this.inputs.length);
    return this.input(json);
  }

  /** The argument for `source`, used as `use` (commands are added for chains). */
  emit(source: Source, use: ParamUse): Json {
    switch (source.$kind) {
      case 'Pure':
        return this.input({ type: 'pure', value: pureValue(source.type, this.profile, this.sender) ?? null, value_type: formatTy(source.type) });
      case 'Object':
        return this.object(source.object.id, source.object.ownership === 'shared' && use === 'ref');
      case 'Setup':
      case 'Synthesized': {
        const id = this.prepared.get(source);
        if (id === undefined) throw new Error(`no object was prepared for a ${source.$kind} source of ${formatTy(source.type)}`);
        return this.object(id, source.$kind === 'Setup' && source.outcome === 'shared' && use === 'ref');
      }
      case 'GasCoin': {
        const amount = this.input({ type: 'pure', value: gasCoinAmount(this.profile), value_type: 'u64' });
        const c = this.command({ type: 'split_coins', coin: 'gas', amounts: [amount] });
        return this.track({ nested_result: [c, 0] }, COIN_OF_SUI, use);
      }
      case 'Vector': {
        const elements = source.item === null || this.profile === 'zero' ? [] : [this.emit(source.item, 'value')];
        const c = this.command({ type: 'make_move_vec', element_type: formatTy(source.elem), elements });
        return this.track({ result: c }, { $kind: 'Vector', elem: source.elem }, use);
      }
      case 'Call': {
        const c = this.call(source.fn, source.typeArgs, source.args);
        let chosen: Json = { nested_result: [c, source.returnIndex] };
        source.returns.forEach((r, k) => {
          const arg: Json = { nested_result: [c, k] };
          if (k === source.returnIndex) chosen = this.track(arg, r, use);
          else this.live.push({ arg, type: r, consumed: false });
        });
        return chosen;
      }
    }
  }

  /** Record a produced value: consumed when passed by value, alive otherwise. */
  private track(arg: Json, type: Ty, use: ParamUse): Json {
    this.live.push({ arg, type, consumed: use === 'value' });
    return arg;
  }

  private command(json: Json): number {
    this.commands.push(json);
    return this.commands.length - 1;
  }

  /** A `move_call` of `fn` with `args`; returns its command index. */
  call(fn: FunctionDecl, typeArgs: readonly Ty[], args: readonly Arg[]): number {
    const argJson: Json[] = [];
    for (const a of args) if (a.$kind === 'Value') argJson.push(this.emit(a.source, a.use));
    return this.command({ type: 'move_call', package: fn.packageId, module: fn.module, function: fn.name, type_args: typeArgs.map(formatTy), args: argJson });
  }

  /** Track the returns of command `c` (the target) as alive. */
  keepReturns(c: number, returns: readonly Ty[]): void {
    returns.forEach((r, k) => this.live.push({ arg: { nested_result: [c, k] }, type: r, consumed: false }));
  }

  /**
   * Send every live object the transaction cannot drop (key + store) to the sender.
   * Returns the types of values it can neither drop nor send (the transaction then runs
   * with dev-inspect rules, which let values go unused).
   */
  dispose(): string[] {
    const send: Json[] = [];
    const stuck: string[] = [];
    for (const v of this.live) {
      if (v.consumed) continue;
      if (v.type.$kind === 'Ref') continue;
      const a = this.catalogue.abilities(v.type);
      if ((a & Ability.Drop) !== 0) continue;
      if ((a & Ability.Key) !== 0 && (a & Ability.Store) !== 0) send.push(v.arg);
      else stuck.push(formatTy(v.type));
    }
    if (send.length > 0) this.command({ type: 'transfer_objects', objects: send, recipient: this.sender });
    return stuck;
  }

  /** The `execute_ptb` request. */
  request(checks: 'strict' | 'relaxed'): Json {
    const r: Record<string, Json> = { action: 'execute_ptb', inputs: this.inputs, commands: this.commands };
    if (checks === 'relaxed') r.checks = 'relaxed';
    return r;
  }
}

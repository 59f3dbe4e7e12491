/**
 * A PTB being written as an `execute_ptb` request of `smi sandbox-exec` (the format a row
 * records, so anyone can replay it): inputs, commands, and the values commands produced
 * that are still alive, so that what the transaction cannot drop is sent to the sender.
 */
import { Ability } from '@smi/bytecode';
import type { Json } from '@smi/move-vm';
import { type Catalogue, type FunctionDecl, SUI } from './catalogue.js';
import type { Arg, ParamUse, Source } from './sources.js';
import type { PureInput } from './cmp-log.js';
import { datatype, formatTy, prim, substTy, type Ty } from './types.js';
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

/** A call that takes a leftover value of one type by value (parameter `index`), its other arguments resolved. */
export interface Consumer {
  fn: FunctionDecl;
  typeArgs: readonly Ty[];
  args: readonly Arg[];
  index: number;
}

/** Settings of a draft besides the value profile. */
export interface DraftOptions {
  /** Where each source of the attempt sits (the owner of the commands it makes). */
  paths?: ReadonlyMap<Source, string>;
  /** Length of every `vector<u8>` pure value (a length the code checks), or `null`: the profile's. */
  byteLength?: number | null;
  /** Values that replace the profile's for the plain values at these paths (what the code compared them with). */
  values?: ReadonlyMap<string, Json>;
}

/** A PTB request under construction. */
export class PtbDraft {
  readonly inputs: Json[] = [];
  readonly commands: Json[] = [];
  /** For each command, the path of the source or call that made it (see `resolve.ts`). */
  readonly owners: string[] = [];
  /** Calls made by {@link dispose} to consume leftovers (`module::function`). */
  readonly consumedBy: string[] = [];
  /** The plain values passed, by path (what a comparison log is matched against). */
  readonly pureInputs: PureInput[] = [];
  private readonly objectInputs = new Map<string, number>();
  private readonly live: LiveValue[] = [];
  /** Values calls made beside the one they were made for, not used yet, by call and position (see {@link siblingKey}). */
  private readonly spares = new Map<string, LiveValue>();
  private owner = '';

  constructor(
    private readonly catalogue: Catalogue,
    private readonly profile: ValueProfile,
    private readonly sender: string,
    private readonly prepared: PreparedObjects,
    private readonly options: DraftOptions = {},
  ) {}

  private pure(type: Ty): Json {
    const length = this.options.byteLength;
    if (length !== undefined && length !== null && type.$kind === 'Vector' && type.elem.$kind === 'Prim' && type.elem.name === 'u8') return byteVector(length, this.sender);
    return pureValue(type, this.profile, this.sender) ?? null;
  }

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
    const outer = this.owner;
    this.owner = this.options.paths?.get(source) ?? outer;
    try {
      return this.emitSource(source, use);
    } finally {
      this.owner = outer;
    }
  }

  private emitSource(source: Source, use: ParamUse): Json {
    switch (source.$kind) {
      case 'Pure': {
        const value = this.options.values?.get(this.owner) ?? this.pure(source.type);
        if (this.owner !== '') this.pureInputs.push({ path: this.owner, type: source.type, value });
        return this.input({ type: 'pure', value, value_type: formatTy(source.type) });
      }
      case 'Object':
        return this.object(source.object.id, source.object.ownership === 'shared' && use === 'ref');
      case 'Setup':
      case 'Synthesized': {
        const id = this.prepared.get(source);
        if (id === undefined) throw new Error(`no object was prepared for a ${source.$kind} source of ${formatTy(source.type)}`);
        return this.object(id, source.$kind === 'Setup' && source.outcome === 'shared' && use === 'ref');
      }
      case 'GasCoin': {
        const value = this.options.values?.get(this.owner) ?? gasCoinAmount(this.profile);
        if (this.owner !== '') this.pureInputs.push({ path: this.owner, type: prim('u64'), value });
        const amount = this.input({ type: 'pure', value, value_type: 'u64' });
        const c = this.command({ type: 'split_coins', coin: 'gas', amounts: [amount] });
        return this.track({ nested_result: [c, 0] }, COIN_OF_SUI, use);
      }
      case 'Vector': {
        const elements = source.item === null || this.profile === 'zero' ? [] : [this.emit(source.item, 'value')];
        const c = this.command({ type: 'make_move_vec', element_type: formatTy(source.elem), elements });
        return this.track({ result: c }, { $kind: 'Vector', elem: source.elem }, use);
      }
      case 'Call': {
        // A value a call made beside the one it was made for (a kiosk beside its cap) is
        // the one that belongs with it: taken from there rather than from a second call.
        const key = siblingKey(source);
        const spare = key === null ? undefined : this.spares.get(`${key}#${source.returnIndex}`);
        if (spare !== undefined && key !== null) {
          this.spares.delete(`${key}#${source.returnIndex}`);
          if (use === 'value') spare.consumed = true;
          return spare.arg;
        }
        const c = this.call(source.fn, source.typeArgs, source.args, this.owner);
        let chosen: Json = { nested_result: [c, source.returnIndex] };
        source.returns.forEach((r, k) => {
          const arg: Json = { nested_result: [c, k] };
          if (k === source.returnIndex) chosen = this.track(arg, r, use);
          else {
            const v: LiveValue = { arg, type: r, consumed: false };
            this.live.push(v);
            if (key !== null && !this.spares.has(`${key}#${k}`)) this.spares.set(`${key}#${k}`, v);
          }
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
    this.owners.push(this.owner);
    return this.commands.length - 1;
  }

  /**
   * A `move_call` of `fn` with `args` (an argument given as JSON is used as it is);
   * returns its command index. `owner` names the call in {@link owners}.
   */
  call(fn: FunctionDecl, typeArgs: readonly Ty[], args: readonly (Arg | { $kind: 'Json'; json: Json })[], owner = this.owner): number {
    const outer = this.owner;
    this.owner = owner;
    try {
      const argJson: Json[] = [];
      for (const a of args) {
        if (a.$kind === 'Value') argJson.push(this.emit(a.source, a.use));
        else if (a.$kind === 'Json') argJson.push(a.json);
      }
      return this.command({ type: 'move_call', package: fn.packageId, module: fn.module, function: fn.name, type_args: typeArgs.map(formatTy), args: argJson });
    } finally {
      this.owner = outer;
    }
  }

  /** Track the returns of command `c` (the target) as alive. */
  keepReturns(c: number, returns: readonly Ty[]): void {
    returns.forEach((r, k) => this.live.push({ arg: { nested_result: [c, k] }, type: r, consumed: false }));
  }

  /**
   * Values the transaction can neither drop nor send are given to the call that consumes
   * their type (`consumers`, by type), as the package meant them to be (a receipt repaid,
   * a capability destroyed); then every live object it cannot drop (key + store) is sent
   * to the sender. Returns the types of values still left (the transaction then runs with
   * dev-inspect rules, which let values go unused).
   */
  dispose(consumers: ReadonlyMap<string, Consumer> = new Map()): string[] {
    for (let round = 0; round < 3; round++) {
      let progress = false;
      for (const [i, v] of [...this.live.entries()]) {
        if (v.consumed || v.type.$kind === 'Ref' || !this.stuck(v.type)) continue;
        const consumer = consumers.get(formatTy(v.type));
        if (consumer === undefined) continue;
        v.consumed = true;
        const args = consumer.args.map((a, k) => (k === consumer.index ? { $kind: 'Json' as const, json: v.arg } : a));
        const c = this.call(consumer.fn, consumer.typeArgs, args, `c${i}`);
        this.consumedBy.push(`${consumer.fn.module}::${consumer.fn.name}`);
        consumer.fn.returns.forEach((r, k) => this.live.push({ arg: { nested_result: [c, k] }, type: substTy(r, consumer.typeArgs), consumed: false }));
        progress = true;
      }
      if (!progress) break;
    }
    const send: Json[] = [];
    const stuck: string[] = [];
    for (const v of this.live) {
      if (v.consumed || v.type.$kind === 'Ref') continue;
      const a = this.catalogue.abilities(v.type);
      if ((a & Ability.Drop) !== 0) continue;
      if ((a & Ability.Key) !== 0 && (a & Ability.Store) !== 0) send.push(v.arg);
      else stuck.push(formatTy(v.type));
    }
    if (send.length > 0) {
      this.owner = 'dispose';
      this.command({ type: 'transfer_objects', objects: send, recipient: this.sender });
      this.owner = '';
    }
    return stuck;
  }

  /** `true` for a value the transaction can neither drop nor send. */
  stuck(type: Ty): boolean {
    const a = this.catalogue.abilities(type);
    return (a & Ability.Drop) === 0 && !((a & Ability.Key) !== 0 && (a & Ability.Store) !== 0);
  }

  /** Types of the live values the transaction can neither drop nor send, as they are now. */
  leftovers(): Ty[] {
    return this.live.filter((v) => !v.consumed && v.type.$kind !== 'Ref' && this.stuck(v.type)).map((v) => v.type);
  }

  /** The `execute_ptb` request. */
  request(checks: 'strict' | 'relaxed'): Json {
    const r: Record<string, Json> = { action: 'execute_ptb', inputs: this.inputs, commands: this.commands };
    if (checks === 'relaxed') r.checks = 'relaxed';
    return r;
  }
}

/**
 * What identifies a call whose other results may stand for a later call of it: the function,
 * its instantiation and arguments that are plain values, objects or the transaction context
 * (the same call, made again, would make the same kind of values); `null` for a call that
 * takes values made by other calls.
 */
function siblingKey(source: Extract<Source, { $kind: 'Call' }>): string | null {
  if (source.returns.length < 2) return null;
  const args: string[] = [];
  for (const a of source.args) {
    if (a.$kind === 'TxContext') continue;
    if (a.source.$kind === 'Pure') args.push(`p:${formatTy(a.source.type)}`);
    else if (a.source.$kind === 'Object') args.push(`o:${a.source.object.id}:${a.use}`);
    else return null;
  }
  return `${source.fn.packageId}::${source.fn.module}::${source.fn.name}<${source.typeArgs.map(formatTy).join(',')}>(${args.join(',')})`;
}

/**
 * A `vector<u8>` of `length` bytes: the sender's address bytes when 32 long (ids and
 * addresses are often passed as bytes), else the bytes 1, 2, 3, ...
 */
function byteVector(length: number, sender: string): string {
  if (length === 32) return sender;
  let hex = '0x';
  for (let i = 0; i < length; i++) hex += ((i + 1) & 0xff).toString(16).padStart(2, '0');
  return hex;
}

/**
 * The values of a running PTB: one slot per input, per command result and for the gas
 * coin. A slot holds its Move value inside a one-element holder, so a reference handed
 * to Move (`borrowSlot(holder, 0)`) writes straight into the slot. The rules of use
 * (by value, `&`, `&mut`; pure bytes read by the parameter type; moved values; immutable
 * and shared objects; the gas coin) raise Sui's `CommandArgumentError`s.
 */
import { Ability, errorMessage, STD_ADDRESS, SUI_ADDRESS } from '@smi/bytecode';
import { borrowSlot, copyValue, formatType, type MoveVM, readRef, type Type, TypeKind, type VmError } from '@smi/move-vm';
import type { Argument } from '../bcs/transaction.js';
import { Cliques } from './entry-rules.js';
import type { SuiObject } from '../bcs/object.js';
import type { GasCoinTransfer, GasPlan } from './gas-payment.js';
import { argumentError, ExecutionFailure, simpleFailure } from './errors.js';
import { ensureSerializedSize, ptbValueBound } from './value-size.js';

/** What an input object is, for the rules of use and for effects. */
export interface InputObjectInfo {
  id: string;
  version: bigint;
  digest: string;
  /** Owner before the transaction. */
  ownerKind: 'AddressOwner' | 'ObjectOwner' | 'Shared' | 'Immutable' | 'ConsensusAddressOwner' | 'Party';
  /** Shared objects: initial shared version. */
  initialSharedVersion: bigint | null;
  /** `false` for immutable objects and shared objects taken read-only. */
  mutable: boolean;
  hasPublicTransfer: boolean;
  storageRebate: bigint;
  /** `true` for `Receiving` inputs. */
  receiving: boolean;
  /** Shared inputs taken with `NonExclusiveWrite`: only their dynamic fields may change. */
  nonExclusive?: boolean;
}

/** A slot: an input, a command result, or the gas coin. */
export interface Slot {
  kind: 'pure' | 'object' | 'result' | 'gas' | 'receiving';
  /** `[value]` while the slot holds a value; `null` once moved out (or pure bytes not yet read). */
  holder: unknown[] | null;
  type: Type | null;
  /** Pure input bytes. */
  bytes?: Uint8Array;
  object?: InputObjectInfo;
  /** `true` once the value was moved out. */
  taken: boolean;
  /** Pure and `Receiving` inputs: their value at each type they were used at (the last type first). */
  typed?: TypedUse;
  /** The last command that used the value, and how (a copyable value's last copy takes it unless also borrowed there). */
  lastUse?: { command: number; copied: boolean; borrowed: boolean };
  /** Entry-argument rule: the value's clique, whether it is a hot potato, and (MakeMoveVec results) whether it holds shared objects taken by value. */
  clique?: number;
  heats?: boolean;
  tainted?: boolean;
}

/**
 * A pure or `Receiving` input's value at one type, and its view at that type (with its own
 * clique, for the entry-argument rule). An input is used at one type, rarely more: a list.
 */
interface TypedUse {
  readonly key: string;
  readonly holder: unknown[];
  readonly view: Slot;
  readonly next: TypedUse | undefined;
}

/** How a command uses an argument. */
export type Usage = 'value' | 'ref' | 'mut';

function isCopy(t: Type): boolean {
  return (t.abilities & Ability.Copy) !== 0;
}

/** `true` when a type may be given as pure bytes (Sui's `is_valid_pure_type`). */
export function isPureType(t: Type): boolean {
  if (t.kind <= TypeKind.Address) return t.kind !== TypeKind.Signer;
  if (t.kind === TypeKind.Vector) return isPureType(t.elem as Type);
  if (t.kind !== TypeKind.Datatype || t.datatype === null) return false;
  const d = t.datatype;
  if (d.address === STD_ADDRESS && (d.module === 'string' || d.module === 'ascii') && d.name === 'String') return true;
  if (d.address === STD_ADDRESS && d.module === 'option' && d.name === 'Option') return isPureType(t.typeArgs[0]);
  return d.address === SUI_ADDRESS && d.module === 'object' && d.name === 'ID';
}

/** Checks of a pure value's contents beyond BCS (UTF-8 of `String`, ASCII of `ascii::String`). */
function validPureContents(t: Type, v: unknown): boolean {
  const d = t.datatype;
  if (t.kind === TypeKind.Vector) {
    const elem = t.elem as Type;
    if (elem.kind <= TypeKind.Signer) return true;
    const vec = v as { toArray(): unknown[] };
    return vec.toArray().every((x) => validPureContents(elem, x));
  }
  if (d === null) return true;
  if (d.address === STD_ADDRESS && d.name === 'String') {
    const bytes = ((v as unknown[])[0] as { bytes(): Uint8Array }).bytes();
    if (d.module === 'ascii') return bytes.every((b) => b < 0x80);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return true;
    } catch {
      return false;
    }
  }
  if (d.address === STD_ADDRESS && d.name === 'Option') {
    const vec = (v as unknown[])[0] as { toArray(): unknown[] };
    // An `Option` is a vector of at most one element.
    return vec.toArray().length <= 1 && vec.toArray().every((x) => validPureContents(t.typeArgs[0], x));
  }
  return true;
}

function isRefType(t: Type): boolean {
  return t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference;
}

function isReceivingType(t: Type): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === SUI_ADDRESS && d.module === 'transfer' && d.name === 'Receiving';
}

/** Slots of a PTB and the rules of their use. */
export class ExecutionState {
  readonly inputs: Slot[] = [];
  readonly results: Slot[][] = [];
  gas: Slot | null = null;
  /** Dev inspect: pure bytes may stand for a value of any type (upstream skips the pure-type check). */
  relaxedPure = false;
  /** Where the gas coin went when a command took it by value (TransferObjects, `coin::send_funds`). */
  gasTransfer: GasCoinTransfer | null = null;
  private readonly cliques = new Cliques();
  /** Slots the running command used, in argument order (see `entry-rules.ts`). */
  private touched: { argIdx: number; slot: Slot; postChecks: boolean }[] = [];

  constructor(private readonly vm: MoveVM) {}

  /** Using a value moved before: `ArgumentWithoutValue` (protocol 108+), `InvalidValueUsage` in the older executor. */
  private movedKind(): 'ArgumentWithoutValue' | 'InvalidValueUsage' {
    return this.vm.protocolConfig?.flag('enable_ptb_execution_v2') === false ? 'InvalidValueUsage' : 'ArgumentWithoutValue';
  }

  /** The slot an argument names. */
  slot(arg: Argument, argIdx: number): Slot {
    switch (arg.$kind) {
      case 'GasCoin':
        if (this.gas === null) throw argumentError(argIdx, 'InvalidGasCoinUsage', 'the transaction has no gas coin');
        return this.gas;
      case 'Input': {
        const s = this.inputs[arg.Input];
        if (s === undefined) {
          throw new ExecutionFailure(
            { $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: 'IndexOutOfBounds', IndexOutOfBounds: { idx: arg.Input } } } } as never,
            `input ${arg.Input} does not exist`,
          );
        }
        return s;
      }
      case 'Result': {
        const r = this.results[arg.Result];
        if (r === undefined) {
          throw new ExecutionFailure(
            { $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: 'IndexOutOfBounds', IndexOutOfBounds: { idx: arg.Result } } } } as never,
            `result ${arg.Result} does not exist`,
          );
        }
        if (r.length !== 1) {
          throw new ExecutionFailure(
            { $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: 'InvalidResultArity', InvalidResultArity: { resultIdx: arg.Result } } } } as never,
            `command ${arg.Result} returned ${r.length} values; use NestedResult`,
          );
        }
        return r[0];
      }
      case 'NestedResult': {
        const [c, j] = arg.NestedResult;
        const r = this.results[c];
        if (r === undefined) {
          throw new ExecutionFailure(
            { $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: 'IndexOutOfBounds', IndexOutOfBounds: { idx: c } } } } as never,
            `result ${c} does not exist`,
          );
        }
        const s = r[j];
        if (s === undefined) {
          throw new ExecutionFailure(
            {
              $kind: 'CommandArgumentError',
              CommandArgumentError: { argIdx, kind: { $kind: 'SecondaryIndexOutOfBounds', SecondaryIndexOutOfBounds: { resultIdx: c, secondaryIdx: j } } },
            } as never,
            `result ${c}.${j} does not exist`,
          );
        }
        return s;
      }
    }
  }

  /** Decode pure bytes as `t` (checked: pure types only, valid BCS and contents). */
  private readPure(s: Slot, t: Type, argIdx: number): unknown {
    if (!isPureType(t) && !this.relaxedPure) throw argumentError(argIdx, 'InvalidUsageOfPureArg', `a pure argument cannot be a ${formatType(t)}`);
    if (this.relaxedPure) {
      // Dev inspect (protocols 80 to 103): the bytes are bounded by the type's `max_ptb_value_size` share.
      const bound = ptbValueBound(this.vm, t, 'raw');
      if (bound !== null) ensureSerializedSize((s.bytes as Uint8Array).length, bound);
    }
    let v: unknown;
    try {
      v = this.vm.bcs.decode(s.bytes as Uint8Array, t);
    } catch (e) {
      throw argumentError(argIdx, 'InvalidBCSBytes', `not a valid ${formatType(t)}: ${errorMessage(e)}`);
    }
    if (!validPureContents(t, v)) throw argumentError(argIdx, 'InvalidBCSBytes', `invalid contents for ${formatType(t)}`);
    return v;
  }

  /**
   * The value of a pure or `Receiving` input used at type `t`: one value per type, made on
   * first use (pure bytes read as `t`; a `Receiving<T>` from the object reference), so that
   * the same input may serve several types and a `&mut` use persists for later uses.
   */
  private typedUse(s: Slot, t: Type, argIdx: number): TypedUse {
    for (let u = s.typed; u !== undefined; u = u.next) if (u.view.type === t) return u; // the same type object: no name to format
    const key = formatType(t);
    for (let u = s.typed; u !== undefined; u = u.next) if (u.key === key) return u;
    let holder: unknown[];
    if (s.kind === 'receiving') {
      const o = s.object as InputObjectInfo;
      holder = [[[o.id], o.version]];
    } else holder = [this.readPure(s, t, argIdx)];
    const use: TypedUse = { key, holder, view: { kind: s.kind, holder: null, type: t, taken: false }, next: s.typed };
    s.typed = use;
    if (s.holder === null) {
      s.holder = holder;
      s.type = t;
    }
    return use;
  }

  private checkType(s: Slot, t: Type, argIdx: number): void {
    if (s.type !== null && s.type !== t && formatType(s.type) !== formatType(t)) {
      throw argumentError(argIdx, 'TypeMismatch', `expected ${formatType(t)}, got ${formatType(s.type)}`);
    }
  }

  /**
   * Take the value of an argument for a by-value parameter of type `t` (`null`: any
   * type, e.g. TransferObjects). Copyable values are copied; others are moved out.
   */
  take(arg: Argument, t: Type | null, argIdx: number, command: 'move' | 'transfer' | 'merge-source' | 'send-funds' = 'move'): { value: unknown; type: Type } {
    const s = this.slot(arg, argIdx);
    // A reference result taken by value is read through (the slot holds the reference).
    if (s.kind === 'result' && s.holder !== null && s.type !== null && isRefType(s.type) && (t === null || !isRefType(t))) {
      this.touch(s, argIdx, 'copy');
      return { value: readRef(s.holder[0]), type: s.type.elem as Type };
    }
    if (s.kind === 'pure') {
      if (t === null) throw argumentError(argIdx, 'InvalidUsageOfPureArg', 'a pure argument has no type here');
      const u = this.typedUse(s, t, argIdx);
      this.touch(u.view, argIdx, 'copy');
      return { value: copyValue(u.holder[0]), type: t };
    }
    if (s.kind === 'receiving' && t !== null && isReceivingType(t)) {
      const u = this.typedUse(s, t, argIdx);
      this.touch(u.view, argIdx, 'move');
      return { value: u.holder[0], type: t };
    }
    if (s.kind === 'gas' && command !== 'transfer' && command !== 'send-funds') {
      throw argumentError(argIdx, 'InvalidGasCoinUsage', 'the gas coin can only be taken by value by TransferObjects');
    }
    if (s.kind === 'receiving') throw argumentError(argIdx, 'TypeMismatch', 'a Receiving input is only given as 0x2::transfer::Receiving<T>');
    if (s.taken || s.holder === null || s.type === null) throw argumentError(argIdx, this.movedKind(), 'the value was moved before');
    if (t !== null) this.checkType(s, t, argIdx);
    if (s.object !== undefined && !s.object.mutable) {
      throw argumentError(argIdx, 'InvalidObjectByValue', `object ${s.object.id} is immutable or taken read-only`);
    }
    // Before `shared_object_deletion`, shared objects could not be taken by value at all.
    if (s.object?.ownerKind === 'Shared' && this.vm.protocolConfig?.flag('shared_object_deletion') === false) {
      throw argumentError(argIdx, 'InvalidObjectByValue', `shared object ${s.object.id} cannot be taken by value`);
    }
    if (isCopy(s.type) && s.object === undefined && s.kind !== 'gas') {
      this.markUse(s, 'copied');
      this.touch(s, argIdx, 'copy');
      return { value: copyValue(s.holder[0]), type: s.type };
    }
    this.touch(s, argIdx, 'move');
    const value = s.holder[0];
    s.holder = null;
    s.taken = true;
    if (s.kind === 'gas' && command === 'transfer') this.gasTransfer = { kind: 'transfer' };
    return { value, type: s.type };
  }

  /** A reference to an argument for a `&T`/`&mut T` parameter (`t` the referenced type). */
  borrow(arg: Argument, t: Type | null, mutable: boolean, argIdx: number): { ref: unknown; type: Type } {
    const s = this.slot(arg, argIdx);
    // A reference result is passed on as the reference it is.
    if (s.kind === 'result' && s.holder !== null && s.type !== null && isRefType(s.type)) {
      this.touch(s, argIdx, 'copy');
      return { ref: borrowSlot(s.holder, 0), type: s.type.elem as Type };
    }
    if (s.kind === 'pure' || (s.kind === 'receiving' && t !== null && isReceivingType(t))) {
      if (t === null) throw argumentError(argIdx, 'InvalidUsageOfPureArg', 'a pure argument has no type here');
      const u = this.typedUse(s, t, argIdx);
      this.touch(u.view, argIdx, mutable ? 'mut-borrow' : 'borrow');
      return { ref: borrowSlot(u.holder, 0), type: t };
    }
    if (s.kind === 'receiving') throw argumentError(argIdx, 'TypeMismatch', 'a Receiving input cannot be borrowed');
    if (s.taken || s.holder === null || s.type === null) throw argumentError(argIdx, this.movedKind(), 'the value was moved before');
    if (t !== null) this.checkType(s, t, argIdx);
    if (mutable && s.object !== undefined && !s.object.mutable) {
      throw argumentError(argIdx, 'InvalidObjectByMutRef', `object ${s.object.id} is immutable or taken read-only`);
    }
    this.markUse(s, 'borrowed');
    this.touch(s, argIdx, mutable ? 'mut-borrow' : 'borrow');
    return { ref: borrowSlot(s.holder, 0), type: s.type };
  }

  /** `true` when taking the slot's value moves it out (it is not copyable). */
  movesOnTake(s: Slot): boolean {
    return s.kind !== 'pure' && s.type !== null && (!isCopy(s.type) || s.object !== undefined || s.kind === 'gas');
  }

  /** Record a use of a slot by the running command (whose index is the number of results so far). */
  private markUse(s: Slot, how: 'copied' | 'borrowed'): void {
    const command = this.results.length;
    if (s.lastUse?.command !== command) s.lastUse = { command, copied: false, borrowed: false };
    s.lastUse[how] = true;
  }

  /**
   * Record that the running command used `s` (entry-argument rule): a move releases the
   * value's heat; moving a shared object (or a vector holding some) incurs post-execution
   * checks, as does borrowing such a vector mutably.
   */
  private touch(s: Slot, argIdx: number, how: 'move' | 'copy' | 'borrow' | 'mut-borrow'): void {
    if (s.clique === undefined) s.clique = this.cliques.next();
    let postChecks = false;
    if (how === 'move') {
      if (s.heats === true) this.cliques.heat(s.clique, -1);
      postChecks = (s.object !== undefined && s.object.ownerKind === 'Shared' && s.object.mutable) || s.tainted === true;
    } else if (how === 'mut-borrow') postChecks = s.tainted === true;
    this.touched.push({ argIdx, slot: s, postChecks });
  }

  /**
   * `InvalidArgumentToPrivateEntryFunction`: the first argument of the running command (a
   * call of a non-public entry function) whose clique is hot.
   */
  checkEntryArguments(): void {
    for (const { argIdx, slot } of this.touched) {
      if (slot.clique !== undefined && this.cliques.isHot(slot.clique)) {
        throw argumentError(argIdx, 'InvalidArgumentToPrivateEntryFunction', 'the argument is entangled with a hot potato or a shared object taken by value');
      }
    }
  }

  /** Put a command's results in place (`propagates`: MakeMoveVec, which hands objects on instead of consuming them). */
  pushResults(values: { value: unknown; type: Type }[], propagates = false): void {
    const clique = this.cliques.merge(this.touched.map((t) => t.slot.clique as number));
    const postChecks = this.touched.some((t) => t.postChecks);
    if (postChecks && !propagates) this.cliques.markAlwaysHot(clique);
    this.touched = [];
    this.results.push(
      values.map((v) => {
        const heats = (v.type.abilities & (Ability.Drop | Ability.Store)) === 0;
        if (heats) this.cliques.heat(clique, 1);
        return { kind: 'result', holder: [v.value], type: v.type, taken: false, clique, heats, tainted: propagates && postChecks };
      }),
    );
  }

  /**
   * `UnusedValueWithoutDrop`: every result still holding a value without `drop` (inputs
   * are objects that stay in place, so only results count). A copyable value whose last
   * use copied it (without borrowing it in that command) was taken by that use, as
   * upstream's drop-safety pass turns the last copy into a move.
   */
  checkUnusedValues(): void {
    this.results.forEach((r, i) =>
      r.forEach((s, j) => {
        const takenByLastCopy = s.lastUse !== undefined && s.lastUse.copied && !s.lastUse.borrowed;
        if (s.holder !== null && s.type !== null && (s.type.abilities & Ability.Drop) === 0 && !takenByLastCopy) {
          throw new ExecutionFailure(
            { $kind: 'UnusedValueWithoutDrop', UnusedValueWithoutDrop: { resultIdx: i, secondaryIdx: j } } as never,
            `result ${i}.${j} (${formatType(s.type)}) has no drop ability and was not used`,
          );
        }
      }),
    );
  }
}

/** Turn a VM input error (thrown before running) into a failure status. */
export function vmInputFailure(e: VmError): ExecutionFailure {
  switch (e.code) {
    case 'FUNCTION_RESOLUTION_FAILURE':
    case 'MISSING_DEPENDENCY':
      return simpleFailure('FunctionNotFound', e.message);
    case 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH':
      return simpleFailure('TypeArityMismatch', e.message);
    case 'NUMBER_OF_ARGUMENTS_MISMATCH':
      return simpleFailure('ArityMismatch', e.message);
    case 'CONSTRAINT_NOT_SATISFIED':
      return new ExecutionFailure({ $kind: 'TypeArgumentError', TypeArgumentError: { argumentIdx: 0, kind: { $kind: 'ConstraintNotSatisfied', ConstraintNotSatisfied: true } } } as never, e.message);
    case 'TYPE_RESOLUTION_FAILURE':
      return new ExecutionFailure({ $kind: 'TypeArgumentError', TypeArgumentError: { argumentIdx: 0, kind: { $kind: 'TypeNotFound', TypeNotFound: true } } } as never, e.message);
    default:
      return simpleFailure('VMInvariantViolation', e.message);
  }
}

/** Objects read while loading the inputs, kept for effects. */
export interface LoadedInputs {
  /** Input objects by id, as they were before the transaction. */
  objects: Map<string, { object: SuiObject; info: InputObjectInfo }>;
  /** Gas coin ids (the first is the gas object). */
  gasCoins: string[];
  /** Objects loaded while running: dynamic-field children and received objects, as they were. */
  runtimeObjects: Map<string, SuiObject>;
  /** Versions of the `Receiving` inputs (they count for the lamport version). */
  receivingVersions: bigint[];
  /** How gas is paid (`null`: unmetered, no gas payment). */
  gasPlan: GasPlan | null;
}

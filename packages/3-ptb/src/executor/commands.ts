/**
 * The PTB commands other than publishing: `MoveCall`, `TransferObjects`, `SplitCoins`,
 * `MergeCoins`, `MakeMoveVec`. Each reads its arguments through {@link ExecutionState}
 * and leaves its results there.
 */
import { Ability, errorMessage, SUI_ADDRESS } from '@smi/bytecode';
import {
  checkLayoutNodes,
  formatType,
  layoutNodeRule,
  MoveVector,
  type MoveVM,
  type ObjectRuntime,
  OBJECT_RUNTIME_KEY,
  type Type,
  TypeKind,
  vecKindOf,
  VmError,
  type CallArg,
  type CallResult,
  type InstructionMeter,
  type LoadedFunction,
  type Tracer,
} from '@smi/move-vm';
import { normalizeAddress } from '../bcs/codec.js';
import type { MoveLocation } from '../bcs/execution-status.js';
import type { Argument, Command, ProgrammableMoveCall } from '../bcs/transaction.js';
import { formatTypeTag, type TypeTag } from '../bcs/type-tag.js';
import { argumentError, ExecutionFailure, simpleFailure } from './errors.js';
import { type ExecutionState, type Slot, vmInputFailure } from './state.js';
import type { CommandResult } from './types.js';
import { ensureSerializedSize, ptbValueBound, type SizeBound, ulebSize } from './value-size.js';

/** What commands need besides the slots. */
export interface CommandEnv {
  vm: MoveVM;
  state: ExecutionState;
  runtime: ObjectRuntime;
  /** Relaxed checks (dev inspect): private functions callable. */
  relaxed: boolean;
  /** Internal gas units left for Move execution. */
  gasLeft: number;
  /** Internal gas units the transaction started with. */
  gasBudgetInternal: number;
  /** Instructions executed so far in the transaction (the gas schedule's instruction tiers). */
  meter?: InstructionMeter;
  /** Digest of the transaction (base58). */
  txDigest: string;
  /** Packages written by Publish/Upgrade commands. */
  published: { id: string; object: import('../bcs/object.js').SuiObject }[];
  /** Where events are attributed: the package and module of the first Move call. */
  eventModule: { packageId: string; module: string } | null;
  /** Which call emitted which events: from event index `from` on, the module of that call (upstream's per-call `ModuleId`). */
  eventModules?: { from: number; packageId: string; module: string }[];
  /**
   * Before protocol 108: values returned by Move calls, or last mutated by a non-entry one,
   * which a non-public entry function may not take (`InvalidArgumentToPrivateEntryFunction`).
   */
  nonEntryValues?: WeakSet<Slot>;
  /** Modules the Move calls of the transaction ran code of (`0x…::module`). */
  modulesTouched?: Set<string>;
  /** The natives' extensions of the transaction's Move calls (the object runtime). */
  extensions?: Map<string, unknown>;
  /** Watches the Move calls of the commands (see `ExecutionInput.tracer`). */
  tracer?: Tracer;
  /** The instruction count when each command started. */
  instructionsAtCommand?: number[];
}

function isTxContext(t: Type): boolean {
  if (t.kind !== TypeKind.Reference && t.kind !== TypeKind.MutableReference) return false;
  const d = (t.elem as Type).datatype;
  return d !== null && d.address === SUI_ADDRESS && d.module === 'tx_context' && d.name === 'TxContext';
}

function isCoin(t: Type): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === SUI_ADDRESS && d.module === 'coin' && d.name === 'Coin';
}

function isReceiving(t: Type): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === SUI_ADDRESS && d.module === 'transfer' && d.name === 'Receiving';
}

/** Resolve a type tag in the context of package `pkg`. */
export function resolveTypeTag(vm: MoveVM, tag: TypeTag, pkg: string, argumentIdx: number): Type {
  try {
    return vm.resolveType(formatTypeTag(tag), pkg);
  } catch (e) {
    // Protocol 108+: a type tag with the wrong number of type arguments is TypeArityMismatch.
    if (e instanceof VmError && e.code === 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH' && vm.protocolConfig?.flag('enable_ptb_execution_v2') === true) {
      throw simpleFailure('TypeArityMismatch', `type argument ${argumentIdx} (${formatTypeTag(tag)}): ${e.message}`);
    }
    const kind = e instanceof VmError && e.code === 'CONSTRAINT_NOT_SATISFIED' ? 'ConstraintNotSatisfied' : 'TypeNotFound';
    throw new ExecutionFailure(
      { $kind: 'TypeArgumentError', TypeArgumentError: { argumentIdx, kind: { $kind: kind, [kind]: true } } } as never,
      `type argument ${argumentIdx} (${formatTypeTag(tag)}): ${errorMessage(e)}`,
    );
  }
}

function moveLocation(module: string, fn: string, functionIndex: number, instruction: number): MoveLocation {
  const [address, name] = module.split('::');
  return { module: { address, name }, function: functionIndex, instruction, functionName: fn };
}

/** Turn a failed VM call into Sui's failure status. */
export function callFailure(r: Exclude<CallResult, { $kind: 'Success' }>): ExecutionFailure {
  if (r.$kind === 'Aborted') {
    const l = r.location;
    return new ExecutionFailure(
      { $kind: 'MoveAbort', MoveAbort: [moveLocation(l.module, l.function, l.functionIndex, l.instruction), r.abortCode] } as never,
      `MoveAbort in ${l.module}::${l.function} at ${l.instruction} with code ${r.abortCode}`,
    );
  }
  const loc = r.location ? moveLocation(r.location.module, r.location.function, r.location.functionIndex, r.location.instruction) : null;
  switch (r.code) {
    case 'OUT_OF_GAS':
      return simpleFailure('InsufficientGas', r.message);
    case 'ARITHMETIC_ERROR':
    case 'VECTOR_OPERATION_ERROR':
    case 'EXECUTION_STACK_OVERFLOW':
    case 'CALL_STACK_OVERFLOW':
    case 'VM_MAX_VALUE_DEPTH_REACHED':
    case 'VM_MAX_TYPE_DEPTH_REACHED':
    case 'VM_MAX_TYPE_NODES_REACHED':
    case 'MEMORY_LIMIT_EXCEEDED':
      return new ExecutionFailure({ $kind: 'MovePrimitiveRuntimeError', MovePrimitiveRuntimeError: loc } as never, r.message);
    case 'MISSING_DEPENDENCY':
    case 'LINKER_ERROR':
    case 'FUNCTION_RESOLUTION_FAILURE':
    case 'TYPE_RESOLUTION_FAILURE':
      return simpleFailure('VMVerificationOrDeserializationError', r.message);
    default:
      return simpleFailure('VMInvariantViolation', `${r.code}: ${r.message}`);
  }
}

/** A value layout with too many nodes, as Sui reports it (without a location). */
function layoutFailure(e: VmError): ExecutionFailure {
  if (e.code === 'VM_MAX_TYPE_NODES_REACHED') return new ExecutionFailure({ $kind: 'MovePrimitiveRuntimeError', MovePrimitiveRuntimeError: null } as never, e.message);
  return simpleFailure('VMVerificationOrDeserializationError', e.message);
}

/**
 * `max_type_to_layout_nodes` on what Sui lays out after a Move call: the return values
 * (before protocol 104, whose VM serializes them), then the events the call emitted.
 */
function checkCallLayouts(vm: MoveVM, returned: readonly { type: Type }[], events: readonly { type: Type }[]): void {
  const rule = layoutNodeRule(vm.protocolConfig);
  try {
    if (vm.protocolConfig?.flag('enable_ptb_execution_v2') === false) for (const v of returned) checkLayoutNodes(vm.types, v.type, rule);
    for (const e of events) checkLayoutNodes(vm.types, e.type, rule);
  } catch (e) {
    if (e instanceof VmError) throw layoutFailure(e);
    throw e;
  }
}

/** `max_type_to_layout_nodes` on the objects written at the end of a transaction (a failure of no command). */
export function writesLayoutFailure(vm: MoveVM, writes: readonly { type: Type }[]): ExecutionFailure | null {
  const rule = layoutNodeRule(vm.protocolConfig);
  try {
    for (const w of writes) checkLayoutNodes(vm.types, w.type, rule);
  } catch (e) {
    if (e instanceof VmError) return layoutFailure(e);
    throw e;
  }
  return null;
}

function argName(a: Argument): string {
  switch (a.$kind) {
    case 'GasCoin':
      return 'GasCoin';
    case 'Input':
      return `Input(${a.Input})`;
    case 'Result':
      return `Result(${a.Result})`;
    case 'NestedResult':
      return `NestedResult(${a.NestedResult[0]},${a.NestedResult[1]})`;
  }
}

/** The version of the package with original id `original` a call to `pkg` runs (the package itself, or its linkage). */
function runningVersion(vm: MoveVM, pkg: string, original: string): string {
  const p = vm.packageById(pkg);
  if (p === undefined) return original;
  if (normalizeAddress(p.originalId) === normalizeAddress(original)) return normalizeAddress(pkg);
  for (const [k, v] of Object.entries(p.linkageTable)) if (normalizeAddress(k) === normalizeAddress(original)) return normalizeAddress(v.upgradedId);
  return original;
}

function isSendFunds(call: ProgrammableMoveCall): boolean {
  return normalizeAddress(call.package) === SUI_ADDRESS && call.module === 'coin' && call.function === 'send_funds';
}

/** What a Move call needs before its arguments: the function, its type arguments and signature. */
interface CallPlan {
  readonly fn: LoadedFunction;
  readonly typeArgs: readonly Type[];
  /** Parameters the PTB supplies (the TxContext ones removed). */
  readonly params: readonly Type[];
  /** Per parameter: the TxContext the executor supplies. */
  readonly ctxAt: readonly boolean[];
  readonly withCtx: boolean;
  /** Return types, instantiated. */
  readonly returns: readonly Type[];
}

/**
 * Plans of the calls made through a linker (the versions a call's packages resolve to), by
 * package, module, function, then `anywhere` and type arguments. A new package version or a
 * transaction's unified linkage gives a new linker, so a plan never outlives the versions it
 * was made with.
 */
const callPlans = new WeakMap<object, Map<string, Map<string, Map<string, Map<string, CallPlan>>>>>();

function getOrSet<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key);
  if (inner === undefined) map.set(key, (inner = new Map()));
  return inner;
}

/** Only public and entry functions may be called, unless checks are relaxed (dev inspect). */
function checkCallable(fn: LoadedFunction, call: ProgrammableMoveCall, relaxed: boolean): void {
  if (!relaxed && fn.visibility !== 'Public' && !fn.isEntry) {
    throw simpleFailure('NonEntryFunctionInvoked', `${call.module}::${call.function} is neither public nor entry`);
  }
}

function callPlan(vm: MoveVM, call: ProgrammableMoveCall, anywhere: boolean, relaxed: boolean): CallPlan {
  const linker = vm.linkerFor(call.package);
  // Nested maps on the call's own strings: one key joining them is a new string to flatten and hash per command.
  let byPackage = callPlans.get(linker);
  if (byPackage === undefined) callPlans.set(linker, (byPackage = new Map()));
  const byModule = getOrSet(byPackage, call.package);
  const plans = getOrSet(getOrSet(byModule, call.module), call.function);
  let key = anywhere ? '+' : '-';
  for (const t of call.typeArguments) key += `${formatTypeTag(t)},`;
  const hit = plans.get(key);
  if (hit !== undefined) {
    checkCallable(hit.fn, call, relaxed);
    return hit;
  }
  let fn;
  try {
    fn = vm.resolveFunction(call.package, call.module, call.function);
  } catch (e) {
    if (e instanceof VmError) throw vmInputFailure(e);
    throw e;
  }
  checkCallable(fn, call, relaxed);
  const typeArgs = call.typeArguments.map((t, i) => resolveTypeTag(vm, t, call.package, i));
  if (typeArgs.length !== fn.typeParams.length) {
    throw simpleFailure('TypeArityMismatch', `${call.function} takes ${fn.typeParams.length} type arguments, got ${typeArgs.length}`);
  }
  const allParams = fn.params.map((p) => vm.types.subst(p, typeArgs));
  // The TxContext is supplied by the executor: the last parameter, or (protocol 108+) any.
  const ctxAt = allParams.map((p, k) => isTxContext(p) && (anywhere || k === allParams.length - 1));
  const plan: CallPlan = {
    fn,
    typeArgs,
    params: allParams.filter((_, k) => !ctxAt[k]),
    ctxAt,
    withCtx: ctxAt.some((c) => c),
    returns: fn.returns.map((r) => vm.types.subst(r, typeArgs)),
  };
  plans.set(key, plan);
  return plan;
}

/** `MoveCall`. */
export function moveCall(env: CommandEnv, call: ProgrammableMoveCall): CommandResult {
  const { vm, state } = env;
  const anywhere = vm.protocolConfig?.flag('enable_ptb_execution_v2') === true;
  const plan = callPlan(vm, call, anywhere, env.relaxed);
  const { fn, typeArgs, params, ctxAt, withCtx } = plan;
  const expected = params.length;
  if (call.arguments.length !== expected) {
    throw simpleFailure('ArityMismatch', `${call.function} takes ${expected} arguments, got ${call.arguments.length}`);
  }
  const byRef: Slot[] = []; // a command has a few arguments: no Set
  const args: CallArg[] = [];
  const mutated: { argIdx: number; type: Type; ref: unknown }[] = [];
  const pushCtx = (): void => {
    while (ctxAt[args.length] === true) args.push({ $kind: 'Raw', value: env.runtime.txContextValue() });
  };
  // Non-public entry functions: before protocol 108 no argument may come from a non-entry
  // call (upstream v3 `used_in_non_entry_move_call`); from 108 the clique rule (entry-rules.ts).
  const privateEntry = fn.isEntry && fn.visibility !== 'Public';
  // With accumulators, the gas coin may be given by value to `0x2::coin::send_funds`.
  const gasToFunds = call.arguments[0]?.$kind === 'GasCoin' && isSendFunds(call) && vm.protocolConfig?.flag('enable_accumulators') === true;
  call.arguments.forEach((a, i) => {
    pushCtx();
    const p = params[i];
    const slot = state.slot(a, i);
    if (privateEntry && !anywhere && env.nonEntryValues?.has(slot) === true) {
      throw argumentError(i, 'InvalidArgumentToPrivateEntryFunction', `${argName(a)} comes from a non-entry Move call`);
    }
    if (p.kind === TypeKind.Reference || p.kind === TypeKind.MutableReference) {
      // A value moved by an earlier argument is gone (ArgumentWithoutValue, from borrow).
      const mutable = p.kind === TypeKind.MutableReference;
      const { ref, type } = state.borrow(a, p.elem as Type, mutable, i);
      byRef.push(slot);
      args.push({ $kind: 'Raw', value: ref });
      if (mutable) mutated.push({ argIdx: i, type, ref });
    } else if (isReceiving(p) && slot.kind === 'receiving') {
      const o = slot.object;
      if (o === undefined) throw argumentError(i, 'TypeMismatch', 'not a Receiving input');
      // Receiving<T> { id: ID, version: u64 }
      args.push({ $kind: 'Raw', value: [[o.id], o.version] });
    } else {
      if (byRef.includes(slot) && state.movesOnTake(slot)) throw argumentError(i, 'CannotMoveBorrowedValue', `${argName(a)} is also borrowed`);
      const { value } = state.take(a, p, i, gasToFunds && i === 0 ? 'send-funds' : 'move');
      args.push({ $kind: 'Raw', value });
    }
  });
  const recipient = args[1];
  if (gasToFunds && recipient?.$kind === 'Raw') state.gasTransfer = { kind: 'sendFunds', recipient: recipient.value as string };
  if (!env.relaxed && privateEntry && anywhere) state.checkEntryArguments();
  if (withCtx) pushCtx();
  if (env.eventModule === null) env.eventModule = { packageId: call.package, module: call.module };
  const eventsFrom = env.runtime.emittedEvents().length;
  (env.eventModules ??= []).push({ from: eventsFrom, packageId: call.package, module: call.module });
  const r = vm.callFunction(fn, typeArgs, {
    args,
    gasBudget: env.gasLeft,
    extensions: (env.extensions ??= new Map([[OBJECT_RUNTIME_KEY, env.runtime]])),
    meter: (env.meter ??= { instructions: 0 }),
    ...(env.tracer === undefined ? {} : { tracer: env.tracer }),
  });
  env.gasLeft -= r.gasUsed;
  for (const m of r.modulesTouched) (env.modulesTouched ??= new Set()).add(m);
  if (r.$kind !== 'Success') {
    const f = callFailure(r);
    // Protocol 108+: an abort names the package version that ran, not its original id.
    if (anywhere && f.status.$kind === 'MoveAbort') {
      const m = f.status.MoveAbort[0].module;
      m.address = runningVersion(vm, call.package, m.address);
    }
    throw f;
  }
  const events = env.runtime.emittedEvents();
  checkCallLayouts(vm, r.returnValues, events.length === eventsFrom ? NO_EVENTS : events.slice(eventsFrom));
  // A `&mut TxContext` comes back with the ids the Move code counted (older frameworks).
  for (const m of r.mutatedReferences) {
    const b = m.value.bcs;
    if (ctxAt[m.argIndex] === true && b.length >= 8) env.runtime.syncIdsCreated(new DataView(b.buffer, b.byteOffset + b.length - 8, 8).getBigUint64(0, true));
  }
  // References returned to the PTB (protocol feature `allow_references_in_ptbs`, and dev
  // inspect from protocol 108) keep their reference type; the slot holds the reference, so a
  // later write through it reaches the value it borrows from. The older executor's dev inspect
  // kept the value read through it.
  const refsAllowed = vm.protocolConfig?.flag('allow_references_in_ptbs') === true || (env.relaxed && anywhere);
  const declared = plan.returns;
  if (!env.relaxed && !refsAllowed) {
    declared.forEach((d, idx) => {
      if (d.kind === TypeKind.Reference || d.kind === TypeKind.MutableReference) {
        throw new ExecutionFailure({ $kind: 'InvalidPublicFunctionReturnType', InvalidPublicFunctionReturnType: { idx } } as never, 'functions returning references cannot be called from a PTB');
      }
    });
  }
  state.pushResults(r.returnValues.map((v, idx) => (refsAllowed && v.reference !== undefined ? { value: v.reference, type: declared[idx] } : { value: v.value, type: v.type })));
  if (!anywhere) {
    // Returned values are tainted; a `&mut` argument takes the kind of the call that wrote it last.
    const taint = (env.nonEntryValues ??= new WeakSet());
    for (const s of state.results[state.results.length - 1]) taint.add(s);
    for (const m of mutated) {
      const s = state.slot(call.arguments[m.argIdx], m.argIdx);
      if (fn.isEntry) taint.delete(s);
      else taint.add(s);
    }
  }
  return {
    returnValues: r.returnValues.map((v) => ({ type: v.typeTag, bcs: v.bcs })),
    mutatedReferences: r.mutatedReferences
      .filter((m) => ctxAt[m.argIndex] !== true)
      .map((m) => ({ argument: argName(call.arguments[m.argIndex - ctxBefore(ctxAt, m.argIndex)]), type: m.value.typeTag, bcs: m.value.bcs })),
  };
}

const NO_EVENTS: readonly { type: Type }[] = [];

/** How many of the call's first `n` parameters are the `TxContext` (not PTB arguments). */
function ctxBefore(ctxAt: readonly boolean[], n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (ctxAt[i] === true) k++;
  return k;
}

/** `TransferObjects`. */
export function transferObjects(env: CommandEnv, objects: Argument[], address: Argument): CommandResult {
  const { state, vm } = env;
  const recipient = state.take(address, vm.types.address, objects.length).value as string;
  objects.forEach((a, i) => {
    const slot = state.slot(a, i);
    // Pure and Receiving inputs have no fixed type: not objects.
    if (slot.kind === 'pure' || slot.kind === 'receiving') throw argumentError(i, 'InvalidTransferObject', 'pure bytes are not an object');
    if (slot.type !== null && ((slot.type.abilities & Ability.Key) === 0 || (slot.type.abilities & Ability.Store) === 0)) {
      throw argumentError(i, 'InvalidTransferObject', `${formatType(slot.type)} needs key and store`);
    }
    const { value, type } = state.take(a, null, i, 'transfer');
    env.runtime.transfer({ $kind: 'AddressOwner', address: recipient }, type, value);
  });
  state.pushResults([]);
  return { returnValues: [], mutatedReferences: [] };
}

/** `SplitCoins`: new coins of the given amounts, taken from `coin`. */
export function splitCoins(env: CommandEnv, coin: Argument, amounts: Argument[]): CommandResult {
  const { state, vm } = env;
  const { ref, type } = borrowCoin(state, coin);
  if (!isCoin(type)) throw argumentError(0, 'TypeMismatch', `expected a 0x2::coin::Coin, got ${formatType(type)}`);
  const c = ref as unknown[];
  const balance = c[1] as unknown[];
  const values = amounts.map((a, i) => state.take(a, vm.types.u64, i + 1).value as bigint);
  const total = values.reduce((x, y) => x + y, 0n);
  if (total > 0xffffffffffffffffn) throw simpleFailure('CoinBalanceOverflow', 'the amounts add up past u64');
  const have = balance[0] as bigint;
  if (have < total) throw simpleFailure('InsufficientCoinBalance', `balance: ${have} required: ${total}`);
  balance[0] = have - total;
  const coins = values.map((amount) => ({ value: [[[env.runtime.freshId()]], [amount]] as unknown, type }));
  state.pushResults(coins);
  const tag = formatType(type);
  return {
    returnValues: coins.map((x) => ({ type: tag, bcs: vm.bcs.encode(x.value, type) })),
    mutatedReferences: [{ argument: argName(coin), type: tag, bcs: vm.bcs.encode(c, type) }],
  };
}

/** The coin of SplitCoins/MergeCoins by `&mut` (pure bytes have no fixed type: TypeMismatch). */
function borrowCoin(state: ExecutionState, coin: Argument): { ref: unknown; type: Type } {
  const kind = state.slot(coin, 0).kind;
  if (kind === 'pure' || kind === 'receiving') throw argumentError(0, 'TypeMismatch', 'expected a 0x2::coin::Coin, got pure bytes');
  return state.borrow(coin, null, true, 0);
}

/** `MergeCoins`: the sources' balances into `destination`; the sources are deleted. */
export function mergeCoins(env: CommandEnv, destination: Argument, sources: Argument[]): CommandResult {
  const { state, vm } = env;
  const destSlot = state.slot(destination, 0);
  const { ref, type } = borrowCoin(state, destination);
  if (!isCoin(type)) throw argumentError(0, 'TypeMismatch', `expected a 0x2::coin::Coin, got ${formatType(type)}`);
  const balance = (ref as unknown[])[1] as unknown[];
  sources.forEach((a, i) => {
    if (state.slot(a, i + 1) === destSlot) throw argumentError(i + 1, 'CannotMoveBorrowedValue', 'a coin cannot be merged into itself');
    const { value } = state.take(a, type, i + 1, 'merge-source');
    const src = value as unknown[];
    const sum = (balance[0] as bigint) + ((src[1] as unknown[])[0] as bigint);
    if (sum > 0xffffffffffffffffn) throw simpleFailure('CoinBalanceOverflow', 'merged balance overflows u64');
    balance[0] = sum;
    env.runtime.deleteId(((src[0] as unknown[])[0] as unknown[])[0] as string);
  });
  state.pushResults([]);
  return { returnValues: [], mutatedReferences: [{ argument: argName(destination), type: formatType(type), bcs: vm.bcs.encode(ref, type) }] };
}

/**
 * A `MakeMoveVec` element type. Before `convert_type_argument_error` (protocol 72) a type
 * that does not resolve is not a type argument error but the VM's own error (upstream
 * `convert_vm_error`): an invariant violation for `TYPE_RESOLUTION_FAILURE`.
 */
function resolveVecElementType(vm: MoveVM, tag: TypeTag, pkgContext: string): Type {
  if (vm.protocolConfig?.flag('convert_type_argument_error') === false) {
    try {
      return vm.resolveType(formatTypeTag(tag), pkgContext);
    } catch (e) {
      if (e instanceof VmError && e.code === 'TYPE_RESOLUTION_FAILURE') {
        throw simpleFailure('VMInvariantViolation', `TYPE_RESOLUTION_FAILURE: Cannot find ${formatTypeTag(tag)} in cache`);
      }
    }
  }
  return resolveTypeTag(vm, tag, pkgContext, 0);
}

/** `MakeMoveVec`. */
export function makeMoveVec(env: CommandEnv, typeTag: TypeTag | null, elements: Argument[], pkgContext: string): CommandResult {
  const { state, vm } = env;
  let elem: Type | null = typeTag === null ? null : resolveVecElementType(vm, typeTag, pkgContext);
  if (elem === null && elements.length === 0) throw simpleFailure('TypeArityMismatch', 'an empty MakeMoveVec needs a type');
  const values: unknown[] = [];
  let tainted = false;
  // `max_ptb_value_size`: the vector's bytes so far, checked after each element.
  let bound: SizeBound | null | undefined;
  let size = ulebSize(elements.length);
  elements.forEach((a, i) => {
    if (env.nonEntryValues?.has(state.slot(a, i)) === true) tainted = true;
    if (elem === null) {
      // Without a type, the first element must be an object (`key`).
      const slot = state.slot(a, i);
      if (slot.kind === 'pure' || slot.kind === 'receiving' || slot.type === null || (slot.type.abilities & Ability.Key) === 0) {
        throw argumentError(i, 'InvalidMakeMoveVecNonObjectArgument', 'without a type, the first element must be an object');
      }
      elem = slot.type;
    }
    const value = state.take(a, elem, i).value;
    values.push(value);
    if (bound === undefined) bound = ptbValueBound(vm, elem, 'vector-elem');
    if (bound !== null) {
      size += vm.bcs.encode(value, elem).length;
      ensureSerializedSize(size, bound);
    }
  });
  const t = vm.types.vector(elem as Type);
  const v = MoveVector.fromValues(vecKindOf(elem as Type), values);
  state.pushResults([{ value: v, type: t }], true);
  if (tainted) env.nonEntryValues?.add(state.results[state.results.length - 1][0]);
  return { returnValues: [{ type: formatType(t), bcs: vm.bcs.encode(v, t) }], mutatedReferences: [] };
}

/** Human-readable name of a command (for messages). */
export function describeCommand(c: Command): string {
  switch (c.$kind) {
    case 'MoveCall':
      return `MoveCall ${c.MoveCall.package}::${c.MoveCall.module}::${c.MoveCall.function}`;
    default:
      return c.$kind;
  }
}

/**
 * Static typing of a programmable transaction (upstream `static_programmable_transactions`
 * loading and typing, protocol 108+ `enable_ptb_execution_v2`): before any command runs,
 * every Move call's function and type arguments are loaded, then every command's arguments
 * are resolved to locations (inputs, results, the gas coin, the injected `TxContext`) and
 * typed against what the command expects. Each argument becomes a usage — moved, copied,
 * borrowed, read through a reference or frozen — that the verification passes
 * (`static-verify.ts`) check. Errors carry the command and argument indices upstream's do.
 */
import { Ability, type CompiledModule, deserializeModule, moduleName, SUI_ADDRESS } from '@smi/bytecode';
import { formatType, type LoadedFunction, type MoveVM, type Type, TypeKind, VmError } from '@smi/move-vm';
import type { Argument, Command } from '../bcs/transaction.js';
import { formatTypeTag } from '../bcs/type-tag.js';
import { resolveTypeTag } from './commands.js';
import { argumentError, type CommandArgumentErrorKind, ExecutionFailure, simpleFailure } from './errors.js';
import { type Slot, vmInputFailure } from './state.js';

/** Where a value lives. */
export type Location = { kind: 'gas' } | { kind: 'ctx' } | { kind: 'object' | 'pure' | 'receiving'; input: number } | { kind: 'result'; command: number; index: number };

/** A stable key of a location. */
export function locationKey(l: Location): string {
  switch (l.kind) {
    case 'gas':
    case 'ctx':
      return l.kind;
    case 'result':
      return `r${l.command}.${l.index}`;
    default:
      return `${l.kind[0]}${l.input}`;
  }
}

/** How an argument uses its location. */
export type Usage = { use: 'move' | 'copy'; loc: Location } | { use: 'borrow'; mut: boolean; loc: Location } | { use: 'read' | 'freeze'; by: 'move' | 'copy'; loc: Location };

/** A typed argument: its index in the command, its usage and the type the command expects. */
export interface TypedArg {
  idx: number;
  usage: Usage;
  type: Type;
  /** Copies: whether the location was borrowed when copied (set by memory safety). */
  borrowed?: boolean;
}

/** The function a Move call names, instantiated. */
export interface TypedFunction {
  fn: LoadedFunction;
  address: string;
  module: string;
  name: string;
  params: Type[];
  returns: Type[];
}

/** A typed command. */
export interface TypedCommand {
  kind: Command['$kind'];
  args: TypedArg[];
  results: Type[];
  /** Per result: dropped right away (has `drop` and is never used). */
  drop: boolean[];
  /** Consumes a shared (or party) object by value: post-execution checks apply. */
  postChecks: boolean;
  call: TypedFunction | null;
}

/** A pure or receiving input used at one type (checked once per pair). */
export interface BytesUse {
  input: number;
  type: Type;
  command: number;
  arg: number;
}

/** The typed transaction. */
export interface TypedTransaction {
  commands: TypedCommand[];
  pure: BytesUse[];
  receiving: BytesUse[];
  hasGas: boolean;
}

/** What typing needs to know of the environment. */
export interface TypingEnv {
  vm: MoveVM;
  inputs: readonly Slot[];
  hasGas: boolean;
  /** The gas coin's type (`Coin<SUI>`). */
  gasType: Type | null;
  txContextType: Type;
}

function isRef(t: Type): boolean {
  return t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference;
}

/** `&TxContext`, `&mut TxContext`, or neither. */
export function txContextKind(t: Type): 'mut' | 'imm' | null {
  if (!isRef(t)) return null;
  const d = (t.elem as Type).datatype;
  if (d === null || d.address !== SUI_ADDRESS || d.module !== 'tx_context' || d.name !== 'TxContext') return null;
  return t.kind === TypeKind.MutableReference ? 'mut' : 'imm';
}

/** `TxContext` by value. */
export function isTxContextValue(t: Type): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === SUI_ADDRESS && d.module === 'tx_context' && d.name === 'TxContext';
}

function sameType(a: Type, b: Type): boolean {
  return a === b || formatType(a) === formatType(b);
}

function coinInner(t: Type): Type | null {
  const d = t.datatype;
  if (t.kind !== TypeKind.Datatype || d === null || d.address !== SUI_ADDRESS || d.module !== 'coin' || d.name !== 'Coin' || t.typeArgs.length !== 1) return null;
  return t.typeArgs[0];
}

function cmdError(kind: CommandArgumentErrorKind, idx: number): ExecutionFailure {
  return argumentError(idx, kind, kind);
}

function argArityError(kind: 'IndexOutOfBounds' | 'SecondaryIndexOutOfBounds' | 'InvalidResultArity', argIdx: number, a: number, b = 0): ExecutionFailure {
  const payload = kind === 'IndexOutOfBounds' ? { idx: a } : kind === 'InvalidResultArity' ? { resultIdx: a } : { resultIdx: a, secondaryIdx: b };
  return new ExecutionFailure({ $kind: 'CommandArgumentError', CommandArgumentError: { argIdx, kind: { $kind: kind, [kind]: payload } } } as never, `argument ${argIdx}: ${kind}`);
}

/** An upgrade may not add an `init` to a module that had none (upstream linkage resolution). */
function rejectAddedInit(vm: MoveVM, packageId: string, moduleBytes: readonly Uint8Array[]): void {
  const current = vm.packageById(packageId);
  if (current === undefined) return;
  const hasInit = (m: CompiledModule): boolean => m.functionDefs.some((f) => m.identifiers[m.functionHandles[f.function].name] === 'init');
  const before = new Map(current.modules.map((m) => [m.name, hasInit(m.module)]));
  for (const bytes of moduleBytes) {
    let m: CompiledModule;
    try {
      m = deserializeModule(bytes);
    } catch {
      return;
    }
    if (before.get(moduleName(m)) === false && hasInit(m)) {
      throw new ExecutionFailure(
        { $kind: 'PackageUpgradeError', PackageUpgradeError: { upgradeError: { $kind: 'IncompatibleUpgrade', IncompatibleUpgrade: true } } } as never,
        `module ${moduleName(m)} adds an init`,
      );
    }
  }
}

/** Load every Move call's function and type arguments (and MakeMoveVec types), in command order. */
function loadCommands(env: TypingEnv, commands: readonly Command[]): (TypedFunction | Type | null)[] {
  // A function called again with the same type arguments loads the same way (the VM's
  // packages do not change while a transaction is typed): reuse the first load.
  const loaded = new Map<string, TypedFunction>();
  return commands.map((c, i) => {
    try {
      if (c.$kind === 'MakeMoveVec') return c.MakeMoveVec.type === null ? null : resolveTypeTag(env.vm, c.MakeMoveVec.type, SUI_ADDRESS, 0);
      if (c.$kind === 'Upgrade' && env.vm.protocolConfig?.flag('enable_init_on_upgrade') === true) rejectAddedInit(env.vm, c.Upgrade.package, c.Upgrade.modules);
      if (c.$kind !== 'MoveCall') return null;
      const call = c.MoveCall;
      const key = `${call.package}::${call.module}::${call.function}<${call.typeArguments.map((t) => formatTypeTag(t)).join(',')}>`;
      const hit = loaded.get(key);
      if (hit !== undefined) return { ...hit, params: [...hit.params], returns: [...hit.returns] };
      const typeArgs = call.typeArguments.map((t, j) => resolveTypeTag(env.vm, t, call.package, j));
      let fn: LoadedFunction;
      try {
        fn = env.vm.resolveFunction(call.package, call.module, call.function);
      } catch (e) {
        if (e instanceof VmError) throw vmInputFailure(e);
        throw e;
      }
      // The VM refuses to instantiate the function (a verification error, not TypeArityMismatch).
      if (typeArgs.length !== fn.typeParams.length) {
        throw simpleFailure('VMVerificationOrDeserializationError', `NUMBER_OF_TYPE_ARGUMENTS_MISMATCH: ${call.function} takes ${fn.typeParams.length} type arguments, got ${typeArgs.length}`);
      }
      // Instantiating the function itself is verified by the VM (CONSTRAINT_NOT_SATISFIED).
      typeArgs.forEach((t, j) => {
        const needed = fn.typeParams[j];
        if ((t.abilities & needed) !== needed) {
          throw simpleFailure('VMVerificationOrDeserializationError', `CONSTRAINT_NOT_SATISFIED: type argument ${j} (${formatType(t)}) of ${call.function}`);
        }
      });
      const typed: TypedFunction = {
        fn,
        address: call.package,
        module: call.module,
        name: call.function,
        params: fn.params.map((p) => env.vm.types.subst(p, typeArgs)),
        returns: fn.returns.map((r) => env.vm.types.subst(r, typeArgs)),
      };
      loaded.set(key, typed);
      return { ...typed, params: [...typed.params], returns: [...typed.returns] };
    } catch (e) {
      if (e instanceof ExecutionFailure) e.command ??= i;
      throw e;
    }
  });
}

/** Typing state. */
class Typer {
  readonly commands: TypedCommand[] = [];
  readonly pure = new Map<string, BytesUse>();
  readonly receiving = new Map<string, BytesUse>();
  current = 0;

  constructor(private readonly env: TypingEnv) {}

  /** Resolve an argument to its locations (one, since results of arity one only splat). */
  location(a: Argument, argIdx: number): Location {
    switch (a.$kind) {
      case 'GasCoin':
        return { kind: 'gas' };
      case 'Input': {
        const s = this.env.inputs[a.Input];
        if (s === undefined) throw argArityError('IndexOutOfBounds', argIdx, a.Input);
        return { kind: s.kind === 'pure' ? 'pure' : s.kind === 'receiving' ? 'receiving' : 'object', input: a.Input };
      }
      case 'Result': {
        const r = this.commands[a.Result];
        if (r === undefined) throw argArityError('IndexOutOfBounds', argIdx, a.Result);
        if (r.results.length !== 1) throw argArityError('InvalidResultArity', argIdx, a.Result);
        return { kind: 'result', command: a.Result, index: 0 };
      }
      case 'NestedResult': {
        const [i, j] = a.NestedResult;
        const r = this.commands[i];
        if (r === undefined) throw argArityError('IndexOutOfBounds', argIdx, i);
        if (j >= r.results.length) throw argArityError('SecondaryIndexOutOfBounds', argIdx, i, j);
        return { kind: 'result', command: i, index: j };
      }
    }
  }

  locations(args: readonly Argument[], start: number): Location[] {
    return args.map((a, k) => this.location(a, start + k));
  }

  /** The fixed type of a location (`null` for pure and receiving inputs). */
  fixedType(l: Location): Type | null {
    switch (l.kind) {
      case 'gas':
        return this.env.gasType;
      case 'ctx':
        return this.env.txContextType;
      case 'object':
        return this.env.inputs[l.input].type;
      case 'result':
        return this.commands[l.command].results[l.index];
      default:
        return null;
    }
  }

  /** The type of a location used at `expected` (pure and receiving take the expected type). */
  private resolved(l: Location, expected: Type, argIdx: number): Type {
    if (l.kind === 'pure' || l.kind === 'receiving') {
      const t = isRef(expected) ? (expected.elem as Type) : expected;
      const key = `${l.input}:${formatType(t)}`;
      const map = l.kind === 'pure' ? this.pure : this.receiving;
      if (!map.has(key)) map.set(key, { input: l.input, type: t, command: this.current, arg: argIdx });
      return t;
    }
    const t = this.fixedType(l);
    if (t === null) throw cmdError('TypeMismatch', argIdx);
    return t;
  }

  /** Type one argument against what the command expects. */
  argument(l: Location, expected: Type, argIdx: number): TypedArg {
    const actual = this.resolved(l, expected, argIdx);
    let usage: Usage;
    if (isRef(actual) && isRef(expected)) {
      const aMut = actual.kind === TypeKind.MutableReference;
      const eMut = expected.kind === TypeKind.MutableReference;
      if (!aMut && eMut) throw cmdError('TypeMismatch', argIdx);
      if (!sameType(actual.elem as Type, expected.elem as Type)) throw cmdError('TypeMismatch', argIdx);
      usage = aMut && !eMut ? { use: 'freeze', by: 'copy', loc: l } : { use: 'copy', loc: l };
    } else if (isRef(actual)) {
      if (!sameType(actual.elem as Type, expected)) throw cmdError('TypeMismatch', argIdx);
      if ((expected.abilities & Ability.Copy) === 0) throw cmdError('TypeMismatch', argIdx);
      usage = { use: 'read', by: 'copy', loc: l };
    } else if (isRef(expected)) {
      if (!sameType(actual, expected.elem as Type)) throw cmdError('TypeMismatch', argIdx);
      usage = { use: 'borrow', mut: expected.kind === TypeKind.MutableReference, loc: l };
    } else {
      if (!sameType(actual, expected)) throw cmdError('TypeMismatch', argIdx);
      usage = { use: (expected.abilities & Ability.Copy) !== 0 ? 'copy' : 'move', loc: l };
    }
    return { idx: argIdx, usage, type: expected };
  }

  /** An argument that must have the abilities `needed` (TransferObjects, untyped MakeMoveVec). */
  constrained(l: Location, needed: number, argIdx: number, err: CommandArgumentErrorKind): TypedArg {
    const t = this.fixedType(l);
    if (t === null || (t.abilities & needed) !== needed) throw cmdError(err, argIdx);
    return { idx: argIdx, usage: { use: (t.abilities & Ability.Copy) !== 0 ? 'copy' : 'move', loc: l }, type: t };
  }

  /** A coin to split or merge into: borrowed mutably (or a `&mut Coin` result copied). */
  coin(l: Location, argIdx: number): { arg: TypedArg; coin: Type } {
    const t = this.fixedType(l);
    if (t === null) throw cmdError('TypeMismatch', argIdx);
    if (t.kind === TypeKind.MutableReference) {
      const inner = t.elem as Type;
      if (coinInner(inner) === null) throw cmdError('TypeMismatch', argIdx);
      return { arg: { idx: argIdx, usage: { use: 'copy', loc: l }, type: t }, coin: inner };
    }
    if (coinInner(t) === null) throw cmdError('TypeMismatch', argIdx);
    return { arg: { idx: argIdx, usage: { use: 'borrow', mut: true, loc: l }, type: this.env.vm.types.reference(t, true) }, coin: t };
  }

  one(a: Argument, argIdx: number): Location {
    return this.location(a, argIdx);
  }
}

function typeCommand(t: Typer, env: TypingEnv, c: Command, loaded: TypedFunction | Type | null): TypedCommand {
  const base = (kind: Command['$kind'], args: TypedArg[], results: Type[], call: TypedFunction | null = null): TypedCommand => ({ kind, args, results, drop: [], postChecks: false, call });
  switch (c.$kind) {
    case 'MoveCall': {
      const f = loaded as TypedFunction;
      const locs = t.locations(c.MoveCall.arguments, 0);
      const ctxCount = f.params.filter((p) => txContextKind(p) !== null).length;
      if (locs.length + ctxCount !== f.params.length) {
        throw simpleFailure('ArityMismatch', `Expected ${f.params.length} arguments calling ${f.module}::${f.name}, but found ${locs.length + ctxCount}`);
      }
      let next = 0;
      const args = f.params.map((p, pIdx): TypedArg => {
        const k = txContextKind(p);
        if (k !== null) return { idx: pIdx, usage: { use: 'borrow', mut: k === 'mut', loc: { kind: 'ctx' } }, type: p };
        const argIdx = next++;
        return t.argument(locs[argIdx], p, argIdx);
      });
      return base('MoveCall', args, f.returns, f);
    }
    case 'TransferObjects': {
      const objs = t.locations(c.TransferObjects.objects, 0);
      const addr = t.one(c.TransferObjects.address, objs.length);
      const args = objs.map((l, k) => t.constrained(l, Ability.Key | Ability.Store, k, 'InvalidTransferObject'));
      args.push(t.argument(addr, env.vm.types.address, objs.length));
      return base('TransferObjects', args, []);
    }
    case 'SplitCoins': {
      const coinLoc = t.one(c.SplitCoins.coin, 0);
      const amounts = t.locations(c.SplitCoins.amounts, 1);
      const { arg, coin } = t.coin(coinLoc, 0);
      const args = [arg, ...amounts.map((l, k) => t.argument(l, env.vm.types.u64, k + 1))];
      return base(
        'SplitCoins',
        args,
        amounts.map(() => coin),
      );
    }
    case 'MergeCoins': {
      const target = t.one(c.MergeCoins.destination, 0);
      const sources = t.locations(c.MergeCoins.sources, 1);
      const { arg, coin } = t.coin(target, 0);
      return base('MergeCoins', [arg, ...sources.map((l, k) => t.argument(l, coin, k + 1))], []);
    }
    case 'MakeMoveVec': {
      const elemType = loaded as Type | null;
      if (elemType !== null) {
        const args = t.locations(c.MakeMoveVec.elements, 0).map((l, k) => t.argument(l, elemType, k));
        return base('MakeMoveVec', args, [env.vm.types.vector(elemType)]);
      }
      const [first, ...rest] = c.MakeMoveVec.elements;
      const firstArg = t.constrained(t.one(first, 0), Ability.Key, 0, 'InvalidMakeMoveVecNonObjectArgument');
      const restArgs = t.locations(rest, 1).map((l, k) => t.argument(l, firstArg.type, k + 1));
      return base('MakeMoveVec', [firstArg, ...restArgs], [env.vm.types.vector(firstArg.type)]);
    }
    case 'Publish':
      return base('Publish', [], [env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeCap`, SUI_ADDRESS)]);
    case 'Upgrade': {
      const loc = t.one(c.Upgrade.ticket, 0);
      const arg = t.argument(loc, env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeTicket`, SUI_ADDRESS), 0);
      return base('Upgrade', [arg], [env.vm.resolveType(`${SUI_ADDRESS}::package::UpgradeReceipt`, SUI_ADDRESS)]);
    }
  }
}

/**
 * Load and type a transaction's commands. Throws the first loading error (any command),
 * then the first typing error, each with its command index.
 */
export function typeTransaction(env: TypingEnv, commands: readonly Command[], sharedInputs: ReadonlySet<number>): TypedTransaction {
  const loaded = loadCommands(env, commands);
  const t = new Typer(env);
  commands.forEach((c, i) => {
    t.current = i;
    try {
      t.commands.push(typeCommand(t, env, c, loaded[i]));
    } catch (e) {
      if (e instanceof ExecutionFailure) e.command ??= i;
      throw e;
    }
  });
  // Results never used and droppable are dropped right away.
  const used = new Set<string>();
  for (const c of t.commands) for (const a of c.args) if (a.usage.loc.kind === 'result') used.add(locationKey(a.usage.loc));
  t.commands.forEach((c, i) => {
    c.drop = c.results.map((r, j) => (r.abilities & Ability.Drop) !== 0 && !used.has(`r${i}.${j}`));
  });
  // Commands that consume a mutable shared object by value incur post-execution checks;
  // MakeMoveVec only carries the taint to whoever consumes its vector.
  const tainted: boolean[] = [];
  for (const c of t.commands) {
    const requires = c.args.some((a) => {
      const l = a.usage.loc;
      if (l.kind === 'object') return a.usage.use === 'move' && sharedInputs.has(l.input);
      if (l.kind === 'result') return (a.usage.use === 'move' || (a.usage.use === 'borrow' && a.usage.mut)) && tainted[l.command] === true;
      return false;
    });
    if (c.kind === 'MakeMoveVec') tainted.push(requires);
    else {
      c.postChecks = requires;
      tainted.push(false);
    }
  }
  return { commands: t.commands, pure: [...t.pure.values()], receiving: [...t.receiving.values()], hasGas: env.hasGas };
}

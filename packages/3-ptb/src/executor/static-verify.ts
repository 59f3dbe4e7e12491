/**
 * The verification passes over a typed transaction (upstream `typing/verify`), run in
 * upstream's order before any command executes:
 *
 * 1. input arguments — pure bytes valid for the type each is used at, `Receiving<T>`
 *    inputs, immutable objects never taken by value or `&mut`, the gas coin never taken by
 *    value (except by `TransferObjects`);
 * 2. Move functions — no references returned (unless allowed), `TxContext` rules, private
 *    generics (`transfer::transfer`, `event::emit`, ...), visibility;
 * 3. memory safety — values moved once, not moved while borrowed, a `&mut` argument not
 *    aliased by another reference (`InvalidReferenceArgument`), coins not written through a
 *    reference something else extends;
 * 4. drop safety — the last copy of an unborrowed value moves it; values without `drop`
 *    must be consumed;
 * 5. private entry arguments — a non-public `entry` function takes no argument entangled
 *    with a hot potato or a shared object consumed by value (cliques).
 *
 * Dev-inspect skips what upstream's arbitrary-values mode skips.
 */
import { Ability, STD_ADDRESS, SUI_ADDRESS } from '@smi/bytecode';
import { type LoadedFunction, type MoveVM, type Type, TypeKind } from '@smi/move-vm';
import { argumentError, ExecutionFailure, simpleFailure } from './errors.js';
import { isPureType, type Slot } from './state.js';
import type { Command } from '../bcs/transaction.js';
import { isTxContextValue, type Location, locationKey, type TypedArg, type TypedCommand, type TypedTransaction, txContextKind, typeTransaction } from './typing.js';

/** Functions whose type parameters must be defined by the caller: never callable from a PTB. */
const PRIVATE_GENERICS = new Set([
  `${STD_ADDRESS}::internal::permit`,
  `${SUI_ADDRESS}::event::emit`,
  `${SUI_ADDRESS}::event::emit_authenticated`,
  `${SUI_ADDRESS}::transfer::transfer`,
  `${SUI_ADDRESS}::transfer::freeze_object`,
  `${SUI_ADDRESS}::transfer::share_object`,
  `${SUI_ADDRESS}::transfer::receive`,
  `${SUI_ADDRESS}::transfer::party_transfer`,
  `${SUI_ADDRESS}::coin_registry::new_currency`,
]);

/** What the passes need besides the typed transaction. */
export interface VerifyEnv {
  vm: MoveVM;
  inputs: readonly Slot[];
  /** Dev-inspect: arbitrary values and function calls. */
  relaxed: boolean;
  flag(name: string): boolean;
}

const privateGeneric = new WeakMap<LoadedFunction, boolean>();

/** A generic function of {@link PRIVATE_GENERICS} (decided once per function). */
function isPrivateGeneric(fn: LoadedFunction): boolean {
  let r = privateGeneric.get(fn);
  if (r === undefined) {
    r = fn.typeParams.length > 0 && PRIVATE_GENERICS.has(`${fn.module.address}::${fn.module.name}::${fn.name}`);
    privateGeneric.set(fn, r);
  }
  return r;
}

/** Run `f` on each command in order; a failure it raises is that command's (its index recorded). */
function eachCommand(tx: TypedTransaction, f: (c: TypedCommand, i: number) => void): void {
  const commands = tx.commands;
  for (let i = 0; i < commands.length; i++) {
    try {
      f(commands[i], i);
    } catch (e) {
      if (e instanceof ExecutionFailure) e.command ??= i;
      throw e;
    }
  }
}

function isRef(t: Type): boolean {
  return t.kind === TypeKind.Reference || t.kind === TypeKind.MutableReference;
}

/** Pure bytes that decode as `t` with valid contents (UTF-8, ASCII, options of at most one). */
function pureBytesValid(vm: MoveVM, t: Type, bytes: Uint8Array): boolean {
  let v: unknown;
  try {
    v = vm.bcs.decode(bytes, t);
  } catch {
    return false;
  }
  const valid = (ty: Type, x: unknown): boolean => {
    if (ty.kind === TypeKind.Vector) {
      const elem = ty.elem as Type;
      if (elem.kind <= TypeKind.Signer) return true;
      return (x as { toArray(): unknown[] }).toArray().every((e) => valid(elem, e));
    }
    const d = ty.datatype;
    if (d === null || d.address !== STD_ADDRESS) return true;
    if (d.name === 'String') {
      const b = ((x as unknown[])[0] as { bytes(): Uint8Array }).bytes();
      if (d.module === 'ascii') return b.every((c) => c < 0x80);
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(b);
        return true;
      } catch {
        return false;
      }
    }
    if (d.module === 'option' && d.name === 'Option') {
      const elems = ((x as unknown[])[0] as { toArray(): unknown[] }).toArray();
      return elems.length <= 1 && elems.every((e) => valid(ty.typeArgs[0], e));
    }
    return true;
  };
  return valid(t, v);
}

function isValidReceiving(t: Type): boolean {
  const d = t.datatype;
  return (
    t.kind === TypeKind.Datatype &&
    d !== null &&
    d.address === SUI_ADDRESS &&
    d.module === 'transfer' &&
    d.name === 'Receiving' &&
    t.typeArgs.length === 1 &&
    (t.typeArgs[0].abilities & Ability.Key) !== 0
  );
}

/** 1. Input arguments. */
function verifyInputs(env: VerifyEnv, tx: TypedTransaction): void {
  if (!env.relaxed) {
    for (const p of tx.pure) {
      const bytes = env.inputs[p.input].bytes as Uint8Array;
      if (!isPureType(p.type)) throw withCommandIdx(argumentError(p.arg, 'InvalidUsageOfPureArg', 'not a pure type'), p.command);
      if (!pureBytesValid(env.vm, p.type, bytes)) throw withCommandIdx(argumentError(p.arg, 'InvalidBCSBytes', 'invalid BCS'), p.command);
    }
  }
  for (const r of tx.receiving) {
    if (!isValidReceiving(r.type)) throw withCommandIdx(argumentError(r.arg, 'TypeMismatch', 'a Receiving input is only a 0x2::transfer::Receiving<T: key>'), r.command);
  }
  const sendFunds = env.flag('enable_accumulators');
  eachCommand(tx, (c) => {
    for (const a of c.args) {
      const l = a.usage.loc;
      if (l.kind === 'object') {
        const mutable = env.inputs[l.input].object?.mutable ?? true;
        if (a.usage.use === 'borrow' && a.usage.mut && !mutable) throw argumentError(a.idx, 'InvalidObjectByMutRef', 'immutable object');
        if (a.usage.use === 'move' && !mutable) throw argumentError(a.idx, 'InvalidObjectByValue', 'immutable object');
      }
      if (l.kind === 'gas' && a.usage.use === 'move' && c.kind !== 'TransferObjects') {
        const isSendFunds = c.call !== null && c.call.address === SUI_ADDRESS && c.call.module === 'coin' && c.call.name === 'send_funds';
        if (!(sendFunds && isSendFunds)) throw argumentError(a.idx, 'InvalidGasCoinUsage', 'the gas coin taken by value');
      }
    }
  });
}

function withCommandIdx(e: ExecutionFailure, i: number): ExecutionFailure {
  e.command = i;
  return e;
}

function txContextError(idx: number, msg: string): ExecutionFailure {
  return argumentError(idx, 'InvalidTxContext', msg);
}

/** 2. Move functions. */
function verifyFunctions(env: VerifyEnv, tx: TypedTransaction): void {
  eachCommand(tx, (c) => {
    const f = c.call;
    if (f === null) return;
    if (!env.flag('allow_references_in_ptbs') && !env.relaxed) {
      f.returns.forEach((r, idx) => {
        if (isRef(r)) throw new ExecutionFailure({ $kind: 'InvalidPublicFunctionReturnType', InvalidPublicFunctionReturnType: { idx } } as never, 'references cannot be returned to a PTB');
      });
    }
    if (env.flag('ptb_tx_context_restrictions')) {
      const byValue = f.params.findIndex(isTxContextValue);
      if (byValue >= 0) throw txContextError(byValue, 'TxContext cannot be taken by value');
      const muts = f.params.map((p, k) => (txContextKind(p) === 'mut' ? k : -1)).filter((k) => k >= 0);
      if (muts.length > 1) throw txContextError(muts[1], 'TxContext can be taken by mutable reference at most once');
      if (muts.length === 1 && f.params.some((p) => txContextKind(p) === 'imm')) throw txContextError(muts[0], '&mut TxContext cannot be used alongside other TxContext parameters');
      const ret = f.returns.findIndex((r) => txContextKind(r) !== null || isTxContextValue(r));
      if (ret >= 0) throw txContextError(ret, 'TxContext cannot be returned from a Move call');
    }
    if (isPrivateGeneric(f.fn)) {
      throw simpleFailure('NonEntryFunctionInvoked', `cannot directly call ${f.module}::${f.name}: its type parameter must be defined in the caller's module`);
    }
    if (!env.relaxed && f.fn.visibility !== 'Public' && !f.fn.isEntry) throw simpleFailure('NonEntryFunctionInvoked', 'Can only call `entry` or `public` functions');
  });
}

interface Ref {
  id: number;
  mut: boolean;
  roots: Set<string>;
  /** 0: a borrow of the location itself; 1: extended by a call. */
  depth: number;
  alive: boolean;
}

type Value = { ref: Ref } | 'value';

/** Values by location (a moved location holds `null`). */
class Locations<V> {
  private readonly values = new Map<string, V | null>();

  constructor(private readonly initial: (l: Location) => V | null) {}

  /** `suffix` tells apart values sharing a location (a pure input read at different types). */
  get(l: Location, suffix = ''): V | null {
    const k = locationKey(l) + suffix;
    const v = this.values.get(k); // `null` when stored so, `undefined` when never set
    if (v !== undefined) return v;
    const first = this.initial(l);
    this.values.set(k, first);
    return first;
  }

  set(l: Location, v: V | null, suffix = ''): void {
    this.values.set(locationKey(l) + suffix, v);
  }

  setKey(k: string, v: V | null): void {
    this.values.set(k, v);
  }
}

/**
 * A pure or `Receiving` input is a distinct location per type it is used at (upstream
 * `PureInput`/`ReceivingInput`): a `Receiving<A>` moved out leaves its `Receiving<B>`. The
 * suffix names the type by its id (types are interned).
 */
function typeSuffix(a: TypedArg): string {
  const k = a.usage.loc.kind;
  return k === 'pure' || k === 'receiving' ? `:${(isRef(a.type) ? (a.type.elem as Type) : a.type).id}` : '';
}

/** 3. Memory safety (a borrow model of locations and the references derived from them). */
function verifyMemory(env: VerifyEnv, tx: TypedTransaction): void {
  let refCount = 0;
  /** References not yet released, in creation order (released ones never matter again). */
  const live = new Set<Ref>();
  const allowRefs = env.flag('allow_references_in_ptbs');
  const values = new Locations<Value>((l) => (l.kind === 'gas' && !tx.hasGas ? null : l.kind === 'result' ? null : 'value'));
  const newRef = (mut: boolean, roots: Set<string>, depth: number): Value => {
    const r = { id: refCount++, mut, roots, depth, alive: true };
    live.add(r);
    return { ref: r };
  };
  const release = (v: Value | null): void => {
    if (v !== null && v !== 'value') {
      v.ref.alive = false;
      live.delete(v.ref);
    }
  };
  const keyOf = (a: TypedArg): string => locationKey(a.usage.loc) + typeSuffix(a);
  const borrowedLoc = (a: TypedArg): boolean => {
    if (live.size === 0) return false;
    const key = keyOf(a);
    for (const r of live) if (r.roots.has(key)) return true;
    return false;
  };
  /** The live references at least as deep as `r` sharing a root with it, in creation order. */
  const borrowers = (r: Ref): { b: Ref; epsilon: boolean }[] => {
    const out: { b: Ref; epsilon: boolean }[] = [];
    for (const b of live) {
      if (b === r || b.depth < r.depth) continue;
      for (const x of b.roots) {
        if (r.roots.has(x)) {
          out.push({ b, epsilon: b.depth === r.depth });
          break;
        }
      }
    }
    return out;
  };
  const value = (a: TypedArg, move: boolean): Value => {
    const l = a.usage.loc;
    if (move && borrowedLoc(a)) throw argumentError(a.idx, 'CannotMoveBorrowedValue', 'moved while borrowed');
    if (!move) a.borrowed = borrowedLoc(a);
    const v = values.get(l, typeSuffix(a));
    if (v === null) throw argumentError(a.idx, 'ArgumentWithoutValue', 'no value');
    if (move) {
      values.set(l, null, typeSuffix(a));
      return v;
    }
    return v === 'value' ? 'value' : newRef(v.ref.mut, v.ref.roots, v.ref.depth);
  };
  const argument = (a: TypedArg): Value => {
    const u = a.usage;
    switch (u.use) {
      case 'move':
      case 'copy':
        return value(a, u.use === 'move');
      case 'borrow': {
        const v = values.get(u.loc, typeSuffix(a));
        if (v === null) throw argumentError(a.idx, 'ArgumentWithoutValue', 'no value');
        return newRef(u.mut, new Set([keyOf(a)]), 0);
      }
      case 'read': {
        release(value(a, u.by === 'move'));
        return 'value';
      }
      case 'freeze': {
        const v = value(a, u.by === 'move');
        const out = v === 'value' ? 'value' : newRef(false, v.ref.roots, v.ref.depth);
        release(v);
        return out;
      }
    }
  };
  const writable = (v: Value, argIdx: number): void => {
    if (v !== 'value' && borrowers(v.ref).some(({ epsilon }) => !epsilon)) throw argumentError(argIdx, 'CannotWriteToExtendedReference', 'extended reference');
    release(v);
  };
  eachCommand(tx, (c, i) => {
    const vals = c.args.map((a) => argument(a));
    let results: Value[] = c.results.map(() => 'value');
    switch (c.kind) {
      case 'MoveCall': {
        const f = c.call;
        if (f === null) break;
        // The reference arguments (a call has few: arrays, not sets).
        const sources: Ref[] = [];
        for (const v of vals) if (v !== 'value') sources.push(v.ref);
        let bad: Ref | null = null;
        for (const r of sources.length < 2 ? sources : [...sources].sort((x, y) => x.id - y.id)) {
          for (const { b, epsilon } of borrowers(r)) {
            if (!r.mut ? b.mut && sources.includes(b) : !epsilon || sources.includes(b)) {
              bad = r.mut ? r : b;
              break;
            }
          }
          if (bad !== null) break;
        }
        if (bad !== null) {
          const k = vals.findIndex((v, j) => v !== 'value' && v.ref === bad && c.args[j].type.kind === TypeKind.MutableReference);
          throw argumentError(c.args[k >= 0 ? k : 0].idx, 'InvalidReferenceArgument', 'conflicting references');
        }
        if (f.returns.some(isRef)) {
          const roots = new Set<string>();
          let depth = 0;
          vals.forEach((v, j) => {
            if (v === 'value' || (allowRefs && txContextKind(f.params[j]) !== null)) return;
            for (const x of v.ref.roots) roots.add(x);
            if (v.ref.depth > depth) depth = v.ref.depth;
          });
          // References returned without reference arguments borrow from nothing the PTB holds:
          // each gets a root of its own (its copies still share it).
          results = f.returns.map((t, j) => (isRef(t) ? newRef(t.kind === TypeKind.MutableReference, roots.size > 0 ? roots : new Set([`c${i}.${j}`]), depth + 1) : 'value'));
        }
        vals.forEach(release);
        break;
      }
      case 'SplitCoins':
      case 'MergeCoins':
        vals.slice(1).forEach(release);
        writable(vals[0], 0);
        break;
      default:
        vals.forEach(release);
    }
    results.forEach((r, j) => {
      if (c.drop[j]) release(r);
      else values.setKey(`r${i}.${j}`, r);
    });
  });
}

/** The last use of a reference held in a result moves it (upstream `scope_references`, before memory safety). */
function scopeReferences(tx: TypedTransaction, resultType: (l: Location) => Type | null): void {
  const used = new Set<string>();
  for (let i = tx.commands.length - 1; i >= 0; i--) {
    const args = tx.commands[i].args;
    for (let k = args.length - 1; k >= 0; k--) {
      const a = args[k];
      const u = a.usage;
      if (u.use === 'borrow' || u.use === 'move' || u.loc.kind !== 'result') continue;
      const t = resultType(u.loc);
      if (t === null || !isRef(t)) continue;
      const key = locationKey(u.loc);
      const last = !used.has(key);
      used.add(key);
      if (!last) continue;
      if (u.use === 'copy') a.usage = { use: 'move', loc: u.loc };
      else if ((u.use === 'read' || u.use === 'freeze') && u.by === 'copy') a.usage = { ...u, by: 'move' };
    }
  }
}

/** The last copy of a value not borrowed at that point moves it (upstream drop-safety refinement). */
function refineCopies(tx: TypedTransaction): void {
  const used = new Set<string>();
  for (let i = tx.commands.length - 1; i >= 0; i--) {
    const args = tx.commands[i].args;
    for (let k = args.length - 1; k >= 0; k--) {
      const a = args[k];
      const u = a.usage;
      const key = locationKey(u.loc);
      const last = !used.has(key);
      used.add(key);
      if (!last || a.borrowed === true) continue;
      if (u.use === 'copy') a.usage = { use: 'move', loc: u.loc };
      else if ((u.use === 'read' || u.use === 'freeze') && u.by === 'copy') a.usage = { ...u, by: 'move' };
    }
  }
}

/** 4. Drop safety: results without `drop` must be consumed. */
function verifyDrops(env: VerifyEnv, tx: TypedTransaction): void {
  const alive = new Set<string>();
  tx.commands.forEach((c, i) => {
    for (const a of c.args) {
      const u = a.usage;
      if (u.use === 'move' || ((u.use === 'read' || u.use === 'freeze') && u.by === 'move')) alive.delete(locationKey(u.loc));
    }
    c.results.forEach((_, j) => {
      if (!c.drop[j]) alive.add(`r${i}.${j}`);
    });
  });
  if (env.relaxed) return;
  tx.commands.forEach((c, i) =>
    c.results.forEach((t, j) => {
      if (alive.has(`r${i}.${j}`) && (t.abilities & Ability.Drop) === 0) {
        throw new ExecutionFailure({ $kind: 'UnusedValueWithoutDrop', UnusedValueWithoutDrop: { resultIdx: i, secondaryIdx: j } } as never, `result ${i}.${j} has no drop ability and was not used`);
      }
    }),
  );
}

/** 5. Private entry arguments (cliques of entangled values; hot potatoes and consumed shared objects heat them). */
function verifyEntryArguments(env: VerifyEnv, tx: TypedTransaction): void {
  if (env.relaxed) return;
  // Union-find of cliques; temperature at the root: hot-potato count, or -1 for always hot.
  const parent: number[] = [];
  const temp: number[] = [];
  const next = (): number => {
    parent.push(parent.length);
    temp.push(0);
    return parent.length - 1;
  };
  // Union-find with path compression: every command of a long transaction merges cliques,
  // and without it the chains grow by one per command (quadratic in the commands).
  const root = (c: number): number => {
    let r = c;
    while (parent[r] !== r) r = parent[r];
    while (parent[c] !== r) {
      const up = parent[c];
      parent[c] = r;
      c = up;
    }
    return r;
  };
  const heat = (c: number, n: number): void => {
    const r = root(c);
    if (temp[r] >= 0) temp[r] += n;
  };
  type V = { clique: number; heats: boolean } | 'ctx';
  const values = new Locations<V>((l) => (l.kind === 'ctx' ? 'ctx' : l.kind === 'result' ? null : { clique: next(), heats: false }));
  const copyOf = (v: V): V => {
    if (v === 'ctx') return v;
    if (v.heats) heat(v.clique, 1);
    return { clique: v.clique, heats: v.heats };
  };
  const releaseV = (v: V): number | null => {
    if (v === 'ctx') return null;
    if (v.heats) heat(v.clique, -1);
    return v.clique;
  };
  eachCommand(tx, (c, i) => {
    const cliques: { idx: number; clique: number }[] = [];
    for (const a of c.args) {
      const u = a.usage;
      const l = u.loc;
      const sfx = typeSuffix(a);
      let v: V | null;
      if (u.use === 'move' || ((u.use === 'read' || u.use === 'freeze') && u.by === 'move')) {
        v = values.get(l, sfx);
        values.set(l, null, sfx);
      } else {
        const cur = values.get(l, sfx);
        v = cur === null ? null : copyOf(cur);
      }
      if (v === null) continue;
      const cl = releaseV(v);
      if (cl !== null) cliques.push({ idx: a.idx, clique: cl });
    }
    const f = c.call;
    if (f !== null && f.fn.isEntry && f.fn.visibility !== 'Public') {
      const hot = cliques.find(({ clique }) => temp[root(clique)] !== 0);
      if (hot !== undefined) throw argumentError(hot.idx, 'InvalidArgumentToPrivateEntryFunction', 'argument entangled with a hot value');
    }
    const roots: number[] = [];
    for (const { clique } of cliques) {
      const r = root(clique);
      if (!roots.includes(r)) roots.push(r);
    }
    let merged: number;
    if (roots.length === 0) merged = next();
    else if (roots.length === 1) merged = roots[0];
    else {
      merged = next();
      let total = 0;
      for (const r of roots) {
        total = total < 0 || temp[r] < 0 ? -1 : total + temp[r];
        parent[r] = merged;
      }
      temp[merged] = total;
    }
    if (c.postChecks) temp[root(merged)] = -1;
    c.results.forEach((t, j) => {
      if (c.drop[j]) return;
      const heats = (t.abilities & Ability.Drop) === 0 && (t.abilities & Ability.Store) === 0;
      if (heats) heat(merged, 1);
      values.setKey(`r${i}.${j}`, { clique: merged, heats });
    });
  });
}

/** Run the verification passes in upstream's order; throws the first failure. */
function verifyTypedTransaction(env: VerifyEnv, tx: TypedTransaction): void {
  verifyInputs(env, tx);
  verifyFunctions(env, tx);
  const resultType = (l: Location): Type | null => (l.kind === 'result' ? tx.commands[l.command].results[l.index] : null);
  scopeReferences(tx, resultType);
  verifyMemory(env, tx);
  refineCopies(tx);
  verifyDrops(env, tx);
  verifyEntryArguments(env, tx);
}

/**
 * Type and verify a loaded transaction (protocol 108+: `enable_ptb_execution_v2`). `state`
 * holds the loaded inputs and gas coin; throws the first failure with its command index.
 */
export function checkTransactionStatically(vm: MoveVM, inputs: readonly Slot[], gas: Slot | null, commands: readonly Command[], relaxed: boolean, flag: (name: string) => boolean): TypedTransaction {
  const shared = new Set<number>();
  inputs.forEach((s, i) => {
    if (s.kind === 'object' && s.object !== undefined && s.object.ownerKind === 'Shared' && s.object.mutable) shared.add(i);
  });
  const tx = typeTransaction({ vm, inputs, hasGas: gas !== null, gasType: gas?.type ?? null, txContextType: vm.resolveType(`${SUI_ADDRESS}::tx_context::TxContext`, SUI_ADDRESS) }, commands, shared);
  verifyTypedTransaction({ vm, inputs, relaxed, flag }, tx);
  return tx;
}

/**
 * Calling one function with typed JSON arguments: each argument is read by its parameter's
 * type — an object id for an object parameter (`&T`, `&mut T`, `T` with `key`; `Receiving<T>`),
 * a JSON value for a pure one — and the call runs as a one-command PTB (with `TxContext`
 * supplied). Returned objects go to the sender, so a strict run does not fail on them.
 */
import { Ability, errorMessage, SUI_ADDRESS } from '@smi/bytecode';
import { formatType, type Json, type Type, TypeKind, valueToJson, VmError } from '@smi/move-vm';
import type { Argument } from '@smi/ptb';
import { parseTarget } from './builder.js';
import type { EnvironmentCore, ExecuteOptions, TransactionOutcome } from './environment-core.js';
import { SimulationEnvironmentError } from './errors.js';

/** A decoded value a command returned. */
export interface DecodedValue {
  type: string;
  /** BCS, hex. */
  bcs: string;
  value: Json;
}

/** Outcome of {@link callFunction}. */
export interface CallOutcome {
  transaction: TransactionOutcome;
  /** The call's return values, decoded (empty when it failed). */
  returnValues: DecodedValue[];
}

function isStruct(t: Type, module: string, name: string): boolean {
  const d = t.datatype;
  return t.kind === TypeKind.Datatype && d !== null && d.address === SUI_ADDRESS && d.module === module && d.name === name;
}

function isObjectType(t: Type): boolean {
  return t.kind === TypeKind.Datatype && (t.abilities & Ability.Key) !== 0;
}

/** Decode a returned value (type tag + BCS) to JSON. */
export function decodeValue(env: EnvironmentCore, type: string, bcs: Uint8Array): DecodedValue {
  const hex = Buffer.from(bcs).toString('hex');
  try {
    const t = env.vm.resolveType(type);
    return { type, bcs: hex, value: valueToJson(env.vm.types, env.vm.bcs.decode(bcs, t), t) };
  } catch (e) {
    return { type, bcs: hex, value: { undecodable: errorMessage(e) } };
  }
}

/** Call `target` (`0xpkg::module::function`) with JSON arguments read by the parameter types. */
export function callFunction(env: EnvironmentCore, target: string, args: readonly Json[], options: ExecuteOptions & { typeArgs?: readonly string[] } = {}): CallOutcome {
  const t = parseTarget(target);
  let fn;
  try {
    fn = env.vm.resolveFunction(t.package, t.module, t.function);
  } catch (e) {
    if (e instanceof VmError) throw new SimulationEnvironmentError('MISSING_PACKAGE', e.message, { target });
    throw e;
  }
  const typeArgStrings = options.typeArgs ?? [];
  if (typeArgStrings.length !== fn.typeParams.length) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `${target} takes ${fn.typeParams.length} type arguments, got ${typeArgStrings.length}`);
  }
  const typeArgs = typeArgStrings.map((s) => {
    try {
      return env.vm.resolveType(s);
    } catch (e) {
      throw new SimulationEnvironmentError('TYPE_MISMATCH', `type argument ${s} does not resolve: ${errorMessage(e)}`);
    }
  });
  const params = fn.params.map((p) => env.vm.types.subst(p, typeArgs));
  const last = params[params.length - 1];
  const ctx = last !== undefined && (last.kind === TypeKind.Reference || last.kind === TypeKind.MutableReference) && isStruct(last.elem as Type, 'tx_context', 'TxContext');
  const explicit = ctx ? params.slice(0, -1) : params;
  if (args.length !== explicit.length) {
    throw new SimulationEnvironmentError('TYPE_MISMATCH', `${target} takes ${explicit.length} arguments, got ${args.length}`);
  }
  const tx = env.tx();
  const callArgs: Argument[] = explicit.map((p, i) => {
    const inner = p.kind === TypeKind.Reference || p.kind === TypeKind.MutableReference ? (p.elem as Type) : p;
    const a = args[i];
    if (isStruct(inner, 'transfer', 'Receiving')) {
      if (typeof a !== 'string') throw new SimulationEnvironmentError('TYPE_MISMATCH', `argument ${i}: ${formatType(p)} takes an object id`);
      return tx.object(a, { receiving: true });
    }
    if (isObjectType(inner)) {
      if (typeof a !== 'string') throw new SimulationEnvironmentError('TYPE_MISMATCH', `argument ${i}: ${formatType(p)} takes an object id`);
      return tx.object(a, { mutable: p.kind !== TypeKind.Reference });
    }
    try {
      return tx.pure(formatType(inner), a);
    } catch (e) {
      if (e instanceof SimulationEnvironmentError) throw new SimulationEnvironmentError(e.code, `argument ${i}: ${e.message}`);
      throw e;
    }
  });
  const result = tx.moveCall(target, callArgs, typeArgStrings);
  const returns = fn.returns.map((r) => env.vm.types.subst(r, typeArgs));
  const owned = returns.map((r, k) => ({ r, k })).filter(({ r }) => isObjectType(r) && (r.abilities & Ability.Store) !== 0);
  if (owned.length > 0)
    tx.transferObjects(
      owned.map(({ k }) => result.nested(k)),
      tx.pure('address', options.sender ?? env.sender),
    );
  const out = env.execute(tx.build(), options);
  const first = out.status.$kind === 'Success' || out.commandResults.length > 0 ? out.commandResults[0] : undefined;
  return {
    transaction: out,
    returnValues: first === undefined ? [] : first.returnValues.map((v) => decodeValue(env, v.type, v.bcs)),
  };
}

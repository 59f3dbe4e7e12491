/**
 * Concrete types for type parameters that nothing else binds, chosen by their ability
 * constraints (the original always used `u64`, which fails every `T: key + store`):
 * `key` gets `Coin<SUI>` (an object anyone can make with `coin::zero`), a parameter
 * that needs `copy` or `store` gets a primitive, one that needs at most `drop` gets `SUI`
 * (the usual coin-type marker). Parameters get distinct types, in order, so that
 * functions that compare two type parameters (`Pool<A, B>` with `A != B`) can run.
 */
import { Ability } from '@smi/bytecode';
import { SUI } from './catalogue.js';
import { datatype, prim, type Ty } from './types.js';

const SUI_TYPE = datatype(`${SUI}::sui::SUI`);
const COIN_OF_SUI = datatype(`${SUI}::coin::Coin`, [SUI_TYPE]);

/** Candidates that need nothing beyond `drop`, then primitives (copy, drop, store), in order. */
const CANDIDATES: readonly { type: Ty; abilities: number }[] = [
  { type: SUI_TYPE, abilities: Ability.Drop },
  { type: prim('u64'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
  { type: prim('bool'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
  { type: prim('u8'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
  { type: prim('u16'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
  { type: prim('u32'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
  { type: prim('u128'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
  { type: prim('address'), abilities: Ability.Copy | Ability.Drop | Ability.Store },
];

/** Why a type was chosen (recorded in the row). */
export type TypeArgReason = 'bound' | 'default';

/** A type argument and why it was chosen. */
export interface ChosenTypeArg {
  type: Ty;
  reason: TypeArgReason;
}

/**
 * A default type for type parameter `index` with ability `constraints`, distinct from the
 * types already `taken` when possible.
 */
export function defaultTypeArg(constraints: number, index: number, taken: readonly Ty[] = []): Ty {
  if ((constraints & Ability.Key) !== 0) return COIN_OF_SUI;
  const fitting = CANDIDATES.filter((c) => (c.abilities & constraints) === constraints);
  const free = fitting.filter((c) => !taken.some((t) => t.$kind === c.type.$kind && JSON.stringify(t) === JSON.stringify(c.type)));
  const pool = free.length > 0 ? free : fitting;
  return pool[index % pool.length].type;
}

/**
 * Complete `bindings` (parameter index → type, some already bound) with defaults for the
 * parameters left: each distinct from the others.
 */
export function completeTypeArgs(constraints: readonly number[], bindings: readonly (Ty | undefined)[]): ChosenTypeArg[] {
  const out: ChosenTypeArg[] = [];
  const taken = bindings.filter((b): b is Ty => b !== undefined);
  constraints.forEach((c, i) => {
    const bound = bindings[i];
    if (bound !== undefined) {
      out.push({ type: bound, reason: 'bound' });
      return;
    }
    const t = defaultTypeArg(c, out.filter((o) => o.reason === 'default').length, taken);
    taken.push(t);
    out.push({ type: t, reason: 'default' });
  });
  return out;
}

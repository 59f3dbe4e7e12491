/**
 * Concrete types for type parameters that nothing else binds, chosen by their ability
 * constraints (the original always used `u64`, which fails every `T: key + store`):
 * `key` gets `Coin<SUI>` (an object anyone can make with `coin::zero`), a parameter
 * that needs `copy` or `store` gets a primitive, one that needs at most `drop` gets `SUI`
 * (the usual coin-type marker). Parameters get distinct types, in order, so that
 * functions that compare two type parameters (`Pool<A, B>` with `A != B`) can run.
 */
import { Ability } from '@smi/bytecode';
import { type Catalogue, type FunctionDecl, SUI } from './catalogue.js';
import { type InventoryObject, isTxContext, objectTyping, useOf } from './inventory.js';
import { datatype, deref, formatTy, hasParams, prim, type Ty, unify } from './types.js';

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
export type TypeArgReason = 'bound' | 'default' | 'coin';

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

/** Most instantiations of a generic function tried. */
const MAX_CHOICES = 4;

/**
 * Bindings of `fn`'s type parameters by the objects of the state its object parameters can
 * take: the first matching object of each parameter, then the second, ... (other pools,
 * other pairs), at most `limit`, distinct. The first is `[]` when nothing binds.
 */
function inventoryBindings(fn: FunctionDecl, inventory: readonly InventoryObject[], limit: number): (Ty | undefined)[][] {
  const matches: { pattern: Ty; objects: InventoryObject[] }[] = [];
  for (const p of fn.params) {
    const inner = deref(p);
    if (inner.$kind !== 'Datatype' || !hasParams(inner) || isTxContext(p)) continue;
    const use = useOf(p);
    const objects = inventory.filter((o) => o.type.key === inner.key && objectTyping(o, use) === null && unify(inner, o.type, []));
    if (objects.length > 0) matches.push({ pattern: inner, objects });
  }
  const out: (Ty | undefined)[][] = [];
  const seen = new Set<string>();
  for (let j = 0; j < limit; j++) {
    const bindings: (Ty | undefined)[] = [];
    // Each parameter its own object: one object cannot be two arguments.
    const used = new Set<string>();
    for (const m of matches) {
      const free = m.objects.filter((o) => !used.has(o.id));
      const o = free[Math.min(j, free.length - 1)];
      if (o === undefined) continue;
      const trial = [...bindings];
      if (unify(m.pattern, o.type, trial)) {
        trial.forEach((t, i) => (bindings[i] = t));
        used.add(o.id);
      }
    }
    const key = bindings.map((b) => (b === undefined ? '_' : formatTy(b))).join(',');
    if (seen.has(key)) break;
    seen.add(key);
    out.push(bindings);
  }
  return out;
}

/**
 * The coin types the state can mint or describe: `T` of every `TreasuryCap<T>` the sender
 * owns (mintable, so a `Coin<T>` need not be zero), then of every `CoinMetadata<T>`.
 */
function realCoinTypes(inventory: readonly InventoryObject[]): Ty[] {
  const out: Ty[] = [];
  const seen = new Set<string>();
  for (const name of ['TreasuryCap', 'CoinMetadata']) {
    for (const o of inventory) {
      if (o.type.key !== `${SUI}::coin::${name}` || o.type.args[0] === undefined) continue;
      const key = formatTy(o.type.args[0]);
      if (name === 'TreasuryCap' && o.ownership !== 'owned') continue;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(o.type.args[0]);
      }
    }
  }
  return out;
}

/**
 * Instantiations of generic `fn` to plan, best first (at most {@link MAX_CHOICES}): type
 * parameters bound by objects of the state (each matching object in turn), the rest by
 * their constraints; then the unbound ones given the state's real coin types (all of them,
 * then with `SUI` first), so that pools of real pairs and coins that can be minted are
 * tried, not one default.
 */
export function typeArgChoices(fn: FunctionDecl, catalogue: Catalogue, inventory: readonly InventoryObject[]): ChosenTypeArg[][] {
  if (fn.typeParams.length === 0) return [[]];
  const out: ChosenTypeArg[][] = [];
  const seen = new Set<string>();
  const add = (bindings: readonly (Ty | undefined)[], reason: (i: number) => TypeArgReason): void => {
    const chosen = completeTypeArgs(fn.typeParams, bindings).map((c, i) => (bindings[i] === undefined ? c : { type: c.type, reason: reason(i) }));
    const key = chosen.map((c) => formatTy(c.type)).join(',');
    if (out.length < MAX_CHOICES && !seen.has(key)) {
      seen.add(key);
      out.push(chosen);
    }
  };
  const objects = inventoryBindings(fn, inventory, MAX_CHOICES);
  for (const b of objects) add(b, () => 'bound');
  // The first two free parameters swapped: packages that order a pair's types (a pool
  // key made of `A` and `B` in name order) accept only one of the two.
  const base0 = objects[0] ?? [];
  const free = fn.typeParams.map((_, i) => i).filter((i) => base0[i] === undefined);
  if (free.length >= 2 && out.length > 0) {
    const [i, j] = free;
    const swapped = [...base0];
    swapped[i] = out[0][j].type;
    swapped[j] = out[0][i].type;
    if ((catalogue.abilities(swapped[i] as Ty) & fn.typeParams[i]) === fn.typeParams[i] && (catalogue.abilities(swapped[j] as Ty) & fn.typeParams[j]) === fn.typeParams[j])
      add(swapped, (k) => (base0[k] === undefined ? 'default' : 'bound'));
  }
  const coins = realCoinTypes(inventory);
  const base = objects[0] ?? [];
  const unbound = fn.typeParams.map((_, i) => i).filter((i) => base[i] === undefined);
  for (const leadingSui of [false, true]) {
    const bindings = [...base];
    const pool = leadingSui ? [SUI_TYPE, ...coins] : coins;
    let k = 0;
    for (const i of unbound) {
      const fit = pool.slice(k).find((t) => (catalogue.abilities(t) & fn.typeParams[i]) === fn.typeParams[i]);
      if (fit === undefined) continue;
      bindings[i] = fit;
      k = pool.indexOf(fit) + 1;
    }
    if (bindings.some((b, i) => b !== undefined && base[i] === undefined)) add(bindings, (i) => (base[i] === undefined ? 'coin' : 'bound'));
  }
  return out;
}

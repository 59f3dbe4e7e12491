/** Pure values of every kind and profile, checked by a BCS round trip; type arguments by constraints. */
import { describe, expect, it } from 'vitest';
import { Ability } from '@smi/bytecode';
import { MoveVM } from '@smi/move-vm';
import { bcsRoundTrip, completeTypeArgs, datatypeKey, defaultTypeArg, formatTy, isPureTy, pureValue, type Ty, VALUE_PROFILES } from '@smi/inhabit';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { framework } from './support.js';

const prim = (name: string): Ty => ({ $kind: 'Prim', name }) as Ty;
const dt = (address: string, module: string, name: string, args: Ty[] = []): Ty => ({ $kind: 'Datatype', key: datatypeKey(address, module, name), args });
const vec = (elem: Ty): Ty => ({ $kind: 'Vector', elem });

const PURE: Ty[] = [
  ...['bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'address'].map(prim),
  vec(prim('u8')),
  vec(vec(prim('u64'))),
  vec(prim('address')),
  dt('0x1', 'string', 'String'),
  dt('0x1', 'ascii', 'String'),
  dt('0x1', 'option', 'Option', [prim('u64')]),
  dt('0x1', 'option', 'Option', [vec(dt('0x1', 'string', 'String'))]),
  dt('0x2', 'object', 'ID'),
];

describe('pure types', () => {
  it('are the types a PTB takes as pure inputs', () => {
    for (const t of PURE) expect(isPureTy(t), formatTy(t)).toBe(true);
    expect(isPureTy(prim('signer'))).toBe(false);
    expect(isPureTy(dt('0x2', 'coin', 'Coin', [dt('0x2', 'sui', 'SUI')]))).toBe(false);
    expect(isPureTy(dt('0x1', 'option', 'Option', [dt('0x2', 'sui', 'SUI')]))).toBe(false);
    expect(pureValue(prim('signer'), 'one', '0x1')).toBeUndefined();
  });
});

describeWithFixtures('pure values', ['fixtures', 'framework'], () => {
  it('every kind, every profile, survives a BCS round trip', () => {
    const vm = MoveVM.create({ packages: framework().framework });
    for (const t of PURE) {
      for (const profile of VALUE_PROFILES) {
        const v = pureValue(t, profile, '0xa11ce');
        expect(v, `${formatTy(t)} ${profile}`).not.toBeUndefined();
        expect(bcsRoundTrip(vm, t, v ?? null).$kind, `${formatTy(t)} ${profile}`).toBe('Ok');
      }
    }
    expect(pureValue(prim('u64'), 'zero', '0x1')).toBe('0');
    expect(pureValue(prim('u8'), 'large', '0x1')).toBe(100);
    expect(pureValue(dt('0x1', 'option', 'Option', [prim('u64')]), 'zero', '0x1')).toBeNull();
    expect(bcsRoundTrip(vm, prim('u8'), 300).$kind).toBe('Failed');
  });
});

describe('type arguments', () => {
  it('meet their constraints: key gets Coin<SUI>, copy or store a primitive, drop-only SUI', () => {
    expect(formatTy(defaultTypeArg(Ability.Key | Ability.Store, 0))).toMatch(/::coin::Coin<.*::sui::SUI>$/);
    expect(formatTy(defaultTypeArg(Ability.Drop, 0))).toMatch(/::sui::SUI$/);
    expect(formatTy(defaultTypeArg(Ability.Copy | Ability.Drop, 0))).toBe('u64');
    expect(formatTy(defaultTypeArg(Ability.Store, 0))).toBe('u64');
  });

  it('distinct parameters get distinct types; bound ones keep theirs', () => {
    const args = completeTypeArgs([0, 0, Ability.Copy], [undefined, undefined, undefined]).map((a) => formatTy(a.type));
    expect(new Set(args).size).toBe(3);
    const bound = completeTypeArgs([0, 0], [dt('0x2', 'sui', 'SUI'), undefined]);
    expect(bound[0]).toMatchObject({ reason: 'bound' });
    expect(bound[1].reason).toBe('default');
    expect(formatTy(bound[1].type)).not.toMatch(/::sui::SUI$/);
  });
});

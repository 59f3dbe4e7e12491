/**
 * InMemoryObjectStore keeps its ids sorted as they come and go (for `entries`), and
 * `restore` puts a state back: both held to the plain answer (a map sorted on demand; clear
 * then put) over random changes.
 */
import { describe, expect, it } from 'vitest';
import type { SuiObject } from '@smi/ptb';
import { InMemoryObjectStore } from '../src/store.js';
import { rng } from '../../../test-support/rng.js';

const id = (n: number): string => '0x' + n.toString(16).padStart(64, '0');
const obj = (n: number): SuiObject => ({ tag: n }) as unknown as SuiObject;

function expected(m: Map<string, SuiObject>): [string, SuiObject][] {
  return [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

describe('InMemoryObjectStore', () => {
  it('entries stay sorted through puts, deletes, clears and restores', () => {
    const r = rng(7);
    const store = new InMemoryObjectStore();
    const plain = new Map<string, SuiObject>();
    const base: [string, SuiObject][] = [
      [id(2), obj(2)],
      [id(0x5), obj(5)],
    ];
    const isBase = (k: string): boolean => base.some(([b]) => b === k);
    const states: [string, SuiObject][][] = [];
    for (let step = 0; step < 3000; step++) {
      const roll = r();
      const n = 1 + Math.floor(r() * 60);
      if (roll < 0.45) {
        const o = obj(Math.floor(r() * 1000));
        store.put(r() < 0.1 ? `0x${n.toString(16)}` : id(n), o);
        plain.set(id(n), o);
      } else if (roll < 0.7) {
        expect(store.delete(id(n))).toBe(plain.delete(id(n)));
      } else if (roll < 0.72) {
        store.clear();
        plain.clear();
      } else if (roll < 0.85) {
        states.push(expected(plain).filter(([k]) => !isBase(k)));
      } else if (states.length > 0) {
        const s = states[Math.floor(r() * states.length)];
        store.restore(base, s, isBase);
        plain.clear();
        for (const [k, o] of [...base, ...s]) plain.set(k, o);
      }
      if (step % 7 === 0) expect(store.entries()).toEqual(expected(plain));
    }
    expect(store.entries()).toEqual(expected(plain));
  });
});

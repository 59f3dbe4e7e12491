/**
 * Values the code itself asks for. A function that checks `vector::length(&bytes) == 32`
 * (a key, a hash, an address) aborts on the profiles' one- or three-byte vectors; the
 * lengths it compares against are read from its bytecode (a `VecLen` with an integer
 * constant and a comparison next to it), in its own body and in the functions of its
 * package it calls, two calls deep.
 */
import type { Bytecode, Constant } from '@smi/bytecode';
import type { Catalogue, FunctionDecl } from './catalogue.js';

const COMPARISONS = new Set(['Eq', 'Neq', 'Lt', 'Gt', 'Le', 'Ge']);
/** Instructions on either side of a `VecLen` searched for a constant and a comparison. */
const WINDOW = 3;
const MAX_LENGTH = 1024;
/** Most lengths returned. */
const MAX_HINTS = 3;

/** The value of an integer constant load (`LdU8`..`LdU64`, `LdConst` of a u8/u16/u32/u64), or `null`. */
function constantValue(ins: Bytecode, constants: readonly Constant[]): number | null {
  switch (ins.$kind) {
    case 'LdU8':
    case 'LdU16':
    case 'LdU32':
      return ins.value;
    case 'LdU64':
      return ins.value <= BigInt(MAX_LENGTH) ? Number(ins.value) : null;
    case 'LdConst': {
      const c = constants[ins.index];
      if (c === undefined) return null;
      const width = { U8: 1, U16: 2, U32: 4, U64: 8 }[c.type.$kind as string];
      if (width === undefined || c.data.length !== width) return null;
      let v = 0;
      for (let i = Math.min(width, 4) - 1; i >= 0; i--) v = v * 256 + c.data[i];
      for (let i = 4; i < width; i++) if (c.data[i] !== 0) return null;
      return v;
    }
    default:
      return null;
  }
}

/** Lengths compared with a vector's length in `code`. */
function lengthsIn(code: readonly Bytecode[], constants: readonly Constant[], into: Set<number>): void {
  code.forEach((ins, i) => {
    if (ins.$kind !== 'VecLen') return;
    const near = code.slice(Math.max(0, i - WINDOW), i + WINDOW + 1);
    if (!near.some((x) => COMPARISONS.has(x.$kind))) return;
    for (const x of near) {
      const v = constantValue(x, constants);
      if (v !== null && v > 1 && v <= MAX_LENGTH) into.add(v);
    }
  });
}

/** Byte lengths `fn` and the functions of its package it calls (two deep) compare vector lengths with, most found first. */
export function byteLengthHints(fn: FunctionDecl, catalogue: Catalogue): number[] {
  const found = new Set<number>();
  const seen = new Set<FunctionDecl>();
  const visit = (f: FunctionDecl, depth: number): void => {
    if (seen.has(f) || f.code === null) return;
    seen.add(f);
    lengthsIn(f.code, f.constants, found);
    if (depth === 0) return;
    for (const site of f.calls) {
      if (site.address !== fn.address) continue;
      const callee = catalogue.functionByName(site.address, site.module, site.name);
      if (callee !== undefined) visit(callee, depth - 1);
    }
  };
  visit(fn, 2);
  return [...found].slice(0, MAX_HINTS);
}

/**
 * What a hit is worth. A row's `hit_class` says what kind of arguments its transaction
 * passed; {@link isRealHit} says whether a skeptical reviewer would count it: the
 * transaction ran with Sui's own rules (not dev-inspect's), on inputs that were not
 * forged, with real signature checks, so that it could run on chain as it is. The
 * headline counts real hits once per function of an original package (an upgrade's copy
 * of a function says `duplicate_of` and is not a second target).
 */
import type { BenchmarkRow, HitClass } from './row.js';
import type { Arg, Source } from './sources.js';
import { deref } from './types.js';
import { isPureTy, type ValueProfile } from './values.js';

/** How one argument counts: supplied by the system, a plain value, or a struct. */
function argKind(s: Source, profile: ValueProfile): 'system' | 'plain' | 'struct' {
  switch (s.$kind) {
    case 'Pure':
      return 'plain';
    case 'Object':
      return s.object.origin === 'system' ? 'system' : 'struct';
    case 'Vector':
      // An empty vector of structs carries no struct.
      return s.item === null || profile === 'zero' ? 'plain' : argKind(s.item, profile) === 'plain' ? 'plain' : 'struct';
    case 'Call':
      return isPureTy(deref(s.returns[s.returnIndex])) ? 'plain' : 'struct';
    case 'Setup':
    case 'Synthesized':
    case 'GasCoin':
      return 'struct';
  }
}

/** The class of a call's arguments in value profile `profile`. */
export function hitClassOf(args: readonly Arg[], profile: ValueProfile): HitClass {
  let plain = false;
  for (const a of args) {
    if (a.$kind !== 'Value') continue;
    const k = argKind(a.source, profile);
    if (k === 'struct') return 'structured';
    if (k === 'plain') plain = true;
  }
  return plain ? 'pure_only' : 'no_args';
}

/**
 * Why a Tier B hit is not real, or `null` when it is: `synthesized` (an input was forged
 * from raw BCS), `relaxed` (it ran with dev-inspect rules), `permissive_crypto` (every
 * signature check passed).
 */
function notRealBecause(row: BenchmarkRow): 'synthesized' | 'relaxed' | 'permissive_crypto' | null {
  if (row.provenance === 'synthesized') return 'synthesized';
  if (row.tier_b_details?.checks !== 'strict') return 'relaxed';
  if (row.permissive_crypto === true) return 'permissive_crypto';
  return null;
}

/** `true` for a Tier B hit that could run on chain as it is (whatever `duplicate_of` says). */
export function isRealHit(row: BenchmarkRow): boolean {
  return row.status === 'tier_b_hit' && notRealBecause(row) === null;
}

/** The kinds of Tier B hits, as the summary and the report split them. */
export const HIT_KINDS = ['real_structured', 'real_pure_only', 'real_no_args', 'relaxed', 'synthesized', 'permissive_crypto'] as const;

/** A kind of Tier B hit. */
export type HitKind = (typeof HIT_KINDS)[number];

/** The kind of a Tier B hit row (`null` for other rows). */
export function hitKind(row: BenchmarkRow): HitKind | null {
  if (row.status !== 'tier_b_hit') return null;
  const why = notRealBecause(row);
  if (why !== null) return why;
  return `real_${row.hit_class ?? 'no_args'}`;
}

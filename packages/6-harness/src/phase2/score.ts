/**
 * Phase II scoring, as the original's `inhabit/score.py`: types are compared by their base
 * (type arguments stripped) after every address literal is padded to 64 hex digits; a package
 * scores the key types it was asked for that the transaction really created.
 */
import { canonicalAddress } from '@smi/bytecode';

/** Every `0x…` literal padded to 64 lower-case hex digits. */
export function normalizeTypeString(t: string): string {
  return t.trim().replace(/0x([0-9a-fA-F]{1,64})(?![0-9a-fA-F])/g, (_m, hex: string) => canonicalAddress(hex));
}

/** A type without its type arguments (`0x…::coin::Coin<0x2::sui::SUI>` → `0x…::coin::Coin`). */
export function canonicalBaseType(t: string): string {
  const n = normalizeTypeString(t);
  const lt = n.indexOf('<');
  return lt < 0 ? n : n.slice(0, lt);
}

/** The original's `InhabitationScore`. */
export interface InhabitationScore {
  targets: number;
  created_distinct: number;
  created_hits: number;
  missing: number;
}

/** Score created types against target types (both compared by base type). */
export function scoreInhabitation(targets: readonly string[], created: readonly string[]): InhabitationScore & { hit_types: string[]; missing_types: string[] } {
  const want = new Set(targets.map(canonicalBaseType));
  const got = new Set(created.map(canonicalBaseType));
  const hit = [...want].filter((t) => got.has(t)).sort();
  const missing = [...want].filter((t) => !got.has(t)).sort();
  return { targets: want.size, created_distinct: got.size, created_hits: hit.length, missing: missing.length, hit_types: hit, missing_types: missing };
}

/** Hits / targets (0 without targets). */
export function hitRate(s: InhabitationScore): number {
  return s.targets === 0 ? 0 : s.created_hits / s.targets;
}

/**
 * Key types as the chain names them: a type an upgrade added is named by the package version
 * that introduced it (its type origin), not by the package's original id, which its modules
 * carry as their address. Phase II compares these with the types transactions created.
 */
export function onChainTypes(types: readonly string[], typeOrigins: readonly { moduleName: string; datatypeName: string; package: string }[]): string[] {
  if (typeOrigins.length === 0) return [...types];
  const origin = new Map(typeOrigins.map((o) => [`${o.moduleName}::${o.datatypeName}`, o.package]));
  return types
    .map((t) => {
      const [, module, name] = t.split('::');
      const defining = origin.get(`${module}::${name}`);
      return defining === undefined ? t : `${normalizeTypeString(defining)}::${module}::${name}`;
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

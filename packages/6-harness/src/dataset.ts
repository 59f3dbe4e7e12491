/**
 * Which packages a run benchmarks: a corpus in the sui-packages layout discovered at any
 * depth (a package is a directory with `bytecode_modules/` and a `metadata.json` `id`),
 * de-duplicated and sorted by id, without the original's three blacklisted ids; ids files;
 * named datasets; and the original's deterministic sampling (FNV-1a 64 with the seed
 * folded into the offset basis), so the same `--samples N --seed S` picks what it picked.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SmiError, canonicalAddress } from '@smi/bytecode';

/** The original's blacklist (base58-looking ids some corpora carry). */
export const BLACKLISTED_IDS: ReadonlySet<string> = new Set([
  'FBNeU62dhM5gZsBgq2gUKRxYRo2QpriciUeNjLLT5VUj',
  '7RpDrVZdZjUFkKuRyAmLoqDpLcPHmGyi6zCGfhCeWgCn',
  'G5uEKjtXUWMDxCyzBq6RMGrDWVxxDadVza79N4qa45hE',
]);

/** A package of the corpus. */
export interface PackageRef {
  /** The id as `metadata.json` states it. */
  packageId: string;
  /** Its directory (symlinks resolved). */
  packageDir: string;
}

/** What discovery passed over, and why (reported, never silent). */
export interface DiscoverySkips {
  noMetadataId: string[];
  duplicate: string[];
  blacklisted: string[];
}

const MAX_DEPTH = 8;

/** Why a corpus cannot be read. */
export class DatasetError extends SmiError<'CORPUS_NOT_FOUND' | 'NO_PACKAGES' | 'IDS_FILE_NOT_FOUND' | 'UNKNOWN_DATASET'> {
  override readonly name = 'DatasetError';
  constructor(code: 'CORPUS_NOT_FOUND' | 'NO_PACKAGES' | 'IDS_FILE_NOT_FOUND' | 'UNKNOWN_DATASET', message: string) {
    super(code, message);
  }
}

function metadataId(dir: string): string | null {
  const file = path.join(dir, 'metadata.json');
  if (!existsSync(file)) return null;
  try {
    const id = (JSON.parse(readFileSync(file, 'utf8')) as { id?: unknown }).id;
    return typeof id === 'string' && id !== '' ? id : null;
  } catch {
    return null;
  }
}

/**
 * Every package under `root` (any depth, symlinks followed), de-duplicated by id (the
 * first in path order wins) and sorted by id.
 */
export function discoverPackages(root: string): { packages: PackageRef[]; skipped: DiscoverySkips } {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new DatasetError('CORPUS_NOT_FOUND', `corpus root ${root} is not a directory`);
  const skipped: DiscoverySkips = { noMetadataId: [], duplicate: [], blacklisted: [] };
  const seen = new Set<string>();
  const visited = new Set<string>();
  const out: PackageRef[] = [];
  const walk = (dir: string, depth: number): void => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    if (existsSync(path.join(real, 'bytecode_modules')) && statSync(path.join(real, 'bytecode_modules')).isDirectory()) {
      const id = metadataId(real);
      if (id === null) skipped.noMetadataId.push(real);
      else if (BLACKLISTED_IDS.has(id)) skipped.blacklisted.push(id);
      else if (seen.has(id)) skipped.duplicate.push(id);
      else {
        seen.add(id);
        out.push({ packageId: id, packageDir: real });
      }
      return;
    }
    if (depth >= MAX_DEPTH) return;
    for (const e of readdirSync(real).sort()) {
      const p = path.join(real, e);
      try {
        if (statSync(p).isDirectory()) walk(p, depth + 1);
      } catch {
        // A dangling symlink: nothing to read.
      }
    }
  };
  walk(root, 0);
  out.sort((a, b) => (a.packageId < b.packageId ? -1 : a.packageId > b.packageId ? 1 : 0));
  return { packages: out, skipped };
}

const FNV_BASIS = 1469598103934665603n;
const FNV_PRIME = 1099511628211n;
const MASK = (1n << 64n) - 1n;

/**
 * The original's score of a package id: FNV-1a 64 over the id's UTF-8 bytes, with the
 * seed XORed into the offset basis (Python integers: a seed of any size or sign).
 */
export function fnv1a64(seed: bigint | number, text: string): bigint {
  let h = FNV_BASIS ^ BigInt(seed);
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= BigInt(b);
    h = (h * FNV_PRIME) & MASK;
  }
  return h;
}

/**
 * The original's `sample_packages`: all of them when `n <= 0` or `n >= count`; otherwise
 * the `n` with the smallest (score, id), returned sorted by id.
 */
export function samplePackages<T extends { packageId: string }>(packages: readonly T[], n: number, seed: bigint | number): T[] {
  if (n <= 0 || n >= packages.length) return [...packages];
  return packages
    .map((p) => ({ p, h: fnv1a64(seed, p.packageId) }))
    .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : a.p.packageId < b.p.packageId ? -1 : a.p.packageId > b.p.packageId ? 1 : 0))
    .slice(0, n)
    .map((x) => x.p)
    .sort((a, b) => (a.packageId < b.packageId ? -1 : a.packageId > b.packageId ? 1 : 0));
}

/** The ids of an ids file: one per line, blanks and `#` comments skipped, first occurrence kept. */
export function parseIdsText(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const s = line.trim();
    if (s === '' || s.startsWith('#') || seen.has(s)) continue;
    seen.add(s);
    out.push(s);
  }
  return out;
}

/** The named datasets of a manifests directory (`datasets/NAME.txt`). */
export function datasetNames(manifestsDir: string): string[] {
  const dir = path.join(manifestsDir, 'datasets');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** The ids of the named dataset `name` (`<manifests>/datasets/NAME.txt`). */
export function datasetIds(manifestsDir: string, name: string): string[] {
  const file = path.join(manifestsDir, 'datasets', `${name}.txt`);
  if (!existsSync(path.join(manifestsDir, 'datasets')))
    throw new DatasetError('UNKNOWN_DATASET', `no manifests at ${manifestsDir} (expected ${path.join(manifestsDir, 'datasets')}/NAME.txt): point --manifests at a manifests directory`);
  if (!existsSync(file)) {
    const known = datasetNames(manifestsDir);
    throw new DatasetError('UNKNOWN_DATASET', `no dataset ${JSON.stringify(name)} in ${manifestsDir}/datasets (known: ${known.join(', ') || 'none'})`);
  }
  return parseIdsText(readFileSync(file, 'utf8'));
}

/** Canonical form of an id for matching: lowercase hex, 64 digits (non-hex ids as given). */
export function canonicalId(id: string): string {
  const m = /^(0x)?([0-9a-fA-F]{1,64})$/.exec(id.trim());
  return m ? canonicalAddress(m[2]) : id.trim();
}

/** Selection of a run: the packages picked, in run order, and what the ids asked for that is not there. */
export interface Selection {
  picked: PackageRef[];
  /** Ids of the ids file or dataset that the corpus does not hold. */
  missing: string[];
}

/**
 * The packages of a run: the ids in file or dataset order when given (`--samples` then acts
 * as a batch size over what is left to do, see the runner), else a sample of the corpus.
 */
export function selectPackages(packages: readonly PackageRef[], options: { ids?: readonly string[]; samples: number; seed: bigint | number }): Selection {
  if (options.ids === undefined) return { picked: samplePackages(packages, options.samples, options.seed), missing: [] };
  const byId = new Map(packages.map((p) => [canonicalId(p.packageId), p]));
  const picked: PackageRef[] = [];
  const missing: string[] = [];
  for (const id of options.ids) {
    const p = byId.get(canonicalId(id));
    if (p === undefined) missing.push(id);
    else if (!picked.includes(p)) picked.push(p);
  }
  return { picked, missing };
}

/**
 * Packages on disk in the sui-packages layout (MystenLabs/sui-packages): `<root>/<id>/`
 * holding `bytecode_modules/<module>.mv`, `bcs.json` (`moduleMap` in base64,
 * `typeOriginTable`, `linkageTable`, as the dataset writes them) and `metadata.json` (id,
 * original id, version, the transaction that wrote it, and where it came from). A directory
 * is written under a temporary name and renamed into place, so a directory that exists is
 * whole: an interrupted fetch leaves no half-written package, and a rerun skips what is done.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, errorMessage } from '@smi/bytecode';
import type { SuiObject } from '@smi/ptb';
import { SimulationEnvironmentError } from '../errors.js';

/** Where a package was fetched from, kept in its `metadata.json`. */
export interface PackageProvenance {
  /** The endpoint that served it. */
  source: string;
  /** The object digest the node reported and the bytes hash to (absent: the node gave none). */
  objectDigest?: string;
  /** When (ISO 8601). */
  fetchedAt: string;
  /** The original id (its modules' self address; the id itself for a package never upgraded). */
  originalId: string;
}

/** The directory of package `id` under `root`. */
export function packageDirOf(root: string, id: string): string {
  return path.join(root, canonicalAddress(id));
}

/** The package's `metadata.json` exists: it was written whole. */
export function hasPackageDir(root: string, id: string): boolean {
  return existsSync(path.join(packageDirOf(root, id), 'metadata.json'));
}

/** The version a stored package's `metadata.json` records. */
export function storedVersion(root: string, id: string): number {
  const file = path.join(packageDirOf(root, id), 'metadata.json');
  try {
    const v = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    if (typeof v === 'number') return v;
  } catch {
    // reported below
  }
  throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${file}: no version`, { path: file });
}

/** Upgraded ids of the packages a stored package links to (its `bcs.json` `linkageTable`). */
export function storedLinkage(root: string, id: string): string[] {
  const file = path.join(packageDirOf(root, id), 'bcs.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new SimulationEnvironmentError('INVALID_STATE_FILE', `${file}: ${errorMessage(e)}`, { path: file });
  }
  const table = (json as { linkageTable?: unknown }).linkageTable;
  if (table === null || typeof table !== 'object') return [];
  return Object.values(table as Record<string, { upgraded_id?: unknown }>)
    .map((e) => e.upgraded_id)
    .filter((u): u is string => typeof u === 'string')
    .map((u) => canonicalAddress(u));
}

/** Write package object `o` under `root` in the sui-packages layout; returns its directory. */
export function writePackageDir(root: string, o: SuiObject, provenance: PackageProvenance): string {
  if (o.data.$kind !== 'Package') throw new SimulationEnvironmentError('INVALID_REQUEST', 'not a package object');
  const p = o.data.Package;
  const id = canonicalAddress(p.id);
  const dir = packageDirOf(root, id);
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(path.join(tmp, 'bytecode_modules'), { recursive: true });
  const names = [...p.moduleMap.keys()].sort();
  for (const name of names) writeFileSync(path.join(tmp, 'bytecode_modules', `${name}.mv`), p.moduleMap.get(name) as Uint8Array);
  const bcsJson = {
    dataType: 'package',
    id,
    version: Number(p.version),
    moduleMap: Object.fromEntries(names.map((n) => [n, Buffer.from(p.moduleMap.get(n) as Uint8Array).toString('base64')])),
    typeOriginTable: p.typeOriginTable.map((t) => ({ module_name: t.moduleName, datatype_name: t.datatypeName, package: canonicalAddress(t.package) })),
    linkageTable: Object.fromEntries([...p.linkageTable].map(([k, v]) => [canonicalAddress(k), { upgraded_id: canonicalAddress(v.upgradedId), upgraded_version: Number(v.upgradedVersion) }])),
  };
  writeFileSync(path.join(tmp, 'bcs.json'), `${JSON.stringify(bcsJson, null, 2)}\n`);
  const metadata = {
    id,
    originalPackageId: canonicalAddress(provenance.originalId),
    version: Number(p.version),
    transactionDigest: o.previousTransaction,
    ...(provenance.objectDigest !== undefined ? { objectDigest: provenance.objectDigest } : {}),
    fetchedFrom: provenance.source,
    fetchedAt: provenance.fetchedAt,
  };
  // metadata.json last: its presence says the directory is whole.
  writeFileSync(path.join(tmp, 'metadata.json'), `${JSON.stringify(metadata, null, 2)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}

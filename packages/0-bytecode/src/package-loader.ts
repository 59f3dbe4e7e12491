/**
 * Loading packages of modules from the three on-disk forms SMI meets:
 * - the sui-packages layout: `<id>/bytecode_modules/*.mv`, `metadata.json`, `bcs.json`;
 * - a BCS `vector<vector<u8>>` bundle (the compiled framework files);
 * - a framework snapshot file: a 32-byte package id, then the same bundle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BytecodeError } from './errors.js';
import { deserializeModule, type DeserializeOptions } from './deserializer.js';
import type { CompiledModule } from './file-format.js';
import { canonicalAddress, moduleAddress, moduleName } from './module-access.js';
import { SmiError } from './util/error.js';

/** One module of a package: its name, original bytes and decoded form. */
export interface PackageModule {
  name: string;
  bytes: Uint8Array;
  module: CompiledModule;
}

/** Where a datatype was first defined (upgraded packages keep the original). */
export interface TypeOrigin {
  moduleName: string;
  datatypeName: string;
  /** Storage id of the package version that introduced the type. */
  package: string;
}

/** Which version of a dependency a package links against. */
export interface LinkageEntry {
  upgradedId: string;
  upgradedVersion: number;
}

/** Where a package was read from. */
export type PackageSource = { $kind: 'Directory'; path: string } | { $kind: 'Bundle'; path: string } | { $kind: 'Snapshot'; path: string } | { $kind: 'Memory' };

/** A package: its modules plus the upgrade metadata Sui keeps beside them. */
export interface MovePackage {
  /** Storage id (`0x` + 64 hex): where this version of the package lives. */
  id: string;
  /** Original id: the address inside the modules (differs from `id` after upgrades). */
  originalId: string;
  /** On-chain version, when known. */
  version: number | null;
  /** Modules sorted by name. */
  modules: PackageModule[];
  typeOriginTable: TypeOrigin[];
  /** Keyed by the dependency's original id. */
  linkageTable: Record<string, LinkageEntry>;
  source: PackageSource;
}

/** Codes of {@link PackageError}. */
export type PackageErrorCode = 'PACKAGE_NOT_FOUND' | 'INVALID_PACKAGE' | 'INVALID_MODULE';

/** A package could not be found or read. `cause` holds the {@link BytecodeError} for bad modules. */
export class PackageError extends SmiError<PackageErrorCode> {
  override readonly name = 'PackageError';
  readonly path: string | undefined;
  /** Module at fault, for `INVALID_MODULE`. */
  readonly moduleName: string | undefined;

  constructor(code: PackageErrorCode, message: string, opts: { path?: string; moduleName?: string; cause?: unknown } = {}) {
    super(code, message, { cause: opts.cause });
    this.path = opts.path;
    this.moduleName = opts.moduleName;
  }
}

/** Options of the loaders. */
export interface LoadOptions {
  /** Deserializer options for every module. */
  deserialize?: DeserializeOptions;
  /** Package id to use when the package itself does not say (overrides nothing it says). */
  packageId?: string;
}

function readUleb(bytes: Uint8Array, at: { pos: number }, what: string): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at.pos >= bytes.length) throw new PackageError('INVALID_PACKAGE', `truncated ${what} at byte ${at.pos}`);
    const b = bytes[at.pos++];
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return value;
    shift += 7;
    if (shift > 28) throw new PackageError('INVALID_PACKAGE', `${what} too large at byte ${at.pos}`);
  }
}

/**
 * Split a BCS `vector<vector<u8>>` (ULEB count, then ULEB length + bytes each) into module
 * byte arrays, starting at `offset`.
 */
export function parseModuleBundle(bytes: Uint8Array, offset = 0): Uint8Array[] {
  const at = { pos: offset };
  const count = readUleb(bytes, at, 'module count');
  if (count > bytes.length) throw new PackageError('INVALID_PACKAGE', `module count ${count} exceeds the file size`);
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const len = readUleb(bytes, at, 'module length');
    if (at.pos + len > bytes.length) throw new PackageError('INVALID_PACKAGE', `module #${i} runs past the end of the file`);
    out.push(bytes.subarray(at.pos, at.pos + len));
    at.pos += len;
  }
  return out;
}

function decodeAll(list: { name?: string; bytes: Uint8Array }[], where: string, options: DeserializeOptions | undefined): PackageModule[] {
  const modules = list.map(({ name, bytes }, i) => {
    try {
      const module = deserializeModule(bytes, options);
      return { name: moduleName(module), bytes, module };
    } catch (e) {
      const label = name ?? `#${i}`;
      if (e instanceof BytecodeError) {
        throw new PackageError('INVALID_MODULE', `${where}: module ${label}: ${e.message}`, { path: where, moduleName: label, cause: e });
      }
      throw e;
    }
  });
  modules.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return modules;
}

function commonAddress(modules: PackageModule[], where: string): string {
  const addrs = new Set(modules.map((m) => moduleAddress(m.module)));
  if (addrs.size !== 1) {
    throw new PackageError('INVALID_PACKAGE', `${where}: modules do not share one address (${[...addrs].join(', ')})`, { path: where });
  }
  return [...addrs][0];
}

/** Build a package from module bytes held in memory. */
export function packageFromBytes(modules: Uint8Array[], opts: { id?: string; version?: number | null; deserialize?: DeserializeOptions } = {}): MovePackage {
  if (modules.length === 0) throw new PackageError('INVALID_PACKAGE', 'a package needs at least one module');
  const decoded = decodeAll(
    modules.map((bytes) => ({ bytes })),
    'memory',
    opts.deserialize,
  );
  const originalId = commonAddress(decoded, 'memory');
  return {
    id: opts.id ? canonicalAddress(opts.id) : originalId,
    originalId,
    version: opts.version ?? null,
    modules: decoded,
    typeOriginTable: [],
    linkageTable: {},
    source: { $kind: 'Memory' },
  };
}

/** Load a BCS `vector<vector<u8>>` bundle file (e.g. `fixtures/framework/sui-framework`). */
export function loadBundleFile(file: string, options: LoadOptions = {}): MovePackage {
  const bytes = readFileOrThrow(file);
  const decoded = decodeAll(
    parseModuleBundle(bytes).map((b) => ({ bytes: b })),
    file,
    options.deserialize,
  );
  if (decoded.length === 0) throw new PackageError('INVALID_PACKAGE', `${file}: no modules`, { path: file });
  const originalId = commonAddress(decoded, file);
  return {
    id: options.packageId ? canonicalAddress(options.packageId) : originalId,
    originalId,
    version: null,
    modules: decoded,
    typeOriginTable: [],
    linkageTable: {},
    source: { $kind: 'Bundle', path: file },
  };
}

/** Load a framework snapshot file: 32-byte package id, then a module bundle. */
export function loadSnapshotFile(file: string, options: LoadOptions = {}): MovePackage {
  const bytes = readFileOrThrow(file);
  if (bytes.length < 33) throw new PackageError('INVALID_PACKAGE', `${file}: too short for a snapshot`, { path: file });
  let id = '0x';
  for (let i = 0; i < 32; i++) id += bytes[i].toString(16).padStart(2, '0');
  const decoded = decodeAll(
    parseModuleBundle(bytes, 32).map((b) => ({ bytes: b })),
    file,
    options.deserialize,
  );
  const originalId = decoded.length > 0 ? commonAddress(decoded, file) : id;
  return { id, originalId, version: null, modules: decoded, typeOriginTable: [], linkageTable: {}, source: { $kind: 'Snapshot', path: file } };
}

function readFileOrThrow(file: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (e) {
    throw new PackageError('PACKAGE_NOT_FOUND', `cannot read ${file}: ${(e as Error).message}`, { path: file, cause: e });
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (e) {
    throw new PackageError('INVALID_PACKAGE', `${file}: not valid JSON: ${(e as Error).message}`, { path: file, cause: e });
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function decodeModuleMapEntry(v: unknown, file: string, name: string): Uint8Array {
  if (typeof v === 'string') return new Uint8Array(Buffer.from(v, 'base64'));
  if (Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0 && x < 256)) return Uint8Array.from(v as number[]);
  throw new PackageError('INVALID_PACKAGE', `${file}: moduleMap.${name} is neither base64 nor a byte array`, { path: file });
}

/**
 * Load a package directory in the sui-packages layout. Modules come from
 * `bytecode_modules/*.mv` (or, when absent, `bcs.json`'s `moduleMap`); the id from
 * `metadata.json` or `bcs.json` (else `options.packageId`, else the modules' address).
 */
export function loadPackageDir(dir: string, options: LoadOptions = {}): MovePackage {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new PackageError('PACKAGE_NOT_FOUND', `${dir}: not a directory`, { path: dir });
  }
  const metaFile = path.join(dir, 'metadata.json');
  const bcsFile = path.join(dir, 'bcs.json');
  const meta = existsSync(metaFile) ? readJson(metaFile) : undefined;
  const bcs = existsSync(bcsFile) ? readJson(bcsFile) : undefined;
  const modDir = path.join(dir, 'bytecode_modules');
  let list: { name: string; bytes: Uint8Array }[];
  if (existsSync(modDir)) {
    list = readdirSync(modDir)
      .filter((f) => f.endsWith('.mv'))
      .sort()
      .map((f) => ({ name: f.slice(0, -3), bytes: readFileOrThrow(path.join(modDir, f)) }));
  } else if (isRecord(bcs) && isRecord(bcs.moduleMap)) {
    const map = bcs.moduleMap;
    list = Object.keys(map)
      .sort()
      .map((name) => ({ name, bytes: decodeModuleMapEntry(map[name], bcsFile, name) }));
  } else {
    throw new PackageError('INVALID_PACKAGE', `${dir}: no bytecode_modules/ directory and no bcs.json moduleMap`, { path: dir });
  }
  if (list.length === 0) throw new PackageError('INVALID_PACKAGE', `${dir}: no .mv modules`, { path: dir });
  const modules = decodeAll(list, dir, options.deserialize);
  const originalId = commonAddress(modules, dir);
  const idText = (isRecord(meta) && typeof meta.id === 'string' ? meta.id : undefined) ?? (isRecord(bcs) && typeof bcs.id === 'string' ? bcs.id : undefined) ?? options.packageId ?? originalId;
  let id: string;
  try {
    id = canonicalAddress(idText);
  } catch {
    throw new PackageError('INVALID_PACKAGE', `${dir}: invalid package id ${JSON.stringify(idText)}`, { path: dir });
  }
  const versionRaw = (isRecord(meta) ? meta.version : undefined) ?? (isRecord(bcs) ? bcs.version : undefined);
  return {
    id,
    originalId,
    version: typeof versionRaw === 'number' ? versionRaw : null,
    modules,
    typeOriginTable: parseTypeOrigins(isRecord(bcs) ? bcs.typeOriginTable : undefined, bcsFile),
    linkageTable: parseLinkage(isRecord(bcs) ? bcs.linkageTable : undefined, bcsFile),
    source: { $kind: 'Directory', path: dir },
  };
}

function parseTypeOrigins(v: unknown, file: string): TypeOrigin[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new PackageError('INVALID_PACKAGE', `${file}: typeOriginTable is not an array`, { path: file });
  return v.map((e, i) => {
    const r = isRecord(e) ? e : {};
    const moduleName = r.module_name ?? r.moduleName;
    const datatypeName = r.datatype_name ?? r.datatypeName ?? r.struct_name ?? r.structName;
    const pkg = r.package;
    if (typeof moduleName !== 'string' || typeof datatypeName !== 'string' || typeof pkg !== 'string') {
      throw new PackageError('INVALID_PACKAGE', `${file}: typeOriginTable[${i}] lacks module_name/datatype_name/package`, { path: file });
    }
    return { moduleName, datatypeName, package: canonicalAddress(pkg) };
  });
}

function parseLinkage(v: unknown, file: string): Record<string, LinkageEntry> {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) throw new PackageError('INVALID_PACKAGE', `${file}: linkageTable is not an object`, { path: file });
  const out: Record<string, LinkageEntry> = {};
  for (const [k, e] of Object.entries(v)) {
    const r = isRecord(e) ? e : {};
    const upgradedId = r.upgraded_id ?? r.upgradedId;
    const upgradedVersion = r.upgraded_version ?? r.upgradedVersion;
    if (typeof upgradedId !== 'string' || typeof upgradedVersion !== 'number') {
      throw new PackageError('INVALID_PACKAGE', `${file}: linkageTable[${k}] lacks upgraded_id/upgraded_version`, { path: file });
    }
    out[canonicalAddress(k)] = { upgradedId: canonicalAddress(upgradedId), upgradedVersion };
  }
  return out;
}

/**
 * Find package directories under a corpus root: every directory (followed through
 * symlinks, up to `maxDepth` levels) that holds a `bytecode_modules/` folder. Sorted.
 */
export function findPackageDirs(root: string, maxDepth = 3): string[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new PackageError('PACKAGE_NOT_FOUND', `${root}: corpus root is not a directory`, { path: root });
  }
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (existsSync(path.join(dir, 'bytecode_modules'))) {
      out.push(dir);
      return;
    }
    if (depth >= maxDepth) return;
    for (const entry of readdirSync(dir).sort()) {
      if (entry.startsWith('.')) continue;
      const p = path.join(dir, entry);
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(p, depth + 1);
    }
  };
  walk(root, 0);
  return out.sort();
}

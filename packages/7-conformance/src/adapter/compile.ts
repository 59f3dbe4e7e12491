/**
 * Compiling a `publish`/`upgrade`/`stage-package` task's Move source offline, the way
 * upstream's runner compiles it: the package's own named address is 0x0, every other named
 * address has its current value, and the packages published earlier by the test (plus the
 * framework) are dependencies, served to the WASM compiler as stubs of their bytecode.
 * Compiled modules are cached (in memory, and on disk when a directory is given), keyed by
 * the source, the addresses and the bytes of every dependency.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserializeModule, serializeModule, stubDeclarationsFingerprint, type MovePackage, canonicalAddress } from '@smi/bytecode';
import type { BytecodeDependency } from '@smi/move-compiler';
import { moveCompilerImportFailed } from '@smi/simulation';
import { AdapterError } from './errors.js';

/** What to compile. */
export interface CompileRequest {
  /** The task's text (Move modules). */
  source: string;
  /** Named addresses and their values (`0x` + 64 hex); the package's own names are 0x0. */
  namedAddresses: ReadonlyMap<string, string>;
  /** Packages to offer as dependencies, each with the named address its modules use. */
  packages: readonly { pkg: MovePackage; addressName: string | null }[];
  /** Directory for the on-disk cache (none when `null`). */
  cacheDir: string | null;
  /** `init --flavor core`: compiled as Move core, without Sui's source checks (`init`, OTW, ...). */
  flavor?: 'core' | 'sui';
}

/** A compiled package: module names and bytes, in the compiler's order. */
export interface CompiledPackage {
  /** The named address of the first module (the package's name in the test). */
  namedAddress: string | null;
  modules: { name: string; bytes: Uint8Array }[];
}

const SYSTEM = new Set(['0x1', '0x2', '0x3', '0xb', '0xdee9'].map((a) => canonicalAddress(a)));
const memory = new Map<string, CompiledPackage | string>();
const packageHashes = new WeakMap<MovePackage, string>();

function packageHash(p: MovePackage): string {
  let h = packageHashes.get(p);
  if (h === undefined) {
    const hash = createHash('sha256');
    hash.update(p.id);
    for (const m of p.modules) hash.update(m.bytes);
    h = hash.digest('hex');
    packageHashes.set(p, h);
  }
  return h;
}

/** The named address of the first `module addr::name` of a source. */
export function firstModuleAddress(source: string): string | null {
  const noComments = source.replace(/\/\/[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const m = /\bmodule\s+([A-Za-z_][A-Za-z0-9_]*)\s*::/.exec(noComments);
  if (m !== null) return m[1];
  const a = /\baddress\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{/.exec(noComments);
  return a === null ? null : a[1];
}

/** Names the source uses as addresses: `name::` and `@name`. */
function mentionedNames(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/(?<![\w:])([A-Za-z_][A-Za-z0-9_]*)\s*::/g)) out.add(m[1]);
  for (const m of source.matchAll(/@([A-Za-z_][A-Za-z0-9_]*)/g)) out.add(m[1]);
  return out;
}

function manifestOf(req: CompileRequest, depNames: Set<string>, own: string | null): string {
  const lines = ['[package]', `name = "adapter_test_package"`, 'edition = "2024"', ...(req.flavor === 'core' ? ['flavor = "core"'] : []), '', '[addresses]'];
  const mentioned = mentionedNames(req.source);
  if (own !== null) mentioned.add(own);
  for (const name of [...mentioned].sort()) {
    if (depNames.has(name)) continue;
    const value = req.namedAddresses.get(name);
    if (value === undefined) continue;
    lines.push(`${name} = "${value}"`);
  }
  return lines.join('\n') + '\n';
}

function readCache(dir: string | null, key: string): CompiledPackage | string | undefined {
  const hit = memory.get(key);
  if (hit !== undefined || dir === null) return hit;
  const file = path.join(dir, `${key}.json`);
  if (!existsSync(file)) return undefined;
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as { error?: string; namedAddress?: string | null; modules?: { name: string; hex: string }[] };
    if (typeof j.error === 'string') return j.error;
    if (j.modules === undefined) return undefined;
    return { namedAddress: j.namedAddress ?? null, modules: j.modules.map((m) => ({ name: m.name, bytes: Uint8Array.from(Buffer.from(m.hex, 'hex')) })) };
  } catch {
    return undefined;
  }
}

function writeCache(dir: string | null, key: string, value: CompiledPackage | string): void {
  memory.set(key, value);
  if (dir === null) return;
  try {
    mkdirSync(dir, { recursive: true });
    const body = typeof value === 'string' ? { error: value } : { namedAddress: value.namedAddress, modules: value.modules.map((m) => ({ name: m.name, hex: Buffer.from(m.bytes).toString('hex') })) };
    writeFileSync(path.join(dir, `${key}.json`), JSON.stringify(body));
  } catch {
    // A cache that cannot be written is only slower.
  }
}

/**
 * Compile a task's source. Compilation errors throw an {@link AdapterError}
 * `PARSE_ERROR` with the compiler's first error (the framework's macros are declared in
 * its stubs, so a source using them compiles).
 */
export async function compileTaskSource(req: CompileRequest): Promise<CompiledPackage> {
  const own = firstModuleAddress(req.source);
  const deps: BytecodeDependency[] = [];
  const depNames = new Set<string>();
  for (const { pkg, addressName } of req.packages) {
    const system = SYSTEM.has(pkg.originalId);
    const name = system ? undefined : (addressName ?? undefined);
    if (name !== undefined) depNames.add(name);
    deps.push({
      name: name ?? (system ? systemName(pkg.originalId) : `pkg_${pkg.originalId.slice(2, 10)}`),
      address: pkg.originalId,
      modules: pkg.modules.map((m) => m.module),
      publishedAt: pkg.id,
      ...(name !== undefined ? { addressName: name } : {}),
    });
  }
  const manifest = manifestOf(req, depNames, own);
  const { compileMovePackage, MoveCompileError } = await import('@smi/move-compiler').catch(moveCompilerImportFailed);
  const hash = createHash('sha256');
  // The stubs' own declarations (macros, aliases) decide what compiles, as much as the bytecode does.
  hash.update(stubDeclarationsFingerprint());
  hash.update('\0');
  hash.update(manifest);
  hash.update('\0');
  // The source compiled, then the identifiers it stands in for (none: the key stays the same).
  const { source, longNames } = shortenIdentifiers(req.source, req.flavor === 'core' ? otwCandidateNames(req.source) : new Set());
  hash.update(source);
  for (const [standIn, long] of longNames) hash.update(`\0${standIn}=${long}`);
  for (const { pkg, addressName } of req.packages) hash.update(`\0${addressName ?? ''}:${packageHash(pkg)}`);
  const key = hash.digest('hex');
  const cached = readCache(req.cacheDir, key);
  if (cached !== undefined) return compiled(cached);
  let out: CompiledPackage | string;
  try {
    const r = await compileMovePackage({ files: { 'Move.toml': manifest, 'sources/test.move': source }, dependencies: deps, silenceWarnings: true });
    out = { namedAddress: own, modules: r.modules.map((m) => restoreIdentifiers(m, longNames)) };
  } catch (e) {
    if (!(e instanceof MoveCompileError)) throw e;
    out = e.message;
  }
  writeCache(req.cacheDir, key, out);
  return compiled(out);
}

/** Longest identifier the WASM builder's bytecode verifier accepts (`max_move_identifier_len`). */
const MAX_IDENTIFIER_LENGTH = 128;

/**
 * The source with every identifier longer than {@link MAX_IDENTIFIER_LENGTH} (and every one
 * in `alsoStandIn`) replaced by a stand-in (string literals, numbers and comments untouched), and the stand-ins.
 * Upstream's compiler emits such modules and their publish fails at execution
 * (`IDENTIFIER_TOO_LONG`); the WASM builder verifies what it compiles and refuses them.
 */
function shortenIdentifiers(source: string, alsoStandIn: ReadonlySet<string>): { source: string; longNames: Map<string, string> } {
  const longNames = new Map<string, string>();
  const standIn = new Map<string, string>();
  const token = /x"[^"]*"|b"(?:\\.|[^"\\])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[0-9][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*/g;
  const out = source.replace(token, (t) => {
    if ((t.length <= MAX_IDENTIFIER_LENGTH && !alsoStandIn.has(t)) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) return t;
    let s = standIn.get(t);
    if (s === undefined) {
      s = `${t.slice(0, 64)}_smi_long_${standIn.size}`;
      standIn.set(t, s);
      longNames.set(s, t);
    }
    return s;
  });
  return { source: out, longNames };
}

/**
 * Under `--flavor core` upstream compiles without Sui's checks, so a module may hold a
 * one-time-witness candidate (a struct named as the module, upper-cased) that its `init`
 * does not take; the publish then fails in the Sui verifier. The WASM builder verifies what
 * it compiles, so such names compile under stand-ins and are restored in the bytecode.
 */
function otwCandidateNames(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/\bmodule\s+[A-Za-z_0-9]+\s*::\s*([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1].toUpperCase();
    if (new RegExp(`\\b${name}\\b`).test(source)) out.add(name);
  }
  return out;
}

/** A compiled module with its long identifiers back in place of their stand-ins. */
function restoreIdentifiers(m: { name: string; bytes: Uint8Array }, longNames: ReadonlyMap<string, string>): { name: string; bytes: Uint8Array } {
  if (longNames.size === 0) return { name: m.name, bytes: m.bytes };
  const module = deserializeModule(m.bytes);
  if (!module.identifiers.some((id) => longNames.has(id))) return { name: m.name, bytes: m.bytes };
  const identifiers = module.identifiers.map((id) => longNames.get(id) ?? id);
  return { name: longNames.get(m.name) ?? m.name, bytes: serializeModule({ ...module, identifiers }) };
}

function compiled(value: CompiledPackage | string): CompiledPackage {
  if (typeof value !== 'string') return value;
  throw new AdapterError('PARSE_ERROR', `compilation failed: ${value}`);
}

function systemName(id: string): string {
  switch (BigInt(id)) {
    case 1n:
      return 'MoveStdlib';
    case 2n:
      return 'Sui';
    case 3n:
      return 'SuiSystem';
    case 0xbn:
      return 'Bridge';
    default:
      return 'DeepBook';
  }
}

/**
 * What `smi build` and `smi build-all` share: `--dep` parsing, bytecode packages placed at an
 * address, the output directory of a package (bytecode_modules + metadata.json) and the
 * compiler's errors as CLI errors.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, loadPackageDir, type MovePackage, packageFromBytes } from '@smi/bytecode';
import type { BytecodeDependency } from '@smi/move-compiler';
import { UsageError } from '../errors.js';
import { type CliIo, resolveInputPath, writeBinary, writeOutput } from '../io.js';
import { namedFramework } from '../framework.js';

/** A `--dep NAME=DIR[@ADDRESS]`. */
export interface DepOption {
  name: string;
  dir: string;
  address?: string;
}

/** Parse `--dep` values. */
export function parseDeps(io: CliIo, specs: readonly string[]): DepOption[] {
  return specs.map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new UsageError(`--dep ${spec}: expected NAME=DIR or NAME=DIR@ADDRESS`);
    const rest = spec.slice(eq + 1);
    const at = rest.lastIndexOf('@');
    const dir = at > 0 && /^@0x[0-9a-fA-F]+$/.test(rest.slice(at)) ? rest.slice(0, at) : rest;
    const address = dir === rest ? undefined : rest.slice(at + 1);
    if (address !== undefined) {
      try {
        canonicalAddress(address);
      } catch {
        throw new UsageError(`--dep ${spec}: bad address ${address}`);
      }
    }
    return { name: spec.slice(0, eq), dir: resolveInputPath(io, dir), ...(address !== undefined ? { address } : {}) };
  });
}

const ZERO = canonicalAddress('0x0');

/**
 * A bytecode package directory as a dependency named `name`. A package built at 0x0 (`smi
 * build` without `--address`) needs the address it has: `address`, else its metadata.json id.
 */
export function bytecodeDependency(dir: string, name: string, address: string | undefined, relocate: (bytes: Uint8Array, to: string) => Uint8Array): BytecodeDependency {
  let pkg: MovePackage = loadPackageDir(dir);
  if (pkg.originalId === ZERO || (address !== undefined && canonicalAddress(address) !== pkg.originalId)) {
    const to = address ?? (pkg.id !== ZERO ? pkg.id : undefined);
    if (to === undefined) {
      throw new UsageError(`dependency ${name} (${dir}) is at 0x0: give the address it has, as --dep ${name}=${dir}@0x...`, 'DEPENDENCY_AT_ZERO');
    }
    if (pkg.originalId !== ZERO) throw new UsageError(`dependency ${name} (${dir}) is at ${pkg.originalId}, not ${to}`);
    pkg = packageFromBytes(
      pkg.modules.map((m) => relocate(m.bytes, to)),
      { id: to },
    );
  }
  // A package smi built records the named address its modules are declared under.
  let addressName: string | undefined;
  try {
    const meta = JSON.parse(readFileSync(path.join(dir, 'metadata.json'), 'utf8')) as { address_name?: unknown };
    if (typeof meta.address_name === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(meta.address_name)) addressName = meta.address_name;
  } catch {
    // no metadata.json, or not ours
  }
  return {
    name,
    address: pkg.originalId,
    modules: pkg.modules.map((m) => m.module),
    ...(pkg.id !== pkg.originalId ? { publishedAt: pkg.id } : {}),
    ...(addressName !== undefined ? { addressName } : {}),
  };
}

/**
 * Write a built package to `out` in the sui-packages layout: `bytecode_modules/<name>.mv` (modules
 * left there by an earlier build are removed, so they cannot be published by mistake) and
 * `metadata.json` with its id.
 */
export function writePackageDir(io: CliIo, out: string, modules: readonly { name: string; bytes: Uint8Array }[], metadata: Record<string, unknown>): void {
  const dir = path.join(out, 'bytecode_modules');
  const keep = new Set(modules.map((m) => `${m.name}.mv`));
  if (existsSync(dir)) {
    for (const f of readdirSync(dir)) if (f.endsWith('.mv') && !keep.has(f)) rmSync(path.join(dir, f));
  }
  for (const m of modules) writeBinary(io, path.join(dir, `${m.name}.mv`), m.bytes);
  writeOutput(io, path.join(out, 'metadata.json'), JSON.stringify(metadata, null, 2) + '\n');
}

/** The framework bundles (`--framework`, default from the fixtures) as bytecode dependencies of a build. */
export function frameworkDependencies(io: CliIo, framework: string | undefined): BytecodeDependency[] {
  return namedFramework(io, framework).map(({ name, pkg }) => ({
    name,
    address: pkg.originalId,
    ...(pkg.id !== pkg.originalId ? { publishedAt: pkg.id } : {}),
    modules: pkg.modules.map((m) => m.module),
  }));
}

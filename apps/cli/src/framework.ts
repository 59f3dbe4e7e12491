/**
 * Where the CLI finds its data: the framework (`--framework DIR`, `SMI_FRAMEWORK`, the target
 * corpus's own 0x1/0x2, the fixtures of `SMI_FIXTURES` (default `../shared`), the user cache that
 * `smi fetch framework` fills), the protocol configs (the fixtures, else the cache), and the
 * packages of `--corpus <dir>` roots.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { findPackageDirs, loadPackageDir, type MovePackage, SYSTEM_PACKAGES } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { type LocatedFramework, locateFramework, locateProtocolConfig, smiCacheDir } from '@smi/simulation';
import { inputError } from './errors.js';
import { type CliIo, resolveInputPath, resolvePath, UsageError } from './io.js';

/** The fixtures root: `SMI_FIXTURES`, else `../shared`; `undefined` when it does not exist. */
export function fixturesRoot(io: CliIo): string | undefined {
  const root = resolvePath(io, process.env.SMI_FIXTURES ?? '../shared');
  return existsSync(root) ? root : undefined;
}

/** The fixtures root as named (`SMI_FIXTURES`, else `../shared`), whether or not it exists (the suites that only the fixtures hold). */
export function fixturesRootNamed(io: CliIo): string {
  return resolvePath(io, process.env.SMI_FIXTURES ?? '../shared');
}

/** The framework folder of the fixtures (`$SMI_FIXTURES/fixtures/framework`), for the suites that read it there. */
export function defaultFrameworkDir(io: CliIo): string {
  return path.join(fixturesRootNamed(io), 'fixtures', 'framework');
}

/** The user cache (`$XDG_CACHE_HOME/smi`, else `~/.cache/smi`). */
export function cacheRoot(): string {
  return smiCacheDir(process.env);
}

/**
 * The framework a command runs with, found in the documented order: `--framework`,
 * `SMI_FRAMEWORK`, the corpus's own framework packages, the fixtures, the cache.
 */
export function locateFrameworkFor(io: CliIo, framework: string | undefined, corpus: readonly MovePackage[] = [], closureOf?: readonly string[]): LocatedFramework {
  const fixtures = fixturesRoot(io);
  return locateFramework({
    ...(framework !== undefined ? { framework: resolveInputPath(io, framework) } : {}),
    corpus,
    ...(fixtures !== undefined ? { fixtures } : {}),
    ...(closureOf !== undefined ? { closureOf } : {}),
  });
}

/**
 * The framework's packages (see {@link locateFrameworkFor}), without those the corpus brings
 * itself; with `closureOf`, only those system packages and what they name.
 */
export function frameworkPackages(io: CliIo, framework: string | undefined, corpus: readonly MovePackage[] = [], closureOf?: readonly string[]): MovePackage[] {
  const ids = new Set(corpus.map((p) => p.id));
  return locateFrameworkFor(io, framework, corpus, closureOf).packages.filter((p) => !ids.has(p.id));
}

/** The framework with the package names Move.toml files use (`Sui`, `MoveStdlib`, …). */
export function namedFramework(io: CliIo, framework: string | undefined): { name: string; pkg: MovePackage }[] {
  return locateFrameworkFor(io, framework).packages.map((pkg) => ({ name: SYSTEM_PACKAGES.get(pkg.id)?.packageName ?? pkg.id, pkg }));
}

/** The protocol config of `--protocol-version` (default: the highest available), from the fixtures or the cache. */
export function protocolConfigFor(io: CliIo, version: number | undefined): ProtocolConfig {
  try {
    const fixtures = fixturesRoot(io);
    return locateProtocolConfig(version, fixtures !== undefined ? { fixtures } : {});
  } catch (e) {
    throw version === undefined ? e : inputError('--protocol-version', e);
  }
}

/** Every package under each `--corpus` argument (a package directory or a corpus root). */
export function loadCorpora(io: CliIo, roots: readonly string[]): MovePackage[] {
  const out: MovePackage[] = [];
  for (const r of roots) {
    const dir = resolveInputPath(io, r);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--corpus ${r}: not a directory`);
    const dirs = existsSync(path.join(dir, 'bytecode_modules')) ? [dir] : findPackageDirs(dir);
    if (dirs.length === 0) throw new UsageError(`--corpus ${r}: no package directories (bytecode_modules/) found`);
    for (const d of dirs) out.push(loadPackageDir(d));
  }
  return out;
}

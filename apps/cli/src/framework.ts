/**
 * Where the CLI finds its data: the framework (`--framework DIR`, `SMI_FRAMEWORK`, the target
 * corpus's own 0x1/0x2, the fixtures of `SMI_FIXTURES` (default `../shared`), the user cache that
 * `smi fetch framework` fills), the protocol configs (the fixtures, else the cache), and the
 * packages of `--corpus <dir>` roots.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageDirs, loadPackageDir, type MovePackage, SYSTEM_PACKAGES } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { type LocatedFramework, locateFramework, locateProtocolConfig, smiCacheDir } from '@smi/simulation';
import { inputError, noPackages, notADirectory } from './errors.js';
import { type CliIo, resolveInputPath, resolvePath } from './io.js';

/**
 * The checkout this `smi` runs from (the folder with `pnpm-workspace.yaml` above
 * `apps/cli/dist` or `apps/cli/src`), or `undefined` for an installed one.
 */
function checkoutRoot(): string | undefined {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  return existsSync(path.join(root, 'pnpm-workspace.yaml')) ? root : undefined;
}

/**
 * The fixtures root as named: `SMI_FIXTURES` (against the working directory), else `../shared`
 * beside the working directory when there is one, else beside the checkout this `smi` runs
 * from (so a command run from any folder finds the data of its checkout), whether or not it
 * exists (the suites that only the fixtures hold name it in their errors).
 */
export function fixturesRootNamed(io: CliIo): string {
  const env = process.env.SMI_FIXTURES;
  if (env !== undefined && env !== '') return resolvePath(io, env);
  const here = resolvePath(io, '../shared');
  if (existsSync(here)) return here;
  const checkout = checkoutRoot();
  const beside = checkout === undefined ? undefined : path.join(checkout, '..', 'shared');
  return beside !== undefined && existsSync(beside) ? beside : here;
}

/** The fixtures root ({@link fixturesRootNamed}); `undefined` when it does not exist. */
export function fixturesRoot(io: CliIo): string | undefined {
  const root = fixturesRootNamed(io);
  return existsSync(root) ? root : undefined;
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
function locateFrameworkFor(io: CliIo, framework: string | undefined, corpus: readonly MovePackage[] = [], closureOf?: readonly string[]): LocatedFramework {
  const fixtures = fixturesRoot(io);
  if (framework !== undefined) {
    const dir = resolveInputPath(io, framework);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw notADirectory(`--framework ${framework}`);
  }
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
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw notADirectory(`--corpus ${r}`);
    const dirs = existsSync(path.join(dir, 'bytecode_modules')) ? [dir] : findPackageDirs(dir);
    if (dirs.length === 0) throw noPackages(`--corpus ${r}`);
    for (const d of dirs) out.push(loadPackageDir(d));
  }
  return out;
}

/**
 * Where the CLI finds the framework and corpus packages: `$SMI_FIXTURES/fixtures/framework`
 * (SMI_FIXTURES defaults to `../shared`), `--framework <dir>`, and `--corpus <dir>` roots.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { findPackageDirs, loadPackageDir, type MovePackage } from '@smi/bytecode';
import { loadFrameworkDir, SimulationError } from '@smi/simulation';
import { type CliIo, resolveInputPath, resolvePath, UsageError } from './io.js';

/** Default framework directory: `$SMI_FIXTURES/fixtures/framework`. */
export function defaultFrameworkDir(io: CliIo): string {
  return path.join(resolvePath(io, process.env.SMI_FIXTURES ?? '../shared'), 'fixtures', 'framework');
}

/** Load the framework packages from a directory of BCS bundles. */
export function loadFramework(dir: string): { name: string; pkg: MovePackage }[] {
  try {
    return loadFrameworkDir(dir);
  } catch (e) {
    if (e instanceof SimulationError) throw new UsageError(e.message);
    throw e;
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

/**
 * Finding the packages and protocol configs a simulation needs: the framework bundles of
 * `fixtures/framework` (BCS `vector<vector<u8>>` files) and the protocol-config snapshots.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { findPackageDirs, loadBundleFile, loadPackageDir, loadSnapshotFile, type MovePackage, errorMessage } from '@smi/bytecode';
import { availableProtocolVersions, loadProtocolConfig, type ProtocolConfig } from '@smi/move-vm';
import { SimulationEnvironmentError } from './errors.js';

/** Framework bundle files of `fixtures/framework`, with the names Move.toml files use. */
export const FRAMEWORK_BUNDLES: readonly [file: string, name: string][] = [
  ['move-stdlib', 'MoveStdlib'],
  ['sui-framework', 'Sui'],
  ['sui-system', 'SuiSystem'],
  ['bridge', 'Bridge'],
  ['deepbook', 'DeepBook'],
];

/** The framework packages of a directory of bundles (those present), with their names. */
export function loadFrameworkDir(dir: string): { name: string; pkg: MovePackage }[] {
  if (!existsSync(dir)) throw new SimulationEnvironmentError('MISSING_FIXTURES', `framework directory ${dir} not found (set SMI_FIXTURES or pass the framework)`, { path: dir });
  const out = FRAMEWORK_BUNDLES.filter(([f]) => existsSync(path.join(dir, f))).map(([f, name]) => ({ name, pkg: loadBundleFile(path.join(dir, f)) }));
  if (out.length === 0) throw new SimulationEnvironmentError('MISSING_FIXTURES', `${dir} holds no framework bundle (${FRAMEWORK_BUNDLES.map(([f]) => f).join(', ')})`, { path: dir });
  return out;
}

/**
 * The framework as it was at `protocolVersion`: the snapshot of the highest version at or
 * below it in `fixtures/framework-snapshots/<version>/<0xaddr>` (the framework only changes
 * at some versions), or `undefined` when there is none.
 */
export function frameworkSnapshotFor(root: string, protocolVersion: number): { version: number; packages: MovePackage[] } | undefined {
  const dir = path.join(root, 'fixtures', 'framework-snapshots');
  if (!existsSync(dir)) return undefined;
  const versions = readdirSync(dir)
    .filter((v) => /^[0-9]+$/.test(v))
    .map(Number)
    .filter((v) => v <= protocolVersion)
    .sort((a, b) => a - b);
  const v = versions[versions.length - 1];
  if (v === undefined) return undefined;
  const files = readdirSync(path.join(dir, String(v)))
    .filter((f) => f.startsWith('0x'))
    .sort();
  return { version: v, packages: files.map((f) => loadSnapshotFile(path.join(dir, String(v), f))) };
}

/**
 * Framework packages and a protocol config from a fixtures root (`$SMI_FIXTURES`). The
 * latest protocol version gets the latest compiled framework (`fixtures/framework`); an
 * older one gets the framework of its time (`fixtures/framework-snapshots`), since the
 * latest framework calls natives whose costs older configs do not define.
 */
export function fromFixtures(root: string, protocolVersion?: number): { packages: MovePackage[]; protocolConfig: ProtocolConfig } {
  let protocolConfig: ProtocolConfig;
  try {
    protocolConfig = loadProtocolConfig(root, protocolVersion);
  } catch (e) {
    throw new SimulationEnvironmentError('MISSING_FIXTURES', errorMessage(e), { path: root });
  }
  const latest = availableProtocolVersions(root).at(-1);
  if (protocolConfig.version !== latest) {
    const snap = frameworkSnapshotFor(root, protocolConfig.version);
    if (snap === undefined) {
      throw new SimulationEnvironmentError('MISSING_FIXTURES', `no framework snapshot at or below protocol ${protocolConfig.version} in ${root}/fixtures/framework-snapshots`, { path: root });
    }
    return { packages: snap.packages, protocolConfig };
  }
  const bundles = loadFrameworkDir(path.join(root, 'fixtures', 'framework'));
  if (!bundles.some((p) => p.name === 'Sui')) throw new SimulationEnvironmentError('MISSING_FIXTURES', `${root}/fixtures/framework has no sui-framework bundle`, { path: root });
  return { packages: bundles.map((p) => p.pkg), protocolConfig };
}

/**
 * Every package of a corpus in the sui-packages layout (`<id>/bytecode_modules/*.mv`,
 * `metadata.json`, `bcs.json`), or of one package directory.
 */
export function loadCorpus(root: string): MovePackage[] {
  if (!existsSync(root)) throw new SimulationEnvironmentError('MISSING_FIXTURES', `corpus ${root} not found`, { path: root });
  const dirs = existsSync(path.join(root, 'bytecode_modules')) ? [root] : findPackageDirs(root);
  if (dirs.length === 0) throw new SimulationEnvironmentError('MISSING_FIXTURES', `${root} holds no package directories (bytecode_modules/)`, { path: root });
  return dirs.map((d) => loadPackageDir(d));
}

/**
 * Base packages for an environment: the framework, then corpus packages (a corpus package
 * with a framework id replaces the framework's).
 */
export function mergePackages(framework: readonly MovePackage[], corpus: readonly MovePackage[]): MovePackage[] {
  const ids = new Set(corpus.map((p) => p.id));
  return [...framework.filter((p) => !ids.has(p.id)), ...corpus];
}

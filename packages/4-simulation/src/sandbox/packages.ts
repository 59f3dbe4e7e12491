/**
 * Packages through the sandbox: `load_module` (bytecode from disk: modules at 0x0 are
 * published with a real `Publish`, so `init` runs; modules at their own address are loaded
 * as they are) and `compile_move` (Move source compiled offline, then published).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, deserializeModule, loadPackageDir, moduleAddress, type MovePackage, packageFromBytes, errorMessage } from '@smi/bytecode';
import type { Json } from '@smi/move-vm';
import { compileAndPublish } from '../compile.js';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import { SandboxError } from './errors.js';
import { fail, ok, type SandboxResponse } from './protocol.js';
import { RequestError, type RequestOf } from './request.js';

const ZERO = canonicalAddress('0x0');

function readModuleFiles(dir: string): { name: string; bytes: Uint8Array }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mv'))
    .sort()
    .map((f) => ({ name: f.slice(0, -3), bytes: new Uint8Array(readFileSync(path.join(dir, f))) }));
}

/** The modules at `where`: a `.mv` file, a directory of them, or a sui-packages directory. */
function modulesAt(where: string, filter: string | undefined): { files: { name: string; bytes: Uint8Array }[]; pkgDir: MovePackage | null } {
  if (!existsSync(where)) throw new SandboxError('DeploymentError', `bytecode_path ${where} does not exist`);
  if (statSync(where).isFile()) return { files: [{ name: path.basename(where).replace(/\.mv$/, ''), bytes: new Uint8Array(readFileSync(where)) }], pkgDir: null };
  let files = readModuleFiles(where);
  let pkgDir: MovePackage | null = null;
  if (files.length === 0 && (existsSync(path.join(where, 'bytecode_modules')) || existsSync(path.join(where, 'bcs.json')))) {
    // The sui-packages layout keeps the package id, linkage and type origins.
    pkgDir = loadPackageDir(where);
    files = pkgDir.modules.map((m) => ({ name: m.name, bytes: m.bytes }));
  }
  if (filter !== undefined) {
    files = files.filter((f) => f.name.includes(filter));
    pkgDir = null;
  }
  if (files.length === 0) throw new SandboxError('DeploymentError', `no .mv modules at ${where}${filter !== undefined ? ` matching "${filter}"` : ''}`);
  return { files, pkgDir };
}

/** `load_module`. */
export function loadModule(env: SimulationEnvironment, cwd: string, req: RequestOf<'load_module'>): Json {
  const where = path.resolve(cwd, req.bytecode_path);
  const { files, pkgDir } = modulesAt(where, req.module_name);
  const decoded = files.map((f) => {
    try {
      return deserializeModule(f.bytes);
    } catch (e) {
      throw new SimulationEnvironmentError('DEPLOYMENT_ERROR', `${f.name}: ${errorMessage(e)}`);
    }
  });
  const names = files.map((f) => f.name);
  if (decoded.every((m) => moduleAddress(m) === ZERO)) {
    const out = env.publish(files.map((f) => f.bytes));
    return { package_address: out.packageId, modules_loaded: names.length, module_names: names, published: true, upgrade_cap_id: out.upgradeCapId };
  }
  const pkg = pkgDir ?? packageFromBytes(files.map((f) => f.bytes));
  env.loadPackage(pkg);
  return { package_address: pkg.id, modules_loaded: names.length, module_names: names, published: false };
}

/** `compile_move`: compile one module (plus `extra_sources`) offline and publish it. */
export async function compileMove(env: SimulationEnvironment, req: RequestOf<'compile_move'>): Promise<SandboxResponse> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(req.module_name)) throw new RequestError(`module_name "${req.module_name}" is not a Move identifier`);
  const files: Record<string, string> = { [`sources/${req.module_name}.move`]: req.source };
  for (const [name, text] of Object.entries(req.extra_sources ?? {})) {
    if (!/^[A-Za-z0-9_-]+(\.move)?$/.test(name)) throw new RequestError(`extra_sources: "${name}" is not a plain file name`);
    files[`sources/${name.endsWith('.move') ? name : `${name}.move`}`] = text;
  }
  try {
    const out = await compileAndPublish(env, { files, packageName: req.package_name });
    const pkg = env.vm.packageById(out.packageId);
    const modules = out.modules.map((m) => {
      const bytes = pkg?.modules.find((x) => x.name === m.name)?.bytes;
      return { name: m.name, bytecode_base64: bytes === undefined ? '' : Buffer.from(bytes).toString('base64'), size_bytes: m.size };
    });
    return ok({
      success: true,
      compiled: true,
      deployed: true,
      package_id: out.packageId,
      upgrade_cap_id: out.upgradeCapId,
      created: out.created.map((c) => ({ id: c.id, type: c.type })),
      modules,
      diagnostics: out.warnings ?? '',
    });
  } catch (e) {
    if (e instanceof SimulationEnvironmentError && e.code === 'COMPILATION_ERROR') {
      return fail(e.message, 'CompilationError', {
        data: { success: false, compiled: false, deployed: false, diagnostics: e.details.diagnostics ?? e.message },
      });
    }
    throw e;
  }
}

/**
 * `compile_and_publish`: Move source compiled offline (the Sui compiler in WASM, against
 * stubs of the loaded packages) and published in the session with a real `Publish`, so its
 * `init` functions run. A compile error is a tool error with the compiler's diagnostics.
 *
 * The compiler is offered every loaded package whose own dependencies are all loaded
 * (`compilablePackages` of @smi/simulation, the default of `compileAndPublish`).
 */
import { compileAndPublish as compile, SimulationEnvironmentError, type SimulationEnvironmentErrorCode } from '@smi/simulation';
import { z } from 'zod';
import { SmiToolError, type SmiToolErrorCode } from '../errors.js';
import type { JsonObject } from '../results.js';
import type { SmiSession } from '../session.js';
import { defineTool, type SmiTool } from '../tool.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The `<address name>::<module>` of the first module declared in `source`, if any. */
function declaredModule(source: string): { address: string; module: string } | null {
  const m = /\bmodule\s+([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)/.exec(source.replace(/\/\/[^\n]*/g, ''));
  return m === null ? null : { address: m[1], module: m[2] };
}

const SIMULATION_CODES: Partial<Record<SimulationEnvironmentErrorCode, SmiToolErrorCode>> = {
  COMPILATION_ERROR: 'COMPILATION_ERROR',
  DEPLOYMENT_ERROR: 'DEPLOYMENT_ERROR',
  MISSING_PACKAGE: 'MISSING_PACKAGE',
  INVALID_REQUEST: 'INVALID_INPUT',
  TYPE_MISMATCH: 'TYPE_MISMATCH',
  OBJECT_CREATION_ERROR: 'OBJECT_CREATION_ERROR',
};

/** The package's files: the main source under its module's name, then the extra sources. */
function sourceFiles(moduleName: string, source: string, extra: Readonly<Record<string, string>>): Record<string, string> {
  const files: Record<string, string> = { [`sources/${moduleName}.move`]: source };
  for (const [name, text] of Object.entries(extra)) {
    if (!/^[A-Za-z0-9_-]+(\.move)?$/.test(name)) throw new SmiToolError('INVALID_INPUT', `extra_sources: "${name}" is not a plain file name`);
    files[`sources/${name.endsWith('.move') ? name : `${name}.move`}`] = text;
  }
  return files;
}

async function publish(session: SmiSession, packageName: string, files: Record<string, string>): Promise<JsonObject> {
  try {
    const out = await compile(session.sandbox.env, { files, packageName });
    const result: JsonObject = {
      package_id: out.packageId,
      upgrade_cap_id: out.upgradeCapId,
      modules: out.modules.map((m) => ({ name: m.name, size_bytes: m.size })),
      created: out.created.map((c) => ({ id: c.id, type: c.type })),
    };
    if (out.warnings !== undefined && out.warnings.trim() !== '') result.compiler_warnings = out.warnings;
    return result;
  } catch (e) {
    if (!(e instanceof SimulationEnvironmentError)) throw e;
    const diagnostics = e.details.diagnostics;
    throw new SmiToolError(SIMULATION_CODES[e.code] ?? 'EXECUTION_ERROR', e.message, diagnostics === undefined ? { cause: e } : { diagnostics, cause: e });
  }
}

export const compileAndPublish: SmiTool = defineTool({
  name: 'compile_and_publish',
  title: 'Compile and publish Move source',
  description:
    'Compile a Move package (Move 2024) offline and publish it in this session: its init functions run, the sender gets the UpgradeCap. ' +
    'Declare modules as `module <package_name>::<module_name>;` (e.g. `module demo::counter;`). The framework is there as std:: and sui:: ' +
    '(sui::object, sui::transfer, sui::coin, ... with the usual implicit imports); other loaded packages are reachable by full address ' +
    '(0x…::module::function). Answers the new package id, its modules and the objects init created; a compile error is a ' +
    "COMPILATION_ERROR with the compiler's diagnostics.",
  input: {
    source: z.string().min(1).describe('Move source of the main module'),
    module_name: z.string().regex(IDENTIFIER).optional().describe('Its module name (default: read from the source)'),
    package_name: z.string().regex(IDENTIFIER).optional().describe("Package (and address) name (default: read from the source's `module <name>::…`)"),
    extra_sources: z.record(z.string(), z.string()).default({}).describe('Further source files of the package, by file name ("util.move": "module demo::util; ...")'),
  },
  mutates: true,
  run: async (session, args) => {
    const declared = declaredModule(args.source);
    const packageName = args.package_name ?? declared?.address;
    const moduleName = args.module_name ?? declared?.module;
    if (packageName === undefined || moduleName === undefined) {
      throw new SmiToolError('INVALID_INPUT', 'the source declares no `module <package>::<module>`: give package_name and module_name');
    }
    return publish(session, packageName, sourceFiles(moduleName, args.source, args.extra_sources));
  },
});

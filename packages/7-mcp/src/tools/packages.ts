/**
 * Reading the loaded packages: `list_packages`, `list_modules`, `list_functions`,
 * `list_structs` (the sandbox's introspection, with each member described) and
 * `get_interface` (the bytecode interface JSON of `smi extract`, of a package or a module).
 */
import { buildInterfaceJson } from '@smi/bytecode';
import { z } from 'zod';
import { SmiToolError } from '../errors.js';
import { isJsonObject, type Json, type JsonObject, sandboxData, toJson, toJsonObject } from '../results.js';
import { address, moduleName, modulePathArg } from '../schemas.js';
import { defineTool, type SmiTool } from '../tool.js';

function names(data: JsonObject, key: string): string[] {
  const v = data[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export const listPackages: SmiTool = defineTool({
  name: 'list_packages',
  title: 'List packages',
  description:
    'Every package loaded in this session: the framework (0x1 std, 0x2 sui, 0x3 sui_system, ...), the corpus given at start, and packages published here ' +
    '(compile_and_publish). Each with its storage id, original id, version, origin and module names.',
  input: {
    include_framework: z.boolean().default(true).describe('Include the framework packages (default true)'),
  },
  mutates: false,
  run: (session, args) => {
    const packages = session
      .packages()
      .filter((p) => args.include_framework || session.originOf(p.id) !== 'framework')
      .map((p) => ({
        id: p.id,
        original_id: p.originalId,
        version: p.version,
        origin: session.originOf(p.id),
        modules: p.modules.map((m) => m.name),
      }));
    return { packages, count: packages.length };
  },
});

export const listModules: SmiTool = defineTool({
  name: 'list_modules',
  title: 'List modules',
  description: 'The modules of one package (or of every loaded package), as "0x…::module" paths.',
  input: { package: address('Package id; left out: every package').optional() },
  mutates: false,
  run: async (session, args) => {
    const pkg = args.package === undefined ? undefined : session.packageAt(args.package).id;
    return sandboxData(await session.request({ action: 'list_modules', ...(pkg === undefined ? {} : { package: pkg }) }));
  },
});

export const listFunctions: SmiTool = defineTool({
  name: 'list_functions',
  title: 'List functions',
  description:
    'The functions of a module with their signatures: visibility, is_entry, type parameters (with constraints), parameter and return types ' +
    '(full addresses; type parameters as T0, T1, …). Public and entry functions can be called with call_function or in a PTB.',
  input: {
    module_path: modulePathArg,
    callable_only: z.boolean().default(false).describe('Only public and entry functions (default false: all, private ones included)'),
  },
  mutates: false,
  run: async (session, args) => {
    const path = session.modulePath(args.module_path);
    const listed = sandboxData(await session.request({ action: 'list_functions', module_path: path }));
    const functions: Json[] = [];
    for (const name of names(listed, 'functions')) {
      const info = sandboxData(await session.request({ action: 'get_function_info', module_path: path, function_name: name }));
      if (args.callable_only && info.visibility !== 'public' && info.is_entry !== true) continue;
      const { path: _path, package: _package, module: _module, ...rest } = info;
      functions.push(rest);
    }
    return { module: path, functions, count: functions.length };
  },
});

export const listStructs: SmiTool = defineTool({
  name: 'list_structs',
  title: 'List structs',
  description:
    'The structs of a module: abilities (a struct with key is an object type), type parameters and fields with their types. ' +
    'find_constructors (or sandbox_request) tells which functions build one.',
  input: { module_path: modulePathArg },
  mutates: false,
  run: async (session, args) => {
    const path = session.modulePath(args.module_path);
    const listed = sandboxData(await session.request({ action: 'list_structs', module_path: path }));
    const structs: Json[] = [];
    for (const name of names(listed, 'structs')) {
      const info = sandboxData(await session.request({ action: 'get_struct_info', type_path: `${path}::${name}` }));
      const fields = Array.isArray(info.fields) ? info.fields.filter(isJsonObject).map((f) => ({ name: f.name ?? null, type: f.type_str ?? null })) : [];
      structs.push({ name, abilities: info.abilities ?? [], is_object: info.is_object ?? false, type_params: info.type_params ?? [], fields });
    }
    return { module: path, structs, count: structs.length };
  },
});

export const getInterface: SmiTool = defineTool({
  name: 'get_interface',
  title: 'Get the bytecode interface',
  description:
    'The bytecode interface JSON of a package, as `smi extract` writes it (schema_version 1: per module its structs, enums, functions with ' +
    'visibility, parameters and returns as {"kind": …} types, constants, friends), or of one module. A whole framework package is large: ask for a module.',
  input: { package: address('Package id'), module: moduleName.optional().describe('Only this module (recommended for large packages)') },
  mutates: false,
  run: (session, args) => {
    const pkg = session.packageAt(args.package);
    const iface = buildInterfaceJson({ packageId: pkg.id, modules: pkg.modules.map((m) => m.module) });
    if (args.module === undefined) return toJsonObject(iface);
    const module = iface.modules[args.module];
    if (module === undefined) throw new SmiToolError('MISSING_PACKAGE', `module ${pkg.id}::${args.module} does not exist (modules: ${iface.module_names.join(', ')})`);
    return { schema_version: iface.schema_version, package_id: pkg.id, module: args.module, interface: toJson(module) };
  },
});

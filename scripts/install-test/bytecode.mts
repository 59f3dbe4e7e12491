// @smi/bytecode: read a module of a corpus package from its .mv file, write it back byte for
// byte, disassemble a function and build the package's interface JSON.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildInterfaceJson, deserializeModule, disassembleFunction, functionName, loadPackageDir, moduleName, serializeModule, type CompiledModule } from '@smi/bytecode';
import { check, done, fixture, ORACLE_ID } from './fixtures.mjs';

const dir = fixture('corpus', ORACLE_ID, 'bytecode_modules');
const file = readdirSync(dir)
  .filter((f) => f.endsWith('.mv'))
  .sort()[0];
check(file !== undefined, `a .mv file in ${dir}`);
const bytes = new Uint8Array(readFileSync(path.join(dir, file)));
const module: CompiledModule = deserializeModule(bytes);
const again = serializeModule(module);
check(Buffer.from(again).equals(Buffer.from(bytes)), 'serializeModule gives the same bytes back');
const first = module.functionDefs[0];
check(first !== undefined, 'the module defines a function');
const handle = module.functionHandles[first.function];
check(handle !== undefined, 'the function has a handle');
const fn = functionName(module, handle);
const text = disassembleFunction(module, fn);
check(text.includes(fn), 'the disassembly names the function');

const pkg = loadPackageDir(fixture('corpus', ORACLE_ID));
const iface = buildInterfaceJson({ packageId: pkg.id, modules: pkg.modules.map((m) => m.module) });
done(`${moduleName(module)}.mv: ${bytes.length} bytes, ${module.functionDefs.length} functions, round trip identical; interface of ${Object.keys(iface.modules).length} modules`);

// @smi/move-compiler: compile a tiny Move package offline against the framework's bytecode,
// and see a type error come back as a typed error.
import { deserializeModule, loadBundleFile, moduleName } from '@smi/bytecode';
import { compileMovePackage, isMoveCompileError, type BytecodeDependency } from '@smi/move-compiler';
import { check, done, fixture } from './fixtures.mjs';

function dependency(file: string, name: string): BytecodeDependency {
  const pkg = loadBundleFile(fixture('fixtures', 'framework', file));
  return { name, address: pkg.originalId, modules: pkg.modules.map((m) => m.module) };
}

const dependencies = [dependency('move-stdlib', 'MoveStdlib'), dependency('sui-framework', 'Sui')];
const manifest = '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n';
const out = await compileMovePackage({
  files: { 'Move.toml': manifest, 'sources/demo.move': 'module demo::demo;\npublic fun larger(a: u64, b: u64): u64 { a.max(b) }\n' },
  dependencies,
});
const [demo] = out.modules;
check(out.modules.length === 1 && demo !== undefined && demo.name === 'demo', 'one module, demo');
check(moduleName(deserializeModule(demo.bytes)) === 'demo', 'the module deserializes');

let code = '';
try {
  await compileMovePackage({ files: { 'Move.toml': manifest, 'sources/demo.move': 'module demo::demo;\npublic fun f(): u64 { true }\n' }, dependencies });
} catch (e) {
  if (!isMoveCompileError(e)) throw e;
  code = e.code;
}
check(code === 'COMPILATION_ERROR', `a type error is COMPILATION_ERROR (got "${code}")`);
done(`compiled demo (${demo.bytes.length} bytes); a type error is ${code}`);

// Compile a small Move package offline against the framework's bytecode, then print its
// modules and their sizes. Run after `pnpm build`:
//   node packages/1-move-compiler/examples/compile-package.mjs [framework dir]
// (default $SMI_FIXTURES/fixtures/framework, SMI_FIXTURES defaulting to ../shared)
import path from 'node:path';
import { deserializeModule, disassembleFunction, loadBundleFile } from '@smi/bytecode';
import { compileMovePackage, isMoveCompileError, moveCompilerVersion } from '@smi/move-compiler';

const framework = process.argv[2] ?? path.join(process.env.SMI_FIXTURES ?? '../shared', 'fixtures', 'framework');
const dependency = (file, name) => {
  const pkg = loadBundleFile(path.join(framework, file));
  return { name, address: pkg.originalId, modules: pkg.modules.map((m) => m.module) };
};

const files = {
  'Move.toml': '[package]\nname = "counter"\nedition = "2024"\n\n[addresses]\ncounter = "0x0"\n',
  'sources/counter.move': `module counter::counter;

public struct Counter has key { id: UID, value: u64 }

public fun create(ctx: &mut TxContext) {
    transfer::share_object(Counter { id: object::new(ctx), value: 0 })
}

public fun bump(c: &mut Counter, by: u64) {
    c.value = c.value + by.min(std::u64::max_value!() - c.value)
}
`,
};

const dependencies = [dependency('move-stdlib', 'MoveStdlib'), dependency('sui-framework', 'Sui')];
console.log(`compiler ${await moveCompilerVersion()}`);
const out = await compileMovePackage({ files, dependencies });
for (const m of out.modules) console.log(`module ${m.name}: ${m.bytes.length} bytes`);
console.log(disassembleFunction(deserializeModule(out.modules[0].bytes), 'bump'));

try {
  await compileMovePackage({ files: { ...files, 'sources/counter.move': 'module counter::counter;\npublic fun f(): u64 { true }\n' }, dependencies });
} catch (e) {
  if (!isMoveCompileError(e)) throw e;
  console.log(`a type error is ${e.code}: ${e.message}`);
}

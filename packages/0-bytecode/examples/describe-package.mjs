// Describe a package from its bytecode alone: modules, key structs, one function's
// disassembly, and the interface JSON. Run after `pnpm build`:
//   node packages/0-bytecode/examples/describe-package.mjs ../shared/corpus/0x000…0002 coin split
import { buildInterfaceJson, disassembleFunction, interfaceSanity, loadPackageDir, renderInterfaceJson } from '@smi/bytecode';

const [dir, moduleName = undefined, functionName = undefined] = process.argv.slice(2);
if (!dir) {
  console.error('usage: describe-package.mjs <package dir> [module] [function]');
  process.exit(2);
}

const pkg = loadPackageDir(dir);
console.log(`package ${pkg.id} (original id ${pkg.originalId}), ${pkg.modules.length} modules`);

const iface = buildInterfaceJson({ packageId: pkg.id, modules: pkg.modules.map((m) => m.module) });
console.log('sanity:', interfaceSanity(iface));
for (const [name, mod] of Object.entries(iface.modules)) {
  const keyStructs = Object.entries(mod.structs).filter(([, s]) => s.abilities.includes('key'));
  if (keyStructs.length > 0) console.log(`  ${name}: key structs ${keyStructs.map(([n]) => n).join(', ')}`);
}

if (moduleName && functionName) {
  const m = pkg.modules.find((x) => x.name === moduleName);
  if (!m) throw new Error(`no module ${moduleName}`);
  console.log(disassembleFunction(m.module, functionName));
}

console.log(renderInterfaceJson(iface).slice(0, 400) + '…');

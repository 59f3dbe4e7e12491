/**
 * The framework's source-only declarations in its stubs: every alias, index function,
 * primitive and public macro of the upstream sources (the derived table) is declared for
 * the framework we hold. That the stubs compile (the framework's, and older frameworks' with
 * the subset their bytecode supports) is checked in @smi/move-compiler.
 */
import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress } from '../src/index.js';
import { GENERATED_FRAMEWORK_EXTRAS } from '../src/framework-extras.generated.js';
import { frameworkMacroModules, frameworkMacros } from '../src/stub-macros.js';
import { loadBundleFile } from '../src/package-loader.js';
import { generateMoveStubs, SYSTEM_PACKAGES } from '../src/stubs.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const FILES: Record<string, string> = { '0x1': 'move-stdlib', '0x2': 'sui-framework', '0x3': 'sui-system', '0xb': 'bridge', '0xdee9': 'deepbook' };

function modulesOf(address: string) {
  return loadBundleFile(fixturePath('fixtures', 'framework', FILES[address])).modules.map((m) => m.module);
}

function stubsOf(address: string): Map<string, string> {
  const others = Object.keys(FILES)
    .filter((a) => a !== address)
    .map(modulesOf);
  return generateMoveStubs(modulesOf(address), { addressName: SYSTEM_PACKAGES.get(canonicalAddress(address))?.addressName, packages: others });
}

it('our macro declarations cover exactly the public macros of the upstream sources', () => {
  const upstream = Object.entries(GENERATED_FRAMEWORK_EXTRAS)
    .filter(([, e]) => e.publicMacros)
    .map(([key]) => key)
    .sort();
  expect(frameworkMacroModules().sort()).toEqual(upstream);
  for (const key of upstream) {
    const [address, module] = key.split('::');
    const ours = [...new Set(frameworkMacros(address, module).map((d) => d.name))].sort();
    expect(ours, key).toEqual([...(GENERATED_FRAMEWORK_EXTRAS[key].publicMacros ?? [])].sort());
  }
});

describeWithFixtures('stubs of the framework we hold declare what its sources declare', ['fixtures', 'framework'], () => {
  const stubs = new Map<string, Map<string, string>>();
  beforeAll(() => {
    for (const address of Object.keys(FILES)) stubs.set(address, stubsOf(address));
  });

  it('every alias, index function, primitive and public macro of the derived table', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [key, extras] of Object.entries(GENERATED_FRAMEWORK_EXTRAS)) {
      const [address, module] = key.split('::');
      const text = stubs.get(address)?.get(`sources/${module}.move`);
      if (text === undefined) {
        missing.push(`${key}: no such module in the bytecode`);
        continue;
      }
      const has = (what: string, ok: boolean) => {
        checked++;
        if (!ok) missing.push(`${key}: ${what}`);
      };
      if (extras.definesPrimitive) has(`defines_primitive(${extras.definesPrimitive})`, text.includes(`#[defines_primitive(${extras.definesPrimitive})]`));
      for (const f of extras.indexFunctions ?? []) has(`#[syntax(index)] ${f}`, new RegExp(`#\\[syntax\\(index\\)\\]\\n\\s+public fun ${f}<`).test(text));
      for (const [, type, method] of extras.methodAliases ?? []) has(`alias ${type}.${method}`, text.includes(` as ${type}.${method};`));
      for (const m of extras.publicMacros ?? []) has(`macro ${m}!`, new RegExp(`public macro fun ${m}[<(]`).test(text));
    }
    // Only aliases of package-private functions (`accumulator::root_id`, ...) cannot be offered:
    // no other package could call them anyway.
    const notPublic = Object.entries(GENERATED_FRAMEWORK_EXTRAS).flatMap(([key, extras]) => {
      const [address, module] = key.split('::');
      return (extras.methodAliases ?? [])
        .filter(([fn]) => {
          const [mod, name] = fn.includes('::') ? fn.split('::') : [module, fn];
          const text = stubs.get(address)?.get(`sources/${mod}.move`) ?? '';
          return !new RegExp(`public (entry )?fun ${name}[<(]|public macro fun ${name}[<(]`).test(text);
        })
        .map(([, type, method]) => `${key}: alias ${type}.${method}`);
    });
    expect(notPublic.length).toBeGreaterThan(0);
    expect(missing).toEqual(notPublic);
    expect(checked).toBeGreaterThan(200);
  });
});

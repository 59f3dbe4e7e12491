/**
 * The framework's stubs, with every source-only declaration (aliases, index functions,
 * primitives, public macros), compile; older frameworks get the subset their bytecode
 * supports and still compile.
 */
import { readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { canonicalAddress, generateMoveStubs, loadBundleFile, loadSnapshotFile, moduleName, SYSTEM_PACKAGES } from '@smi/bytecode';
import { compileMovePackage, initMoveCompiler, type BytecodeDependency } from '../src/index.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const FILES: Record<string, string> = { '0x1': 'move-stdlib', '0x2': 'sui-framework', '0x3': 'sui-system', '0xb': 'bridge', '0xdee9': 'deepbook' };

describeWithFixtures('stubs of the framework we hold', ['fixtures', 'framework'], () => {
  it('the stubs of every framework package compile with all their declarations', async () => {
    await initMoveCompiler();
    const deps: BytecodeDependency[] = Object.entries(FILES).map(([address, file]) => {
      const pkg = loadBundleFile(fixturePath('fixtures', 'framework', file));
      return { name: SYSTEM_PACKAGES.get(canonicalAddress(address))!.packageName, address: pkg.originalId, modules: pkg.modules.map((m) => m.module) };
    });
    const source = `module demo::all;
public fun f(_s: &sui_system::sui_system::SuiSystemState, _b: &bridge::bridge::Bridge, _p: &deepbook::clob_v2::Pool<sui::sui::SUI, sui::sui::SUI>): u64 {
    vector[1u64, 2].fold!(0, |a, x| a + x)
}
`;
    const manifest = '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n';
    const out = await compileMovePackage({ files: { 'Move.toml': manifest, 'sources/all.move': source }, dependencies: deps });
    expect(out.modules.map((m) => m.name)).toEqual(['all']);
  }, 60_000);
});

describeWithFixtures('stubs of older frameworks', ['fixtures', 'framework-snapshots'], () => {
  it('declare only what their bytecode supports, and compile (oldest and a middle protocol version)', async () => {
    await initMoveCompiler();
    const versions = readdirSync(fixturePath('fixtures', 'framework-snapshots'))
      .map(Number)
      .sort((a, b) => a - b);
    for (const version of [versions[0], versions[Math.floor(versions.length / 2)]]) {
      const deps: BytecodeDependency[] = ['0x1', '0x2'].map((a) => {
        const pkg = loadSnapshotFile(fixturePath('fixtures', 'framework-snapshots', String(version), canonicalAddress(a)));
        return { name: a === '0x1' ? 'MoveStdlib' : 'Sui', address: pkg.originalId, modules: pkg.modules.map((m) => m.module) };
      });
      const names = deps[0].modules.map(moduleName);
      const std = generateMoveStubs(deps[0].modules, { addressName: 'std' });
      // Frameworks before the `macros` module get no integer loops, nor the vector macros built on them.
      if (!names.includes('macros')) {
        expect(std.get('sources/u64.move') ?? '').not.toMatch(/macro fun do</);
        expect(std.get('sources/vector.move') ?? '').not.toMatch(/macro fun (do|tabulate|map)</);
      }
      const source = `module demo::old;\npublic fun f(v: &vector<u64>): u64 { v.length() }\npublic fun g(c: &sui::coin::Coin<sui::sui::SUI>): u64 { c.value() }\n`;
      const manifest = '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n';
      const out = await compileMovePackage({ files: { 'Move.toml': manifest, 'sources/old.move': source }, dependencies: deps });
      expect(
        out.modules.map((m) => m.name),
        `protocol ${version}`,
      ).toEqual(['old']);
    }
  }, 120_000);
});

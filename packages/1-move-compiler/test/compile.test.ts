/**
 * Offline compilation of Move source against stubs generated from real bytecode.
 *
 * The WASM compiler is loaded once per test file (about 0.1 s); a compile against the
 * full framework stubs takes about 0.3 to 1 s.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  canonicalAddress,
  deserializeModule,
  formatToken,
  moduleAddress,
  moduleHandleId,
  generateMoveStubs,
  generateStubManifest,
  loadBundleFile,
  loadPackageDir,
  moduleName,
  moveSourceIdentifier,
  stubPackageNames,
  type CompiledModule,
} from '@smi/bytecode';
import { compileMovePackage, isMoveCompileError, initMoveCompiler, moveCompilerVersion, MoveCompileError, type BytecodeDependency } from '../src/index.js';
import { addDependencies, declaredDependencies } from '../src/manifest.js';
import { normalizeRelativePath, relativePath } from '../src/dependencies.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const FRAMEWORK: [file: string, name: string][] = [
  ['move-stdlib', 'MoveStdlib'],
  ['sui-framework', 'Sui'],
  ['sui-system', 'SuiSystem'],
  ['bridge', 'Bridge'],
  ['deepbook', 'DeepBook'],
];

function frameworkDependency(file: string, name: string): BytecodeDependency {
  const pkg = loadBundleFile(fixturePath('fixtures', 'framework', file));
  return { name, address: pkg.originalId, modules: pkg.modules.map((m) => m.module) };
}

function manifest(extra = ''): string {
  return `[package]\nname = "demo"\nedition = "2024"\n${extra}\n[addresses]\ndemo = "0x0"\n`;
}

/** Every function and datatype a compiled module uses from another package exists, identically, in the real bytecode. */
function linkErrors(compiled: CompiledModule, real: ReadonlyMap<string, CompiledModule>): string[] {
  const errors: string[] = [];
  const fmt = (m: CompiledModule, sig: number) => m.signatures[sig].map((t) => formatToken(m, t, { fullAddresses: true })).join(', ');
  const target = (handle: { module: number }) => {
    const id = moduleHandleId(compiled, handle.module);
    return { key: `${id.address}::${id.name}`, module: real.get(`${id.address}::${id.name}`), self: handle.module === compiled.selfModuleHandleIndex };
  };
  for (const h of compiled.functionHandles) {
    const { key, module, self } = target(h);
    if (self) continue;
    const name = compiled.identifiers[h.name];
    const def = module?.functionDefs.find((d) => module.identifiers[module.functionHandles[d.function].name] === name);
    if (!module || !def) {
      errors.push(`missing function ${key}::${name}`);
      continue;
    }
    const rh = module.functionHandles[def.function];
    if (def.visibility !== 'Public') errors.push(`${key}::${name} is not public`);
    if (fmt(compiled, h.parameters) !== fmt(module, rh.parameters)) errors.push(`${key}::${name}: parameters differ`);
    if (fmt(compiled, h.return) !== fmt(module, rh.return)) errors.push(`${key}::${name}: returns differ`);
    if (JSON.stringify(h.typeParameters) !== JSON.stringify(rh.typeParameters)) errors.push(`${key}::${name}: type parameters differ`);
  }
  for (const h of compiled.datatypeHandles) {
    const { key, module, self } = target(h);
    if (self) continue;
    const name = compiled.identifiers[h.name];
    const rh = module?.datatypeHandles.find((d) => d.module === module.selfModuleHandleIndex && module.identifiers[d.name] === name);
    if (!rh) errors.push(`missing datatype ${key}::${name}`);
    else if (rh.abilities !== h.abilities || JSON.stringify(rh.typeParameters) !== JSON.stringify(h.typeParameters)) {
      errors.push(`${key}::${name}: abilities or type parameters differ`);
    }
  }
  return errors;
}

describe('stub helpers', () => {
  it('escapes Move 2024 reserved words', () => {
    expect(moveSourceIdentifier('type')).toBe('`type`');
    expect(moveSourceIdentifier('mut')).toBe('`mut`');
    expect(moveSourceIdentifier('coin')).toBe('coin');
  });

  it('names system packages like upstream and others from their name', () => {
    expect(stubPackageNames('0x2')).toEqual({ packageName: 'Sui', addressName: 'sui' });
    expect(stubPackageNames('0x1')).toEqual({ packageName: 'MoveStdlib', addressName: 'std' });
    expect(stubPackageNames('0xabc', 'DeepBookV3')).toEqual({ packageName: 'DeepBookV3', addressName: 'deep_book_v3' });
  });

  it('writes a stub Move.toml with published-at, dependencies and one named address', () => {
    const toml = generateStubManifest({
      packageName: 'Foo',
      addressName: 'foo',
      address: '0xabc',
      publishedAt: '0xdef',
      dependencies: { Bar: { local: '../Bar' } },
    });
    expect(toml).toContain(`published-at = "${canonicalAddress('0xdef')}"`);
    expect(toml).toContain('Bar = { local = "../Bar" }');
    expect(toml).toContain(`foo = "${canonicalAddress('0xabc')}"`);
  });

  it('reads and extends [dependencies] of a manifest', () => {
    const toml =
      '[package]\nname = "x"\n\n[dependencies]\nFoo = { local = "../foo" }\nSui = { git = "https://github.com/MystenLabs/sui.git", subdir = "crates/sui-framework/packages/sui-framework", rev = "framework/testnet" }\n\n[dependencies.Bar]\ngit = "https://example.com/bar.git"\nrev = "main"\n';
    expect(declaredDependencies(toml)).toEqual([
      { name: 'Foo', source: { kind: 'local', local: '../foo' } },
      {
        name: 'Sui',
        source: { kind: 'git', git: 'https://github.com/MystenLabs/sui.git', rev: 'framework/testnet', subdir: 'crates/sui-framework/packages/sui-framework' },
      },
      { name: 'Bar', source: { kind: 'git', git: 'https://example.com/bar.git', rev: 'main', subdir: undefined } },
    ]);
    const added = addDependencies(toml, [{ name: 'Baz', source: { local: '../baz' } }]);
    expect(declaredDependencies(added).map((d) => d.name)).toEqual(['Baz', 'Foo', 'Sui', 'Bar']);
    expect(addDependencies('[package]\nname = "x"\n', [{ name: 'Baz', source: { local: '../baz' } }])).toBe('[package]\nname = "x"\n\n[dependencies]\nBaz = { local = "../baz" }\n');
  });

  it('computes relative paths between dependency locations', () => {
    expect(normalizeRelativePath('deps/x/../y/./z')).toBe('deps/y/z');
    expect(relativePath('../smi-deps/A', '../smi-deps/B')).toBe('../B');
    expect(relativePath('deps/a', '../smi-deps/B')).toBe('../../../smi-deps/B');
  });
});

describeWithFixtures('stubs of the real framework', ['fixtures', 'framework'], () => {
  it('declares structs with abilities, phantom parameters and UID fields, and public signatures', () => {
    const sui = frameworkDependency('sui-framework', 'Sui');
    const files = generateMoveStubs(sui.modules, { addressName: 'sui' });
    expect(files.size).toBe(sui.modules.length);
    const coin = files.get('sources/coin.move') ?? '';
    expect(coin).toContain('module sui::coin {');
    // The package's own datatypes under its named address (so the stub builds wherever a build places it), others' by number.
    expect(coin).toMatch(/public struct Coin<phantom T0> has store, key \{\n\s+id: sui::object::UID,\n\s+balance: sui::balance::Balance<T0>,/);
    expect(coin).toContain('public fun value<T0>(_a0: &sui::coin::Coin<T0>): u64 { abort 0 }');
    expect(coin).toContain('public fun into_balance<T0>(_a0: sui::coin::Coin<T0>): sui::balance::Balance<T0> { abort 0 }');
    expect(files.get('sources/url.move')).toContain('0x1::ascii::String');
    expect(coin).toContain('public use fun 0x2::pay::split_vec as Coin.split_vec;');
    expect(files.get('sources/object.move')).toContain('public use fun uid_to_inner as UID.to_inner;');
    expect(files.get('sources/table.move')).toMatch(/#\[syntax\(index\)\]\n\s+public fun borrow</);
    const std = generateMoveStubs(frameworkDependency('move-stdlib', 'MoveStdlib').modules, { addressName: 'std' });
    expect(std.get('sources/vector.move')).toMatch(/^\/\/.*\n#\[defines_primitive\(vector\)\]\n#\[allow\(unused\)\]\nmodule std::vector \{/);
    // Natives become ordinary functions; private functions are left out.
    expect(std.get('sources/vector.move')).toContain('public fun length<T0>(_a0: &vector<T0>): u64 { abort 0 }');
    expect(std.get('sources/string.move')).not.toContain('internal_check_utf8');
  });
});

describeWithFixtures('compileMovePackage (offline, framework stubs)', ['fixtures', 'framework'], () => {
  let framework: BytecodeDependency[] = [];
  const real = new Map<string, CompiledModule>();
  const networkCalls: string[] = [];
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    framework = FRAMEWORK.map(([file, name]) => frameworkDependency(file, name));
    for (const dep of framework) for (const m of dep.modules) real.set(`${moduleAddress(m)}::${moduleName(m)}`, m);
    // Anything reaching for the network fails the test (the builder reads its WASM from disk).
    globalThis.fetch = vi.fn(async (input: unknown) => {
      networkCalls.push(String(input));
      throw new Error('network disabled in tests');
    }) as typeof fetch;
    await initMoveCompiler();
    expect(await moveCompilerVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  afterAll(() => {
    globalThis.fetch = realFetch;
  });

  it('compiles a package using 0x2::coin, objects and 0x1::vector; the modules deserialize and link', async () => {
    const source = `module demo::vault;

use sui::coin::{Self, Coin};
use sui::sui::SUI;

public struct Vault has key, store {
    id: UID,
    amounts: vector<u64>,
}

public struct Receipt<phantom T> has key {
    id: UID,
    value: u64,
}

public fun new(ctx: &mut TxContext): Vault {
    Vault { id: object::new(ctx), amounts: vector::empty() }
}

public fun record(vault: &mut Vault, c: &Coin<SUI>): u64 {
    vector::push_back(&mut vault.amounts, coin::value(c));
    vault.amounts.push_back(c.value());
    vector::length(&vault.amounts) + vault.amounts[0]
}

entry fun receipt<T>(vault: &Vault, ctx: &mut TxContext) {
    let r = Receipt<T> { id: object::new(ctx), value: vault.amounts.length() };
    transfer::transfer(r, ctx.sender());
}

public fun id_of(vault: &Vault): ID { vault.id.to_inner() }
`;
    const out = await compileMovePackage({ files: { 'Move.toml': manifest(), 'sources/vault.move': source }, dependencies: framework });

    expect(out.modules.map((m) => m.name)).toEqual(['vault']);
    expect(out.dependencies).toEqual(expect.arrayContaining([canonicalAddress('0x1'), canonicalAddress('0x2')]));
    const m = deserializeModule(out.modules[0].bytes);
    expect(moduleName(m)).toBe('vault');
    expect(moduleAddress(m)).toBe(canonicalAddress('0x0'));
    const used = m.functionHandles.map((h) => {
      const id = moduleHandleId(m, h.module);
      return `${id.address.replace(/^0x0+/, '0x')}::${id.name}::${m.identifiers[h.name]}`;
    });
    expect(used).toEqual(expect.arrayContaining(['0x2::coin::value', '0x2::object::new', '0x2::transfer::transfer', '0x2::object::uid_to_inner']));
    // Vector functions compile to instructions, as with the real std sources.
    const code = m.functionDefs.flatMap((d) => d.code?.code ?? []).map((i) => i.$kind);
    expect(code).toEqual(expect.arrayContaining(['VecPushBack', 'VecLen', 'VecImmBorrow']));
    expect(linkErrors(m, real)).toEqual([]);
    // The check itself catches a mismatch.
    const tampered = { ...m, datatypeHandles: m.datatypeHandles.map((h) => ({ ...h, abilities: h.abilities ^ 1 })) };
    expect(linkErrors(tampered, real).length).toBeGreaterThan(0);
    expect(networkCalls).toEqual([]);
  });

  it('reports a compile error as a typed MoveCompileError with the diagnostics', async () => {
    const source = 'module demo::broken;\n\npublic fun f(): u64 { sui::coin::no_such_function() }\n';
    const error = await compileMovePackage({ files: { 'Move.toml': manifest(), 'sources/broken.move': source }, dependencies: framework }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MoveCompileError);
    expect(isMoveCompileError(error)).toBe(true);
    const e = error as MoveCompileError;
    expect(e.code).toBe('COMPILATION_ERROR');
    expect(e.category).toBe('compile');
    expect(e.diagnostics).toMatch(/error\[E\d+\]/);
    expect(e.diagnostics).toContain('no_such_function');
    expect(e.diagnostics).toContain('sources/broken.move');
  });

  it('compiles the stubs of every framework package (0x1, 0x2, 0x3, 0xb, 0xdee9)', async () => {
    // Naming a package in the sources pulls it into the build, which compiles its stubs.
    const source = `module demo::all;

public fun f(_s: &sui_system::sui_system::SuiSystemState, _b: &bridge::bridge::Bridge, _p: &deepbook::clob_v2::Pool<sui::sui::SUI, sui::sui::SUI>): u64 { 0 }
`;
    const out = await compileMovePackage({ files: { 'Move.toml': manifest(), 'sources/all.move': source }, dependencies: framework });
    expect(out.modules.map((m) => m.name)).toEqual(['all']);
    expect(new Set(out.dependencies)).toEqual(new Set(['0x1', '0x2', '0x3', '0xb', '0xdee9'].map(canonicalAddress)));
    expect(linkErrors(deserializeModule(out.modules[0].bytes), real)).toEqual([]);
  });

  it('accepts an explicit git dependency on the framework, served from the stubs', async () => {
    const deps = '[dependencies]\nSui = { git = "https://github.com/MystenLabs/sui.git", subdir = "crates/sui-framework/packages/sui-framework", rev = "framework/testnet" }\n';
    const source = 'module demo::g;\n\npublic fun f(c: &sui::coin::Coin<sui::sui::SUI>): u64 { c.value() }\n';
    const out = await compileMovePackage({ files: { 'Move.toml': manifest(deps), 'sources/g.move': source }, dependencies: framework });
    expect(out.modules.map((m) => m.name)).toEqual(['g']);
  });

  it('fails with DEPENDENCY_ERROR when a dependency is missing', async () => {
    const error = await compileMovePackage({
      files: { 'Move.toml': manifest(), 'sources/a.move': 'module demo::a;\n' },
      dependencies: framework.filter((d) => d.name !== 'MoveStdlib'),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isMoveCompileError(error) && error.code).toBe('DEPENDENCY_ERROR');
    expect(String((error as Error).message)).toContain('0x1');
  });

  it('testMode keeps #[test_only] and #[test] functions and adds unit_test_poison (std::unit_test declared for it)', async () => {
    const source = [
      'module demo::t;',
      '',
      'public fun a(): u64 { 1 }',
      '#[test_only]',
      'public fun helper(): u64 { a() + 1 }',
      'public fun b(): u64 { 2 }',
      '#[test]',
      'fun check() { assert!(helper() == 2) }',
      '',
    ].join('\n');
    const std = 'MoveStdlib = { git = "https://github.com/MystenLabs/sui.git", subdir = "crates/sui-framework/packages/move-stdlib", rev = "framework/mainnet" }';
    const files = { 'Move.toml': manifest(`[dependencies]\n${std}\n`), 'sources/t.move': source };
    const names = (bytes: Uint8Array): string[] => {
      const m = deserializeModule(bytes);
      return m.functionDefs.map((d) => m.identifiers[m.functionHandles[d.function].name]);
    };
    // Against the stdlib only: a test build depending on 0x2 fails the builder's Sui verification (see `testMode`).
    const stdlib = framework.filter((d) => d.name === 'MoveStdlib');
    const plain = await compileMovePackage({ files, dependencies: stdlib });
    expect(names(plain.modules[0].bytes)).toEqual(['a', 'b']);
    // The published stdlib has no std::unit_test (it is #[test_only] upstream): the build declares it.
    expect(stdlib[0].modules.some((m) => moduleName(m) === 'unit_test')).toBe(false);
    const test = await compileMovePackage({ files, dependencies: stdlib, testMode: true });
    expect(names(test.modules[0].bytes)).toEqual(['a', 'helper', 'b', 'check', 'unit_test_poison']);
  });

  it('rejects a package without Move.toml', async () => {
    await expect(compileMovePackage({ files: { 'sources/a.move': 'module demo::a;\n' }, dependencies: framework })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

const ORACLE_ID = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';
// An upgraded package: modules at the original id 0xd899…, published at 0xb234…; it uses the oracle.
const LENDING_ID = '0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0';

describeWithFixtures('compileMovePackage with non-framework dependencies', ['corpus', LENDING_ID], () => {
  let dependencies: BytecodeDependency[] = [];

  beforeAll(() => {
    const oracle = loadPackageDir(fixturePath('corpus', ORACLE_ID));
    const lending = loadPackageDir(fixturePath('corpus', LENDING_ID));
    dependencies = [
      ...FRAMEWORK.slice(0, 2).map(([file, name]) => frameworkDependency(file, name)),
      { name: 'Oracle', address: oracle.originalId, modules: oracle.modules.map((m) => m.module) },
      { name: 'Lending', address: lending.originalId, publishedAt: lending.id, modules: lending.modules.map((m) => m.module) },
    ];
  });

  it('adds undeclared dependencies the sources name, with their own dependencies served transitively', async () => {
    const source = `module demo::use_lending;

use sui::clock::Clock;
use lending::storage::Storage;

public fun value(clock: &Clock, price: &oracle::oracle::PriceOracle, storage: &mut Storage): u256 {
    lending::calculator::calculate_value(clock, price, 1, 0) + lending::calculator::caculate_utilization(storage, 0)
}
`;
    const out = await compileMovePackage({ files: { 'Move.toml': manifest(), 'sources/use_lending.move': source }, dependencies });
    expect(out.modules.map((m) => m.name)).toEqual(['use_lending']);
    expect(new Set(out.dependencies)).toEqual(new Set([canonicalAddress('0x1'), canonicalAddress('0x2'), ORACLE_ID, LENDING_ID]));
    const m = deserializeModule(out.modules[0].bytes);
    const real = new Map<string, CompiledModule>();
    for (const dep of dependencies) for (const mod of dep.modules) real.set(`${moduleAddress(mod)}::${moduleName(mod)}`, mod);
    expect(linkErrors(m, real)).toEqual([]);
  });

  it('serves a dependency the manifest declares under a local path', async () => {
    const deps = '[dependencies]\nOracle = { local = "vendor/oracle" }\n';
    const source = 'module demo::o;\n\npublic fun f(p: &oracle::oracle::PriceOracle): &oracle::oracle::PriceOracle { p }\n';
    const out = await compileMovePackage({ files: { 'Move.toml': manifest(deps), 'sources/o.move': source }, dependencies });
    expect(out.dependencies).toContain(ORACLE_ID);
  });
});

/** Reading sources and manifests for a build: path roots token by token, dependency entries, and the manifest rewrite. */
import { expect, it } from 'vitest';
import { buildDependencies, declaredDependencies, manifestPackage, publishedPackage, rewriteManifest } from '../src/manifest.js';
import { pathRoots, useAliases } from '../src/source-scan.js';
import { firstCompilerError } from '../src/index.js';

it('path roots: comments, strings and members do not count; module declarations and numeric addresses do', () => {
  const roots = pathRoots([
    `/// Uses deepbook::pool in a doc comment.
module my_pkg::m; // and bridge::x here
/* nested /* deepbook::a */ sui_system::b */
use lending::pool::{Self, Pool};
const S: vector<u8> = b"oracle::price";
const H: vector<u8> = x"00";
#[error(code = 1)]
const E: vector<u8> = b"a \\" quoted::thing";
public fun f(): address { @my_pkg }
public fun g(): u64 { std::u64::max_value!() + 0x3::staking_pool::x() + lending::pool::Self::y() }
`,
    'module 0x42::n { }',
  ]);
  expect([...roots.names].sort()).toEqual(['lending', 'std']);
  expect([...roots.numeric]).toEqual(['0x3']);
  expect([...roots.modules].sort()).toEqual(['0x42', 'my_pkg']);
});

it('dependencies: inline and table entries, modes, external resolvers; the package, published-at and addresses', () => {
  const toml = `[package]
name = "demo" # a comment
published-at = "0xabc"

[dependencies]
Sui = { git = "https://github.com/MystenLabs/sui.git", subdir = "crates/sui-framework/packages/sui-framework", rev = "framework/mainnet" }
local_dep = { local = "../../a/b" }
test_helper = { local = "../helper", modes = ["test"] }
mvr = { r.mvr = "@org/pkg" }

[dependencies.tabled]
git = "https://github.com/org/repo.git"
subdir = "packages/x"

[dev-dependencies]
dev_only = { local = "../dev" }

[addresses]
demo = "0x0"
admin = "0x1234"
`;
  expect(declaredDependencies(toml).map((d) => [d.name, d.source.kind, d.modes])).toEqual([
    ['Sui', 'git', undefined],
    ['local_dep', 'local', undefined],
    ['test_helper', 'local', ['test']],
    ['mvr', 'external', undefined],
    ['tabled', 'git', undefined],
  ]);
  expect(buildDependencies(toml).map((d) => d.name)).toEqual(['Sui', 'local_dep', 'mvr', 'tabled']);
  expect(manifestPackage(toml)).toEqual({ name: 'demo', publishedAt: '0xabc', addresses: { demo: '0x0', admin: '0x1234' } });
  expect(manifestPackage('[package]\nname = "new_style"\n').addresses).toBeUndefined();

  const rewritten = rewriteManifest(toml, [{ name: 'x', source: { local: '../smi-deps/x' } }], { demo: '0x0' }, '0xdef');
  expect(rewritten).toContain('published-at = "0xdef"');
  expect(rewritten).not.toContain('0xabc');
  expect(rewritten).not.toMatch(/dev-dependencies|dev_only|tabled|local_dep|admin/);
  expect(declaredDependencies(rewritten)).toEqual([{ name: 'x', source: { kind: 'local', local: '../smi-deps/x' } }]);
  expect(manifestPackage(rewritten).addresses).toEqual({ demo: '0x0' });
  expect(manifestPackage(rewriteManifest(toml, [], undefined)).addresses).toBeUndefined();
});

it('path roots resolve as the compiler does: a module of the package or a use alias comes before a named address', () => {
  const roots = pathRoots([
    'module lib::oracle;\npublic fun new(): u64 { 1 }\n',
    `module lib::user;
use lib::oracle as o;
use sui::{coin::Coin, balance};
use pricing::feed::{Self as f, Price};
public fun a(): u64 { oracle::new() + o::new() + f::x() + balance::y() + other::m::z() }
public enum Level has drop { Low, High }
public fun low(): Level { Level::Low }
`,
  ]);
  // oracle: a module of lib; o, f, balance: aliases; Level: an enum of the file; coin: a module inside a use group; pricing: the first name of a use.
  expect([...roots.names].sort()).toEqual(['lib', 'other', 'pricing', 'sui']);
  expect([...roots.moduleNames].sort()).toEqual(['oracle', 'user']);
  expect(useAliases(' a::{b, c::{Self as d, e}}')).toEqual(['b', 'd', 'e']);
  expect(useAliases(' a::b as c')).toEqual(['c']);
  expect(useAliases(' fun a::m::f as T.g')).toEqual([]);
});

it('rename-from is read from inline and table entries', () => {
  const deps = declaredDependencies('[dependencies]\nbeta = { local = "../alpha", rename-from = "alpha" }\n\n[dependencies.gamma]\nlocal = "../g"\nrename-from = "g"\n');
  expect(deps).toEqual([
    { name: 'beta', source: { kind: 'local', local: '../alpha' }, renameFrom: 'alpha' },
    { name: 'gamma', source: { kind: 'local', local: '../g' }, renameFrom: 'g' },
  ]);
  expect(rewriteManifest('[package]\nname = "u"\n', [{ name: 'beta', source: { local: '../alpha' }, renameFrom: 'alpha' }], undefined)).toContain(
    'beta = { local = "../alpha", rename-from = "alpha" }',
  );
});

it('the one-line summary of a failed build is the first error, Sui-specific ones included, not a warning', () => {
  const text = [
    'warning[W09002]: unused variable',
    '  ┌─ sources/a.move:2:5',
    'error[Sui E02009]: invalid private transfer call',
    '  ┌─ sources/a.move:7:9',
    'error[E03006]: unexpected name in this position',
  ].join('\n');
  expect(firstCompilerError(text)).toBe('error[Sui E02009]: invalid private transfer call (sources/a.move:7:9)');
});

it('Published.toml: the mainnet original id, published-at and version; a legacy Move.lock as a fallback', () => {
  const published = '[published.testnet]\noriginal-id = "0x9"\n\n[published.mainnet]\nchain-id = "35834a8a"\npublished-at = "0xb0b"\noriginal-id = "0xa11ce" # first\nversion = 3\n';
  expect(publishedPackage(published, undefined)).toEqual({ originalId: '0xa11ce', publishedAt: '0xb0b', version: 3, file: 'Published.toml' });
  const lock = '[move]\nversion = 3\n\n[env.mainnet]\nchain-id = "35834a8a"\noriginal-published-id = "0x5"\nlatest-published-id = "0x6"\npublished-version = "2"\n';
  expect(publishedPackage(undefined, lock)).toEqual({ originalId: '0x5', publishedAt: '0x6', version: 2, file: 'Move.lock' });
  expect(publishedPackage('[published.testnet]\noriginal-id = "0x9"\n', undefined)).toBeUndefined();
});

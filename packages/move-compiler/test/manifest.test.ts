/** Reading sources and manifests for a build: path roots token by token, dependency entries, and the manifest rewrite. */
import { expect, it } from 'vitest';
import { buildDependencies, declaredDependencies, manifestPackage, rewriteManifest } from '../src/manifest.js';
import { pathRoots } from '../src/source-scan.js';

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

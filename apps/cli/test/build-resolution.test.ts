/**
 * `smi build` and `smi build-all` resolving packages as the Sui CLI does (issue 30, section 2):
 * `rename-from`, names a package resolves inside itself before any other package, a dependency's
 * Published.toml, git pins on the same repository, the first error of a failed build,
 * addresses derived from the repository, and modules at two addresses. Every repository is
 * written by the test into a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { canonicalAddress, loadPackageDir } from '@smi/bytecode';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'smi-resolve-'));

function write(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

interface Summary {
  built: number;
  failed: number;
  blocked: number;
  packages: { name: string; dir: string; status: string; address?: string; derived?: boolean; error?: string }[];
}

describeWithFixtures('smi build and build-all resolve packages as the Sui CLI does', ['fixtures', 'framework'], () => {
  const framework = fixturePath('fixtures', 'framework');
  const buildAll = async (repo: string, ...extra: string[]) => {
    const r = await smi('build-all', repo, '--out', path.join(tmp(), 'corpus'), '--framework', framework, '--json', ...extra);
    return { ...r, summary: JSON.parse(r.stdout) as Summary };
  };

  it('rename-from: the package named alpha is beta in the dependent, in new-style and legacy manifests, through build and build-all', async () => {
    const repo = write(path.join(tmp(), 'renames'), {
      'alpha/Move.toml': '[package]\nname = "alpha"\nedition = "2024"\n',
      'alpha/sources/a.move': 'module alpha::a;\npublic fun one(): u64 { 1 }\n',
      'user/Move.toml': '[package]\nname = "user"\nedition = "2024"\n\n[dependencies]\nbeta = { local = "../alpha", rename-from = "alpha" }\n',
      'user/sources/u.move': 'module user::u;\npublic fun two(): u64 { beta::a::one() + 1 }\n',
      'legacy/Move.toml': '[package]\nname = "legacy"\nedition = "2024"\n\n[dependencies.gamma]\nlocal = "../alpha"\nrename-from = "alpha"\n\n[addresses]\nlegacy = "0x0"\n',
      'legacy/sources/l.move': 'module legacy::l;\npublic fun three(): u64 { gamma::a::one() + 2 }\n',
      // A dependency whose rename-from is not the package's name is refused, as the Sui CLI refuses it.
      'wrong/Move.toml': '[package]\nname = "wrong"\nedition = "2024"\n\n[dependencies]\nbeta = { local = "../alpha", rename-from = "alfa" }\n',
      'wrong/sources/w.move': 'module wrong::w;\npublic fun f(): u64 { beta::a::one() }\n',
    });
    const one = await smi('build', path.join(repo, 'user'), '--out', tmp(), '--framework', framework, '--quiet');
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    // The renamed dependency given as bytecode (--dep under the name the dependent uses).
    const alphaOut = path.join(tmp(), 'alpha-out');
    expect((await smi('build', path.join(repo, 'alpha'), '--out', alphaOut, '--address', '0xa1', '--framework', framework, '--quiet')).code).toBe(0);
    const viaBytecode = await smi('build', path.join(repo, 'user'), '--out', tmp(), '--framework', framework, '--dep', `beta=${alphaOut}`, '--json', '--quiet');
    expect(viaBytecode.stderr).toBe('');
    expect((JSON.parse(viaBytecode.stdout) as { dependencies: string[] }).dependencies).toContain(canonicalAddress('0xa1'));
    const { summary } = await buildAll(repo, '--quiet');
    expect(summary.packages.map((p) => [p.name, p.status])).toEqual([
      ['alpha', 'built'],
      ['legacy', 'built'],
      ['user', 'built'],
      ['wrong', 'failed'],
    ]);
    expect(summary.packages.find((p) => p.name === 'wrong')!.error).toMatch(/rename-from = "alfa", but the package there is named alpha/);
  }, 120_000);

  it("a module of the package itself is no dependency: lib's `oracle::new()` beside a package named oracle that depends on lib is no cycle", async () => {
    const repo = write(path.join(tmp(), 'cycle'), {
      'lib/Move.toml': '[package]\nname = "lib"\nedition = "2024"\n',
      'lib/sources/oracle.move': 'module lib::oracle;\npublic fun new(): u64 { 7 }\n',
      'lib/sources/user.move': 'module lib::user;\nuse lib::oracle;\npublic fun f(): u64 { oracle::new() }\n',
      'oracle/Move.toml': '[package]\nname = "oracle"\nedition = "2024"\n\n[dependencies]\nlib = { local = "../lib" }\n',
      'oracle/sources/feed.move': 'module oracle::feed;\npublic fun g(): u64 { lib::user::f() }\n',
    });
    const { code, summary } = await buildAll(repo, '--quiet');
    expect(summary.packages.map((p) => [p.name, p.status])).toEqual([
      ['lib', 'built'],
      ['oracle', 'built'],
    ]);
    expect(code).toBe(0);
  }, 120_000);

  it('the summary of a failed build is its first error, a Sui-specific one included, not the warning before it', async () => {
    const dir = write(path.join(tmp(), 'private'), {
      'Move.toml': '[package]\nname = "private"\nedition = "2024"\n',
      'sources/p.move': 'module private::p;\nuse sui::coin::Coin;\nuse sui::sui::SUI;\npublic fun give(c: Coin<SUI>, to: address, unused: u64) {\n    sui::transfer::transfer(c, to)\n}\n',
    });
    const r = await smi('build', dir, '--out', tmp(), '--framework', framework, '--json');
    expect(r.code).toBe(2);
    const err = JSON.parse(r.stdout) as { message: string; diagnostics: string };
    expect(err.diagnostics).toMatch(/warning\[/);
    expect(err.message).toMatch(/error\[Sui E\d+\]: .* \(sources\/p\.move:5:\d+\)/);
  }, 60_000);

  it("a dependency's Published.toml is its address: built at its original id, linked at its published-at, the corpus holding it there", async () => {
    const original = canonicalAddress('0xa11ce');
    const publishedAt = canonicalAddress('0xb0b02');
    const repo = write(path.join(tmp(), 'published'), {
      'alpha/Move.toml': '[package]\nname = "alpha"\nedition = "2024"\n',
      'alpha/sources/a.move': 'module alpha::a;\npublic fun one(): u64 { 1 }\n',
      'alpha/Published.toml': `# generated by the Sui CLI\n[published.mainnet]\nchain-id = "35834a8a"\npublished-at = "${publishedAt}"\noriginal-id = "${original}"\nversion = 2\nupgrade-capability = "0x5"\n`,
      'user/Move.toml': '[package]\nname = "user"\nedition = "2024"\n\n[dependencies]\nalpha = { local = "../alpha" }\n',
      'user/sources/u.move': 'module user::u;\npublic fun two(): u64 { alpha::a::one() + 1 }\n',
    });
    const corpus = path.join(tmp(), 'corpus');
    const r = await smi('build-all', repo, '--out', corpus, '--framework', framework, '--json', '--quiet');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary & { packages: { published_at?: string }[] };
    expect(summary.packages[0]).toMatchObject({ name: 'alpha', status: 'built', address: original, derived: false, published_at: publishedAt });
    const alpha = loadPackageDir(path.join(corpus, publishedAt));
    expect([alpha.id, alpha.originalId, alpha.version]).toEqual([publishedAt, original, 2]);
    const user = JSON.parse(readFileSync(path.join(corpus, summary.packages[1].address!, 'metadata.json'), 'utf8')) as { dependencies: string[] };
    expect(user.dependencies).toContain(publishedAt);
    // smi build places the dependency there too.
    const one = await smi('build', path.join(repo, 'user'), '--out', tmp(), '--framework', framework, '--json');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ source_dependencies: [{ name: 'alpha', address: original, derived: false }] });
    expect((JSON.parse(one.stdout) as { dependencies: string[] }).dependencies).toContain(publishedAt);
  }, 120_000);

  it('modules at a non-zero address beside 0x0 ones are refused, as the Sui CLI refuses to publish them', async () => {
    const dir = write(path.join(tmp(), 'mixed'), {
      'Move.toml': '[package]\nname = "mixed"\nedition = "2024"\n\n[addresses]\nmixed = "0x0"\nother = "0x5"\n',
      'sources/a.move': 'module mixed::a;\npublic fun f(): u64 { 1 }\n',
      'sources/b.move': 'module other::b;\npublic fun g(): u64 { 2 }\n',
    });
    const r = await smi('build', dir, '--out', tmp(), '--framework', framework, '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', error_code: 'INVALID_INPUT' });
    expect((JSON.parse(r.stdout) as { message: string }).message).toMatch(/other = 0x5 not 0x0: the Sui CLI publishes a package only when all its modules are at 0x0/);
  }, 60_000);

  it('derived addresses include the repository: packages/token of two repositories differ, smi build and build-all agree; --dep packages: full ids, listed, counted', async () => {
    const token = {
      'packages/token/Move.toml': '[package]\nname = "token"\nedition = "2024"\n',
      'packages/token/sources/t.move': 'module token::t;\npublic fun one(): u64 { 1 }\n',
      'packages/app/Move.toml': '[package]\nname = "app"\nedition = "2024"\n\n[dependencies]\ntoken = { local = "../token" }\n',
      'packages/app/sources/a.move': 'module app::a;\npublic fun two(): u64 { token::t::one() + 1 }\n',
    };
    const one = write(path.join(tmp(), 'one'), token);
    const two = write(path.join(tmp(), 'two'), token);
    const corpus = path.join(tmp(), 'corpus');
    const a = JSON.parse((await smi('build-all', one, '--out', corpus, '--framework', framework, '--json', '--quiet')).stdout) as Summary;
    const b = JSON.parse((await smi('build-all', two, '--out', corpus, '--framework', framework, '--json', '--quiet')).stdout) as Summary;
    const tokenA = a.packages.find((p) => p.name === 'token')!.address!;
    const tokenB = b.packages.find((p) => p.name === 'token')!.address!;
    expect(tokenA).not.toBe(tokenB);
    expect(readdirSync(corpus)).toHaveLength(4);
    const single = await smi('build', path.join(one, 'packages/app'), '--out', tmp(), '--framework', framework, '--json', '--quiet');
    expect(JSON.parse(single.stdout)).toMatchObject({ source_dependencies: [{ name: 'token', address: tokenA, derived: true }] });

    // A source package outside the repository given with --dep at a short address: the corpus folder is its full id, it is in the summary, and the counter never passes its total.
    const outside = write(path.join(tmp(), 'outside'), {
      'Move.toml': '[package]\nname = "ext"\nedition = "2024"\n',
      'sources/e.move': 'module ext::e;\npublic fun three(): u64 { 3 }\n',
    });
    const user = write(path.join(tmp(), 'user'), {
      'u/Move.toml': '[package]\nname = "u"\nedition = "2024"\n\n[dependencies]\next = { git = "https://github.com/example/ext.git", rev = "main" }\n',
      'u/sources/u.move': 'module u::u;\npublic fun four(): u64 { ext::e::three() + 1 }\n',
    });
    const out = path.join(tmp(), 'corpus2');
    const r = await smi('build-all', user, '--out', out, '--framework', framework, '--json', '--dep', `ext=${outside}@0xabc01`);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.packages.map((p) => [p.name, p.status, p.address])).toEqual([
      ['u', 'built', s.packages[0].address],
      ['ext', 'built', canonicalAddress('0xabc01')],
    ]);
    expect(readdirSync(out)).toContain(canonicalAddress('0xabc01'));
    for (const m of r.stderr.matchAll(/build-all: (\d+)\/(\d+) /g)) expect(Number(m[1])).toBeLessThanOrEqual(Number(m[2]));
    expect(r.stderr).toMatch(/build-all: 2\/2 u: built/);
  }, 120_000);

  it("a git dependency on the same repository at another rev is read from the repository's history; a pin that cannot be honoured says so", async () => {
    const repo = write(path.join(tmp(), 'pinrepo'), {
      'lib/Move.toml': '[package]\nname = "lib"\nedition = "2024"\n',
      'lib/sources/l.move': 'module lib::l;\npublic fun version(): u64 { 1 }\n',
    });
    const run = (...args: string[]) =>
      execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' })
        .toString()
        .trim();
    run('init', '-q', '-b', 'main');
    run('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.');
    run('-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'v1');
    const v1 = run('rev-parse', 'HEAD');
    // The working tree moves on: version 2, and a function v1 did not have.
    write(repo, {
      'lib/sources/l.move': 'module lib::l;\npublic fun version(): u64 { 2 }\npublic fun added(): u64 { 0 }\n',
      'app/Move.toml': `[package]\nname = "app"\nedition = "2024"\n\n[dependencies]\nlib = { git = "https://github.com/example/pinrepo.git", subdir = "lib", rev = "${v1}" }\n`,
      'app/sources/a.move': 'module app::a;\npublic fun v(): u64 { lib::l::version() }\n',
      'newer/Move.toml': '[package]\nname = "newer"\nedition = "2024"\n\n[dependencies]\nlib = { git = "https://github.com/example/pinrepo.git", subdir = "lib", rev = "main" }\n',
      'newer/sources/n.move': 'module newer::n;\npublic fun v(): u64 { lib::l::added() }\n',
      'pinned/Move.toml': `[package]\nname = "pinned"\nedition = "2024"\n\n[dependencies]\nlib = { git = "https://github.com/example/pinrepo.git", subdir = "lib", rev = "${v1}" }\n`,
      // Uses what only the working tree has: fails against the pinned revision.
      'pinned/sources/p.move': 'module pinned::p;\npublic fun v(): u64 { lib::l::added() }\n',
    });
    const r = await smi('build-all', repo, '--out', path.join(tmp(), 'corpus'), '--framework', framework, '--json', '--quiet');
    const s = JSON.parse(r.stdout) as Summary;
    const status = Object.fromEntries(s.packages.map((p) => [p.name, p.status]));
    // main's lib/ is committed as v1, so `rev = "main"` is v1 too: `added` does not exist there.
    expect(status).toMatchObject({ app: 'built', newer: 'failed', pinned: 'failed' });
    // Two lib packages: the working tree's and v1's, at different addresses.
    const libs = s.packages.filter((p) => p.name === 'lib');
    expect(libs.map((p) => p.status)).toEqual(['built', 'built']);
    expect(new Set(libs.map((p) => p.address)).size).toBe(2);

    // Not a git checkout: the pin is not honoured, and a warning says so, naming the dependency and the rev.
    const plain = write(path.join(tmp(), 'plainrepo'), {
      'lib/Move.toml': '[package]\nname = "lib"\nedition = "2024"\n',
      'lib/sources/l.move': 'module lib::l;\npublic fun version(): u64 { 1 }\n',
      'app/Move.toml': '[package]\nname = "app"\nedition = "2024"\n\n[dependencies]\nlib = { git = "https://github.com/example/plainrepo.git", subdir = "lib", rev = "v1.0" }\n',
      'app/sources/a.move': 'module app::a;\npublic fun v(): u64 { lib::l::version() }\n',
    });
    const w = await smi('build', path.join(plain, 'app'), '--out', tmp(), '--framework', framework);
    expect(w.code).toBe(0);
    expect(w.stderr).toMatch(
      /warning: app: git dependency lib \(https:\/\/github.com\/example\/plainrepo.git, lib\) is pinned to rev "v1.0", but .* is not a git checkout: the working tree's lib is used instead/,
    );
  }, 120_000);
});

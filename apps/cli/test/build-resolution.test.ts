/**
 * `smi build` and `smi build-all` resolving packages as the Sui CLI does (issue 30, section 2):
 * `rename-from`, names a package resolves inside itself before any other package, a dependency's
 * Published.toml, git pins on the same repository, the first error of a failed build,
 * addresses derived from the repository, and modules at two addresses. Every repository is
 * written by the test into a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
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
});

/**
 * `smi build` and `smi build-all` on packages of our own writing, one per point of real-world
 * building: names (a user package called `deepbook`, comments that mention a package, new-style
 * manifests using `sui_system::`), source dependencies with their own `#[syntax(index)]`,
 * `use fun` aliases and macros, a three-package chain through `local` and same-repository git
 * dependencies built with `build-all` and run in a simulation, framework aliases, placement,
 * stale output, modules under two named addresses, test-only packages and full diagnostics.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { canonicalAddress, loadPackageDir } from '@smi/bytecode';
import { fromFixtures, SimulationEnvironment } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'smi-build-'));

function write(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** A repository of three packages: `deepbook` (legacy manifest) ← `middle` (local) ← `top` (git on this repository, new-style). */
function chainRepo(): string {
  const repo = path.join(tmp(), 'chainrepo');
  return write(repo, {
    'packages/deepbook/Move.toml': '[package]\nname = "deepbook"\nedition = "2024"\n\n[dependencies]\nhelper = { local = "../../vendor/helper", modes = ["test"] }\n\n[addresses]\ndeepbook = "0x0"\n',
    'packages/deepbook/sources/book.move': `module deepbook::book;

/// A container with index syntax, a method alias and a macro of its own.
public struct Book has drop { levels: vector<u64> }

public fun new(levels: vector<u64>): Book { Book { levels } }
#[syntax(index)]
public fun level(b: &Book, i: u64): &u64 { &b.levels[i] }
public fun depth(b: &Book): u64 { b.levels.length() }
public use fun depth as Book.size;
public macro fun each($b: &Book, $f: |u64|) { let b = $b; b.depth().do!(|i| $f(b[i])) }
`,
    'packages/middle/Move.toml': '[package]\nname = "middle"\nedition = "2024"\n\n[dependencies]\ndeepbook = { local = "../../packages/deepbook" }\n\n[addresses]\nmiddle = "0x0"\n',
    'packages/middle/sources/m.move': `module middle::m;

// A comment that names bridge::bridge::Bridge adds no dependency.
use deepbook::book::{Self, Book};

public fun make(): Book { book::new(vector[5, 7, 9]) }
public fun second(b: &Book): u64 { b[1] }
public fun total(b: &Book): u64 { let mut s = 0; b.each!(|x| s = s + x); s + b.size() }
`,
    'packages/top/Move.toml':
      '[package]\nname = "top"\nedition = "2024"\n\n[dependencies]\nmiddle = { git = "https://github.com/example/chainrepo.git", subdir = "packages/middle", rev = "main" }\ndeepbook = { local = "../deepbook" }\n',
    'packages/top/sources/t.move': `module top::t;

public fun answer(): u64 {
    let b = middle::m::make();
    middle::m::second(&b) * 100 + middle::m::total(&b)
}
public fun epoch_of(s: &sui_system::sui_system::SuiSystemState): u64 { let _ = s; 0 }
`,
    // A Move Registry dependency (no location of its own): the repository's package of that name.
    'packages/viamvr/Move.toml': '[package]\nname = "viamvr"\nedition = "2024"\n\n[dependencies]\nmiddle = { r.mvr = "@example/middle" }\n\n[r.mvr]\nnetwork = "mainnet"\n',
    'packages/viamvr/sources/v.move': 'module viamvr::v;\npublic fun second(): u64 { middle::m::second(&middle::m::make()) }\n',
  });
}

describeWithFixtures('smi build and build-all on real-world package shapes', ['fixtures', 'framework'], () => {
  const framework = fixturePath('fixtures', 'framework');
  let repo: string;
  let corpus: string;
  let summary: { built: number; failed: number; blocked: number; packages: { name: string; status: string; address?: string; error?: string }[] };

  beforeAll(async () => {
    repo = chainRepo();
    corpus = path.join(tmp(), 'corpus');
    const r = await smi('build-all', repo, '--out', corpus, '--framework', framework, '--json', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    summary = JSON.parse(r.stdout) as typeof summary;
  }, 120_000);

  it('build-all: four packages in dependency order (local, same-repository git and Move Registry dependencies), each at its address, a corpus in the sui-packages layout', () => {
    expect(summary.packages.map((p) => [p.name, p.status])).toEqual([
      ['deepbook', 'built'],
      ['middle', 'built'],
      ['top', 'built'],
      ['viamvr', 'built'],
    ]);
    expect(readdirSync(corpus).sort()).toEqual(summary.packages.map((p) => p.address!).sort());
    for (const p of summary.packages) {
      const pkg = loadPackageDir(path.join(corpus, p.address!));
      expect(pkg.originalId).toBe(canonicalAddress(p.address!));
      expect(JSON.parse(readFileSync(path.join(corpus, p.address!, 'metadata.json'), 'utf8')).id).toBe(p.address);
    }
  });

  it("the corpus loads in a simulation and the top package's function runs through all three (index syntax, alias and macro of a source dependency)", () => {
    const { packages, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    const env = SimulationEnvironment.create({ packages: packages.filter((p) => ['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a)).includes(p.id)), protocolConfig });
    for (const p of summary.packages) env.loadPackage(loadPackageDir(path.join(corpus, p.address!)));
    const top = summary.packages.find((p) => p.name === 'top')!.address!;
    const r = env.call(`${top}::t::answer`);
    expect(r.transaction.status).toEqual({ $kind: 'Success' });
    // second = 7; total = 5 + 7 + 9 + size 3 = 24.
    expect(r.returnValues.map((v) => v.value)).toEqual(['724']);
    const viaMvr = summary.packages.find((p) => p.name === 'viamvr')!.address!;
    expect(env.call(`${viaMvr}::v::second`).returnValues.map((v) => v.value)).toEqual(['7']);
  });

  it('smi build of one package: local source dependencies compiled from source, --address placement, the output usable as a --dep', async () => {
    const out = path.join(tmp(), 'middle-out');
    const r = await smi('build', path.join(repo, 'packages/middle'), '--out', out, '--address', '0xabc', '--framework', framework, '--json', '--quiet');
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout) as { address: string; dependencies: string[]; source_dependencies: { name: string; address: string; derived: boolean }[] };
    expect(res.address).toBe(canonicalAddress('0xabc'));
    // The comment naming bridge::bridge::Bridge added no dependency on the bridge.
    expect(res.dependencies).not.toContain(canonicalAddress('0xb'));
    expect(res.source_dependencies.map((d) => d.name)).toEqual(['deepbook']);
    expect(loadPackageDir(out).originalId).toBe(canonicalAddress('0xabc'));
    // The built package, at its address, is the dependency of the next build (git dependency overridden by --dep).
    const top = await smi('build', path.join(repo, 'packages/top'), '--out', path.join(tmp(), 'top'), '--framework', framework, '--dep', `middle=${out}`, '--quiet', '--json');
    expect(top.stderr).toBe('');
    expect(top.code).toBe(0);
    expect((JSON.parse(top.stdout) as { dependencies: string[] }).dependencies).toContain(canonicalAddress('0xabc'));
  }, 60_000);

  it('a build at 0x0 as a --dep needs its address; a git dependency on another repository names the --dep to give', async () => {
    const out = path.join(tmp(), 'm0');
    expect((await smi('build', path.join(repo, 'packages/middle'), '--out', out, '--framework', framework, '--quiet')).code).toBe(0);
    const zero = await smi('build', path.join(repo, 'packages/top'), '--out', tmp(), '--framework', framework, '--dep', `middle=${out}`);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/is at 0x0: give the address it has, as --dep middle=.*@0x/);
    const placed = await smi('build', path.join(repo, 'packages/top'), '--out', tmp(), '--framework', framework, '--dep', `middle=${out}@0x77`, '--quiet');
    expect(placed.code).toBe(0);
    // Inside a checkout of the repository its git dependency names, the dependency is found there...
    const inside = await smi('build', path.join(repo, 'packages/top'), '--out', tmp(), '--framework', framework, '--quiet');
    expect(inside.code, inside.stderr).toBe(0);
    // ... elsewhere the error names the --dep to give.
    const elsewhere = write(path.join(tmp(), 'top'), {
      'Move.toml': readFileSync(path.join(repo, 'packages/top/Move.toml'), 'utf8'),
      'sources/t.move': readFileSync(path.join(repo, 'packages/top/sources/t.move'), 'utf8'),
    });
    const alone = await smi('build', elsewhere, '--out', tmp(), '--framework', framework);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/dependency middle is git https:\/\/github.com\/example\/chainrepo.git .*give it with --dep middle=DIR/);
  }, 60_000);

  it('framework aliases and methods on primitives, and a new-style manifest using sui_system::', async () => {
    const dir = write(path.join(tmp(), 'aliases'), {
      'Move.toml': '[package]\nname = "aliases"\nedition = "2024"\n',
      'sources/a.move': `module aliases::a;

use sui::package::{UpgradeCap, UpgradeReceipt};
use sui_system::staking_pool::{FungibleStakedSui, StakedSui};

public fun cap_info(cap: &UpgradeCap): (ID, u8) { (cap.package(), cap.policy()) }
public fun receipt_pkg(r: &UpgradeReceipt): ID { r.package() }
public fun fss(f: &FungibleStakedSui): (u64, ID) { (f.value(), f.pool_id()) }
public fun join(a: &mut StakedSui, b: StakedSui) { a.join(b) }
public fun addr(a: address): (u256, ID, std::ascii::String) { (a.to_u256(), a.to_id(), a.to_ascii_string()) }
public fun max(): u64 { std::u64::max_value!() }
`,
    });
    const r = await smi('build', dir, '--out', tmp(), '--framework', framework, '--json', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { dependencies: string[] }).dependencies).toContain(canonicalAddress('0x3'));
  }, 60_000);

  it('output: stale modules removed, modules under two unassigned named addresses one package, a test-only package says so, errors print the full diagnostics', async () => {
    const out = path.join(tmp(), 'stale');
    write(out, { 'bytecode_modules/old.mv': 'stale' });
    const pkg = path.join(repo, 'packages/deepbook');
    expect((await smi('build', pkg, '--out', out, '--framework', framework, '--quiet')).code).toBe(0);
    expect(readdirSync(path.join(out, 'bytecode_modules'))).toEqual(['book.mv']);

    // A legacy package whose named address differs from its name and declares a value: smi build compiles it at 0x0 (publishable), build-all at that value.
    const mate = write(path.join(tmp(), 'materepo'), {
      'mate/Move.toml': '[package]\nname = "IntegerMate"\nedition = "2024"\n\n[addresses]\ninteger_mate = "0x714a"\n',
      'mate/sources/i.move': 'module integer_mate::i;\npublic fun one(): u64 { 1 }\n',
    });
    const mateOut = path.join(tmp(), 'mate-out');
    expect((await smi('build', path.join(mate, 'mate'), '--out', mateOut, '--framework', framework, '--quiet')).code).toBe(0);
    expect(loadPackageDir(mateOut).originalId).toBe(canonicalAddress('0x0'));
    const mateAll = await smi('build-all', mate, '--out', path.join(tmp(), 'mate-corpus'), '--framework', framework, '--json', '--quiet');
    expect((JSON.parse(mateAll.stdout) as typeof summary).packages[0]).toMatchObject({ status: 'built', address: canonicalAddress('0x714a'), derived: false });

    const two = write(path.join(tmp(), 'two'), {
      'Move.toml': '[package]\nname = "two"\nedition = "2024"\n\n[addresses]\ntwo = "0x0"\nother = "0x0"\n',
      'sources/a.move': 'module two::a;\npublic fun f(): u64 { 1 }\n',
      'sources/b.move': 'module other::b;\npublic fun g(): u64 { 2 }\n',
    });
    // Both unassigned (0x0): one package, as the Sui CLI builds and publishes it (see build-resolution.test.ts for a mix).
    const twoOut = path.join(tmp(), 'two-out');
    const t = await smi('build', two, '--out', twoOut, '--address', '0x2a', '--framework', framework, '--json', '--quiet');
    expect(t.code).toBe(0);
    expect(
      loadPackageDir(twoOut)
        .modules.map((m) => m.name)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(loadPackageDir(twoOut).originalId).toBe(canonicalAddress('0x2a'));

    const testOnly = write(path.join(tmp(), 'testonly'), {
      'Move.toml': '[package]\nname = "t"\nedition = "2024"\n',
      'sources/t.move': '#[test_only]\nmodule t::t;\n#[test]\nfun f() {}\n',
    });
    const o = await smi('build', testOnly, '--out', tmp(), '--framework', framework);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/#\[test_only\]: nothing to build/);

    const bad = write(path.join(tmp(), 'bad'), {
      'Move.toml': '[package]\nname = "bad"\nedition = "2024"\n',
      'sources/b.move': 'module bad::b;\nfun unused_warning(x: u64) {}\npublic fun f(): u64 { true }\n',
    });
    const e = await smi('build', bad, '--out', tmp(), '--framework', framework, '--json');
    expect(e.code).toBe(2);
    const err = JSON.parse(e.stdout) as { message: string; diagnostics: string };
    // The first *error*, with its place, not the warning printed before it.
    expect(err.message).toMatch(/error\[E\d+\]: .* \(sources\/b\.move:3:\d+\)/);
    expect(err.diagnostics).toMatch(/warning\[W\d+\]/);
    expect(e.stderr).toMatch(/┌─ sources\/b\.move:3/);
  }, 60_000);

  it('a dependency that failed blocks the packages using it; build-all exits 1 and says which', async () => {
    const broken = write(path.join(tmp(), 'brokenrepo'), {
      'a/Move.toml': '[package]\nname = "a"\nedition = "2024"\n',
      'a/sources/a.move': 'module a::a;\npublic fun f(): u64 { true }\n',
      'b/Move.toml': '[package]\nname = "b"\nedition = "2024"\n\n[dependencies]\na = { local = "../a" }\n',
      'b/sources/b.move': 'module b::b;\npublic fun g(): u64 { a::a::f() }\n',
    });
    const r = await smi('build-all', broken, '--out', path.join(tmp(), 'c'), '--framework', framework, '--json', '--quiet');
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout) as typeof summary;
    expect(s.packages.map((p) => p.status)).toEqual(['failed', 'blocked']);
    expect(s.packages[1].error).toMatch(/dependency a \(a\) failed/);
  }, 60_000);
});

/**
 * `smi stubs` of a third-party package builds (issue 31, section 3): the stubs of real corpus
 * packages (Cetus CLMM v1 and v10 with integer_mate and move_stl, Dola with Pyth and
 * Wormhole, a package without dependencies) build with `smi build`, and so does a new package
 * that depends on them as a local dependency and calls one of their functions. The built
 * stubs' public and entry function signatures and datatypes are the original bytecode's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { canonicalAddress, abilityNames, type CompiledModule, loadPackageDir, moduleHandleId, moduleName, renderToken, type SignatureToken } from '@smi/bytecode';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

const root = mkdtempSync(path.join(tmpdir(), 'smi-stubs-build-'));
let n = 0;
const tmp = (name: string) => path.join(root, `${name}-${n++}`);

/** A type as text with full addresses. */
function typeText(m: CompiledModule, t: SignatureToken): string {
  return renderToken(t, {
    typeParameter: (i) => `T${i}`,
    datatype: (index, args) => {
      const h = m.datatypeHandles[index];
      const id = moduleHandleId(m, h.module);
      return `${id.address}::${id.name}::${m.identifiers[h.name]}${args.length > 0 ? `<${args.join(', ')}>` : ''}`;
    },
  });
}

/** What another package sees of a module: its public and entry functions' signatures, its datatypes' declarations. */
function surface(m: CompiledModule): string[] {
  const out: string[] = [];
  for (const d of m.functionDefs) {
    if (d.visibility !== 'Public' && !d.isEntry) continue;
    const h = m.functionHandles[d.function];
    const tps = h.typeParameters.map((c) => abilityNames(c).join('+')).join(', ');
    const params = m.signatures[h.parameters].map((t) => typeText(m, t)).join(', ');
    const returns = m.signatures[h.return].map((t) => typeText(m, t)).join(', ');
    out.push(`${d.visibility}${d.isEntry ? ' entry' : ''} fun ${m.identifiers[h.name]}<${tps}>(${params}): (${returns})`);
  }
  for (const d of m.structDefs) {
    const h = m.datatypeHandles[d.structHandle];
    const fields = d.fieldInformation.$kind === 'Declared' ? d.fieldInformation.fields.map((f) => `${m.identifiers[f.name]}: ${typeText(m, f.type)}`) : [];
    out.push(
      `struct ${m.identifiers[h.name]}<${h.typeParameters.map((p) => `${p.isPhantom ? 'phantom ' : ''}${abilityNames(p.constraints).join('+')}`).join(', ')}> has ${abilityNames(h.abilities).join(', ')} { ${fields.join(', ')} }`,
    );
  }
  for (const d of m.enumDefs) {
    const h = m.datatypeHandles[d.enumHandle];
    const variants = d.variants.map((v) => `${m.identifiers[v.variantName]} { ${v.fields.map((f) => `${m.identifiers[f.name]}: ${typeText(m, f.type)}`).join(', ')} }`);
    out.push(`enum ${m.identifiers[h.name]} has ${abilityNames(h.abilities).join(', ')} { ${variants.join(', ')} }`);
  }
  return out.sort();
}

function surfaces(dir: string): Map<string, string[]> {
  return new Map(loadPackageDir(dir).modules.map((m) => [moduleName(m.module), surface(m.module)]));
}

interface Case {
  what: string;
  id: string;
  /** Its original id, when it is an upgrade (the address its modules carry). */
  originalId?: string;
  /** `--corpus` folders (none: the default, the folder the package is in). */
  corpus: string[];
  /** The stubs' dependencies expected: original id → published-at. */
  deps: Record<string, string>;
  /** A module of the dependent package, using the stubs (`<stub>` stands for the stub's named address). */
  use: string;
}

const CORPUS = fixturePath('corpus');
const DEPS = fixturePath('corpus-deps');
const INTEGER_MATE = '0x714a63a0dba6da4f017b42d5d0fb78867f18bcde904868e51d951a5a6f5b7f57';
const MOVE_STL = '0xbe21a06129308e0495431d12286127897aff07a8ade3970495a4404d97f9eaaa';

const CASES: Case[] = [
  {
    what: 'Cetus CLMM v1 (integer_mate, move_stl)',
    id: '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb',
    corpus: [DEPS],
    deps: { [INTEGER_MATE]: INTEGER_MATE, [MOVE_STL]: MOVE_STL },
    use: `module app::use_it;
public fun denominator(): u64 { <stub>::clmm_math::fee_rate_denominator() }
public fun amounts(a: pkg_714a63a0::i32::I32, b: pkg_714a63a0::i32::I32, c: pkg_714a63a0::i32::I32): (u64, u64) {
    <stub>::clmm_math::get_amount_by_liquidity(a, b, c, 1, 2, true)
}
public fun is_admin(acl: &<stub>::acl::ACL, who: address): bool { <stub>::acl::has_role(acl, who, 0) }
`,
  },
  {
    what: 'Cetus CLMM v10 (integer_mate v3, move_stl v4: upgraded dependencies)',
    id: '0xc6faf3703b0e8ba9ed06b7851134bbbe7565eb35ff823fd78432baa4cbeaa12e',
    originalId: '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb',
    corpus: [DEPS],
    deps: { [INTEGER_MATE]: '0xe2b515f0052c0b3f83c23db045d49dbe1732818ccfc5d4596c9482f7f2e76a85', [MOVE_STL]: '0xe93247b408fe44ed0ee5b6ac508b36325b239d6333e44ffa240dcc0c1a69cdd8' },
    use: `module app::use_it;
public fun denominator(): u64 { <stub>::clmm_math::fee_rate_denominator() }
`,
  },
  {
    what: 'Dola (Pyth, which uses Wormhole)',
    id: '0x826915f8ca6d11597dfe6599b8aa02a4c08bd8d39674855254a06ee83fe7220e',
    corpus: [DEPS],
    deps: {
      '0x00b53b0f4174108627fbee72e2498b58d6a2714cded53fac537034c220d26302': '0x00b53b0f4174108627fbee72e2498b58d6a2714cded53fac537034c220d26302',
      '0x5306f64e312b581766351c07af79c72fcb1cd25147157fdc2f8ad76de9a3fb6a': '0x5306f64e312b581766351c07af79c72fcb1cd25147157fdc2f8ad76de9a3fb6a',
    },
    use: `module app::use_it;
public fun ray(): u256 { <stub>::ray_math::ray() }
`,
  },
  {
    what: 'an oracle without dependencies (stubs found beside it)',
    id: '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f',
    corpus: [],
    deps: {},
    use: `module app::use_it;
public fun price(c: &sui::clock::Clock, o: &<stub>::oracle::PriceOracle): u256 {
    let (_, v, _) = <stub>::oracle::get_token_price(c, o, 1);
    v
}
`,
  },
];

describeWithFixtures('smi stubs of a third-party package builds', ['corpus-deps'], () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  for (const c of CASES) {
    it(`${c.what}: stubs → build, and as a local dependency → build`, async () => {
      const original = path.join(CORPUS, c.id);
      const originalId = c.originalId ?? c.id;
      const stubs = tmp('stubs');
      const s = await smi('stubs', original, '--out', stubs, ...c.corpus.flatMap((d) => ['--corpus', d]), '--json');
      expect(s.stderr).toBe('');
      expect(s.code).toBe(0);
      const out = JSON.parse(s.stdout) as { dependencies: { name: string; address: string; published_at: string; dir: string }[] };
      expect(Object.fromEntries(out.dependencies.map((d) => [d.address, d.published_at]))).toEqual(c.deps);
      const manifest = readFileSync(path.join(stubs, 'Move.toml'), 'utf8');
      const stubName = /^name = "(.+)"$/m.exec(manifest)?.[1] ?? '';
      expect(manifest).toContain(`published-at = "${c.id}"`);
      expect(manifest).toContain(`[addresses]\n${stubName} = "${originalId}"`);
      for (const d of out.dependencies) expect(manifest).toContain(`${d.name} = { local = "${d.dir}" }`);

      // The stubs alone, placed at the original id: what another package sees is the original's.
      const built = tmp('built');
      const b = await smi('build', stubs, '--out', built, '--address', originalId, '--json');
      // No warning either (fields and type parameters the stubs' bodies do not use are allowed).
      expect(b.stderr).toBe('');
      expect(b.code).toBe(0);
      const want = surfaces(original);
      const got = surfaces(built);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [name, lines] of want) expect(got.get(name), name).toEqual(lines);
      // The stubs depend on the versions the original links to.
      const deps = (JSON.parse(b.stdout) as { dependencies: string[] }).dependencies;
      for (const at of Object.values(c.deps)) expect(deps).toContain(at);

      // A new package with the stubs as a local dependency, calling them.
      const app = tmp('app');
      mkdirSync(path.join(app, 'sources'), { recursive: true });
      writeFileSync(path.join(app, 'Move.toml'), `[package]\nname = "app"\nedition = "2024"\n\n[dependencies]\nPkg = { local = "${path.relative(app, stubs)}" }\n\n[addresses]\napp = "0x0"\n`);
      writeFileSync(path.join(app, 'sources', 'use_it.move'), c.use.replaceAll('<stub>', stubName));
      const appOut = tmp('app-built');
      const a = await smi('build', app, '--out', appOut, '--json', '--quiet');
      expect(a.stderr).toBe('');
      expect(a.code).toBe(0);
      const appDeps = (JSON.parse(a.stdout) as { dependencies: string[] }).dependencies;
      expect(appDeps).toContain(c.id); // its published-at: the version stubbed
      for (const at of Object.values(c.deps)) expect(appDeps).toContain(at);
      // The call links to the original package's function.
      const use = loadPackageDir(appOut).modules[0].module;
      const called = use.functionHandles.map((h) => `${moduleHandleId(use, h.module).address}::${moduleHandleId(use, h.module).name}`);
      expect(called.some((m) => m.startsWith(`${originalId}::`))).toBe(true);
    });
  }

  it('a source dependency naming itself by number is not its own dependency (no "Dependency cycle detected: lib -> lib")', async () => {
    const lib = tmp('lib');
    mkdirSync(path.join(lib, 'sources'), { recursive: true });
    writeFileSync(path.join(lib, 'Move.toml'), '[package]\nname = "lib"\nedition = "2024"\n\n[addresses]\nlib = "0xab"\n');
    writeFileSync(path.join(lib, 'sources', 'm.move'), 'module lib::m;\npublic struct T has drop { v: u64 }\npublic fun make(v: u64): 0xab::m::T { T { v } }\n');
    const app = tmp('lib-app');
    mkdirSync(path.join(app, 'sources'), { recursive: true });
    writeFileSync(path.join(app, 'Move.toml'), `[package]\nname = "app"\nedition = "2024"\n\n[dependencies]\nlib = { local = "${path.relative(app, lib)}" }\n\n[addresses]\napp = "0x0"\n`);
    writeFileSync(path.join(app, 'sources', 'a.move'), 'module app::a;\npublic fun one(): lib::m::T { lib::m::make(1) }\n');
    const r = await smi('build', app, '--out', tmp('lib-app-built'), '--json', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { dependencies: string[] }).dependencies).toContain(canonicalAddress('0xab'));
  });

  it('a package it uses that is not found is a clear error', async () => {
    const r = await smi('stubs', path.join(CORPUS, CASES[0].id), '--out', tmp('missing'), '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', error_code: 'MISSING_DEPENDENCY' });
    expect(r.stdout).toContain('0x714a63a0');
    expect(r.stdout).toContain('--corpus');
  });
});

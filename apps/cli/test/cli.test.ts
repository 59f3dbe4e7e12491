import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { type CliIo, runCli } from '../src/index.js';
import { smi } from './support/run-cli.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'smi-cli-'));
const SMALL = '0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d';

describe('smi: usage', () => {
  it('--help lists every command', async () => {
    const r = await smi('--help');
    expect(r.code).toBe(0);
    for (const c of ['extract', 'corpus', 'disasm', 'stubs', 'build']) expect(r.stdout).toContain(c);
  });
  for (const cmd of [['extract'], ['corpus', 'check'], ['disasm'], ['stubs'], ['build']]) {
    it(`${cmd.join(' ')} --help`, async () => {
      const r = await smi(...cmd, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Options:/);
    });
  }
  it('no command: exit 2 with one line', async () => {
    const r = await smi();
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('an internal error (a bug) exits 70 with one line and the SMI_DEBUG hint, not a stack', async () => {
    let stderr = '';
    const io: CliIo = {
      stdout: () => {
        throw new TypeError('boom');
      },
      stderr: (t) => (stderr += t),
      isTty: false,
      cwd: process.cwd(),
    };
    expect(await runCli(['--version'], io)).toBe(70);
    expect(stderr).toBe('smi: internal error: boom\nsmi: this is a bug in smi; SMI_DEBUG=1 prints the stack\n');
  });
  it('unknown command and unknown option: exit 2', async () => {
    expect((await smi('frobnicate')).code).toBe(2);
    expect((await smi('extract', '--no-such-flag')).code).toBe(2);
  });
  it('missing package directory: exit 2 with the path', async () => {
    const r = await smi('extract', '--package-dir', '/nonexistent/pkg');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^smi: error: .*\/nonexistent\/pkg/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('malformed module: exit 2 naming the status code', async () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'bytecode_modules'));
    writeFileSync(path.join(dir, 'bytecode_modules', 'bad.mv'), Buffer.from('a11ceb0b07000005ff', 'hex'));
    const r = await smi('extract', '--package-dir', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/MALFORMED|BAD_HEADER_TABLE/);
    const d = await smi('disasm', path.join(dir, 'bytecode_modules', 'bad.mv'));
    expect(d.code).toBe(2);
  });
  it('bad JSON in metadata.json: exit 2', async () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'bytecode_modules'));
    writeFileSync(path.join(dir, 'metadata.json'), '{ not json');
    const r = await smi('extract', '--package-dir', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
  });
});

describeWithFixtures('smi on the fixture corpus', ['corpus'], () => {
  const pkgDir = fixturePath('corpus', SMALL);

  it('extract matches the pinned golden interface', async () => {
    const r = await smi('extract', '--package-dir', pkgDir);
    expect(r.code).toBe(0);
    const golden = readFileSync(path.join(__dirname, '../../../packages/0-bytecode/test/golden', `interface-${SMALL}.json`), 'utf8');
    expect(r.stdout).toBe(golden);
  });

  it("extract accepts the original's spelling and writes a file", async () => {
    const out = path.join(tmp(), 'iface.json');
    const r = await smi('extract', '--bytecode-package-dir', pkgDir, '--emit-bytecode-json', out);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(out, 'utf8')) as { schema_version: number; package_id: string; module_names: string[] };
    expect(json.schema_version).toBe(1);
    expect(json.package_id).toBe(SMALL);
    expect(json.module_names).toEqual(['migrate_proposal']);
  });

  it('extract --corpus writes one file per package, an index and a summary', async () => {
    const out = tmp();
    const r = await smi('extract', '--corpus', fixturePath('corpus'), '--out-dir', out, '--json');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { packages: number; ok: number; modules: number; errors: unknown[] };
    expect(summary.packages).toBe(12);
    expect(summary.ok).toBe(12);
    expect(summary.modules).toBe(207);
    expect(readdirSync(out).filter((f) => f.startsWith('0x'))).toHaveLength(12);
    expect(readFileSync(path.join(out, 'index.jsonl'), 'utf8').trim().split('\n')).toHaveLength(12);
    expect(r.stderr).toMatch(/extract: 12\/12/);
  });

  it('corpus check --json: every module round-trips', async () => {
    const r = await smi('corpus', 'check', '--corpus', fixturePath('corpus'), '--json');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({ packages: 12, modules: 207, roundtrip_identical: 207, errors: [] });
  });

  it('a module that does not read: its own status (MALFORMED), the code said once', async () => {
    const corpus = mkdtempSync(path.join(tmpdir(), 'smi-bad-'));
    const dir = path.join(corpus, 'broken');
    mkdirSync(path.join(dir, 'bytecode_modules'), { recursive: true });
    // The magic and version, then a table count that is not a ULEB128: the deserializer says MALFORMED.
    writeFileSync(path.join(dir, 'bytecode_modules', 'm.mv'), Buffer.from([0xa1, 0x1c, 0xeb, 0x0b, 0x06, 0x00, 0x00, 0x00, 0x99]));
    const check = await smi('corpus', 'check', '--corpus', corpus, '--json');
    expect(check.code).toBe(1);
    const e = (JSON.parse(check.stdout) as { errors: { code: string; message: string }[] }).errors[0];
    expect(e?.code).toBe('MALFORMED');
    expect(e?.message).not.toMatch(/MALFORMED/);
    const text = await smi('corpus', 'check', '--corpus', corpus);
    expect(text.stdout).not.toMatch(/MALFORMED: MALFORMED/);
    const ex = await smi('extract', '--package-dir', dir, '--json');
    expect(ex.code).toBe(2);
    const err = JSON.parse(ex.stdout) as { error_code: string; message: string };
    expect(err.error_code).toBe('MALFORMED');
    // The module and its status, said once.
    expect(err.message).toMatch(/module m: MALFORMED: /);
    expect(err.message.match(/MALFORMED/g)).toHaveLength(1);
  });

  it('disasm a module and one function', async () => {
    const coin = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000002', 'bytecode_modules', 'coin.mv');
    const all = await smi('disasm', coin);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/module 0*2\.coin|module 2\.coin|module 0x2::coin/);
    const one = await smi('disasm', coin, '--function', 'value');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/value/);
    expect(one.stdout.length).toBeLessThan(all.stdout.length);
    const missing = await smi('disasm', coin, '--function', 'no_such_function');
    expect(missing.code).toBe(2);
  });

  it('stubs writes Move.toml and one source per module', async () => {
    const out = tmp();
    const r = await smi('stubs', fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001'), '--out', out, '--json');
    expect(r.code).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: string[] }).files;
    expect(files).toContain('Move.toml');
    expect(files).toContain('sources/vector.move');
    expect(readFileSync(path.join(out, 'sources', 'vector.move'), 'utf8')).toMatch(/public (native )?fun length/);
  });
});

describeWithFixtures('smi build', ['fixtures', 'framework'], () => {
  const writePackage = (source: string): string => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'sources'));
    writeFileSync(path.join(dir, 'Move.toml'), '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n');
    writeFileSync(path.join(dir, 'sources', 'demo.move'), source);
    return dir;
  };

  it('compiles a package offline and writes loadable modules', async () => {
    const dir = writePackage(`module demo::demo {
    use sui::coin::Coin;
    public struct Vault has key { id: UID, total: u64 }
    public fun total<T>(coins: &vector<Coin<T>>): u64 {
        let mut i = 0; let mut sum = 0;
        while (i < vector::length(coins)) { sum = sum + coins[i].value(); i = i + 1; };
        sum
    }
}
`);
    const out = tmp();
    const r = await smi('build', dir, '--out', out, '--framework', fixturePath('fixtures', 'framework'), '--json', '--quiet');
    // Warnings go to stderr, and --quiet silences them.
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout) as { modules: { name: string; size: number }[] };
    expect(res.modules.map((m) => m.name)).toEqual(['demo']);
    const d = await smi('disasm', path.join(out, 'bytecode_modules', 'demo.mv'), '--function', 'total');
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/Call coin::value/);
  });

  it('a compile error exits 2 with the diagnostic', async () => {
    const dir = writePackage('module demo::demo { public fun f(): u64 { true } }\n');
    const r = await smi('build', dir, '--out', tmp(), '--framework', fixturePath('fixtures', 'framework'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^smi: error: compilation failed/);
  });

  it('a directory without Move.toml exits 2', async () => {
    const r = await smi('build', tmp(), '--out', tmp());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Move.toml/);
  });
});

/**
 * One error vocabulary across commands (the README's table of exit statuses and codes):
 * a folder that is not there is `NOT_A_DIRECTORY` (exit 2) in every command, a corpus with
 * no package `NO_PACKAGES` (exit 2) in every command that takes one, a node that does not
 * answer `UNAVAILABLE` (exit 69) in every network command, and no message repeats its code.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { requireBuiltCli, runSmi } from './support/spawn-cli.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'smi-errors-'));
const MISSING = path.join(tmp, 'nope');
const EMPTY = path.join(tmp, 'empty');
const OUT = path.join(tmp, 'out');
const CORPUS = fixturePath('corpus');
const DIGEST = '5FdQpSiSf7ZbFr4qXJHzUDePfx5CGWz2i8QRGsxGFyvL';
/** Nothing listens on port 9 (discard) of this machine: the connection is refused at once. */
const DEAD_NODE = ['--rpc-url', 'http://127.0.0.1:9', '--rpc-retries', '0'];

/** Every command that takes a corpus folder, with that folder as `dir`. */
const corpusCommands = (dir: string): [string, string[]][] => [
  ['extract --corpus', ['extract', '--corpus', dir, '--out-dir', OUT]],
  ['corpus check', ['corpus', 'check', '--corpus', dir]],
  ['benchmark-local --target-corpus', ['benchmark-local', '--target-corpus', dir, '--output', path.join(OUT, 'rows.jsonl')]],
  ['benchmark-local --corpus', ['benchmark-local', '--target-corpus', CORPUS, '--corpus', dir, '--output', path.join(OUT, 'rows.jsonl')]],
  ['call --corpus', ['call', '0x1::u64::max', '--args', '3', '7', '--corpus', dir]],
  ['sandbox-exec --corpus', ['sandbox-exec', '--corpus', dir]],
  ['mcp --corpus', ['mcp', '--corpus', dir]],
  ['phase1', ['phase1', '--corpus-root', dir, '--out', path.join(OUT, 'p1.json')]],
  ['phase2', ['phase2', '--corpus-root', dir, '--out', path.join(OUT, 'p2.json')]],
  ['run-all', ['run-all', '--corpus-root', dir, '--out-dir', OUT]],
];

const MISSING_FOLDER: [string, string[]][] = [
  ...corpusCommands(MISSING),
  ['call --framework', ['call', '0x1::u64::max', '--args', '3', '7', '--framework', MISSING]],
  ['benchmark-local --framework', ['benchmark-local', '--target-corpus', CORPUS, '--framework', MISSING, '--output', path.join(OUT, 'rows.jsonl')]],
  ['build-all', ['build-all', MISSING, '--out', OUT]],
];

const UNREACHABLE_NODE: [string, string[]][] = [
  ['fetch framework', ['fetch', 'framework', '--cache-dir', path.join(tmp, 'cache'), ...DEAD_NODE]],
  ['fetch packages', ['fetch', 'packages', '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb', '--out', path.join(tmp, 'fetched'), ...DEAD_NODE]],
  ['tx-replay', ['tx-replay', '--digest', DIGEST, '--cache-dir', path.join(tmp, 'tx-cache'), ...DEAD_NODE]],
  ['doctor', ['doctor', ...DEAD_NODE]],
];

/** The error a command printed under --json: its last JSON line with an error code (or the codes of its failures). */
function codesOf(stdout: string): string[] {
  const codes: string[] = [];
  for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
    const j = JSON.parse(line) as { error_code?: string; error?: string; failed?: { code: string }[]; endpoints?: { probes: { ok: boolean }[] }[] };
    if (j.error_code !== undefined) codes.push(j.error_code);
    for (const f of j.failed ?? []) codes.push(f.code);
    if (typeof j.error === 'string') codes.push(j.error.split(':')[0]);
  }
  return codes;
}

describeWithFixtures('one error vocabulary across commands', ['corpus'], () => {
  beforeAll(() => {
    requireBuiltCli();
    mkdirSync(EMPTY);
    mkdirSync(OUT);
    writeFileSync(path.join(EMPTY, 'README.md'), 'no packages here\n');
  });

  it.each(MISSING_FOLDER)(
    'a missing folder: %s exits 2 with NOT_A_DIRECTORY',
    async (_name, args) => {
      const r = await runSmi([...args, '--json']);
      expect({ code: r.code, error: (JSON.parse(r.stdout) as { error_code: string }).error_code }, r.stdout + r.stderr).toEqual({ code: 2, error: 'NOT_A_DIRECTORY' });
    },
    60_000,
  );

  it.each(corpusCommands(EMPTY))(
    'an empty corpus: %s exits 2 with NO_PACKAGES',
    async (_name, args) => {
      const r = await runSmi([...args, '--json']);
      expect({ code: r.code, error: (JSON.parse(r.stdout) as { error_code: string }).error_code }, r.stdout + r.stderr).toEqual({ code: 2, error: 'NO_PACKAGES' });
    },
    60_000,
  );

  it.each(UNREACHABLE_NODE)(
    'a node that does not answer: %s exits 69 with UNAVAILABLE',
    async (name, args) => {
      const r = await runSmi([...args, '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(69);
      // doctor reports its probes; the others name the code.
      if (name !== 'doctor') expect(new Set(codesOf(r.stdout)), r.stdout).toEqual(new Set(['UNAVAILABLE']));
    },
    120_000,
  );

  it('no message repeats its code (corrupt bytecode, a package that cannot be read)', async () => {
    const bad = path.join(tmp, 'bad');
    mkdirSync(path.join(bad, '0xabc', 'bytecode_modules'), { recursive: true });
    writeFileSync(path.join(bad, '0xabc', 'bytecode_modules', 'm.mv'), Buffer.from([0xa1, 0x1c, 0xeb, 0x0b, 0x06, 0, 0, 0, 0x09, 0x01, 0x00, 0xff]));
    writeFileSync(path.join(bad, 'g.mv'), 'garbage');
    const runs = await Promise.all([
      runSmi(['disasm', path.join(bad, 'g.mv')]),
      runSmi(['disasm', path.join(bad, '0xabc', 'bytecode_modules', 'm.mv'), '--json']),
      runSmi(['extract', '--package-dir', path.join(bad, '0xabc'), '--json']),
      runSmi(['corpus', 'check', '--corpus', bad]),
      runSmi(['benchmark-local', '--target-corpus', bad, '--output', path.join(OUT, 'bad.jsonl')]),
    ]);
    const doubled = /\b([A-Z][A-Z0-9_]{2,}|E\d{3}): (?:[^\n]*\b)?\1: /;
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toMatch(doubled);
      const json = r.stdout.split('\n').find((l) => l.startsWith('{"status":"error"'));
      if (json !== undefined) {
        const e = JSON.parse(json) as { error_code: string; message: string };
        expect(e.message.startsWith(`${e.error_code}:`), json).toBe(false);
      }
    }
    expect(runs[0].stderr).toMatch(/BAD_MAGIC|Unexpected binary header/);
  }, 120_000);
});

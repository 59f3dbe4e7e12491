/**
 * The conventions every `smi` command follows, tried through the built binary as a user
 * would: --version, help, "did you mean", one JSON error shape, closed pipes, Ctrl-C and
 * SIGTERM, shell completion.
 */
import { canonicalAddress } from '@smi/bytecode';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { COMMANDS } from '../src/index.js';
import { commandName } from '../src/command.js';
import { VERSION } from '../src/version.js';
import { CLI, REPO, requireBuiltCli, runShell, runSmi, scratchCheckout, STACK_TRACE } from './support/spawn-cli.js';

const PKG_0X1 = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001');
const PKG_0X2 = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000002');

function jsonErrorOf(stdout: string): { status: string; error_code: string; message: string } {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const v = JSON.parse(lines[0]) as { status: string; error_code: string; message: string };
  expect(Object.keys(v)).toEqual(['status', 'error_code', 'message']);
  expect(v.status).toBe('error');
  expect(v.error_code).toMatch(/^[A-Z][A-Z0-9_]+$/);
  return v;
}

describe('smi: version, help, suggestions', () => {
  beforeAll(() => requireBuiltCli());

  it('--version and -V print the version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runSmi([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(VERSION);
    }
  });

  it('smi help <command> prints what <command> --help prints; smi help lists every command', async () => {
    for (const spec of COMMANDS) {
      const name = commandName(spec);
      const [viaHelp, viaFlag] = await Promise.all([runSmi(['help', name]), runSmi([name, '--help'])]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toContain('Examples:');
    }
    const all = await runSmi(['help']);
    expect(all.code).toBe(0);
    for (const spec of COMMANDS) expect(all.stdout).toContain(`smi ${spec.command}`);
  });

  it('unknown commands and options suggest the closest valid one', async () => {
    const cmd = await runSmi(['extrct']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toBe("smi: error: unknown command 'extrct' (did you mean extract?); smi --help lists the commands\n");
    const opt = await runSmi(['extract', '--package-dir', PKG_0X1, '--ot', '-']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toContain('unknown option --ot (did you mean --out?)');
    const choice = await runSmi(['conformance', 'trace']);
    expect(choice.stderr).toContain('(did you mean traces?)');
    const missing = await runSmi(['disasm']);
    expect(missing.stderr).toBe('smi: error: missing <target>; usage: smi disasm <target> (smi help disasm)\n');
    const none = await runSmi([]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describeWithFixtures('smi: relative paths', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());

  it('resolve against the working directory, or against INIT_CWD only under `pnpm smi`', async () => {
    const here = scratchCheckout();
    const args = ['extract', '--package-dir', '../shared/corpus/0x1', '--out', 'iface.json', '--quiet'];
    // Started by some other pnpm script (INIT_CWD inherited): the real working directory.
    expect((await runSmi(args, { cwd: here, env: { INIT_CWD: REPO, npm_lifecycle_event: 'test' } })).code).toBe(0);
    expect(existsSync(path.join(here, 'iface.json'))).toBe(true);
    // `pnpm smi` runs from the repository root and names the user's directory in INIT_CWD.
    const there = scratchCheckout();
    expect((await runSmi(args, { cwd: REPO, env: { INIT_CWD: there, npm_lifecycle_event: 'smi' } })).code).toBe(0);
    expect(existsSync(path.join(there, 'iface.json'))).toBe(true);
    expect(existsSync(path.join(REPO, 'iface.json'))).toBe(false);
  });
});

describeWithFixtures('smi: one JSON error shape', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());
  const missing = path.join(os.tmpdir(), 'smi-does-not-exist');
  /** One bad invocation per command, and the code it must give. */
  const BAD: Record<string, { args: string[]; code: string }> = {
    extract: { args: ['extract', '--package-dir', missing], code: 'NOT_A_DIRECTORY' },
    corpus: { args: ['corpus', 'check', '--corpus', missing], code: 'NOT_A_DIRECTORY' },
    disasm: { args: ['disasm', missing], code: 'FILE_NOT_FOUND' },
    stubs: { args: ['stubs', missing, '--out', missing], code: 'NOT_A_DIRECTORY' },
    build: { args: ['build', missing, '--out', missing], code: 'NOT_A_MOVE_PACKAGE' },
    'build-all': { args: ['build-all', missing, '--out', missing], code: 'NOT_A_DIRECTORY' },
    call: { args: ['call', '0x1::no_such_module::f'], code: 'MISSING_DEPENDENCY' },
    conformance: { args: ['conformance', 'traces', '--dir', missing], code: 'NOT_A_DIRECTORY' },
    replay: { args: ['replay', '--snapshot', missing], code: 'FILE_NOT_FOUND' },
    'tx-replay': { args: ['tx-replay', '--digest', 'not-a-digest'], code: 'INVALID_DIGEST' },
    'ptb-eval': { args: ['ptb-eval', '--cache-dir', missing], code: 'EMPTY_CACHE' },
    compare: { args: ['compare', missing, missing], code: 'FILE_NOT_FOUND' },
    rescore: { args: ['rescore', missing], code: 'FILE_NOT_FOUND' },
    'sandbox-exec': { args: ['sandbox-exec', '--state-file', '-'], code: 'INVALID_FILE' },
    mcp: { args: ['mcp', '--state-file', '-'], code: 'INVALID_FILE' },
    completion: { args: ['completion', 'fish'], code: 'INVALID_CHOICE' },
    'benchmark-local': { args: ['benchmark-local', '--target-corpus', missing], code: 'NOT_A_DIRECTORY' },
    phase1: { args: ['phase1', '--corpus-root', missing, '--no-log'], code: 'NOT_A_DIRECTORY' },
    phase2: { args: ['phase2', '--corpus-root', missing, '--no-log'], code: 'NOT_A_DIRECTORY' },
    'phase2-manifest': { args: ['phase2-manifest', '--corpus-root', missing, '--out-ids', missing, '--out-plan', missing], code: 'NOT_A_DIRECTORY' },
    'manifest-filter': { args: ['manifest-filter', missing], code: 'FILE_NOT_FOUND' },
    'run-all': { args: ['run-all', '--corpus-root', missing, '--out-dir', missing], code: 'NOT_A_DIRECTORY' },
    merge: { args: ['merge', missing, '--out-dir', missing], code: 'RUN_NOT_FOUND' },
    'merge-rows': { args: ['merge-rows', missing], code: 'FILE_NOT_FOUND' },
    report: { args: ['report', missing, '--out', missing], code: 'FILE_NOT_FOUND' },
    cache: { args: ['cache', 'prune', '--older-than', 'yesterday', '--cache-dir', missing], code: 'INVALID_NUMBER' },
  };

  it('every command has a bad-input case here', () => {
    expect(Object.keys(BAD).sort()).toEqual(COMMANDS.map(commandName).sort());
  });

  it('--json errors are {"status":"error","error_code","message"} on one line, exit 2; without --json one line on stderr', async () => {
    const runs = await Promise.all(Object.entries(BAD).map(async ([name, bad]) => ({ name, bad, json: await runSmi([...bad.args, '--json']), text: await runSmi(bad.args) })));
    for (const { name, bad, json, text } of runs) {
      expect(json.code, name).toBe(2);
      expect(jsonErrorOf(json.stdout).error_code, name).toBe(bad.code);
      expect(json.stderr, name).toBe('');
      expect(text.code, name).toBe(2);
      expect(text.stdout, name).toBe('');
      expect(text.stderr, name).toMatch(/^smi: error: [^\n]+\n$/);
    }
  });

  it('option errors under --json have the same shape', async () => {
    const r = await runSmi(['extract', '--package-dirr', PKG_0X1, '--json']);
    expect(r.code).toBe(2);
    const e = jsonErrorOf(r.stdout);
    expect(e.error_code).toBe('UNKNOWN_OPTION');
    expect(e.message).toContain('did you mean --package-dir?');
    expect(jsonErrorOf((await runSmi(['frob', '--json'])).stdout).error_code).toBe('UNKNOWN_COMMAND');
  });

  it('a file option without its value, an unwritable path, a suite with nothing to run: exit 2 with a code', async () => {
    const [noValue, unwritable, noTests, notModule] = await Promise.all([
      runSmi(['extract', '--package-dir', PKG_0X1, '--out', '--json']),
      runSmi(['extract', '--package-dir', PKG_0X1, '--out', '/etc/passwd/iface.json', '--json']),
      runSmi(['conformance', 'ir-vm', '--filter', 'no-such-test', '--json']),
      runSmi(['disasm', path.join(PKG_0X1, 'metadata.json'), '--json']),
    ]);
    expect(jsonErrorOf(noValue.stdout)).toMatchObject({ error_code: 'MISSING_ARGUMENT', message: '--out needs a value: a file, or - for standard output' });
    expect(jsonErrorOf(unwritable.stdout)).toMatchObject({ error_code: 'IO_ERROR' });
    expect(jsonErrorOf(noTests.stdout)).toMatchObject({ error_code: 'NO_TESTS' });
    expect(jsonErrorOf(notModule.stdout).message).toMatch(/metadata\.json: /);
    for (const r of [noValue, unwritable, noTests, notModule]) expect(r.code).toBe(2);
  });
});

describeWithFixtures('smi: a reader that goes away', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());

  it('closing the pipe after the first line ends the command quietly (exit 141, no stack trace)', async () => {
    const child = spawn(process.execPath, [CLI, 'disasm', PKG_0X2], { cwd: REPO, env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await new Promise<string>((resolve) => {
      const rl = createInterface({ input: child.stdout });
      rl.once('line', (line) => {
        rl.close();
        child.stdout.destroy();
        resolve(line);
      });
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(first).toMatch(/^\/\/ Move bytecode v\d$/);
    expect(code).toBe(141);
    expect(stderr).toBe('');
  });

  it('every command whose output is cut off (| head -1, | true) exits 141 or 0, without a stack trace', async () => {
    const Z = (n: string): string => fixturePath('corpus', canonicalAddress(`0x${n}`));
    const lines = [
      `smi extract --package-dir ${Z('2')} --out - | head -1`,
      `smi extract --bytecode-package-dir ${Z('2')} --emit-bytecode-json - | head -1`,
      `smi disasm ${Z('2')} | head -1`,
      `smi corpus check --corpus ${fixturePath('corpus')} | true`,
      `smi call 0x1::u64::pow --args 2 10 | true`,
      `smi stubs ${Z('1')} --out ${mkdtempSync(path.join(os.tmpdir(), 'smi-stubs-'))} | true`,
      `smi conformance ir-compiler --filter bytecode-generation/ | head -1`,
      `echo '{"action":"get_clock"}' | smi sandbox-exec | head -1`,
      `smi completion bash | head -1`,
      `smi help extract | head -1`,
    ];
    const runs = await Promise.all(lines.map(async (line) => ({ line, r: await runShell(line) })));
    for (const { line, r } of runs) {
      expect([0, 141], `${line}: ${r.stderr}`).toContain(r.code);
      expect(r.stderr, line).not.toMatch(STACK_TRACE);
      expect(r.stderr, line).not.toMatch(/EPIPE/);
    }
    // Large outputs are cut off for real: these could not be written whole.
    expect(runs[0].r.code).toBe(141);
    expect(runs[2].r.code).toBe(141);
  });
});

describeWithFixtures('smi: Ctrl-C and SIGTERM', ['fixtures', 'adapter-tests'], () => {
  beforeAll(() => requireBuiltCli());

  /** Start a long command, signal it once its first progress line is out, and collect what it printed. */
  async function interrupt(args: string[], sig: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let sent = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('\n')) {
        sent = true;
        child.kill(sig);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    return { code, stdout, stderr };
  }

  it('conformance: Ctrl-C stops after the current file and prints the summary of the files run (exit 130)', async () => {
    const r = await interrupt(['conformance', 'adapter', '--filter', 'programmable/', '--json'], 'SIGINT');
    expect(r.code).toBe(130);
    const summary = JSON.parse(r.stdout) as { interrupted?: boolean; files: number; tasks: number };
    expect(summary.interrupted).toBe(true);
    expect(summary.files).toBeGreaterThan(0);
    expect(summary.tasks).toBeGreaterThan(0);
    expect(r.stderr).toContain('smi: SIGINT: stopping after the current step');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it('SIGTERM does the same with exit 143', async () => {
    const r = await interrupt(['conformance', 'adapter', '--filter', 'programmable/'], 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stdout).toMatch(/^adapter: \d+ files, .*\(interrupted\)$/m);
  });

  it('sandbox-exec --interactive: Ctrl-C ends the session; every answered request is in the state file', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-sigint-')), 'state.json');
    const child = spawn(process.execPath, [CLI, 'sandbox-exec', '--interactive', '--state-file', stateFile], {
      cwd: REPO,
      env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const rl = createInterface({ input: child.stdout });
    const answered = new Promise<string>((resolve) => rl.once('line', resolve));
    child.stdin.write(`${JSON.stringify({ action: 'set_clock', timestamp_ms: 1234567 })}\n`);
    expect(JSON.parse(await answered)).toMatchObject({ success: true });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(130);
    expect(stderr).not.toMatch(STACK_TRACE);
    expect(readFileSync(stateFile, 'utf8')).toContain('1234567');
  });
});

describe('smi completion', () => {
  beforeAll(() => requireBuiltCli());

  it('prints yargs completion scripts for bash and zsh, and answers completion requests', async () => {
    const bash = await runSmi(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('_smi_yargs_completions');
    expect(bash.stdout).toContain('complete -o bashdefault -o default -F _smi_yargs_completions smi');
    const zsh = await runSmi(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef smi/);
    const commands = await runSmi(['--get-yargs-completions', 'smi', 'ex'], { env: { SHELL: '/bin/bash' } });
    expect(commands.stdout.split('\n')).toEqual(expect.arrayContaining(['extract', 'conformance', 'sandbox-exec']));
    const options = await runSmi(['--get-yargs-completions', 'smi', 'extract', '--o'], { env: { SHELL: '/bin/bash' } });
    expect(options.stdout.split('\n')).toEqual(expect.arrayContaining(['--out', '--out-dir', '--package-dir']));
  });

  it('the bash script completes commands in a real bash', async () => {
    const r = await runShell(
      [
        `PATH="${path.dirname(process.execPath)}:$PATH"`,
        `mkdir -p "$TMPDIR_BIN" && printf '#!/bin/sh\\nexec "%s" "%s" "$@"\\n' "${process.execPath}" "${CLI}" > "$TMPDIR_BIN/smi" && chmod +x "$TMPDIR_BIN/smi"`,
        'PATH="$TMPDIR_BIN:$PATH"',
        'source <(smi completion bash)',
        'COMP_WORDS=(smi extr); COMP_CWORD=1; _smi_yargs_completions',
        'printf "%s\\n" "${COMPREPLY[@]}"',
      ].join('\n'),
      { env: { TMPDIR_BIN: mkdtempSync(path.join(os.tmpdir(), 'smi-bin-')), SHELL: '/bin/bash' } },
    );
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('extract');
  });
});

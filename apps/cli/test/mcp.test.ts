/**
 * `smi mcp` end to end, through the built binary: an SDK `Client` over a real stdio
 * transport (tools listed and called; nothing but protocol messages on stdout), a session
 * typed by hand as JSON-RPC lines, the state file across sessions, the exit statuses
 * (0 when stdin closes, 130/143 on Ctrl-C/SIGTERM, 2 on bad options).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { call, Client, fails, type Obj, ok, StdioClientTransport } from '../../../packages/7-mcp/test/support/client.js';
import { CLI, REPO, requireBuiltCli, runSmi, STACK_TRACE } from './support/spawn-cli.js';

const ORACLE = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';
const ORACLE_DIR = fixturePath('corpus', ORACLE);
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

function lines(...messages: unknown[]): string {
  return messages.map((m) => JSON.stringify(m)).join('\n') + '\n';
}

function toolCall(id: number, name: string, args: Obj): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

/** Every line of stdout, parsed: each one must be a JSON-RPC 2.0 message. */
function protocolLines(stdout: string): Obj[] {
  const out = stdout.split('\n').filter((l) => l !== '');
  return out.map((l) => {
    const m = JSON.parse(l) as Obj;
    expect(m.jsonrpc, l).toBe('2.0');
    return m;
  });
}

/** A client of a `smi mcp` child process; stderr collected, transport errors (a stray stdout line) kept. */
async function spawnClient(args: string[]): Promise<{ client: Client; stderr: () => string; errors: Error[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    cwd: REPO,
    env: { ...(process.env as Record<string, string>), SMI_FIXTURES: FIXTURES_ROOT },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const errors: Error[] = [];
  const client = new Client({ name: 'smi-cli-test', version: '0.0.0' });
  await client.connect(transport);
  // Set after connect: the client installs its own handler there.
  const previous = transport.onerror;
  transport.onerror = (e) => {
    errors.push(e);
    previous?.(e);
  };
  return { client, stderr: () => stderr, errors };
}

describeWithFixtures('smi mcp', ['corpus'], () => {
  beforeAll(() => requireBuiltCli());

  it('serves an SDK client over stdio: tools listed and called, an abort as a result, bad input as a JSON error', async () => {
    const { client, stderr, errors } = await spawnClient(['--corpus', ORACLE_DIR, '--verbose']);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_packages', 'call_function', 'execute_ptb', 'read_object', 'compile_and_publish', 'run_inhabit']));
      expect(await ok(client, 'list_modules', { package: ORACLE })).toEqual({ modules: [`${ORACLE}::oracle`], count: 1 });
      const max = await ok(client, 'call_function', { package: '0x1', module: 'u64', function: 'max', args: [3, 7] });
      expect(max).toMatchObject({ status: 'success', return_values: [{ type: 'u64', value: '7' }] });
      const abort = await ok(client, 'call_function', { package: '0x1', module: 'option', function: 'extract', type_args: ['u64'], args: [null] });
      expect(abort).toMatchObject({ status: 'aborted', abort_code: 262145 });
      await fails(client, 'call_function', { package: '0x1', module: 'u64', function: 'max', args: [1] }, 'TYPE_MISMATCH');
      const row = await ok(client, 'run_inhabit', { package: ORACLE, module: 'oracle', function: 'get_token_price', tier_a_only: true });
      expect(row).toMatchObject({ target_function: 'get_token_price', status: expect.stringMatching(/^(tier_a_hit|miss)$/) as string });
      expect((await call(client, 'list_packages')).isError).toBe(false);
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
    expect(stderr()).toMatch(/\[smi mcp\] call_function: ok/);
    expect(stderr()).not.toMatch(STACK_TRACE);
  }, 120_000);

  it('answers a line that is not JSON with a parse error, and one that is not JSON-RPC as an invalid request; the session goes on', async () => {
    const r = await runSmi(['mcp'], { stdin: `${JSON.stringify(INIT)}\n{not json\n{"hello":1}\n${lines(INITIALIZED, { jsonrpc: '2.0', id: 2, method: 'tools/list' })}` });
    expect(r.code, r.stderr).toBe(0);
    const messages = protocolLines(r.stdout);
    // Answers may come in any order (JSON-RPC matches them by id; the bad lines have none).
    const got = messages.map((m) => [m.id, (m.error as Obj | undefined)?.code ?? null]);
    expect(got).toHaveLength(4);
    expect(got).toEqual(
      expect.arrayContaining([
        [1, null],
        [null, -32700],
        [null, -32600],
        [2, null],
      ]),
    );
  });

  it('answers a session typed as JSON-RPC lines, only protocol messages on stdout, and exits 0 when stdin closes', async () => {
    const r = await runSmi(['mcp', '--corpus', ORACLE_DIR], {
      stdin: lines(
        INIT,
        INITIALIZED,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        toolCall(3, 'call_function', { package: '0x1', module: 'u64', function: 'max', args: [3, 7] }),
        toolCall(4, 'read_object', { object_id: 'nope' }),
      ),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const messages = protocolLines(r.stdout);
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect((messages[0].result as Obj).serverInfo).toMatchObject({ name: 'smi' });
    expect(((messages[1].result as Obj).tools as Obj[]).length).toBeGreaterThan(10);
    const result = messages[2].result as { content: { text: string }[]; isError?: boolean };
    expect(JSON.parse(result.content[0].text)).toMatchObject({ status: 'success', return_values: [{ value: '7' }] });
    const bad = messages[3].result as { content: { text: string }[]; isError?: boolean };
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[0].text)).toMatchObject({ error_code: 'INVALID_INPUT' });
  });

  it('keeps the session in --state-file for the next one', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-mcp-cli-')), 'state.json');
    const first = await runSmi(['mcp', '--state-file', stateFile], {
      stdin: lines(INIT, INITIALIZED, toolCall(2, 'create_object', { object_type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: '77' } })),
    });
    expect(first.code, first.stderr).toBe(0);
    const made = JSON.parse(((protocolLines(first.stdout)[1].result as Obj).content as { text: string }[])[0].text) as Obj;
    const second = await runSmi(['mcp', '--state-file', stateFile], { stdin: lines(INIT, INITIALIZED, toolCall(2, 'read_object', { object_id: made.object_id })) });
    expect(second.code, second.stderr).toBe(0);
    const read = JSON.parse(((protocolLines(second.stdout)[1].result as Obj).content as { text: string }[])[0].text) as Obj;
    expect(read).toMatchObject({ object_id: made.object_id, decoded: { balance: { value: '77' } } });
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('stops on %s with exit %i', async (signal, code) => {
    const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: REPO, env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    const firstLine = new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    child.stdin.write(lines(INIT));
    expect(JSON.parse(await firstLine)).toMatchObject({ id: 1, result: { serverInfo: { name: 'smi' } } });
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(stderr).not.toMatch(STACK_TRACE);
    child.stdin.destroy();
  });

  it('refuses a message longer than 8 MiB (input that never ends a line) with exit 2, having answered what came before', async () => {
    const r = await runSmi(['mcp'], { stdin: lines(INIT) + 'x'.repeat(9 * 1024 * 1024) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/smi: error: a message on standard input is longer than 8388608 bytes/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(protocolLines(r.stdout).map((m) => m.id)).toEqual([1]);
  });

  it('refuses bad options before serving: exit 2, one line on stderr (a JSON error with --json), nothing else on stdout', async () => {
    const missing = path.join(os.tmpdir(), 'smi-does-not-exist');
    const [text, json, state, typo] = await Promise.all([
      runSmi(['mcp', '--corpus', missing]),
      runSmi(['mcp', '--corpus', missing, '--json']),
      runSmi(['mcp', '--state-file', '-', '--json']),
      runSmi(['mcp', '--corpsu', ORACLE_DIR]),
    ]);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^smi: error: --corpus [^\n]+: not a directory\n$/);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'error', error_code: 'NOT_A_DIRECTORY' });
    expect(JSON.parse(state.stdout)).toMatchObject({ status: 'error', error_code: 'INVALID_FILE' });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean --corpus?');
  });
});

/**
 * Every example of every `--help` is shown there and runs: each one is run, as written, in
 * a fresh working directory laid out like a checkout (`../shared` beside it), through the
 * built binary, so that none of them rots.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPackageDirs, loadPackageDir } from '@smi/bytecode';
import { loadProtocolConfig } from '@smi/move-vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chainOfPackages } from '../../../test-support/fake-chain.js';
import { type FakeGrpcServer, startFakeGrpc } from '../../../test-support/fake-grpc.js';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { commandName, type Example } from '../src/command.js';
import { COMMANDS, MAIN_EXAMPLES } from '../src/index.js';
import { requireBuiltCli, runShell, runSmi, scratchCheckout, STACK_TRACE } from './support/spawn-cli.js';

const EXAMPLES: { help: string[]; example: Example }[] = [
  ...MAIN_EXAMPLES.map((example) => ({ help: ['--help'], example })),
  ...COMMANDS.flatMap((spec) => spec.examples.map((example) => ({ help: [commandName(spec), '--help'], example }))),
];

describeWithFixtures('smi: every --help example', ['corpus'], () => {
  // The examples that talk to a node (smi fetch) talk to a loopback one ($SMI_RPC_URL) serving
  // the shared corpora's packages, and write their cache into a scratch folder.
  let node: FakeGrpcServer;
  let networkEnv: NodeJS.ProcessEnv;
  beforeAll(async () => {
    requireBuiltCli();
    const packages = ['corpus', 'corpus-mainnet', 'corpus-deps'].flatMap((c) => findPackageDirs(fixturePath(c)).map((d) => loadPackageDir(d)));
    node = await startFakeGrpc(chainOfPackages(packages, loadProtocolConfig(FIXTURES_ROOT)));
    networkEnv = { SMI_RPC_URL: node.url, XDG_CACHE_HOME: mkdtempSync(path.join(os.tmpdir(), 'smi-cache-')) };
  });
  afterAll(async () => node?.close());

  it('every command has at least one example, and --help shows each one', async () => {
    for (const spec of COMMANDS) expect(spec.examples.length, commandName(spec)).toBeGreaterThan(0);
    // Help wraps long lines at spaces: compare with runs of whitespace as one space.
    const flat = (t: string): string => t.replace(/\s+/g, ' ');
    // Each help text once (a command's examples share it).
    const helps = new Map<string, string>();
    for (const { help, example } of EXAMPLES) {
      const key = help.join(' ');
      let shown = helps.get(key);
      if (shown === undefined) helps.set(key, (shown = flat((await runSmi(help)).stdout)));
      expect(shown, example.command).toContain(flat(example.command.replace(/\$0/g, 'smi')));
      expect(shown, example.command).toContain(flat(`# ${example.describe}`));
    }
  }, 240_000);

  it.each(EXAMPLES.map(({ example }) => [example.command, example] as const))('runs: %s', async (_name, example) => {
    const line = example.command.replace(/\$0/g, 'smi');
    const cwd = scratchCheckout();
    const r = await runShell(line, { cwd, env: networkEnv });
    // A pipe into `head` may cut the output short: 141 is the status of that, not a failure.
    const ok = /\|\s*head\b/.test(line) ? [0, 141] : [0];
    expect(ok, `${line}\nstdout: ${r.stdout.slice(0, 400)}\nstderr: ${r.stderr.slice(0, 800)}`).toContain(r.code);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    const redirected = /[^2]>\s*(\S+)\s*$/.exec(line);
    const printed = redirected ? readFileSync(path.join(cwd, redirected[1]), 'utf8') : r.stdout + r.stderr;
    expect(printed.length, `${line} printed nothing`).toBeGreaterThan(0);
  });
});

/**
 * Driving the built `smi` binary (`apps/cli/dist/cli.js`, from `pnpm build`) as a user
 * would: a child process with real pipes, or a shell pipeline (`smi ... | head -1`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES_ROOT } from '../../../../test-support/fixtures.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const CLI = path.join(REPO, 'apps/cli/dist/cli.js');

/** What one run printed and how it ended. */
export interface SpawnRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of a run. */
export interface SpawnOptions {
  stdin?: string | Buffer;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, SMI_FIXTURES: FIXTURES_ROOT, ...extra };
}

/** Fail clearly when the binary is missing or older than its sources (run `pnpm build` first). */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} not found: run \`pnpm build\` before these tests`);
  const built = statSync(CLI).mtimeMs;
  const src = path.join(REPO, 'apps/cli/src');
  const newest = Math.max(...readdirSync(src, { recursive: true, encoding: 'utf8' }).map((f) => statSync(path.join(src, f)).mtimeMs));
  if (newest > built) throw new Error(`${CLI} is older than apps/cli/src: run \`pnpm build\` before these tests`);
}

function collect(child: ReturnType<typeof spawn>, stdin: string | Buffer | undefined): Promise<SpawnRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A command may stop reading before the end of its input (EPIPE): not an error of the test.
    child.stdin?.on('error', () => {});
    child.stdin?.end(stdin ?? '');
  });
}

/** Run `smi ...args`; resolves with exit status and output. */
export function runSmi(args: string[], stdinOrOptions: string | SpawnOptions = ''): Promise<SpawnRun> {
  const o: SpawnOptions = typeof stdinOrOptions === 'string' ? { stdin: stdinOrOptions } : stdinOrOptions;
  const child = spawn(process.execPath, [CLI, ...args], { cwd: o.cwd ?? REPO, env: env(o.env) });
  return collect(child, o.stdin);
}

/**
 * Run a shell command line with `bash -o pipefail -c`, where `smi` stands for the built
 * CLI (the status of a pipeline is its last failing command's).
 */
export function runShell(line: string, o: SpawnOptions = {}): Promise<SpawnRun> {
  const script = `smi() { "${process.execPath}" "${CLI}" "$@"; }\n${line}`;
  const child = spawn('bash', ['-o', 'pipefail', '-c', script], { cwd: o.cwd ?? REPO, env: env(o.env) });
  return collect(child, o.stdin);
}

/**
 * A fresh working directory laid out as a checkout: `<tmp>/repo` (the cwd, with `apps/`
 * linked to this repository's) beside `<tmp>/shared` (linked to the fixtures), so that
 * paths written for the repository root (`../shared/corpus`, `apps/cli/examples`) work
 * and whatever a command writes lands in the temp folder.
 */
export function scratchCheckout(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'smi-cli-'));
  symlinkSync(FIXTURES_ROOT, path.join(root, 'shared'));
  const repo = path.join(root, 'repo');
  mkdirSync(repo);
  symlinkSync(path.join(REPO, 'apps'), path.join(repo, 'apps'));
  return repo;
}

/** A Node stack trace or an unhandled error in a command's stderr. */
export const STACK_TRACE = /\n\s+at .+:\d+:\d+|Unhandled|node:internal|Error: write/;

/**
 * `smi sandbox-exec` driven through the built binary: one-shot runs (see
 * `support/spawn-cli.ts`) and interactive sessions fed line by line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { CLI, REPO } from './support/spawn-cli.js';

export { CLI, REPO, requireBuiltCli, runSmi } from './support/spawn-cli.js';

/** A response as JSON. */
export type Response = {
  success: boolean;
  error?: string;
  error_category?: string;
  data?: Record<string, unknown>;
  [k: string]: unknown;
};

/** An interactive `smi sandbox-exec --interactive` child. */
export class Session {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly lines: string[] = [];
  stderr = '';
  private waiters: (() => void)[] = [];

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, 'sandbox-exec', '--interactive', ...args], { cwd: REPO, env: { ...process.env, SMI_FIXTURES: FIXTURES_ROOT } });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Write raw text (one or more lines). */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Wait until `n` response lines have arrived. */
  async waitFor(n: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length < n) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for response ${n} (got ${this.lines.length}); stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Send one request (object or raw line) and return its response. */
  async ask(request: unknown): Promise<Response> {
    const n = this.lines.length + 1;
    this.write((typeof request === 'string' ? request : JSON.stringify(request)) + '\n');
    await this.waitFor(n);
    return JSON.parse(this.lines[n - 1]) as Response;
  }

  /** Close stdin and wait for the exit. */
  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.exited;
  }
}

/** Running `smi` in-process with captured output, for the CLI tests. */
import { runCli, type CliIo } from '../../src/index.js';

/** What one `smi` run printed and returned. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `smi <argv>` in this process (cwd: the test's working directory). */
export async function smi(...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTty: false, cwd: process.cwd() };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** Run `smi <argv>` in this process as if started in directory `cwd`. */
export async function smiIn(cwd: string, ...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTty: false, cwd };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

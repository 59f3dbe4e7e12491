// @smi/cli as a library (the `smi` binary itself is run by the runner): run a command in
// process and read its JSON output.
import { runCli, type CliIo } from '@smi/cli';
import { check, done } from './fixtures.mjs';

let out = '';
let err = '';
const io: CliIo = {
  stdout: (s) => void (out += s),
  stderr: (s) => void (err += s),
  isTty: false,
  cwd: process.cwd(),
};
const code = await runCli(['call', '0x1::u64::max', '--args', '3', '7', '--json'], io);
check(code === 0, `exit 0 (got ${code}: ${err})`);
const json = JSON.parse(out) as { status: string; return_values: { value: string }[] };
const value = json.return_values[0]?.value;
check(value === '7', `max(3, 7) is 7 (${out})`);
done(`runCli call 0x1::u64::max --args 3 7 --json: ${json.status}, ${value}`);

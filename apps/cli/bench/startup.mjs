// How fast `smi` starts: the median wall time and peak memory of `smi --version`, `smi --help`
// and `smi call 0x1::u64::max --args 3 7` over 10 runs each, against Node's own start
// (`node -e 0`, the reference, measured in the same run). One line per workload.
// After `pnpm build`, from the repo root:
//   node apps/cli/bench/startup.mjs   (or: pnpm --filter @smi/cli bench)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
// The framework of `smi call`: the fixtures beside the checkout unless SMI_FIXTURES says otherwise.
const ENV = { ...process.env, SMI_FIXTURES: process.env.SMI_FIXTURES ?? fileURLToPath(new URL('../../../../shared', import.meta.url)) };
const RUNS = 10;
const MAXRSS = 'data:text/javascript,process.on("exit",()=>process.stderr.write("\\nmaxrss "+process.resourceUsage().maxRSS+"\\n"))';

function measure(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: ENV });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  // Peak memory from one more run that reports its own (/usr/bin/time is not everywhere).
  const probe = spawnSync(process.execPath, ['--import', MAXRSS, ...args], { encoding: 'utf8', env: ENV });
  return { ms: times[Math.floor(RUNS / 2)], mb: Number(/maxrss (\d+)/.exec(probe.stderr)?.[1] ?? 0) / 1024 };
}

const ref = measure(['-e', '0']);
console.log(`startup: ${'node -e 0'.padEnd(36)} | ${ref.ms.toFixed(0).padStart(4)} ms ${ref.mb.toFixed(0).padStart(4)} MB | reference`);
for (const [label, args] of [
  ['smi --version', ['--version']],
  ['smi --help', ['--help']],
  ['smi call 0x1::u64::max --args 3 7', ['call', '0x1::u64::max', '--args', '3', '7']],
]) {
  const r = measure([CLI, ...args]);
  console.log(`startup: ${label.padEnd(36)} | ${r.ms.toFixed(0).padStart(4)} ms ${r.mb.toFixed(0).padStart(4)} MB | ${(r.ms - ref.ms).toFixed(0)} ms over Node's start`);
}

// bench/interpreter: Move loops compiled from source, run by @smi/move-vm with gas
// metering on (hot functions compiled to JS, as by default; the interpreter alone shown beside),
// against a plain-JS BigInt loop doing the same work in the same run.
// One line per workload; times are medians of the runs made in one second. Run after `pnpm build`: `pnpm --filter @smi/move-vm bench`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundleFile, packageFromBytes } from '@smi/bytecode';
import { compileMovePackage } from '@smi/move-compiler';
import { MoveVM } from '../dist/index.js';
import { medianTime } from './timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..', process.env.SMI_FIXTURES ?? '../shared');
const fwDir = path.join(root, 'fixtures', 'framework');
const N = BigInt(process.env.SMI_BENCH_N ?? 200000);

const SOURCE = `
module bench::loops {
    public fun arith(n: u64): u64 {
        let mut i = 0;
        let mut sum = 0;
        while (i < n) { sum = sum + i; i = i + 1; };
        sum
    }
    public fun vec_sum(n: u64): u64 {
        let mut v = vector[];
        let mut i = 0;
        while (i < n) { v.push_back(i); i = i + 1; };
        let mut s = 0;
        let mut j = 0;
        while (j < n) { s = s + v[j]; j = j + 1; };
        s
    }
    public struct P has copy, drop { x: u64, y: u64 }
    public fun structs(n: u64): u64 {
        let mut p = P { x: 0, y: 1 };
        let mut i = 0;
        while (i < n) { p = P { x: p.y, y: (p.x + p.y) % 1000 }; i = i + 1; };
        p.x
    }
    fun id<T: copy + drop>(x: T): T { x }
    public fun generic_calls(n: u64): u64 {
        let mut i = 0;
        let mut s = 0;
        while (i < n) { s = s + id(i) % 7; i = id<u64>(i) + 1; };
        s
    }
}
`;

const js = {
  arith: (n) => {
    let i = 0n;
    let sum = 0n;
    while (i < n) {
      sum = sum + i;
      if (sum > 0xffffffffffffffffn) throw new Error('overflow');
      i = i + 1n;
    }
    return sum;
  },
  vec_sum: (n) => {
    const v = [];
    for (let i = 0n; i < n; i++) v.push(i);
    let s = 0n;
    for (let j = 0n; j < n; j++) s += v[Number(j)];
    return s;
  },
  structs: (n) => {
    let p = { x: 0n, y: 1n };
    for (let i = 0n; i < n; i++) p = { x: p.y, y: (p.x + p.y) % 1000n };
    return p.x;
  },
  generic_calls: (n) => {
    const id = (x) => x;
    let s = 0n;
    for (let i = 0n; i < n; i = id(i) + 1n) s += id(i) % 7n;
    return s;
  },
};

const names = (process.env.SMI_BENCH_ONLY ?? 'arith,vec_sum,structs,generic_calls').split(',');
const unknown = names.filter((n) => !(n in js));
if (unknown.length > 0) {
  console.error(`bench: unknown workload ${unknown.join(', ')} in SMI_BENCH_ONLY (known: ${Object.keys(js).join(', ')})`);
  process.exit(2);
}
const t0 = performance.now();
const framework = readdirSync(fwDir)
  .sort()
  .map((f) => loadBundleFile(path.join(fwDir, f)));
const vm0 = MoveVM.create({ packages: framework });
vm0.call('0x1::u64::max', {
  args: [
    { $kind: 'Value', value: 1n },
    { $kind: 'Value', value: 2n },
  ],
});
const startup = performance.now() - t0;
console.log(`startup: load the whole framework (${framework.reduce((n, p) => n + p.modules.length, 0)} modules) and make the first call: ${startup.toFixed(1)} ms (goal < 150 ms)`);

const compiled = await compileMovePackage({
  files: { 'Move.toml': '[package]\nname = "bench"\nedition = "2024"\n\n[addresses]\nbench = "0x0"\n', 'sources/loops.move': SOURCE },
  dependencies: framework
    .filter((p) => ['0x1', '0x2'].includes('0x' + p.id.slice(2).replace(/^0+/, '')))
    .map((p) => ({ name: p.id.endsWith('1') ? 'MoveStdlib' : 'Sui', address: p.originalId, modules: p.modules.map((m) => m.module) })),
});
const benchPkg = packageFromBytes(
  compiled.modules.map((m) => m.bytes),
  { id: '0x0' },
);
const metered = MoveVM.create({ packages: [...framework, benchPkg] });
// The same VM with the block compiler off (`interpreter/jit.ts`): what the interpreter alone does.
const interpreted = MoveVM.create({ packages: [...framework, benchPkg], jitThreshold: Infinity });
const arg = (n) => [{ $kind: 'Value', value: n }];

const time = (fn) => medianTime(fn);

const rows = [];
for (const name of names) {
  const target = `0x0::loops::${name}`;
  // The VM counts the instructions it runs in the meter passed to a call.
  const meter = { instructions: 0 };
  const counted = metered.call(target, { args: arg(N), meter });
  if (counted.$kind !== 'Success') throw new Error(`${name}: ${JSON.stringify(counted)}`);
  const expected = js[name](N);
  for (const vm of [metered, interpreted]) {
    const got = vm.call(target, { args: arg(N) });
    if (got.$kind !== 'Success' || got.returnValues[0].value !== expected) throw new Error(`${name}: wrong result`);
  }
  rows.push({ name, target, instructions: meter.instructions, ms: time(() => metered.call(target, { args: arg(N) })), jsMs: time(() => js[name](N)) });
}
// The interpreter alone is timed after every compiled figure: its runs change how V8 optimizes
// the interpreter loop, and would slow the compiled runs timed after them.
for (const r of rows) r.interpretedMs = time(() => interpreted.call(r.target, { args: arg(N) }));
for (const { name, instructions, ms, jsMs, interpretedMs } of rows) {
  console.log(
    `${name}: n=${N} ${instructions} Move instructions | smi ${ms.toFixed(1)} ms = ${(instructions / ms / 1000).toFixed(1)} M instr/s (metered; interpreter alone ${(instructions / interpretedMs / 1000).toFixed(1)}) | plain JS BigInt ${jsMs.toFixed(2)} ms | ratio ${ms >= jsMs ? `${(ms / jsMs).toFixed(1)}x slower` : `${(jsMs / ms).toFixed(1)}x faster`}`,
  );
}

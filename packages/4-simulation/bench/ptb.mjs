// bench/ptb: programmable transactions run by a SimulationEnvironment (executor, Move VM,
// effects, gas), against plain JS doing the same bookkeeping in the same run. One line per
// workload; times are the median (and the best) of several runs after a warm-up, per PTB (built once; the
// time is `env.execute`: executor, VM, effects, gas, digests), as a dry run (`commit: false`:
// executed and reported, not committed, so every run sees the same state).
// The last lines: whole sandbox requests (`SandboxSession.handle`).
// Run after `pnpm build`: `pnpm --filter @smi/simulation bench`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileAndPublish, fromFixtures, SandboxSession, SimulationEnvironment } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..', process.env.SMI_FIXTURES ?? '../shared');
const RUNS = Number(process.env.SMI_BENCH_RUNS ?? 21);
const FRAMEWORK = new Set(['0x1', '0x2', '0x3'].map((a) => '0x' + a.slice(2).padStart(64, '0')));

const { packages, protocolConfig } = fromFixtures(root);
const env = SimulationEnvironment.create({ packages: packages.filter((p) => FRAMEWORK.has(p.id)), protocolConfig });
const BOB = '0x' + 'b0b'.padStart(64, '0');
// Sui rejects a command with `max_arguments` (512) arguments or more.
const MAX_ARGS = (protocolConfig.optionalInt('max_arguments') ?? 512) - 1;

const { packageId: helper } = await compileAndPublish(env, {
  files: {
    'sources/fill.move': `
module helper::fill {
    use sui::table::{Self, Table};
    public fun fill(n: u64, ctx: &mut TxContext): Table<u64, u64> {
        let mut t = table::new(ctx);
        let mut i = 0;
        while (i < n) { t.add(i, i * 2); i = i + 1; };
        t
    }
}
`,
  },
});

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Median ms of `fn` over RUNS runs, after a warm-up of at least 5 runs and 300 ms (`best`:
 * the fastest run; on a busy machine, with garbage collection running on the same cores, the
 * steadier figure to compare two builds by).
 */
function time(fn) {
  const warm = performance.now();
  for (let i = 0; i < 5 || performance.now() - warm < 300; i++) fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return { median: median(ms), best: Math.min(...ms) };
}

const fmt = (t) => `${t.median.toFixed(2)} ms (best ${t.best.toFixed(2)})`;

function run(ptb) {
  const out = env.execute(ptb, { commit: false });
  if (out.status.$kind !== 'Success') throw new Error(`failed: ${out.status.message}`);
  return out;
}

// N SplitCoins (one amount each) + TransferObjects of the N new coins.
for (const n of [1, 8, 64, 512]) {
  const coin = env.createObject({ type: '0x2::coin::Coin<0x2::sui::SUI>', fields: { balance: 1_000_000 } }).id;
  const build = () => {
    const tx = env.tx();
    const c = tx.object(coin);
    const one = tx.pure('u64', 1);
    const coins = [];
    for (let i = 0; i < n; i++) coins.push(tx.splitCoins(c, [one]).nested(0));
    const to = tx.pure('address', BOB);
    for (let i = 0; i < coins.length; i += MAX_ARGS) tx.transferObjects(coins.slice(i, i + MAX_ARGS), to);
    return tx.build();
  };
  const ptb = build();
  const out = run(ptb);
  if (out.written.filter((w) => w.kind === 'created').length !== n) throw new Error('wrong number of coins');
  const ms = time(() => run(ptb));
  const jsMs = time(() => {
    const c = { id: coin, balance: 1_000_000n };
    const made = new Map();
    for (let i = 0; i < n; i++) {
      c.balance -= 1n;
      made.set(`coin-${i}`, { balance: 1n, owner: BOB });
    }
    return made;
  });
  const transfers = Math.ceil(n / MAX_ARGS);
  const goal = n === 512 ? ' (goal < 50 ms)' : '';
  console.log(
    `split-transfer: ${n} SplitCoins + ${transfers} TransferObjects${transfers > 1 ? ` (max_arguments: ${MAX_ARGS} objects per command)` : ''} | smi ${fmt(ms)} per PTB${goal} | plain JS ${(jsMs.median * 1000).toFixed(1)} µs`,
  );
}

// A Table filled with 1,000 entries: (a) one call of a published helper that loops, (b) 1,000 table::add commands.
{
  const N = 1000;
  const loop = () => {
    const tx = env.tx();
    const t = tx.moveCall(`${helper}::fill::fill`, [tx.pure('u64', N)]);
    tx.moveCall('0x2::transfer::public_share_object', [t], ['0x2::table::Table<u64, u64>']);
    return tx.build();
  };
  const commands = () => {
    const tx = env.tx();
    const t = tx.moveCall('0x2::table::new', [], ['u64', 'u64']);
    for (let i = 0; i < N; i++) tx.moveCall('0x2::table::add', [t, tx.pure('u64', i), tx.pure('u64', i * 2)], ['u64', 'u64']);
    tx.moveCall('0x2::transfer::public_share_object', [t], ['0x2::table::Table<u64, u64>']);
    return tx.build();
  };
  for (const [label, build] of [
    ['helper loop (1 Move call)', loop],
    ['1,000 table::add commands', commands],
  ]) {
    const ptb = build();
    const out = run(ptb);
    if (out.written.filter((w) => w.kind === 'created').length !== N + 1) throw new Error('wrong number of objects');
    const ms = time(() => run(ptb));
    const jsMs = time(() => {
      const m = new Map();
      for (let i = 0n; i < BigInt(N); i++) m.set(i, i * 2n);
      return m;
    });
    console.log(`table-fill: Table<u64, u64> with ${N} entries, ${label} | smi ${fmt(ms)} per PTB | plain JS Map ${(jsMs.median * 1000).toFixed(1)} µs`);
  }
}

// The sandbox transaction path, as the benchmark drives it: one `execute_ptb` request through
// `SandboxSession.handle` (request parsing, `env.execute` committed, the JSON response), a
// call that returns and one that aborts. Reference: JSON text of the same request and
// response made and read back, the least any JSON protocol pays per request.
{
  const session = SandboxSession.create({ packages: packages.filter((p) => FRAMEWORK.has(p.id)), protocolConfig });
  const request = (fn, args) => ({
    action: 'execute_ptb',
    inputs: args.map((v) => ({ type: 'pure', value: String(v), value_type: 'u64' })),
    commands: [{ type: 'move_call', package: '0x1', module: 'u64', function: fn, type_args: [], args: args.map((_, i) => ({ input: i })) }],
  });
  for (const [label, req, success] of [
    ['u64::max (returns)', request('max', [3, 7]), true],
    ['u64::divide_and_round_up by 0 (arithmetic error)', request('divide_and_round_up', [3, 0]), false],
  ]) {
    const once = async () => {
      const r = await session.handle(req);
      if (r.success !== success) throw new Error(`${label}: ${r.error}`);
      return r;
    };
    const response = await once();
    const warm = performance.now();
    for (let i = 0; i < 5 || performance.now() - warm < 300; i++) await once();
    const ms = [];
    for (let i = 0; i < RUNS * 5; i++) {
      const t0 = performance.now();
      await once();
      ms.push(performance.now() - t0);
    }
    const js = time(() => JSON.parse(JSON.stringify(response)) && JSON.parse(JSON.stringify(req)));
    console.log(`sandbox: execute_ptb request, ${label} | smi ${fmt({ median: median(ms), best: Math.min(...ms) })} per request | plain JS JSON round trip ${(js.median * 1000).toFixed(1)} µs`);
  }
}

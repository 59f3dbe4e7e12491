// benchmark-local over the shared corpora: what it measures (the loose rate, the real rate,
// the real structured rate, with the splits) and how fast (--jobs 1 and --jobs 2, the
// speed-up), one line per workload. With SMI_BENCH_REFERENCE=<a built checkout of an
// earlier SMI>, the same workloads run on that build too, in the same run, for the
// figures before (counted from that build's own labels, which were looser: its rows
// called forged inputs constructed and had no duplicate_of). After `pnpm build`, from the repo root:
//   node packages/5-inhabit/bench/benchmark-local.mjs          (or: pnpm --filter @smi/inhabit bench)
//   SMI_BENCH_ONLY=mainnet node packages/5-inhabit/bench/benchmark-local.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const shared = process.env.SMI_FIXTURES ?? path.join(repo, '..', 'shared');
const reference = process.env.SMI_BENCH_REFERENCE ?? null;

const WORKLOADS = {
  corpus: { targets: ['corpus'], deps: ['corpus-deps'] },
  mainnet: { targets: ['corpus-mainnet'], deps: ['corpus'] },
  // Builds before `--target-corpus` could be repeated run this one as its parts, one after the other.
  both: { targets: ['corpus', 'corpus-mainnet'], deps: ['corpus-deps'], parts: ['corpus', 'mainnet'] },
};
const only = process.env.SMI_BENCH_ONLY?.split(',') ?? Object.keys(WORKLOADS);
for (const w of only) {
  if (!(w in WORKLOADS)) {
    console.error(`SMI_BENCH_ONLY: unknown workload ${w} (known: ${Object.keys(WORKLOADS).join(', ')})`);
    process.exit(2);
  }
}

const PURE = /^(pure|synthesizable):/;
/** The class of a row's hit: its own when it has one, else read from resolved_params (rows of earlier builds). */
function hitClass(r) {
  if (r.hit_class !== undefined) return r.hit_class;
  const params = (r.tier_a_details?.resolved_params ?? []).filter((p) => !p.startsWith('synthesizable:'));
  if (params.length === 0) return 'no_args';
  return params.every((p) => PURE.test(p)) ? 'pure_only' : 'structured';
}

/** A row's function. */
const rowKey = (r) => `${r.target_package}::${r.target_module}::${r.target_function}`;

/** Figures of some rows, counted as the summary's headline counts them. */
function figures(rows, duplicates = null) {
  // Rows of builds before duplicate_of are counted once per function by this build's rows
  // (`duplicates`: the keys of its rows that say duplicate_of).
  const own = rows.some((r) => r.duplicate_of !== undefined);
  const counted = rows.filter((r) => (own || duplicates === null ? r.duplicate_of === undefined : !duplicates.has(rowKey(r))));
  const dedup = own ? '' : duplicates === null ? ' (no duplicate_of: every row)' : " (once per function, by this build's duplicate_of)";
  const real = (r) => r.status === 'tier_b_hit' && r.provenance !== 'synthesized' && (r.tier_b_details?.checks ?? 'strict') === 'strict' && r.permissive_crypto !== true;
  const hits = rows.filter((r) => r.status === 'tier_b_hit');
  const realHits = counted.filter(real);
  const structured = realHits.filter((r) => hitClass(r) === 'structured');
  const split = (key) => {
    const out = {};
    for (const r of hits) out[key(r)] = (out[key(r)] ?? 0) + 1;
    return Object.entries(out)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  };
  const pct = (n, d) => (d === 0 ? '0.0%' : `${((100 * n) / d).toFixed(1)}%`);
  return (
    `loose ${hits.length}/${rows.length} ${pct(hits.length, rows.length)}` +
    ` | real ${realHits.length}/${counted.length} ${pct(realHits.length, counted.length)}${dedup}` +
    ` | real structured ${structured.length}/${counted.length} ${pct(structured.length, counted.length)}` +
    ` | checks: ${split((r) => r.tier_b_details?.checks ?? 'strict')} | provenance: ${split((r) => r.provenance ?? 'chain')} | class: ${split(hitClass)}`
  );
}

/** Run a build's CLI on a workload; rows and wall time (`null` when it fails and `must` is false). */
function run(cli, workload, jobs, must = true) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-bench-'));
  const out = path.join(dir, 'rows.jsonl');
  const args = [
    cli,
    'benchmark-local',
    ...workload.targets.flatMap((t) => ['--target-corpus', path.join(shared, t)]),
    ...workload.deps.flatMap((d) => ['--corpus', path.join(shared, d)]),
    '--use-ptb',
    '--no-timings',
    '--quiet',
    '--jobs',
    String(jobs),
    '--output',
    out,
  ];
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: repo, env: { ...process.env, SMI_FIXTURES: shared }, encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    if (!must) return null;
    console.error(`benchmark-local failed (${cli}, jobs ${jobs}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    process.exit(1);
  }
  const rows = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  rmSync(dir, { recursive: true, force: true });
  return { rows, seconds };
}

const current = path.join(repo, 'apps', 'cli', 'dist', 'cli.js');
for (const name of only) {
  const w = WORKLOADS[name];
  const one = run(current, w, 1);
  const two = run(current, w, 2);
  if (reference !== null) {
    const cli = path.join(reference, 'apps', 'cli', 'dist', 'cli.js');
    const together = w.parts === undefined ? null : run(cli, w, 1, false);
    const before = together ?? w.parts?.map((p) => run(cli, WORKLOADS[p], 1)).reduce((a, b) => ({ rows: [...a.rows, ...b.rows], seconds: a.seconds + b.seconds })) ?? run(cli, w, 1);
    const how = together === null && w.parts !== undefined ? ` (${w.parts.join(' then ')}: it takes one --target-corpus)` : '';
    const duplicates = new Set(one.rows.filter((r) => r.duplicate_of !== undefined).map(rowKey));
    console.log(
      `benchmark-local ${name.padEnd(7)} | reference ${path.basename(reference)} | ${before.rows.length} functions, jobs 1 ${before.seconds.toFixed(1)} s${how} | ${figures(before.rows, duplicates)}`,
    );
  }
  const same = JSON.stringify(one.rows) === JSON.stringify(two.rows);
  console.log(
    `benchmark-local ${name.padEnd(7)} | this build | ${one.rows.length} functions, jobs 1 ${one.seconds.toFixed(1)} s, jobs 2 ${two.seconds.toFixed(1)} s = ${(one.seconds / two.seconds).toFixed(2)}x${same ? '' : ' (ROWS DIFFER)'} | ${figures(one.rows)}`,
  );
}

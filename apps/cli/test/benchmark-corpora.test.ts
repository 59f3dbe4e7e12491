/**
 * `smi benchmark-local` over both shared corpora together (with the packages the first one
 * links to), as the quick start runs it: the headline figures, and every row with
 * transactions replayed through `smi sandbox-exec --interactive`. Rows share the
 * baseline's requests: they are sent once, kept with `create_checkpoint`, and each row's
 * own requests run from `restore_checkpoint`, which gives the same ids and digests as a
 * fresh run of the baseline (the sandbox's own tests show it).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { requireBuiltCli, runSmi } from './support/spawn-cli.js';

interface Row {
  target_package: string;
  target_function: string;
  status: string;
  duplicate_of?: string;
  provenance?: string;
  hit_class?: string;
  tier_b_details?: { checks: string };
  abort?: { code: string | null };
  transactions?: unknown[];
}

interface Summary {
  rows: number;
  tier_b_hits: number;
  headline: { real_hits: number; real_structured_hits: number; functions_dedup: number; real_rate: number; real_structured_rate: number };
}

const CORPORA = ['--target-corpus', fixturePath('corpus'), '--target-corpus', fixturePath('corpus-mainnet'), '--corpus', fixturePath('corpus-deps')];

describeWithFixtures('smi benchmark-local over both shared corpora', ['corpus-mainnet'], () => {
  let rows: Row[];
  let summary: Summary;
  beforeAll(async () => {
    requireBuiltCli();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-corpora-'));
    const out = path.join(dir, 'rows.jsonl');
    const r = await runSmi(['benchmark-local', ...CORPORA, '--use-ptb', '--no-timings', '--jobs', '2', '--quiet', '--output', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    summary = JSON.parse(r.stdout) as Summary;
    rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
  }, 600_000);

  it('the headline counts real hits once per function, and stays well above what the audit found', () => {
    expect(rows).toHaveLength(summary.rows);
    expect(summary.rows).toBe(1631);
    const counted = rows.filter((r) => r.duplicate_of === undefined);
    expect(summary.headline.functions_dedup).toBe(counted.length);
    const real = counted.filter((r) => r.status === 'tier_b_hit' && r.provenance !== 'synthesized' && r.tier_b_details?.checks === 'strict');
    expect(summary.headline.real_hits).toBe(real.length);
    expect(summary.headline.real_structured_hits).toBe(real.filter((r) => r.hit_class === 'structured').length);
    // Measured at the time of writing: 499 real hits and 306 real structured hits of 1,130.
    expect(summary.headline.real_hits).toBeGreaterThanOrEqual(450);
    expect(summary.headline.real_structured_hits).toBeGreaterThanOrEqual(280);
    expect(summary.headline.real_structured_rate).toBeGreaterThan(0.2);
  });

  it('every row replays in smi sandbox-exec --interactive: every hit succeeds, every abort aborts with its code', async () => {
    const replayed = rows.filter((r) => r.transactions !== undefined);
    expect(replayed.filter((r) => r.status === 'tier_b_hit').length).toBe(summary.tier_b_hits);
    // The baseline: the requests every row starts with.
    const first = replayed[0].transactions as unknown[];
    let common = first.length;
    for (const r of replayed) {
      const t = r.transactions as unknown[];
      let k = 0;
      while (k < common && k < t.length && JSON.stringify(t[k]) === JSON.stringify(first[k])) k++;
      common = k;
    }
    expect(common).toBeGreaterThan(40);
    expect(first.slice(0, common).every((t) => ['configure', 'set_clock', 'init_package'].includes((t as { action: string }).action))).toBe(true);
    const input: string[] = first.slice(0, common).map((t) => JSON.stringify(t));
    input.push(JSON.stringify({ action: 'create_checkpoint', name: 'baseline' }));
    const lastLine: number[] = [];
    for (const r of replayed) {
      input.push(JSON.stringify({ action: 'restore_checkpoint', name: 'baseline' }));
      for (const t of (r.transactions as unknown[]).slice(common)) input.push(JSON.stringify(t));
      lastLine.push(input.length - 1);
    }
    const corpora = ['corpus', 'corpus-mainnet', 'corpus-deps'].flatMap((c) => ['--corpus', fixturePath(c)]);
    const replay = await runSmi(['sandbox-exec', '--interactive', ...corpora], { stdin: input.join('\n') + '\n' });
    expect(replay.code, replay.stderr.slice(-2000)).toBe(0);
    const answers = replay.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { success: boolean; abort_code?: number | string });
    expect(answers).toHaveLength(input.length);
    expect(answers.slice(0, common + 1).every((a) => a.success)).toBe(true);
    const wrong: string[] = [];
    replayed.forEach((r, i) => {
      const last = answers[lastLine[i]];
      const ok = r.status === 'tier_b_hit' ? last.success : !last.success && (last.abort_code === undefined ? null : String(last.abort_code)) === (r.abort?.code ?? null);
      if (!ok) wrong.push(`${r.target_package.slice(0, 10)}…::${r.target_function}`);
    });
    expect(wrong).toEqual([]);
  }, 600_000);
});

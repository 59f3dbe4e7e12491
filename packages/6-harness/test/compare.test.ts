/**
 * `compareRuns`: a failed package is never all-correct (an empty truth has nothing to miss,
 * but the run still failed), and token and cost deltas are over the packages both runs have.
 */
import { describe, expect, it } from 'vitest';
import { type ComparedRun, compareRuns, type PackageSpend } from '../src/index.js';

const id = (n: number): string => '0x' + n.toString(16).padStart(64, '0');
type P1 = { n: number; outcome?: string; f1: number; fp: number; fn: number };
const phase1 = (label: string, rows: P1[], byPackage?: Map<string, PackageSpend>, totals?: ComparedRun['totals']): ComparedRun => ({
  label,
  spec: null,
  runJson: { schema_version: 1, packages: rows.map((r) => ({ package_id: id(r.n), ...(r.outcome ? { outcome: r.outcome } : {}), score: { f1: r.f1, fp: r.fp, fn: r.fn } })) },
  ...(byPackage ? { byPackage } : {}),
  ...(totals ? { totals } : {}),
});
const spend = (entries: [number, number, number, number | null][]): Map<string, PackageSpend> =>
  new Map(entries.map(([n, i, o, usd]) => [id(n), { input_tokens: i, output_tokens: o, spent_usd: usd }]));

describe('compareRuns', () => {
  it('a package whose run failed is not all-correct, even with an empty truth; rows without an outcome are judged by their score', () => {
    const a = phase1('a', [
      { n: 1, outcome: 'model_error', f1: 0, fp: 0, fn: 0 }, // empty truth, failed
      { n: 2, outcome: 'correct', f1: 1, fp: 0, fn: 0 },
      { n: 3, f1: 1, fp: 0, fn: 0 }, // an older row: no outcome
    ]);
    const b = phase1('b', [
      { n: 1, outcome: 'correct', f1: 0, fp: 0, fn: 0 },
      { n: 2, outcome: 'unparseable', f1: 0, fp: 0, fn: 2 },
      { n: 3, f1: 0.5, fp: 1, fn: 0 },
    ]);
    const c = compareRuns(a, b);
    expect(c.correct_a).toBe(2);
    expect(c.correct_b).toBe(1);
    expect(c.fixed).toEqual([id(1)]);
    expect(c.broken).toEqual([id(2), id(3)]);
  });

  it('token and cost deltas are over the common packages, not the whole runs', () => {
    const rows = (ns: number[]): P1[] => ns.map((n) => ({ n, outcome: 'correct', f1: 1, fp: 0, fn: 0 }));
    // b ran a package a did not, which cost it 1,000 tokens and $1.
    const a = phase1(
      'a',
      rows([1, 2]),
      spend([
        [1, 100, 10, 0.01],
        [2, 200, 20, 0.02],
      ]),
      { input_tokens: 300, output_tokens: 30, spent_usd: 0.03 },
    );
    const b = phase1(
      'b',
      rows([1, 2, 3]),
      spend([
        [1, 150, 10, 0.015],
        [2, 200, 30, 0.03],
        [3, 1000, 100, 1],
      ]),
      { input_tokens: 1350, output_tokens: 140, spent_usd: 1.045 },
    );
    const c = compareRuns(a, b);
    expect(c.only_in_b).toEqual([id(3)]);
    expect(c.tokens).toEqual({ input_delta: 50, output_delta: 10 });
    expect(c.cost_usd_delta).toBe(0.015);
    // Without spend per package, runs with different packages have no delta (not the whole runs'); the same packages use the totals.
    const bare = (r: ComparedRun): ComparedRun => ({ ...r, byPackage: undefined });
    expect(compareRuns(bare(a), bare(b))).toMatchObject({ tokens: null, cost_usd_delta: null });
    const b2 = phase1('b2', rows([1, 2]), undefined, { input_tokens: 350, output_tokens: 40, spent_usd: 0.045 });
    expect(compareRuns(bare(a), b2)).toMatchObject({ tokens: { input_delta: 50, output_delta: 10 }, cost_usd_delta: 0.015 });
    // A package without a price: no cost delta.
    const unpriced = phase1(
      'u',
      rows([1, 2]),
      spend([
        [1, 100, 10, null],
        [2, 200, 20, 0.02],
      ]),
    );
    expect(compareRuns(a, unpriced).cost_usd_delta).toBeNull();
  });
});

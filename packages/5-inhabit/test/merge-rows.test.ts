/** Joining benchmark-local parts: the rows of one run in its order; parts that cannot be one run's are refused. */
import { describe, expect, it } from 'vitest';
import { type BenchmarkRow, mergeShardRows } from '@smi/inhabit';

const row = (fn: string, pkg = '0xa'): BenchmarkRow => ({ target_package: pkg, target_module: 'm', target_function: fn, status: 'miss' });
const failed: BenchmarkRow = { target_package: '0xbad', target_module: '', target_function: '', status: 'miss', failure_stage: 'A1' };
const run = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map((f) => row(f));
/** Part K of N, as `--shard K/N` selects: targets i with i mod N = K-1 (load failures in part 1). */
const part = (k: number, n: number): BenchmarkRow[] => [...(k === 1 ? [failed] : []), ...run.filter((_, i) => i % n === k - 1)];
const code = (f: () => unknown): string => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe('mergeShardRows', () => {
  it('interleaves N parts back into the run, for any N', () => {
    for (const n of [1, 2, 3, 7, 9]) {
      const parts = Array.from({ length: n }, (_, k) => part(k + 1, n));
      expect(mergeShardRows(parts)).toEqual([failed, ...run]);
    }
  });
  it('refuses parts whose sizes cannot be one run’s, out of order, or given twice', () => {
    expect(code(() => mergeShardRows([part(1, 3), part(2, 3).slice(0, 1), part(3, 3)]))).toBe('PARTS_INCONSISTENT');
    expect(code(() => mergeShardRows([part(1, 2).slice(0, 2), part(2, 2)]))).toBe('PARTS_INCONSISTENT');
    expect(code(() => mergeShardRows([part(2, 2), part(1, 2)]))).toBe('PARTS_INCONSISTENT');
    expect(code(() => mergeShardRows([part(1, 2), part(1, 2).slice(1)]))).toBe('DUPLICATE_TARGET');
    expect(code(() => mergeShardRows([]))).toBe('NO_PARTS');
    expect(() => mergeShardRows([part(1, 2).slice(0, 2), part(2, 2)], ['a.jsonl', 'b.jsonl'])).toThrow('a.jsonl has 1 target rows where part 1 of 2 parts of a 4-target run has 2');
  });
});

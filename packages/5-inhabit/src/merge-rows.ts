/**
 * Joining the rows of `benchmark-local --shard K/N` parts into the rows one run writes:
 * part K holds targets `i` with `i mod N = K-1`, in order, so row `i` of the run is row
 * `floor(i / N)` of part `i mod N + 1`; rows of packages that failed to load come first
 * and only part 1 has them. The parts' sizes must be those N parts of one run have, and
 * no target may appear twice. Rows do not say which part they came from: a missing part,
 * or one cut short at a part boundary, can look like a run with fewer targets, so callers
 * check that every part finished (`smi merge-rows` needs them all; the k8s merge step
 * checks each shard's file).
 */
import type { BenchmarkRow } from './row.js';
import { SmiError } from '@smi/bytecode';

/** Why parts cannot be joined. */
export class MergeRowsError extends SmiError<'NO_PARTS' | 'PARTS_INCONSISTENT' | 'DUPLICATE_TARGET'> {
  override readonly name = 'MergeRowsError';
  constructor(code: 'NO_PARTS' | 'PARTS_INCONSISTENT' | 'DUPLICATE_TARGET', message: string) {
    super(code, message);
  }
}

/** A row of a package that failed to load (it names no module or function). */
export function isLoadFailureRow(r: BenchmarkRow): boolean {
  return r.target_module === '' && r.target_function === '';
}

/** Join the parts (given in order: part 1 first) into one run's rows. */
export function mergeShardRows(parts: readonly (readonly BenchmarkRow[])[], labels: readonly string[] = parts.map((_, i) => `part ${i + 1}`)): BenchmarkRow[] {
  if (parts.length === 0) throw new MergeRowsError('NO_PARTS', 'name the parts to join, part 1 first');
  const n = parts.length;
  const failures = parts[0].filter(isLoadFailureRow);
  const targets = parts.map((p) => p.filter((r) => !isLoadFailureRow(r)));
  if (parts[0].slice(0, failures.length).some((r) => !isLoadFailureRow(r))) throw new MergeRowsError('PARTS_INCONSISTENT', `${labels[0]}: rows of packages that failed to load are not first`);
  parts.forEach((p, k) => {
    if (k > 0 && p.some(isLoadFailureRow))
      throw new MergeRowsError('PARTS_INCONSISTENT', `${labels[k]} has rows of packages that failed to load: only part 1 has them (give the parts in order, part 1 first)`);
  });
  const total = targets.reduce((s, p) => s + p.length, 0);
  targets.forEach((p, k) => {
    const expected = Math.ceil((total - k) / n);
    if (p.length !== expected)
      throw new MergeRowsError(
        'PARTS_INCONSISTENT',
        `${labels[k]} has ${p.length} target rows where part ${k + 1} of ${n} parts of a ${total}-target run has ${expected} (a part cut short, a part missing, or parts out of order)`,
      );
  });
  const out: BenchmarkRow[] = [...failures];
  const seen = new Set<string>();
  for (let i = 0; i < total; i++) {
    const row = targets[i % n][Math.floor(i / n)];
    const key = `${row.target_package}::${row.target_module}::${row.target_function}`;
    if (seen.has(key)) throw new MergeRowsError('DUPLICATE_TARGET', `${key} is in more than one part (the same part given twice?)`);
    seen.add(key);
    out.push(row);
  }
  return out;
}

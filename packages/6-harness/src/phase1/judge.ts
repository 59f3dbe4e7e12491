/**
 * Phase I scoring, exactly as the original's `judge.py`: exact string sets, both empty ⇒
 * precision = recall = F1 = 1.0, `f1 = 2tp / (2tp + fp + fn)`, up to 20 sorted samples of
 * what was missed and what was extra. Aggregates: the original's macro averages, plus
 * micro averages over pooled counts and a bootstrap interval of the macro F1.
 */
import { compareCodePoints } from '@smi/bytecode';
import { PyRandom } from './py-random.js';

/** The original's `KeyTypeScore`. */
export interface KeyTypeScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  missing_sample: string[];
  extra_sample: string[];
}

/** Score `predicted` against `truth`. */
export function scoreKeyTypes(truth: Iterable<string>, predicted: Iterable<string>, maxSamples = 20): KeyTypeScore {
  const t = new Set(truth);
  const p = new Set(predicted);
  if (t.size === 0 && p.size === 0) return { tp: 0, fp: 0, fn: 0, precision: 1, recall: 1, f1: 1, missing_sample: [], extra_sample: [] };
  const tp = [...p].filter((x) => t.has(x)).length;
  const extra = [...p].filter((x) => !t.has(x)).sort(compareCodePoints);
  const missing = [...t].filter((x) => !p.has(x)).sort(compareCodePoints);
  const fp = extra.length;
  const fn = missing.length;
  const denom = 2 * tp + fp + fn;
  return {
    tp,
    fp,
    fn,
    precision: tp + fp > 0 ? tp / (tp + fp) : 0,
    recall: tp + fn > 0 ? tp / (tp + fn) : 0,
    f1: denom > 0 ? (2 * tp) / denom : 0,
    missing_sample: missing.slice(0, maxSamples),
    extra_sample: extra.slice(0, maxSamples),
  };
}

/** The score of a package whose answer failed (no answer, an error, a limit): counts of an empty prediction, rates 0. */
export function failedScore(truth: Iterable<string>, maxSamples = 20): KeyTypeScore {
  const missing = [...new Set(truth)].sort(compareCodePoints);
  return { tp: 0, fp: 0, fn: missing.length, precision: 0, recall: 0, f1: 0, missing_sample: missing.slice(0, maxSamples), extra_sample: [] };
}

/** Python's `sum(xs) / len(xs)` (left to right, so the same float). */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Micro averages: precision, recall and F1 of the pooled counts. */
export function microScores(scores: readonly Pick<KeyTypeScore, 'tp' | 'fp' | 'fn'>[]): { precision: number; recall: number; f1: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const s of scores) {
    tp += s.tp;
    fp += s.fp;
    fn += s.fn;
  }
  if (tp + fp + fn === 0) return { precision: 1, recall: 1, f1: 1 };
  return { precision: tp + fp > 0 ? tp / (tp + fp) : 0, recall: tp + fn > 0 ? tp / (tp + fn) : 0, f1: (2 * tp) / (2 * tp + fp + fn) };
}

/**
 * A 95% percentile bootstrap interval of the mean of `xs`: `resamples` resamples with
 * replacement, drawn from Python's Mersenne Twister seeded with `seed` (deterministic).
 */
export function bootstrapInterval(xs: readonly number[], resamples = 1000, seed = 0): [number, number] | null {
  if (xs.length === 0) return null;
  const rng = new PyRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[rng.randint(0, xs.length - 1)];
    means.push(s / xs.length);
  }
  means.sort((a, b) => a - b);
  const at = (q: number): number => means[Math.min(means.length - 1, Math.max(0, Math.floor(q * (means.length - 1))))];
  return [at(0.025), at(0.975)];
}

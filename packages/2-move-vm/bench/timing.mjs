// Shared by the benches: the median time of a function over the runs made in a time window.

/**
 * Median ms of `fn` over the runs of `minMs` (at least 5), after `warmup` runs: robust to a
 * busy machine.
 */
export function medianTime(fn, minMs = 1000, warmup = 1) {
  for (let i = 0; i < warmup; i++) fn();
  const runs = [];
  const start = performance.now();
  while (performance.now() - start < minMs || runs.length < 5) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return runs[runs.length >> 1];
}

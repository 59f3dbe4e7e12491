/** pass@k, the unbiased estimator (Chen et al. 2021), shared by both phases' epochs. */

/** The unbiased pass@k estimate of one package: `1 - C(n-c, k) / C(n, k)` (n samples, c of them passed). */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/**
 * pass@k for k = 1…n over packages, each given as its samples (`true`: passed), n the fewest
 * samples any package has; `null` when no package has samples.
 */
export function passAtKTable(packages: readonly (readonly boolean[])[]): { epochs: number; passAtK: Map<number, number> } | null {
  const withSamples = packages.filter((p) => p.length > 0);
  if (withSamples.length === 0) return null;
  const n = Math.min(...withSamples.map((p) => p.length));
  const passAtK = new Map<number, number>();
  for (let k = 1; k <= n; k++) passAtK.set(k, withSamples.reduce((a, p) => a + passAtK1(p, k), 0) / withSamples.length);
  return { epochs: n, passAtK };
}

function passAtK1(samples: readonly boolean[], k: number): number {
  return passAtK(samples.length, samples.filter(Boolean).length, k);
}

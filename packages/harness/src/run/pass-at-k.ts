/** pass@k, the unbiased estimator (Chen et al. 2021), shared by both phases' epochs. */

/** The unbiased pass@k estimate of one package: `1 - C(n-c, k) / C(n, k)` (n samples, c of them passed). */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

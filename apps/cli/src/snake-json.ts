/**
 * Every command's JSON output names its keys in snake_case (`gas_match`, `not_executable`), as
 * the run files and rows do; library objects with camelCase fields are converted on the way out.
 * Keys without capitals (ids, digests, already snake_case) are kept as they are.
 */

/** `camelCase` → `camel_case`. */
function snakeKey(k: string): string {
  return k
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** `value` with every object key in snake_case, recursively (arrays and scalars kept). */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[snakeKey(k)] = snakeKeys(v);
  return out;
}

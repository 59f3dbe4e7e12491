/**
 * Where tests find the shared real-data fixtures: `$SMI_FIXTURES` (default `../shared`
 * beside the repo). When the folder is missing, tests that need it skip with a clear
 * message, unless `SMI_REQUIRE_FIXTURES=1` (CI), where they fail instead.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of the fixtures root (the folder holding `corpus/` and `fixtures/`). */
export const FIXTURES_ROOT = path.resolve(repoRoot, process.env.SMI_FIXTURES ?? '../shared');

/** `true` when fixtures must be present (CI). */
export const REQUIRE_FIXTURES = process.env.SMI_REQUIRE_FIXTURES === '1';

/** Path inside the fixtures root. */
export function fixturePath(...parts: string[]): string {
  return path.join(FIXTURES_ROOT, ...parts);
}

/** `true` when the given fixture path exists. */
export function hasFixture(...parts: string[]): boolean {
  return existsSync(fixturePath(...parts));
}

/**
 * `describe` that runs only when the fixture path exists. Missing fixtures skip with a
 * message, or fail when `SMI_REQUIRE_FIXTURES=1`.
 */
export function describeWithFixtures(name: string, parts: string[], body: () => void): void {
  if (hasFixture(...parts)) {
    describe(name, body);
    return;
  }
  const where = fixturePath(...parts);
  if (REQUIRE_FIXTURES) {
    describe(name, () => {
      it('needs fixtures', () => {
        throw new Error(`fixtures missing at ${where} (SMI_REQUIRE_FIXTURES=1); set SMI_FIXTURES to the shared folder`);
      });
    });
    return;
  }
  console.warn(`[smi] skipping "${name}": fixtures not found at ${where} (set SMI_FIXTURES)`);
  // The body is not collected: its top level may read the fixtures (vitest runs a skipped
  // describe's body to list its tests).
  describe.skip(name, () => {
    it(`needs fixtures at ${where}`, () => {});
  });
}

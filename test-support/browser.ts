/**
 * Where browser tests find Chromium: `$SMI_CHROMIUM`, else Debian's `chromium` (apt-get
 * install chromium; `.ci/run` installs it). Without one, browser tests skip with a message,
 * except where the environment must be complete (`SMI_REQUIRE_FIXTURES=1`, or `CI=true`),
 * where they fail.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { REQUIRE_FIXTURES } from './fixtures.js';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** The Chromium executable (`$SMI_CHROMIUM`, else a Chromium on `PATH`, else a usual place), or `null`. */
export function chromiumPath(): string | null {
  const env = process.env.SMI_CHROMIUM;
  if (env !== undefined && env !== '') return existsSync(env) ? env : null;
  const onPath = (process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  for (const name of NAMES) {
    const found = onPath.map((d) => path.join(d, name)).find((p) => existsSync(p));
    if (found !== undefined) return found;
  }
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** `describe` that runs only where Chromium is installed (required in CI). */
export function describeWithBrowser(name: string, body: (chromium: string) => void): void {
  const exe = chromiumPath();
  if (exe !== null) {
    describe(name, () => body(exe));
    return;
  }
  const why = `no Chromium (${process.env.SMI_CHROMIUM ? `SMI_CHROMIUM=${process.env.SMI_CHROMIUM} does not exist` : `no ${NAMES.join('/')} on PATH, none of ${CANDIDATES.join(', ')}`}; apt-get install chromium, or set SMI_CHROMIUM)`;
  if (REQUIRE_FIXTURES || process.env.CI === 'true' || process.env.CI === '1') {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(`${why}: SMI_REQUIRE_FIXTURES=1 (CI) must run the browser tests`);
      });
    });
    return;
  }
  console.warn(`[smi] skipping "${name}": ${why}`);
  // The body is not collected (vitest runs a skipped describe's body to list its tests).
  describe.skip(name, () => {
    it('needs Chromium', () => {});
  });
}

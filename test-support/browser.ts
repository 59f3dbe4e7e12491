/**
 * Where browser tests find Chromium: `$SMI_CHROMIUM`, else Debian's `chromium` (apt-get
 * install chromium; `.ci/run` installs it). Without one, browser tests skip with a message,
 * except in CI (`CI=true`), where they fail.
 */
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The Chromium executable, or `null` when there is none. */
export function chromiumPath(): string | null {
  const env = process.env.SMI_CHROMIUM;
  if (env !== undefined && env !== '') return existsSync(env) ? env : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** `describe` that runs only where Chromium is installed (required in CI). */
export function describeWithBrowser(name: string, body: (chromium: string) => void): void {
  const exe = chromiumPath();
  if (exe !== null) {
    describe(name, () => body(exe));
    return;
  }
  const why = `no Chromium (${process.env.SMI_CHROMIUM ? `SMI_CHROMIUM=${process.env.SMI_CHROMIUM} does not exist` : `none of ${CANDIDATES.join(', ')}`}; apt-get install chromium, or set SMI_CHROMIUM)`;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(`${why}: CI must run the browser tests`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.warn(`[smi] skipping "${name}": ${why}`);
  describe.skip(name, () => body(''));
}

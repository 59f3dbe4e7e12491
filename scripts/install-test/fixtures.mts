// Where the fixtures are (SMI_FIXTURES, set by the runner) and a small check helper shared by
// the scripts of the install test.
import path from 'node:path';

const root = process.env.SMI_FIXTURES;
if (root === undefined || root === '') throw new Error('SMI_FIXTURES is not set');

/** A path under the fixtures root. */
export function fixture(...parts: string[]): string {
  return path.join(root as string, ...parts);
}

/** The framework bundles' directory. */
export const FRAMEWORK_DIR: string = fixture('fixtures', 'framework');

/** The corpus package of the lending protocol's price oracle (no dependency outside the framework). */
export const ORACLE_ID = '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f';

/** Throw when `ok` is false. */
export function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`check failed: ${what}`);
}

/** The one line a script prints: what it did (the runner shows it beside the time). */
export function done(line: string): void {
  console.log(line);
}

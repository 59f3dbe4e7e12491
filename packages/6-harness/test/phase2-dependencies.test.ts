/**
 * A Phase II run says before it starts which packages link to packages the corpus does not
 * hold, naming the missing packages by the ids they are linked at. The oracle: the shared
 * corpus lacks exactly the six packages of `corpus-deps` (their directories are named by id).
 */
import { mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { phase2Options } from '../../../test-support/phase2-options.js';
import { type MissingDependencies, runPhase2 } from '../src/index.js';

describeWithFixtures('Phase II: missing dependencies, said before the run', ['corpus-deps'], () => {
  const deps = readdirSync(fixturePath('corpus-deps'))
    .filter((d) => d.startsWith('0x'))
    .sort();

  it('over the corpus alone: the packages that need them and the six missing ids; with them in the corpus root: none', async () => {
    let all: MissingDependencies[] = [];
    await runPhase2(phase2Options({ onStart: (info) => (all = info.missingDependencies) }));
    expect([...new Set(all.flatMap((m) => m.missing))].sort()).toEqual(deps);
    // Each listed under a package of the corpus that needs it.
    const corpus = new Set(
      readdirSync(fixturePath('corpus'), { recursive: true })
        .map(String)
        .filter((p) => /0x[0-9a-f]{64}$/.test(p))
        .map((p) => path.basename(p)),
    );
    for (const m of all) {
      expect(corpus.has(m.package_id)).toBe(true);
      expect(m.missing.every((id) => !corpus.has(id))).toBe(true);
    }
    expect(all.length).toBeGreaterThanOrEqual(4); // Cetus CLMM, Dola (two versions), the lending pool...
    const both = mkdtempSync(path.join(tmpdir(), 'smi-deps-'));
    symlinkSync(fixturePath('corpus'), path.join(both, 'corpus'));
    symlinkSync(fixturePath('corpus-deps'), path.join(both, 'deps'));
    let none: MissingDependencies[] | null = null;
    await runPhase2(phase2Options({ corpusRoot: both, samples: 0, onStart: (info) => (none = info.missingDependencies) }));
    expect(none).toEqual([]);
  }, 240_000);
});

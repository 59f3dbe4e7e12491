/**
 * `baseline-search` over the shared corpus on local simulations: every candidate the
 * original's rules give, run as Phase II runs it; figures printed for the closing note.
 */
import { expect, it } from 'vitest';
import { canonicalAddress, loadPackageDir } from '@smi/bytecode';
import { fromFixtures } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { discoverPackages } from '../src/dataset.js';
import { baselineCandidates } from '../src/phase2/baseline.js';
import { LocalSimulation } from '../src/phase2/local.js';
import { listPlans, phase2Package } from '../src/phase2/worker.js';
import { keyTypes, packageInterface } from '../src/phase1/truth.js';

describeWithFixtures('baseline-search on the shared corpus', ['corpus'], () => {
  it('builds a candidate per public entry function it can fill, runs them, and scores created key types', async () => {
    const { packages: framework, protocolConfig } = fromFixtures(FIXTURES_ROOT);
    const refs = discoverPackages(fixturePath('corpus')).packages;
    const corpus = refs.map((r) => loadPackageDir(r.packageDir));
    const all = [...framework.filter((f) => !corpus.some((c) => c.id === f.id)), ...corpus];
    const FRAMEWORK = new Set(['0x1', '0x2', '0x3', '0xb', '0xdee9'].map((a) => canonicalAddress(a)));
    const lines: string[] = [];
    let targets = 0;
    let hits = 0;
    let ok = 0;
    let candidates = 0;
    for (const pkg of corpus) {
      if (FRAMEWORK.has(pkg.id)) continue;
      const truth = keyTypes(packageInterface(pkg.id, pkg.modules.map((m) => m.module)));
      const cands = baselineCandidates(pkg);
      const plans = cands.flatMap((c) => (c.$kind === 'Ok' ? [c.plan] : [])).slice(0, 25);
      candidates += plans.length;
      const sim = LocalSimulation.prepare(pkg.id, {
        packages: all,
        protocolConfig,
        sender: '0x' + 'a11ce'.padStart(64, '0'),
        publisher: '0x' + 'b0b'.padStart(64, '0'),
        senderCoins: 2,
        coinBalance: 100_000_000_000n,
        gasBudgets: [10_000_000n, 50_000_000n],
      });
      const row = await phase2Package({ packageId: pkg.id, targets: truth, source: listPlans(plans), sim, mode: 'local', maxVariants: 4 });
      targets += row.score.targets;
      hits += row.score.created_hits;
      if (row.dry_run_ok) ok++;
      lines.push(`${pkg.id.slice(0, 10)} candidates ${plans.length}/${cands.length} targets ${row.score.targets} hits ${row.score.created_hits} ok ${row.dry_run_ok} ${row.error ? `(${String(row.error).slice(0, 90)})` : ''}`);
      // Every row is complete and honest: hits never exceed targets, a hit needs a successful run.
      expect(row.score.created_hits).toBeLessThanOrEqual(row.score.targets);
      if (row.score.created_hits > 0) expect(row.dry_run_ok).toBe(true);
    }
    console.info(`[phase2 baseline] ${lines.join('\n[phase2 baseline] ')}\n[phase2 baseline] total: candidates ${candidates}, targets ${targets}, hits ${hits}, packages with a successful plan ${ok}`);
    expect(candidates).toBeGreaterThan(0);
  }, 120_000);
});

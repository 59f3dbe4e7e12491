/**
 * `baseline-search` over the shared corpus on local simulations: every candidate the
 * original's rules give, run as Phase II runs it; its figures (candidates, targets, hits) asserted.
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
    expect(corpus).toHaveLength(12);
    const perPackage: Record<string, [candidates: number, targets: number, hits: number, ok: boolean]> = {};
    const reasons: Record<string, string | null> = {};
    let targets = 0;
    let hits = 0;
    let ok = 0;
    let candidates = 0;
    for (const pkg of corpus) {
      if (FRAMEWORK.has(pkg.id)) continue;
      const truth = keyTypes(
        packageInterface(
          pkg.id,
          pkg.modules.map((m) => m.module),
        ),
      );
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
      perPackage[pkg.id.slice(0, 10)] = [plans.length, row.score.targets, row.score.created_hits, row.dry_run_ok === true];
      reasons[pkg.id.slice(0, 10)] = row.error === null ? null : String(row.error).replace(/ to put for .*$/, '');
      // Every row is complete and honest: hits never exceed targets, a hit needs a successful run.
      expect(row.score.created_hits).toBeLessThanOrEqual(row.score.targets);
      if (row.score.created_hits > 0) expect(row.dry_run_ok).toBe(true);
    }
    console.info(`[phase2 baseline] ${JSON.stringify(perPackage)} total: ${JSON.stringify({ candidates, targets, hits, ok })}`);
    // The figures (local simulations are deterministic): per package [candidates run, targets,
    // hits, a plan succeeded]. On this corpus the original's baseline creates nothing: each
    // package's first candidate needs an object that only a prior transaction (or the
    // publisher) would make, and the rules put none.
    expect(perPackage).toEqual({
      '0x1eabed72': [0, 10, 0, false],
      '0x7f6b380d': [2, 0, 0, false],
      '0x826915f8': [21, 20, 0, false],
      '0xb2345915': [10, 7, 0, false],
      '0xc5b2a504': [21, 20, 0, false],
      '0xc6faf370': [1, 13, 0, false],
      '0xca441b44': [4, 3, 0, false],
    });
    expect({ candidates, targets, hits, ok }).toEqual({ candidates: 59, targets: 73, hits: 0, ok: 0 });
    expect(reasons).toEqual({
      '0x1eabed72': 'the agent gave no plan',
      '0x7f6b380d': 'call 0: no object of type 0x826915f8ca6d11597dfe6599b8aa02a4c08bd8d39674855254a06ee83fe7220e::governance_v1::GovernanceInfo',
      '0x826915f8': 'call 0: no object of type 0x826915f8ca6d11597dfe6599b8aa02a4c08bd8d39674855254a06ee83fe7220e::genesis::GovernanceGenesis',
      '0xb2345915': 'call 0: no object of type 0xd899cf7d2b5db716bd2cf55599fb0d5ee38a3061e7b6bb6eebf73fa5bc4c81ca::storage::StorageAdminCap',
      '0xc5b2a504': 'call 0: no object of type 0x826915f8ca6d11597dfe6599b8aa02a4c08bd8d39674855254a06ee83fe7220e::genesis::GovernanceGenesis',
      '0xc6faf370': 'call 0: no object of type 0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb::config::GlobalConfig',
      '0xca441b44': 'call 0: no object of type 0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f::oracle::OracleFeederCap',
    });
  }, 120_000);
});

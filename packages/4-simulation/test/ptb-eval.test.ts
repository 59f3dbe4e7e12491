/**
 * ptb-eval's self-healing on real mainnet transactions: a cached transaction missing its app
 * package or an input object fails with the original's category (MissingPackage,
 * MissingObject); with a fetcher (the fixture chain as a data source) the loop fetches what is
 * missing — an object at the version the transaction read — and the transaction then runs
 * and matches its recorded effects; without one, one failed action, no pointless retries.
 */
import { expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { chainFromReplayFixtures, chainSource, REPLAY_DIGESTS } from '../../../test-support/fake-chain.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { errorCategory, evaluateTransaction, fetchedFromSnapshot, ptbEvalSummary, readReplaySnapshot } from '../src/index.js';
import path from 'node:path';

const oz = (): ReturnType<typeof fetchedFromSnapshot> => fetchedFromSnapshot(readReplaySnapshot(path.join(FIXTURES_ROOT, 'fixtures', 'replay', `${REPLAY_DIGESTS[0]}.json`)));
const APP = canonicalAddress('0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d');
const PROPOSAL = canonicalAddress('0x39fcf4d9fe839c61b9d31616e6906883718eaddfb1e52059c8aadf23d546d934');

describeWithFixtures('ptb-eval: self-healing', ['fixtures', 'replay'], () => {
  it('the categories of the original', () => {
    expect(errorCategory(`MISSING_DEPENDENCY: package ${APP} is not loaded (needed for module m)`)).toEqual({ category: 'MissingPackage', missing: { kind: 'package', id: APP } });
    expect(errorCategory(`InputObjectDeleted: input object ${PROPOSAL} does not exist`)).toEqual({ category: 'MissingObject', missing: { kind: 'object', id: PROPOSAL } });
    expect(errorCategory('MoveAbort: MoveAbort in 0x2::m::f at 11 with code 7').category).toBe('Abort(7)');
    expect(errorCategory('something else').category).toBe('ExecutionError');
  });

  it('a missing package and a missing input object are fetched, and the transaction then runs and matches', async () => {
    const f = oz();
    f.snapshot.objects.delete(APP);
    f.snapshot.objects.delete(PROPOSAL);
    const fetcher = chainSource(chainFromReplayFixtures(FIXTURES_ROOT));
    const { report, healed } = await evaluateTransaction(f, { fixturesRoot: FIXTURES_ROOT, maxRetries: 3, fetcher });
    expect(report).toMatchObject({ digest: REPLAY_DIGESTS[0], status: 'Success', retry_count: 2, effects_match: true, is_framework_only: false, command_count: 1 });
    expect(report.healing_actions?.map((a) => `${a.action_type}:${a.success}`).sort()).toEqual(['deploy_package:true', 'fetch_object:true']);
    // The object came at the version the transaction read.
    expect(report.healing_actions?.find((a) => a.action_type === 'fetch_object')?.details).toMatch(/at version 4346051/);
    expect(healed?.snapshot.objects.has(APP)).toBe(true);
    expect(ptbEvalSummary([report]).healing).toEqual({ transactions_healed: 1, actions: 2, successful_actions: 2, success_rate: 1 });
  });

  it('without fetching: one failed action and the category; with maxRetries 0: no action', async () => {
    const f = oz();
    f.snapshot.objects.delete(APP);
    const off = await evaluateTransaction(f, { fixturesRoot: FIXTURES_ROOT, maxRetries: 3, fetcher: null });
    expect(off.report).toMatchObject({ status: 'Failed', retry_count: 0, error_category: 'MissingPackage' });
    expect(off.report.healing_actions).toEqual([{ action_type: 'deploy_package', success: false, details: expect.stringMatching(/fetching is disabled/) }]);
    const none = await evaluateTransaction(f, { fixturesRoot: FIXTURES_ROOT, maxRetries: 0, fetcher: chainSource(chainFromReplayFixtures(FIXTURES_ROOT)) });
    expect(none.report.healing_actions).toBeUndefined();
    expect(none.report.status).toBe('Failed');
  });
});

/**
 * Over GraphQL, an old transaction's system packages are asked as they were at its checkpoint
 * (`object(atCheckpoint:)`), so they come at the exact versions it ran with, not the node's
 * latest; the replay then matches, an upgrade (whose new package records its dependencies'
 * versions) included.
 */
import { afterEach, expect, it } from 'vitest';
import { canonicalAddress } from '@smi/bytecode';
import { loadProtocolConfig } from '@smi/move-vm';
import { fetchReplaySnapshot, replaySnapshot } from '@smi/simulation';
import { chainFromReplayFixtures, REPLAY_DIGESTS } from '../../../test-support/fake-chain.js';
import { type FakeGraphQLServer, startFakeGraphQL } from '../../../test-support/fake-graphql.js';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { GraphQLDataSource, withResilience } from '../src/index.js';

let server: FakeGraphQLServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describeWithFixtures('system packages at the checkpoint of the transaction (GraphQL)', ['fixtures', 'replay'], () => {
  it('each fixture transaction gets 0x1/0x2 at the versions it ran with, and replays exactly', async () => {
    server = await startFakeGraphQL(chainFromReplayFixtures(FIXTURES_ROOT));
    const source = withResilience(new GraphQLDataSource({ url: server.url }), { retries: 0 });
    const expected: Record<string, Record<string, string>> = {
      [REPLAY_DIGESTS[0]]: { [canonicalAddress('0x1')]: '2', [canonicalAddress('0x2')]: '6' },
      [REPLAY_DIGESTS[1]]: { [canonicalAddress('0x1')]: '2', [canonicalAddress('0x2')]: '10' },
    };
    for (const digest of REPLAY_DIGESTS) {
      const f = await fetchReplaySnapshot(source, digest);
      const versions = Object.fromEntries(f.systemPackages.filter((p) => p.id in expected[digest]).map((p) => [p.id, p.version]));
      expect(versions).toEqual(expected[digest]);
      expect(f.systemPackages.every((p) => p.source === 'at-checkpoint')).toBe(true);
      const report = replaySnapshot(f.snapshot, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, f.snapshot.protocolVersion), packages: f.packages });
      expect({ match: report.match, gas: report.gasMatch }).toEqual({ match: true, gas: true });
    }
  });
});

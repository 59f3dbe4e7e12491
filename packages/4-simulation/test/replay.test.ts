import { readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { loadProtocolConfig } from '@smi/move-vm';
import { readReplaySnapshot, replaySnapshot } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

describeWithFixtures('replay of mainnet snapshots', ['fixtures', 'replay'], () => {
  const files = readdirSync(fixturePath('fixtures', 'replay'))
    .filter((f) => f.endsWith('.json'))
    .sort();

  it('has the two snapshots', () => {
    expect(files.length).toBe(2);
  });

  for (const file of files) {
    it(`${file}: status, every object id/version/digest, gas, events and dependencies match`, () => {
      const snap = readReplaySnapshot(fixturePath('fixtures', 'replay', file));
      const report = replaySnapshot(snap, { protocolConfig: loadProtocolConfig(FIXTURES_ROOT, snap.protocolVersion) });
      expect(report.status).toMatchObject({ expected: 'success', actual: 'success', match: true });
      expect(report.objects.filter((o) => !o.match)).toEqual([]);
      expect(report.objects.length).toBe(snap.effects.created.length + snap.effects.mutated.length + snap.effects.deleted.length + snap.effects.wrapped.length + snap.effects.unwrapped.length);
      expect(report.gasMatch).toBe(true);
      expect(report.eventsDigest.match).toBe(true);
      expect(report.dependencies.actual).toEqual(report.dependencies.expected);
      expect(report.match).toBe(true);
    });
  }
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

describe('smi replay: usage', () => {
  it('--help', async () => {
    const r = await smi('replay', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--snapshot/);
  });

  it('a missing snapshot is bad input (exit 2, one line)', async () => {
    const r = await smi('replay', '--snapshot', '/nonexistent/snap.json');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describeWithFixtures('smi replay on the mainnet snapshots', ['fixtures', 'replay'], () => {
  it('upgrade transaction 4fxF3X…: every object matches (text)', async () => {
    const r = await smi('replay', '--snapshot', fixturePath('fixtures', 'replay', '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP.json'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/status: success \(recorded success\) ok/);
    expect(r.stdout).toMatch(/MATCH: 3\/3 objects, gas equal/);
  });

  it('shared-object transaction ozN2rh…: JSON comparison', async () => {
    const r = await smi('replay', '--json', '--snapshot', fixturePath('fixtures', 'replay', 'ozN2rhczEUC39poaeVYxMN6b6TEAjiFX7jFSQFhbKmL.json'));
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { match: boolean; gas_match: boolean; objects: { match: boolean }[] };
    expect(j.match).toBe(true);
    expect(j.gas_match).toBe(true);
    expect(j.objects).toHaveLength(4);
  });

  it('a difference in gas alone is a difference: exit 1, said so', async () => {
    const snap = JSON.parse(readFileSync(fixturePath('fixtures', 'replay', '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP.json'), 'utf8')) as {
      transaction_info: { effects: { gasUsed: { computationCost: number | string } } };
    };
    const gas = snap.transaction_info.effects.gasUsed;
    gas.computationCost = String(Number(gas.computationCost) + 1000);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-replay-')), 'snap.json');
    writeFileSync(file, JSON.stringify(snap));
    const r = await smi('replay', '--snapshot', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/MISMATCH \(gas only: status and every object match\): 3\/3 objects, gas differs/);
  });

  it('smi conformance replay: 2/2', async () => {
    const r = await smi('conformance', 'replay', '--json', '--dir', fixturePath('fixtures', 'replay'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ suite: 'replay', tasks: 2, passed: 2, failed: 0 });
  });
});

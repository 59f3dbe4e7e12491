import { expect, it } from 'vitest';
import { deserializeModule, serializeModule } from '@smi/bytecode';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { corpusModules, frameworkModules, snapshotModules, traceModules, type NamedBytes } from './module-sources.js';
import { fromTemplate } from './support/template-adapter.js';

function roundTripFailures(list: NamedBytes[]): string[] {
  const failures: string[] = [];
  for (const { label, bytes } of list) {
    try {
      const out = serializeModule(deserializeModule(bytes));
      if (Buffer.compare(Buffer.from(out), Buffer.from(bytes)) !== 0) failures.push(`${label}: bytes differ`);
    } catch (e) {
      failures.push(`${label}: ${(e as Error).message}`);
    }
  }
  return failures;
}

function differentialFailures(list: NamedBytes[]): string[] {
  const failures: string[] = [];
  for (const { label, bytes } of list) {
    try {
      expect(deserializeModule(bytes)).toEqual(fromTemplate(bytes));
    } catch (e) {
      failures.push(`${label}: ${(e as Error).message.slice(0, 300)}`);
    }
  }
  return failures;
}

describeWithFixtures('round trip and differential: corpus', ['corpus'], () => {
  const mods = corpusModules();
  it('reads every corpus module (207)', () => {
    expect(mods).toHaveLength(207);
  });
  it('writes every corpus module back byte for byte', () => {
    expect(roundTripFailures(mods)).toEqual([]);
  });
  it('decodes every corpus module exactly as @mysten/move-bytecode-template', () => {
    expect(differentialFailures(mods)).toEqual([]);
  });
});

describeWithFixtures('round trip and differential: framework snapshots', ['fixtures', 'framework-snapshots'], () => {
  const mods = snapshotModules();
  it('finds the 599 distinct modules of protocol versions 3..134', () => {
    expect(mods.length).toBe(599);
  });
  it('writes all 599 back byte for byte', () => {
    expect(roundTripFailures(mods)).toEqual([]);
  });
  it('decodes all 599 exactly as the template', () => {
    expect(differentialFailures(mods)).toEqual([]);
  });
});

describeWithFixtures('round trip: latest framework and trace modules', ['fixtures', 'vm-traces'], () => {
  it('latest framework bundles', () => {
    const mods = frameworkModules();
    expect(mods).toHaveLength(115);
    expect(roundTripFailures(mods)).toEqual([]);
    expect(differentialFailures(mods)).toEqual([]);
  });
  it('trace modules, test-only magic 0xDEADC0DE included', () => {
    const mods = traceModules();
    expect(mods.length).toBeGreaterThan(0);
    const unpublishable = mods.filter((m) => m.bytes[0] === 0xde);
    expect(unpublishable.length).toBeGreaterThan(0);
    for (const m of unpublishable) expect(deserializeModule(m.bytes).publishable).toBe(false);
    expect(() => deserializeModule(unpublishable[0].bytes, { allowUnpublishable: false })).toThrow(/BAD_MAGIC/);
    expect(roundTripFailures(mods)).toEqual([]);
    expect(differentialFailures(mods)).toEqual([]);
  });
});

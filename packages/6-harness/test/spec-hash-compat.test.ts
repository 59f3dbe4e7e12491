/**
 * Spec hashes and cache keys are stored (a run's spec.json, the response cache's file
 * names) and compared later: their canonical text must stay byte for byte what it was.
 * The expected values were computed by the harness's own canonical JSON before it moved
 * into `@smi/bytecode` (`canonicalJson(v, { for: 'hash' })`).
 */
import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../src/run/spec.js';
import { specDifferences, specHash } from '../src/run/spec.js';

const A2 = '0x' + '2'.padStart(64, '0');
const AB = '0x' + 'ab'.padStart(64, '0');

describe('spec hash compatibility', () => {
  it('hashes a spec as before', () => {
    const spec = {
      spec_version: 1,
      benchmark: 'phase1',
      ids: [A2, AB],
      package_hashes: { [AB]: 'ff00', [A2]: '00ff' },
      seed: '42',
      agent: 'model',
      model: { id: 'gpt-x', base_url: 'http://localhost:1/v1', params: { temperature: 0, maxTokens: null, seed: undefined, thinking: { type: 'enabled', clear_thinking: false } } },
      limits: { max_attempts: 3, per_package_timeout_s: 600.5, structs_in_prompt: true, note: null },
      prompt_version: 'v7',
      code: { git_commit: null, harness_version: '0.1.0', packages: { '@smi/ptb': '0.2.0', '@smi/bytecode': '0.1.0' } },
      epochs: 1,
    } as RunSpec;
    expect(specHash(spec)).toBe('ff511d0b34cda6d52289eb42f8b11c155bf56b76f8836dd9d9d63dc0d319e4dd');
    // A key present on one side only differs (undefined reads as null).
    const other = { ...spec, code: { git_commit: null, harness_version: '0.1.0' } } as RunSpec;
    expect(specDifferences(spec, other)).toEqual(['code']);
    expect(specDifferences(spec, { ...spec })).toEqual([]);
  });
});

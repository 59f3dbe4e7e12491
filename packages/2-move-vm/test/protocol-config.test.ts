import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT, fixturePath } from '../../../test-support/fixtures.js';
import { availableProtocolVersions, loadProtocolConfig, parseProtocolConfigSnap, ProtocolConfigError, type ConfigMap } from '../src/config/protocol-config.js';
import { protocolConfigForChain } from '../src/config/chain-config.js';

const HEADER = '---\nsource: crates/sui-protocol-config/src/lib.rs\nexpression: "ProtocolConfig::get_for_version(cur, *chain_id)"\n---\n';

function parseError(text: string): ProtocolConfigError {
  try {
    parseProtocolConfigSnap(text, { file: 'x.snap' });
  } catch (e) {
    if (e instanceof ProtocolConfigError) return e;
    throw e;
  }
  throw new Error('expected a parse error');
}

describe('parseProtocolConfigSnap (synthetic)', () => {
  it('reads scalars, nested maps, sequences and compact items', () => {
    const cfg = parseProtocolConfigSnap(
      HEADER +
        [
          'version: 7',
          'feature_flags:',
          '  a: true',
          '  consensus_transaction_ordering: ByGasPrice',
          'small: 12',
          'huge: 18446744073709551615',
          'none: ~',
          'quoted: "0x2::sui::SUI"',
          'empty: {}',
          'list:',
          '  - original:',
          '      - 1',
          '      - 2',
          '    aliased:',
          '      - - 3',
          '        - 4',
          '  - - "x"',
          '    - 10',
          'same_indent:',
          '- 5',
          'map:',
          '  "0003": "0003"',
          '  abc: def',
          '',
        ].join('\n'),
    );
    expect(cfg.version).toBe(7);
    expect(cfg.flag('a')).toBe(true);
    expect(cfg.flag('absent')).toBe(false);
    expect(cfg.flagValue('consensus_transaction_ordering')).toBe('ByGasPrice');
    expect(cfg.int('small')).toBe(12);
    expect(cfg.u64('huge')).toBe(18446744073709551615n);
    expect(() => cfg.int('huge')).toThrow(ProtocolConfigError);
    expect(cfg.get('none')).toBeNull();
    expect(cfg.str('quoted')).toBe('0x2::sui::SUI');
    expect(cfg.get('empty')).toEqual({});
    expect(cfg.get('list')).toEqual([{ original: [1, 2], aliased: [[3, 4]] }, ['x', 10]]);
    expect(cfg.get('same_indent')).toEqual([5]);
    expect(cfg.get('map')).toEqual({ '0003': '0003', abc: 'def' });
    expect(cfg.has('version')).toBe(false);
    expect(cfg.header.source).toBe('crates/sui-protocol-config/src/lib.rs');
  });

  it('typed accessors report missing keys and wrong types with stable codes', () => {
    const cfg = parseProtocolConfigSnap(`${HEADER}version: 1\nfeature_flags: {}\ns: text\n`, { file: 'f.snap' });
    try {
      cfg.int('nope');
      throw new Error('unreachable');
    } catch (e) {
      expect(e).toBeInstanceOf(ProtocolConfigError);
      expect((e as ProtocolConfigError).code).toBe('PROTOCOL_CONFIG_MISSING_KEY');
    }
    expect(() => cfg.int('s')).toThrow(/should be an integer/);
    expect(cfg.optionalInt('nope')).toBeUndefined();
  });

  it.each([
    ['float', 'x: 1.5', 7],
    ['leading zero', 'x: 0123', 7],
    ['yaml 1.1 bool', 'x: yes', 7],
    ['duplicate key', 'x: 1\nx: 2', 8],
    ['key without value', 'x:\ny: 1', 7],
    ['comment', '# hi', 7],
    ['tab indentation', 'm:\n\t a: 1', 8],
    ['anchor', 'x: &a 1', 7],
    ['flow sequence', 'x: [1, 2]', 7],
    ['bad indentation', 'm:\n  a: 1\n    b: 2', 9],
  ])('rejects %s with file and line', (_name, body, line) => {
    const e = parseError(`${HEADER}version: 1\nfeature_flags: {}\n${body}\n`);
    expect(e.code).toBe('PROTOCOL_CONFIG_PARSE_ERROR');
    expect(e.file).toBe('x.snap');
    expect(e.line).toBe(line);
    expect(e.message).toContain(`x.snap:${line}:`);
  });

  it('requires the header, version and feature_flags', () => {
    expect(parseError('version: 1\n').code).toBe('PROTOCOL_CONFIG_PARSE_ERROR');
    expect(parseError(`${HEADER}feature_flags: {}\n`).message).toContain('version');
    expect(parseError(`${HEADER}version: 1\n`).message).toContain('feature_flags');
  });
});

describeWithFixtures('protocol-config snapshots (real data)', ['fixtures', 'protocol-config'], () => {
  const versions = availableProtocolVersions(FIXTURES_ROOT);

  it('finds mainnet versions 1..135', () => {
    expect(versions[0]).toBe(1);
    expect(versions.length).toBeGreaterThanOrEqual(135);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });

  it('parses every snapshot and matches every `key: value` line of the top level', () => {
    for (const v of versions) {
      const file = fixturePath('fixtures', 'protocol-config', `sui_protocol_config__test__Mainnet_version_${v}.snap`);
      const text = readFileSync(file, 'utf8');
      const cfg = parseProtocolConfigSnap(text, { file });
      expect(cfg.version).toBe(v);
      // Cross-check: every top-level scalar line appears with the same text.
      const body = text.split('\n---\n')[1];
      let scalars = 0;
      for (const line of body.split('\n')) {
        const m = /^([a-z0-9_]+): (.+)$/.exec(line);
        if (m === null || m[1] === 'version' || m[1] === 'feature_flags') continue;
        const got = cfg.get(m[1]);
        expect(got, `${path.basename(file)} ${m[1]}`).not.toBeUndefined();
        expect(String(got), `${path.basename(file)} ${m[1]}`).toBe(m[2]);
        scalars++;
      }
      expect(scalars).toBeGreaterThan(100);
    }
  });

  it('defaults to the highest version and reads the values the VM needs', () => {
    const cfg = loadProtocolConfig(FIXTURES_ROOT);
    expect(cfg.version).toBe(versions[versions.length - 1]);
    const c135 = loadProtocolConfig(FIXTURES_ROOT, 135);
    expect(c135.int('gas_model_version')).toBe(14);
    expect(c135.int('max_move_value_depth')).toBe(128);
    expect(c135.int('max_move_vector_len')).toBe(262144);
    expect(c135.u64('max_tx_gas')).toBe(50_000_000_000_000n);
    expect(c135.flag('gas_rounding_halve_digits')).toBe(true);
    expect(c135.flagValue('consensus_transaction_ordering')).toBe('ByGasPrice');
    const aliased = c135.get('aliased_addresses') as readonly ConfigMap[];
    expect(Array.isArray(aliased)).toBe(true);
    expect((aliased[0].original as readonly number[]).length).toBe(32);
    const v1 = loadProtocolConfig(FIXTURES_ROOT, 1);
    expect(v1.featureFlags).toEqual({});
    expect(v1.optionalInt('max_move_value_depth')).toBeUndefined();
  });

  it('reports missing versions and folders with PROTOCOL_CONFIG_NOT_FOUND', () => {
    expect(() => loadProtocolConfig(FIXTURES_ROOT, 100000)).toThrow(expect.objectContaining({ code: 'PROTOCOL_CONFIG_NOT_FOUND' }));
    expect(() => availableProtocolVersions('/nonexistent/folder')).toThrow(expect.objectContaining({ code: 'PROTOCOL_CONFIG_NOT_FOUND' }));
  });
});

describeWithFixtures('protocolConfigForChain: the chain-gated assignments of upstream lib.rs', ['fixtures', 'protocol-config'], () => {
  const at = (version: number, chain: 'mainnet' | 'testnet' | 'unknown') => protocolConfigForChain(loadProtocolConfig(FIXTURES_ROOT, version), chain);

  it('mainnet is the snapshot itself', () => {
    const cfg = loadProtocolConfig(FIXTURES_ROOT, 126);
    expect(protocolConfigForChain(cfg, 'mainnet')).toBe(cfg);
  });
  it('devnet (unknown) at 126: ristretto255 group ops and bulletproofs (from 112 and 122), MSM and VDF with their costs', () => {
    const cfg = at(126, 'unknown');
    for (const f of ['enable_ristretto255_group_ops', 'enable_verify_bulletproofs_ristretto255', 'enable_group_ops_native_function_msm', 'enable_vdf']) expect(cfg.flag(f)).toBe(true);
    expect(cfg.optionalInt('vdf_verify_vdf_cost')).toBe(1500);
    expect(cfg.flag('enable_allowances')).toBe(false);
    expect(cfg.version).toBe(126);
  });
  it('testnet gets ristretto255 and bulletproofs at 127 only; mainnet never', () => {
    expect(at(126, 'testnet').flag('enable_ristretto255_group_ops')).toBe(false);
    expect(at(127, 'testnet').flag('enable_ristretto255_group_ops')).toBe(true);
    expect(at(127, 'testnet').flag('enable_group_ops_native_function_msm')).toBe(false);
    expect(at(135, 'mainnet').flag('enable_ristretto255_group_ops')).toBe(false);
  });
  it('later assignments of all chains win over earlier gated ones, and mainnet-only ones leave other chains as they were', () => {
    // defer_unpaid_amplification: devnet on at 113, everyone off at 116, testnet on at 121
    expect(at(114, 'unknown').flag('defer_unpaid_amplification')).toBe(true);
    expect(at(116, 'unknown').flag('defer_unpaid_amplification')).toBe(false);
    expect(at(121, 'testnet').flag('defer_unpaid_amplification')).toBe(true);
    // gasless_max_computation_units: 50 000 off mainnet at 119, 5 000 everywhere at 122
    expect(at(120, 'testnet').optionalInt('gasless_max_computation_units')).toBe(50_000);
    expect(at(122, 'testnet').optionalInt('gasless_max_computation_units')).toBe(5_000);
    // nitro attestation: off mainnet at 79 and 83, on mainnet at 84
    expect(at(80, 'testnet').flag('enable_nitro_attestation')).toBe(true);
    expect(at(80, 'mainnet').flag('enable_nitro_attestation')).toBe(false);
    expect(at(83, 'testnet').optionalInt('transfer_party_transfer_internal_cost_base')).toBe(52);
  });
});

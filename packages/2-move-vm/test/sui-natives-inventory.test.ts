/**
 * Inventory: every native function the framework bytecode declares (0x1, 0x2, 0x3, 0xb,
 * 0xdee9: function definitions without code) has a registry entry. move-stdlib comes
 * from `registerMoveStdlib`, the crypto modules from `registerSuiCrypto`, everything else
 * from `registerSuiNatives`.
 */
import { describe, expect, it } from 'vitest';
import { canonicalAddress, loadBundleFile } from '@smi/bytecode';
import { NativeRegistry } from '@smi/move-vm';
import { registerMoveStdlib } from '../src/natives/move-stdlib.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { registerSuiCrypto } from '../src/natives/sui/crypto/index.js';
import { registerSuiNatives, suiNatives } from '../src/natives/sui/index.js';

const BUNDLES = ['move-stdlib', 'sui-framework', 'sui-system', 'bridge', 'deepbook'];

/** Modules whose natives `registerSuiCrypto` provides. */
const CRYPTO_MODULES = new Set([
  'hash',
  'hmac',
  'ed25519',
  'ecdsa_k1',
  'ecdsa_r1',
  'bls12381',
  'ecvrf',
  'groth16',
  'group_ops',
  'poseidon',
  'zklogin_verified_id',
  'zklogin_verified_issuer',
  'vdf',
  'rangeproofs',
  'nitro_attestation',
]);

interface Declared {
  address: string;
  module: string;
  name: string;
}

function declaredNatives(): Declared[] {
  const out: Declared[] = [];
  for (const b of BUNDLES) {
    const pkg = loadBundleFile(fixturePath('fixtures', 'framework', b));
    for (const { name: module, module: m } of pkg.modules) {
      for (const d of m.functionDefs) {
        if (d.code !== null) continue;
        out.push({ address: pkg.originalId, module, name: m.identifiers[m.functionHandles[d.function].name] });
      }
    }
  }
  return out;
}

describeWithFixtures('sui natives: inventory of the framework natives', ['fixtures', 'framework'], () => {
  const declared = declaredNatives();
  const key = (d: Declared): string => NativeRegistry.key(d.address, d.module, d.name);

  it('the framework declares natives in 0x1, 0x2 and 0x3 only', () => {
    const addrs = new Set(declared.map((d) => d.address));
    expect([...addrs].sort()).toEqual(['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a)).sort());
    expect(declared.length).toBeGreaterThan(90);
  });

  it('every declared native has a registry entry (stdlib + sui + crypto)', () => {
    const registry = registerSuiCrypto(registerSuiNatives(registerMoveStdlib(new NativeRegistry())));
    const missing = declared.filter((d) => registry.get(d.address, d.module, d.name) === undefined).map(key);
    expect(missing).toEqual([]);
  });

  it('registerSuiNatives alone covers every non-crypto 0x2/0x3 native', () => {
    const registry = registerSuiNatives(new NativeRegistry());
    const ours = declared.filter((d) => d.address !== canonicalAddress('0x1') && !CRYPTO_MODULES.has(d.module));
    const missing = ours.filter((d) => registry.get(d.address, d.module, d.name) === undefined).map(key);
    expect(missing).toEqual([]);
    expect(ours.length).toBe(45);
  });

  it('registerSuiNatives registers no crypto module (no overlap with registerSuiCrypto)', () => {
    const modules = Object.values(suiNatives()).flatMap((m) => Object.keys(m));
    expect(modules.filter((m) => CRYPTO_MODULES.has(m))).toEqual([]);
  });
});

describe('sui natives: registry keys', () => {
  it('addresses are canonical', () => {
    const r = registerSuiNatives(new NativeRegistry());
    expect(r.keys().every((k) => /^0x[0-9a-f]{64}::/.test(k))).toBe(true);
  });
});

import { mkdirSync, mkdtempSync, readdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPackageDirs, loadBundleFile, loadPackageDir, loadSnapshotFile, PackageError, packageFromBytes, parseModuleBundle } from '@smi/bytecode';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const CETUS_V10 = '0xc6faf3703b0e8ba9ed06b7851134bbbe7565eb35ff823fd78432baa4cbeaa12e';
const CETUS_ORIGINAL = '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb';

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'OK';
  } catch (e) {
    expect(e).toBeInstanceOf(PackageError);
    return (e as PackageError).code;
  }
}

describe('module bundles', () => {
  it('parses a BCS vector<vector<u8>> and rejects truncation', () => {
    const bundle = Uint8Array.from([2, 3, 1, 2, 3, 1, 9]);
    expect(parseModuleBundle(bundle).map((b) => [...b])).toEqual([[1, 2, 3], [9]]);
    expect(() => parseModuleBundle(bundle.subarray(0, 5))).toThrow(PackageError);
    expect(() => parseModuleBundle(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x7f]))).toThrow(/exceeds/);
  });
  it('missing paths are PACKAGE_NOT_FOUND', () => {
    expect(codeOf(() => loadPackageDir('/nonexistent'))).toBe('PACKAGE_NOT_FOUND');
    expect(codeOf(() => loadBundleFile('/nonexistent'))).toBe('PACKAGE_NOT_FOUND');
    expect(codeOf(() => findPackageDirs('/nonexistent'))).toBe('PACKAGE_NOT_FOUND');
    expect(codeOf(() => packageFromBytes([]))).toBe('INVALID_PACKAGE');
  });
});

describeWithFixtures('package loading from the fixtures', ['corpus'], () => {
  it('reads a sui-packages directory with its upgrade tables', () => {
    const pkg = loadPackageDir(fixturePath('corpus', CETUS_V10));
    expect(pkg.id).toBe(CETUS_V10);
    expect(pkg.originalId).toBe(CETUS_ORIGINAL);
    expect(pkg.version).toBe(10);
    expect(pkg.modules.map((m) => m.name)).toContain('pool');
    expect(pkg.typeOriginTable.find((t) => t.datatypeName === 'FlashLoanReceipt')).toEqual({
      moduleName: 'pool',
      datatypeName: 'FlashLoanReceipt',
      package: CETUS_V10,
    });
    expect(pkg.linkageTable['0x0000000000000000000000000000000000000000000000000000000000000002']).toEqual({
      upgradedId: '0x0000000000000000000000000000000000000000000000000000000000000002',
      upgradedVersion: 30,
    });
  });

  it('finds the 12 corpus packages', () => {
    expect(findPackageDirs(fixturePath('corpus'))).toHaveLength(12);
  });

  it('falls back to bcs.json moduleMap when bytecode_modules/ is absent', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smi-pkg-'));
    copyFileSync(fixturePath('corpus', CETUS_V10, 'bcs.json'), path.join(dir, 'bcs.json'));
    const pkg = loadPackageDir(dir);
    expect(pkg.id).toBe(CETUS_V10);
    expect(pkg.modules).toHaveLength(12);
  });

  it('reports bad JSON, empty packages, mixed addresses and bad modules with typed codes', () => {
    const bad = mkdtempSync(path.join(tmpdir(), 'smi-pkg-'));
    mkdirSync(path.join(bad, 'bytecode_modules'));
    writeFileSync(path.join(bad, 'metadata.json'), '{');
    expect(codeOf(() => loadPackageDir(bad))).toBe('INVALID_PACKAGE');

    const empty = mkdtempSync(path.join(tmpdir(), 'smi-pkg-'));
    mkdirSync(path.join(empty, 'bytecode_modules'));
    expect(codeOf(() => loadPackageDir(empty))).toBe('INVALID_PACKAGE');

    const mixed = mkdtempSync(path.join(tmpdir(), 'smi-pkg-'));
    mkdirSync(path.join(mixed, 'bytecode_modules'));
    const one = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001', 'bytecode_modules', 'bcs.mv');
    const two = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000002', 'bytecode_modules', 'bcs.mv');
    copyFileSync(one, path.join(mixed, 'bytecode_modules', 'a.mv'));
    copyFileSync(two, path.join(mixed, 'bytecode_modules', 'b.mv'));
    expect(codeOf(() => loadPackageDir(mixed))).toBe('INVALID_PACKAGE');

    const broken = mkdtempSync(path.join(tmpdir(), 'smi-pkg-'));
    mkdirSync(path.join(broken, 'bytecode_modules'));
    writeFileSync(path.join(broken, 'bytecode_modules', 'x.mv'), Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 9, 0, 0, 0]));
    try {
      loadPackageDir(broken);
      expect.unreachable();
    } catch (e) {
      expect((e as PackageError).code).toBe('INVALID_MODULE');
      expect((e as PackageError).moduleName).toBe('x');
      expect((e as Error).message).toMatch(/UNKNOWN_VERSION/);
    }
  });
});

describeWithFixtures('framework bundles and snapshots', ['fixtures', 'framework-snapshots'], () => {
  it('loads every latest framework bundle at its own address', () => {
    const expected: Record<string, string> = {
      'move-stdlib': '0x1',
      'sui-framework': '0x2',
      'sui-system': '0x3',
      bridge: '0xb',
      deepbook: '0xdee9',
    };
    for (const [file, short] of Object.entries(expected)) {
      const pkg = loadBundleFile(fixturePath('fixtures', 'framework', file));
      expect(pkg.id).toBe('0x' + short.slice(2).padStart(64, '0'));
      expect(pkg.modules.length).toBeGreaterThan(5);
      expect(pkg.source.$kind).toBe('Bundle');
    }
  });

  it('loads every snapshot file; the stored id is the modules’ address', () => {
    const root = fixturePath('fixtures', 'framework-snapshots');
    let files = 0;
    for (const v of readdirSync(root)) {
      for (const f of readdirSync(path.join(root, v))) {
        const pkg = loadSnapshotFile(path.join(root, v, f));
        expect(pkg.id).toBe(f);
        expect(pkg.originalId).toBe(f);
        files++;
      }
    }
    expect(files).toBe(477);
  });
});

/**
 * What must equal the original Python harness bit for bit: `json.dumps` output and the
 * `_checksum` of run files (its fixtures load, verify and are rejected as it did),
 * FNV-1a sampling, `random.Random`, and the mock agents in sorted order. Expected values
 * were computed with CPython 3 from the spec's formulas (the snippets are in comments).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { CheckpointError, discoverPackages, loadRunJson, parseRunJson, PyFloat, type PyJson, renderRunJson, samplePackages } from '../src/index.js';
import { fnv1a64 } from '../src/dataset.js';
import { mockPrediction } from '../src/phase1/agents.js';
import { parsePyJson, pyChecksum, pyDumps, pyDumpsLine, pyFloatRepr } from '../src/py-json.js';
import { PyRandom } from '../src/phase1/py-random.js';
import { scoreKeyTypes } from '../src/phase1/judge.js';

const HARNESS = ['fixtures', 'harness', 'tests', 'fixtures'];

describe('json.dumps as Python writes it', () => {
  it('floats are repr()', () => {
    const cases: [number, string][] = [
      [1, '1.0'],
      [0.5, '0.5'],
      [1e-5, '1e-05'],
      [0.0001, '0.0001'],
      [1e16, '1e+16'],
      // biome-ignore lint/correctness/noPrecisionLoss: the float Python prints for this literal
      [123456789012345678, '1.2345678901234568e+17'],
      [2 / 3, '0.6666666666666666'],
      [-0, '-0.0'],
      [1.5e300, '1.5e+300'],
    ];
    for (const [x, repr] of cases) expect(pyFloatRepr(x)).toBe(repr);
  });

  it('indent=2, sort_keys, ensure_ascii (python: json.dumps(payload, indent=2, sort_keys=True))', () => {
    const payload = {
      package_id: '0x1',
      modules: {
        m: {
          address: '0x1',
          structs: {
            S: {
              fields: [
                { name: 'x', type: { kind: 'u64' } },
                { name: 'é', type: { kind: 'vector', type: { kind: 'u8' } } },
              ],
            },
          },
        },
      },
      note: 'Struct abilities are intentionally omitted.',
      // biome-ignore lint/correctness/noPrecisionLoss: the float Python prints for this literal
      f: [new PyFloat(1), new PyFloat(0.5), new PyFloat(1e-5), new PyFloat(123456789012345678), new PyFloat(-0)],
      e: {},
      l: [],
    };
    const python =
      '{\n  "e": {},\n  "f": [\n    1.0,\n    0.5,\n    1e-05,\n    1.2345678901234568e+17,\n    -0.0\n  ],\n  "l": [],\n  "modules": {\n    "m": {\n      "address": "0x1",\n      "structs": {\n        "S": {\n          "fields": [\n            {\n              "name": "x",\n              "type": {\n                "kind": "u64"\n              }\n            },\n            {\n              "name": "\\u00e9",\n              "type": {\n                "kind": "vector",\n                "type": {\n                  "kind": "u8"\n                }\n              }\n            }\n          ]\n        }\n      }\n    }\n  },\n  "note": "Struct abilities are intentionally omitted.",\n  "package_id": "0x1"\n}';
    expect(pyDumps(payload as unknown as PyJson, 2)).toBe(python);
    expect(pyDumpsLine({ t: 1, event: 'x', f1: new PyFloat(1) })).toBe('{"event": "x", "f1": 1.0, "t": 1}');
    expect(pyDumps({ b: 1, a: [1, 2] })).toBe('{"a":[1,2],"b":1}');
  });

  it('parsePyJson keeps float text and big integers, so a file is written back the same', () => {
    const text = '{"a": 1.0, "b": 12345678901234567890, "c": [1e-05, 2]}';
    const v = parsePyJson(text);
    expect(pyDumpsLine(v)).toBe(text);
  });
});

describeWithFixtures('the original run files (checksums)', HARNESS, () => {
  it('checksums equal what Python computes (hashlib.sha256(json.dumps(d, sort_keys=True, separators=(",", ":")))[:8])', () => {
    // Their own `_checksum` fields are placeholders; these are the real ones, from CPython.
    const sum = (f: string): string => pyChecksum(parsePyJson(readFileSync(fixturePath(...HARNESS, f), 'utf8')) as { [k: string]: never });
    expect(sum('phase1_golden_run.json')).toBe('0e98131c');
    expect(sum('phase2_golden_run.json')).toBe('33cea759');
    expect(sum('phase1_checkpoint_bad_checksum.json')).toBe('a72f3420');
  });

  it('the bad-checksum checkpoint is rejected with a fix; the one without a checksum loads', () => {
    let err: unknown;
    try {
      loadRunJson(fixturePath(...HARNESS, 'phase1_checkpoint_bad_checksum.json'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CheckpointError);
    expect((err as CheckpointError).code).toBe('CHECKSUM_MISMATCH');
    expect((err as Error).message).toMatch(/checksum mismatch.*remove the file/i);
    const ok = loadRunJson(fixturePath(...HARNESS, 'phase1_checkpoint_no_checksum.json'));
    expect(ok.schema_version).toBe(1);
    expect(ok.packages).toHaveLength(1);
  });

  it('golden files load and validate (placeholder checksum ignored, as the original tests did); rewritten, they verify', () => {
    const p1 = loadRunJson(fixturePath(...HARNESS, 'phase1_golden_run.json'), { ignoreChecksum: true });
    expect((p1.aggregate as { packages_total: number }).packages_total).toBe(2);
    const p2 = loadRunJson(fixturePath(...HARNESS, 'phase2_golden_run.json'), { ignoreChecksum: true, phase: 2 });
    expect(p2.packages).toHaveLength(2);
    const text = renderRunJson(p1);
    expect(text).toMatch(/"_checksum": "0e98131c"/);
    expect(parseRunJson(text, 'x').agent).toBe('mock-empty');
    // A changed byte is caught.
    expect(() => parseRunJson(text.replace('"avg_f1": 0.75', '"avg_f1": 0.76'), 'x')).toThrow(/checksum mismatch/);
    // The validator names what is missing.
    expect(() => parseRunJson(renderRunJson({ ...p1, seed: 'x' }), 'x')).toThrow(/field seed: expected int, got str/);
  });
});

describe('sampling: FNV-1a 64 with the seed in the offset basis', () => {
  it('hashes as the spec (python: h = 1469598103934665603 ^ seed; for b in s.encode(): h = ((h ^ b) * 1099511628211) % 2**64)', () => {
    expect(fnv1a64(0, 'a')).toBe(4953267810257967366n);
    expect(fnv1a64(7, '0x1')).toBe(5833974956426806983n);
    expect(fnv1a64(-1, '0x2')).toBe(12612772415817629266n);
    expect(fnv1a64(2n ** 70n, '0xab')).toBe(10032111430017158156n);
    expect(fnv1a64(42, 'é')).toBe(11102699095796583925n);
  });

  it('n <= 0 or n >= count gives all; else the n smallest (hash, id), sorted by id', () => {
    const pkgs = ['0x1', '0x2', '0x3', 'a', 'b'].map((packageId) => ({ packageId }));
    expect(samplePackages(pkgs, 0, 0)).toEqual(pkgs);
    expect(samplePackages(pkgs, 9, 0)).toEqual(pkgs);
    const two = samplePackages(pkgs, 2, 0).map((p) => p.packageId);
    const byHash = pkgs.map((p) => p.packageId).sort((x, y) => (fnv1a64(0, x) < fnv1a64(0, y) ? -1 : 1));
    expect(two).toEqual(byHash.slice(0, 2).sort());
  });
});

describeWithFixtures('sampling the shared corpus picks what the original picked', ['corpus'], () => {
  it('--samples 3 --seed 0 / 7, --samples 5 --seed 123456789 (python: the original dataset.sample_packages)', () => {
    const { packages } = discoverPackages(fixturePath('corpus'));
    const ids = (n: number, seed: number): string[] => samplePackages(packages, n, seed).map((p) => p.packageId.slice(0, 10));
    expect(ids(3, 0)).toEqual(['0x00000000', '0x1eabed72', '0x7f6b380d']);
    expect(samplePackages(packages, 3, 0)[0].packageId).toBe(`0x${'0'.repeat(63)}b`);
    expect(ids(3, 7)).toEqual(['0x00000000', '0x00000000', '0xb2345915']);
    expect(ids(5, 123456789)).toEqual(['0x7f6b380d', '0x826915f8', '0xb2345915', '0xc5b2a504', '0xc6faf370']);
  });
});

describe('random.Random and the mock agents', () => {
  it('PyRandom(seed) gives CPython numbers', () => {
    // python: r = random.Random(0); [r.random() for _ in range(3)]; [r.randint(0, 9999) for _ in range(5)]
    const r = new PyRandom(0);
    expect([r.random(), r.random(), r.random()]).toEqual([0.8444218515250481, 0.7579544029403025, 0.420571580830845]);
    expect([0, 1, 2, 3, 4].map(() => r.randint(0, 9999))).toEqual([4242, 8376, 7961, 6634, 4969]);
    expect(new PyRandom(42).random()).toBe(0.6394267984578837);
    const big = new PyRandom(2n ** 40n + 5n);
    expect([big.random(), big.randint(0, 9999)]).toEqual([0.5043802970418443, 4400]);
    expect(new PyRandom(-7).random()).toBe(0.32383276483316237);
  });

  it('mock-random / mock-noisy: random.Random(seed) over the sorted truth, the same whatever the input order', () => {
    const truth = ['0x2::f::F', '0x2::a::A', '0x2::c::C', '0x2::b::B', '0x2::e::E', '0x2::d::D'];
    // python: r = random.Random(seed); [t for t in sorted(truth) if r.random() < 0.5]
    expect(mockPrediction('mock-random', truth, 0)).toEqual(['0x2::c::C', '0x2::d::D', '0x2::f::F']);
    expect(mockPrediction('mock-random', truth, 42)).toEqual(['0x2::b::B', '0x2::c::C', '0x2::d::D']);
    expect(mockPrediction('mock-noisy', truth, 0)).toEqual([
      '0x2::c::C',
      '0x2::d::D',
      '0x2::e::E',
      '0x2::f::F',
      '0xdead::3578::Fake',
      '0xdead::4969::Fake',
      '0xdead::5866::Fake',
      '0xdead::7808::Fake',
      '0xdead::9558::Fake',
    ]);
    expect(mockPrediction('mock-noisy', truth, 42)).toEqual([
      '0x2::a::A',
      '0x2::b::B',
      '0x2::c::C',
      '0x2::d::D',
      '0x2::f::F',
      '0xdead::1424::Fake',
      '0xdead::520::Fake',
      '0xdead::6912::Fake',
      '0xdead::8935::Fake',
      '0xdead::9674::Fake',
    ]);
    expect(mockPrediction('mock-random', [...truth].reverse(), 0)).toEqual(mockPrediction('mock-random', truth, 0));
    expect(mockPrediction('mock-perfect', truth, 0)).toEqual(truth);
    expect(mockPrediction('mock-empty', truth, 0)).toEqual([]);
  });

  it('scores as judge.py', () => {
    expect(scoreKeyTypes([], [])).toMatchObject({ precision: 1, recall: 1, f1: 1, tp: 0 });
    expect(scoreKeyTypes(['a', 'b'], [])).toMatchObject({ precision: 0, recall: 0, f1: 0, fn: 2, missing_sample: ['a', 'b'] });
    expect(scoreKeyTypes([], ['x'])).toMatchObject({ precision: 0, recall: 0, f1: 0, fp: 1, extra_sample: ['x'] });
    // The golden file's second package: T1 of {T1, T2}.
    expect(scoreKeyTypes(['T1', 'T2'], ['T1'])).toMatchObject({ precision: 1, recall: 0.5, f1: 0.6666666666666666 });
    const many = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    expect(scoreKeyTypes(many, []).missing_sample).toHaveLength(20);
  });
});

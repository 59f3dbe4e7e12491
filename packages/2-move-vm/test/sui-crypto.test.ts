/**
 * Sui crypto natives (0x2), called directly through the registry with a minimal context:
 * hashes, HMAC, ed25519, ECDSA k1/r1, BLS signatures, ECVRF, permissive mode, gas, and
 * the list of natives the framework bytecode declares. Vectors: the framework's own Move
 * tests (`sui-framework/tests/crypto/*.move`), RFC 8032 and RFC 4231-style HMAC.
 */
import { describe, expect, it } from 'vitest';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { loadBundleFile } from '@smi/bytecode';
import { VmError } from '../src/errors.js';
import { NativeRegistry } from '../src/natives/registry.js';
import type { MoveVector } from '../src/values/vector.js';
import { PROTOCOL_135_CRYPTO_COSTS, registerSuiCrypto, type SuiCryptoOptions } from '../src/natives/sui/crypto/index.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { fakeCtx, hex, utf8, v, native, call, abortCode } from './support/crypto-natives.js';

const out = (r: unknown[]): string => Buffer.from((r[0] as MoveVector).bytes()).toString('hex');

describe('hash and hmac', () => {
  it('keccak256 and blake2b256 of "hello world!"', () => {
    expect(out(call('hash', 'keccak256', [v(utf8('hello world!'))]))).toBe('57caa176af1ac0433c5df30e8dabcd2ec1af1e92a26eced5f719b88458777cd6');
    expect(out(call('hash', 'blake2b256', [v(utf8('hello world!'))]))).toBe('4fccfb4d98d069558aa93e9565f997d81c33b080364efd586e77a433ddffc5e2');
    expect(out(call('hash', 'keccak256', [v('')]))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(out(call('hash', 'blake2b256', [v('')]))).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });

  it('hmac_sha3_256 (framework vector, empty inputs, RFC 4231-style keys)', () => {
    expect(out(call('hmac', 'hmac_sha3_256', [v(utf8('my key!')), v(utf8('hello world!'))]))).toBe('f6d6ae02f426eb9664e89e3c6d86c60e6103ce22b916819219c26e34e8d236dc');
    // RFC 4231 test cases 1, 2 and 6 (key longer than the 136-byte SHA3-256 block), against an independent HMAC.
    const cases: [Uint8Array, Uint8Array][] = [
      [new Uint8Array(20).fill(0x0b), utf8('Hi There')],
      [utf8('Jefe'), utf8('what do ya want for nothing?')],
      [new Uint8Array(147).fill(0xaa), utf8('Test Using Larger Than Block-Size Key - Hash Key First')],
      [new Uint8Array(0), new Uint8Array(0)],
    ];
    for (const [k, m] of cases) expect(out(call('hmac', 'hmac_sha3_256', [v(k), v(m)]))).toBe(Buffer.from(hmac(sha3_256, k, m)).toString('hex'));
    // RFC 4231 case 1 digest for HMAC-SHA3-256 (published NIST example value).
    expect(out(call('hmac', 'hmac_sha3_256', [v(cases[0][0]), v(cases[0][1])]))).toBe('ba85192310dffa96e2a3a40e69774351140bb7185e1202cdcc917589f95e16bb');
  });

  it('charges base + per byte + per block from the cost table', () => {
    const { ctx, used } = fakeCtx();
    native('hash', 'blake2b256')(ctx, [], [v(new Uint8Array(129))]);
    expect(used()).toBe(10 + 2 * 129 + 2 * 2);
    const k = fakeCtx();
    native('hash', 'keccak256', { costs: { hash_keccak256_cost_base: 1000 } })(k.ctx, [], [v(new Uint8Array(136))]);
    expect(k.used()).toBe(1000 + 2 * 136 + 2);
    const h = fakeCtx();
    native('hmac', 'hmac_sha3_256')(h.ctx, [], [v(new Uint8Array(7)), v(new Uint8Array(12))]);
    expect(h.used()).toBe(52 + 2 * 19 + 2 * Math.floor((19 + 270) / 136));
  });
});

describe('ed25519', () => {
  const msg = '315f5bdb76d078c43b8ac0064e4a0164612b1fce77c869345bfc94c75894edd3';
  const pk = 'cc62332e34bb2d5cd69f60efbb2a36cb916c7eb458301ea36636c4dbb012bd88';
  const sig = 'cce72947906dbae4c166fc01fd096432784032be43db540909bc901dbc057992b4d655ca4f4355cf0868e1266baacf6919902969f063e74162f8f04bc4056105';
  const verify = (s: string, k: string, m: string, o: SuiCryptoOptions = {}) => call('ed25519', 'ed25519_verify', [v(s), v(k), v(m)], o)[0];

  it('framework vectors', () => {
    expect(verify(sig, pk, msg)).toBe(true);
    expect(verify('cd' + sig.slice(2), pk, msg)).toBe(false);
    expect(verify(sig, pk, '41' + msg.slice(2))).toBe(false);
    expect(verify(sig, '', msg)).toBe(false);
    expect(verify(sig.slice(2), pk, msg)).toBe(false);
  });

  it('RFC 8032 test vectors 1 and 2', () => {
    expect(
      verify(
        'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
        'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
        '',
      ),
    ).toBe(true);
    expect(
      verify(
        '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
        '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
        '72',
      ),
    ).toBe(true);
  });

  it('rejects a non-canonical s (s + L)', () => {
    const s = BigInt(
      '0x' +
        Buffer.from(hex(sig.slice(64)))
          .reverse()
          .toString('hex'),
    );
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const bad = Buffer.from(hex((s + L).toString(16).padStart(64, '0')))
      .reverse()
      .toString('hex');
    expect(verify(sig.slice(0, 64) + bad, pk, msg)).toBe(false);
  });

  it('permissive mode accepts anything, and still charges gas', () => {
    const { ctx, used } = fakeCtx();
    expect(native('ed25519', 'ed25519_verify', { permissiveCrypto: true })(ctx, [], [v(''), v(''), v('00')])).toEqual([true]);
    expect(used()).toBe(1802 + 2 + 2);
  });
});

describe('ecdsa_k1', () => {
  const msg = utf8('Hello, world!');
  const pk = '02337cca2171fdbfcfd657fa59881f46269f1e590b5ffab6023686c7ad2ecc2c1c';
  const recK = '7e4237ebfbc36613e166bfc5f6229360a9c1949242da97ca04867e4de57b2df30c8340bcb320328cf46d71bda51fcb519e3ce53b348eec62de852e350edbd88600';
  const recS = 'e5847245b38548547f613aaea3421ad47f5b95a222366fb9f9b8c57568feb19c7077fc31e7d83e00acc1347d08c3e1ad50a4eeb6ab044f25c861ddc7be5b8f9f01';
  const recover = (sig: string, m: Uint8Array, h: number) => call('ecdsa_k1', 'secp256k1_ecrecover', [v(sig), v(m), h]);
  const verify = (sig: string, k: string, m: Uint8Array, h: number) => call('ecdsa_k1', 'secp256k1_verify', [v(sig), v(k), v(m), h])[0];

  it('recovers the compressed key (keccak256 and sha256)', () => {
    expect(out(recover(recK, msg, 0))).toBe(pk);
    expect(out(recover(recS, msg, 1))).toBe(pk);
    expect(out(recover(recS, utf8('Farewell, world!'), 1))).not.toBe(pk);
  });

  it('recover aborts: 0 when recovery fails or the hash flag is unknown, 1 for a malformed signature', () => {
    expect(abortCode(() => recover('00'.repeat(65), hex('00'), 1))).toBe(0n);
    expect(abortCode(() => recover(recK.slice(0, 128), msg, 1))).toBe(1n);
    expect(abortCode(() => recover(recK.slice(0, 128) + '04', msg, 0))).toBe(1n);
    expect(abortCode(() => recover('ff'.repeat(32) + recK.slice(64), msg, 0))).toBe(1n);
    expect(abortCode(() => recover(recK, msg, 2))).toBe(0n);
  });

  it('verify: valid, recoverable-length, bad key, unknown hash, high s', () => {
    expect(verify(recK.slice(0, 128), pk, msg, 0)).toBe(true);
    expect(verify(recS.slice(0, 128), pk, msg, 1)).toBe(true);
    expect(verify(recK, pk, msg, 0)).toBe(false);
    expect(verify(recS.slice(0, 128), pk.slice(0, 64), msg, 1)).toBe(false);
    expect(verify(recS.slice(0, 128), pk, msg, 2)).toBe(false);
    expect(verify(recK.slice(0, 128), pk, utf8('Farewell, world!'), 0)).toBe(false);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt('0x' + recK.slice(64, 128));
    expect(verify(recK.slice(0, 64) + (n - s).toString(16).padStart(64, '0'), pk, msg, 0)).toBe(false);
  });

  it('decompress_pubkey, and the Ethereum address of the framework test', () => {
    const full = out(call('ecdsa_k1', 'decompress_pubkey', [v(pk)]));
    expect(full.slice(0, 66)).toBe('04' + pk.slice(2));
    expect(out(call('ecdsa_k1', 'decompress_pubkey', [v(full)]))).toBe(full);
    const odd = BigInt('0x' + full.slice(66)) & 1n;
    expect(out(call('ecdsa_k1', 'decompress_pubkey', [v((odd ? '07' : '06') + full.slice(2))]))).toBe(full);
    expect(abortCode(() => call('ecdsa_k1', 'decompress_pubkey', [v((odd ? '06' : '07') + full.slice(2))]))).toBe(2n);
    expect(abortCode(() => call('ecdsa_k1', 'decompress_pubkey', [v(pk.slice(0, 64))]))).toBe(2n);

    const sig = hex('382a3e04daf88f322730f6a2972475fc5646ea8c4a7f3b5e83a90b10ba08a7364cd2f55348f2b6d210fbed7fc485abf19ecb2f3967e410d6349dd7dd1d4487751b');
    sig[64] = sig[64] === 27 ? 0 : 1;
    const ethMsg = hex('19457468657265756d205369676e6564204d6573736167653a0a3533307836336639613932643864363162343861396666663864353830383034323561333031326430356338696777796b3472316f376f');
    const compressed = call('ecdsa_k1', 'secp256k1_ecrecover', [v(sig), v(ethMsg), 0])[0];
    const uncompressed = (call('ecdsa_k1', 'decompress_pubkey', [compressed])[0] as MoveVector).bytes();
    expect(out(call('hash', 'keccak256', [v(uncompressed.subarray(1))])).slice(24)).toBe('63f9a92d8d61b48a9fff8d58080425a3012d05c8');
  });

  it('gas follows the hash flag', () => {
    const a = fakeCtx();
    native('ecdsa_k1', 'secp256k1_verify')(a.ctx, [], [v(recK.slice(0, 128)), v(pk), v(msg), 1]);
    expect(a.used()).toBe(1470 + 2 * 13 + 2 * 1);
    const b = fakeCtx();
    native('ecdsa_k1', 'secp256k1_verify')(b.ctx, [], [v(recK.slice(0, 128)), v(pk), v(msg), 7]);
    expect(b.used()).toBe(100);
  });
});

describe('ecdsa_r1', () => {
  const msg = utf8('Hello, world!');
  const pk = '0227322b3a891a0a280d6bc1fb2cbb23d28f54906fd6407f5f741f6def5762609a';
  const recK = '209841acabd0fdf6d25fa0948b2f5c6c74f930eede89c6fce59502218a3134a147535921bf0cdf5d1990f6f0b3dadb8c05069ddc531db057d325857ce198a52900';
  const recS = '26d84720652d8bc4ddd1986434a10b3b7b69f0e35a17c6a5987e6d1cba69652f4384a342487642df5e44592d304bea0ceb0fae2e347fa3cec5ce1a8144cfbbb200';
  const verify = (sig: string, k: string, h: number) => call('ecdsa_r1', 'secp256r1_verify', [v(sig), v(k), v(msg), h])[0];

  it('recover and verify (framework vectors)', () => {
    expect(out(call('ecdsa_r1', 'secp256r1_ecrecover', [v(recK), v(msg), 0]))).toBe(pk);
    expect(out(call('ecdsa_r1', 'secp256r1_ecrecover', [v(recS), v(msg), 1]))).toBe(pk);
    expect(abortCode(() => call('ecdsa_r1', 'secp256r1_ecrecover', [v(recS.slice(0, 128)), v(msg), 1]))).toBe(1n);
    expect(verify(recK.slice(0, 128), pk, 0)).toBe(true);
    expect(verify(recS.slice(0, 128), pk, 1)).toBe(true);
    expect(verify(recK, pk, 0)).toBe(false);
    expect(verify(recK.slice(0, 128), pk.slice(0, 64), 0)).toBe(false);
    expect(verify(recK.slice(0, 128), pk, 1)).toBe(false);
  });

  it('verify accepts the uncompressed key and rejects high s', () => {
    const full = hexOfUncompressedR1(pk);
    expect(verify(recK.slice(0, 128), full, 0)).toBe(true);
    const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    const s = BigInt('0x' + recK.slice(64, 128));
    expect(verify(recK.slice(0, 64) + (n - s).toString(16).padStart(64, '0'), pk, 0)).toBe(false);
  });
});

function hexOfUncompressedR1(compressed: string): string {
  const p = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
  const b = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
  const x = BigInt('0x' + compressed.slice(2));
  const powmod = (a: bigint, e: bigint): bigint => {
    let r = 1n;
    for (a %= p; e > 0n; e >>= 1n, a = (a * a) % p) if (e & 1n) r = (r * a) % p;
    return r;
  };
  let y = powmod((x * x * x - 3n * x + b) % p, (p + 1n) / 4n);
  if ((y & 1n) !== BigInt(compressed.startsWith('03') ? 1 : 0)) y = p - y;
  return '04' + x.toString(16).padStart(64, '0') + y.toString(16).padStart(64, '0');
}

describe('bls12381 signatures', () => {
  const verify = (fn: string, sig: string, pk: string, msg: Uint8Array) => call('bls12381', fn, [v(sig), v(pk), v(msg)])[0];
  const minSigPk =
    '8df101606f91f3cad7f54b8aff0f0f64c41c482d9b9f9fe81d2b607bc5f611bdfa8017cf04b47b44b222c356ef555fbd11058c52c077f5a7ec6a15ccfd639fdc9bd47d005a111dd6cdb8c02fe49608df55a3c9822986ad0b86bdea3abfdfe464';
  const minSigSig = '908e345f2e2803cd941ae88c218c96194233c9053fa1bca52124787d3cca141c36429d7652435a820c72992d5eee6317';

  it('min_sig: valid, wrong message, truncated key', () => {
    expect(verify('bls12381_min_sig_verify', minSigSig, minSigPk, hex('0101010101'))).toBe(true);
    expect(verify('bls12381_min_sig_verify', minSigSig, minSigPk, hex('0201010101'))).toBe(false);
    expect(verify('bls12381_min_sig_verify', minSigSig, minSigPk.slice(6), hex('0101010101'))).toBe(false);
  });

  it('min_sig: uncompressed (ZCash serialize) encodings of key and signature verify too', () => {
    const pk = Buffer.from(bls12_381.G2.Point.fromBytes(hex(minSigPk)).toBytes(false)).toString('hex');
    const sig = Buffer.from(bls12_381.G1.Point.fromBytes(hex(minSigSig)).toBytes(false)).toString('hex');
    expect(pk.length).toBe(384);
    expect(verify('bls12381_min_sig_verify', sig, pk, hex('0101010101'))).toBe(true);
    // a compressed-length encoding without the compression bit is rejected
    expect(verify('bls12381_min_sig_verify', '10' + minSigSig.slice(2), minSigPk, hex('0101010101'))).toBe(false);
  });

  it('min_pk: a drand round', () => {
    const pk = '868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a9402801af31';
    const sig =
      'a2cd8577944b84484ef557a7f92f0d5092779497cc470b1b97680b8f7c807d97250d310b801c7c2185c7c8a21032d45403b97530ca87bd8f05d0cf4ffceb4bcb9bf7184fb604967db7e9e6ea555bc51b25a9e41fbd51181f712aa73aaec749fe';
    const prev =
      'a96aace596906562dc525dba4dff734642d71b334d51324f9c9bcb5a3d6caf14b05cde91d6507bf4615cb4285e5b4efd1358ebc46b80b51e338f9dc46cca17cf2e046765ba857c04101a560887fa81aef101a5bb3b2350884558bd3adc72be37';
    const round = (r: bigint) => sha256(Buffer.concat([hex(prev), hex(r.toString(16).padStart(16, '0'))]));
    expect(verify('bls12381_min_pk_verify', sig, pk, round(2373935n))).toBe(true);
    expect(verify('bls12381_min_pk_verify', sig, pk, round(2373936n))).toBe(false);
    expect(verify('bls12381_min_pk_verify', '1111' + sig.slice(4), pk, round(2373935n))).toBe(false);
    expect(verify('bls12381_min_pk_verify', sig.slice(2), pk, round(2373935n))).toBe(false);
    expect(verify('bls12381_min_pk_verify', sig, pk.slice(2), round(2373935n))).toBe(false);
    // the identity key is rejected
    expect(verify('bls12381_min_pk_verify', sig, 'c0' + '00'.repeat(47), round(2373935n))).toBe(false);
  });
});

describe('ecvrf', () => {
  const output = '4fad431c7402fa1d4a7652e975aeb9a2b746540eca0b1b1e59c8d19c14a7701918a8249136e355455b8bc73851f7fc62c84f2e39f685b281e681043970026ed8';
  const pk = '1ea6f0f467574295a2cd5d21a3fd3a712ade354d520d3bd0fe6088d7b7c2e00e';
  const proof = 'd8ad2eafb4f2eaf317447726e541359f26dfce248431fe09984fdc73144abb6ceb006c57a29a742eae5a81dd04239870769e310a81046cbbaff8b0bd27a6d6affee167ebba50549b58ffdf9aa192f506';
  const verify = (o: Uint8Array | string, k: Uint8Array | string, p: Uint8Array | string) => call('ecvrf', 'ecvrf_verify', [v(o), v(utf8('Hello, world!')), v(k), v(p)]);

  it('framework vectors', () => {
    expect(verify(output, pk, proof)[0]).toBe(true);
    expect(verify(utf8('invalid hash, invalid hash, invalid hash, invalid hash, invalid '), pk, proof)[0]).toBe(false);
    expect(abortCode(() => verify(utf8('invalid hash'), pk, proof))).toBe(1n);
    expect(abortCode(() => verify(output, utf8('invalid public key'), proof))).toBe(2n);
    expect(abortCode(() => verify(output, pk, utf8('invalid proof')))).toBe(3n);
  });
});

describeWithFixtures('crypto natives declared by the framework', ['fixtures', 'framework', 'sui-framework'], () => {
  const CRYPTO_MODULES = new Set([
    'bls12381',
    'ecdsa_k1',
    'ecdsa_r1',
    'ecvrf',
    'ed25519',
    'groth16',
    'group_ops',
    'hash',
    'hmac',
    'nitro_attestation',
    'poseidon',
    'rangeproofs',
    'vdf',
    'zklogin_verified_id',
    'zklogin_verified_issuer',
  ]);

  /** Natives only older frameworks declare (kept so historic framework snapshots link). */
  const LEGACY = new Set(['rangeproofs::verify_bulletproofs_ristretto255_internal']);

  it('every native of a crypto module is registered, and nothing else but the legacy ones', () => {
    const pkg = loadBundleFile(fixturePath('fixtures', 'framework', 'sui-framework'));
    const declared: string[] = [];
    for (const m of pkg.modules) {
      if (!CRYPTO_MODULES.has(m.name)) continue;
      for (const fd of m.module.functionDefs) {
        if (fd.code !== null) continue;
        declared.push(`${m.name}::${m.module.identifiers[m.module.functionHandles[fd.function].name]}`);
      }
    }
    const registered = registerSuiCrypto(new NativeRegistry())
      .keys()
      .map((k) => k.split('::').slice(1).join('::'))
      .filter((k) => !LEGACY.has(k));
    expect(registered.sort()).toEqual(declared.sort());
    expect(declared.length).toBe(31);
  });
});

describe('options', () => {
  it('an unset cost parameter fails like upstream (invariant violation)', () => {
    expect(PROTOCOL_135_CRYPTO_COSTS.hash_blake2b256_cost_base).toBe(10);
    const fn = registerSuiCrypto(new NativeRegistry(), { costs: { hash_blake2b256_cost_base: undefined as unknown as number } }).get('0x2', 'hash', 'blake2b256');
    expect(() => fn?.(fakeCtx().ctx, [], [v('')])).toThrow(VmError);
  });
});

/**
 * Issue 5 acceptance, part 1: golden calls of the real framework through `vm.call` with
 * `suiNativeRegistry()` and an `ObjectRuntime`: `hash`, `hmac`, `hex`, `address`,
 * `ed25519`, `ecdsa_k1`, `bls12381` (signatures and group operations) and
 * `derived_object`. Every expectation is computed independently in the test (published
 * vectors, @noble/hashes, keys and signatures made here with @noble/curves, BCS by hand).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { canonicalAddress } from '@smi/bytecode';
import { MoveVector, VecKind, type CallArg, type MoveVM } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { bcs, bytesVec, concat, constantText, decodeClever, expectAbort, frameworkModule, hex, stringOf, uleb, utf8, val } from './support/golden.js';
import { SUI_ADDR, SuiSession, dynamicFieldId, owner, suiVm, typeTagBcs, uidValue } from './support/sui-session.js';

/** Deterministic pseudo-random bytes (xorshift), so failures reproduce. */
function bytesOf(n: number, seed: number): Uint8Array {
  let x = seed >>> 0 || 1;
  return Uint8Array.from({ length: n }, () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x & 0xff;
  });
}

const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const v = (b: Uint8Array | string): CallArg => val(bytesVec(typeof b === 'string' ? utf8(b) : b));
const bytesOfValue = (x: unknown): string => hex((x as MoveVector).bytes());
/** Bytes of a `group_ops::Element<T>` value (a struct with one `vector<u8>` field). */
const elementHex = (x: unknown): string => bytesOfValue((x as unknown[])[0]);
const element = (b: Uint8Array): CallArg => val([bytesVec(b)]);
const scalarBytes = (n: bigint): Uint8Array => fromHex(n.toString(16).padStart(64, '0'));

describeWithFixtures('sui framework golden: hash, hmac, hex, address, signatures, groups, derived ids', ['fixtures', 'framework'], () => {
  let vm: MoveVM;
  let s: SuiSession;
  beforeAll(() => {
    vm = suiVm();
    s = new SuiSession(vm);
  });
  /** First return value of a call. */
  const one = (target: string, args: CallArg[], typeArgs: string[] = []): unknown => s.value(target, typeArgs, args);

  describe('0x2::hash', () => {
    it('published vectors of "hello world!"', () => {
      expect(bytesOfValue(one('0x2::hash::keccak256', [v('hello world!')]))).toBe('57caa176af1ac0433c5df30e8dabcd2ec1af1e92a26eced5f719b88458777cd6');
      expect(bytesOfValue(one('0x2::hash::blake2b256', [v('hello world!')]))).toBe('4fccfb4d98d069558aa93e9565f997d81c33b080364efd586e77a433ddffc5e2');
    });
    const lengths = [0, 1, 31, 32, 127, 128, 129, 135, 136, 137, 1000];
    it(`keccak256 = @noble keccak_256 for lengths ${lengths.join(',')}`, () => {
      for (const n of lengths) {
        const m = bytesOf(n, n + 11);
        expect(bytesOfValue(one('0x2::hash::keccak256', [v(m)]))).toBe(hex(keccak_256(m)));
      }
    });
    it(`blake2b256 = @noble blake2b(dkLen 32) for lengths ${lengths.join(',')}`, () => {
      for (const n of lengths) {
        const m = bytesOf(n, n + 23);
        expect(bytesOfValue(one('0x2::hash::blake2b256', [v(m)]))).toBe(hex(blake2b(m, { dkLen: 32 })));
      }
    });
  });

  describe('0x2::hmac', () => {
    it('hmac_sha3_256(key, msg) = @noble hmac(sha3_256): empty, short, block-sized and longer-than-block keys', () => {
      const cases: [number, number][] = [
        [0, 0],
        [7, 12],
        [32, 100],
        [135, 1],
        [136, 136],
        [137, 300],
        [300, 5],
      ];
      for (const [k, m] of cases) {
        const key = bytesOf(k, k * 3 + 1);
        const msg = bytesOf(m, m * 5 + 2);
        expect(bytesOfValue(one('0x2::hmac::hmac_sha3_256', [v(key), v(msg)]))).toBe(hex(hmac(sha3_256, key, msg)));
      }
    });
    it('the framework vector ("my key!", "hello world!")', () => {
      expect(bytesOfValue(one('0x2::hmac::hmac_sha3_256', [v('my key!'), v('hello world!')]))).toBe(hex(hmac(sha3_256, utf8('my key!'), utf8('hello world!'))));
    });
  });

  describe('0x2::hex', () => {
    it('encode: two lowercase digits per byte; decode: either case, inverse of encode', () => {
      const b = bytesOf(40, 99);
      const enc = one('0x2::hex::encode', [v(b)]) as MoveVector;
      expect(new TextDecoder().decode(enc.bytes())).toBe(hex(b));
      expect(bytesOfValue(one('0x2::hex::decode', [v(hex(b).toUpperCase())]))).toBe(hex(b));
      expect(bytesOfValue(one('0x2::hex::decode', [v('')]))).toBe('');
    });
    it('decode aborts 0 on an odd length and 1 on a non-hex digit', () => {
      expectAbort(s.call('0x2::hex::decode', [], [v('abc')]), 0n, `${SUI_ADDR}::hex`, 'decode');
      expectAbort(s.call('0x2::hex::decode', [], [v('zz')]), 1n, `${SUI_ADDR}::hex`, 'decode_byte');
    });
  });

  describe('0x2::address', () => {
    const a = canonicalAddress('0x00ab' + 'cd'.repeat(30));
    const n = BigInt(a);
    it('from_bytes / to_bytes / to_u256 / from_u256', () => {
      expect(one('0x2::address::from_bytes', [v(bcs.address(a))])).toBe(a);
      expect(bytesOfValue(one('0x2::address::to_bytes', [val(a)]))).toBe(a.slice(2));
      expect(one('0x2::address::to_u256', [val(a)])).toBe(n);
      expect(one('0x2::address::from_u256', [val(n)])).toBe(a);
      expect(one('0x2::address::from_u256', [val(0n)])).toBe(canonicalAddress('0x0'));
      expectAbort(s.call('0x2::address::from_bytes', [], [v(new Uint8Array(20))]), 0n, `${SUI_ADDR}::address`, 'from_bytes');
    });
    it('to_string / to_ascii_string (64 lowercase digits), from_ascii_bytes (either case)', () => {
      expect(stringOf(one('0x2::address::to_string', [val(a)]))).toBe(a.slice(2));
      expect(stringOf(one('0x2::address::to_ascii_string', [val(a)]))).toBe(a.slice(2));
      expect(one('0x2::address::from_ascii_bytes', [v(a.slice(2).toUpperCase())])).toBe(a);
      expectAbort(s.call('0x2::address::from_ascii_bytes', [], [v('ab')]), 0n, `${SUI_ADDR}::address`, 'from_ascii_bytes');
      expectAbort(s.call('0x2::address::from_ascii_bytes', [], [v('g'.repeat(64))]), 0n, `${SUI_ADDR}::address`, 'hex_char_value');
    });
    it('length() = 32, max() = 2^256 - 1', () => {
      expect(one('0x2::address::length', [])).toBe(32n);
      expect(one('0x2::address::max', [])).toBe((1n << 256n) - 1n);
    });
  });

  describe('0x2::ed25519', () => {
    const sk = bytesOf(32, 5);
    const pk = ed25519.getPublicKey(sk);
    const msg = utf8('sign me, offline');
    const sig = ed25519.sign(msg, sk);
    const verify = (sg: Uint8Array, k: Uint8Array, m: Uint8Array): unknown => one('0x2::ed25519::ed25519_verify', [v(sg), v(k), v(m)]);
    it('a signature made with @noble/curves verifies', () => {
      expect(verify(sig, pk, msg)).toBe(true);
      const empty = ed25519.sign(new Uint8Array(0), sk);
      expect(verify(empty, pk, new Uint8Array(0))).toBe(true);
    });
    it('a flipped bit, another message, another key or bad lengths do not', () => {
      const bad = Uint8Array.from(sig);
      bad[10] ^= 1;
      expect(verify(bad, pk, msg)).toBe(false);
      expect(verify(sig, pk, utf8('sign me, offline!'))).toBe(false);
      expect(verify(sig, ed25519.getPublicKey(bytesOf(32, 6)), msg)).toBe(false);
      expect(verify(sig.subarray(0, 63), pk, msg)).toBe(false);
      expect(verify(sig, pk.subarray(0, 31), msg)).toBe(false);
    });
    it('ZIP-215 rules (ed25519-consensus): small-order key and R with s = 0 verify; a non-canonical s (s + ℓ) does not', () => {
      const identity = concat(Uint8Array.of(1), new Uint8Array(31));
      expect(verify(concat(identity, new Uint8Array(32)), identity, msg)).toBe(true);
      const L = 2n ** 252n + 27742317777372353535851937790883648493n;
      const sLe = BigInt('0x' + hex(Uint8Array.from(sig.subarray(32)).reverse()));
      const bigS = Uint8Array.from(Buffer.from((sLe + L).toString(16).padStart(64, '0'), 'hex')).reverse();
      expect(verify(concat(sig.subarray(0, 32), bigS), pk, msg)).toBe(false);
    });
  });

  describe('0x2::ecdsa_k1', () => {
    const sk = bytesOf(32, 77);
    const compressed = secp256k1.getPublicKey(sk, true);
    const uncompressed = secp256k1.getPublicKey(sk, false);
    const msg = utf8('a message for secp256k1');
    const hashes: [number, (m: Uint8Array) => Uint8Array][] = [
      [0, keccak_256],
      [1, sha256],
    ];
    /** `r ‖ s ‖ v` (what Sui takes) from @noble's recovered format `v ‖ r ‖ s`. */
    const recoverable = (digest: Uint8Array): Uint8Array => {
      const rec = secp256k1.sign(digest, sk, { prehash: false, format: 'recovered' });
      return concat(rec.subarray(1), rec.subarray(0, 1));
    };
    for (const [flag, h] of hashes) {
      it(`secp256k1_ecrecover with hash flag ${flag} gives the signer's compressed key`, () => {
        const sig = recoverable(h(msg));
        expect(bytesOfValue(one('0x2::ecdsa_k1::secp256k1_ecrecover', [v(sig), v(msg), val(flag)]))).toBe(hex(compressed));
        // recovered under the other hash: some other key (or a failed recovery)
        // libsecp256k1 recovery does not require low s: (r, n - s) with the other parity recovers the same key
        const n = secp256k1.Point.CURVE().n;
        const high = concat(sig.subarray(0, 32), scalarBytes(n - BigInt('0x' + hex(sig.subarray(32, 64)))), Uint8Array.of(sig[64] ^ 1));
        expect(bytesOfValue(one('0x2::ecdsa_k1::secp256k1_ecrecover', [v(high), v(msg), val(flag)]))).toBe(hex(compressed));
        const other = s.call('0x2::ecdsa_k1::secp256k1_ecrecover', [], [v(sig), v(msg), val(1 - flag)]);
        if (other.$kind === 'Success') expect(bytesOfValue(other.returnValues[0].value)).not.toBe(hex(compressed));
        else expectAbort(other, 0n, `${SUI_ADDR}::ecdsa_k1`, 'secp256k1_ecrecover');
      });
      it(`secp256k1_verify with hash flag ${flag}: valid, wrong flag, wrong message, high s`, () => {
        const sig = secp256k1.sign(h(msg), sk, { prehash: false, format: 'compact' });
        const verify = (sg: Uint8Array, m: Uint8Array, f: number, k: Uint8Array = compressed): unknown => one('0x2::ecdsa_k1::secp256k1_verify', [v(sg), v(k), v(m), val(f)]);
        expect(verify(sig, msg, flag)).toBe(true);
        expect(verify(sig, msg, flag, uncompressed)).toBe(true);
        expect(verify(sig, msg, 1 - flag)).toBe(false);
        expect(verify(sig, utf8('another message'), flag)).toBe(false);
        // (r, n - s) is the same signature mathematically; Sui (libsecp256k1) rejects high s
        const n = secp256k1.Point.CURVE().n;
        const sHigh = n - BigInt('0x' + hex(sig.subarray(32)));
        expect(verify(concat(sig.subarray(0, 32), scalarBytes(sHigh)), msg, flag)).toBe(false);
        expect(verify(sig, msg, 2)).toBe(false);
      });
    }
    it('ecrecover: v > 3 or a 64-byte signature abort 1 (EInvalidSignature); an unknown hash flag aborts 0', () => {
      const sig = recoverable(keccak_256(msg));
      const bad = Uint8Array.from(sig);
      bad[64] = 4;
      expectAbort(s.call('0x2::ecdsa_k1::secp256k1_ecrecover', [], [v(bad), v(msg), val(0)]), 1n, `${SUI_ADDR}::ecdsa_k1`, 'secp256k1_ecrecover');
      expectAbort(s.call('0x2::ecdsa_k1::secp256k1_ecrecover', [], [v(sig.subarray(0, 64)), v(msg), val(0)]), 1n, `${SUI_ADDR}::ecdsa_k1`, 'secp256k1_ecrecover');
      expectAbort(s.call('0x2::ecdsa_k1::secp256k1_ecrecover', [], [v(sig), v(msg), val(2)]), 0n, `${SUI_ADDR}::ecdsa_k1`, 'secp256k1_ecrecover');
    });
    it('decompress_pubkey gives the 65-byte SEC1 key; a bad key aborts 2', () => {
      expect(bytesOfValue(one('0x2::ecdsa_k1::decompress_pubkey', [v(compressed)]))).toBe(hex(uncompressed));
      const bad = Uint8Array.from(compressed);
      bad[0] = 9;
      expectAbort(s.call('0x2::ecdsa_k1::decompress_pubkey', [], [v(bad)]), 2n, `${SUI_ADDR}::ecdsa_k1`, 'decompress_pubkey');
    });
  });

  describe('0x2::bls12381 signatures (Sui DSTs)', () => {
    const MIN_SIG_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
    const MIN_PK_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_';
    const sk = bytesOf(32, 1234);
    sk[0] &= 0x3f; // below the group order
    const msg = utf8('bls message');
    it('min_sig: key in G2, signature in G1', () => {
      const ss = bls12_381.shortSignatures;
      const pk = ss.getPublicKey(sk).toBytes(true);
      const sig = ss.sign(ss.hash(msg, MIN_SIG_DST), sk).toBytes(true);
      expect([pk.length, sig.length]).toEqual([96, 48]);
      const verify = (sg: Uint8Array, k: Uint8Array, m: Uint8Array): unknown => one('0x2::bls12381::bls12381_min_sig_verify', [v(sg), v(k), v(m)]);
      expect(verify(sig, pk, msg)).toBe(true);
      expect(verify(sig, pk, utf8('bls messagE'))).toBe(false);
      const otherDst = ss.sign(ss.hash(msg, MIN_PK_DST), sk).toBytes(true);
      expect(verify(otherDst, pk, msg)).toBe(false);
      expect(verify(sig.subarray(1), pk, msg)).toBe(false);
      // the points at infinity satisfy the pairing equation for every message; blst's key
      // validation (fastcrypto) rejects them
      const g1Inf = concat(Uint8Array.of(0xc0), new Uint8Array(47));
      const g2Inf = concat(Uint8Array.of(0xc0), new Uint8Array(95));
      expect(verify(g1Inf, g2Inf, msg)).toBe(false);
    });
    it('min_pk: key in G1, signature in G2', () => {
      const ls = bls12_381.longSignatures;
      const pk = ls.getPublicKey(sk).toBytes(true);
      const sig = ls.sign(ls.hash(msg, MIN_PK_DST), sk).toBytes(true);
      expect([pk.length, sig.length]).toEqual([48, 96]);
      const verify = (sg: Uint8Array, k: Uint8Array, m: Uint8Array): unknown => one('0x2::bls12381::bls12381_min_pk_verify', [v(sg), v(k), v(m)]);
      expect(verify(sig, pk, msg)).toBe(true);
      expect(verify(sig, ls.getPublicKey(bytesOf(32, 4321).map((b, i) => (i === 0 ? b & 0x3f : b))).toBytes(true), msg)).toBe(false);
      expect(verify(sig, pk, new Uint8Array(0))).toBe(false);
      expect(verify(concat(Uint8Array.of(0xc0), new Uint8Array(95)), concat(Uint8Array.of(0xc0), new Uint8Array(47)), msg)).toBe(false);
    });
  });

  describe('0x2::bls12381 group operations against @noble/curves', () => {
    const G1 = bls12_381.G1.Point;
    const G2 = bls12_381.G2.Point;
    const R = bls12_381.fields.Fr.ORDER;
    const a = 0x1234_5678_9abc_def0n;
    const b = R - 12345n;
    const scalar = (k: bigint): unknown => one('0x2::bls12381::scalar_from_bytes', [v(scalarBytes(k))]);
    it('scalar_from_u64 is 32 bytes big-endian; scalar_add/mul/neg/inv are mod r', () => {
      expect(elementHex(one('0x2::bls12381::scalar_from_u64', [val(a)]))).toBe(hex(scalarBytes(a)));
      const sa = val(scalar(a));
      const sb = val(scalar(b));
      expect(elementHex(one('0x2::bls12381::scalar_add', [sa, sb]))).toBe(hex(scalarBytes((a + b) % R)));
      expect(elementHex(one('0x2::bls12381::scalar_mul', [sa, sb]))).toBe(hex(scalarBytes((a * b) % R)));
      expect(elementHex(one('0x2::bls12381::scalar_neg', [sa]))).toBe(hex(scalarBytes(R - a)));
      const inv = one('0x2::bls12381::scalar_inv', [sa]);
      expect(elementHex(one('0x2::bls12381::scalar_mul', [sa, val(inv)]))).toBe(hex(scalarBytes(1n)));
      expectAbort(s.call('0x2::bls12381::scalar_from_bytes', [], [v(scalarBytes(R))]), 1n, `${SUI_ADDR}::group_ops`, 'from_bytes');
    });
    it('g1_generator, g1_mul, g1_add, g1_sub, g1_neg, g1_div', () => {
      expect(elementHex(one('0x2::bls12381::g1_generator', []))).toBe(hex(G1.BASE.toBytes(true)));
      const pa = one('0x2::bls12381::g1_mul', [val(scalar(a)), val(one('0x2::bls12381::g1_generator', []))]);
      expect(elementHex(pa)).toBe(hex(G1.BASE.multiply(a).toBytes(true)));
      const pb = G1.BASE.multiply(b);
      const sum = one('0x2::bls12381::g1_add', [val(pa), element(pb.toBytes(true))]);
      expect(elementHex(sum)).toBe(hex(G1.BASE.multiply(a).add(pb).toBytes(true)));
      expect(elementHex(one('0x2::bls12381::g1_sub', [val(sum), element(pb.toBytes(true))]))).toBe(hex(G1.BASE.multiply(a).toBytes(true)));
      expect(elementHex(one('0x2::bls12381::g1_neg', [val(pa)]))).toBe(hex(G1.BASE.multiply(a).negate().toBytes(true)));
      expect(elementHex(one('0x2::bls12381::g1_div', [val(scalar(a)), val(pa)]))).toBe(hex(G1.BASE.toBytes(true)));
      expect(elementHex(one('0x2::bls12381::g1_identity', []))).toBe(hex(G1.ZERO.toBytes(true)));
    });
    it('g2_mul / g2_add; hash_to_g1 uses the min-sig DST', () => {
      const q = one('0x2::bls12381::g2_mul', [val(scalar(a)), val(one('0x2::bls12381::g2_generator', []))]);
      expect(elementHex(q)).toBe(hex(G2.BASE.multiply(a).toBytes(true)));
      const q2 = one('0x2::bls12381::g2_add', [val(q), val(q)]);
      expect(elementHex(q2)).toBe(hex(G2.BASE.multiply(2n * a).toBytes(true)));
      const m = utf8('to the curve');
      const h = bls12_381.G1.hashToCurve(m, { DST: 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_' });
      expect(elementHex(one('0x2::bls12381::hash_to_g1', [v(m)]))).toBe(hex(h.toBytes(true)));
    });
    it('g1_multi_scalar_multiplication: off on mainnet 135 (abort 0, ENotSupported); with the MSM flag on, = Σ kᵢ·Pᵢ', () => {
      const ks = [3n, 5n, R - 1n];
      const ps = [G1.BASE.multiply(7n), G1.BASE.multiply(11n), G1.BASE.multiply(13n)];
      const expected = ps.reduce((acc, p, i) => acc.add(p.multiply(ks[i])), G1.ZERO);
      const scalars = val(
        MoveVector.fromValues(
          VecKind.Boxed,
          ks.map((k) => [bytesVec(scalarBytes(k))]),
        ),
      );
      const points = val(
        MoveVector.fromValues(
          VecKind.Boxed,
          ps.map((p) => [bytesVec(p.toBytes(true))]),
        ),
      );
      const target = '0x2::bls12381::g1_multi_scalar_multiplication';
      expectAbort(s.call(target, [], [scalars, points]), 0n, `${SUI_ADDR}::group_ops`, 'internal_multi_scalar_mul');
      const msm = new SuiSession(suiVm([], { features: { enable_group_ops_native_function_msm: true } }));
      expect(elementHex(msm.value(target, [], [scalars, points]))).toBe(hex(expected.toBytes(true)));
    });
    it('g1_from_bytes rejects a point off the curve (abort 1, EInvalidInput)', () => {
      const bad = G1.BASE.toBytes(true);
      bad[47] ^= 1;
      expectAbort(s.call('0x2::bls12381::g1_from_bytes', [], [v(bad)]), 1n, `${SUI_ADDR}::group_ops`, 'from_bytes');
    });
    it('pairing is bilinear: e(a·G1, b·G2) = e(ab·G1, G2) ≠ e(G1, G2); e(G1, G2) = gt_generator', () => {
      const g2 = val(one('0x2::bls12381::g2_generator', []));
      const eab = one('0x2::bls12381::pairing', [element(G1.BASE.multiply(a).toBytes(true)), element(G2.BASE.multiply(b).toBytes(true))]);
      const eab2 = one('0x2::bls12381::pairing', [element(G1.BASE.multiply((a * b) % R).toBytes(true)), g2]);
      expect(elementHex(eab)).toBe(elementHex(eab2));
      const e11 = one('0x2::bls12381::pairing', [val(one('0x2::bls12381::g1_generator', [])), g2]);
      expect(elementHex(e11)).toBe(elementHex(one('0x2::bls12381::gt_generator', [])));
      expect(elementHex(eab)).not.toBe(elementHex(e11));
      expect(elementHex(one('0x2::bls12381::gt_mul', [val(scalar((a * b) % R)), val(e11)]))).toBe(elementHex(eab));
    });
  });

  describe('0x2::derived_object', () => {
    /** blake2b256(0xf0 ‖ parent ‖ u64le(len) ‖ key ‖ TypeTag(DerivedObjectKey<K>)), by hand. */
    const derived = (parent: string, keyType: string, key: Uint8Array): string =>
      '0x' + hex(blake2b(concat(Uint8Array.of(0xf0), bcs.address(parent), bcs.u64(key.length), key, typeTagBcs(`0x2::derived_object::DerivedObjectKey<${keyType}>`)), { dkLen: 32 }));
    it('derive_address(0x2, b"foo") = 0xa2b411aa…30c3 (Sui snapshot), = the hand computation', () => {
      const expected = '0xa2b411aa9588c398d8e3bc97dddbdd430b5ded7f81545d05e33916c3ca0f30c3';
      expect(derived('0x2', 'vector<u8>', bcs.bytes('foo'))).toBe(expected);
      expect(one('0x2::derived_object::derive_address', [val([SUI_ADDR]), v('foo')], ['vector<u8>'])).toBe(expected);
    });
    it('derive_address with u64, address and String keys = the hand computation', () => {
      const parent = canonicalAddress('0xc0ffee');
      expect(one('0x2::derived_object::derive_address', [val([parent]), val(42n)], ['u64'])).toBe(derived(parent, 'u64', bcs.u64(42)));
      const k = canonicalAddress('0xbeef');
      expect(one('0x2::derived_object::derive_address', [val([parent]), val(k)], ['address'])).toBe(derived(parent, 'address', bcs.address(k)));
      expect(one('0x2::derived_object::derive_address', [val([parent]), val([bytesVec('key')])], ['0x1::string::String'])).toBe(derived(parent, '0x1::string::String', bcs.bytes('key')));
    });
    it('claim: the new UID is the derived address; exists flips to true; a second claim aborts', () => {
      const t = new SuiSession(vm);
      const parentId = t.freshId(0);
      let parent = t.value('0x2::object::new', [], [t.ctx]);
      expect(parent).toEqual(uidValue(parentId));
      expect(t.value('0x2::derived_object::exists', ['u64'], [val(parent), val(1n)])).toBe(false);
      let out;
      [parent, out] = t.mut('0x2::derived_object::claim', ['u64'], parent, [val(1n)]);
      const child = derived(parentId, 'u64', bcs.u64(1));
      expect(out[0].value).toEqual(uidValue(child));
      expect(t.value('0x2::derived_object::exists', ['u64'], [val(parent), val(1n)])).toBe(true);
      // a second claim: the clever error of constant EObjectAlreadyExists
      const again = t.call('0x2::derived_object::claim', ['u64'], [val(parent), val(1n)]);
      if (again.$kind !== 'Aborted') throw new Error(`expected an abort, got ${again.$kind}`);
      expect(again.location.function).toBe('claim');
      const m = frameworkModule('0x2', 'derived_object');
      const clever = decodeClever(again.abortCode);
      expect([constantText(m, clever.identifierIndex), constantText(m, clever.constantIndex)]).toEqual(['EObjectAlreadyExists', 'Derived object is already claimed.']);
      // the parent records the claim: Field<Claimed(ID), ClaimedStatus::Reserved> under it
      const marker = dynamicFieldId(parentId, '0x2::derived_object::Claimed', bcs.address(child));
      const res = t.results();
      expect(res.writes.map((w) => [w.id, w.owner, hex(w.bcs)])).toEqual([[marker, owner.object(parentId), hex(concat(bcs.address(marker), bcs.address(child), uleb(0)))]]);
      expect(res.createdIds).toEqual([parentId, marker, child]);
    });
  });
});

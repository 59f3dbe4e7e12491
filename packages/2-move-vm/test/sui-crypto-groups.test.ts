/**
 * `sui::group_ops` natives over BLS12-381 (and ristretto255 when enabled), called
 * directly with a minimal context. Vectors from the framework's `bls12381_tests.move`
 * and `bls12381.move` constants; relations (pairing bilinearity, div∘mul) checked in JS.
 */
import { describe, expect, it } from 'vitest';
import { NativeRegistry } from '../src/natives/registry.js';
import { MoveVector, VecKind } from '../src/values/vector.js';
import { registerSuiCrypto, type SuiCryptoOptions } from '../src/natives/sui/crypto/index.js';
import { fakeCtx, hex, v, toHex, abortCode } from './support/crypto-natives.js';

function op(name: string, args: unknown[], options: SuiCryptoOptions = {}): unknown {
  const fn = registerSuiCrypto(new NativeRegistry(), options).get('0x2', 'group_ops', name);
  if (fn === undefined) throw new Error(name);
  return fn(fakeCtx().ctx, [], args)[0];
}

const scalar = (n: bigint): string => n.toString(16).padStart(64, '0');
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const G1_GEN = '97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb';
const G1_ID = 'c0' + '00'.repeat(47);
const G2_ID = 'c0' + '00'.repeat(95);
const GT_ID = '00'.repeat(47) + '01' + '00'.repeat(528);
const G2_GEN =
  '93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8';
const GT_GEN =
  '1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba5703350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a201b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b604c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631';
const GT_54321 =
  '19763b7ba7f964f0266ea4acb45211c2348c42c557e02568cd9e43f23f6dfab7fff3b8ee79ff9c0ff36c8368e82f92ff08f9578afa437e97d2c515232f8acc83a562afe5dba1ce39d0a12cdd7df45ba52139291ff44192df325e6a3be19049920eff6c9895f58f39a102b930509a66047c2e77126de80d2fababcf71f0b83ff95fb2e5ce51b99ffb02262a2845158b53095654819a67adbf8c992c565df26b1d363f9044ca515b5d33f27f2f6848a9fb9d55ae13a5690a47d3e8e03c8441d506018083311e3531c1a3a935331913875452ec92656947e6ab101d9ef2cd358ca04d083eadc6159b1da86e49a4c11d9b731213e4113b956ddcf6d7d87dd70f7f55fc08c5935618aca8e8621ae9d4de2d06dda448c842b6954f90ba5fb31bb3ff64167384dd48635008693bac01aa0863ff4bf763126de8f9e19d6dac221e64539aacbae77f1938d46bd71735eb5c1730fd19be89613cda8e59ff5e2446adea9659322a14e668d5d13b36bb0548125b8f0d357936990b47a876a8a22c1a33cdf92509052d4c632440d161db2e807d953fa330ac7b10333b97ec4aba2bbcb9fdd43d62f17d7d0db194bce39f3ea78bd53501095d790bacc492a9ddf499aaec722f922bd2f1d491d53c979cabeea22a3be374674c6257e543ae8a1e574425a58d96e90b2caa4fd13534158dd916fc8682858013cb343d367db7d3cdc8cae8efa8241ce175a6b328b57b6f180e850ec53a6a6808fc45b2acaf06492a4a1fe98fd71d31b643bd8ef9472f0f83eeb5cd8b63a371c7c91891d0d637f9345024e8673802e2';
const add = (t: number, a: string, b: string) => toHex(op('internal_add', [t, v(a), v(b)]));
const sub = (t: number, a: string, b: string) => toHex(op('internal_sub', [t, v(a), v(b)]));
const mul = (t: number, s: string, e: string) => toHex(op('internal_mul', [t, v(s), v(e)]));
const div = (t: number, s: string, e: string) => toHex(op('internal_div', [t, v(s), v(e)]));
const validate = (t: number, e: string, o: SuiCryptoOptions = {}) => op('internal_validate', [t, v(e)], o);

describe('scalars (type 0)', () => {
  it('arithmetic modulo r, canonical big-endian encoding', () => {
    expect(sub(0, scalar(0n), scalar(1n))).toBe('73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000');
    expect(sub(0, scalar(0n), scalar(8n))).toBe('73eda753299d7d483339d80809a1d80553bda402fffe5bfefffffffefffffff9');
    expect(add(0, scalar(R - 1n), scalar(5n))).toBe(scalar(4n));
    expect(mul(0, scalar(6n), scalar(7n))).toBe(scalar(42n));
    expect(div(0, scalar(7n), scalar(42n))).toBe(scalar(6n));
    expect(abortCode(() => div(0, scalar(0n), scalar(42n)))).toBe(1n);
  });

  it('validate: canonical 32-byte scalars only', () => {
    expect(validate(0, scalar(R - 1n))).toBe(true);
    expect(validate(0, scalar(R))).toBe(false);
    expect(validate(0, scalar(1n).slice(2))).toBe(false);
    expect(validate(0, '')).toBe(false);
  });
});

describe('G1, G2 (types 1, 2)', () => {
  it('encodings and scalar multiplication regression', () => {
    expect(mul(1, scalar(54321n), G1_GEN)).toBe('821285b97f9c0420a2d37951edbda3d7c3ebac40c6f194faa0256f6e569eba49829cd69c27f1dd9df2dd83bac1f5aa49');
    expect(mul(1, scalar(0n), G1_GEN)).toBe(G1_ID);
    expect(add(1, G1_GEN, G1_ID)).toBe(G1_GEN);
    expect(sub(1, G1_GEN, G1_GEN)).toBe(G1_ID);
    expect(add(1, G1_GEN, G1_GEN)).toBe(mul(1, scalar(2n), G1_GEN));
    expect(div(1, scalar(3n), mul(1, scalar(3n), G1_GEN))).toBe(G1_GEN);
    expect(abortCode(() => div(1, scalar(0n), G1_GEN))).toBe(1n);
    expect(add(2, G2_GEN, G2_GEN)).toBe(mul(2, scalar(2n), G2_GEN));
    expect(sub(2, G2_GEN, G2_GEN)).toBe(G2_ID);
  });

  it('validate: subgroup, length and flag checks', () => {
    expect(validate(1, G1_GEN)).toBe(true);
    expect(validate(1, G1_ID)).toBe(true);
    expect(validate(1, G1_GEN.slice(2))).toBe(false);
    expect(validate(1, G1_GEN + '00')).toBe(false);
    expect(validate(1, 'e0' + '00'.repeat(47))).toBe(false);
    expect(validate(1, '17' + G1_GEN.slice(2))).toBe(false);
    expect(validate(2, G2_GEN)).toBe(true);
    expect(validate(2, G2_ID)).toBe(true);
    expect(validate(2, G2_GEN.slice(0, 190))).toBe(false);
    // GT and unknown types are never "valid" through this native
    expect(validate(3, GT_GEN)).toBe(false);
    expect(validate(9, G1_GEN)).toBe(false);
  });

  it('hash_to: aborts 1 on an empty message or a non-hashable type', () => {
    const h = toHex(op('internal_hash_to', [1, MoveVector.fromBytes(new TextEncoder().encode('123'))]));
    expect(validate(1, h)).toBe(true);
    const h2 = toHex(op('internal_hash_to', [2, MoveVector.fromBytes(new TextEncoder().encode('123'))]));
    expect(validate(2, h2)).toBe(true);
    expect(abortCode(() => op('internal_hash_to', [1, v('')]))).toBe(1n);
    expect(abortCode(() => op('internal_hash_to', [0, v('00')]))).toBe(1n);
  });

  it('a min_sig signature checks out through hash_to and pairing', () => {
    const pk =
      '8df101606f91f3cad7f54b8aff0f0f64c41c482d9b9f9fe81d2b607bc5f611bdfa8017cf04b47b44b222c356ef555fbd11058c52c077f5a7ec6a15ccfd639fdc9bd47d005a111dd6cdb8c02fe49608df55a3c9822986ad0b86bdea3abfdfe464';
    const sig = '908e345f2e2803cd941ae88c218c96194233c9053fa1bca52124787d3cca141c36429d7652435a820c72992d5eee6317';
    const hm = toHex(op('internal_hash_to', [1, v('0101010101')]));
    expect(toHex(op('internal_pairing', [1, v(sig), v(G2_GEN)]))).toBe(toHex(op('internal_pairing', [1, v(hm), v(pk)])));
  });
});

describe('GT (type 3) and pairing', () => {
  it('pairing of the generators is the GT generator; identities pair to the identity', () => {
    expect(toHex(op('internal_pairing', [1, v(G1_GEN), v(G2_GEN)]))).toBe(GT_GEN);
    expect(toHex(op('internal_pairing', [1, v(G1_ID), v(G2_GEN)]))).toBe(GT_ID);
    expect(toHex(op('internal_pairing', [1, v(G1_GEN), v(G2_ID)]))).toBe(GT_ID);
    expect(abortCode(() => op('internal_pairing', [2, v(G1_GEN), v(G2_GEN)]))).toBe(1n);
  });

  it('bilinearity, exponentiation regression, inverse', () => {
    const p = toHex(op('internal_pairing', [1, v(mul(1, scalar(3n), G1_GEN)), v(mul(2, scalar(5n), G2_GEN))]));
    expect(p).toBe(mul(3, scalar(15n), GT_GEN));
    expect(mul(3, scalar(54321n), GT_GEN)).toBe(GT_54321);
    expect(mul(3, scalar(0n), GT_GEN)).toBe(GT_ID);
    expect(sub(3, GT_GEN, GT_GEN)).toBe(GT_ID);
    expect(add(3, GT_ID, GT_GEN)).toBe(GT_GEN);
    expect(div(3, scalar(2n), add(3, GT_GEN, GT_GEN))).toBe(GT_GEN);
  });
});

describe('uncompressed G1 (type 4)', () => {
  const GEN_UNCOMPRESSED =
    '17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1';
  const ID_UNCOMPRESSED = '40' + '00'.repeat(95);

  it('convert both ways, sum, limits', () => {
    expect(toHex(op('internal_convert', [1, 4, v(G1_GEN)]))).toBe(GEN_UNCOMPRESSED);
    expect(toHex(op('internal_convert', [4, 1, v(GEN_UNCOMPRESSED)]))).toBe(G1_GEN);
    expect(toHex(op('internal_convert', [1, 4, v(G1_ID)]))).toBe(ID_UNCOMPRESSED);
    expect(toHex(op('internal_convert', [4, 1, v(ID_UNCOMPRESSED)]))).toBe(G1_ID);
    expect(abortCode(() => op('internal_convert', [4, 1, v('97' + GEN_UNCOMPRESSED.slice(2))]))).toBe(1n);
    expect(abortCode(() => op('internal_convert', [4, 2, v(GEN_UNCOMPRESSED)]))).toBe(1n);
    const terms = (xs: string[]) => MoveVector.fromValues(VecKind.Boxed, xs.map(v));
    const two = toHex(op('internal_convert', [1, 4, v(mul(1, scalar(2n), G1_GEN))]));
    expect(toHex(op('internal_sum', [4, terms([GEN_UNCOMPRESSED, GEN_UNCOMPRESSED])]))).toBe(two);
    expect(toHex(op('internal_sum', [4, terms([])]))).toBe(ID_UNCOMPRESSED);
    expect(abortCode(() => op('internal_sum', [4, terms([GEN_UNCOMPRESSED.slice(2)])]))).toBe(1n);
    expect(abortCode(() => op('internal_sum', [4, terms(Array<string>(1201).fill(GEN_UNCOMPRESSED))]))).toBe(2n);
    expect(abortCode(() => op('internal_sum', [1, terms([])]))).toBe(1n);
  });
});

describe('feature flags and gas', () => {
  it('MSM is off on mainnet (abort 0); on, it computes Σ sᵢ·Pᵢ with its limits', () => {
    const on: SuiCryptoOptions = { features: { enable_group_ops_native_function_msm: true } };
    const s = v(scalar(2n) + scalar(3n));
    const p = v(G1_GEN + mul(1, scalar(10n), G1_GEN));
    expect(abortCode(() => op('internal_multi_scalar_mul', [1, s, p]))).toBe(0n);
    expect(toHex(op('internal_multi_scalar_mul', [1, s, p], on))).toBe(mul(1, scalar(32n), G1_GEN));
    expect(toHex(op('internal_multi_scalar_mul', [2, v(scalar(4n)), v(G2_GEN)], on))).toBe(mul(2, scalar(4n), G2_GEN));
    expect(abortCode(() => op('internal_multi_scalar_mul', [1, v(scalar(2n)), p], on))).toBe(1n);
    expect(abortCode(() => op('internal_multi_scalar_mul', [1, v(scalar(1n).repeat(33)), v(G1_GEN.repeat(33))], on))).toBe(2n);
    expect(abortCode(() => op('internal_multi_scalar_mul', [3, s, p], on))).toBe(1n);
  });

  it('ristretto255 (types 5, 6) is off on mainnet; on, little-endian scalars and compressed points', () => {
    const on: SuiCryptoOptions = { features: { enable_ristretto255_group_ops: true } };
    const le = (n: bigint) =>
      Buffer.from(hex(scalar(n)))
        .reverse()
        .toString('hex');
    const BASE = 'e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76';
    expect(abortCode(() => validate(5, le(1n)))).toBe(0n);
    expect(abortCode(() => op('internal_add', [6, v(BASE), v(BASE)]))).toBe(0n);
    expect(validate(5, le(1n), on)).toBe(true);
    expect(validate(6, BASE, on)).toBe(true);
    expect(validate(6, 'ff'.repeat(32), on)).toBe(false);
    // RFC 9496 multiples of the generator: 2·B
    expect(toHex(op('internal_add', [6, v(BASE), v(BASE)], on))).toBe('6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919');
    expect(toHex(op('internal_mul', [6, v(le(2n)), v(BASE)], on))).toBe('6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919');
    expect(toHex(op('internal_div', [5, v(le(2n)), v(le(10n))], on))).toBe(le(5n));
  });

  it('group ops disabled abort 0; costs come from the table', () => {
    const off: SuiCryptoOptions = { features: { enable_group_ops_native_functions: false, uncompressed_g1_group_elements: false } };
    expect(abortCode(() => op('internal_add', [1, v(G1_GEN), v(G1_GEN)], off))).toBe(0n);
    expect(abortCode(() => op('internal_convert', [1, 4, v(G1_GEN)], off))).toBe(0n);
    const { ctx, used } = fakeCtx();
    registerSuiCrypto(new NativeRegistry()).get('0x2', 'group_ops', 'internal_pairing')?.(ctx, [], [1, v(G1_GEN), v(G2_GEN)]);
    expect(used()).toBe(26897);
    const h = fakeCtx();
    registerSuiCrypto(new NativeRegistry()).get('0x2', 'group_ops', 'internal_hash_to')?.(h.ctx, [], [2, v('010203')]);
    expect(h.used()).toBe(8688 + 2 * 3);
  });
});

/**
 * `0x3::validator::validate_metadata_bcs`: the metadata built by the real
 * `validator::new_metadata` and checked through `validator::validate_metadata`, with the
 * multiaddr grammar (Rust `Ipv4Addr`/`Ipv6Addr`, `multiaddr` 0.18), the Ed25519 key check,
 * and the BLS part behind a backend.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress, loadBundleFile } from '@smi/bytecode';
import { MoveVM, NativeRegistry, type CallArg, type CallResult } from '@smi/move-vm';
import { registerMoveStdlib } from '../src/natives/move-stdlib.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import {
  type BlsMinSigBackend,
  OBJECT_RUNTIME_KEY,
  ObjectRuntime,
  decodeValidatorMetadata,
  isAnemoAddress,
  isValidEd25519PublicKey,
  parseMultiaddr,
  proofOfPossessionMessage,
  registerSuiNatives,
} from '../src/natives/sui/index.js';
import { bcs, bytesVec, concat, expectAbort, moveString, ok, ret, val } from './support/golden.js';

const P = (1n << 255n) - 19n;
const pow = (b: bigint, e: bigint): bigint => {
  let r = 1n;
  let x = ((b % P) + P) % P;
  for (let k = e; k > 0n; k >>= 1n) {
    if (k & 1n) r = (r * x) % P;
    x = (x * x) % P;
  }
  return r;
};

/** Independent check: construct x = sqrt((y²−1)/(dy²+1)) the RFC 8032 way (exponent (p+3)/8, times √−1 if needed). */
function decompresses(bytes: Uint8Array): boolean {
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i] & 0x7f : bytes[i]);
  y %= P;
  const d = (((-121665n * pow(121666n, P - 2n)) % P) + P) % P;
  const u = (y * y - 1n + P) % P;
  const v = (d * y * y + 1n) % P;
  const x = (u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n)) % P;
  const vx2 = (v * x * x) % P;
  return vx2 === u || vx2 === (P - u) % P;
}

const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

describe('multiaddr (multiaddr 0.18 string grammar)', () => {
  const ok_ = [
    '/ip4/127.0.0.1/udp/8080',
    '/dns/sui.io/udp/8084/http',
    '/ip6/::1/udp/1',
    '/ip4/1.2.3.4/tcp/80/http',
    '',
    '/ip6/::ffff:1.2.3.4/udp/+7',
    '/dns4/x/tcp/1/wss',
    '/memory/18446744073709551615',
  ];
  for (const a of ok_) it(`accepts ${JSON.stringify(a)}`, () => expect(parseMultiaddr(a).kind).toBe('ok'));
  const bad = [
    '/',
    'ip4/1.2.3.4',
    '/ip4/01.2.3.4/tcp/1',
    '/ip4/256.0.0.1/tcp/1',
    '/ip4/1.2.3/tcp/1',
    '/udp/65536',
    '/foo/1',
    '/ip4/1.2.3.4/tcp/80/',
    '/ip4',
    '/tcp/-1',
    '/ip6/1:2:3:4:5:6:7:8:9',
    '/ip6/1.2.3.4::',
    '/ip6/12345::',
  ];
  for (const a of bad) it(`rejects ${JSON.stringify(a)}`, () => expect(parseMultiaddr(a).kind).toBe('invalid'));
  it('IPv6 forms of Rust Ipv6Addr::from_str', () => {
    for (const a of ['1:2:3:4:5:6:7:8', '::', '1::', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', 'fe80::1:2', '::1.2.3.4']) expect(parseMultiaddr(`/ip6/${a}`).kind).toBe('ok');
    for (const a of [':1', '1:::2', '1::2::3', '1:2:3:4:5:6:7:8::', '::1.2.3']) expect(parseMultiaddr(`/ip6/${a}`).kind).toBe('invalid');
  });
  it('anemo addresses are /ip4|ip6|dns/<host>/udp/<port>…', () => {
    const anemo = (a: string): boolean => {
      const p = parseMultiaddr(a);
      return p.kind === 'ok' && isAnemoAddress(p.parts);
    };
    expect(anemo('/dns/x.y/udp/8084')).toBe(true);
    expect(anemo('/ip4/1.1.1.1/udp/1/http')).toBe(true);
    expect(anemo('/dns4/x.y/udp/8084')).toBe(false);
    expect(anemo('/ip4/1.1.1.1/tcp/1')).toBe(false);
    expect(anemo('')).toBe(false);
  });
  it('payloads needing base-n / multihash decoding are reported, not guessed', () => {
    expect(parseMultiaddr('/p2p/QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N')).toEqual({ kind: 'unsupported', protocol: 'p2p' });
  });
});

describe('Ed25519 network keys (ed25519_consensus::VerificationKey::try_from)', () => {
  it('RFC 8032 keys, the base point and the all-zero key decompress; wrong lengths do not', () => {
    for (const k of ['d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c', '58' + '66'.repeat(31), '00'.repeat(32)]) {
      expect(isValidEd25519PublicKey(unhex(k))).toBe(true);
    }
    expect(isValidEd25519PublicKey(new Uint8Array(31))).toBe(false);
    expect(isValidEd25519PublicKey(new Uint8Array(33))).toBe(false);
  });
  it('agrees with an independent square-root construction on 256 encodings (about half are not points)', () => {
    let invalid = 0;
    for (let i = 0; i < 256; i++) {
      const b = new Uint8Array(32);
      b[0] = i;
      b[5] = (i * 7) & 0xff;
      b[31] = i & 0x80;
      const expected = decompresses(b);
      if (!expected) invalid++;
      expect(isValidEd25519PublicKey(b)).toBe(expected);
    }
    expect(invalid).toBeGreaterThan(64);
    expect(invalid).toBeLessThan(192);
  });
});

const FW = ['move-stdlib', 'sui-framework', 'sui-system'];
const NET = unhex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
const WORKER = unhex('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');
const PK = new Uint8Array(96).fill(7);
const POP = new Uint8Array(48).fill(9);
const ADDR = canonicalAddress('0x7a1');

/**
 * A test stand-in for the BLS12-381 backend: accepts the byte patterns above, records
 * the proof-of-possession messages. Real BLS comes from the crypto natives.
 */
function stubBls(messages: Uint8Array[]): BlsMinSigBackend {
  return {
    isValidPublicKey: (b) => b.length === 96 && b[0] === 7,
    isValidSignature: (b) => b.length === 48,
    verify: (sig, _pk, msg) => {
      messages.push(msg);
      return sig[0] === 9;
    },
  };
}

describeWithFixtures('0x3::validator::validate_metadata_bcs', ['fixtures', 'framework'], () => {
  let plain: MoveVM;
  let withBls: MoveVM;
  const messages: Uint8Array[] = [];
  beforeAll(() => {
    const packages = FW.map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f)));
    plain = MoveVM.create({ packages, natives: registerSuiNatives(registerMoveStdlib(new NativeRegistry())) });
    withBls = MoveVM.create({ packages, natives: registerSuiNatives(registerMoveStdlib(new NativeRegistry()), { bls: stubBls(messages) }) });
  });

  interface Meta {
    net: Uint8Array;
    worker: Uint8Array;
    pop: Uint8Array;
    netAddress: string;
    p2p: string;
    primary: string;
    workerAddress: string;
  }
  const good: Meta = { net: NET, worker: WORKER, pop: POP, netAddress: '/dns/v.io/tcp/8080/http', p2p: '/dns/v.io/udp/8084', primary: '/dns/v.io/udp/8081', workerAddress: '/ip4/1.2.3.4/udp/8082' };

  function validate(vm: MoveVM, m: Partial<Meta>): CallResult {
    const x = { ...good, ...m };
    const rt = new ObjectRuntime({ tx: { sender: ADDR, digest: new Uint8Array(32), epoch: 0n, epochTimestampMs: 0n, gasPrice: 1n, rgp: 1n, gasBudget: 1n, sponsor: null }, bcs: vm.bcs });
    const ext = new Map([[OBJECT_RUNTIME_KEY, rt]]);
    const c = (t: string, args: CallArg[]): CallResult => vm.call(t, { args, allowPrivate: true, extensions: ext });
    const bag = ret(c('0x2::bag::new', [val(rt.txContextValue())])).value;
    const url = (s: string): unknown[] => [moveString(s)];
    const metadata = ret(
      c('0x3::validator::new_metadata', [
        val(ADDR),
        val(bytesVec(PK)),
        val(bytesVec(x.net)),
        val(bytesVec(x.worker)),
        val(bytesVec(x.pop)),
        val(moveString('v')),
        val(moveString('d')),
        val(url('https://i')),
        val(url('https://p')),
        val(moveString(x.netAddress)),
        val(moveString(x.p2p)),
        val(moveString(x.primary)),
        val(moveString(x.workerAddress)),
        val(bag),
      ]),
    );
    const decoded = decodeValidatorMetadata(metadata.bcs);
    expect(decoded?.netAddress).toBe(x.netAddress);
    return c('0x3::validator::validate_metadata', [val(metadata.value)]);
  }

  it('valid metadata passes; the proof of possession signs intent (5,0,0) ‖ pk ‖ address, epoch 0', () => {
    messages.length = 0;
    ok(validate(withBls, {}));
    expect(messages[0]).toEqual(concat(Uint8Array.of(5, 0, 0), bcs.bytes(concat(PK, bcs.address(ADDR))), bcs.u64(0)));
    expect(proofOfPossessionMessage(PK, bcs.address(ADDR))).toEqual(messages[0]);
  });
  it('each check aborts with upstream code, in upstream order', () => {
    const where = [canonicalAddress('0x3') + '::validator', 'validate_metadata_bcs'] as const;
    expectAbort(validate(withBls, { pop: new Uint8Array(48).fill(1) }), 0n, ...where);
    expectAbort(validate(withBls, { net: NET.subarray(0, 31) }), 2n, ...where);
    expectAbort(validate(withBls, { worker: new Uint8Array(5) }), 3n, ...where);
    expectAbort(validate(withBls, { worker: NET }), 3n, ...where);
    expectAbort(validate(withBls, { netAddress: 'not a multiaddr' }), 4n, ...where);
    expectAbort(validate(withBls, { p2p: '/dns/v.io/tcp/8084' }), 5n, ...where);
    expectAbort(validate(withBls, { primary: '/ip4/1.2.3/udp/1' }), 6n, ...where);
    expectAbort(validate(withBls, { workerAddress: '' }), 7n, ...where);
    // the first failing check wins
    expectAbort(validate(withBls, { net: new Uint8Array(1), workerAddress: '' }), 2n, ...where);
  });
  it('without a BLS backend the native is UNSUPPORTED_NATIVE; malformed BCS is MALFORMED', () => {
    const r = validate(plain, {});
    expect(r.$kind === 'Error' && r.code).toBe('UNSUPPORTED_NATIVE');
    const m = plain.call('0x3::validator::validate_metadata_bcs', { args: [val(bytesVec([1, 2, 3]))] });
    expect(m.$kind === 'Error' && m.code).toBe('MALFORMED');
  });
});

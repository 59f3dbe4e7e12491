/**
 * Unit vectors and error behaviour of the Sui BCS layer: hashes and ids (upstream
 * vectors), type tags, compact object types, maps, and typed errors.
 */
import { describe, expect, it } from 'vitest';
import {
  blake2b256,
  decodeBcs,
  deriveObjectId,
  derivedObjectId,
  digestFromBase58,
  digestToBase58,
  dynamicFieldId,
  encodeBcs,
  formatTypeTag,
  moveObjectTypeFromStructTag,
  moveObjectTypeToStructTag,
  parseTypeTag,
  suiBcs,
  type MovePackage,
  type SuiObject,
} from '@smi/ptb';
import { bytesToHex, normalizeAddress } from '../src/bcs/codec.js';
import { decodeCheckpointBlob } from '../src/bcs/checkpoint.js';
import { parseStructTag } from '../src/bcs/type-tag.js';
import { BcsError, type BcsErrorCode } from '@smi/move-vm';
import { toBase58 } from '@mysten/bcs';

const codeOf = (f: () => unknown): BcsErrorCode | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof BcsError) return e.code;
    throw e;
  }
  return undefined;
};

describe('hashes and ids', () => {
  it('blake2b256("hello world!")', () => {
    expect(bytesToHex(blake2b256(new TextEncoder().encode('hello world!')))).toBe('4fccfb4d98d069558aa93e9565f997d81c33b080364efd586e77a433ddffc5e2');
  });

  it('dynamic field id (ts-sdks vector: parent 0xbef3…, u64 key 0)', () => {
    const parent = '0xbef336120c90707eb387d72dde9c0e9f6fea37b9f02b1ba8de271c64ad7b6db0';
    expect(dynamicFieldId(parent, parseTypeTag('u64'), encodeBcs(suiBcs.u64, 0n))).toBe('0x6552700b707460a3f48d8348f7531c4bba7a9546b4cf445ba265ad2ba06b1bb3');
  });

  it('derived object ids (derived_object_tests.move vectors)', () => {
    expect(derivedObjectId('0x2', parseTypeTag('vector<u8>'), encodeBcs(suiBcs.bytes, new TextEncoder().encode('foo')))).toBe('0xa2b411aa9588c398d8e3bc97dddbdd430b5ded7f81545d05e33916c3ca0f30c3');
    expect(derivedObjectId('0x2', parseTypeTag('0x2::derived_object_tests::DemoStruct'), encodeBcs(suiBcs.u64, 1n))).toBe('0x20c58d8790a5d2214c159c23f18a5fdc347211e511186353e785ad543abcea6b');
  });

  it('deriveObjectId takes base58 or bytes, and rejects other lengths', () => {
    const digest = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi';
    expect(deriveObjectId(digest, 1)).toBe(deriveObjectId(digestFromBase58(digest), 1n));
    expect(deriveObjectId(digest, 0)).not.toBe(deriveObjectId(digest, 1));
    expect(codeOf(() => deriveObjectId(new Uint8Array(31), 0))).toBe('BCS_INVALID_DIGEST');
    expect(codeOf(() => deriveObjectId('0OIl', 0))).toBe('BCS_INVALID_DIGEST');
  });

  it('digestToBase58 spells digests as the generic base58 encoder does', () => {
    let seed = 7;
    const byte = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256;
    const cases = [new Uint8Array(32), new Uint8Array(32).fill(255), Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0))];
    for (let n = 0; n < 400; n++) {
      const b = Uint8Array.from({ length: 32 }, byte);
      b.fill(0, 0, n % 5); // leading zero bytes
      if (n % 7 === 0) b[n % 32] = 0;
      cases.push(b);
    }
    for (const b of cases) {
      expect(digestToBase58(b)).toBe(toBase58(b));
      expect(digestFromBase58(digestToBase58(b))).toEqual(b);
    }
  });
});

describe('type tags', () => {
  it('parse and format, short or full addresses', () => {
    const text = '0x2::coin::Coin<0x2::balance::Balance<vector<u8>>, 0xdee9::clob_v2::Pool<u64, address>>';
    const tag = parseTypeTag(text);
    expect(formatTypeTag(tag, { short: true })).toBe(text);
    expect(formatTypeTag(tag)).toContain(`${normalizeAddress('0x2')}::coin::Coin<`);
    expect(parseTypeTag(formatTypeTag(tag))).toEqual(tag);
    expect(decodeBcs(suiBcs.TypeTag, encodeBcs(suiBcs.TypeTag, tag))).toEqual(tag);
    expect(formatTypeTag(parseTypeTag('vector<vector<u256>>'))).toBe('vector<vector<u256>>');
  });

  it('rejects malformed types with BCS_INVALID_TYPE_TAG', () => {
    for (const bad of ['', 'u7', 'vector<u8', '0x2::coin', '0x2::coin::Coin<>', 'u8 u8', '0xg::m::T']) {
      expect(
        codeOf(() => parseTypeTag(bad)),
        bad,
      ).toBe('BCS_INVALID_TYPE_TAG');
    }
    expect(codeOf(() => parseStructTag('u64'))).toBe('BCS_INVALID_TYPE_TAG');
  });
});

describe('compact Move object types', () => {
  const cases: [string, string][] = [
    ['0x2::coin::Coin<0x2::sui::SUI>', 'GasCoin'],
    ['0x3::staking_pool::StakedSui', 'StakedSui'],
    ['0x2::coin::Coin<0xdee9::usdc::USDC>', 'Coin'],
    ['0x2::dynamic_field::Field<0x2::accumulator::Key<0x2::balance::Balance<0x2::sui::SUI>>, 0x2::accumulator::U128>', 'SuiBalanceAccumulatorField'],
    ['0x2::dynamic_field::Field<0x2::accumulator::Key<0x2::balance::Balance<0xa::b::C>>, 0x2::accumulator::U128>', 'BalanceAccumulatorField'],
    ['0x2::dynamic_field::Field<u64, 0x2::accumulator::U128>', 'Other'],
    ['0x2::coin::TreasuryCap<0x2::sui::SUI>', 'Other'],
  ];
  it.each(cases)('%s → %s and back', (text, kind) => {
    const tag = parseStructTag(text);
    const compact = moveObjectTypeFromStructTag(tag);
    expect(compact.$kind).toBe(kind);
    expect(moveObjectTypeToStructTag(compact)).toEqual(tag);
  });
});

describe('codec behaviour', () => {
  it('maps encode in canonical key order and decoding rejects other orders', () => {
    const pkg: MovePackage = {
      id: '0x5',
      version: 1n,
      moduleMap: new Map([
        ['b', Uint8Array.of(1)],
        ['aa', Uint8Array.of(2)],
      ]),
      typeOriginTable: [],
      linkageTable: new Map(),
    };
    const bytes = encodeBcs(suiBcs.MovePackage, pkg);
    const back = decodeBcs(suiBcs.MovePackage, bytes);
    expect([...back.moduleMap.keys()]).toEqual(['b', 'aa']); // BCS order: ULEB length first
    expect(back.id).toBe(normalizeAddress('0x5'));
    const swapped = Uint8Array.from(bytes);
    // module_map starts after id (32) + version (8) + count (1): "01 62 01 01 02 61 61 01 02"
    swapped.set([2, 0x61, 0x61, 1, 2, 1, 0x62, 1, 1], 41);
    expect(codeOf(() => decodeBcs(suiBcs.MovePackage, swapped))).toBe('BCS_NON_CANONICAL');
  });

  it('typed decode errors: truncated, trailing bytes, unknown variant, bad digest length', () => {
    const owner = encodeBcs(suiBcs.Owner, { $kind: 'Shared', Shared: { initialSharedVersion: 7n } });
    expect(decodeBcs(suiBcs.Owner, owner)).toEqual({ $kind: 'Shared', Shared: { initialSharedVersion: 7n } });
    expect(codeOf(() => decodeBcs(suiBcs.Owner, owner.subarray(0, 5)))).toBe('BCS_DECODE_FAILED');
    expect(codeOf(() => decodeBcs(suiBcs.Owner, Uint8Array.of(...owner, 0)))).toBe('BCS_TRAILING_BYTES');
    expect(codeOf(() => decodeBcs(suiBcs.Owner, Uint8Array.of(9)))).toBe('BCS_DECODE_FAILED');
    expect(codeOf(() => decodeBcs(suiBcs.Digest, Uint8Array.of(31, ...new Uint8Array(31))))).toBe('BCS_INVALID_DIGEST');
    expect(codeOf(() => decodeBcs(suiBcs.bool, Uint8Array.of(2)))).toBe('BCS_DECODE_FAILED');
  });

  it('a subarray view cannot read past its end', () => {
    const buf = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    expect(codeOf(() => decodeBcs(suiBcs.u64, buf.subarray(0, 4)))).toBe('BCS_DECODE_FAILED');
    expect(decodeBcs(suiBcs.u64, buf.subarray(2, 10))).toBe(0x0a09080706050403n);
  });

  it('typed encode errors carry the path', () => {
    const object = {
      data: { $kind: 'Move', Move: { type: { $kind: 'GasCoin', GasCoin: true }, hasPublicTransfer: true, version: 1, contents: new Uint8Array(40) } },
      owner: { $kind: 'Immutable', Immutable: true },
      previousTransaction: '11111111111111111111111111111111',
      storageRebate: 0n,
    } as unknown as SuiObject;
    let error: BcsError | undefined;
    try {
      encodeBcs(suiBcs.Object, object);
    } catch (e) {
      if (e instanceof BcsError) error = e;
    }
    expect(error?.code).toBe('BCS_INVALID_VALUE');
    expect(error?.path).toBe('data.Move.version');
    expect(codeOf(() => encodeBcs(suiBcs.Address, '0xzz'))).toBe('BCS_INVALID_ADDRESS');
    expect(codeOf(() => encodeBcs(suiBcs.Digest, '1111'))).toBe('BCS_INVALID_DIGEST');
    expect(codeOf(() => encodeBcs(suiBcs.Owner, { $kind: 'Nobody' } as never))).toBe('BCS_INVALID_VALUE');
  });

  it('enum values may omit $kind', () => {
    const a = encodeBcs(suiBcs.Argument, { NestedResult: [1, 2] } as never);
    expect(decodeBcs(suiBcs.Argument, a)).toEqual({ $kind: 'NestedResult', NestedResult: [1, 2] });
  });

  it('checkpoint blobs need the 0x01 encoding byte', () => {
    expect(codeOf(() => decodeCheckpointBlob(Uint8Array.of(0, 1, 2)))).toBe('BCS_UNSUPPORTED_BLOB');
    expect(codeOf(() => decodeCheckpointBlob(new Uint8Array()))).toBe('BCS_UNSUPPORTED_BLOB');
  });
});

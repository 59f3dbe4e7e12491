/**
 * The shape-compiled encoder (what `encodeBcs` runs first) writes the codecs' exact bytes:
 * whole mainnet checkpoints (transactions, effects, events, objects) and hand-made edge
 * values; on a value it cannot write it steps aside and the codec raises its own error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCheckpointFile, encodeBcs, suiBcs } from '@smi/ptb';
import { BcsError } from '@smi/move-vm';
import { encodeByShape } from '../src/bcs/shape-encoder.js';
import { Address, Bytes, map, option, Str, U32, U64, U8, vector } from '../src/bcs/codec.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

describeWithFixtures('shape encoder on mainnet checkpoints', ['fixtures', 'checkpoints'], () => {
  it.each(['20958462.chk', '15918264.chk', '16005062.chk', 'ocs/1137.chk'])('%s: the same bytes as the codec, without falling back', (f) => {
    const { checkpoint } = decodeCheckpointFile(new Uint8Array(readFileSync(fixturePath('fixtures', 'checkpoints', f))));
    const fast = encodeByShape(suiBcs.CheckpointData, checkpoint);
    expect(fast).toBeDefined();
    expect(Buffer.from(fast as Uint8Array).equals(Buffer.from(suiBcs.CheckpointData.serialize(checkpoint).toBytes()))).toBe(true);
    for (const t of checkpoint.transactions) {
      expect(encodeByShape(suiBcs.TransactionEffects, t.effects)).toEqual(suiBcs.TransactionEffects.serialize(t.effects).toBytes());
    }
  });
});

describe('shape encoder edge values', () => {
  it('writes ULEB128 lengths, options, maps in key order, enums by $kind or by key', () => {
    const v = new Uint8Array(200).fill(7);
    expect(encodeByShape(vector(U8), [1, 2])).toEqual(Uint8Array.of(2, 1, 2));
    expect(encodeByShape(Bytes, v)).toEqual(Bytes.serialize(v).toBytes());
    expect(encodeByShape(option(U64), null)).toEqual(Uint8Array.of(0));
    expect(encodeByShape(option(U64), 2n ** 64n - 1n)).toEqual(Uint8Array.of(1, 255, 255, 255, 255, 255, 255, 255, 255));
    const m = new Map([
      ['b', 1],
      ['a', 2],
    ]);
    const codec = map(Str, U32);
    expect(encodeByShape(codec, m)).toEqual(codec.serialize(m).toBytes());
    const tag = { $kind: 'vector', vector: { $kind: 'u64', u64: true } } as const;
    expect(encodeByShape(suiBcs.TypeTag, tag)).toEqual(suiBcs.TypeTag.serialize(tag).toBytes());
    expect(encodeByShape(suiBcs.TypeTag, { u8: true } as never)).toEqual(Uint8Array.of(1));
  });

  it('steps aside on values it cannot write; encodeBcs then raises the codec error', () => {
    expect(encodeByShape(U64, 5)).toBeUndefined();
    expect(encodeByShape(U8, 256)).toBeUndefined();
    expect(encodeByShape(Address, '0xzz')).toBeUndefined();
    expect(encodeByShape(suiBcs.TypeTag, { $kind: 'nope' } as never)).toBeUndefined();
    expect(() => encodeBcs(U64, 5 as never)).toThrow(BcsError);
    expect(() => encodeBcs(Address, '0xzz')).toThrow(/address/);
    // Short addresses are fine (normalized), as with the codec.
    expect(encodeByShape(Address, '0x2')).toEqual(Address.serialize('0x2').toBytes());
  });
});

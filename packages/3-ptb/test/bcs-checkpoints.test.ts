/**
 * Real mainnet (and test network) checkpoints: `CheckpointData` decodes and re-encodes
 * byte for byte, and every digest the data carries recomputes from our encoding:
 * transaction digests, effects and contents digests (against the checkpoint contents and
 * summary), events digests, object digests (against the references in the transaction
 * and its effects), and created object ids (`derive_id(tx digest, n)`).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import {
  checkpointContentsDigest,
  decodeCheckpointFile,
  deriveObjectId,
  digestFromBase58,
  encodeBcs,
  moveObjectTypeFromStructTag,
  moveObjectTypeToStructTag,
  suiBcs,
  transactionDataOf,
  transactionDigest,
  transactionEffectsDigest,
  transactionEventsDigest,
  type CheckpointData,
} from '@smi/ptb';
import { bytesToHex } from '../src/bcs/codec.js';
import { checkpointExecutionDigests, decodeCheckpointBlob } from '../src/bcs/checkpoint.js';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { checkObjectDigests, explainCreatedIds } from './support/checkpoint-checks.js';

const FILES = ['20958462.chk', '20958462.bcs', '15918264.chk', '16005062.chk', 'ocs/1137.chk'] as const;

/** Per checkpoint file: transactions, events digests, objects referenced by digest, input and output objects (printed and asserted). */
const FIGURES: Record<(typeof FILES)[number], { transactions: number; events: number; referenced: number; objects: number }> = {
  '20958462.chk': { transactions: 125, events: 14, referenced: 536, objects: 582 },
  '20958462.bcs': { transactions: 125, events: 14, referenced: 536, objects: 582 },
  '15918264.chk': { transactions: 2, events: 1, referenced: 218, objects: 220 },
  '16005062.chk': { transactions: 2, events: 1, referenced: 218, objects: 220 },
  'ocs/1137.chk': { transactions: 9, events: 0, referenced: 1028, objects: 1028 },
};

/** Per checkpoint file: created ids, those derived by derive_id, those of dynamic fields. */
const CREATED: Record<string, { created: number; fresh: number; dynamicField: number }> = {
  '20958462.chk': { created: 113, fresh: 109, dynamicField: 4 },
  '15918264.chk': { created: 210, fresh: 105, dynamicField: 105 },
  '16005062.chk': { created: 210, fresh: 105, dynamicField: 105 },
};

describeWithFixtures('Sui checkpoints: BCS round trip and digests', ['fixtures', 'checkpoints'], () => {
  const raw = new Map<string, Uint8Array>();
  const decoded = new Map<string, { checkpoint: CheckpointData; format: 'blob' | 'bcs' }>();
  beforeAll(() => {
    for (const f of FILES) {
      const bytes = new Uint8Array(readFileSync(fixturePath('fixtures', 'checkpoints', f)));
      raw.set(f, bytes);
      decoded.set(f, decodeCheckpointFile(bytes));
    }
  });
  const get = (f: string): CheckpointData => decoded.get(f)!.checkpoint;

  it.each(FILES)('%s decodes and re-encodes byte for byte', (f) => {
    const bytes = raw.get(f)!;
    const { checkpoint, format } = decoded.get(f)!;
    expect(format).toBe(f.endsWith('.bcs') || f.startsWith('ocs/') ? 'bcs' : 'blob');
    const body = format === 'blob' ? bytes.subarray(1) : bytes;
    expect(Buffer.from(encodeBcs(suiBcs.CheckpointData, checkpoint)).equals(Buffer.from(body))).toBe(true);
    if (format === 'blob') expect(decodeCheckpointBlob(bytes).transactions.length).toBe(checkpoint.transactions.length);
  });

  it('the .chk and .bcs forms of 20958462 hold the same checkpoint (objects in another order)', () => {
    const a = get('20958462.chk');
    const b = get('20958462.bcs');
    expect(b.transactions.length).toBe(a.transactions.length);
    const digests = (c: CheckpointData): string[] => c.transactions.map((t) => transactionDigest(transactionDataOf(t.transaction)));
    expect(digests(b)).toEqual(digests(a));
    expect(checkpointContentsDigest(b.checkpointContents)).toBe(checkpointContentsDigest(a.checkpointContents));
  });

  it.each(FILES)('%s: transaction, effects, events and contents digests recompute', (f) => {
    const c = get(f);
    const expected = checkpointExecutionDigests(c.checkpointContents);
    expect(expected.length).toBe(c.transactions.length);
    expect(checkpointContentsDigest(c.checkpointContents)).toBe(c.checkpointSummary.data.contentDigest);
    let events = 0;
    c.transactions.forEach((t, i) => {
      const txDigest = transactionDigest(transactionDataOf(t.transaction));
      expect(txDigest).toBe(expected[i].transaction);
      expect(transactionEffectsDigest(t.effects)).toBe(expected[i].effects);
      const fx = t.effects.$kind === 'V1' ? t.effects.V1 : t.effects.V2;
      expect(fx.transactionDigest).toBe(txDigest);
      expect(t.events === null).toBe(fx.eventsDigest === null);
      if (t.events !== null) {
        expect(transactionEventsDigest(t.events)).toBe(fx.eventsDigest);
        events++;
      }
    });
    console.log(`[bcs-checkpoints] ${f}: ${c.transactions.length}/${c.transactions.length} tx and effects digests, ${events} events digests, contents digest`);
    expect({ transactions: c.transactions.length, events }).toEqual({ transactions: FIGURES[f].transactions, events: FIGURES[f].events });
  });

  it.each(FILES)('%s: object digests equal the references in the transactions and effects', (f) => {
    let objects = 0;
    let referenced = 0;
    let matching = 0;
    for (const t of get(f).transactions) {
      const r = checkObjectDigests(t);
      objects += r.objects;
      referenced += r.referenced;
      matching += r.matching;
    }
    console.log(`[bcs-checkpoints] ${f}: object digests ${matching}/${referenced} referenced (${objects} input+output objects)`);
    expect(matching).toBe(referenced);
    expect({ referenced, objects }).toEqual({ referenced: FIGURES[f].referenced, objects: FIGURES[f].objects });
  });

  it('ocs/1137.chk: derive_id(tx digest, n) gives all 1,010 created ids', () => {
    let created = 0;
    let fresh = 0;
    for (const t of get('ocs/1137.chk').transactions) {
      const fx = t.effects.$kind === 'V1' ? t.effects.V1 : t.effects.V2;
      const r = explainCreatedIds(t, fx.transactionDigest);
      created += r.created;
      fresh += r.fresh;
    }
    expect([fresh, created]).toEqual([1010, 1010]);
  });

  it('oracles.md §4.7 vector: tx 01309a09…90a1, creation index 1 → 0xfd520e52…', () => {
    const digests = get('20958462.chk').transactions.map((t) => transactionDigest(transactionDataOf(t.transaction)));
    const tx = digests.find((d) => {
      const hex = bytesToHex(digestFromBase58(d));
      return hex.startsWith('01309a09') && hex.endsWith('90a1');
    });
    expect(tx).toBeDefined();
    expect(deriveObjectId(tx!, 1)).toBe('0xfd520e52aa7203e30e738a726bcba4deda72c71872a45e3d62e47721d4040781');
  });

  it('every stored compact object type maps to its struct tag and back', () => {
    let n = 0;
    for (const f of FILES) {
      for (const t of get(f).transactions) {
        for (const o of [...t.inputObjects, ...t.outputObjects]) {
          if (o.data.$kind !== 'Move') continue;
          expect(moveObjectTypeFromStructTag(moveObjectTypeToStructTag(o.data.Move.type))).toEqual(o.data.Move.type);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(2000);
  });

  it.each(['20958462.chk', '15918264.chk', '16005062.chk'])('%s: created ids are derive_id or dynamic-field ids', (f) => {
    const total = { created: 0, fresh: 0, dynamicField: 0, unexplained: [] as string[] };
    for (const t of get(f).transactions) {
      const fx = t.effects.$kind === 'V1' ? t.effects.V1 : t.effects.V2;
      const r = explainCreatedIds(t, fx.transactionDigest);
      total.created += r.created;
      total.fresh += r.fresh;
      total.dynamicField += r.dynamicField;
      total.unexplained.push(...r.unexplained);
    }
    console.log(`[bcs-checkpoints] ${f}: ${total.created} created ids: ${total.fresh} derive_id, ${total.dynamicField} dynamic fields, ${total.unexplained.length} unexplained`);
    expect(total.fresh + total.dynamicField + total.unexplained.length).toBe(total.created);
    expect({ created: total.created, fresh: total.fresh, dynamicField: total.dynamicField }).toEqual(CREATED[f]);
    expect(total.unexplained).toEqual([]);
  });
});

/**
 * Mainnet checkpoint 238,627,324 as serde JSON (sui-sandbox's `checkpoint_data.json`):
 * read with `fromSerdeJson`, re-encoded with our codecs, every digest recomputes: object
 * digests against the V2 effects, transaction digests of the PTBs (and prologues), effects
 * and contents digests, events digests, and the created dynamic field's id.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import {
  checkpointContentsDigest,
  decodeBcs,
  dynamicFieldId,
  encodeBcs,
  fromSerdeJson,
  parseTypeTag,
  suiBcs,
  transactionDataOf,
  transactionDigest,
  transactionEffectsDigest,
  transactionEventsDigest,
  type CheckpointData,
} from '@smi/ptb';
import { checkpointExecutionDigests } from '../src/bcs/checkpoint.js';
import { BcsError } from '@smi/move-vm';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { checkObjectDigests, createdIds } from './support/checkpoint-checks.js';

const FILE = ['fixtures', 'checkpoints', 'checkpoint_238627324.json'];

describeWithFixtures('checkpoint_238627324.json (serde JSON) re-encoded', FILE, () => {
  let checkpoint: CheckpointData;
  beforeAll(() => {
    checkpoint = fromSerdeJson(suiBcs.CheckpointData, JSON.parse(readFileSync(fixturePath(...FILE), 'utf8')));
  });

  it('reads into CheckpointData that round-trips through BCS', () => {
    expect(checkpoint.checkpointSummary.data.sequenceNumber).toBe(238627324n);
    expect(checkpoint.transactions).toHaveLength(6);
    const bytes = encodeBcs(suiBcs.CheckpointData, checkpoint);
    expect(Buffer.from(encodeBcs(suiBcs.CheckpointData, decodeBcs(suiBcs.CheckpointData, bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('37/37 object digests match the effects', () => {
    let objects = 0;
    let referenced = 0;
    let matching = 0;
    for (const t of checkpoint.transactions) {
      const r = checkObjectDigests(t);
      objects += r.objects;
      referenced += r.referenced;
      matching += r.matching;
    }
    expect([matching, referenced, objects]).toEqual([37, 37, 37]);
  });

  it('3/3 PTB transaction digests match (6/6 with the prologues), and so do effects, events and contents digests', () => {
    const expected = checkpointExecutionDigests(checkpoint.checkpointContents);
    const kinds = checkpoint.transactions.map((t) => transactionDataOf(t.transaction).V1.kind.$kind);
    let ptbs = 0;
    checkpoint.transactions.forEach((t, i) => {
      expect(transactionDigest(transactionDataOf(t.transaction))).toBe(expected[i].transaction);
      expect(transactionEffectsDigest(t.effects)).toBe(expected[i].effects);
      if (kinds[i] === 'ProgrammableTransaction') ptbs++;
      const fx = t.effects.$kind === 'V2' ? t.effects.V2 : t.effects.V1;
      if (t.events !== null) expect(transactionEventsDigest(t.events)).toBe(fx.eventsDigest);
    });
    expect(ptbs).toBe(3);
    expect(kinds.filter((k) => k === 'ConsensusCommitPrologueV4')).toHaveLength(3);
    expect(checkpointContentsDigest(checkpoint.checkpointContents)).toBe(checkpoint.checkpointSummary.data.contentDigest);
  });

  it('the created object 0xc2add9f1… is the dynamic field (parent 0x4ab8…, vector<u8> "metadata")', () => {
    const created = checkpoint.transactions.flatMap((t) => createdIds(t));
    expect(created).toHaveLength(1);
    const [id] = created;
    expect(id.startsWith('0xc2add9f1')).toBe(true);
    const owner = checkpoint.transactions
      .flatMap((t) => t.outputObjects)
      .find((o) => o.data.$kind === 'Move' && id === `0x${Buffer.from(o.data.Move.contents.subarray(0, 32)).toString('hex')}`)?.owner;
    expect(owner?.$kind).toBe('ObjectOwner');
    const parent = owner?.$kind === 'ObjectOwner' ? owner.ObjectOwner : '';
    expect(parent.startsWith('0x4ab8')).toBe(true);
    const key = encodeBcs(suiBcs.bytes, new TextEncoder().encode('metadata'));
    expect(dynamicFieldId(parent, parseTypeTag('vector<u8>'), key)).toBe(id);
  });

  it('rejects JSON that does not match the shape, with the path', () => {
    const bad = (json: unknown): BcsError => {
      try {
        fromSerdeJson(suiBcs.Owner, json);
      } catch (e) {
        if (e instanceof BcsError) return e;
      }
      throw new Error('expected a BcsError');
    };
    expect(bad({ Shared: { initial_shared_version: 'x' } }).code).toBe('BCS_INVALID_JSON');
    expect(bad({ Shared: { initial_shared_version: 'x' } }).path).toBe('$.Shared.initial_shared_version');
    expect(bad('Mutable').code).toBe('BCS_INVALID_JSON');
    expect(bad({ Shared: { initial_shared_version: 2 ** 60 } }).message).toMatch(/safe integer/);
    expect(fromSerdeJson(suiBcs.Owner, { Shared: { initial_shared_version: String(2n ** 60n) } })).toEqual({
      $kind: 'Shared',
      Shared: { initialSharedVersion: 2n ** 60n },
    });
    expect(fromSerdeJson(suiBcs.Owner, 'Immutable')).toEqual({ $kind: 'Immutable', Immutable: true });
  });
});

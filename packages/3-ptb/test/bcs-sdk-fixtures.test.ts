/**
 * sui-rust-sdk's base64 BCS fixtures: transactions (its `Transaction` is our
 * `TransactionData`) and effects V1/V2 decode and re-encode byte for byte.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { decodeBcs, encodeBcs, suiBcs, transactionDigest, transactionEffectsDigest } from '@smi/ptb';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const read = (...p: string[]): Uint8Array => new Uint8Array(Buffer.from(readFileSync(fixturePath('fixtures', 'sdk-fixtures', ...p), 'utf8').trim(), 'base64'));

describeWithFixtures('sui-rust-sdk BCS fixtures', ['fixtures', 'sdk-fixtures'], () => {
  it.each([
    ['authenticator_state_update', 'AuthenticatorStateUpdate'],
    ['genesis-transaction', 'Genesis'],
    ['wormhole-pyth-transaction', 'ProgrammableTransaction'],
  ])('transaction/%s round-trips (%s)', (file, kind) => {
    const bytes = read('transaction', file);
    const tx = decodeBcs(suiBcs.TransactionData, bytes);
    expect(tx.V1.kind.$kind).toBe(kind);
    expect(Buffer.from(encodeBcs(suiBcs.TransactionData, tx)).equals(Buffer.from(bytes))).toBe(true);
    expect(transactionDigest(tx)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
  });

  it.each([
    ['genesis-transaction-effects', 'V1'],
    ['pyth-wormhole-v2', 'V2'],
  ])('effects/%s round-trips (%s)', (file, version) => {
    const bytes = read('effects', file);
    const fx = decodeBcs(suiBcs.TransactionEffects, bytes);
    expect(fx.$kind).toBe(version);
    expect(Buffer.from(encodeBcs(suiBcs.TransactionEffects, fx)).equals(Buffer.from(bytes))).toBe(true);
    expect(transactionEffectsDigest(fx)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
  });

  it('the genesis effects belong to the genesis transaction', () => {
    const tx = decodeBcs(suiBcs.TransactionData, read('transaction', 'genesis-transaction'));
    const fx = decodeBcs(suiBcs.TransactionEffects, read('effects', 'genesis-transaction-effects'));
    expect(fx.$kind === 'V1' && fx.V1.transactionDigest).toBe(transactionDigest(tx));
  });
});

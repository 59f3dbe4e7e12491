import { describe, expect, it } from 'vitest';
import { digestToBase58, encodeBcs, objectDigest, suiBcs, type Owner, type SuiObject } from '@smi/ptb';
import { DIGEST_SALTS, saltedDigest } from '../src/bcs/digests.js';

const A = '0x' + 'ab'.repeat(32);
const TX = '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP';

/** The object digest through the generic codec. */
function generic(o: SuiObject): string {
  return digestToBase58(saltedDigest(DIGEST_SALTS.object, encodeBcs(suiBcs.Object, o)));
}

function moveObject(owner: Owner, data: SuiObject['data']): SuiObject {
  return { data, owner, previousTransaction: TX, storageRebate: 1_234_567n };
}

describe('objectDigest', () => {
  it('gives the generic codec’s digest for every owner kind, type form and contents length', () => {
    const owners: Owner[] = [
      { $kind: 'AddressOwner', AddressOwner: A },
      { $kind: 'ObjectOwner', ObjectOwner: '0x' + '0'.repeat(63) + '6' },
      { $kind: 'Shared', Shared: { initialSharedVersion: 42n } },
      { $kind: 'Immutable', Immutable: true },
      { $kind: 'ConsensusAddressOwner', ConsensusAddressOwner: { startVersion: 3n, owner: A } },
    ];
    const other = {
      $kind: 'Other',
      Other: {
        address: '0x' + '0'.repeat(63) + '2',
        module: 'dynamic_field',
        name: 'Field',
        typeParams: [
          { $kind: 'u64', u64: true },
          { $kind: 'address', address: true },
        ],
      },
    };
    for (const owner of owners) {
      for (const len of [0, 1, 127, 128, 16_383, 16_384, 70_000]) {
        const contents = Uint8Array.from({ length: len }, (_, i) => (i * 7) & 255);
        const coin = moveObject(owner, { $kind: 'Move', Move: { type: { $kind: 'GasCoin', GasCoin: true }, hasPublicTransfer: true, version: 7n, contents } } as SuiObject['data']);
        expect(objectDigest(coin)).toBe(generic(coin));
        const field = moveObject(owner, { $kind: 'Move', Move: { type: other, hasPublicTransfer: false, version: 1n << 40n, contents } } as SuiObject['data']);
        expect(objectDigest(field)).toBe(generic(field));
      }
    }
  });

  it('gives the generic codec’s digest for packages', () => {
    const pkg: SuiObject = {
      data: {
        $kind: 'Package',
        Package: { id: A, version: 2n, moduleMap: new Map([['m', Uint8Array.of(1, 2, 3)]]), typeOriginTable: [{ moduleName: 'm', datatypeName: 'S', package: A }], linkageTable: new Map() },
      },
      owner: { $kind: 'Immutable', Immutable: true },
      previousTransaction: TX,
      storageRebate: 0n,
    } as SuiObject;
    expect(objectDigest(pkg)).toBe(generic(pkg));
  });
});

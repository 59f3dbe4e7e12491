// Decode a real mainnet checkpoint, recompute its digests, look at a PTB, and build an
// object of our own. Run from the repo root after `pnpm build`:
//   node packages/3-ptb/examples/decode-checkpoint.mjs
import { readFileSync } from 'node:fs';
import {
  checkpointExecutionDigests,
  decodeCheckpointFile,
  deriveObjectId,
  encodeBcs,
  formatTypeTag,
  moveObjectTypeFromStructTag,
  objectDigest,
  parseStructTag,
  suiBcs,
  transactionDataOf,
  transactionDigest,
  transactionEffectsDigest,
} from '@smi/ptb';

const fw = process.env.SMI_FIXTURES ?? '../shared';
const bytes = new Uint8Array(readFileSync(`${fw}/fixtures/checkpoints/20958462.chk`));

// 0x01 then BCS CheckpointData; it re-encodes byte for byte
const { checkpoint, format } = decodeCheckpointFile(bytes);
const same = Buffer.from(encodeBcs(suiBcs.CheckpointData, checkpoint)).equals(Buffer.from(bytes.subarray(1)));
console.log(`checkpoint ${checkpoint.checkpointSummary.data.sequenceNumber} (${format}): ${checkpoint.transactions.length} transactions, re-encoded identically: ${same}`);

// digests recompute from our encoding
const expected = checkpointExecutionDigests(checkpoint.checkpointContents);
const ok = checkpoint.transactions.filter(
  (t, i) => transactionDigest(transactionDataOf(t.transaction)) === expected[i].transaction && transactionEffectsDigest(t.effects) === expected[i].effects,
).length;
console.log(`transaction and effects digests: ${ok}/${expected.length}`);

// a PTB: inputs and commands as typed values
const ptb = checkpoint.transactions.map((t) => transactionDataOf(t.transaction).V1.kind).find((k) => k.$kind === 'ProgrammableTransaction').ProgrammableTransaction;
for (const c of ptb.commands) {
  if (c.$kind === 'MoveCall') {
    const { package: pkg, module, function: fn, typeArguments } = c.MoveCall;
    const targs = typeArguments.map((t) => formatTypeTag(t, { short: true })).join(', ');
    console.log(`  MoveCall ${pkg.slice(0, 10)}…::${module}::${fn}${targs === '' ? '' : `<${targs}>`}`);
  } else console.log(`  ${c.$kind}`);
}

// an object of our own: a SUI coin with 1000 MIST, created by that transaction at index 0
const txDigest = expected[0].transaction;
const id = deriveObjectId(txDigest, 0);
const contents = new Uint8Array(40);
contents.set(Buffer.from(id.slice(2), 'hex'), 0);
new DataView(contents.buffer).setBigUint64(32, 1000n, true);
const coin = {
  data: {
    $kind: 'Move',
    Move: { type: moveObjectTypeFromStructTag(parseStructTag('0x2::coin::Coin<0x2::sui::SUI>')), hasPublicTransfer: true, version: 1n, contents },
  },
  owner: { $kind: 'AddressOwner', AddressOwner: '0x7' },
  previousTransaction: txDigest,
  storageRebate: 0n,
};
console.log(`coin ${id.slice(0, 12)}…: type ${coin.data.Move.type.$kind}, ${encodeBcs(suiBcs.Object, coin).length} bytes, digest ${objectDigest(coin)}`);

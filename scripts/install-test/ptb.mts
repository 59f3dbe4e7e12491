// @smi/ptb: execute a programmable transaction block (a Move call on two pure inputs) with
// the PTB executor, then encode its effects.
import { loadBundleFile } from '@smi/bytecode';
import { loadProtocolConfig, MoveVM } from '@smi/move-vm';
import { encodeBcs, executeProgrammableTransaction, suiBcs, type ObjectStore, type ProgrammableTransaction } from '@smi/ptb';
import { check, done, fixture } from './fixtures.mjs';

const u64 = (n: bigint): Uint8Array => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
};

const vm = MoveVM.create({ packages: ['move-stdlib', 'sui-framework'].map((f) => loadBundleFile(fixture('fixtures', 'framework', f))) });
const store: ObjectStore = { getObject: () => undefined };
const transaction: ProgrammableTransaction = {
  inputs: [
    { $kind: 'Pure', Pure: { bytes: u64(3n) } },
    { $kind: 'Pure', Pure: { bytes: u64(7n) } },
  ],
  commands: [
    {
      $kind: 'MoveCall',
      MoveCall: {
        package: '0x1',
        module: 'u64',
        function: 'max',
        typeArguments: [],
        arguments: [
          { $kind: 'Input', Input: 0 },
          { $kind: 'Input', Input: 1 },
        ],
      },
    },
  ],
};
const sender = '0x' + 'b0b'.padStart(64, '0');
const result = executeProgrammableTransaction(vm, store, {
  sender,
  transaction,
  gas: { payment: [], owner: sender, price: 1000n, budget: 50_000_000n },
  digest: '11111111111111111111111111111111',
  epoch: 0n,
  epochTimestampMs: 0n,
  protocolConfig: loadProtocolConfig(fixture()),
  checks: 'relaxed',
});
check(result.status.$kind === 'Success', `the transaction succeeds (${result.status.$kind === 'Failure' ? result.status.message : 'ok'})`);
const ret = result.commandResults[0]?.returnValues[0];
check(ret !== undefined && ret.type === 'u64' && ret.bcs[0] === 7, 'the call returns 7u64');
const effects = encodeBcs(suiBcs.TransactionEffects, result.effects);
done(`PTB 0x1::u64::max(3, 7) returned ${ret.bcs[0]}: ${result.instructions} instructions, effects ${effects.length} bytes (${result.effectsDigest})`);

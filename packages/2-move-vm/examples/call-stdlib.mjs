// Call real framework functions from a research script. Run from the repo root after `pnpm build`:
//   node packages/2-move-vm/examples/call-stdlib.mjs
import { loadBundleFile } from '@smi/bytecode';
import { MoveVM, MoveVector, valueToJson } from '@smi/move-vm';

const fw = process.env.SMI_FIXTURES ?? '../shared';
const vm = MoveVM.create({
  packages: ['move-stdlib', 'sui-framework'].map((f) => loadBundleFile(`${fw}/fixtures/framework/${f}`)),
});

// u64 arithmetic, with typed values in and typed values + BCS out
const pow = vm.call('0x1::u64::pow', {
  args: [
    { $kind: 'Value', value: 3n },
    { $kind: 'Value', value: 4 },
  ],
});
console.log(pow.$kind, pow.returnValues[0].value, Buffer.from(pow.returnValues[0].bcs).toString('hex'));

// arguments as BCS bytes; a failing call comes back as a result, not an exception
const overflow = vm.call('0x1::u64::pow', {
  args: [
    { $kind: 'Bcs', bytes: Uint8Array.from([2, 0, 0, 0, 0, 0, 0, 0]) },
    { $kind: 'Bcs', bytes: Uint8Array.from([64]) },
  ],
});
console.log(overflow.$kind, overflow.code, overflow.location);

// generics and &mut arguments: the mutated vector comes back in mutatedReferences
const rev = vm.call('0x1::vector::reverse', { typeArgs: ['u8'], args: [{ $kind: 'Value', value: MoveVector.fromBytes(Uint8Array.from([1, 2, 3])) }] });
const after = rev.mutatedReferences[0].value;
console.log(after.typeTag, valueToJson(vm.types, after.value, after.type));

// aborts carry the code and the location
const none = vm.call('0x1::option::extract', { typeArgs: ['u64'], args: [{ $kind: 'Value', value: [MoveVector.empty(4)] }] });
console.log(none.$kind, none.abortCode, `${none.location.module}::${none.location.function}@${none.location.instruction}`);

// @smi/move-vm: call 0x1::u64::max with the framework loaded from the fixtures.
import { loadBundleFile } from '@smi/bytecode';
import { MoveVM } from '@smi/move-vm';
import { check, done, fixture } from './fixtures.mjs';

const vm = MoveVM.create({ packages: ['move-stdlib', 'sui-framework'].map((f) => loadBundleFile(fixture('fixtures', 'framework', f))) });
const r = vm.call('0x1::u64::max', {
  args: [
    { $kind: 'Value', value: 3n },
    { $kind: 'Value', value: 7n },
  ],
});
check(r.$kind === 'Success', `the call succeeds (got ${r.$kind})`);
const value = r.returnValues[0]?.value;
check(value === 7n, `max(3, 7) is 7 (got ${String(value)})`);
const aborted = vm.call('0x1::option::extract', { typeArgs: ['u64'], args: [{ $kind: 'Bcs', bytes: Uint8Array.of(0) }] });
check(aborted.$kind === 'Aborted', `option::extract(none) aborts (got ${aborted.$kind})`);
done(`0x1::u64::max(3, 7) = ${String(value)} (gas ${r.gasUsed}); option::extract(none) aborts with ${String(aborted.abortCode)}`);

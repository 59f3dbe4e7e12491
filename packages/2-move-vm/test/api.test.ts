import { expect, it } from 'vitest';
import { loadBundleFile } from '@smi/bytecode';
import { MoveVM, MoveVector, VecKind, VmError, type CallArg, type CallResult } from '@smi/move-vm';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const v = (value: unknown): CallArg => ({ $kind: 'Value', value });
const bcs = (hex: string): CallArg => ({ $kind: 'Bcs', bytes: Uint8Array.from(Buffer.from(hex, 'hex')) });

function ok(r: CallResult) {
  if (r.$kind !== 'Success') throw new Error(`expected success, got ${JSON.stringify(r, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))}`);
  return r;
}

function vmError(fn: () => unknown): VmError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VmError);
    return e as VmError;
  }
  throw new Error('expected a VmError');
}

describeWithFixtures('MoveVM embedding API', ['fixtures', 'framework'], () => {
  const vm = MoveVM.create({
    packages: ['move-stdlib', 'sui-framework'].map((f) => loadBundleFile(fixturePath('fixtures', 'framework', f))),
  });

  it('calls with runtime values and BCS arguments; returns typed values with BCS', () => {
    const r = ok(vm.call('0x1::u64::max', { args: [v(3n), bcs('0500000000000000')] }));
    expect(r.returnValues).toHaveLength(1);
    expect(r.returnValues[0].typeTag).toBe('u64');
    expect(r.returnValues[0].value).toBe(5n);
    expect(Buffer.from(r.returnValues[0].bcs).toString('hex')).toBe('0500000000000000');
    expect(r.modulesTouched).toEqual(['0x0000000000000000000000000000000000000000000000000000000000000001::u64']);
  });

  it('passes &mut arguments and reports their values after the call', () => {
    const r = ok(vm.call('0x1::vector::reverse', { typeArgs: ['u64'], args: [v(MoveVector.fromValues(VecKind.U64, [1n, 2n, 3n]))] }));
    expect(r.returnValues).toEqual([]);
    expect(r.mutatedReferences).toHaveLength(1);
    expect((r.mutatedReferences[0].value.value as MoveVector).toArray()).toEqual([3n, 2n, 1n]);
    expect(r.mutatedReferences[0].value.typeTag).toBe('vector<u64>');
  });

  it('returns aborts with their code and location', () => {
    const r = vm.call('0x1::vector::remove', { typeArgs: ['u8'], args: [v(MoveVector.fromBytes(new Uint8Array([1]))), v(5n)] });
    expect(r.$kind).toBe('Aborted');
    if (r.$kind !== 'Aborted') return;
    expect(r.location.module).toBe('0x0000000000000000000000000000000000000000000000000000000000000001::vector');
    expect(r.location.function).toBe('remove');
  });

  it('rejects bad input with typed errors before running', () => {
    expect(vmError(() => vm.call('0x1::u64::max', { args: [v(3n)] })).code).toBe('NUMBER_OF_ARGUMENTS_MISMATCH');
    expect(vmError(() => vm.call('0x1::u64::max', { args: [v(3), v(4n)] })).code).toBe('TYPE_MISMATCH');
    expect(vmError(() => vm.call('0x1::u64::max', { args: [v(-1n), v(4n)] })).code).toBe('TYPE_MISMATCH');
    expect(vmError(() => vm.call('0x1::u64::max', { args: [bcs('05'), v(4n)] })).code).toBe('FAILED_TO_DESERIALIZE_ARGUMENT');
    expect(vmError(() => vm.call('0x1::u64::nope')).code).toBe('FUNCTION_RESOLUTION_FAILURE');
    expect(vmError(() => vm.call('0x1::nope::f')).code).toBe('MISSING_DEPENDENCY');
    expect(vmError(() => vm.call('0x9::m::f')).code).toBe('MISSING_DEPENDENCY');
    expect(vmError(() => vm.call('bad-target')).code).toBe('FUNCTION_RESOLUTION_FAILURE');
    expect(vmError(() => vm.call('0x1::vector::empty')).code).toBe('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH');
    expect(vmError(() => vm.call('0x1::vector::empty', { typeArgs: ['vector<'] })).code).toBe('TYPE_MISMATCH');
    // destroy_with_default<Element: drop>: Coin has no drop.
    expect(vmError(() => vm.call('0x1::option::destroy_with_default', { typeArgs: ['0x2::coin::Coin<0x2::sui::SUI>'], args: [] })).code).toBe('CONSTRAINT_NOT_SATISFIED');
  });

  it('private functions need allowPrivate', () => {
    // 0x1::ascii::is_printable_char is public; 0x1::string's internal natives are private:
    expect(vmError(() => vm.call('0x1::string::internal_check_utf8', { args: [v(MoveVector.fromBytes(new Uint8Array()))] })).code).toBe('FUNCTION_RESOLUTION_FAILURE');
    const r = ok(vm.call('0x1::string::internal_check_utf8', { allowPrivate: true, args: [v(MoveVector.fromBytes(new Uint8Array([0xff])))] }));
    expect(r.returnValues[0].value).toBe(false);
  });

  it('a native the registry lacks fails with MISSING_NATIVE_FUNCTION naming it', () => {
    const r = vm.call('0x2::tx_context::sender', { args: [v(['0x' + '0'.repeat(64), MoveVector.fromBytes(new Uint8Array(32)), 0n, 0n, 0n])] });
    expect(r.$kind).toBe('Error');
    if (r.$kind !== 'Error') return;
    expect(r.code).toBe('MISSING_NATIVE_FUNCTION');
    expect(r.message).toMatch(/tx_context::native_sender/);
  });

  it('stops runaway execution with OUT_OF_GAS under a small budget', () => {
    const big = MoveVector.fromValues(
      VecKind.U64,
      Array.from({ length: 5000 }, (_, i) => BigInt(i)),
    );
    const r = vm.call('0x1::vector::reverse', { typeArgs: ['u64'], args: [v(big)], gasBudget: 100 });
    expect(r.$kind).toBe('Error');
    if (r.$kind === 'Error') expect(r.code).toBe('OUT_OF_GAS');
  });
});

it('MoveVM without packages reports missing dependencies as typed errors', () => {
  const vm = MoveVM.create();
  expect(vmError(() => vm.call('0x1::u64::max', { args: [v(1n), v(2n)] })).code).toBe('MISSING_DEPENDENCY');
});

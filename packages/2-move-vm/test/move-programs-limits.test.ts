/**
 * Runtime limits on compiled Move code, against upstream Sui's `move-vm-runtime`:
 * - call stack: `CALL_STACK_SIZE_LIMIT` = 1024 suspended frames, so 1025 live frames;
 *   the overflow is reported at the frame that could not be pushed (callee, offset 0);
 * - value depth 128, checked when a value is packed (port of upstream's
 *   `runtime_layout_deeply_nested.mvir`, whose expected output gives the locations);
 * - vector length (`max_move_vector_len` = 262144);
 * - operand stack: 1024 values, checked when a value is pushed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MoveVM, type CallResult } from '@smi/move-vm';
import { DEFAULT_LIMITS } from '../src/vm.js';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo, type CompiledPackage } from './support/compile.js';
import { BUG, VecKind, bcs, expectAbort, expectBcs, expectError, framework, frameworkVm, moduleId, ret, val, vec } from './support/golden.js';
import { LIMITS, RECURSION, WIDE } from './support/move-sources.js';

const REC = moduleId('0x0', 'recursion');
const LIM = moduleId('0x0', 'limits');

function location(r: CallResult): string {
  if (r.$kind === 'Success' || r.location === undefined) return '(none)';
  return `${r.location.module}::${r.location.function}@${r.location.instruction}`;
}

describeWithFixtures('runtime limits of compiled Move code', ['fixtures', 'framework'], () => {
  let compiled: CompiledPackage;
  let vm: MoveVM;
  beforeAll(async () => {
    compiled = await compileDemo({ 'recursion.move': RECURSION, 'limits.move': LIMITS });
    vm = frameworkVm([compiled.pkg]);
  });

  describe('call stack', () => {
    // is_even(n) runs n + 1 frames: is_even(n), is_odd(n - 1), …, down to 0.
    it('1025 live frames are allowed; the 1026th overflows', () => {
      expect(ret(vm.call('0x0::recursion::is_even', { args: [val(1024n)] })).value).toBe(true);
      expectError(vm.call('0x0::recursion::is_even', { args: [val(1025n)] }), 'CALL_STACK_OVERFLOW');
    });

    it(`the overflow is located at the callee that could not be entered, offset 0 [${BUG.STACK_OVERFLOW_LOCATION}]`, () => {
      // Frame k runs is_even when k is odd; frame 1026 would be is_odd(0).
      expect(location(vm.call('0x0::recursion::is_even', { args: [val(1025n)] }))).toBe(`${REC}::is_odd@0`);
      expect(location(vm.call('0x0::recursion::forever', { args: [val(0n)] }))).toBe(`${REC}::forever@0`);
    });
  });

  describe('value depth (128)', () => {
    it('a value of depth 128 (127 structs around a bool) can be built and returned', () => {
      const r = ret(vm.call('0x0::limits::publish_127'));
      expectBcs(r, bcs.bool(true)); // structs add no bytes
    });

    it('packing depth 129 fails with VM_MAX_VALUE_DEPTH_REACHED at the pack', () => {
      const r128 = vm.call('0x0::limits::publish_128');
      expectError(r128, 'VM_MAX_VALUE_DEPTH_REACHED');
      expect(location(r128)).toBe(`${LIM}::box128@2`);
      const r256 = vm.call('0x0::limits::publish_256');
      expectError(r256, 'VM_MAX_VALUE_DEPTH_REACHED');
      expect(location(r256)).toBe(`${LIM}::box3@1`);
    });
  });

  describe('vector length', () => {
    it('the default limit is max_move_vector_len = 262144; one more push fails', () => {
      expect(DEFAULT_LIMITS.maxVectorLength).toBe(262144);
      expectError(vm.call('0x0::limits::fill', { args: [val(262145n)] }), 'VECTOR_OPERATION_ERROR', LIM, 'fill');
    });

    it('exactly maxVectorLength elements fit', () => {
      const small = MoveVM.create({ packages: [...framework(), compiled.pkg], limits: { maxVectorLength: 1000 } });
      expect(ret(small.call('0x0::limits::fill', { args: [val(1000n)] })).value).toBe(1000n);
      expectError(small.call('0x0::limits::fill', { args: [val(1001n)] }), 'VECTOR_OPERATION_ERROR', LIM, 'fill');
    });

    it(`the native vector::push_back honours a configured maxVectorLength [${BUG.NATIVE_VECTOR_LIMIT}]`, () => {
      // Upstream's native reads the limit from the runtime config and aborts with VEC_SIZE_LIMIT_REACHED (4).
      const small = MoveVM.create({ packages: framework(), limits: { maxVectorLength: 3 } });
      const r = small.call('0x1::vector::push_back', { typeArgs: ['u64'], args: [val(vec(VecKind.U64, [1n, 2n, 3n])), val(4n)] });
      expectAbort(r, 4n, moduleId('0x1', 'vector'), 'push_back');
    });
  });

  describe('operand stack (1024 values)', () => {
    it(`${WIDE} values pushed on top of 300 frames fit`, () => {
      expect(ret(vm.call('0x0::limits::nest', { args: [val(300n), val(true)] })).value).toBe(300n + BigInt(WIDE));
    });

    it(`${WIDE} values pushed on top of 500 frames overflow, inside wide`, () => {
      const r = vm.call('0x0::limits::nest', { args: [val(500n), val(true)] });
      expectError(r, 'EXECUTION_STACK_OVERFLOW', LIM, 'wide');
    });

    it(`the overflow is located at a real instruction (the push) [${BUG.STACK_CHECK_AT_ENTRY}]`, () => {
      const r = vm.call('0x0::limits::nest', { args: [val(500n), val(true)] });
      expect(r.$kind === 'Error' && r.location !== undefined && r.location.instruction).toBeGreaterThan(0);
    });

    it(`a function whose unexecuted branch would push ${WIDE} values runs on top of 500 frames [${BUG.STACK_CHECK_AT_ENTRY}]`, () => {
      // At most ~502 values are ever on the stack: upstream checks each push, not the callee's maximum.
      expect(ret(vm.call('0x0::limits::nest', { args: [val(500n), val(false)] })).value).toBe(500n);
    });
  });
});

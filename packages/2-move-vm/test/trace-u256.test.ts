/**
 * u256 values in an upstream-format trace: move-core-types' `U256` serializes as its 32 bytes,
 * little-endian (serde writes `[u8; 32]` as a JSON array of 32 numbers), while a u128 stays a
 * JSON number. The trace of a function of our own that computes with both shows each form.
 */
import { MoveVM, UpstreamTraceRecorder } from '@smi/move-vm';
import { expect, it } from 'vitest';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo } from './support/compile.js';
import { framework } from './support/golden.js';

/** A value's 32 little-endian bytes, written out by hand (not by the code under test). */
const LE_258 = [2, 1, ...Array<number>(30).fill(0)];
const LE_265 = [9, 1, ...Array<number>(30).fill(0)];
const LE_MAX = Array<number>(32).fill(255);

describeWithFixtures('u256 in a trace', ['fixtures', 'framework'], () => {
  it('a u256 is its 32 little-endian bytes, a u128 a number', async () => {
    const { pkg } = await compileDemo({
      'w.move': [
        'module demo::w;',
        // Calls keep the compiler from folding the constants away.
        'fun id(x: u256): u256 { x }',
        'fun seven(): u128 { 7 }',
        'public fun wide(): u256 {',
        '    let m = id(115792089237316195423570985008687907853269984665640564039457584007913129639935);',
        '    let _ = m;',
        '    (seven() as u256) + id(258)',
        '}',
      ].join('\n'),
    });
    const vm = MoveVM.create({ packages: [...framework(), pkg] });
    const recorder = new UpstreamTraceRecorder({ version: 3, variantPushOrder: 'top-first' });
    vm.call('0x0::w::wide', { tracer: recorder, gasBudget: 1_000_000 });
    const text = recorder.toJsonLines();
    expect(text).toContain(`{"type":"U256","value":${JSON.stringify(LE_258)}}`);
    expect(text).toContain(`{"type":"U256","value":${JSON.stringify(LE_MAX)}}`);
    expect(text).toContain(`{"type":"U256","value":${JSON.stringify(LE_265)}}`);
    expect(text).toContain('{"type":"U128","value":7}');
    expect(text).not.toMatch(/"type":"U256","value":\d/);
  }, 120_000);
});

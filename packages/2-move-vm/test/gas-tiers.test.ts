/**
 * Instruction tiers of Sui's gas schedule (`initial_cost_schedule_v5`, gas model 8+):
 * every instruction costs one more unit per tier step once more than 20,000 / 50,000 /
 * 100,000 / 200,000 instructions ran in the transaction (multipliers 2, 10, 50, 100), and
 * the count is per transaction, so a call sharing a meter with earlier calls pays more.
 */
import { beforeAll, expect, it } from 'vitest';
import { type CallResult, MoveVM, staticGasSchedule } from '@smi/move-vm';
import { describeWithFixtures } from '../../../test-support/fixtures.js';
import { compileDemo, type CompiledPackage } from './support/compile.js';
import { framework, val } from './support/golden.js';

const SOURCE = `
module demo::spin;
public fun spin(n: u64): u64 {
    let mut i = 0;
    while (i < n) { i = i + 1; };
    i
}
`;

function gasOf(r: CallResult): number {
  expect(r.$kind).toBe('Success');
  return r.gasUsed;
}

describeWithFixtures('instruction tiers', ['fixtures', 'framework'], () => {
  let compiled: CompiledPackage;
  beforeAll(async () => {
    compiled = await compileDemo({ 'spin.move': SOURCE });
  });

  it('below 20,000 instructions cost is linear; beyond, each tier multiplies the instruction part', () => {
    const tiered = MoveVM.create({ packages: [...framework(), compiled.pkg], gas: staticGasSchedule(14) });
    const flat = MoveVM.create({ packages: [...framework(), compiled.pkg], gas: { ...staticGasSchedule(14), instructionTiers: undefined } });
    const run = (vm: MoveVM, n: bigint): number => gasOf(vm.call('0x0::spin::spin', { args: [val(n)] }));
    // Small loops: identical.
    expect(run(tiered, 100n)).toBe(run(flat, 100n));
    // Past 20,000 instructions (below 50,000) each instruction costs exactly one more.
    const meter = { instructions: 0 };
    const tieredGas = gasOf(tiered.call('0x0::spin::spin', { args: [val(4_000n)], meter }));
    const n = meter.instructions;
    expect(n).toBeGreaterThan(20_000);
    expect(n).toBeLessThan(50_000);
    expect(tieredGas - run(flat, 4_000n)).toBe(n - 20_000);
    // Past 50,000 the multiplier is 10: nine more per instruction.
    const meter2 = { instructions: 0 };
    const g2 = gasOf(tiered.call('0x0::spin::spin', { args: [val(9_000n)], meter: meter2 }));
    const n2 = meter2.instructions;
    expect(n2).toBeGreaterThan(50_000);
    expect(n2).toBeLessThan(100_000);
    expect(g2 - run(flat, 9_000n)).toBe(30_000 + 9 * (n2 - 50_000));
  });

  it('the count is per transaction: a shared meter makes the second call dearer', () => {
    const vm = MoveVM.create({ packages: [...framework(), compiled.pkg], gas: staticGasSchedule(14) });
    const meter = { instructions: 0 };
    const first = gasOf(vm.call('0x0::spin::spin', { args: [val(3_000n)], meter }));
    expect(meter.instructions).toBeGreaterThan(20_000);
    const second = gasOf(vm.call('0x0::spin::spin', { args: [val(3_000n)], meter }));
    const alone = gasOf(vm.call('0x0::spin::spin', { args: [val(3_000n)] }));
    expect(first).toBe(alone);
    expect(second).toBeGreaterThan(alone);
  });
});

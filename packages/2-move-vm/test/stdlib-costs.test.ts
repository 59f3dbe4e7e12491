/**
 * The move-stdlib natives' cost parameters come from the protocol config (0 before the keys
 * existed, protocol 53), and natives charge them: a direct native call costs what its
 * formula says on top of the call.
 */
import { expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { loadProtocolConfig } from '../src/config/protocol-config.js';
import { type CallArg, MoveVM, MoveVector, PROTOCOL_135_STDLIB_COSTS, stdlibNativeCosts, ZERO_STDLIB_COSTS } from '../src/index.js';
import { framework } from './support/golden.js';

describeWithFixtures('move-stdlib native costs', ['fixtures', 'protocol-config'], () => {
  it('reads every parameter from the protocol config, with the VM its execution version runs', () => {
    expect(stdlibNativeCosts(loadProtocolConfig(FIXTURES_ROOT, 135))).toEqual(PROTOCOL_135_STDLIB_COSTS);
    const v85 = stdlibNativeCosts(loadProtocolConfig(FIXTURES_ROOT, 85));
    expect(v85.latestVm).toBe(false);
    expect(v85.stringCheckUtf8Base).toBe(52);
    expect(v85.typeNameIdBase).toBe(null);
    // Before protocol 53 the parameters did not exist: the natives were free.
    const v52 = stdlibNativeCosts(loadProtocolConfig(FIXTURES_ROOT, 52));
    expect({ ...v52, latestVm: true, typeNameIdBase: 0 }).toEqual(ZERO_STDLIB_COSTS);
  });

  it('charges them: check_utf8 costs base + per byte over a free VM, index_of charges the haystack (current VM) or the prefix (old VM)', () => {
    const [std] = framework();
    const bytes = (s: string): CallArg => ({ $kind: 'Value', value: MoveVector.fromBytes(new TextEncoder().encode(s)) });
    const gas = (vm: MoveVM, fn: string, args: CallArg[]): number => {
      const r = vm.call(`0x1::string::${fn}`, { allowPrivate: true, args });
      if (r.$kind !== 'Success') throw new Error(`${fn}: ${r.$kind}`);
      return r.gasUsed;
    };
    const paid = MoveVM.create({ packages: [std] });
    const free = MoveVM.create({ packages: [std], stdlibCosts: ZERO_STDLIB_COSTS });
    const old = MoveVM.create({ packages: [std], stdlibCosts: { ...PROTOCOL_135_STDLIB_COSTS, latestVm: false } });
    expect(gas(paid, 'internal_check_utf8', [bytes('héllo')]) - gas(free, 'internal_check_utf8', [bytes('héllo')])).toBe(52 + 2 * 6);
    const args = [bytes('abcdefgh'), bytes('cd')];
    expect(gas(paid, 'internal_index_of', args) - gas(free, 'internal_index_of', args)).toBe(52 + 2 * 2 + 2 * 8);
    expect(gas(old, 'internal_index_of', args) - gas(free, 'internal_index_of', args)).toBe(52 + 2 * 2 + 2 * 2);
  });
});

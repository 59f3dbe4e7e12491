/**
 * Calls to the `0x1::vector` natives (what older compilers emitted; today's compiler emits
 * the vector bytecodes) are inlined by the translator but charged as upstream charges a
 * native call: the call, one more instruction, `vector_*_base_cost` from the protocol
 * config (and `push_back`'s per-unit charge), the native-call count that past 700 calls
 * turns native costs into instructions, and the returned value. Fast mode (per block) and
 * slow mode (per instruction, under a tracer) must agree at every budget.
 */
import { beforeAll, expect, it } from 'vitest';
import { loadBundleFile, type MovePackage, packageFromBytes } from '@smi/bytecode';
import { compileIrModule } from '@smi/move-ir';
import { type CallArg, type CallResult, loadProtocolConfig, MoveVM, type ProtocolConfig, staticGasSchedule, type Tracer, ZERO_STDLIB_COSTS } from '@smi/move-vm';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

const SOURCE = `mvir 0x42::V {
    import 0x1::vector;

    public fun fill_drain(n: u64): u64 {
        let v: vector<u64>;
        let i: u64;
        let s: u64;
    label b0:
        v = vector::empty<u64>();
        i = 0;
    label fill:
        jump_if_false (copy(i) < copy(n)) filled;
        vector::push_back<u64>(&mut v, copy(i));
        i = move(i) + 1;
        jump fill;
    label filled:
        vector::swap<u64>(&mut v, 0, 1);
        s = *vector::borrow<u64>(&v, 0);
    label drain:
        jump_if (vector::length<u64>(&v) == 0) done;
        s = move(s) + vector::pop_back<u64>(&mut v);
        jump drain;
    label done:
        vector::destroy_empty<u64>(move(v));
        return move(s);
    }

    public fun pop_empty(): u64 {
        let v: vector<u64>;
    label b0:
        v = vector::empty<u64>();
        return vector::pop_back<u64>(&mut v);
    }

    public fun borrow_out(n: u64): u64 {
        let v: vector<u64>;
    label b0:
        v = vector::empty<u64>();
        vector::push_back<u64>(&mut v, 7);
        return *vector::borrow<u64>(&v, move(n));
    }
}`;

const noTracer: Tracer = { openFrame() {}, beforeInstruction() {}, afterInstruction() {}, closeFrame() {}, error() {} };

function outcome(r: CallResult): unknown {
  if (r.$kind === 'Success') return { kind: r.$kind, gas: r.gasUsed, values: r.returnValues.map((v) => Array.from(v.bcs)) };
  if (r.$kind === 'Aborted') return { kind: r.$kind, gas: r.gasUsed, code: String(r.abortCode), location: r.location };
  return { kind: r.$kind, gas: r.gasUsed, code: r.code, location: r.location };
}

const u64 = (n: number): CallArg => ({ $kind: 'Value', value: BigInt(n) });

describeWithFixtures('inlined vector natives are charged as native calls', ['fixtures', 'framework'], () => {
  let stdlib: MovePackage;
  let pkg: MovePackage;
  let cfg: ProtocolConfig;
  let vm: MoveVM;
  const run = (name: string, args: CallArg[], slow: boolean, gasBudget?: number, on = vm): Record<string, unknown> =>
    outcome(on.call(`0x42::V::${name}`, { args, gasBudget, ...(slow ? { tracer: noTracer } : {}) })) as Record<string, unknown>;

  beforeAll(() => {
    stdlib = loadBundleFile(fixturePath('fixtures', 'framework', 'move-stdlib'));
    const vector = stdlib.modules.find((m) => m.name === 'vector')?.module;
    if (vector === undefined) throw new Error('no 0x1::vector in the stdlib bundle');
    pkg = packageFromBytes([compileIrModule(SOURCE, { dependencies: [vector] }).bytes]);
    cfg = loadProtocolConfig(fixturePath(), 135);
    vm = MoveVM.create({ packages: [stdlib, pkg], protocolConfig: cfg });
  });

  it('charges vector_*_base_cost per call, from the protocol config', () => {
    const free = MoveVM.create({ packages: [stdlib, pkg], protocolConfig: cfg, stdlibCosts: ZERO_STDLIB_COSTS });
    const n = 10;
    const paid = run('fill_drain', [u64(n)], false) as { gas: number; values: unknown };
    const unpaid = run('fill_drain', [u64(n)], false, undefined, free) as { gas: number; values: unknown };
    expect(paid.values).toEqual(unpaid.values);
    // empty, n push_back (52 + 2 × 8 per u64 element), swap, borrow, n + 1 length, n pop_back, destroy_empty.
    const calls = 1 + n + 1 + 1 + (n + 1) + n + 1;
    expect(cfg.int('vector_length_base_cost')).toBe(52);
    expect(paid.gas - unpaid.gas).toBe(52 * calls + 2 * 8 * n);
  });

  it('gives the same outcome and gas in fast and slow mode, at every budget', () => {
    const cases: [string, CallArg[]][] = [
      ['fill_drain', [u64(12)]],
      ['pop_empty', []],
      ['borrow_out', [u64(0)]],
      ['borrow_out', [u64(3)]],
    ];
    const kinds = new Set<string>();
    let budgets = 0;
    for (const [name, args] of cases) {
      const full = run(name, args, false) as { gas: number; kind: string; code?: string };
      expect(full, name).toEqual(run(name, args, true));
      kinds.add(`${full.kind}:${full.code ?? ''}`);
      for (let budget = 0; budget <= full.gas + 1; budget += 1 + Math.floor(budget / 200)) {
        expect(run(name, args, false, budget), `${name} with ${budget}`).toEqual(run(name, args, true, budget));
        budgets++;
      }
    }
    // Out of gas inside a native uses the whole budget, as anywhere else.
    const full = run('fill_drain', [u64(12)], false) as { gas: number };
    for (let budget = full.gas - 60; budget < full.gas; budget++) {
      const r = run('fill_drain', [u64(12)], false, budget) as { kind: string; code?: string; gas: number };
      expect(r.code, `budget ${budget}`).toBe('OUT_OF_GAS');
      expect(r.gas).toBe(budget);
    }
    // A vector native aborts with its error code (index out of bounds: 1, pop from an empty vector: 2).
    expect([...kinds].sort()).toEqual(['Aborted:1', 'Aborted:2', 'Success:']);
    expect(budgets).toBeGreaterThan(500);
  });

  it('past 700 native calls counts their costs as instructions (they then pay the instruction tier)', () => {
    const meter = { instructions: 0, stackSize: 0, nativeCalls: 0 };
    const r = vm.call('0x42::V::fill_drain', { args: [u64(400)], meter });
    expect(r.$kind).toBe('Success');
    // empty, 400 push_back, swap, borrow, then 401 length and 400 pop_back alternating, destroy_empty.
    expect(meter.nativeCalls).toBe(1 + 400 + 1 + 1 + 401 + 400 + 1);
    const never = MoveVM.create({ packages: [stdlib, pkg], protocolConfig: cfg, gas: { ...staticGasSchedule(cfg.int('gas_model_version')), nativeCallThreshold: undefined } });
    const plain = { instructions: 0, stackSize: 0, nativeCalls: 0 };
    never.call('0x42::V::fill_drain', { args: [u64(400)], meter: plain });
    // Calls 701 to 1,205 (lengths, pops and the final destroy_empty) each add their 52.
    expect(meter.instructions - plain.instructions).toBe(52 * (meter.nativeCalls - 700));
    expect(run('fill_drain', [u64(400)], false)).toEqual(run('fill_drain', [u64(400)], true));
  });
});

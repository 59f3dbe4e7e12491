/**
 * Test-mode builds (`sui move test`): the compiler keeps `#[test_only]` and `#[test]` items
 * and adds to every module a `unit_test_poison` function calling `std::unit_test::poison`,
 * so that a test build can never be published. `std::unit_test` is itself `#[test_only]`:
 * no published stdlib has it, so a test-mode build against published bytecode gets it
 * (`unitTestModule` of `@smi/bytecode`).
 */
import { canonicalAddress, unitTestModule } from '@smi/bytecode';
import type { BytecodeDependency } from './dependencies.js';

const STD = canonicalAddress('0x1');

/** `deps` with `std::unit_test` added to the stdlib (0x1) when it lacks it. */
export function withUnitTest(deps: readonly BytecodeDependency[]): BytecodeDependency[] {
  return deps.map((d) => {
    if (canonicalAddress(d.address) !== STD) return d;
    const has = d.modules.some((m) => m.identifiers[m.moduleHandles[m.selfModuleHandleIndex].name] === 'unit_test');
    return has ? d : { ...d, modules: [...d.modules, unitTestModule()] };
  });
}

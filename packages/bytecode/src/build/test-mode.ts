/**
 * Test-mode builds (`sui move test`): the compiler keeps `#[test_only]` and `#[test]` items
 * and adds to every module a `unit_test_poison` function calling `std::unit_test::poison`,
 * so that a test build can never be published. `std::unit_test` is itself `#[test_only]`:
 * no published stdlib has it, so a test-mode build against published bytecode gets it here.
 */
import type { CompiledModule } from '../file-format.js';
import { canonicalAddress } from '../module-access.js';
import type { BytecodeDependency } from './dependencies.js';

const STD = canonicalAddress('0x1');

/** `std::unit_test` as declared upstream: `public native fun poison()` and `create_signers_for_testing`. */
export function unitTestModule(): CompiledModule {
  return {
    version: 6,
    publishable: true,
    selfModuleHandleIndex: 0,
    moduleHandles: [{ address: 0, name: 0 }],
    datatypeHandles: [],
    functionHandles: [
      { module: 0, name: 1, parameters: 0, return: 0, typeParameters: [] },
      { module: 0, name: 2, parameters: 1, return: 2, typeParameters: [] },
    ],
    fieldHandles: [],
    friendDecls: [],
    structDefInstantiations: [],
    functionInstantiations: [],
    fieldInstantiations: [],
    signatures: [[], [{ $kind: 'U64' }], [{ $kind: 'Vector', type: { $kind: 'Signer' } }]],
    identifiers: ['unit_test', 'poison', 'create_signers_for_testing'],
    addressIdentifiers: [STD],
    constantPool: [],
    metadata: [],
    structDefs: [],
    functionDefs: [
      { function: 0, visibility: 'Public', isEntry: false, acquiresGlobalResources: [], code: null },
      { function: 1, visibility: 'Public', isEntry: false, acquiresGlobalResources: [], code: null },
    ],
    enumDefs: [],
    enumDefInstantiations: [],
    variantHandles: [],
    variantInstantiationHandles: [],
  };
}

/** `deps` with `std::unit_test` added to the stdlib (0x1) when it lacks it. */
export function withUnitTest(deps: readonly BytecodeDependency[]): BytecodeDependency[] {
  return deps.map((d) => {
    if (canonicalAddress(d.address) !== STD) return d;
    const has = d.modules.some((m) => m.identifiers[m.moduleHandles[m.selfModuleHandleIndex].name] === 'unit_test');
    return has ? d : { ...d, modules: [...d.modules, unitTestModule()] };
  });
}

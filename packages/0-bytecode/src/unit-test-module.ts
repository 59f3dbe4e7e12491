/**
 * `std::unit_test`, the test-only stdlib module: no published stdlib has it (it is
 * `#[test_only]`), so a test-mode build against published bytecode, and a trace that links
 * against it, get it here.
 */
import type { CompiledModule } from './file-format.js';
import { canonicalAddress } from './module-access.js';

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

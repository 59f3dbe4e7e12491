/**
 * Private generics pass, second version (upstream `private_generics_verifier_v2`, protocol
 * `private_generics_verifier_v2`): a table of framework functions says which of their type
 * parameters are internal (must be instantiated with a type of the calling module), e.g.
 * `std::internal::permit`, `sui::event::emit`, `sui::transfer::transfer`; every public
 * function of `sui::event` and `sui::transfer` must be in the table. `sui::test_scenario`
 * is exempt.
 */
import { formatToken } from '@smi/bytecode';
import type { CompiledModule, FunctionDefinition, SignatureToken } from '@smi/bytecode';
import type { ExecutionFailure } from '../errors.js';
import { addressDisplay, invariantViolation, moduleIdDisplay, selfAddress, selfName, STD_ADDRESS, SUI_ADDRESS, TEST_SCENARIO_MODULE_NAME, verificationFailure } from './common.js';
import { isDefinedInCurrentModule } from './private-generics.js';

/** `address::module::function` → for each type parameter, whether it is internal. */
const FUNCTIONS_TO_CHECK: ReadonlyMap<string, readonly boolean[]> = new Map<string, readonly boolean[]>([
  [`${STD_ADDRESS}::internal::permit`, [true]],
  [`${SUI_ADDRESS}::event::emit`, [true]],
  [`${SUI_ADDRESS}::event::emit_authenticated`, [true]],
  [`${SUI_ADDRESS}::event::num_events`, []],
  [`${SUI_ADDRESS}::event::events_by_type`, [false]],
  [`${SUI_ADDRESS}::transfer::public_transfer`, [false]],
  [`${SUI_ADDRESS}::transfer::public_freeze_object`, [false]],
  [`${SUI_ADDRESS}::transfer::public_share_object`, [false]],
  [`${SUI_ADDRESS}::transfer::public_receive`, [false]],
  [`${SUI_ADDRESS}::transfer::receiving_object_id`, [false]],
  [`${SUI_ADDRESS}::transfer::public_party_transfer`, [false]],
  [`${SUI_ADDRESS}::transfer::transfer`, [true]],
  [`${SUI_ADDRESS}::transfer::freeze_object`, [true]],
  [`${SUI_ADDRESS}::transfer::share_object`, [true]],
  [`${SUI_ADDRESS}::transfer::receive`, [true]],
  [`${SUI_ADDRESS}::transfer::party_transfer`, [true]],
  [`${SUI_ADDRESS}::coin_registry::new_currency`, [true]],
]);

/** Modules every public function of which must be in {@link FUNCTIONS_TO_CHECK}. */
const EXHAUSTIVE_MODULES = [`${SUI_ADDRESS}::event`, `${SUI_ADDRESS}::transfer`];

export function verifyPrivateGenericsV2(m: CompiledModule): void {
  const address = selfAddress(m);
  const name = selfName(m);
  if (address === SUI_ADDRESS && name === TEST_SCENARIO_MODULE_NAME) return;
  const id = moduleIdDisplay(m);
  if (EXHAUSTIVE_MODULES.includes(`${address}::${name}`)) {
    for (const fdef of m.functionDefs) {
      if (fdef.visibility !== 'Public') continue;
      const fname = m.identifiers[m.functionHandles[fdef.function].name];
      if (!FUNCTIONS_TO_CHECK.has(`${address}::${name}::${fname}`)) {
        throw invariantViolation(`Unknown function '${id}::${fname}'. All functions in '${id}' must be listed in FUNCTIONS_TO_CHECK`);
      }
    }
  }
  for (const fdef of m.functionDefs) {
    const failure = verifyFunction(m, fdef);
    if (failure !== undefined) throw failure;
  }
}

function verifyFunction(m: CompiledModule, fdef: FunctionDefinition): ExecutionFailure | undefined {
  if (fdef.code === null) return undefined;
  const prefix = (): string => `${moduleIdDisplay(m)}::${m.identifiers[m.functionHandles[fdef.function].name]}. `;
  for (const instr of fdef.code.code) {
    let handle: number;
    let typeArgs: readonly SignatureToken[];
    if (instr.$kind === 'Call') {
      handle = instr.index;
      typeArgs = [];
    } else if (instr.$kind === 'CallGeneric') {
      const inst = m.functionInstantiations[instr.index];
      handle = inst.handle;
      typeArgs = m.signatures[inst.typeParameters];
    } else continue;
    const fhandle = m.functionHandles[handle];
    const mh = m.moduleHandles[fhandle.module];
    const callee = { address: m.addressIdentifiers[mh.address], module: m.identifiers[mh.name], fn: m.identifiers[fhandle.name] };
    const flags = FUNCTIONS_TO_CHECK.get(`${callee.address}::${callee.module}::${callee.fn}`);
    if (flags === undefined) continue;
    if (typeArgs.length !== flags.length) {
      return invariantViolation(`${prefix()}'${addressDisplay(callee.address)}::${callee.module}::${callee.fn}' expects ${flags.length} type arguments found ${typeArgs.length}`);
    }
    for (let i = 0; i < flags.length; i++) {
      if (!flags[i] || isDefinedInCurrentModule(m, typeArgs[i])) continue;
      const pkg = callee.address === SUI_ADDRESS ? 'sui' : callee.address === STD_ADDRESS ? 'std' : addressDisplay(callee.address);
      const help = callee.address === SUI_ADDRESS && callee.module === 'transfer' ? ` If the type has the 'store' ability, use the public variant instead: 'sui::transfer::public_${callee.fn}'.` : '';
      return verificationFailure(
        `${prefix()}Invalid call to '${pkg}::${callee.module}::${callee.fn}'. Type argument #${i} must be a type defined in the current module, found '${formatToken(m, typeArgs[i])}'.${help}`,
      );
    }
  }
  return undefined;
}

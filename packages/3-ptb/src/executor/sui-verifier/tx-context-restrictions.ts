/**
 * `TxContext` restrictions pass (upstream `tx_context_restrictions_verifier`), for system
 * packages only and when `framework_tx_context_mut_restrictions` is on: a function taking
 * `&mut TxContext` and returning a `&mut _` must also take a `&mut U` of another type, so
 * no returned mutable reference can be rooted in the transaction context.
 */
import type { CompiledModule, FunctionDefinition } from '@smi/bytecode';
import { moduleIdDisplay, selfAddress, SYSTEM_PACKAGE_ADDRESSES, txContextKind, verificationFailure } from './common.js';
import type { SuiVerifierConfig } from './config.js';

const MESSAGE =
  'Function takes `&mut TxContext` and returns a mutable reference, but has no non-`TxContext` `&mut U` parameter. ' +
  '`TxContext` cannot serve as the mutable root for a returned reference; add a mutable reference parameter of another type or return by value.';

export function verifyTxContextRestrictions(m: CompiledModule, config: SuiVerifierConfig): void {
  if (!config.frameworkTxContextMutRestrictions) return;
  if (!SYSTEM_PACKAGE_ADDRESSES.includes(selfAddress(m))) return;
  for (const fdef of m.functionDefs) {
    if (violates(m, fdef)) {
      const name = m.identifiers[m.functionHandles[fdef.function].name];
      throw verificationFailure(`${moduleIdDisplay(m)}::${name}. ${MESSAGE}`);
    }
  }
}

function violates(m: CompiledModule, fdef: FunctionDefinition): boolean {
  const fhandle = m.functionHandles[fdef.function];
  if (!m.signatures[fhandle.return].some((t) => t.$kind === 'MutableReference')) return false;
  const muts = m.signatures[fhandle.parameters].filter((t) => t.$kind === 'MutableReference');
  const ctx = muts.filter((t) => txContextKind(m, t) === 'Mutable').length;
  return ctx > 0 && ctx === muts.length;
}

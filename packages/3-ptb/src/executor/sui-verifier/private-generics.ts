/**
 * Private generics pass, first version (upstream `private_generics`): `sui::transfer`'s
 * internal functions (`transfer`, `share_object`, ...), `sui::event::emit*` and
 * `sui::coin_registry::new_currency` may only be instantiated with a type defined in the
 * calling module. `sui::test_scenario` is exempt.
 */
import { formatToken } from '@smi/bytecode';
import type { CompiledModule, FunctionDefinition, SignatureToken } from '@smi/bytecode';
import { addressDisplay, moduleIdDisplay, selfAddress, selfName, SUI_ADDRESS, TEST_SCENARIO_MODULE_NAME, verificationFailure } from './common.js';
import type { SuiVerifierConfig } from './config.js';

const PUBLIC_TRANSFER_FUNCTIONS = ['public_transfer', 'public_freeze_object', 'public_share_object', 'public_receive', 'receiving_object_id', 'public_party_transfer'];
const PRIVATE_TRANSFER_FUNCTIONS = ['transfer', 'freeze_object', 'share_object', 'receive', 'party_transfer'];
const PRIVATE_EVENT_FUNCTIONS = ['emit', 'emit_authenticated'];

export function verifyPrivateGenerics(m: CompiledModule, config: SuiVerifierConfig): void {
  if (selfAddress(m) === SUI_ADDRESS && selfName(m) === TEST_SCENARIO_MODULE_NAME) return;
  for (const fdef of m.functionDefs) {
    const error = verifyFunction(m, fdef, config.allowReceivingObjectId);
    if (error !== undefined) {
      const name = m.identifiers[m.functionHandles[fdef.function].name];
      throw verificationFailure(`${moduleIdDisplay(m)}::${name}. ${error}`);
    }
  }
}

function verifyFunction(m: CompiledModule, fdef: FunctionDefinition, allowReceivingObjectId: boolean): string | undefined {
  if (fdef.code === null) return undefined;
  for (const instr of fdef.code.code) {
    if (instr.$kind !== 'CallGeneric') continue;
    const inst = m.functionInstantiations[instr.index];
    const fhandle = m.functionHandles[inst.handle];
    const mh = m.moduleHandles[fhandle.module];
    if (m.addressIdentifiers[mh.address] !== SUI_ADDRESS) continue;
    const calleeModule = m.identifiers[mh.name];
    const fname = m.identifiers[fhandle.name];
    const typeArgs = m.signatures[inst.typeParameters];
    let error: string | undefined;
    if (calleeModule === 'transfer') error = verifyPrivateTransfer(m, fname, typeArgs, allowReceivingObjectId);
    else if (calleeModule === 'event') error = verifyPrivateEventEmit(m, fname, typeArgs);
    else if (calleeModule === 'coin_registry') error = verifyDynamicCoinCreation(m, fname, typeArgs);
    if (error !== undefined) return error;
  }
  return undefined;
}

function verifyPrivateTransfer(m: CompiledModule, fname: string, typeArgs: readonly SignatureToken[], allowReceivingObjectId: boolean): string | undefined {
  // Before protocol 33, `receiving_object_id` was not public.
  const publicFunctions = allowReceivingObjectId ? PUBLIC_TRANSFER_FUNCTIONS : PUBLIC_TRANSFER_FUNCTIONS.slice(0, 4);
  if (selfAddress(m) === SUI_ADDRESS && selfName(m) === 'transfer') return undefined;
  if (publicFunctions.includes(fname)) return undefined;
  if (!PRIVATE_TRANSFER_FUNCTIONS.includes(fname)) return `Calling unknown transfer function, ${fname}`;
  if (typeArgs.length !== 1) return `Expected 1 type argument for ${fname}`;
  if (isDefinedInCurrentModule(m, typeArgs[0])) return undefined;
  const sui = addressDisplay(SUI_ADDRESS);
  return (
    `Invalid call to '${sui}::transfer::${fname}' on an object of type '${formatToken(m, typeArgs[0])}'. ` +
    "The transferred object's type must be defined in the current module. " +
    `If the object has the 'store' type ability, you can use the non-internal variant instead, i.e. '${sui}::transfer::public_${fname}'`
  );
}

function verifyPrivateEventEmit(m: CompiledModule, fname: string, typeArgs: readonly SignatureToken[]): string | undefined {
  if (fname === 'events_by_type') return undefined;
  if (fname === 'emit_authenticated_impl') {
    if (selfAddress(m) === SUI_ADDRESS && selfName(m) === 'event') return undefined;
    return 'Calling emit_authenticated_impl outside of event which is impossible';
  }
  if (!PRIVATE_EVENT_FUNCTIONS.includes(fname)) return `Calling unknown event function, ${fname}`;
  if (typeArgs.length !== 1) return `Expected 1 type argument for ${fname}`;
  if (isDefinedInCurrentModule(m, typeArgs[0])) return undefined;
  return `Invalid call to '${addressDisplay(SUI_ADDRESS)}::event::${fname}' with an event type '${formatToken(m, typeArgs[0])}'. ` + "The event's type must be defined in the current module";
}

function verifyDynamicCoinCreation(m: CompiledModule, fname: string, typeArgs: readonly SignatureToken[]): string | undefined {
  if (fname !== 'new_currency') return undefined;
  if (typeArgs.length !== 1) return `Expected 1 type argument for ${fname}`;
  if (isDefinedInCurrentModule(m, typeArgs[0])) return undefined;
  return `Invalid call to '${addressDisplay(SUI_ADDRESS)}::coin_registry::${fname}' with type '${formatToken(m, typeArgs[0])}'. ` + "The coin's type must be defined in the current module";
}

/** A datatype (instantiated or not) declared by the module itself. */
export function isDefinedInCurrentModule(m: CompiledModule, t: SignatureToken): boolean {
  if (t.$kind !== 'Datatype' && t.$kind !== 'DatatypeInstantiation') return false;
  return m.datatypeHandles[t.index].module === m.selfModuleHandleIndex;
}

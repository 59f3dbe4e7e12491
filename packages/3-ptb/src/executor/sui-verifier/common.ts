/**
 * Shared pieces of Sui's own verifier passes: failures, names as upstream prints them,
 * and the type questions the passes ask of a signature token (which struct it is, its
 * abilities, `&mut TxContext`, ...).
 */
import { BRIDGE_ADDRESS, type CompiledModule, type SignatureToken, STD_ADDRESS, SUI_ADDRESS, SUI_SYSTEM_ADDRESS, addressOfNumber } from '@smi/bytecode';
import { type ExecutionFailure, simpleFailure } from '../errors.js';
export { BRIDGE_ADDRESS, STD_ADDRESS, SUI_ADDRESS, SUI_SYSTEM_ADDRESS } from '@smi/bytecode';

const DEEPBOOK_ADDRESS = addressOfNumber(0xdee9);

/** Upstream `SYSTEM_PACKAGE_ADDRESSES`. */
export const SYSTEM_PACKAGE_ADDRESSES: readonly string[] = [STD_ADDRESS, SUI_ADDRESS, SUI_SYSTEM_ADDRESS, BRIDGE_ADDRESS, DEEPBOOK_ADDRESS];

/** The `init` function's name. */
export const INIT_FN_NAME = 'init';
/** `sui::test_scenario`, exempt from the private generics rules. */
export const TEST_SCENARIO_MODULE_NAME = 'test_scenario';

/** A `SuiMoveVerificationError` carrying upstream's message. */
export function verificationFailure(message: string): ExecutionFailure {
  return simpleFailure('SuiMoveVerificationError', message);
}

/** An `InvariantViolation` (upstream `make_invariant_violation!`). */
export function invariantViolation(message: string): ExecutionFailure {
  return simpleFailure('InvariantViolation', message);
}

/** An address as upstream's `AccountAddress` Display prints it: 64 hex digits, no `0x`. */
export function addressDisplay(address: string): string {
  return address.startsWith('0x') ? address.slice(2) : address;
}

/** The module's own address (`0x` + 64 hex digits). */
export function selfAddress(m: CompiledModule): string {
  return m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex].address];
}

/** The module's own name. */
export function selfName(m: CompiledModule): string {
  return m.identifiers[m.moduleHandles[m.selfModuleHandleIndex].name];
}

/** Upstream `ModuleId` Display: `<64 hex digits>::<name>`. */
export function moduleIdDisplay(m: CompiledModule): string {
  return `${addressDisplay(selfAddress(m))}::${selfName(m)}`;
}

/** Address, module and name of a datatype handle (upstream `resolve_struct`). */
export interface ResolvedDatatype {
  address: string;
  module: string;
  name: string;
}

export function resolveDatatype(m: CompiledModule, index: number): ResolvedDatatype {
  const h = m.datatypeHandles[index];
  const mh = m.moduleHandles[h.module];
  return { address: m.addressIdentifiers[mh.address], module: m.identifiers[mh.name], name: m.identifiers[h.name] };
}

/** `true` when datatype handle `index` is `address::module::name`. */
export function isDatatype(m: CompiledModule, index: number, address: string, module: string, name: string): boolean {
  const r = resolveDatatype(m, index);
  return r.address === address && r.module === module && r.name === name;
}

/** Upstream `Debug` of a `SignatureToken` (`Vector(U8)`, `Struct(DatatypeHandleIndex(3))`, ...). */
export function debugToken(t: SignatureToken): string {
  switch (t.$kind) {
    case 'Vector':
      return `Vector(${debugToken(t.type)})`;
    case 'Reference':
      return `Reference(${debugToken(t.type)})`;
    case 'MutableReference':
      return `MutableReference(${debugToken(t.type)})`;
    case 'Datatype':
      return `Struct(DatatypeHandleIndex(${t.index}))`;
    case 'DatatypeInstantiation':
      return `StructInstantiation(DatatypeHandleIndex(${t.index}), [${t.typeArguments.map(debugToken).join(', ')}])`;
    case 'TypeParameter':
      return `TypeParameter(${t.index})`;
    default:
      return t.$kind;
  }
}

/** Upstream `TxContextKind`. */
export type TxContextKind = 'None' | 'Mutable' | 'Immutable';

/** Upstream `TxContext::kind`: `&mut TxContext`, `&TxContext` or neither. */
export function txContextKind(m: CompiledModule, t: SignatureToken): TxContextKind {
  if (t.$kind !== 'MutableReference' && t.$kind !== 'Reference') return 'None';
  const inner = t.type;
  if (inner.$kind !== 'Datatype') return 'None';
  if (!isDatatype(m, inner.index, SUI_ADDRESS, 'tx_context', 'TxContext')) return 'None';
  return t.$kind === 'MutableReference' ? 'Mutable' : 'Immutable';
}

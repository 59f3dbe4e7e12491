/**
 * Entry points pass (upstream `entry_points_verifier`).
 *
 * - No function calls a function named `init`.
 * - `init` is private, not `entry`, not generic, returns nothing, and takes one or two
 *   parameters, the last a `&mut TxContext` or `&TxContext` (the optional first one, the
 *   one-time witness, is the one-time witness pass's business).
 * - Unless `disable_entry_point_signature_check`: an `entry` function takes primitives,
 *   objects, vectors of objects or `Receiving<T>` (a trailing `TxContext` aside), never a
 *   `&mut Clock` (nor a `&mut Random` when `reject_mutable_random_on_entry_functions`), and
 *   returns only non-reference values with `drop`.
 */
import { abilitiesOf, Ability, type AbilitySet, type CompiledModule, type FunctionDefinition, type SignatureToken, formatToken, errorMessage } from '@smi/bytecode';
import { addressDisplay, INIT_FN_NAME, isDatatype, moduleIdDisplay, STD_ADDRESS, SUI_ADDRESS, txContextKind, verificationFailure } from './common.js';
import type { SuiVerifierConfig } from './config.js';

export function verifyEntryPoints(m: CompiledModule, config: SuiVerifierConfig): void {
  for (const fdef of m.functionDefs) {
    const name = m.identifiers[m.functionHandles[fdef.function].name];
    // Test functions (allowed to call `init`) never exist in a published module.
    verifyInitNotCalled(m, fdef);
    if (name === INIT_FN_NAME) {
      verifyInitFunction(m, fdef);
      continue;
    }
    if (!fdef.isEntry || config.disableEntryPointSignatureCheck) continue;
    verifyEntryFunction(m, fdef, config);
  }
}

function verifyInitNotCalled(m: CompiledModule, fdef: FunctionDefinition): void {
  if (fdef.code === null) return;
  fdef.code.code.forEach((instr, offset) => {
    let handle: number;
    if (instr.$kind === 'Call') handle = instr.index;
    else if (instr.$kind === 'CallGeneric') handle = m.functionInstantiations[instr.index].handle;
    else return;
    const callee = m.identifiers[m.functionHandles[handle].name];
    if (callee === INIT_FN_NAME) {
      throw verificationFailure(`${moduleIdDisplay(m)}::${callee} at offset ${offset}. Cannot call a module's '${INIT_FN_NAME}' function from another Move function`);
    }
  });
}

function verifyInitFunction(m: CompiledModule, fdef: FunctionDefinition): void {
  const id = moduleIdDisplay(m);
  if (fdef.visibility !== 'Private') throw verificationFailure(`${id}. '${INIT_FN_NAME}' function must be private`);
  if (fdef.isEntry) throw verificationFailure(`${id}. '${INIT_FN_NAME}' cannot be 'entry'`);
  const fhandle = m.functionHandles[fdef.function];
  if (fhandle.typeParameters.length > 0) throw verificationFailure(`${id}. '${INIT_FN_NAME}' function cannot have type parameters`);
  if (m.signatures[fhandle.return].length > 0) throw verificationFailure(`${id}, '${INIT_FN_NAME}' function cannot have return values`);
  const params = m.signatures[fhandle.parameters];
  if (params.length === 0 || params.length > 2) {
    throw verificationFailure(`Expected at least one and at most two parameters for ${id}::${INIT_FN_NAME}`);
  }
  if (txContextKind(m, params[params.length - 1]) !== 'None') return;
  const sui = addressDisplay(SUI_ADDRESS);
  // Upstream prints the first parameter here, whichever parameter is wrong.
  throw verificationFailure(`Expected last parameter for ${id}::${INIT_FN_NAME} to be &mut ${sui}::tx_context::TxContext or &${sui}::tx_context::TxContext, but found ${formatToken(m, params[0])}`);
}

function verifyEntryFunction(m: CompiledModule, fdef: FunctionDefinition, config: SuiVerifierConfig): void {
  const fhandle = m.functionHandles[fdef.function];
  const params = m.signatures[fhandle.parameters];
  const last = params[params.length - 1];
  const nonCtx = last !== undefined && txContextKind(m, last) !== 'None' ? params.slice(0, -1) : params;
  for (const p of nonCtx) verifyParamType(m, fhandle.typeParameters, p, config);
  for (const r of m.signatures[fhandle.return]) verifyReturnType(m, fhandle.typeParameters, r);
}

function verifyReturnType(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken): void {
  if (t.$kind === 'Reference' || t.$kind === 'MutableReference') {
    throw verificationFailure('Invalid entry point return type. Expected a non reference type.');
  }
  const abilities = abilitiesChecked(m, t, typeParams);
  if ((abilities & Ability.Drop) === 0) {
    throw verificationFailure(`Invalid entry point return type. The specified return type does not have the 'drop' ability: ${formatToken(m, t)}`);
  }
}

function abilitiesChecked(m: CompiledModule, t: SignatureToken, typeParams: readonly AbilitySet[]): AbilitySet {
  try {
    return abilitiesOf(m, typeParams, t);
  } catch (e) {
    throw verificationFailure(`Unexpected CompiledModule error: ${errorMessage(e)}`);
  }
}

/** `&mut S` (through any number of `&mut`) or `S` for struct `0x2::module::name`. */
function isMutableOf(m: CompiledModule, t: SignatureToken, module: string, name: string): boolean {
  if (t.$kind === 'MutableReference') return isMutableOf(m, t.type, module, name);
  return t.$kind === 'Datatype' && isDatatype(m, t.index, SUI_ADDRESS, module, name);
}

function verifyParamType(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken, config: SuiVerifierConfig): void {
  if (isMutableOf(m, t, 'clock', 'Clock')) {
    throw verificationFailure(`Invalid entry point parameter type. Clock must be passed by immutable reference. got: ${formatToken(m, t)}`);
  }
  if (config.rejectMutableRandomOnEntryFunctions && isMutableOf(m, t, 'random', 'Random')) {
    throw verificationFailure(`Invalid entry point parameter type. Random must be passed by immutable reference. got: ${formatToken(m, t)}`);
  }
  if (isPrimitive(m, typeParams, t) || isObject(m, typeParams, t) || isObjectVector(m, typeParams, t) || isReceiving(m, t)) return;
  throw verificationFailure(`Invalid entry point parameter type. Expected primitive or object type. Got: ${formatToken(m, t)}`);
}

/** Upstream `is_primitive`: primitives, `ID`, strings, `Option` and vectors of those. */
function isPrimitive(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken): boolean {
  switch (t.$kind) {
    case 'Bool':
    case 'U8':
    case 'U16':
    case 'U32':
    case 'U64':
    case 'U128':
    case 'U256':
    case 'Address':
      return true;
    case 'TypeParameter':
      // Optimistic: no primitive has `key`.
      return ((typeParams[t.index] ?? 0) & Ability.Key) === 0;
    case 'Datatype':
      return isDatatype(m, t.index, SUI_ADDRESS, 'object', 'ID') || isDatatype(m, t.index, STD_ADDRESS, 'ascii', 'String') || isDatatype(m, t.index, STD_ADDRESS, 'string', 'String');
    case 'DatatypeInstantiation':
      return isDatatype(m, t.index, STD_ADDRESS, 'option', 'Option') && t.typeArguments.length === 1 && isPrimitive(m, typeParams, t.typeArguments[0]);
    case 'Vector':
      return isPrimitive(m, typeParams, t.type);
    default:
      return false;
  }
}

function isObject(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken): boolean {
  if (t.$kind === 'Reference' || t.$kind === 'MutableReference') return isObject(m, typeParams, t.type);
  return isObjectStruct(m, typeParams, t);
}

function isObjectVector(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken): boolean {
  return isObjectStruct(m, typeParams, t.$kind === 'Vector' ? t.type : t);
}

function isObjectStruct(m: CompiledModule, typeParams: readonly AbilitySet[], t: SignatureToken): boolean {
  switch (t.$kind) {
    case 'TypeParameter':
      return ((typeParams[t.index] ?? 0) & Ability.Key) !== 0;
    case 'Datatype':
    case 'DatatypeInstantiation': {
      let abilities: AbilitySet;
      try {
        abilities = abilitiesOf(m, typeParams, t);
      } catch (e) {
        throw verificationFailure(errorMessage(e));
      }
      return (abilities & Ability.Key) !== 0;
    }
    default:
      return false;
  }
}

/** Upstream `Receiving::is_receiving`: `0x2::transfer::Receiving<T>` by value or reference. */
function isReceiving(m: CompiledModule, t: SignatureToken): boolean {
  if (t.$kind === 'Reference' || t.$kind === 'MutableReference') return isReceiving(m, t.type);
  return t.$kind === 'DatatypeInstantiation' && isDatatype(m, t.index, SUI_ADDRESS, 'transfer', 'Receiving') && t.typeArguments.length === 1;
}

/**
 * Objects pass (upstream `struct_with_key_verifier`): a struct with `key` has a first field
 * named `id` of type `0x2::object::UID`, and no enum has `key`.
 */
import { Ability, type CompiledModule } from '@smi/bytecode';
import { addressDisplay, debugToken, resolveDatatype, SUI_ADDRESS, verificationFailure } from './common.js';

export function verifyStructWithKey(m: CompiledModule): void {
  verifyKeyStructs(m);
  verifyNoKeyEnums(m);
}

function verifyKeyStructs(m: CompiledModule): void {
  const sui = addressDisplay(SUI_ADDRESS);
  for (const def of m.structDefs) {
    const handle = m.datatypeHandles[def.structHandle];
    if ((handle.abilities & Ability.Key) === 0) continue;
    const name = m.identifiers[handle.name];
    const first = def.fieldInformation.$kind === 'Declared' ? def.fieldInformation.fields[0] : undefined;
    if (first === undefined) {
      throw verificationFailure(`First field of struct ${name} must be 'id', no field found`);
    }
    const firstName = m.identifiers[first.name];
    if (firstName !== 'id') {
      throw verificationFailure(`First field of struct ${name} must be 'id', ${firstName} found`);
    }
    if (first.type.$kind !== 'Datatype') {
      throw verificationFailure(`First field of struct ${name} must be of type ${sui}::object::UID, ${debugToken(first.type)} type found`);
    }
    const uid = resolveDatatype(m, first.type.index);
    if (uid.name !== 'UID' || uid.address !== SUI_ADDRESS || uid.module !== 'object') {
      throw verificationFailure(`First field of struct ${name} must be of type ${sui}::object::UID, ${addressDisplay(uid.address)}::${uid.module}::${uid.name} type found`);
    }
  }
}

function verifyNoKeyEnums(m: CompiledModule): void {
  for (const def of m.enumDefs) {
    const handle = m.datatypeHandles[def.enumHandle];
    if ((handle.abilities & Ability.Key) !== 0) {
      throw verificationFailure(`Enum ${m.identifiers[handle.name]} cannot have the 'key' ability. Enums cannot have the 'key' ability.`);
    }
  }
}

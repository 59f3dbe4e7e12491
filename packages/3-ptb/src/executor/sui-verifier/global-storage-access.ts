/**
 * Global storage pass (upstream `global_storage_access_verifier`): Sui keeps objects itself,
 * so no function may use Move's global storage instructions (`move_to`, `borrow_global`, ...).
 */
import type { Bytecode, BytecodeKind, CompiledModule } from '@smi/bytecode';
import { verificationFailure } from './common.js';

/** Each global storage instruction → its upstream `Debug` name and operand index type. */
const GLOBAL_STORAGE: Partial<Record<BytecodeKind, [string, string]>> = {
  MoveFromDeprecated: ['MoveFrom', 'StructDefinitionIndex'],
  MoveFromGenericDeprecated: ['MoveFromGeneric', 'StructDefInstantiationIndex'],
  MoveToDeprecated: ['MoveTo', 'StructDefinitionIndex'],
  MoveToGenericDeprecated: ['MoveToGeneric', 'StructDefInstantiationIndex'],
  ImmBorrowGlobalDeprecated: ['ImmBorrowGlobal', 'StructDefinitionIndex'],
  MutBorrowGlobalDeprecated: ['MutBorrowGlobal', 'StructDefinitionIndex'],
  ImmBorrowGlobalGenericDeprecated: ['ImmBorrowGlobalGeneric', 'StructDefInstantiationIndex'],
  MutBorrowGlobalGenericDeprecated: ['MutBorrowGlobalGeneric', 'StructDefInstantiationIndex'],
  ExistsDeprecated: ['Exists', 'StructDefinitionIndex'],
  ExistsGenericDeprecated: ['ExistsGeneric', 'StructDefInstantiationIndex'],
};

function debugInstruction(instr: Bytecode): string | undefined {
  const d = GLOBAL_STORAGE[instr.$kind];
  if (d === undefined || !('index' in instr)) return undefined;
  return `${d[0]}(${d[1]}(${instr.index}))`;
}

export function verifyGlobalStorageAccess(m: CompiledModule): void {
  for (const fdef of m.functionDefs) {
    if (fdef.code === null) continue;
    const invalid: string[] = [];
    for (const instr of fdef.code.code) {
      const shown = debugInstruction(instr);
      if (shown !== undefined) invalid.push(shown);
    }
    if (invalid.length > 0) {
      const name = m.identifiers[m.functionHandles[fdef.function].name];
      throw verificationFailure(`Access to Move global storage is not allowed. Found in function ${name}: [${invalid.join(', ')}]`);
    }
  }
}

/**
 * Stack usage (`stack_usage_verifier.rs`): every basic block leaves the operand stack as it
 * found it (a `Ret` block pops exactly the return values), never pops below its start, and
 * stays under the value-stack and push limits.
 */
import type { Bytecode, CompiledModule, FunctionHandle, StructDefinition } from '../file-format.js';
import { PartialError } from './errors.js';
import type { ControlFlowGraph } from './cfg.js';

function fieldCount(def: StructDefinition): number {
  return def.fieldInformation.$kind === 'Declared' ? def.fieldInformation.fields.length : 0;
}

function callEffect(m: CompiledModule, h: FunctionHandle): [number, number] {
  return [m.signatures[h.parameters].length, m.signatures[h.return].length];
}

/** `[pops, pushes]` of an instruction. */
export function instructionEffect(m: CompiledModule, ins: Bytecode, returnCount: number): [number, number] {
  switch (ins.$kind) {
    case 'Pop':
    case 'BrTrue':
    case 'BrFalse':
    case 'StLoc':
    case 'Abort':
    case 'VariantSwitch':
      return [1, 0];
    case 'LdU8':
    case 'LdU16':
    case 'LdU32':
    case 'LdU64':
    case 'LdU128':
    case 'LdU256':
    case 'LdTrue':
    case 'LdFalse':
    case 'LdConst':
    case 'CopyLoc':
    case 'MoveLoc':
    case 'MutBorrowLoc':
    case 'ImmBorrowLoc':
      return [0, 1];
    case 'Not':
    case 'FreezeRef':
    case 'ReadRef':
    case 'ExistsDeprecated':
    case 'ExistsGenericDeprecated':
    case 'MutBorrowGlobalDeprecated':
    case 'MutBorrowGlobalGenericDeprecated':
    case 'ImmBorrowGlobalDeprecated':
    case 'ImmBorrowGlobalGenericDeprecated':
    case 'MutBorrowField':
    case 'MutBorrowFieldGeneric':
    case 'ImmBorrowField':
    case 'ImmBorrowFieldGeneric':
    case 'MoveFromDeprecated':
    case 'MoveFromGenericDeprecated':
    case 'CastU8':
    case 'CastU16':
    case 'CastU32':
    case 'CastU64':
    case 'CastU128':
    case 'CastU256':
    case 'VecLen':
    case 'VecPopBack':
      return [1, 1];
    case 'Add':
    case 'Sub':
    case 'Mul':
    case 'Mod':
    case 'Div':
    case 'BitOr':
    case 'BitAnd':
    case 'Xor':
    case 'Shl':
    case 'Shr':
    case 'Or':
    case 'And':
    case 'Eq':
    case 'Neq':
    case 'Lt':
    case 'Gt':
    case 'Le':
    case 'Ge':
    case 'VecImmBorrow':
    case 'VecMutBorrow':
      return [2, 1];
    case 'VecPack':
      return [Number(ins.count), 1];
    case 'VecUnpack':
      return [1, Number(ins.count)];
    case 'MoveToDeprecated':
    case 'MoveToGenericDeprecated':
    case 'WriteRef':
    case 'VecPushBack':
      return [2, 0];
    case 'VecSwap':
      return [3, 0];
    case 'Branch':
    case 'Nop':
      return [0, 0];
    case 'Ret':
      return [returnCount, 0];
    case 'Call':
      return callEffect(m, m.functionHandles[ins.index]);
    case 'CallGeneric':
      return callEffect(m, m.functionHandles[m.functionInstantiations[ins.index].handle]);
    case 'Pack':
      return [fieldCount(m.structDefs[ins.index]), 1];
    case 'PackGeneric':
      return [fieldCount(m.structDefs[m.structDefInstantiations[ins.index].def]), 1];
    case 'Unpack':
      return [1, fieldCount(m.structDefs[ins.index])];
    case 'UnpackGeneric':
      return [1, fieldCount(m.structDefs[m.structDefInstantiations[ins.index].def])];
    case 'PackVariant': {
      const h = m.variantHandles[ins.index];
      return [m.enumDefs[h.enumDef].variants[h.variant].fields.length, 1];
    }
    case 'PackVariantGeneric': {
      const h = m.variantInstantiationHandles[ins.index];
      return [m.enumDefs[m.enumDefInstantiations[h.enumDef].def].variants[h.variant].fields.length, 1];
    }
    case 'UnpackVariant':
    case 'UnpackVariantImmRef':
    case 'UnpackVariantMutRef': {
      const h = m.variantHandles[ins.index];
      return [1, m.enumDefs[h.enumDef].variants[h.variant].fields.length];
    }
    case 'UnpackVariantGeneric':
    case 'UnpackVariantGenericImmRef':
    case 'UnpackVariantGenericMutRef': {
      const h = m.variantInstantiationHandles[ins.index];
      return [1, m.enumDefs[m.enumDefInstantiations[h.enumDef].def].variants[h.variant].fields.length];
    }
  }
}

/** Limits the stack-usage pass needs. */
export interface StackLimits {
  maxValueStackSize: number;
  maxPushSize: number | null;
}

/** The stack-usage pass over every block (reachable or not), in offset order. */
export function verifyStackUsage(m: CompiledModule, fn: number, code: readonly Bytecode[], returnCount: number, cfg: ControlFlowGraph, limits: StackLimits): void {
  for (const start of cfg.blocks) {
    let height = 0;
    let pushes = 0;
    const end = cfg.blockEnd(start);
    for (let pc = start; pc <= end; pc++) {
      const [pops, push] = instructionEffect(m, code[pc], returnCount);
      pushes += push;
      if (limits.maxPushSize !== null && pushes > limits.maxPushSize) {
        throw new PartialError('VALUE_STACK_PUSH_OVERFLOW').atCodeOffset(fn, start);
      }
      if (height < pops) throw new PartialError('NEGATIVE_STACK_SIZE_WITHIN_BLOCK').atCodeOffset(fn, start);
      height = height - pops + push;
      if (height > limits.maxValueStackSize) throw new PartialError('VALUE_STACK_OVERFLOW').atCodeOffset(fn, start);
    }
    if (height !== 0) throw new PartialError('POSITIVE_STACK_SIZE_AT_BLOCK_END').atCodeOffset(fn, start);
  }
}

/**
 * Bounds checker: every index in a module points inside its table, type arities match,
 * type parameters are in scope, locals fit, jump tables match their enums. Same checks
 * in the same order as upstream `check_bounds.rs`, so the first error reported is the
 * same one.
 */
import { BytecodeError } from './errors.js';
import type { CodeUnit, CompiledModule, FunctionDefinition, SignatureToken } from './file-format.js';

type IndexKind = string;

function outOfBounds(kind: IndexKind, index: number, len: number, location?: { functionDefinition: number; codeOffset: number }): BytecodeError {
  return new BytecodeError('INDEX_OUT_OF_BOUNDS', `${kind} index ${index} out of bounds (table length ${len})`, {
    indexKind: kind,
    index,
    location,
  });
}

function check(len: number, index: number, kind: IndexKind): void {
  if (index >= len) throw outOfBounds(kind, index, len);
}

/** Pre-order walk of a token: the token, then its children left to right. */
function forEachToken(token: SignatureToken, visit: (t: SignatureToken) => void): void {
  const stack: SignatureToken[] = [token];
  while (stack.length > 0) {
    const t = stack.pop() as SignatureToken;
    visit(t);
    switch (t.$kind) {
      case 'Vector':
      case 'Reference':
      case 'MutableReference':
        stack.push(t.type);
        break;
      case 'DatatypeInstantiation':
        for (let i = t.typeArguments.length - 1; i >= 0; i--) stack.push(t.typeArguments[i]);
        break;
      default:
        break;
    }
  }
}

class BoundsChecker {
  private readonly m: CompiledModule;
  private readonly deprecateGlobal: boolean;
  /** Largest type-parameter index used by each signature (-1 when none). */
  private sigMaxTypeParam: number[] = [];

  constructor(m: CompiledModule, deprecateGlobal: boolean) {
    this.m = m;
    this.deprecateGlobal = deprecateGlobal;
  }

  run(): void {
    const m = this.m;
    if (m.moduleHandles.length === 0) {
      throw new BytecodeError('NO_MODULE_HANDLES', 'module has no module handles', { indexKind: 'ModuleHandle', index: 0 });
    }
    this.sigMaxTypeParam = m.signatures.map((sig) => {
      let max = -1;
      for (const t of sig) max = Math.max(max, this.checkType(t));
      return max;
    });
    for (const c of m.constantPool) this.checkType(c.type);
    for (const h of m.moduleHandles) this.checkModuleHandle(h);
    check(m.moduleHandles.length, m.selfModuleHandleIndex, 'ModuleHandle');
    for (const h of m.datatypeHandles) {
      check(m.moduleHandles.length, h.module, 'ModuleHandle');
      check(m.identifiers.length, h.name, 'Identifier');
    }
    for (const h of m.functionHandles) {
      check(m.moduleHandles.length, h.module, 'ModuleHandle');
      check(m.identifiers.length, h.name, 'Identifier');
      check(m.signatures.length, h.parameters, 'Signature');
      check(m.signatures.length, h.return, 'Signature');
      this.checkSignatureTypeParams(h.parameters, h.typeParameters.length);
      this.checkSignatureTypeParams(h.return, h.typeParameters.length);
    }
    for (const h of m.fieldHandles) {
      check(m.structDefs.length, h.owner, 'StructDefinition');
      const info = m.structDefs[h.owner].fieldInformation;
      const n = info.$kind === 'Declared' ? info.fields.length : 0;
      if (h.field >= n) throw outOfBounds('MemberCount', h.field, n);
    }
    for (const h of m.friendDecls) this.checkModuleHandle(h);
    for (const i of m.structDefInstantiations) {
      check(m.structDefs.length, i.def, 'StructDefinition');
      check(m.signatures.length, i.typeParameters, 'Signature');
    }
    for (const i of m.functionInstantiations) {
      check(m.functionHandles.length, i.handle, 'FunctionHandle');
      check(m.signatures.length, i.typeParameters, 'Signature');
    }
    for (const i of m.fieldInstantiations) {
      check(m.fieldHandles.length, i.handle, 'FieldHandle');
      check(m.signatures.length, i.typeParameters, 'Signature');
    }
    for (const d of m.structDefs) {
      check(m.datatypeHandles.length, d.structHandle, 'DatatypeHandle');
      if (d.fieldInformation.$kind === 'Declared') {
        const count = m.datatypeHandles[d.structHandle].typeParameters.length;
        for (const f of d.fieldInformation.fields) {
          check(m.identifiers.length, f.name, 'Identifier');
          this.checkType(f.type);
          this.checkTypeParams(f.type, count);
        }
      }
    }
    for (const d of m.enumDefs) {
      check(m.datatypeHandles.length, d.enumHandle, 'DatatypeHandle');
      const count = m.datatypeHandles[d.enumHandle].typeParameters.length;
      for (const v of d.variants) {
        check(m.identifiers.length, v.variantName, 'Identifier');
        for (const f of v.fields) {
          check(m.identifiers.length, f.name, 'Identifier');
          this.checkType(f.type);
          this.checkTypeParams(f.type, count);
        }
      }
    }
    for (const i of m.enumDefInstantiations) {
      check(m.enumDefs.length, i.def, 'EnumDefinition');
      check(m.signatures.length, i.typeParameters, 'Signature');
    }
    for (const h of m.variantHandles) {
      check(m.enumDefs.length, h.enumDef, 'EnumDefinition');
      const n = m.enumDefs[h.enumDef].variants.length;
      if (h.variant >= n) throw outOfBounds('VariantTag', h.variant, n);
    }
    for (const h of m.variantInstantiationHandles) {
      check(m.enumDefInstantiations.length, h.enumDef, 'EnumDefInstantiation');
      const n = m.enumDefs[m.enumDefInstantiations[h.enumDef].def].variants.length;
      if (h.variant >= n) throw outOfBounds('VariantTag', h.variant, n);
    }
    m.functionDefs.forEach((def, i) => this.checkFunctionDef(def, i));
  }

  private checkModuleHandle(h: { address: number; name: number }): void {
    check(this.m.addressIdentifiers.length, h.address, 'AddressIdentifier');
    check(this.m.identifiers.length, h.name, 'Identifier');
  }

  /** Check datatype indices and arities; return the largest type parameter index (-1 if none). */
  private checkType(token: SignatureToken): number {
    const handles = this.m.datatypeHandles;
    let max = -1;
    forEachToken(token, (t) => {
      if (t.$kind === 'TypeParameter') {
        if (t.index > max) max = t.index;
      } else if (t.$kind === 'Datatype') {
        check(handles.length, t.index, 'DatatypeHandle');
        const n = handles[t.index].typeParameters.length;
        if (n !== 0) {
          throw new BytecodeError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH', `expected ${n} type parameters got 0 (Struct)`);
        }
      } else if (t.$kind === 'DatatypeInstantiation') {
        check(handles.length, t.index, 'DatatypeHandle');
        const n = handles[t.index].typeParameters.length;
        if (n !== t.typeArguments.length) {
          throw new BytecodeError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH', `expected ${n} type parameters got ${t.typeArguments.length}`);
        }
      }
    });
    return max;
  }

  private checkTypeParams(token: SignatureToken, count: number): void {
    forEachToken(token, (t) => {
      if (t.$kind === 'TypeParameter' && t.index >= count) throw outOfBounds('TypeParameter', t.index, count);
    });
  }

  private checkSignatureTypeParams(sigIndex: number, count: number): void {
    const max = this.sigMaxTypeParam[sigIndex];
    if (max === undefined || max < count) return;
    for (const t of this.m.signatures[sigIndex]) this.checkTypeParams(t, count);
  }

  private checkFunctionDef(def: FunctionDefinition, index: number): void {
    const m = this.m;
    check(m.functionHandles.length, def.function, 'FunctionHandle');
    for (const s of def.acquiresGlobalResources) check(m.structDefs.length, s, 'StructDefinition');
    if (def.code === null) return;
    const handle = m.functionHandles[def.function];
    if (handle.parameters >= m.signatures.length) throw outOfBounds('FunctionDefinition', index, m.functionDefs.length);
    this.checkCode(def.code, handle.typeParameters.length, m.signatures[handle.parameters].length, index);
  }

  private checkCode(unit: CodeUnit, typeParamCount: number, paramCount: number, fnIndex: number): void {
    const m = this.m;
    check(m.signatures.length, unit.locals, 'Signature');
    const localsCount = m.signatures[unit.locals].length + paramCount;
    if (localsCount > 255) {
      throw new BytecodeError('TOO_MANY_LOCALS', `function #${fnIndex} has ${localsCount} locals`, {
        indexKind: 'FunctionDefinition',
        index: fnIndex,
      });
    }
    this.checkSignatureTypeParams(unit.locals, typeParamCount);
    const codeLen = unit.code.length;
    const at = (kind: IndexKind, idx: number, len: number, pc: number): void => {
      if (idx >= len) throw outOfBounds(kind, idx, len, { functionDefinition: fnIndex, codeOffset: pc });
    };
    for (let pc = 0; pc < codeLen; pc++) {
      const ins = unit.code[pc];
      switch (ins.$kind) {
        case 'LdConst':
          at('ConstantPool', ins.index, m.constantPool.length, pc);
          break;
        case 'MutBorrowField':
        case 'ImmBorrowField':
          at('FieldHandle', ins.index, m.fieldHandles.length, pc);
          break;
        case 'MutBorrowFieldGeneric':
        case 'ImmBorrowFieldGeneric':
          at('FieldInstantiation', ins.index, m.fieldInstantiations.length, pc);
          this.checkSignatureTypeParams(m.fieldInstantiations[ins.index].typeParameters, typeParamCount);
          break;
        case 'Call':
          at('FunctionHandle', ins.index, m.functionHandles.length, pc);
          break;
        case 'CallGeneric':
          at('FunctionInstantiation', ins.index, m.functionInstantiations.length, pc);
          this.checkSignatureTypeParams(m.functionInstantiations[ins.index].typeParameters, typeParamCount);
          break;
        case 'Pack':
        case 'Unpack':
          at('StructDefinition', ins.index, m.structDefs.length, pc);
          break;
        case 'ExistsDeprecated':
        case 'ImmBorrowGlobalDeprecated':
        case 'MutBorrowGlobalDeprecated':
        case 'MoveFromDeprecated':
        case 'MoveToDeprecated':
          this.assertGlobalAllowed();
          at('StructDefinition', ins.index, m.structDefs.length, pc);
          break;
        case 'ExistsGenericDeprecated':
        case 'ImmBorrowGlobalGenericDeprecated':
        case 'MutBorrowGlobalGenericDeprecated':
        case 'MoveFromGenericDeprecated':
        case 'MoveToGenericDeprecated':
        case 'PackGeneric':
        case 'UnpackGeneric':
          if (ins.$kind !== 'PackGeneric' && ins.$kind !== 'UnpackGeneric') this.assertGlobalAllowed();
          at('StructDefInstantiation', ins.index, m.structDefInstantiations.length, pc);
          this.checkSignatureTypeParams(m.structDefInstantiations[ins.index].typeParameters, typeParamCount);
          break;
        case 'BrTrue':
        case 'BrFalse':
        case 'Branch':
          at('CodeDefinition', ins.index, codeLen, pc);
          break;
        case 'CopyLoc':
        case 'MoveLoc':
        case 'StLoc':
        case 'MutBorrowLoc':
        case 'ImmBorrowLoc':
          at('LocalPool', ins.index, localsCount, pc);
          break;
        case 'VecPack':
        case 'VecLen':
        case 'VecImmBorrow':
        case 'VecMutBorrow':
        case 'VecPushBack':
        case 'VecPopBack':
        case 'VecUnpack':
        case 'VecSwap':
          at('Signature', ins.index, m.signatures.length, pc);
          this.checkSignatureTypeParams(ins.index, typeParamCount);
          break;
        case 'PackVariant':
        case 'UnpackVariant':
        case 'UnpackVariantImmRef':
        case 'UnpackVariantMutRef':
          at('VariantHandle', ins.index, m.variantHandles.length, pc);
          break;
        case 'PackVariantGeneric':
        case 'UnpackVariantGeneric':
        case 'UnpackVariantGenericImmRef':
        case 'UnpackVariantGenericMutRef': {
          at('VariantInstantiationHandle', ins.index, m.variantInstantiationHandles.length, pc);
          const inst = m.enumDefInstantiations[m.variantInstantiationHandles[ins.index].enumDef];
          this.checkSignatureTypeParams(inst.typeParameters, typeParamCount);
          break;
        }
        case 'VariantSwitch':
          at('VariantJumpTable', ins.index, unit.jumpTables.length, pc);
          break;
        default:
          break;
      }
    }
    for (const jt of unit.jumpTables) {
      check(m.enumDefs.length, jt.headEnum, 'EnumDefinition');
      const variants = m.enumDefs[jt.headEnum].variants.length;
      const offsets = jt.jumpTable.offsets;
      if (offsets.length !== variants) {
        throw new BytecodeError('INVALID_ENUM_SWITCH', `Jump table length ${offsets.length} does not equal number of variants ${variants}`, { indexKind: 'VariantTag', index: offsets.length });
      }
      for (const o of offsets) if (o >= codeLen) throw outOfBounds('CodeDefinition', o, codeLen);
    }
  }

  private assertGlobalAllowed(): void {
    if (this.deprecateGlobal) {
      throw new BytecodeError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'global storage instruction in a Sui module');
    }
  }
}

/**
 * Run the bounds checker over a module.
 * @throws {BytecodeError} `INDEX_OUT_OF_BOUNDS`, `NUMBER_OF_TYPE_ARGUMENTS_MISMATCH`, ...
 */
export function checkBounds(m: CompiledModule, deprecateGlobalStorageOps = true): void {
  new BoundsChecker(m, deprecateGlobalStorageOps).run();
}

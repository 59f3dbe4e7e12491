/**
 * Type safety (`type_safety.rs`): every instruction of every block gets operands of the right
 * types — locals, references and their mutability, abilities for copy/drop/key, fields owned by
 * the module, struct and enum packs and unpacks, vector operations, calls and returns,
 * variant switches. Each block is checked on its own (stack usage made them balanced).
 */
import type { AbilitySet, Bytecode, CompiledModule, EnumDefinition, Signature, SignatureToken, StructDefinition, VariantDefinition, VariantJumpTable } from '../file-format.js';
import { PartialError, type VerifierStatusCode } from './errors.js';
import type { ControlFlowGraph } from './cfg.js';
import { Ability } from '../file-format.js';
import { abilitiesOf, datatypeToken, instantiate, isInteger, isReference, tokenEquals } from './types.js';

const BOOL: SignatureToken = { $kind: 'Bool' };
const U8: SignatureToken = { $kind: 'U8' };
const U16: SignatureToken = { $kind: 'U16' };
const U32: SignatureToken = { $kind: 'U32' };
const U64: SignatureToken = { $kind: 'U64' };
const U128: SignatureToken = { $kind: 'U128' };
const U256: SignatureToken = { $kind: 'U256' };
const ADDRESS: SignatureToken = { $kind: 'Address' };
const NO_ARGS: Signature = [];

/** What type safety needs to know about the function. */
export interface FunctionTypes {
  fn: number;
  parameters: Signature;
  locals: Signature;
  returns: Signature;
  typeParameters: readonly AbilitySet[];
  jumpTables: readonly VariantJumpTable[];
}

class TypeSafety {
  private readonly stack: SignatureToken[] = [];
  private readonly m: CompiledModule;
  private readonly f: FunctionTypes;

  constructor(m: CompiledModule, f: FunctionTypes) {
    this.m = m;
    this.f = f;
  }

  private err(code: VerifierStatusCode, offset: number): PartialError {
    return new PartialError(code).atCodeOffset(this.f.fn, offset);
  }

  private pop(): SignatureToken {
    const t = this.stack.pop();
    if (t === undefined) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'empty type stack');
    return t;
  }

  private local(i: number): SignatureToken {
    const n = this.f.parameters.length;
    return i < n ? this.f.parameters[i] : this.f.locals[i - n];
  }

  private abilities(t: SignatureToken): AbilitySet {
    return abilitiesOf(this.m, this.f.typeParameters, t);
  }

  private has(t: SignatureToken, ability: number): boolean {
    return (this.abilities(t) & ability) !== 0;
  }

  private elementType(sig: number): SignatureToken {
    return this.m.signatures[sig][0];
  }

  private fields(def: StructDefinition, args: Signature, offset: number): SignatureToken[] {
    if (def.fieldInformation.$kind === 'Native') throw this.err('PACK_TYPE_MISMATCH_ERROR', offset);
    return def.fieldInformation.fields.map((f) => instantiate(f.type, args));
  }

  private borrowField(offset: number, mut: boolean, fieldHandle: number, args: Signature): void {
    const operand = this.pop();
    if (mut && operand.$kind !== 'MutableReference') throw this.err('BORROWFIELD_TYPE_MISMATCH_ERROR', offset);
    const h = this.m.fieldHandles[fieldHandle];
    const def = this.m.structDefs[h.owner];
    const expected = datatypeToken(def.structHandle, args);
    if (!isReference(operand) || !tokenEquals(expected, (operand as { type: SignatureToken }).type)) {
      throw this.err('BORROWFIELD_TYPE_MISMATCH_ERROR', offset);
    }
    if (def.fieldInformation.$kind === 'Native') throw this.err('BORROWFIELD_BAD_FIELD_ERROR', offset);
    const fieldType = instantiate(def.fieldInformation.fields[h.field].type, args);
    this.stack.push({ $kind: mut ? 'MutableReference' : 'Reference', type: fieldType });
  }

  private call(offset: number, handle: number, args: Signature): void {
    const h = this.m.functionHandles[handle];
    const params = this.m.signatures[h.parameters];
    for (let i = params.length - 1; i >= 0; i--) {
      const arg = this.pop();
      if (!tokenEquals(arg, instantiate(params[i], args))) throw this.err('CALL_TYPE_MISMATCH_ERROR', offset);
    }
    for (const r of this.m.signatures[h.return]) this.stack.push(instantiate(r, args));
  }

  private packStruct(offset: number, def: StructDefinition, args: Signature): void {
    const fields = this.fields(def, args, offset);
    for (let i = fields.length - 1; i >= 0; i--) {
      if (!tokenEquals(this.pop(), fields[i])) throw this.err('PACK_TYPE_MISMATCH_ERROR', offset);
    }
    this.stack.push(datatypeToken(def.structHandle, args));
  }

  private unpackStruct(offset: number, def: StructDefinition, args: Signature): void {
    if (!tokenEquals(this.pop(), datatypeToken(def.structHandle, args))) throw this.err('UNPACK_TYPE_MISMATCH_ERROR', offset);
    for (const f of this.fields(def, args, offset)) this.stack.push(f);
  }

  private packVariant(offset: number, e: EnumDefinition, v: VariantDefinition, args: Signature): void {
    for (let i = v.fields.length - 1; i >= 0; i--) {
      if (!tokenEquals(this.pop(), instantiate(v.fields[i].type, args))) throw this.err('PACK_TYPE_MISMATCH_ERROR', offset);
    }
    this.stack.push(datatypeToken(e.enumHandle, args));
  }

  private unpackVariant(offset: number, e: EnumDefinition, v: VariantDefinition, args: Signature, ref: 'none' | 'imm' | 'mut'): void {
    const arg = this.pop();
    const enumType = datatypeToken(e.enumHandle, args);
    let inner: SignatureToken;
    if (ref === 'none') inner = arg;
    else if (ref === 'imm' && arg.$kind === 'Reference') inner = arg.type;
    else if (ref === 'mut' && arg.$kind === 'MutableReference') inner = arg.type;
    else throw this.err('UNPACK_TYPE_MISMATCH_ERROR', offset);
    if (!tokenEquals(inner, enumType)) throw this.err('UNPACK_TYPE_MISMATCH_ERROR', offset);
    for (const f of v.fields) {
      const t = instantiate(f.type, args);
      this.stack.push(ref === 'none' ? t : { $kind: ref === 'mut' ? 'MutableReference' : 'Reference', type: t });
    }
  }

  /** Element type behind `&vector<T>` / `&mut vector<T>` (only `&mut` when `mutOnly`). */
  private vectorElement(t: SignatureToken, mutOnly: boolean): SignatureToken | null {
    if (t.$kind === 'MutableReference' || (t.$kind === 'Reference' && !mutOnly)) {
      return t.type.$kind === 'Vector' ? t.type.type : null;
    }
    return null;
  }

  private variantSwitch(offset: number, jt: VariantJumpTable): void {
    const operand = this.pop();
    if (operand.$kind !== 'Reference') throw this.err('ENUM_SWITCH_BAD_OPERAND', offset);
    const inner = operand.type;
    if (inner.$kind !== 'Datatype' && inner.$kind !== 'DatatypeInstantiation') throw this.err('ENUM_TYPE_MISMATCH', offset);
    const e = this.m.enumDefs[jt.headEnum];
    if (inner.index !== e.enumHandle) throw this.err('ENUM_TYPE_MISMATCH', offset);
    if (jt.jumpTable.offsets.length !== e.variants.length) throw this.err('INVALID_ENUM_SWITCH', offset);
  }

  private castTo(offset: number, to: SignatureToken): void {
    if (!isInteger(this.pop())) throw this.err('INTEGER_OP_TYPE_MISMATCH_ERROR', offset);
    this.stack.push(to);
  }

  private variantOf(index: number, generic: boolean): [EnumDefinition, VariantDefinition, Signature] {
    const m = this.m;
    if (!generic) {
      const h = m.variantHandles[index];
      const e = m.enumDefs[h.enumDef];
      return [e, e.variants[h.variant], NO_ARGS];
    }
    const h = m.variantInstantiationHandles[index];
    const inst = m.enumDefInstantiations[h.enumDef];
    const e = m.enumDefs[inst.def];
    return [e, e.variants[h.variant], m.signatures[inst.typeParameters]];
  }

  execute(ins: Bytecode, offset: number): void {
    const m = this.m;
    switch (ins.$kind) {
      case 'Pop':
        if (!this.has(this.pop(), Ability.Drop)) throw this.err('POP_WITHOUT_DROP_ABILITY', offset);
        break;
      case 'BrTrue':
      case 'BrFalse':
        if (this.pop().$kind !== 'Bool') throw this.err('BR_TYPE_MISMATCH_ERROR', offset);
        break;
      case 'StLoc':
        if (!tokenEquals(this.pop(), this.local(ins.index))) throw this.err('STLOC_TYPE_MISMATCH_ERROR', offset);
        break;
      case 'Abort':
        if (this.pop().$kind !== 'U64') throw this.err('ABORT_TYPE_MISMATCH_ERROR', offset);
        break;
      case 'Ret':
        for (let i = this.f.returns.length - 1; i >= 0; i--) {
          if (!tokenEquals(this.pop(), this.f.returns[i])) throw this.err('RET_TYPE_MISMATCH_ERROR', offset);
        }
        break;
      case 'Branch':
      case 'Nop':
        break;
      case 'FreezeRef': {
        const operand = this.pop();
        if (operand.$kind !== 'MutableReference') throw this.err('FREEZEREF_TYPE_MISMATCH_ERROR', offset);
        this.stack.push({ $kind: 'Reference', type: operand.type });
        break;
      }
      case 'MutBorrowField':
      case 'ImmBorrowField':
        this.borrowField(offset, ins.$kind === 'MutBorrowField', ins.index, NO_ARGS);
        break;
      case 'MutBorrowFieldGeneric':
      case 'ImmBorrowFieldGeneric': {
        const inst = m.fieldInstantiations[ins.index];
        this.borrowField(offset, ins.$kind === 'MutBorrowFieldGeneric', inst.handle, m.signatures[inst.typeParameters]);
        break;
      }
      case 'LdU8':
        this.stack.push(U8);
        break;
      case 'LdU16':
        this.stack.push(U16);
        break;
      case 'LdU32':
        this.stack.push(U32);
        break;
      case 'LdU64':
        this.stack.push(U64);
        break;
      case 'LdU128':
        this.stack.push(U128);
        break;
      case 'LdU256':
        this.stack.push(U256);
        break;
      case 'LdConst':
        this.stack.push(m.constantPool[ins.index].type);
        break;
      case 'LdTrue':
      case 'LdFalse':
        this.stack.push(BOOL);
        break;
      case 'CopyLoc': {
        const t = this.local(ins.index);
        if (!this.has(t, Ability.Copy)) throw this.err('COPYLOC_WITHOUT_COPY_ABILITY', offset);
        this.stack.push(t);
        break;
      }
      case 'MoveLoc':
        this.stack.push(this.local(ins.index));
        break;
      case 'MutBorrowLoc':
      case 'ImmBorrowLoc': {
        const t = this.local(ins.index);
        if (isReference(t)) throw this.err('BORROWLOC_REFERENCE_ERROR', offset);
        this.stack.push({ $kind: ins.$kind === 'MutBorrowLoc' ? 'MutableReference' : 'Reference', type: t });
        break;
      }
      case 'Call':
        this.call(offset, ins.index, NO_ARGS);
        break;
      case 'CallGeneric': {
        const inst = m.functionInstantiations[ins.index];
        this.call(offset, inst.handle, m.signatures[inst.typeParameters]);
        break;
      }
      case 'Pack':
        this.packStruct(offset, m.structDefs[ins.index], NO_ARGS);
        break;
      case 'PackGeneric': {
        const inst = m.structDefInstantiations[ins.index];
        this.packStruct(offset, m.structDefs[inst.def], m.signatures[inst.typeParameters]);
        break;
      }
      case 'Unpack':
        this.unpackStruct(offset, m.structDefs[ins.index], NO_ARGS);
        break;
      case 'UnpackGeneric': {
        const inst = m.structDefInstantiations[ins.index];
        this.unpackStruct(offset, m.structDefs[inst.def], m.signatures[inst.typeParameters]);
        break;
      }
      case 'ReadRef': {
        const operand = this.pop();
        if (!isReference(operand)) throw this.err('READREF_TYPE_MISMATCH_ERROR', offset);
        const inner = (operand as { type: SignatureToken }).type;
        if (!this.has(inner, Ability.Copy)) throw this.err('READREF_WITHOUT_COPY_ABILITY', offset);
        this.stack.push(inner);
        break;
      }
      case 'WriteRef': {
        const ref = this.pop();
        const value = this.pop();
        if (ref.$kind !== 'MutableReference') throw this.err('WRITEREF_NO_MUTABLE_REFERENCE_ERROR', offset);
        if (!this.has(ref.type, Ability.Drop)) throw this.err('WRITEREF_WITHOUT_DROP_ABILITY', offset);
        if (!tokenEquals(value, ref.type)) throw this.err('WRITEREF_TYPE_MISMATCH_ERROR', offset);
        break;
      }
      case 'CastU8':
        this.castTo(offset, U8);
        break;
      case 'CastU16':
        this.castTo(offset, U16);
        break;
      case 'CastU32':
        this.castTo(offset, U32);
        break;
      case 'CastU64':
        this.castTo(offset, U64);
        break;
      case 'CastU128':
        this.castTo(offset, U128);
        break;
      case 'CastU256':
        this.castTo(offset, U256);
        break;
      case 'Add':
      case 'Sub':
      case 'Mul':
      case 'Mod':
      case 'Div':
      case 'BitOr':
      case 'BitAnd':
      case 'Xor': {
        const a = this.pop();
        const b = this.pop();
        if (!isInteger(a) || !tokenEquals(a, b)) throw this.err('INTEGER_OP_TYPE_MISMATCH_ERROR', offset);
        this.stack.push(a);
        break;
      }
      case 'Shl':
      case 'Shr': {
        const a = this.pop();
        const b = this.pop();
        if (!isInteger(b) || a.$kind !== 'U8') throw this.err('INTEGER_OP_TYPE_MISMATCH_ERROR', offset);
        this.stack.push(b);
        break;
      }
      case 'Or':
      case 'And': {
        const a = this.pop();
        const b = this.pop();
        if (a.$kind !== 'Bool' || b.$kind !== 'Bool') throw this.err('BOOLEAN_OP_TYPE_MISMATCH_ERROR', offset);
        this.stack.push(BOOL);
        break;
      }
      case 'Not':
        if (this.pop().$kind !== 'Bool') throw this.err('BOOLEAN_OP_TYPE_MISMATCH_ERROR', offset);
        this.stack.push(BOOL);
        break;
      case 'Eq':
      case 'Neq': {
        const a = this.pop();
        const b = this.pop();
        if (!this.has(a, Ability.Drop) || !tokenEquals(a, b)) throw this.err('EQUALITY_OP_TYPE_MISMATCH_ERROR', offset);
        this.stack.push(BOOL);
        break;
      }
      case 'Lt':
      case 'Gt':
      case 'Le':
      case 'Ge': {
        const a = this.pop();
        const b = this.pop();
        if (!isInteger(a) || !tokenEquals(a, b)) throw this.err('INTEGER_OP_TYPE_MISMATCH_ERROR', offset);
        this.stack.push(BOOL);
        break;
      }
      case 'VecPack': {
        const elem = this.elementType(ins.index);
        const n = Number(ins.count);
        if (n > 0) {
          let ok = true;
          for (let i = 0; i < n; i++) if (!tokenEquals(this.pop(), elem)) ok = false;
          if (!ok) throw this.err('TYPE_MISMATCH', offset);
        }
        this.stack.push({ $kind: 'Vector', type: elem });
        break;
      }
      case 'VecLen': {
        const el = this.vectorElement(this.pop(), false);
        if (el === null || !tokenEquals(el, this.elementType(ins.index))) throw this.err('TYPE_MISMATCH', offset);
        this.stack.push(U64);
        break;
      }
      case 'VecImmBorrow':
      case 'VecMutBorrow': {
        const mut = ins.$kind === 'VecMutBorrow';
        const idx = this.pop();
        const vec = this.pop();
        if (idx.$kind !== 'U64') throw this.err('TYPE_MISMATCH', offset);
        const el = this.vectorElement(vec, mut);
        if (el === null || !tokenEquals(el, this.elementType(ins.index))) throw this.err('TYPE_MISMATCH', offset);
        this.stack.push({ $kind: mut ? 'MutableReference' : 'Reference', type: el });
        break;
      }
      case 'VecPushBack': {
        const elem = this.pop();
        const vec = this.pop();
        const declared = this.elementType(ins.index);
        if (!tokenEquals(declared, elem)) throw this.err('TYPE_MISMATCH', offset);
        const el = this.vectorElement(vec, true);
        if (el === null || !tokenEquals(el, declared)) throw this.err('TYPE_MISMATCH', offset);
        break;
      }
      case 'VecPopBack': {
        const el = this.vectorElement(this.pop(), true);
        if (el === null || !tokenEquals(el, this.elementType(ins.index))) throw this.err('TYPE_MISMATCH', offset);
        this.stack.push(el);
        break;
      }
      case 'VecUnpack': {
        const vec = this.pop();
        const declared = this.elementType(ins.index);
        if (vec.$kind !== 'Vector' || !tokenEquals(vec.type, declared)) throw this.err('TYPE_MISMATCH', offset);
        for (let i = 0n; i < ins.count; i++) this.stack.push(declared);
        break;
      }
      case 'VecSwap': {
        const i2 = this.pop();
        const i1 = this.pop();
        const vec = this.pop();
        if (i1.$kind !== 'U64' || i2.$kind !== 'U64') throw this.err('TYPE_MISMATCH', offset);
        const el = this.vectorElement(vec, true);
        if (el === null || !tokenEquals(el, this.elementType(ins.index))) throw this.err('TYPE_MISMATCH', offset);
        break;
      }
      case 'PackVariant':
      case 'PackVariantGeneric': {
        const [e, v, args] = this.variantOf(ins.index, ins.$kind === 'PackVariantGeneric');
        this.packVariant(offset, e, v, args);
        break;
      }
      case 'UnpackVariant':
      case 'UnpackVariantGeneric': {
        const [e, v, args] = this.variantOf(ins.index, ins.$kind === 'UnpackVariantGeneric');
        this.unpackVariant(offset, e, v, args, 'none');
        break;
      }
      case 'UnpackVariantImmRef':
      case 'UnpackVariantGenericImmRef': {
        const [e, v, args] = this.variantOf(ins.index, ins.$kind === 'UnpackVariantGenericImmRef');
        this.unpackVariant(offset, e, v, args, 'imm');
        break;
      }
      case 'UnpackVariantMutRef':
      case 'UnpackVariantGenericMutRef': {
        const [e, v, args] = this.variantOf(ins.index, ins.$kind === 'UnpackVariantGenericMutRef');
        this.unpackVariant(offset, e, v, args, 'mut');
        break;
      }
      case 'VariantSwitch':
        this.variantSwitch(offset, this.f.jumpTables[ins.index]);
        break;
      case 'ExistsDeprecated':
      case 'ExistsGenericDeprecated':
      case 'MoveFromDeprecated':
      case 'MoveFromGenericDeprecated':
      case 'MoveToDeprecated':
      case 'MoveToGenericDeprecated':
      case 'MutBorrowGlobalDeprecated':
      case 'MutBorrowGlobalGenericDeprecated':
      case 'ImmBorrowGlobalDeprecated':
      case 'ImmBorrowGlobalGenericDeprecated':
        this.globalOp(ins, offset);
        break;
    }
  }

  /** Deprecated global-storage instructions (only reachable with legacy deserializer options). */
  private globalOp(ins: Bytecode & { index: number }, offset: number): void {
    const m = this.m;
    const generic = ins.$kind.includes('Generic');
    const defIdx = generic ? m.structDefInstantiations[ins.index].def : ins.index;
    const args = generic ? m.signatures[m.structDefInstantiations[ins.index].typeParameters] : NO_ARGS;
    const type = datatypeToken(m.structDefs[defIdx].structHandle, args);
    const hasKey = this.has(type, Ability.Key);
    if (ins.$kind.startsWith('Exists')) {
      if (!hasKey || !tokenEquals(this.pop(), ADDRESS)) throw this.err('EXISTS_WITHOUT_KEY_ABILITY_OR_BAD_ARGUMENT', offset);
      this.stack.push(BOOL);
    } else if (ins.$kind.startsWith('MoveFrom')) {
      if (!hasKey) throw this.err('MOVEFROM_WITHOUT_KEY_ABILITY', offset);
      if (!tokenEquals(this.pop(), ADDRESS)) throw this.err('MOVEFROM_TYPE_MISMATCH_ERROR', offset);
      this.stack.push(type);
    } else if (ins.$kind.startsWith('MoveTo')) {
      if (!hasKey) throw this.err('MOVETO_WITHOUT_KEY_ABILITY', offset);
      const value = this.pop();
      const signer = this.pop();
      if (!tokenEquals(value, type) || signer.$kind !== 'Reference' || signer.type.$kind !== 'Signer') {
        throw this.err('MOVETO_TYPE_MISMATCH_ERROR', offset);
      }
    } else {
      if (!tokenEquals(this.pop(), ADDRESS)) throw this.err('BORROWGLOBAL_TYPE_MISMATCH_ERROR', offset);
      if (!hasKey) throw this.err('BORROWGLOBAL_WITHOUT_KEY_ABILITY', offset);
      this.stack.push({ $kind: ins.$kind.startsWith('Mut') ? 'MutableReference' : 'Reference', type });
    }
  }
}

/** The type-safety pass over every block of a function, in offset order. */
export function verifyTypeSafety(m: CompiledModule, f: FunctionTypes, code: readonly Bytecode[], cfg: ControlFlowGraph): void {
  const checker = new TypeSafety(m, f);
  for (const start of cfg.blocks) {
    const end = cfg.blockEnd(start);
    for (let pc = start; pc <= end; pc++) checker.execute(code[pc], pc);
  }
}

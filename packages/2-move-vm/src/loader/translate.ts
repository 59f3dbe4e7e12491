/**
 * Translator: turns a function's Move bytecode into {@link TranslatedCode} once. It
 * infers the type of every operand-stack slot (Move's verifier guarantees basic blocks
 * start and end with an empty stack, so one linear pass suffices) to pick typed
 * internal opcodes, resolves call targets, field offsets and variant tags, decodes
 * constants, and inlines the `0x1::vector` natives.
 */
import { STD_ADDRESS } from '@smi/bytecode';
import type { Bytecode, CompiledModule } from '@smi/bytecode';
import { VmError } from '../errors.js';
import { Op } from './ops.js';
import { type Type, TypeKind, integerBits, isInteger, isReference, type TypeTable } from '../types/runtime-type.js';
import type { BcsCodec } from '../values/bcs.js';
import type { CallSite, LoadedFunction, LoadedModule, TranslatedCode, VariantSite, VecSite } from './linker.js';
import { isStaticallySized } from '../gas/value-size.js';
import { planBlocks } from './blocks.js';

const VECTOR_NATIVE_OPS: Readonly<Record<string, number>> = {
  empty: Op.NAT_VEC_EMPTY,
  length: Op.NAT_VEC_LEN,
  borrow: Op.NAT_VEC_BORROW,
  borrow_mut: Op.NAT_VEC_BORROW,
  push_back: Op.NAT_VEC_PUSH_BACK,
  pop_back: Op.NAT_VEC_POP_BACK,
  destroy_empty: Op.NAT_VEC_DESTROY_EMPTY,
  swap: Op.NAT_VEC_SWAP,
};

function invariant(msg: string): never {
  throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', msg);
}

/** `true` for types whose values are JS primitives (no copy needed). */
function isPrimitiveType(t: Type): boolean {
  return t.kind <= TypeKind.Signer;
}

/** Extra per-instruction information kept for tracing. */
export interface TraceInfo {
  /** Types pushed by each instruction (generic; instantiate with the frame's type arguments). */
  readonly pushed: readonly (readonly Type[])[];
}

/** Translate `fn` (a non-native function). */
/** What the gas schedule the code runs under measures (which instructions end their block to be charged at run time). */
export interface TranslateOptions {
  /** The schedule charges value sizes (a gas model's); without, only the inlined vector natives are charged at run time. */
  readonly sizeCharges: boolean;
  /** `MoveLoc` costs a constant size (gas model 14): never measured. */
  readonly constantMoveLoc: boolean;
}

const MEASURE_ALL: TranslateOptions = { sizeCharges: true, constantMoveLoc: false };

export function translateFunction(fn: LoadedFunction, codec: BcsCodec, options: TranslateOptions = MEASURE_ALL): TranslatedCode & TraceInfo {
  const unit = fn.def.code;
  if (unit === null) invariant(`${fn.name} is native`);
  const mod: LoadedModule = fn.module;
  const m: CompiledModule = mod.compiled;
  const table: TypeTable = mod.linker.types;
  const locals = fn.locals;
  const n = unit.code.length;
  const code = new Int32Array(n * 2);
  const bigints: bigint[] = [];
  const constants: unknown[] = [];
  const constIndex = new Map<number, number>();
  const callSites: CallSite[] = [];
  const vecSites: VecSite[] = [];
  const variantSites: VariantSite[] = [];
  const pushed: (readonly Type[])[] = new Array<readonly Type[]>(n);
  const packTypes = new Map<number, Type>();
  const genericPacks = new Set<number>();
  const stack: Type[] = [];
  let maxStack = 0;
  // Gas: the type whose value an instruction's size charge measures, and the constants' lengths.
  const sizeTypes: (Type | undefined)[] = new Array<Type | undefined>(n);
  const constBytes = new Int32Array(n);

  const pop = (): Type => {
    const t = stack.pop();
    if (t === undefined) invariant(`operand stack underflow in ${mod.id}::${fn.name}`);
    return t;
  };
  const popN = (k: number): void => {
    for (let i = 0; i < k; i++) pop();
  };
  let pushedHere: Type[] = [];
  const push = (t: Type): void => {
    stack.push(t);
    pushedHere.push(t);
    if (stack.length > maxStack) maxStack = stack.length;
  };
  const deref = (t: Type): Type => {
    if (!isReference(t)) invariant(`expected a reference in ${mod.id}::${fn.name}`);
    return t.elem as Type;
  };
  const intOp = (t: Type, numOp: number, bigOp: number): [number, number] => {
    if (!isInteger(t)) invariant(`arithmetic on a non-integer in ${mod.id}::${fn.name}`);
    const bits = integerBits(t.kind);
    return [bits <= 32 ? numOp : bigOp, bits];
  };
  const structInfo = (defIndex: number) => mod.datatypeAt(m.structDefs[defIndex].structHandle);
  const enumInfo = (defIndex: number) => mod.datatypeAt(m.enumDefs[defIndex].enumHandle);
  const fieldTypes = (t: Type): Type[] => {
    const d = t.datatype;
    if (d === null) invariant('unpack of a non-datatype');
    return d.fields().map((f) => table.subst(f.type, t.typeArgs));
  };
  const variantFieldTypes = (t: Type, tag: number): Type[] => (t.datatype as NonNullable<Type['datatype']>).variants()[tag].fields.map((f) => table.subst(f.type, t.typeArgs));
  const fieldRef = (fh: number, typeArgs: readonly Type[], mutable: boolean): number => {
    const h = m.fieldHandles[fh];
    pop();
    const info = structInfo(h.owner);
    const declared = info.fields()[h.field];
    if (declared === undefined) invariant(`field ${h.field} out of range`);
    push(table.reference(table.subst(declared.type, typeArgs), mutable));
    return h.field;
  };

  for (let pc = 0; pc < n; pc++) {
    const ins: Bytecode = unit.code[pc];
    pushedHere = [];
    let op: number = Op.NOP;
    let arg = 0;
    switch (ins.$kind) {
      case 'Pop':
        pop();
        op = Op.POP;
        break;
      case 'Ret':
        popN(fn.returns.length);
        op = Op.RET;
        break;
      case 'BrTrue':
      case 'BrFalse':
        pop();
        op = ins.$kind === 'BrTrue' ? Op.BR_TRUE : Op.BR_FALSE;
        arg = ins.index;
        break;
      case 'Branch':
        op = Op.BRANCH;
        arg = ins.index;
        break;
      case 'LdU8':
        push(table.u8);
        op = Op.LD_SMALL;
        arg = ins.value;
        break;
      case 'LdU16':
        push(table.u16);
        op = Op.LD_SMALL;
        arg = ins.value;
        break;
      case 'LdU32':
        push(table.u32);
        op = Op.LD_SMALL;
        arg = ins.value | 0;
        break;
      case 'LdU64':
      case 'LdU128':
      case 'LdU256':
        push(ins.$kind === 'LdU64' ? table.u64 : ins.$kind === 'LdU128' ? table.u128 : table.u256);
        op = Op.LD_BIG;
        arg = bigints.length;
        bigints.push(ins.value);
        break;
      case 'LdConst': {
        const c = m.constantPool[ins.index];
        const t = mod.token(c.type);
        push(t);
        let k = constIndex.get(ins.index);
        if (k === undefined) {
          k = constants.length;
          constants.push(codec.decode(c.data, t));
          constIndex.set(ins.index, k);
        }
        op = Op.LD_CONST;
        arg = k;
        constBytes[pc] = c.data.length;
        break;
      }
      case 'LdTrue':
      case 'LdFalse':
        push(table.bool);
        op = ins.$kind === 'LdTrue' ? Op.LD_TRUE : Op.LD_FALSE;
        break;
      case 'CopyLoc':
        push(locals[ins.index]);
        sizeTypes[pc] = locals[ins.index];
        // References are copied by identity; only values held in containers need a deep copy.
        op = isPrimitiveType(locals[ins.index]) || isReference(locals[ins.index]) ? Op.COPY_LOC_PRIM : Op.COPY_LOC;
        arg = ins.index;
        break;
      case 'MoveLoc':
        push(locals[ins.index]);
        sizeTypes[pc] = locals[ins.index];
        op = Op.MOVE_LOC;
        arg = ins.index;
        break;
      case 'StLoc':
        pop();
        op = Op.ST_LOC;
        arg = ins.index;
        break;
      case 'MutBorrowLoc':
      case 'ImmBorrowLoc':
        push(table.reference(locals[ins.index], ins.$kind === 'MutBorrowLoc'));
        op = Op.BORROW_LOC;
        arg = ins.index;
        break;
      case 'MutBorrowField':
      case 'ImmBorrowField':
        arg = fieldRef(ins.index, [], ins.$kind === 'MutBorrowField');
        op = Op.BORROW_FIELD;
        break;
      case 'MutBorrowFieldGeneric':
      case 'ImmBorrowFieldGeneric': {
        const fi = m.fieldInstantiations[ins.index];
        arg = fieldRef(fi.handle, mod.signature(fi.typeParameters), ins.$kind === 'MutBorrowFieldGeneric');
        op = Op.BORROW_FIELD;
        break;
      }
      case 'Call':
      case 'CallGeneric': {
        let callee: LoadedFunction;
        let typeArgs: readonly Type[] = [];
        if (ins.$kind === 'Call') callee = mod.functionAt(ins.index);
        else {
          const fi = m.functionInstantiations[ins.index];
          callee = mod.functionAt(fi.handle);
          typeArgs = mod.signature(fi.typeParameters);
        }
        popN(callee.params.length);
        for (const r of callee.returns) push(table.subst(r, typeArgs));
        arg = callSites.length;
        callSites.push({ callee, typeArgs });
        const inlined = callee.isNative && callee.module.address === STD_ADDRESS && callee.module.name === 'vector' ? VECTOR_NATIVE_OPS[callee.name] : undefined;
        op = inlined ?? Op.CALL;
        break;
      }
      case 'Pack':
      case 'PackGeneric': {
        const [defIndex, typeArgs] =
          ins.$kind === 'Pack' ? [ins.index, [] as readonly Type[]] : [m.structDefInstantiations[ins.index].def, mod.signature(m.structDefInstantiations[ins.index].typeParameters)];
        const t = table.datatype(structInfo(defIndex), typeArgs);
        const count = t.datatype?.fields().length ?? 0;
        popN(count);
        push(t);
        packTypes.set(pc, t);
        if (ins.$kind === 'PackGeneric') genericPacks.add(pc);
        op = Op.PACK;
        arg = count;
        break;
      }
      case 'Unpack':
      case 'UnpackGeneric': {
        const [defIndex, typeArgs] =
          ins.$kind === 'Unpack' ? [ins.index, [] as readonly Type[]] : [m.structDefInstantiations[ins.index].def, mod.signature(m.structDefInstantiations[ins.index].typeParameters)];
        const t = table.datatype(structInfo(defIndex), typeArgs);
        pop();
        const fts = fieldTypes(t);
        for (const f of fts) push(f);
        op = Op.UNPACK;
        arg = fts.length;
        break;
      }
      case 'ReadRef':
        push(deref(pop()));
        sizeTypes[pc] = stack[stack.length - 1];
        op = Op.READ_REF;
        break;
      case 'WriteRef':
        pop();
        sizeTypes[pc] = pop();
        op = Op.WRITE_REF;
        break;
      case 'FreezeRef':
        push(table.reference(deref(pop()), false));
        op = Op.FREEZE_REF;
        break;
      case 'Add':
      case 'Sub':
      case 'Mul':
      case 'Div':
      case 'Mod': {
        pop();
        const t = pop();
        const base = { Add: [Op.ADD_N, Op.ADD_B], Sub: [Op.SUB_N, Op.SUB_B], Mul: [Op.MUL_N, Op.MUL_B], Div: [Op.DIV_N, Op.DIV_B], Mod: [Op.MOD_N, Op.MOD_B] }[ins.$kind];
        [op, arg] = intOp(t, base[0], base[1]);
        push(t);
        break;
      }
      case 'BitOr':
      case 'BitAnd':
      case 'Xor': {
        pop();
        const t = pop();
        const base = { BitOr: [Op.BIT_OR_N, Op.BIT_OR_B], BitAnd: [Op.BIT_AND_N, Op.BIT_AND_B], Xor: [Op.XOR_N, Op.XOR_B] }[ins.$kind];
        [op, arg] = intOp(t, base[0], base[1]);
        push(t);
        break;
      }
      case 'Shl':
      case 'Shr': {
        pop();
        const t = pop();
        [op, arg] = ins.$kind === 'Shl' ? intOp(t, Op.SHL_N, Op.SHL_B) : intOp(t, Op.SHR_N, Op.SHR_B);
        push(t);
        break;
      }
      case 'Or':
      case 'And':
        pop();
        pop();
        push(table.bool);
        op = ins.$kind === 'Or' ? Op.OR : Op.AND;
        break;
      case 'Not':
        pop();
        push(table.bool);
        op = Op.NOT;
        break;
      case 'Eq':
      case 'Neq': {
        pop();
        const t = pop();
        push(table.bool);
        sizeTypes[pc] = t;
        const eq = ins.$kind === 'Eq';
        if (isReference(t)) op = eq ? Op.EQ_REF : Op.NEQ_REF;
        else if (isPrimitiveType(t)) op = eq ? Op.EQ_PRIM : Op.NEQ_PRIM;
        else op = eq ? Op.EQ_DEEP : Op.NEQ_DEEP;
        break;
      }
      case 'Lt':
      case 'Gt':
      case 'Le':
      case 'Ge':
        pop();
        pop();
        push(table.bool);
        op = { Lt: Op.LT, Gt: Op.GT, Le: Op.LE, Ge: Op.GE }[ins.$kind];
        break;
      case 'CastU8':
      case 'CastU16':
      case 'CastU32':
      case 'CastU64':
      case 'CastU128':
      case 'CastU256': {
        pop();
        const target = { CastU8: table.u8, CastU16: table.u16, CastU32: table.u32, CastU64: table.u64, CastU128: table.u128, CastU256: table.u256 }[ins.$kind];
        push(target);
        op = Op.CAST;
        arg = integerBits(target.kind);
        break;
      }
      case 'Abort':
        pop();
        op = Op.ABORT;
        break;
      case 'Nop':
        op = Op.NOP;
        break;
      case 'VecPack': {
        const elem = mod.signature(ins.index)[0];
        const count = Number(ins.count);
        popN(count);
        push(table.vector(elem));
        packTypes.set(pc, table.vector(elem));
        op = Op.VEC_PACK;
        arg = vecSites.length;
        vecSites.push({ elem, count });
        break;
      }
      case 'VecLen':
        pop();
        push(table.u64);
        op = Op.VEC_LEN;
        break;
      case 'VecImmBorrow':
      case 'VecMutBorrow': {
        pop();
        pop();
        push(table.reference(mod.signature(ins.index)[0], ins.$kind === 'VecMutBorrow'));
        op = Op.VEC_BORROW;
        break;
      }
      case 'VecPushBack':
        pop();
        pop();
        op = Op.VEC_PUSH_BACK;
        break;
      case 'VecPopBack':
        pop();
        push(mod.signature(ins.index)[0]);
        op = Op.VEC_POP_BACK;
        break;
      case 'VecUnpack': {
        const elem = mod.signature(ins.index)[0];
        const count = Number(ins.count);
        pop();
        for (let i = 0; i < count; i++) push(elem);
        op = Op.VEC_UNPACK;
        arg = vecSites.length;
        vecSites.push({ elem, count });
        break;
      }
      case 'VecSwap':
        popN(3);
        op = Op.VEC_SWAP;
        break;
      case 'PackVariant':
      case 'PackVariantGeneric':
      case 'UnpackVariant':
      case 'UnpackVariantImmRef':
      case 'UnpackVariantMutRef':
      case 'UnpackVariantGeneric':
      case 'UnpackVariantGenericImmRef':
      case 'UnpackVariantGenericMutRef': {
        const generic = ins.$kind.includes('Generic');
        let enumType: Type;
        let tag: number;
        if (generic) {
          const h = m.variantInstantiationHandles[ins.index];
          const inst = m.enumDefInstantiations[h.enumDef];
          enumType = table.datatype(enumInfo(inst.def), mod.signature(inst.typeParameters));
          tag = h.variant;
        } else {
          const h = m.variantHandles[ins.index];
          enumType = table.datatype(enumInfo(h.enumDef), []);
          tag = h.variant;
        }
        const fts = variantFieldTypes(enumType, tag);
        arg = variantSites.length;
        variantSites.push({ enumType, tag, fieldCount: fts.length });
        if (ins.$kind.startsWith('Pack')) {
          popN(fts.length);
          push(enumType);
          packTypes.set(pc, enumType);
          if (generic) genericPacks.add(pc);
          op = Op.PACK_VARIANT;
        } else if (ins.$kind.endsWith('Ref')) {
          pop();
          const mutable = ins.$kind.endsWith('MutRef');
          for (const f of fts) push(table.reference(f, mutable));
          op = Op.UNPACK_VARIANT_REF;
        } else {
          pop();
          for (const f of fts) push(f);
          op = Op.UNPACK_VARIANT;
        }
        break;
      }
      case 'VariantSwitch':
        pop();
        op = Op.VARIANT_SWITCH;
        arg = ins.index;
        break;
      default:
        op = Op.UNSUPPORTED;
        arg = pc;
        break;
    }
    code[pc * 2] = op;
    code[pc * 2 + 1] = arg;
    pushed[pc] = pushedHere;
  }
  const jumpTables = unit.jumpTables.map((jt) => Int32Array.from(jt.jumpTable.offsets));
  // Inlined vector natives are charged when they run (their cost depends on the call count and the element).
  const sizedAtRunTime = Array.from({ length: n }, (_, pc) => {
    const op = code[pc * 2];
    if (op >= Op.NAT_VEC_EMPTY && op <= Op.NAT_VEC_SWAP) return true;
    const t = sizeTypes[pc];
    if (t === undefined || !options.sizeCharges || isStaticallySized(t)) return false;
    return !(op === Op.MOVE_LOC && options.constantMoveLoc);
  });
  const { slowCode, fastCode, blockLen } = planBlocks(code, jumpTables, sizedAtRunTime);
  return {
    sizedAtRunTime,
    sizeTypes,
    constBytes,
    slowCode,
    fastCode,
    blockLen,
    code,
    bigints,
    constants,
    callSites,
    vecSites,
    variantSites,
    jumpTables,
    packTypes,
    genericPacks,
    localCount: locals.length,
    maxStack,
    pushed,
    jit: null,
    heat: 0,
  };
}

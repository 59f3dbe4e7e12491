/**
 * Code generation for function bodies (upstream `compile_function_body`,
 * `compile_statement`, `compile_expression`, `compile_call`): one pass over the blocks
 * emits instructions with fake label offsets that are remapped at the end, and every
 * table entry is requested in exactly upstream's order so indices come out identical.
 */
import { PRIMITIVE_TOKEN, SIMPLE_INSTRUCTION, type Bytecode, type IndexedBytecodeKind, type SignatureToken, type VariantJumpTable } from '@smi/bytecode';
import type { Block, Exp, FunctionCall, LValue, Statement, Type, UnpackType } from './ast.js';
import { encodeConstantValue } from './constants.js';
import type { Context } from './context.js';
import { IrCompileError } from './errors.js';

/** Type parameter name → index. */
export type TypeParameterMap = ReadonlyMap<string, number>;

/** Compiles a source type to a signature token. */
export function compileType(ctx: Context, tps: TypeParameterMap, ty: Type): SignatureToken {
  switch (ty.$kind) {
    case 'Vector':
      return { $kind: 'Vector', type: compileType(ctx, tps, ty.type) };
    case 'Reference': {
      const inner = compileType(ctx, tps, ty.type);
      return { $kind: ty.mutable ? 'MutableReference' : 'Reference', type: inner };
    }
    case 'Datatype': {
      const index = ctx.datatypeHandleIndex(ty.module, ty.name);
      if (ty.typeArguments.length === 0) return { $kind: 'Datatype', index };
      return { $kind: 'DatatypeInstantiation', index, typeArguments: compileTypes(ctx, tps, ty.typeArguments) };
    }
    case 'TypeParameter': {
      const index = tps.get(ty.name);
      if (index === undefined) throw new IrCompileError(`Unbound type parameter ${ty.name}`);
      return { $kind: 'TypeParameter', index };
    }
    default:
      return PRIMITIVE_TOKEN[ty.$kind];
  }
}

/** Compiles a list of types. */
export function compileTypes(ctx: Context, tps: TypeParameterMap, tys: readonly Type[]): SignatureToken[] {
  return tys.map((t) => compileType(ctx, tps, t));
}

/** Locals of the function being compiled (parameters first). */
class FunctionFrame {
  private readonly locals = new Map<string, number>();

  constructor(readonly typeParameters: TypeParameterMap) {}

  get(name: string): number {
    const idx = this.locals.get(name);
    if (idx === undefined) throw new IrCompileError(`variable ${name} undefined`);
    return idx;
  }

  define(name: string): void {
    if (this.locals.size >= 0xffff) throw new IrCompileError('Max number of locals reached');
    if (this.locals.has(name)) throw new IrCompileError(`variable redefinition ${name}`);
    this.locals.set(name, this.locals.size);
  }
}

const simple = (k: keyof typeof SIMPLE_INSTRUCTION): Bytecode => SIMPLE_INSTRUCTION[k];
type Indexed = IndexedBytecodeKind;
const op = (k: Indexed, index: number): Bytecode => ({ $kind: k, index });

/** The compiled body of one function. */
export interface CompiledBody {
  locals: number;
  code: Bytecode[];
  jumpTables: VariantJumpTable[];
}

/** Compiles parameters, locals and blocks into a code unit. */
export function compileFunctionBody(
  ctx: Context,
  tps: TypeParameterMap,
  parameters: readonly { var: { name: string }; type: Type }[],
  locals: readonly { var: { name: string }; type: Type }[],
  blocks: readonly Block[],
): CompiledBody {
  const frame = new FunctionFrame(tps);
  for (const p of parameters) {
    compileType(ctx, tps, p.type);
    frame.define(p.var.name);
  }
  const localTypes: SignatureToken[] = [];
  for (const l of locals) {
    const token = compileType(ctx, tps, l.type);
    frame.define(l.var.name);
    localTypes.push(token);
  }
  const gen = new CodeGenerator(ctx, frame);
  for (const block of blocks) gen.block(block);
  const { code, jumpTables } = gen.finish();
  return { locals: ctx.signatureIndex(localTypes), code, jumpTables };
}

class CodeGenerator {
  readonly code: Bytecode[] = [];
  readonly jumpTables: VariantJumpTable[] = [];
  private readonly labelToIndex = new Map<string, number>();

  constructor(
    private readonly ctx: Context,
    private readonly frame: FunctionFrame,
  ) {}

  private get tps(): TypeParameterMap {
    return this.frame.typeParameters;
  }

  private emit(instr: Bytecode): void {
    this.code.push(instr);
  }

  block(block: Block): void {
    this.labelToIndex.set(block.label, this.code.length);
    this.ctx.labelIndex(block.label);
    for (const s of block.statements) this.statement(s);
  }

  finish(): { code: Bytecode[]; jumpTables: VariantJumpTable[] } {
    const used = this.ctx.usedLabels();
    const remap = this.ctx.buildIndexRemapping(this.labelToIndex);
    const fix = (fake: number): number => {
      const actual = remap.get(fake);
      if (actual === undefined) {
        throw new IrCompileError(`Invalid block labels, labels were used without being declared (${used[fake]})`);
      }
      return actual;
    };
    const code = this.code.map((i) => (i.$kind === 'BrTrue' || i.$kind === 'BrFalse' || i.$kind === 'Branch' ? op(i.$kind, fix(i.index)) : i));
    const jumpTables = this.jumpTables.map((jt) => ({
      headEnum: jt.headEnum,
      jumpTable: { $kind: 'Full' as const, offsets: jt.jumpTable.offsets.map(fix) },
    }));
    return { code, jumpTables };
  }

  private statement(s: Statement): void {
    const ctx = this.ctx;
    switch (s.$kind) {
      case 'Abort':
        if (s.exp !== null) this.exp(s.exp);
        this.emit(simple('Abort'));
        return;
      case 'Assert': {
        this.exp(s.cond);
        const cont = `assert_cont_${this.code.length}`;
        this.emit(op('BrFalse', ctx.labelIndex(cont)));
        this.exp(s.error);
        this.emit(simple('Abort'));
        this.labelToIndex.set(cont, this.code.length);
        return;
      }
      case 'Assign':
        this.exp(s.exp);
        this.lvalues(s.lvalues);
        return;
      case 'Exp':
        this.exp(s.exp);
        return;
      case 'Jump':
        this.emit(op('Branch', ctx.labelIndex(s.label)));
        return;
      case 'JumpIf':
      case 'JumpIfFalse':
        this.exp(s.cond);
        this.emit(op(s.$kind === 'JumpIf' ? 'BrTrue' : 'BrFalse', ctx.labelIndex(s.label)));
        return;
      case 'Return':
        this.exp(s.exp);
        this.emit(simple('Ret'));
        return;
      case 'Unpack': {
        const tokens = compileTypes(ctx, this.tps, s.typeArguments);
        this.exp(s.exp);
        const def = ctx.structDefinitionIndex(s.name);
        if (s.typeArguments.length === 0) this.emit(op('Unpack', def));
        else this.emit(op('UnpackGeneric', ctx.structInstantiationIndex(def, ctx.signatureIndex(tokens))));
        for (const b of [...s.bindings].reverse()) this.emit(op('StLoc', this.frame.get(b.var.name)));
        return;
      }
      case 'VecUnpack': {
        this.exp(s.exp);
        const sig = ctx.signatureIndex(compileTypes(ctx, this.tps, [s.type]));
        this.emit({ $kind: 'VecUnpack', index: sig, count: s.count });
        this.lvalues(s.lvalues);
        return;
      }
      case 'UnpackVariant': {
        const tokens = compileTypes(ctx, this.tps, s.typeArguments);
        this.exp(s.exp);
        const def = ctx.enumDefinitionIndex(s.enum);
        const { enumDef, tag } = ctx.variant(ctx.datatypeHandleIndex('Self', s.enum), s.variant);
        if (s.typeArguments.length === 0) {
          this.emit(op(unpackKind(s.unpackType, false), ctx.variantHandleIndex(enumDef, tag)));
        } else {
          const inst = ctx.enumInstantiationIndex(def, ctx.signatureIndex(tokens));
          this.emit(op(unpackKind(s.unpackType, true), ctx.variantInstantiationHandleIndex(inst, tag)));
        }
        for (const b of [...s.bindings].reverse()) this.emit(op('StLoc', this.frame.get(b.var.name)));
        return;
      }
      case 'VariantSwitch': {
        this.exp(s.exp);
        const def = ctx.enumDefinitionIndex(s.enum);
        const handle = ctx.datatypeHandleIndex('Self', s.enum);
        const offsets: number[] = [];
        s.arms.forEach((arm, i) => {
          const { tag } = ctx.variant(handle, arm.variant);
          if (i !== tag) throw new IrCompileError(`Variant switch defined out of order for variant ${arm.variant}`);
          offsets.push(ctx.labelIndex(arm.label));
        });
        this.jumpTables.push({ headEnum: def, jumpTable: { $kind: 'Full', offsets } });
        this.emit(op('VariantSwitch', this.jumpTables.length - 1));
        return;
      }
    }
  }

  private lvalues(lvalues: readonly LValue[]): void {
    for (const lv of [...lvalues].reverse()) {
      if (lv.$kind === 'Var') {
        this.emit(op('StLoc', this.frame.get(lv.var.name)));
      } else if (lv.$kind === 'Mutate') {
        this.exp(lv.exp);
        this.emit(simple('WriteRef'));
      } else {
        this.emit(simple('Pop'));
      }
    }
  }

  private exp(e: Exp): void {
    const ctx = this.ctx;
    switch (e.$kind) {
      case 'Move':
        this.emit(op('MoveLoc', this.frame.get(e.var.name)));
        return;
      case 'Copy':
        this.emit(op('CopyLoc', this.frame.get(e.var.name)));
        return;
      case 'Constant':
        this.emit(op('LdConst', ctx.namedConstantIndex(e.name)));
        return;
      case 'BorrowLocal':
        this.emit(op(e.mutable ? 'MutBorrowLoc' : 'ImmBorrowLoc', this.frame.get(e.var.name)));
        return;
      case 'Value': {
        const v = e.value;
        if (v.$kind === 'Address' || v.$kind === 'ByteArray') {
          const type: SignatureToken = v.$kind === 'Address' ? PRIMITIVE_TOKEN.Address : { $kind: 'Vector', type: PRIMITIVE_TOKEN.U8 };
          const data =
            v.$kind === 'Address'
              ? encodeConstantValue({ $kind: 'Address', address: v.address })
              : encodeConstantValue({ $kind: 'Vector', elements: [...v.bytes].map((b) => ({ $kind: 'U8', value: b })) });
          this.emit(op('LdConst', ctx.constantIndex({ type, data })));
        } else if (v.$kind === 'Bool') {
          this.emit(simple(v.value ? 'LdTrue' : 'LdFalse'));
        } else if (typeof v.value === 'number') {
          this.emit({ $kind: v.$kind === 'U8' ? 'LdU8' : v.$kind === 'U16' ? 'LdU16' : 'LdU32', value: v.value });
        } else {
          this.emit({ $kind: v.$kind === 'U64' ? 'LdU64' : v.$kind === 'U128' ? 'LdU128' : 'LdU256', value: v.value });
        }
        return;
      }
      case 'Pack': {
        const tokens = compileTypes(ctx, this.tps, e.typeArguments);
        const sig = ctx.signatureIndex(tokens);
        const def = ctx.structDefinitionIndex(e.name);
        const handle = ctx.datatypeHandleIndex('Self', e.name);
        e.fields.forEach((f, i) => {
          if (ctx.field(handle, f.field).declOrder !== i) {
            throw new IrCompileError(`Field ${f.field} defined out of order for struct ${e.name}`);
          }
          this.exp(f.exp);
        });
        if (e.typeArguments.length === 0) this.emit(op('Pack', def));
        else this.emit(op('PackGeneric', ctx.structInstantiationIndex(def, sig)));
        return;
      }
      case 'VecPack': {
        this.exp(e.args);
        const sig = ctx.signatureIndex(compileTypes(ctx, this.tps, [e.type]));
        this.emit({ $kind: 'VecPack', index: sig, count: e.count });
        return;
      }
      case 'Not':
        this.exp(e.exp);
        this.emit(simple('Not'));
        return;
      case 'Binary':
        this.exp(e.lhs);
        this.exp(e.rhs);
        this.emit(simple(e.op));
        return;
      case 'Dereference':
        this.exp(e.exp);
        this.emit(simple('ReadRef'));
        return;
      case 'Borrow': {
        this.exp(e.exp);
        const handle = ctx.datatypeHandleIndex('Self', e.struct);
        const f = ctx.field(handle, e.field);
        const fh = ctx.fieldHandleIndex(f.def, f.declOrder);
        if (e.typeArguments.length === 0) {
          this.emit(op(e.mutable ? 'MutBorrowField' : 'ImmBorrowField', fh));
        } else {
          const sig = ctx.signatureIndex(compileTypes(ctx, this.tps, e.typeArguments));
          this.emit(op(e.mutable ? 'MutBorrowFieldGeneric' : 'ImmBorrowFieldGeneric', ctx.fieldInstantiationIndex(fh, sig)));
        }
        return;
      }
      case 'Call':
        this.exp(e.args);
        this.call(e.call);
        return;
      case 'ExprList':
        for (const x of e.exps) this.exp(x);
        return;
      case 'PackVariant': {
        const tokens = compileTypes(ctx, this.tps, e.typeArguments);
        const sig = ctx.signatureIndex(tokens);
        const def = ctx.enumDefinitionIndex(e.enum);
        const handle = ctx.datatypeHandleIndex('Self', e.enum);
        const { enumDef, tag } = ctx.variant(handle, e.variant);
        for (const f of e.fields) this.exp(f.exp);
        if (e.typeArguments.length === 0) {
          this.emit(op('PackVariant', ctx.variantHandleIndex(enumDef, tag)));
        } else {
          const inst = ctx.enumInstantiationIndex(def, sig);
          this.emit(op('PackVariantGeneric', ctx.variantInstantiationHandleIndex(inst, tag)));
        }
        return;
      }
    }
  }

  private call(f: FunctionCall): void {
    const ctx = this.ctx;
    if (f.$kind === 'ModuleFunction') {
      const sig = ctx.signatureIndex(compileTypes(ctx, this.tps, f.typeArguments));
      const handle = ctx.functionHandleIndex(f.module, f.name);
      if (f.typeArguments.length === 0) this.emit(op('Call', handle));
      else this.emit(op('CallGeneric', ctx.functionInstantiationIndex(handle, sig)));
      return;
    }
    switch (f.builtin) {
      case 'Freeze':
        this.emit(simple('FreezeRef'));
        return;
      case 'ToU8':
      case 'ToU16':
      case 'ToU32':
      case 'ToU64':
      case 'ToU128':
      case 'ToU256':
        this.emit(simple(`CastU${f.builtin.slice(3)}` as 'CastU8'));
        return;
      default: {
        const sig = ctx.signatureIndex(compileTypes(ctx, this.tps, f.typeArguments));
        this.emit(op(f.builtin, sig));
      }
    }
  }
}

function unpackKind(t: UnpackType, generic: boolean): Indexed {
  const suffix = t === 'ByValue' ? '' : t === 'ByImmRef' ? 'ImmRef' : 'MutRef';
  return `UnpackVariant${generic ? 'Generic' : ''}${suffix}` as Indexed;
}

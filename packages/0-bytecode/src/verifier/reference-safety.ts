/**
 * Reference safety (`reference_safety`): an abstract interpretation over borrow graphs. No
 * dangling references, no writes or mutable uses while borrowed, no reads through a mutably
 * borrowed reference, nothing borrowed from the frame escapes on return. This is upstream's
 * graph-based checker with Sui's settings (global storage deprecated, additional borrow checks).
 */
import type { Bytecode, CompiledModule, SignatureToken } from '../file-format.js';
import { PartialError, type VerifierStatusCode } from './errors.js';
import { analyzeFunction, type AbstractDomain, type ControlFlowGraph } from './cfg.js';
import { BorrowGraph, label, type Label } from './borrow-graph.js';

/** A value on the stack or in a local: a reference id, or {@link VALUE} for non-references. */
type AbstractValue = number;
const VALUE = -1;

interface State {
  locals: AbstractValue[];
  graph: BorrowGraph;
  nextId: number;
}

class Analysis {
  private readonly stack: AbstractValue[] = [];

  constructor(
    private readonly m: CompiledModule,
    private readonly fn: number,
    private readonly returnCount: number,
    private readonly additionalBorrowChecks: boolean,
  ) {}

  initial(parameters: readonly SignatureToken[], localCount: number): State {
    const n = parameters.length + localCount;
    const s: State = { locals: new Array<number>(n).fill(VALUE), graph: new BorrowGraph(), nextId: n + 1 };
    parameters.forEach((t, i) => {
      if (t.$kind === 'Reference' || t.$kind === 'MutableReference') {
        s.graph.newRef(i, t.$kind === 'MutableReference');
        s.locals[i] = i;
      }
    });
    s.graph.newRef(n, true);
    return s;
  }

  // ---- predicates -------------------------------------------------------------------------

  private root(s: State): number {
    return s.locals.length;
  }

  private err(code: VerifierStatusCode, offset: number): PartialError {
    return new PartialError(code).atCodeOffset(this.fn, offset);
  }

  private newRef(s: State, mut: boolean): number {
    const id = s.nextId++;
    s.graph.newRef(id, mut);
    return id;
  }

  private hasFullBorrows(s: State, id: number): boolean {
    return s.graph.borrowedBy(id).full.length > 0;
  }

  private hasConsistentBorrows(s: State, id: number, lbl: Label | null): boolean {
    const b = s.graph.borrowedBy(id);
    if (b.full.length > 0) return true;
    if (lbl === null) return [...b.fields.values()].some((l) => l.length > 0);
    return (b.fields.get(lbl)?.length ?? 0) > 0;
  }

  private hasConsistentMutableBorrows(s: State, id: number, lbl: Label | null): boolean {
    const b = s.graph.borrowedBy(id);
    const anyMut = (ids: readonly number[]): boolean => ids.some((x) => s.graph.isMutable(x));
    if (anyMut(b.full)) return true;
    if (lbl === null) return [...b.fields.values()].some(anyMut);
    return anyMut(b.fields.get(lbl) ?? []);
  }

  private isWritable(s: State, id: number): boolean {
    return !this.hasConsistentBorrows(s, id, null);
  }

  private isFreezable(s: State, id: number, field: number | null): boolean {
    return !this.hasConsistentMutableBorrows(s, id, field === null ? null : label.structField(field));
  }

  private isReadable(s: State, id: number, field: number | null): boolean {
    return !s.graph.isMutable(id) || this.isFreezable(s, id, field);
  }

  private isLocalBorrowed(s: State, local: number): boolean {
    return this.hasConsistentBorrows(s, this.root(s), label.local(local));
  }

  private isLocalMutablyBorrowed(s: State, local: number): boolean {
    if (this.additionalBorrowChecks && this.hasFullBorrows(s, this.root(s))) return true;
    return this.hasConsistentMutableBorrows(s, this.root(s), label.local(local));
  }

  // ---- stack --------------------------------------------------------------------------------

  private pop(): AbstractValue {
    const v = this.stack.pop();
    if (v === undefined) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'empty reference stack');
    return v;
  }

  private popRef(): number {
    const v = this.pop();
    if (v === VALUE) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'expected a reference');
    return v;
  }

  private release(s: State, v: AbstractValue): void {
    if (v !== VALUE) s.graph.release(v);
  }

  // ---- instructions ---------------------------------------------------------------------------

  private callV2(s: State, offset: number, args: AbstractValue[], returns: ('imm' | 'mut' | 'value')[], code: VerifierStatusCode): void {
    const all = new Set<number>();
    const muts = new Set<number>();
    for (const id of args) {
      if (id === VALUE) continue;
      if (s.graph.isMutable(id)) {
        if (!this.isWritable(s, id)) throw this.err(code, offset);
        muts.add(id);
      }
      all.add(id);
    }
    const allSorted = [...all].sort((a, b) => a - b);
    const mutSorted = [...muts].sort((a, b) => a - b);
    for (const kind of returns) {
      if (kind === 'value') {
        this.stack.push(VALUE);
        continue;
      }
      const id = this.newRef(s, kind === 'mut');
      for (const parent of kind === 'mut' ? mutSorted : allSorted) s.graph.addWeakBorrow(parent, id);
      this.stack.push(id);
    }
    for (const id of allSorted) s.graph.release(id);
  }

  private call(s: State, offset: number, handle: number): void {
    const h = this.m.functionHandles[handle];
    const n = this.m.signatures[h.parameters].length;
    const args: AbstractValue[] = [];
    for (let i = 0; i < n; i++) args.push(this.pop());
    args.reverse();
    const returns = this.m.signatures[h.return].map((t) => (t.$kind === 'Reference' ? ('imm' as const) : t.$kind === 'MutableReference' ? ('mut' as const) : ('value' as const)));
    this.callV2(s, offset, args, returns, 'CALL_BORROWED_MUTABLE_REFERENCE_ERROR');
  }

  private borrowField(s: State, offset: number, mut: boolean, fieldHandle: number): void {
    const id = this.popRef();
    if ((mut && this.hasFullBorrows(s, id)) || (!mut && !this.isReadable(s, id, fieldHandle))) {
      throw this.err('FIELD_EXISTS_MUTABLE_BORROW_ERROR', offset);
    }
    const child = this.newRef(s, mut);
    s.graph.addStrongFieldBorrow(id, label.structField(fieldHandle), child);
    s.graph.release(id);
    this.stack.push(child);
  }

  private unpackVariantRef(s: State, offset: number, enumDef: number, tag: number, fields: number, mut: boolean): void {
    const id = this.popRef();
    if ((mut && this.hasFullBorrows(s, id)) || (!mut && !this.isReadable(s, id, null))) {
      throw this.err('FIELD_EXISTS_MUTABLE_BORROW_ERROR', offset);
    }
    for (let i = 0; i < fields; i++) {
      const child = this.newRef(s, mut);
      s.graph.addStrongFieldBorrow(id, label.variantField(enumDef, tag, i), child);
      this.stack.push(child);
    }
    s.graph.release(id);
  }

  private vectorOp(s: State, offset: number, mut: boolean): void {
    const id = this.popRef();
    if (mut && !this.isWritable(s, id)) throw this.err('VEC_UPDATE_EXISTS_MUTABLE_BORROW_ERROR', offset);
    s.graph.release(id);
  }

  private ret(s: State, offset: number): void {
    const values: AbstractValue[] = [];
    for (let i = 0; i < this.returnCount; i++) values.push(this.pop());
    values.reverse();
    const locals = [...new Set(s.locals.filter((v) => v !== VALUE))].sort((a, b) => a - b);
    for (const id of locals) s.graph.release(id);
    if (this.hasConsistentBorrows(s, this.root(s), null)) throw this.err('UNSAFE_RET_LOCAL_OR_RESOURCE_STILL_BORROWED', offset);
    for (const id of values) {
      if (id !== VALUE && s.graph.isMutable(id) && !this.isWritable(s, id)) throw this.err('RET_BORROWED_MUTABLE_REFERENCE_ERROR', offset);
    }
  }

  private fieldCount(def: number): number {
    const info = this.m.structDefs[def].fieldInformation;
    return info.$kind === 'Declared' ? info.fields.length : 0;
  }

  private variant(index: number, generic: boolean): [enumDef: number, tag: number, fields: number] {
    const m = this.m;
    if (!generic) {
      const h = m.variantHandles[index];
      return [h.enumDef, h.variant, m.enumDefs[h.enumDef].variants[h.variant].fields.length];
    }
    const h = m.variantInstantiationHandles[index];
    const def = m.enumDefInstantiations[h.enumDef].def;
    return [def, h.variant, m.enumDefs[def].variants[h.variant].fields.length];
  }

  private popValues(n: number): void {
    for (let i = 0; i < n; i++) this.pop();
  }

  private pushValues(n: number): void {
    for (let i = 0; i < n; i++) this.stack.push(VALUE);
  }

  execute(s: State, ins: Bytecode, offset: number): void {
    const m = this.m;
    switch (ins.$kind) {
      case 'Pop':
      case 'VariantSwitch':
        this.release(s, this.pop());
        break;
      case 'CopyLoc': {
        const v = s.locals[ins.index];
        if (v !== VALUE) {
          const id = this.newRef(s, s.graph.isMutable(v));
          s.graph.addStrongBorrow(v, id);
          this.stack.push(id);
        } else if (this.isLocalMutablyBorrowed(s, ins.index)) {
          throw this.err('COPYLOC_EXISTS_BORROW_ERROR', offset);
        } else this.stack.push(VALUE);
        break;
      }
      case 'MoveLoc': {
        const v = s.locals[ins.index];
        s.locals[ins.index] = VALUE;
        if (v === VALUE && this.isLocalBorrowed(s, ins.index)) throw this.err('MOVELOC_EXISTS_BORROW_ERROR', offset);
        this.stack.push(v);
        break;
      }
      case 'StLoc': {
        const old = s.locals[ins.index];
        s.locals[ins.index] = this.pop();
        if (old !== VALUE) s.graph.release(old);
        else if (this.isLocalBorrowed(s, ins.index)) throw this.err('STLOC_UNSAFE_TO_DESTROY_ERROR', offset);
        break;
      }
      case 'FreezeRef': {
        const id = this.popRef();
        if (!this.isFreezable(s, id, null)) throw this.err('FREEZEREF_EXISTS_MUTABLE_BORROW_ERROR', offset);
        const frozen = this.newRef(s, false);
        s.graph.addStrongBorrow(id, frozen);
        s.graph.release(id);
        this.stack.push(frozen);
        break;
      }
      case 'Eq':
      case 'Neq': {
        const v1 = this.pop();
        const v2 = this.pop();
        if (v1 !== VALUE && v2 !== VALUE) {
          if (!this.isReadable(s, v1, null) || !this.isReadable(s, v2, null)) throw this.err('READREF_EXISTS_MUTABLE_BORROW_ERROR', offset);
          s.graph.release(v1);
          s.graph.release(v2);
        }
        this.stack.push(VALUE);
        break;
      }
      case 'ReadRef': {
        const id = this.popRef();
        if (!this.isReadable(s, id, null)) throw this.err('READREF_EXISTS_MUTABLE_BORROW_ERROR', offset);
        s.graph.release(id);
        this.stack.push(VALUE);
        break;
      }
      case 'WriteRef': {
        const id = this.popRef();
        this.pop();
        if (!this.isWritable(s, id)) throw this.err('WRITEREF_EXISTS_BORROW_ERROR', offset);
        s.graph.release(id);
        break;
      }
      case 'MutBorrowLoc':
      case 'ImmBorrowLoc': {
        const mut = ins.$kind === 'MutBorrowLoc';
        if (!mut && this.isLocalMutablyBorrowed(s, ins.index)) throw this.err('BORROWLOC_EXISTS_BORROW_ERROR', offset);
        if (this.additionalBorrowChecks && mut && this.hasFullBorrows(s, this.root(s))) throw this.err('BORROWLOC_EXISTS_BORROW_ERROR', offset);
        const id = this.newRef(s, mut);
        s.graph.addStrongFieldBorrow(this.root(s), label.local(ins.index), id);
        this.stack.push(id);
        break;
      }
      case 'MutBorrowField':
      case 'ImmBorrowField':
        this.borrowField(s, offset, ins.$kind === 'MutBorrowField', ins.index);
        break;
      case 'MutBorrowFieldGeneric':
      case 'ImmBorrowFieldGeneric':
        this.borrowField(s, offset, ins.$kind === 'MutBorrowFieldGeneric', m.fieldInstantiations[ins.index].handle);
        break;
      case 'Call':
        this.call(s, offset, ins.index);
        break;
      case 'CallGeneric':
        this.call(s, offset, m.functionInstantiations[ins.index].handle);
        break;
      case 'Ret':
        this.ret(s, offset);
        break;
      case 'BrTrue':
      case 'BrFalse':
      case 'Abort':
        this.pop();
        break;
      case 'LdTrue':
      case 'LdFalse':
      case 'LdU8':
      case 'LdU16':
      case 'LdU32':
      case 'LdU64':
      case 'LdU128':
      case 'LdU256':
      case 'LdConst':
        this.stack.push(VALUE);
        break;
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
      case 'Lt':
      case 'Gt':
      case 'Le':
      case 'Ge':
        this.popValues(2);
        this.stack.push(VALUE);
        break;
      case 'Pack':
        this.popValues(this.fieldCount(ins.index));
        this.stack.push(VALUE);
        break;
      case 'PackGeneric':
        this.popValues(this.fieldCount(m.structDefInstantiations[ins.index].def));
        this.stack.push(VALUE);
        break;
      case 'Unpack':
        this.pop();
        this.pushValues(this.fieldCount(ins.index));
        break;
      case 'UnpackGeneric':
        this.pop();
        this.pushValues(this.fieldCount(m.structDefInstantiations[ins.index].def));
        break;
      case 'PackVariant':
      case 'PackVariantGeneric':
        this.popValues(this.variant(ins.index, ins.$kind === 'PackVariantGeneric')[2]);
        this.stack.push(VALUE);
        break;
      case 'UnpackVariant':
      case 'UnpackVariantGeneric':
        this.pop();
        this.pushValues(this.variant(ins.index, ins.$kind === 'UnpackVariantGeneric')[2]);
        break;
      case 'UnpackVariantImmRef':
      case 'UnpackVariantMutRef':
      case 'UnpackVariantGenericImmRef':
      case 'UnpackVariantGenericMutRef': {
        const generic = ins.$kind.includes('Generic');
        const [enumDef, tag, fields] = this.variant(ins.index, generic);
        this.unpackVariantRef(s, offset, enumDef, tag, fields, ins.$kind.endsWith('MutRef'));
        break;
      }
      case 'VecPack':
        this.popValues(Number(ins.count));
        this.stack.push(VALUE);
        break;
      case 'VecLen':
        this.vectorOp(s, offset, false);
        this.stack.push(VALUE);
        break;
      case 'VecImmBorrow':
      case 'VecMutBorrow': {
        this.pop();
        const vec = this.pop();
        const mut = ins.$kind === 'VecMutBorrow';
        this.callV2(s, offset, [vec], [mut ? 'mut' : 'imm'], 'VEC_BORROW_ELEMENT_EXISTS_MUTABLE_BORROW_ERROR');
        break;
      }
      case 'VecPushBack':
        this.pop();
        this.vectorOp(s, offset, true);
        break;
      case 'VecPopBack':
        this.vectorOp(s, offset, true);
        this.stack.push(VALUE);
        break;
      case 'VecUnpack':
        this.pop();
        this.pushValues(Number(ins.count));
        break;
      case 'VecSwap':
        this.popValues(2);
        this.vectorOp(s, offset, true);
        break;
      case 'Branch':
      case 'Nop':
      case 'CastU8':
      case 'CastU16':
      case 'CastU32':
      case 'CastU64':
      case 'CastU128':
      case 'CastU256':
      case 'Not':
        break;
      default:
        // Global storage is refused by the bounds checker before this pass.
        throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `unexpected ${ins.$kind}`);
    }
  }

  /** Renumber references so that local `i` holds id `i` (upstream `construct_canonical_state`). */
  canonical(s: State): State {
    const n = s.locals.length;
    const idMap = new Map<number, number>([[n, n]]);
    const locals = s.locals.map((v, i) => {
      if (v === VALUE) return VALUE;
      idMap.set(v, i);
      return i;
    });
    s.graph.remap(idMap);
    return { locals, graph: s.graph, nextId: n + 1 };
  }

  stackEmpty(): boolean {
    return this.stack.length === 0;
  }
}

function cloneState(s: State): State {
  return { locals: s.locals.slice(), graph: s.graph.clone(), nextId: s.nextId };
}

/** Join of two canonical states: `null` when `post` adds nothing to `pre`. */
function join(pre: State, post: State): State | null {
  const selfGraph = pre.graph.clone();
  const otherGraph = post.graph.clone();
  const locals = pre.locals.map((v1, i) => {
    const v2 = post.locals[i];
    if (v1 !== VALUE && v2 === VALUE) {
      selfGraph.release(v1);
      return VALUE;
    }
    if (v1 === VALUE && v2 !== VALUE) {
      otherGraph.release(v2);
      return VALUE;
    }
    return v1;
  });
  const joined: State = { locals, graph: selfGraph.join(otherGraph), nextId: pre.nextId };
  const unchanged = pre.locals.every((v, i) => v === locals[i]);
  if (unchanged && pre.graph.leq(joined.graph)) return null;
  return joined;
}

/** The reference-safety pass of one function. */
export function verifyReferenceSafety(
  m: CompiledModule,
  fn: number,
  parameters: readonly SignatureToken[],
  localCount: number,
  returnCount: number,
  code: readonly Bytecode[],
  cfg: ControlFlowGraph,
  additionalBorrowChecks: boolean,
): void {
  const analysis = new Analysis(m, fn, returnCount, additionalBorrowChecks);
  const domain: AbstractDomain<State> = {
    clone: cloneState,
    join,
    execute(state, ins, offset, blockEnd) {
      analysis.execute(state, ins, offset);
      if (offset !== blockEnd) return state;
      if (!analysis.stackEmpty()) throw new PartialError('UNKNOWN_INVARIANT_VIOLATION_ERROR', 'stack not empty at block end');
      return analysis.canonical(state);
    },
  };
  analyzeFunction(cfg, code, analysis.initial(parameters, localCount), domain);
}

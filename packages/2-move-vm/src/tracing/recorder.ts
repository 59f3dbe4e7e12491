/**
 * {@link UpstreamTraceRecorder}: a {@link Tracer} that writes the upstream Move trace
 * (`sui move test --trace-execution`): frames, instructions with their `gas_left`, and
 * the effects of each instruction (values popped and pushed, locals read and written,
 * writes through references with the root value after the write, data loaded by
 * natives), in upstream's order and encoding.
 *
 * The interpreter's values do not say where a reference points (a reference to a
 * container is the container itself), so the recorder keeps a shadow of the operand
 * stack and of each frame's locals: every slot has its type and, for references, its
 * rooted location (`Local`, `Indexed`, `Global`), derived instruction by instruction as
 * upstream's tracer does. Root snapshots are read from the live locals of the frame a
 * location is rooted in (frames keep their locals array for their whole life).
 *
 * Natives: a call of a native is recorded as upstream does (`CALL`, `OpenFrame` with
 * `is_native`, a `DataLoad` per returned reference, `Push` of each result, `CloseFrame`),
 * for natives run by `CALL` and for the `0x1::vector` natives the translator inlines.
 * References handed out by natives (and reference arguments of the entry function) are
 * `Global` locations whose snapshot is the value at load time, as in upstream's tracer
 * of 2025; the tracer of 2026 refreshes it while the reference sits in a local.
 */
import type { Bytecode } from '@smi/bytecode';
import type { FunctionInstance } from '../interpreter/instance.js';
import type { MachineView, Tracer } from '../interpreter/tracer.js';
import type { LoadedFunction, TranslatedCode } from '../loader/linker.js';
import type { Type, TypeTable } from '../types/runtime-type.js';
import { peekRef } from '../values/value.js';
import { bareAddress, isRefType, refKindOf, traceValueOf, typeTagOf, typeTagWithRefs } from './convert.js';
import { stringifyTraceJson, type TraceEffect, type TraceFrame, type TraceLocation, type TraceMoveValue, type TraceRecord, type TraceTypeTag, type TraceValue } from './format.js';
import { INLINED_NATIVE_OPS, POP1, POP2, PUSH_TOP, upstreamOpcodeName } from './opcodes.js';
import { errorMessage } from '@smi/bytecode';

/** Options of {@link UpstreamTraceRecorder}. */
export interface UpstreamTraceOptions {
  /**
   * Trace format version written in the header. Version 3 adds `version_id` (the storage
   * id of the running package) to frames; version 2 omits it. Default 3.
   */
  version?: 2 | 3;
  /**
   * Order of the `Push` effects of `UNPACK_VARIANT*`. Upstream's tracer pushed the top of
   * the stack first until March 2026 (`'top-first'`: the tracer behind traces of format
   * versions 2 and 3 written by `sui move test` in 2025), and the first field first since
   * (`'deepest-first'`, as for `UNPACK`). Default `'deepest-first'`.
   */
  variantPushOrder?: 'top-first' | 'deepest-first';
}

/** A stack or local slot: its type and, for references, where it points (`null`: not yet known / empty). */
interface Slot {
  readonly type: Type;
  readonly loc: TraceLocation | null;
}

interface TFrame {
  readonly id: number;
  readonly inst: FunctionInstance;
  readonly slots: Slot[];
  /** The frame's live locals (known from its first instruction on). */
  locals: readonly unknown[] | null;
}

/** A call of a native function in flight. */
interface NativeCall {
  readonly callee: LoadedFunction;
  readonly typeArgs: readonly Type[];
  readonly params: TraceValue[];
}

/** The instruction between `beforeInstruction` and `afterInstruction`. */
interface Pending {
  readonly inst: FunctionInstance;
  readonly pc: number;
  readonly bc: Bytecode;
  readonly name: string;
  readonly gasBefore: number;
  readonly pre: TraceEffect[];
  /** Values the instruction pops (calls: none, their arguments go to the callee). */
  readonly pops: number;
  readonly native: NativeCall | null;
  /** Index operand of `VEC_*_BORROW`. */
  readonly index: number;
}

function localIndex(bc: Bytecode): number {
  return (bc as { index: number }).index;
}

/**
 * Records the upstream trace of a call. Pass it as `tracer` to {@link MoveVM.call}, then
 * read {@link records} or {@link toJsonLines}. One recorder per call.
 */
export class UpstreamTraceRecorder implements Tracer {
  /** Trace format version. */
  readonly version: 2 | 3;
  private readonly variantTopFirst: boolean;
  private readonly out: TraceRecord[] = [];
  private readonly frames: TFrame[] = [];
  private readonly stack: Slot[] = [];
  private readonly loaded = new Map<number, TraceValue>();
  private pending: Pending | null = null;
  /** A native called by `CALL`, run after `afterInstruction`: its results appear at the next hook. */
  private nativeInFlight: { id: number; call: NativeCall } | null = null;
  private errors = 0;
  /** Gas of the `OpenFrame` of a callee entered by `CALL`: before the call's charge. */
  private calleeGas: number | null = null;
  /** The machine's gas left at the last hook (what it charged so far, unlike the gas reported). */
  private machineGas: number | null = null;

  constructor(options: UpstreamTraceOptions = {}) {
    this.version = options.version ?? 3;
    this.variantTopFirst = options.variantPushOrder === 'top-first';
  }

  /**
   * Number of `!! TRACING ERROR !!` records written: places where the recorder lost track
   * of the machine (a bug of the recorder, or hooks called out of order). 0 normally.
   */
  get tracingErrors(): number {
    return this.errors;
  }

  /** The records so far (without the version header). */
  records(): TraceRecord[] {
    return this.out;
  }

  /** The trace as upstream writes it: `{"version":N}` then one JSON record per line. */
  toJsonLines(): string {
    const lines = [stringifyTraceJson({ version: this.version })];
    for (const r of this.out) lines.push(stringifyTraceJson(r));
    return `${lines.join('\n')}\n`;
  }

  // ---------------------------------------------------------------- Tracer hooks

  /** @inheritdoc */
  openFrame(inst: FunctionInstance, _frameId: number, args: readonly unknown[], gasLeft: number): void {
    // Native frames are recorded from the `CALL` instruction (see the class comment).
    if (inst.code === null) return;
    this.machineGas = gasLeft;
    this.guard(() => {
      const table = this.table(inst);
      const params = inst.fn.params.map((p) => table.subst(p, inst.typeArgs));
      const slots: Slot[] = [];
      const values: TraceValue[] = [];
      if (this.frames.length === 0) {
        params.forEach((t, i) => {
          const ref = refKindOf(t);
          if (ref === null) {
            slots.push({ type: t, loc: null });
            values.push({ RuntimeValue: { value: traceValueOf(table, args[i], t) } });
          } else {
            const loc = this.dataLoad(ref, traceValueOf(table, peekRef(args[i]), t.elem as Type));
            slots.push({ type: t, loc });
            values.push(this.loaded.get((loc as { Global: number }).Global) as TraceValue);
          }
        });
      } else {
        const n = params.length;
        const argSlots = this.stack.splice(this.stack.length - n, n);
        argSlots.forEach((s, i) => {
          slots.push(s);
          values.push(this.resolveSlot(table, s, args[i]));
        });
      }
      const locals = inst.fn.locals.map((t) => table.subst(t, inst.typeArgs));
      for (let i = slots.length; i < locals.length; i++) slots.push({ type: locals[i], loc: null });
      const id = this.out.length;
      const gas = this.calleeGas ?? gasLeft;
      this.calleeGas = null;
      this.out.push({ OpenFrame: { frame: this.frameRecord(id, inst.fn, inst.typeArgs, values, locals, table), gas_left: gas } });
      this.frames.push({ id, inst, slots, locals: null });
    });
  }

  /** @inheritdoc */
  beforeInstruction(inst: FunctionInstance, pc: number, view: MachineView): void {
    this.guard(() => {
      this.finishNative(view);
      const frame = this.current();
      frame.locals = view.locals;
      this.checkSync(view.sp, `before ${inst.fn.name}@${pc}`);
      const table = this.table(inst);
      const tc = inst.code as TranslatedCode;
      const bc = (inst.fn.def.code as { code: Bytecode[] }).code[pc];
      const kind = bc.$kind;
      const pre: TraceEffect[] = [];
      const popn = (n: number): void => {
        for (let i = 0; i < n; i++) pre.push({ Pop: this.resolveTop(table, view, i) });
      };
      let native: NativeCall | null = null;
      let index = 0;
      let pops = 0;
      if (POP1.has(kind)) pops = 1;
      else if (POP2.has(kind)) pops = 2;
      else if (kind === 'VecSwap') pops = 3;
      else if (kind === 'VecPack') pops = Number((bc as { count: bigint }).count);
      else if (kind === 'Pack' || kind === 'PackGeneric') pops = this.pushedTypes(inst, pc)[0].datatype?.fields().length ?? 0;
      else if (kind === 'PackVariant' || kind === 'PackVariantGeneric') pops = tc.variantSites[tc.code[pc * 2 + 1]].fieldCount;
      popn(pops);
      if (kind === 'MoveLoc' || kind === 'CopyLoc' || kind === 'MutBorrowLoc' || kind === 'ImmBorrowLoc') {
        const l = localIndex(bc);
        pre.push({ Read: { location: { Local: [frame.id, l] }, root_value_read: this.resolveLocal(frame, l), moved: kind === 'MoveLoc' } });
      } else if (kind === 'Call' || kind === 'CallGeneric') {
        const site = tc.code[pc * 2 + 1];
        const callee = tc.callSites[site].callee;
        if (callee.isNative) {
          const n = callee.params.length;
          const params: TraceValue[] = [];
          for (let i = n - 1; i >= 0; i--) params.push(this.resolveTop(table, view, i));
          native = { callee, typeArgs: inst.siteTypeArgs(table, site), params };
        }
      }
      if (kind === 'ReadRef') {
        const r = this.stack[this.stack.length - 1];
        const loc = r.loc as TraceLocation;
        pre.push({ Read: { location: loc, root_value_read: this.resolveLocation(loc), moved: false } });
      }
      if (kind === 'VecImmBorrow' || kind === 'VecMutBorrow') index = Number(view.stack[view.sp - 1] as bigint);
      this.pending = { inst, pc, bc, name: upstreamOpcodeName(kind), gasBefore: view.gasLeft, pre, pops, native, index };
    });
  }

  /** @inheritdoc */
  afterInstruction(inst: FunctionInstance, pc: number, view: MachineView): void {
    const machineGas = view.gasLeft;
    this.guard(() => {
      const p = this.pending;
      this.pending = null;
      if (p === null && this.nativeInFlight !== null) {
        // The interpreter reports a native `CALL` again once the native returned.
        this.machineGas = machineGas;
        this.finishNative(view);
        this.checkSync(view.sp, `after native call ${inst.fn.name}@${pc}`);
        return;
      }
      if (p === null || p.inst !== inst || p.pc !== pc) throw new Error(`afterInstruction without beforeInstruction at ${inst.fn.name}@${pc}`);
      const frame = this.current();
      frame.locals = view.locals;
      const table = this.table(inst);
      const tc = inst.code as TranslatedCode;
      const pushed = this.pushedTypes(inst, pc);
      const post: TraceEffect[] = [];
      let typeParams: TraceTypeTag[] = [];
      const kind = p.bc.$kind;
      const pop = (): Slot => {
        const s = this.stack.pop();
        if (s === undefined) throw new Error(`shadow stack underflow at ${inst.fn.name}@${pc}`);
        return s;
      };
      const pushTop = (): void => {
        post.push({ Push: this.resolveTop(table, view, 0) });
      };
      const pushAll = (n: number, deepestFirst: boolean): void => {
        for (let j = 0; j < n; j++) post.push({ Push: this.resolveTop(table, view, deepestFirst ? n - 1 - j : j) });
      };
      if (kind === 'Call' || kind === 'CallGeneric') {
        // Upstream announces the call and the callee's frame before charging the call: its
        // cost shows in the callee's first instruction (a native's `CloseFrame`).
        const before = this.gasBeforeCall(p);
        this.machineGas = machineGas;
        this.emitInstruction(p, before, [], []);
        if (p.native === null) this.calleeGas = before;
        if (p.native !== null) {
          const id = this.openNative(p.native, before, table);
          if (INLINED_NATIVE_OPS.has(tc.code[pc * 2])) this.closeNative(id, p.native, view, table);
          else this.nativeInFlight = { id, call: p.native };
        }
        return;
      }
      switch (kind) {
        case 'Pop':
        case 'BrTrue':
        case 'BrFalse':
        case 'Abort':
        case 'VariantSwitch':
          pop();
          break;
        case 'Branch':
        case 'Ret':
        case 'Nop':
          break;
        case 'MoveLoc':
        case 'CopyLoc': {
          const l = localIndex(p.bc);
          const s = frame.slots[l];
          this.stack.push(s);
          if (kind === 'MoveLoc' && isRefType(s.type)) frame.slots[l] = { type: s.type, loc: null };
          pushTop();
          break;
        }
        case 'StLoc': {
          const l = localIndex(p.bc);
          frame.slots[l] = pop();
          post.push({ Write: { location: { Local: [frame.id, l] }, root_value_after_write: this.resolveLocal(frame, l) } });
          break;
        }
        case 'MutBorrowLoc':
        case 'ImmBorrowLoc':
          this.stack.push({ type: pushed[0], loc: { Local: [frame.id, localIndex(p.bc)] } });
          pushTop();
          break;
        case 'MutBorrowField':
        case 'ImmBorrowField':
        case 'MutBorrowFieldGeneric':
        case 'ImmBorrowFieldGeneric': {
          const r = pop();
          this.stack.push({ type: pushed[0], loc: { Indexed: [r.loc as TraceLocation, tc.code[pc * 2 + 1]] } });
          if (kind.endsWith('Generic')) typeParams = (r.type.elem as Type).typeArgs.map(typeTagOf);
          pushTop();
          break;
        }
        case 'FreezeRef': {
          const r = pop();
          this.stack.push({ type: pushed[0], loc: r.loc });
          pushTop();
          break;
        }
        case 'WriteRef':
        case 'VecPushBack':
        case 'VecSwap': {
          // `WriteRef`: the reference is on top; `VecPushBack` / `VecSwap`: the vector reference is deepest.
          let r = pop();
          if (kind === 'WriteRef') pop();
          else r = pop();
          if (kind === 'VecSwap') r = pop();
          const loc = r.loc as TraceLocation;
          post.push({ Write: { location: loc, root_value_after_write: this.resolveLocation(loc) } });
          break;
        }
        case 'VecImmBorrow':
        case 'VecMutBorrow': {
          pop();
          const r = pop();
          this.stack.push({ type: pushed[0], loc: { Indexed: [r.loc as TraceLocation, p.index] } });
          pushTop();
          break;
        }
        case 'Unpack':
        case 'UnpackGeneric':
        case 'VecUnpack':
        case 'UnpackVariant':
        case 'UnpackVariantGeneric':
          pop();
          for (const t of pushed) this.stack.push({ type: t, loc: null });
          pushAll(pushed.length, !(this.variantTopFirst && kind.startsWith('UnpackVariant')));
          break;
        case 'UnpackVariantImmRef':
        case 'UnpackVariantMutRef':
        case 'UnpackVariantGenericImmRef':
        case 'UnpackVariantGenericMutRef': {
          const r = pop();
          pushed.forEach((t, j) => this.stack.push({ type: t, loc: { Indexed: [r.loc as TraceLocation, j] } }));
          pushAll(pushed.length, !this.variantTopFirst);
          break;
        }
        default: {
          if (!PUSH_TOP.has(kind)) throw new Error(`unsupported instruction ${p.name}`);
          for (let i = 0; i < p.pops; i++) pop();
          this.stack.push({ type: pushed[0], loc: null });
          if (kind === 'PackGeneric') typeParams = pushed[0].typeArgs.map(typeTagOf);
          pushTop();
        }
      }
      this.emitInstruction(p, view.gasLeft, typeParams, post);
      this.machineGas = machineGas;
      this.checkSync(view.sp, `after ${inst.fn.name}@${pc}`);
    });
  }

  /** @inheritdoc */
  closeFrame(inst: FunctionInstance, _frameId: number, returns: readonly unknown[], gasLeft: number): void {
    if (inst.code === null) return;
    this.machineGas = gasLeft;
    this.guard(() => {
      const table = this.table(inst);
      const frame = this.current();
      const n = returns.length;
      const slots = this.stack.slice(this.stack.length - n);
      const values = slots.map((s, i) => this.resolveSlot(table, s, returns[i]));
      this.out.push({ CloseFrame: { frame_id: frame.id, return_: values, gas_left: gasLeft } });
      this.frames.pop();
      if (this.frames.length === 0) this.stack.length = 0;
    });
  }

  /** @inheritdoc */
  error(code: string): void {
    this.guard(() => {
      const p = this.pending;
      this.pending = null;
      if (this.nativeInFlight !== null) {
        // A native called by `CALL` failed: its frame is open, nothing else to close.
        this.nativeInFlight = null;
      } else if (p !== null) {
        // The instruction failed: upstream writes it with its pre-effects (pops, reads).
        const call = p.bc.$kind === 'Call' || p.bc.$kind === 'CallGeneric';
        const gas = call ? this.gasBeforeCall(p) : p.gasBefore;
        this.emitInstruction(p, gas, [], []);
        // An inlined `0x1::vector` native failed: its native frame opened first.
        if (p.native !== null) this.openNative(p.native, gas, this.table(p.inst));
      }
      this.out.push({ Effect: { ExecutionError: code } });
    });
  }

  // ---------------------------------------------------------------- internals

  /** Run a hook; a failure of the recorder becomes a trace error record, never a VM error. */
  private guard(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.errors++;
      const msg = errorMessage(e);
      this.out.push({ Effect: { ExecutionError: `!! TRACING ERROR !! Err: ${msg}. Events below this may be incorrect.` } });
    }
  }

  private checkSync(sp: number, where: string): void {
    if (this.stack.length !== sp) {
      const have = this.stack.length;
      this.stack.length = Math.min(have, sp);
      throw new Error(`shadow stack has ${have} slots, operand stack ${sp} (${where})`);
    }
  }

  private table(inst: FunctionInstance): TypeTable {
    return inst.fn.module.linker.types;
  }

  private current(): TFrame {
    const f = this.frames[this.frames.length - 1];
    if (f === undefined) throw new Error('no open frame');
    return f;
  }

  private frameById(id: number): TFrame {
    for (let i = this.frames.length - 1; i >= 0; i--) if (this.frames[i].id === id) return this.frames[i];
    throw new Error(`frame ${id} is not active`);
  }

  private pushedTypes(inst: FunctionInstance, pc: number): Type[] {
    const table = this.table(inst);
    const code = inst.code as TranslatedCode & { pushed: readonly (readonly Type[])[] };
    return code.pushed[pc].map((t) => table.subst(t, inst.typeArgs));
  }

  /**
   * Gas left before a `CALL`'s own charges: the machine's gas at the previous hook (after the
   * previous instruction, or after entering the frame, the call into it charged).
   */
  private gasBeforeCall(p: Pending): number {
    return this.machineGas ?? p.gasBefore;
  }

  private emitInstruction(p: Pending, gasLeft: number, typeParams: TraceTypeTag[], post: TraceEffect[]): void {
    this.out.push({ Instruction: { type_parameters: typeParams, pc: p.pc, gas_left: gasLeft, instruction: p.name } });
    for (const e of p.pre) this.out.push({ Effect: e });
    for (const e of post) this.out.push({ Effect: e });
  }

  private frameRecord(id: number, fn: LoadedFunction, typeArgs: readonly Type[], params: TraceValue[], locals: readonly Type[], table: TypeTable): TraceFrame {
    return {
      frame_id: id,
      function_name: fn.name,
      module: { address: bareAddress(fn.module.address), name: fn.module.name },
      ...(this.version >= 3 ? { version_id: bareAddress(fn.module.pkg.storageId) } : {}),
      binary_member_index: fn.defIndex,
      type_instantiation: typeArgs.map(typeTagOf),
      parameters: params,
      return_types: fn.returns.map((r) => typeTagWithRefs(table.subst(r, typeArgs))),
      locals_types: locals.map(typeTagWithRefs),
      is_native: fn.isNative,
    };
  }

  /** `OpenFrame` of a native call; returns its frame id. */
  private openNative(call: NativeCall, gasLeft: number, table: TypeTable): number {
    const params = call.callee.params.map((t) => table.subst(t, call.typeArgs));
    const n = params.length;
    this.stack.splice(this.stack.length - n, n);
    const id = this.out.length;
    this.out.push({ OpenFrame: { frame: this.frameRecord(id, call.callee, call.typeArgs, call.params, params, table), gas_left: gasLeft } });
    return id;
  }

  /** Results of a native call: `DataLoad` for references, `Push` of each, then `CloseFrame`. */
  private closeNative(id: number, call: NativeCall, view: MachineView, table: TypeTable): void {
    const returns = call.callee.returns.map((t) => table.subst(t, call.typeArgs));
    const n = returns.length;
    returns.forEach((t, i) => {
      const ref = refKindOf(t);
      if (ref === null) {
        this.stack.push({ type: t, loc: null });
      } else {
        const v = view.stack[view.sp - n + i];
        this.stack.push({ type: t, loc: this.dataLoad(ref, traceValueOf(table, peekRef(v), t.elem as Type)) });
      }
    });
    const values: TraceValue[] = [];
    for (let i = n - 1; i >= 0; i--) values.push(this.resolveTop(table, view, i));
    for (const v of values) this.out.push({ Effect: { Push: v } });
    this.out.push({ CloseFrame: { frame_id: id, return_: values, gas_left: view.gasLeft } });
  }

  private finishNative(view: MachineView): void {
    const nf = this.nativeInFlight;
    if (nf === null) return;
    this.nativeInFlight = null;
    this.closeNative(nf.id, nf.call, view, this.table(this.current().inst));
  }

  /** Emit a `DataLoad` of a reference handed over by a native (or the caller) and return its location. */
  private dataLoad(ref: 'Imm' | 'Mut', snapshot: TraceMoveValue): TraceLocation {
    const id = this.out.length;
    const location: TraceLocation = { Global: id };
    this.out.push({ Effect: { DataLoad: { ref_type: ref, location, snapshot } } });
    this.loaded.set(id, ref === 'Imm' ? { ImmRef: { location, snapshot } } : { MutRef: { location, snapshot } });
    return location;
  }

  /** Trace value of the `i`-th slot from the top of the stack. */
  private resolveTop(table: TypeTable, view: MachineView, i: number): TraceValue {
    const s = this.stack[this.stack.length - 1 - i];
    if (s === undefined) throw new Error(`shadow stack has no slot ${i} from the top`);
    return this.resolveSlot(table, s, view.stack[view.sp - 1 - i]);
  }

  /** Trace value of a slot holding `v`: references by location and root snapshot. */
  private resolveSlot(table: TypeTable, s: Slot, v: unknown): TraceValue {
    const ref = refKindOf(s.type);
    if (ref === null) return { RuntimeValue: { value: traceValueOf(table, v, s.type) } };
    if (s.loc === null) throw new Error('reference of unknown location');
    return this.refValue(ref, s.loc);
  }

  private refValue(ref: 'Imm' | 'Mut', loc: TraceLocation): TraceValue {
    const snapshot = this.rootSnapshot(loc);
    return ref === 'Imm' ? { ImmRef: { location: loc, snapshot } } : { MutRef: { location: loc, snapshot } };
  }

  private resolveLocal(frame: TFrame, l: number): TraceValue {
    return this.resolveLocation({ Local: [frame.id, l] });
  }

  /** Upstream `resolve_location`: the root value (or reference) a location resolves to. */
  private resolveLocation(loc: TraceLocation): TraceValue {
    if ('Indexed' in loc) return this.resolveLocation(loc.Indexed[0]);
    if ('Global' in loc) {
      const v = this.loaded.get(loc.Global);
      if (v === undefined) throw new Error(`unknown global ${loc.Global}`);
      return v;
    }
    const [f, l] = loc.Local;
    const frame = this.frameById(f);
    const s = frame.slots[l];
    const ref = refKindOf(s.type);
    if (ref !== null) {
      if (s.loc === null) throw new Error(`local ${l} of frame ${f} holds no reference`);
      return this.refValue(ref, s.loc);
    }
    return { RuntimeValue: { value: this.localValue(frame, l) } };
  }

  /** Snapshot of the root value a location is rooted in. */
  private rootSnapshot(loc: TraceLocation): TraceMoveValue {
    if ('Indexed' in loc) return this.rootSnapshot(loc.Indexed[0]);
    if ('Global' in loc) {
      const v = this.loaded.get(loc.Global);
      if (v === undefined) throw new Error(`unknown global ${loc.Global}`);
      return 'RuntimeValue' in v ? v.RuntimeValue.value : 'ImmRef' in v ? v.ImmRef.snapshot : v.MutRef.snapshot;
    }
    const [f, l] = loc.Local;
    const frame = this.frameById(f);
    const s = frame.slots[l];
    if (isRefType(s.type)) {
      if (s.loc === null) throw new Error(`local ${l} of frame ${f} holds no reference`);
      return this.rootSnapshot(s.loc);
    }
    return this.localValue(frame, l);
  }

  private localValue(frame: TFrame, l: number): TraceMoveValue {
    if (frame.locals === null) throw new Error(`locals of frame ${frame.id} not known yet`);
    const s = frame.slots[l];
    return traceValueOf(this.table(frame.inst), frame.locals[l], s.type);
  }
}

/**
 * Helpers of the interpreter loop that are not on its hot path: error construction and
 * location, limit checks done once per site, native calls, tracer views.
 */
import { NativeAbort, VmError } from '../errors.js';
import type { TranslatedCode } from '../loader/linker.js';
import type { FunctionInstance } from './instance.js';
import { runtimeValueSize } from '../gas/value-size.js';
import { Op } from '../loader/ops.js';
import type { GasSchedule } from '../gas/schedule.js';
import { type CallState, instructionTierMult, type Runtime } from './runtime.js';
import type { Frame } from './machine.js';
import type { MachineView } from './tracer.js';

export function vectorError(sub: bigint, msg: string): VmError {
  return new VmError('VECTOR_OPERATION_ERROR', msg, { subStatus: sub });
}

/**
 * A vector error raised by an inlined `0x1::vector` native: like upstream's natives it
 * becomes `ABORTED` with the vector error code, located at the native, offset 0.
 */
/** A failed vector instruction (`native`: an inlined `0x1::vector` native, see {@link nativeVectorError}). */
export function vecOpError(native: boolean, tc: TranslatedCode, site: number, sub: bigint, msg: string): VmError {
  return native ? nativeVectorError(tc, site, sub, msg) : vectorError(sub, msg);
}

function nativeVectorError(tc: TranslatedCode, site: number, sub: bigint, msg: string): VmError {
  const callee = tc.callSites[site].callee;
  return new VmError('ABORTED', msg, {
    abortCode: sub,
    location: { module: callee.module.id, function: callee.name, functionIndex: callee.defIndex, instruction: 0 },
  });
}

export function indexOf(v: unknown): number {
  // u64 index as bigint; anything beyond 2^53 is out of bounds anyway.
  return (v as bigint) > 9007199254740991n ? Number.MAX_SAFE_INTEGER : Number(v as bigint);
}

/** Value-depth limit of the value a pack instruction builds (checked once per instance and site). */
export function checkPackDepth(rt: Runtime, inst: FunctionInstance, pc: number, limits: CallState['limits']): void {
  const max = limits.maxValueDepth;
  const tc = inst.code as TranslatedCode;
  if (tc.genericPacks.has(pc)) {
    // Upstream: 1 + nodes of the instantiation as written + nodes of the frame's type arguments.
    let nodes = 1;
    for (const t of (tc.packTypes.get(pc) as { typeArgs: readonly { nodes: number }[] }).typeArgs) nodes += t.nodes;
    for (const t of inst.typeArgs) nodes += t.nodes;
    if (nodes > limits.maxTypeInstantiationNodes) {
      throw new VmError('VM_MAX_TYPE_NODES_REACHED', `instantiation has ${nodes} type nodes (limit ${limits.maxTypeInstantiationNodes})`);
    }
  }
  if (max !== null) {
    const generic = tc.packTypes.get(pc);
    if (generic !== undefined && rt.valueDepth(rt.types.subst(generic, inst.typeArgs)) > max) {
      throw new VmError('VM_MAX_VALUE_DEPTH_REACHED', `value nesting exceeds ${max}`);
    }
  }
  inst.depthChecked[pc] = 1;
}

/**
 * Type limits of a generic call, as upstream counts them: every type argument's depth, and
 * 1 + the caller's type-argument nodes + the callee's instantiation nodes.
 */
export function checkInstantiation(callerTypeArgs: readonly { depth: number; nodes: number }[], typeArgs: readonly { depth: number; nodes: number }[], limits: CallState['limits']): void {
  let nodes = 1;
  for (const t of callerTypeArgs) nodes += t.nodes;
  for (const t of typeArgs) {
    if (t.depth > limits.maxTypeDepth) throw new VmError('VM_MAX_TYPE_DEPTH_REACHED', `type nesting exceeds ${limits.maxTypeDepth}`);
    nodes += t.nodes;
  }
  if (nodes > limits.maxTypeInstantiationNodes) {
    throw new VmError('VM_MAX_TYPE_NODES_REACHED', `instantiation has ${nodes} type nodes (limit ${limits.maxTypeInstantiationNodes})`);
  }
}

export function viewOf(stack: unknown[], sp: number, locals: unknown[], frameId: number, gasLeft: number): MachineView {
  return { stack, sp, locals, frameId, gasLeft };
}

/** A lazy stack-trace text of the frames (for `debug::print_stack_trace`). */
export function stackTraceText(frames: readonly Frame[], depth: number, inst: FunctionInstance, pc: number): () => string {
  // Natives use it while they run, before the frames change: no copy needed.
  return () => [...frames.slice(0, depth).map((f) => `${f.inst.fn.module.id}::${f.inst.fn.name} at ${f.pc - 1}`), `${inst.fn.module.id}::${inst.fn.name} at ${pc}`].join('\n');
}

/** Attach the location (running function, instruction) to an error. */
export function locate(e: unknown, inst: FunctionInstance, pc: number, tracer: CallState['tracer']): unknown {
  let err: unknown = e;
  if (e instanceof NativeAbort) {
    err = new VmError('ABORTED', e.message, { abortCode: e.code });
  } else if (e instanceof RangeError && /call stack/i.test(e.message)) {
    err = new VmError('VM_MAX_VALUE_DEPTH_REACHED', 'value nesting too deep');
  }
  if (err instanceof VmError) {
    if (err.location === undefined) {
      err.location = {
        module: inst.fn.module.id,
        function: inst.fn.name,
        functionIndex: inst.fn.defIndex,
        instruction: pc,
      };
    }
    if (tracer) tracer.error(err.code);
  }
  return err;
}

/**
 * `charge_native_function_before_execution`: one more instruction (after the call's own),
 * at the instruction tier reached.
 */
export function chargeNativeBase(rt: Runtime, state: CallState): void {
  const meter = state.meter;
  meter.instructions += 1;
  state.gasLeft -= rt.gas.nativeBase * instructionTierMult(rt.gas.instructionTiers, meter.instructions);
}

/** Run a native function instance on `args`; errors are located at the native (offset 0). */
function runNative(rt: Runtime, state: CallState, callee: FunctionInstance, args: unknown[], stackTrace: () => string): unknown[] {
  const fn = callee.fn;
  if (fn.native === null) {
    throw new VmError('MISSING_NATIVE_FUNCTION', `native ${fn.module.id}::${fn.name} is not implemented`);
  }
  state.touched.add(fn.module.id);
  chargeNativeBase(rt, state);
  try {
    if (state.gasLeft < 0) {
      state.gasLeft = 0;
      throw new VmError('OUT_OF_GAS', 'gas budget exhausted');
    }
    const before = state.gasLeft;
    const res = fn.native(rt.nativeContext(state, stackTrace), callee.typeArgs, args);
    // Beyond the native-call threshold, the native's cost also counts as instructions and
    // pays the instruction tier reached (it was charged once already, at multiplier 1).
    const meter = state.meter;
    meter.nativeCalls = (meter.nativeCalls ?? 0) + 1;
    const threshold = rt.gas.nativeCallThreshold;
    if (threshold !== undefined && meter.nativeCalls > threshold) {
      const units = before - state.gasLeft;
      meter.instructions += units;
      state.gasLeft -= units * (instructionTierMult(rt.gas.instructionTiers, meter.instructions) - 1);
      if (state.gasLeft < 0) {
        state.gasLeft = 0;
        throw new VmError('OUT_OF_GAS', 'gas budget exhausted');
      }
    }
    if (res.length !== fn.returns.length) {
      throw new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `native ${fn.name} returned ${res.length} values, expected ${fn.returns.length}`);
    }
    chargeNativeReturns(rt, state, callee, res);
    return res;
  } catch (e) {
    let err: unknown = e;
    if (e instanceof NativeAbort) err = new VmError('ABORTED', `native ${fn.name} aborted with ${e.code}`, { abortCode: e.code });
    if (err instanceof VmError && err.location === undefined) {
      err.location = { module: fn.module.id, function: fn.name, functionIndex: fn.defIndex, instruction: 0 };
    }
    throw err;
  }
}

/** Run native `callee` on the top `paramCount` values of `stack`, replaced by its results; returns the new `sp`. */
export function runNativeOnStack(rt: Runtime, state: CallState, callee: FunctionInstance, stack: unknown[], sp: number, stackTrace: () => string): number {
  const n = callee.paramCount;
  const args: unknown[] = new Array<unknown>(n);
  for (let i = n - 1; i >= 0; i--) {
    args[i] = stack[--sp];
    stack[sp] = undefined;
  }
  const res = runNative(rt, state, callee, args, stackTrace);
  for (let i = 0; i < res.length; i++) stack[sp++] = res[i];
  return sp;
}

/**
 * A native's return values are pushed (upstream `charge_native_function`): one unit per
 * value and their size, which grows the stack size and pays its tier. Schedules without a
 * size configuration (instruction counting) charge nothing here.
 */
function chargeNativeReturns(rt: Runtime, state: CallState, callee: FunctionInstance, res: readonly unknown[]): void {
  const config = rt.gas.sizeConfig;
  if (config === undefined || res.length === 0) return;
  const types = callee.returnTypes(rt.types);
  let incr = 0;
  for (let i = 0; i < res.length; i++) incr += runtimeValueSize(rt.types, res[i], types[i], config);
  const meter = state.meter;
  const size = (meter.stackSize ?? 0) + incr;
  meter.stackSize = size;
  state.gasLeft -= res.length + incr * instructionTierMult(rt.gas.sizeTiers, size);
  if (state.gasLeft < 0) {
    state.gasLeft = 0;
    throw new VmError('OUT_OF_GAS', 'gas budget exhausted');
  }
}

export function callNativeDirect(rt: Runtime, state: CallState, entry: FunctionInstance, args: readonly unknown[]): unknown[] {
  return runNative(rt, state, entry, [...args], () => `${entry.fn.module.id}::${entry.fn.name}`);
}

/** Extra cost per instruction (tier multiplier − 1) once `count` instructions ran. */
export function tierExtra(tiers: GasSchedule['instructionTiers'], count: number): number {
  return instructionTierMult(tiers, count) - 1;
}

/** The instruction count past which the tier changes (never without tiers). */
export function tierNextAfter(tiers: GasSchedule['instructionTiers'], count: number): number {
  let next = Number.MAX_SAFE_INTEGER;
  // Thresholds ascend: the first one above `count`, searched from the top.
  if (tiers !== undefined) for (let i = tiers.length - 1; i >= 0 && tiers[i][0] > count; i--) next = tiers[i][0];
  return next;
}

/** The instance call site `i` of `inst` calls (resolved and instantiated on its first call, then cached). */
export function resolveCallee(rt: Runtime, inst: FunctionInstance, i: number, limits: CallState['limits']): FunctionInstance {
  const site = (inst.code as TranslatedCode).callSites[i];
  if (site.callee.isNative && site.callee.native === null) {
    throw new VmError('MISSING_NATIVE_FUNCTION', `native ${site.callee.module.id}::${site.callee.name} is not implemented`);
  }
  const targs = inst.siteTypeArgs(rt.types, i);
  if (targs.length > 0) checkInstantiation(inst.typeArgs, targs, limits);
  const callee = rt.instance(site.callee, targs);
  inst.callees[i] = callee;
  return callee;
}

/** A fused instruction's operand: a local (copied or moved primitive) or an immediate. */
export function operand(op: number, arg: number, locals: unknown[], tc: TranslatedCode): unknown {
  if (op === Op.LD_BIG) return tc.bigints[arg];
  if (op === Op.LD_SMALL) return arg >>> 0;
  return locals[arg];
}

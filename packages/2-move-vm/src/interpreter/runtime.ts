/**
 * Per-VM runtime state shared by calls: the type table, the BCS codec, the cache of
 * function instances, and the per-call state (gas, limits, tracer, touched modules).
 */
import { VmError } from '../errors.js';
import { codeCosts, type CodeCosts } from '../gas/code-costs.js';
import type { GasSchedule } from '../gas/schedule.js';
import type { LoadedFunction, TranslatedCode } from '../loader/linker.js';
import { translateFunction, type TranslateOptions } from '../loader/translate.js';
import type { NativeContext } from '../natives/registry.js';
import { PROTOCOL_135_STDLIB_COSTS, type StdlibNativeCosts } from '../natives/stdlib-costs.js';
import { formatType, type Type, type TypeTable } from '../types/runtime-type.js';
import type { BcsCodec } from '../values/bcs.js';
import { FunctionInstance } from './instance.js';
import type { Tracer } from './tracer.js';
import type { Machine } from './machine.js';

/** Default of {@link Runtime.jitThreshold}: a function is compiled once its blocks ran this often. */
const DEFAULT_JIT_THRESHOLD = 256;

/**
 * The threshold a VM gets when its options set none: `SMI_JIT_THRESHOLD` from the environment
 * when it is a number ≥ 0 (`0` compiles every function at its first block, `Infinity` never
 * compiles: a switch for tests and for bisecting), else {@link DEFAULT_JIT_THRESHOLD}.
 */
function defaultJitThreshold(): number {
  const raw = typeof process === 'undefined' ? undefined : process.env.SMI_JIT_THRESHOLD;
  const n = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isNaN(n) || n < 0 ? DEFAULT_JIT_THRESHOLD : n;
}

/** Runtime limits enforced while executing. */
export interface ExecutionLimits {
  /** Maximum call depth (frames). */
  maxCallDepth: number;
  /** Maximum operand-stack size (values). */
  maxValueStackSize: number;
  /** Maximum vector length. */
  maxVectorLength: number;
  /** Maximum nesting depth of a packed value (`null`: not checked, before protocol 11). */
  maxValueDepth: number | null;
  /** Maximum nesting depth of a type. */
  maxTypeDepth: number;
  /** Maximum type nodes of a generic instantiation. */
  maxTypeInstantiationNodes: number;
}

/** Multiplier of `tiers` once `count` instructions ran (1 without tiers). */
export function instructionTierMult(tiers: GasSchedule['instructionTiers'], count: number): number {
  if (tiers === undefined) return 1;
  // Thresholds ascend: the last one reached, searched from the top (where a long transaction is).
  for (let i = tiers.length - 1; i >= 0; i--) if (tiers[i][0] <= count) return tiers[i][1];
  return 1;
}

/** Instructions executed so far in a transaction: shared by every call of one transaction. */
export interface InstructionMeter {
  instructions: number;
  /** Native calls so far (see {@link GasSchedule.nativeCallThreshold}). */
  nativeCalls?: number;
  /** Stack size so far (never decreases; see {@link GasSchedule.sizeTiers}). */
  stackSize?: number;
}

/** State of one top-level call. */
export interface CallState {
  gasLeft: number;
  /** Instruction count of the transaction (drives the instruction tiers). */
  readonly meter: InstructionMeter;
  readonly limits: ExecutionLimits;
  readonly tracer: Tracer | null;
  /** Modules whose functions ran (`0x…::name`). */
  readonly touched: Set<string>;
  readonly extensions: Map<string, unknown>;
  readonly debug: (line: string) => void;
  /** The native context of this call's native calls, once one ran (see {@link Runtime.nativeContext}). */
  natives?: { readonly context: NativeContext; readonly site: { stackTrace: () => string } };
}

/** Shared runtime of a VM. */
export class Runtime {
  readonly types: TypeTable;
  readonly codec: BcsCodec;
  readonly gas: GasSchedule;
  /** Cost parameters of the move-stdlib natives (also those inlined as vector instructions). */
  readonly stdlibCosts: StdlibNativeCosts;
  private readonly instances = new WeakMap<LoadedFunction, Map<string, FunctionInstance>>();
  private readonly depthCache = new Map<number, number>();
  private readonly costCache = new WeakMap<TranslatedCode, CodeCosts>();
  private readonly translateOptions: TranslateOptions;
  /** Blocks a function runs in fast mode before they are compiled to JavaScript (`Infinity`: never). */
  readonly jitThreshold: number;
  /** Interpreter state kept between top-level calls (see `interpreter.ts`); several when calls nest. */
  readonly machines: Machine[] = [];

  /** Keep `m` for the next call (a few at most: calls nest only through natives). */
  release(m: Machine): void {
    if (this.machines.length < 4) this.machines.push(m);
  }

  constructor(types: TypeTable, codec: BcsCodec, gas: GasSchedule, stdlibCosts: StdlibNativeCosts = PROTOCOL_135_STDLIB_COSTS, jitThreshold = defaultJitThreshold()) {
    this.types = types;
    this.jitThreshold = jitThreshold;
    this.codec = codec;
    this.gas = gas;
    this.stdlibCosts = stdlibCosts;
    this.translateOptions = { sizeCharges: gas.features !== undefined && gas.sizeConfig !== undefined, constantMoveLoc: gas.features?.reweightMoveLoc === true };
  }

  /** The instance of `fn` for concrete `typeArgs` (translated on first use). */
  instance(fn: LoadedFunction, typeArgs: readonly Type[]): FunctionInstance {
    let byArgs = this.instances.get(fn);
    if (!byArgs) {
      byArgs = new Map();
      this.instances.set(fn, byArgs);
    }
    let key = '';
    for (const t of typeArgs) key += `${t.id},`;
    let inst = byArgs.get(key);
    if (!inst) {
      if (!fn.isNative && fn.code === null) fn.code = translateFunction(fn, this.codec, this.translateOptions);
      const code = fn.isNative ? null : (fn.code as FunctionInstance['code']);
      inst = new FunctionInstance(fn, typeArgs, code, code === null ? undefined : this.costs(code));
      byArgs.set(key, inst);
    }
    return inst;
  }

  /** Static gas of each instruction and block of `tc` under this runtime's schedule (see `gas/code-costs.ts`). */
  costs(tc: TranslatedCode): CodeCosts {
    let costs = this.costCache.get(tc);
    if (costs === undefined) {
      costs = codeCosts(this.gas, this.types, tc);
      this.costCache.set(tc, costs);
    }
    return costs;
  }

  /**
   * Value depth of a type, as upstream measures it for packs: primitives 1, vectors and
   * references 1 + element, datatypes 1 + their deepest field (all variants of an enum).
   */
  valueDepth(t: Type): number {
    const cached = this.depthCache.get(t.id);
    if (cached !== undefined) return cached;
    let d = 1;
    if (t.elem !== null) d = 1 + this.valueDepth(t.elem);
    else if (t.datatype !== null) {
      const info = t.datatype;
      const fieldSets = info.isEnum ? info.variants().map((v) => v.fields) : [info.fields()];
      let deepest = 0;
      for (const fields of fieldSets) {
        for (const f of fields) deepest = Math.max(deepest, this.valueDepth(this.types.subst(f.type, t.typeArgs)));
      }
      d = 1 + deepest;
    }
    this.depthCache.set(t.id, d);
    return d;
  }

  /**
   * Native context for a native call of `state`'s call: made once per call state and reused
   * by its native calls (a native gets the stack trace of its own call site).
   */
  nativeContext(state: CallState, stackTrace: () => string): NativeContext {
    let made = state.natives;
    if (made === undefined) {
      const site = { stackTrace };
      made = { context: this.makeNativeContext(state, () => site.stackTrace()), site };
      state.natives = made;
    }
    made.site.stackTrace = stackTrace;
    return made.context;
  }

  private makeNativeContext(state: CallState, stackTrace: () => string): NativeContext {
    const types = this.types;
    return {
      types,
      bcs: this.codec,
      costs: this.stdlibCosts,
      limits: state.limits,
      charge: (units: number) => {
        state.gasLeft -= units;
        if (state.gasLeft < 0) {
          state.gasLeft = 0;
          throw new VmError('OUT_OF_GAS', 'out of gas in a native function');
        }
      },
      typeTag: (t, o = {}) => {
        const s = formatType(t, { address: o.address ?? 'full', originalIds: o.originalIds ?? false });
        return o.separator === undefined ? s : s.replaceAll(', ', o.separator);
      },
      originalIdOf: (a) => a,
      debugPrint: state.debug,
      extensions: state.extensions,
      stackTrace,
    };
  }
}

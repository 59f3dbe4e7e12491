/**
 * Per-VM runtime state shared by calls: the type table, the BCS codec, the cache of
 * function instances, and the per-call state (gas, limits, tracer, touched modules).
 */
import { VmError } from '../errors.js';
import type { SizeConfig } from '../gas/abstract-size.js';
import type { LoadedFunction } from '../loader/linker.js';
import { translateFunction } from '../loader/translate.js';
import type { NativeContext } from '../natives/registry.js';
import { formatType, type Type, type TypeTable } from '../types/runtime-type.js';
import type { BcsCodec } from '../values/bcs.js';
import { FunctionInstance } from './instance.js';
import { Op } from './ops.js';
import type { TranslatedCode } from '../loader/translated.js';
import type { Tracer } from './tracer.js';

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

/** Gas meter: a budget and per-instruction costs. */
export interface GasSchedule {
  /** Cost of each internal opcode. */
  readonly opCost: Int32Array;
  /** Cost of a call (callee frame setup). */
  readonly callBase: number;
  /** Extra cost per argument of a call. */
  readonly callPerArg: number;
  /** Cost of a native call. */
  readonly nativeBase: number;
  /**
   * Instruction tiers (`[threshold, multiplier]`, first threshold 0): once more than a
   * threshold of instructions ran in the transaction, each instruction costs `multiplier - 1`
   * more (upstream `instructions_current_tier_mult`). Absent: multiplier 1 throughout.
   */
  readonly instructionTiers?: readonly (readonly [number, number])[];
  /**
   * After this many native calls in a transaction, a native's cost is also counted as that
   * many instructions and pays the instruction tier (upstream `native_function_threshold_exceeded`,
   * gas model > 8). Absent: never.
   */
  readonly nativeCallThreshold?: number;
  /**
   * Size each opcode adds to the transaction's stack size (included in `opCost`): past
   * the thresholds of `sizeTiers` it costs `multiplier - 1` more per unit (upstream
   * `stack_size_current_tier_mult`). Absent: no stack-size tier.
   */
  readonly opIncr?: Int32Array;
  /** Stack-size tiers (`[threshold, multiplier]`, first threshold 0). */
  readonly sizeTiers?: readonly (readonly [number, number])[];
  /** How values are sized (natives' return values). Absent: they are not charged. */
  readonly sizeConfig?: SizeConfig;
}

/** Multiplier of `tiers` once `count` instructions ran (1 without tiers). */
export function instructionTierMult(tiers: GasSchedule['instructionTiers'], count: number): number {
  let mult = 1;
  if (tiers === undefined) return mult;
  for (let i = 0; i < tiers.length && tiers[i][0] <= count; i++) mult = tiers[i][1];
  return mult;
}

/**
 * Static cost of the instructions `from..to` (exclusive) of translated `code` at tier
 * multiplier 1 (an inlined vector native also pays the native base cost).
 */
export function staticCost(gas: GasSchedule, code: Int32Array, from: number, to: number): number {
  let c = 0;
  for (let pc = from; pc < to; pc++) {
    const op = code[pc << 1];
    c += op >= Op.NAT_VEC_EMPTY && op <= Op.NAT_VEC_SWAP ? gas.opCost[op] + gas.nativeBase : gas.opCost[op];
  }
  return c;
}

/** Static size added by the instructions `from..to` (exclusive) of translated `code`. */
export function staticIncr(gas: GasSchedule, code: Int32Array, from: number, to: number): number {
  const incr = gas.opIncr;
  if (incr === undefined) return 0;
  let c = 0;
  for (let pc = from; pc < to; pc++) c += incr[code[pc << 1]];
  return c;
}

/** Per block head: static gas and stack size of the block (see {@link Runtime.blockCosts}). */
export interface BlockCosts {
  readonly cost: Int32Array;
  readonly incr: Int32Array;
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
}

/** Shared runtime of a VM. */
export class Runtime {
  readonly types: TypeTable;
  readonly codec: BcsCodec;
  readonly gas: GasSchedule;
  private readonly instances = new WeakMap<LoadedFunction, Map<string, FunctionInstance>>();
  private readonly depthCache = new Map<number, number>();
  private readonly blockCostCache = new WeakMap<TranslatedCode, BlockCosts>();

  constructor(types: TypeTable, codec: BcsCodec, gas: GasSchedule) {
    this.types = types;
    this.codec = codec;
    this.gas = gas;
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
      if (!fn.isNative && fn.code === null) fn.code = translateFunction(fn, this.codec);
      const code = fn.isNative ? null : (fn.code as FunctionInstance['code']);
      const costs = code === null ? undefined : this.blockCosts(code);
      inst = new FunctionInstance(fn, typeArgs, code, costs?.cost, costs?.incr);
      byArgs.set(key, inst);
    }
    return inst;
  }

  /**
   * Gas of each block of `tc` (at block heads): the static cost of its instructions, plus
   * the native base cost of the inlined vector natives, and the stack size they add. Calls,
   * natives and tiers are charged when they run.
   */
  blockCosts(tc: TranslatedCode): BlockCosts {
    let costs = this.blockCostCache.get(tc);
    if (costs !== undefined) return costs;
    const n = tc.blockLen.length;
    costs = { cost: new Int32Array(n), incr: new Int32Array(n) };
    for (let head = 0; head < n; head += tc.blockLen[head]) {
      costs.cost[head] = staticCost(this.gas, tc.code, head, head + tc.blockLen[head]);
      costs.incr[head] = staticIncr(this.gas, tc.code, head, head + tc.blockLen[head]);
    }
    this.blockCostCache.set(tc, costs);
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

  /** Native context for one call. */
  nativeContext(state: CallState, stackTrace: () => string): NativeContext {
    const types = this.types;
    return {
      types,
      bcs: this.codec,
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

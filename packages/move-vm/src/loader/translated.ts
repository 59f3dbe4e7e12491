/**
 * The translated form of a function: what the interpreter runs. Built once per function
 * by the translator; everything a running instruction needs is pre-resolved here.
 */
import type { Type } from '../types/runtime-type.js';
import type { LoadedFunction } from './linker.js';
import type { JitCode } from '../interpreter/jit.js';

/** A call instruction's target: the callee and its (possibly generic) type arguments. */
export interface CallSite {
  readonly callee: LoadedFunction;
  /** Type arguments in terms of the caller's type parameters (empty for `Call`). */
  readonly typeArgs: readonly Type[];
}

/** A vector instruction's element type (possibly generic) and element count. */
export interface VecSite {
  readonly elem: Type;
  readonly count: number;
}

/** A variant instruction's enum type (possibly generic), tag and field count. */
export interface VariantSite {
  readonly enumType: Type;
  readonly tag: number;
  readonly fieldCount: number;
}

/** Pre-decoded code of one function. */
export interface TranslatedCode {
  /** Two words per instruction: internal opcode, operand. */
  readonly code: Int32Array;
  /** Operands of 64-bit and wider immediates. */
  readonly bigints: readonly bigint[];
  /** Decoded constants (copied at each load). */
  readonly constants: readonly unknown[];
  readonly callSites: readonly CallSite[];
  readonly vecSites: readonly VecSite[];
  readonly variantSites: readonly VariantSite[];
  /** Jump tables of `VARIANT_SWITCH`: code offsets indexed by variant tag. */
  readonly jumpTables: readonly Int32Array[];
  /** Type of the value built by each pack instruction (`PACK`, `PACK_VARIANT`, `VEC_PACK`), by offset. */
  readonly packTypes: ReadonlyMap<number, Type>;
  /** Offsets of the generic packs (`PackGeneric`, `PackVariantGeneric`): their instantiation is checked. */
  readonly genericPacks: ReadonlySet<number>;
  /** Number of locals (parameters included). */
  readonly localCount: number;
  /** Largest operand-stack height inside the function. */
  readonly maxStack: number;
  /**
   * Per offset, for the instructions whose gas depends on a value's size (`CopyLoc`,
   * `MoveLoc`, `ReadRef`, `WriteRef`, `Eq`, `Neq`): the (possibly generic) type of that value.
   */
  readonly sizeTypes: readonly (Type | undefined)[];
  /** Per offset: gas measured when the instruction runs (a size its type does not fix; an inlined vector native). */
  readonly sizedAtRunTime: readonly boolean[];
  /** Per `LdConst` offset: the constant's serialized length (its size for gas). */
  readonly constBytes: Int32Array;
  /** `code` with block heads marked (slow mode), see `blocks.ts`. */
  readonly slowCode: Int32Array;
  /** `slowCode` with superinstructions (fast mode). */
  readonly fastCode: Int32Array;
  /** Instructions of the block starting at each offset (0 inside blocks). */
  readonly blockLen: Int32Array;
  /** The compiled blocks, once compiled (see `interpreter/jit.ts`). */
  jit: JitCode | null;
  /** Blocks run in fast mode before compilation. */
  heat: number;
}

/**
 * Function instances: a translated function together with concrete type arguments.
 * Each instance caches the instances of the functions it calls and the vector storage
 * kinds its vector instructions create, so generic code pays for instantiation once.
 */
import type { LoadedFunction, TranslatedCode } from '../loader/linker.js';
import type { TraceInfo } from '../loader/translate.js';
import type { CodeCosts } from '../gas/code-costs.js';
import type { Type, TypeTable } from '../types/runtime-type.js';

const NO_COSTS: CodeCosts = { pcCost: new Int32Array(0), pcIncr: new Int32Array(0), blockCost: new Int32Array(0), blockIncr: new Int32Array(0) };

/** A function applied to concrete type arguments. */
export class FunctionInstance {
  readonly fn: LoadedFunction;
  readonly typeArgs: readonly Type[];
  /** `null` for natives. */
  readonly code: (TranslatedCode & TraceInfo) | null;
  /** Callee instance per call site, filled on first call. */
  readonly callees: (FunctionInstance | undefined)[];
  /** Concrete element type per vector site, filled on first use. */
  readonly vecElems: (Type | undefined)[];
  /** Concrete enum type per variant site, filled on first use (tracing). */
  readonly variantTypes: (Type | undefined)[];
  /** Per instruction: 1 once a pack there passed the value-depth check. */
  readonly depthChecked: Uint8Array;
  /** Number of parameters. */
  readonly paramCount: number;
  /** Static gas per instruction and per block under the VM's schedule (see `gas/code-costs.ts`). */
  readonly costs: CodeCosts;
  private sizeTypes: (Type | undefined)[] | undefined;

  constructor(fn: LoadedFunction, typeArgs: readonly Type[], code: (TranslatedCode & TraceInfo) | null, costs: CodeCosts = NO_COSTS) {
    this.fn = fn;
    this.costs = costs;
    this.paramCount = fn.params.length;
    this.typeArgs = typeArgs;
    this.code = code;
    this.callees = code ? new Array<FunctionInstance | undefined>(code.callSites.length) : [];
    this.vecElems = code ? new Array<Type | undefined>(code.vecSites.length) : [];
    this.variantTypes = code ? new Array<Type | undefined>(code.variantSites.length) : [];
    this.depthChecked = new Uint8Array(code ? code.code.length >> 1 : 0);
  }

  private returns: readonly Type[] | undefined;

  /** The type measured by the size charge of instruction `pc`, instantiated. */
  sizeType(table: TypeTable, pc: number): Type {
    const cache = (this.sizeTypes ??= new Array<Type | undefined>((this.code as TranslatedCode).sizeTypes.length));
    let t = cache[pc];
    if (t === undefined) {
      t = table.subst((this.code as TranslatedCode).sizeTypes[pc] as Type, this.typeArgs);
      cache[pc] = t;
    }
    return t;
  }

  private params: readonly Type[] | undefined;

  /** The function's parameter types, instantiated. */
  paramTypes(table: TypeTable): readonly Type[] {
    return (this.params ??= this.fn.params.map((p) => table.subst(p, this.typeArgs)));
  }

  /** The function's return types, instantiated. */
  returnTypes(table: TypeTable): readonly Type[] {
    return (this.returns ??= this.fn.returns.map((r) => table.subst(r, this.typeArgs)));
  }

  /** Concrete type arguments of call site `i`. */
  siteTypeArgs(table: TypeTable, i: number): readonly Type[] {
    const site = (this.code as TranslatedCode).callSites[i];
    if (site.typeArgs.length === 0) return site.typeArgs;
    return site.typeArgs.map((t) => table.subst(t, this.typeArgs));
  }

  /** Concrete element type of vector site `i`. */
  vecElem(table: TypeTable, i: number): Type {
    let t = this.vecElems[i];
    if (t === undefined) {
      t = table.subst((this.code as TranslatedCode).vecSites[i].elem, this.typeArgs);
      this.vecElems[i] = t;
    }
    return t;
  }

  /** Concrete enum type of variant site `i`. */
  variantType(table: TypeTable, i: number): Type {
    let t = this.variantTypes[i];
    if (t === undefined) {
      t = table.subst((this.code as TranslatedCode).variantSites[i].enumType, this.typeArgs);
      this.variantTypes[i] = t;
    }
    return t;
  }
}

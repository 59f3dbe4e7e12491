/**
 * The embedding API: a {@link MoveVM} over a set of packages; `call` runs one function
 * with type arguments and arguments (runtime values or BCS bytes) and returns typed
 * return values with their BCS, or the abort / error with its location.
 */
import { canonicalAddress, type MovePackage, errorMessage } from '@smi/bytecode';
import { VmError, type VmLocation, type VmStatusCode } from './errors.js';
import type { ProtocolConfig } from './config/protocol-config.js';
import { limitsFromProtocolConfig } from './config/vm-limits.js';
import { execute } from './interpreter/interpreter.js';
import type { FunctionInstance } from './interpreter/instance.js';
import { type CallState, type ExecutionLimits, type InstructionMeter, Runtime } from './interpreter/runtime.js';
import type { Tracer } from './interpreter/tracer.js';
import { Linker, type LoadedFunction, type PackageRecord } from './loader/linker.js';
import { defaultGasSchedule, type GasSchedule, staticGasSchedule } from './gas/schedule.js';
import { registerMoveStdlib } from './natives/move-stdlib.js';
import { NativeRegistry } from './natives/registry.js';
import { PROTOCOL_135_STDLIB_COSTS, type StdlibNativeCosts, stdlibNativeCosts } from './natives/stdlib-costs.js';
import { formatType, type Type, TypeKind, TypeTable } from './types/runtime-type.js';
import { parseTypeTag, resolveTypeTag } from './types/type-tag.js';
import { BcsCodec } from './values/bcs.js';
import { validateValue } from './values/validate.js';
import { borrowSlot, copyValue, peekRef } from './values/value.js';

/** Default runtime limits (latest mainnet, protocol 135: see `config/vm-limits.ts`). */
export const DEFAULT_LIMITS: ExecutionLimits = {
  maxCallDepth: 1024,
  maxValueStackSize: 1024,
  maxVectorLength: 262144,
  maxValueDepth: 128,
  maxTypeDepth: 256,
  maxTypeInstantiationNodes: 128,
};

/** The runtime limits a protocol config sets. */
export function executionLimitsFor(cfg: ProtocolConfig): ExecutionLimits {
  const l = limitsFromProtocolConfig(cfg);
  return {
    maxCallDepth: l.maxCallDepth,
    maxValueStackSize: l.maxOperandStackSize,
    maxVectorLength: l.maxVectorLength,
    maxValueDepth: l.maxValueDepth ?? null,
    maxTypeDepth: l.maxTypeDepth,
    maxTypeInstantiationNodes: l.maxTypeInstantiationNodes,
  };
}

/** Options of {@link MoveVM.create}. */
export interface MoveVmOptions {
  /** Packages to load (the framework among them). More can be added later. */
  packages?: readonly MovePackage[];
  /** Native functions (default: move-stdlib only). */
  natives?: NativeRegistry;
  /** Protocol config whose limits apply (default: latest mainnet values). */
  protocolConfig?: ProtocolConfig;
  /** Limits overriding those of the protocol config. */
  limits?: Partial<ExecutionLimits>;
  /** Instruction costs (default: those of the protocol config's `gas_model_version`, else of gas model 14). */
  gas?: GasSchedule;
  /** Costs of the move-stdlib natives (default: those of the protocol config, else of protocol 135). */
  stdlibCosts?: StdlibNativeCosts;
  /**
   * Compile a function's basic blocks to JavaScript once its blocks ran this many times
   * untraced (default: `SMI_JIT_THRESHOLD` from the environment, else 256; 0: at once;
   * `Infinity`: never, interpret only). Results, errors and gas are the same either way.
   */
  jitThreshold?: number;
}

/**
 * An argument: a runtime value (validated against the parameter type and copied), its BCS
 * bytes (decoded by the parameter's type), or `Raw`: passed as it is, unchecked, for
 * executors that own their values — a value for a value parameter, a reference (the
 * container itself, or a `SlotRef`) for a reference parameter, so writes land in the
 * caller's storage.
 */
export type CallArg = { $kind: 'Value'; value: unknown } | { $kind: 'Bcs'; bytes: Uint8Array } | { $kind: 'Raw'; value: unknown };

/** Options of {@link MoveVM.call}. */
export interface CallOptions {
  /** Type arguments, as type tags (`0x2::sui::SUI`) or runtime types. */
  typeArgs?: readonly (string | Type)[];
  args?: readonly CallArg[];
  /** Gas budget in internal units (default 10^10). */
  gasBudget?: number;
  /** Allow calling private, non-entry functions (tests, tools). Default `false`. */
  allowPrivate?: boolean;
  tracer?: Tracer;
  /** Per-call extensions for natives (the Sui runtime). */
  extensions?: Map<string, unknown>;
  /** Receives `0x1::debug` output (default: ignored). */
  debug?: (line: string) => void;
  /**
   * Instruction count of the enclosing transaction, updated by the call: pass the same
   * object to every call of one transaction so the instruction tiers of the gas schedule
   * apply as upstream's per-transaction meter does (default: a fresh count per call).
   */
  meter?: InstructionMeter;
}

/** A typed value with its BCS. */
export interface TypedValue {
  type: Type;
  /** Type tag with full addresses. */
  typeTag: string;
  value: unknown;
  bcs: Uint8Array;
  /**
   * A returned reference itself (`value` is what it pointed to when the call returned): a
   * write through it reaches the referenced value, as a later call given it as `Raw` does.
   */
  reference?: unknown;
}

/** Outcome of a call. */
export type CallResult =
  | {
      $kind: 'Success';
      returnValues: TypedValue[];
      /** Values of `&mut` arguments after the call, by argument index. */
      mutatedReferences: { argIndex: number; value: TypedValue }[];
      gasUsed: number;
      modulesTouched: string[];
    }
  | { $kind: 'Aborted'; abortCode: bigint; location: VmLocation; gasUsed: number; modulesTouched: string[] }
  | {
      $kind: 'Error';
      code: VmStatusCode;
      message: string;
      /** Sub-status (e.g. the kind of `VECTOR_OPERATION_ERROR`), when the error has one. */
      subStatus: bigint | undefined;
      location: VmLocation | undefined;
      gasUsed: number;
      modulesTouched: string[];
    };

const DEFAULT_BUDGET = 10_000_000_000;
/** Overrides whose linkers {@link MoveVM.setLinkageOverride} keeps. */
const MAX_KEPT_OVERRIDES = 64;

const ignore = (): void => {};

function recordOf(p: MovePackage): PackageRecord {
  return {
    storageId: p.id,
    originalId: p.originalId,
    version: p.version,
    modules: new Map(p.modules.map((m) => [m.name, m.module])),
    typeOrigins: new Map(p.typeOriginTable.map((t) => [`${t.moduleName}::${t.datatypeName}`, t.package])),
    linkage: new Map(Object.entries(p.linkageTable).map(([k, v]) => [k, v.upgradedId])),
  };
}

/** A Move VM over a set of packages. */
export class MoveVM {
  readonly types = new TypeTable();
  readonly natives: NativeRegistry;
  readonly limits: ExecutionLimits;
  /** The protocol config the VM follows, when one was given. */
  readonly protocolConfig: ProtocolConfig | null;
  private readonly runtime: Runtime;
  private readonly byStorageId = new Map<string, PackageRecord>();
  private readonly packagesById = new Map<string, MovePackage>();
  private readonly linkers = new Map<string, Linker>();
  /** A transaction's unified linkage (original id → storage id), while one is set. */
  private linkageOverride: ReadonlyMap<string, string> | null = null;
  /** Linkers under the current override, by root storage id. */
  private overrideLinkers = new Map<string, Linker>();
  /** The linkers of each override met (by its entries), kept until the packages change. */
  private readonly linkersByOverride = new Map<string, Map<string, Linker>>();
  /** Linkers built for an override, by root and the versions it changed (kept across transactions). */
  private readonly relinked = new Map<string, Linker>();
  private readonly typeTags = new Map<number, string>();
  /** {@link resolveType}'s results, by linker and tag. */
  private readonly resolvedTypes = new WeakMap<Linker, Map<string, Type>>();

  private constructor(options: MoveVmOptions) {
    this.natives = options.natives ?? registerMoveStdlib(new NativeRegistry());
    const base = options.protocolConfig ? executionLimitsFor(options.protocolConfig) : DEFAULT_LIMITS;
    this.limits = { ...base, ...options.limits };
    this.protocolConfig = options.protocolConfig ?? null;
    const schedule = options.gas ?? (options.protocolConfig ? staticGasSchedule(options.protocolConfig.optionalInt('gas_model_version') ?? 14) : defaultGasSchedule());
    const stdlibCosts = options.stdlibCosts ?? (options.protocolConfig ? stdlibNativeCosts(options.protocolConfig) : PROTOCOL_135_STDLIB_COSTS);
    this.runtime = new Runtime(this.types, new BcsCodec(this.types), schedule, stdlibCosts, options.jitThreshold);
    for (const p of options.packages ?? []) this.addPackage(p);
  }

  /** Create a VM. */
  static create(options: MoveVmOptions = {}): MoveVM {
    return new MoveVM(options);
  }

  /** Add (or replace) a package version. */
  addPackage(p: MovePackage): void {
    this.byStorageId.set(p.id, recordOf(p));
    this.packagesById.set(p.id, p);
    this.clearLinkers();
  }

  private clearLinkers(): void {
    this.linkers.clear();
    this.overrideLinkers.clear();
    this.linkersByOverride.clear();
    this.relinked.clear();
  }

  /**
   * Run the next calls under one linkage for every package (Sui's unified linkage: original id →
   * the storage id of the version every command agreed on), or back to each package's own
   * linkage table with `null`. Packages the map does not name keep their usual resolution.
   */
  setLinkageOverride(linkage: ReadonlyMap<string, string> | null): void {
    if (linkage === null || linkage.size === 0) {
      this.linkageOverride = null;
      return;
    }
    const override = new Map<string, string>();
    for (const [o, id] of linkage) override.set(canonicalAddress(o), canonicalAddress(id));
    // The linkers of an override depend only on it and on the packages (whose change drops
    // them all): transactions agreeing on the same linkage, most of a benchmark's, reuse them.
    let key = '';
    for (const [o, id] of override) key += `${o}=${id};`;
    let linkers = this.linkersByOverride.get(key);
    if (linkers === undefined) {
      if (this.linkersByOverride.size >= MAX_KEPT_OVERRIDES) this.linkersByOverride.delete(this.linkersByOverride.keys().next().value as string);
      linkers = new Map();
      this.linkersByOverride.set(key, linkers);
    }
    this.linkageOverride = override;
    this.overrideLinkers = linkers;
  }

  /** Remove a package version (a publish that did not commit); `true` when it was loaded. */
  removePackage(storageId: string): boolean {
    const id = canonicalAddress(storageId);
    const had = this.byStorageId.delete(id);
    this.packagesById.delete(id);
    if (had) this.clearLinkers();
    return had;
  }

  /** The package stored at `storageId`, or `undefined`. */
  packageById(storageId: string): MovePackage | undefined {
    // Keys are canonical: a canonical id is found as it is, any other spelling after canonicalizing.
    return this.packagesById.get(storageId) ?? this.packagesById.get(canonicalAddress(storageId));
  }

  /** Packages loaded, by storage id. */
  packageIds(): string[] {
    return [...this.byStorageId.keys()].sort();
  }

  /** The BCS codec of this VM's types. */
  get bcs(): BcsCodec {
    return this.runtime.codec;
  }

  /**
   * The linker for calls into package `storageId`: its own linkage table decides the
   * versions of its dependencies; other packages resolve to their newest version.
   */
  linkerFor(storageId: string): Linker {
    const own = this.linkageOverride === null ? this.linkers.get(storageId) : undefined;
    if (own !== undefined) return own; // kept under the canonical id: found without canonicalizing
    const id = canonicalAddress(storageId);
    return this.linkageOverride === null ? this.ownLinker(id) : this.overriddenLinker(id, this.linkageOverride);
  }

  private ownLinker(id: string): Linker {
    let linker = this.linkers.get(id);
    if (linker) return linker;
    linker = new Linker(this.types, this.natives, this.mappingOf(id));
    this.linkers.set(id, linker);
    return linker;
  }

  /** The linker of `id` under a unified linkage: the package's own when the linkage changes nothing. */
  private overriddenLinker(id: string, override: ReadonlyMap<string, string>): Linker {
    let linker = this.overrideLinkers.get(id);
    if (linker) return linker;
    const mapping = this.mappingOf(id);
    const changed: string[] = [];
    const root = this.byStorageId.get(id);
    for (const [original, storage] of override) {
      const record = this.byStorageId.get(storage);
      // The root package is itself (an `init` of a version published in the transaction).
      if (record === undefined || mapping.get(original) === record || original === root?.originalId) continue;
      mapping.set(original, record);
      changed.push(`${original}=${storage}`);
    }
    if (changed.length === 0) linker = this.ownLinker(id);
    else {
      const key = `${id}|${changed.sort().join(',')}`;
      linker = this.relinked.get(key);
      if (linker === undefined) {
        linker = new Linker(this.types, this.natives, mapping);
        this.relinked.set(key, linker);
      }
    }
    this.overrideLinkers.set(id, linker);
    return linker;
  }

  /** Original id → package version for calls rooted at `id`: its linkage table, else the newest. */
  private mappingOf(id: string): Map<string, PackageRecord> {
    const root = this.byStorageId.get(id);
    const mapping = new Map<string, PackageRecord>();
    for (const p of this.byStorageId.values()) {
      const cur = mapping.get(p.originalId);
      if (!cur || (p.version ?? 0) > (cur.version ?? 0)) mapping.set(p.originalId, p);
    }
    if (root) {
      for (const [orig, storage] of root.linkage) {
        const dep = this.byStorageId.get(storage);
        if (dep) mapping.set(orig, dep);
        else if (orig !== storage) mapping.delete(orig);
      }
      mapping.set(root.originalId, root);
    }
    return mapping;
  }

  /** Original id of the package stored at `storageId` (itself when unknown). */
  originalIdOf(address: string): string {
    return this.byStorageId.get(address)?.originalId ?? address;
  }

  /**
   * Resolve a type tag (string) in the context of package `storageId`. Resolutions are kept
   * per linker: a linker stands for one mapping of packages and is dropped when a package is
   * added or removed, so a kept type is what resolving again would give (types are interned);
   * a tag that fails is never kept.
   */
  resolveType(tag: string, storageId = '0x2'): Type {
    const linker = this.linkerFor(storageId);
    let kept = this.resolvedTypes.get(linker);
    if (kept === undefined) this.resolvedTypes.set(linker, (kept = new Map()));
    const hit = kept.get(tag);
    if (hit !== undefined) return hit;
    const type = resolveTypeTag(this.types, parseTypeTag(tag), (address, module, name) => {
      const info = linker.module(this.originalIdOf(address), module).ownDatatype(name);
      if (!info) throw new VmError('TYPE_RESOLUTION_FAILURE', `${address}::${module}::${name} not found`);
      return info;
    });
    kept.set(tag, type);
    return type;
  }

  /**
   * Find a function `address::module::name` (address = storage id of its package).
   * @throws {VmError} `FUNCTION_RESOLUTION_FAILURE` / `MISSING_DEPENDENCY`.
   */
  resolveFunction(address: string, module: string, name: string): LoadedFunction {
    const storageId = canonicalAddress(address);
    const linker = this.linkerFor(storageId);
    const fn = linker.module(this.originalIdOf(storageId), module).functionByName(name);
    if (!fn) throw new VmError('FUNCTION_RESOLUTION_FAILURE', `${storageId}::${module}::${name} does not exist`);
    return fn;
  }

  /** The function `address::module::name`, or `undefined` when the module has none by that name. */
  resolveFunctionIfExists(address: string, module: string, name: string): LoadedFunction | undefined {
    const storageId = canonicalAddress(address);
    return this.linkerFor(storageId).module(this.originalIdOf(storageId), module).functionByName(name);
  }

  /**
   * Call a function. Input problems (unknown function, wrong argument count or types,
   * unsatisfied type constraints) throw a {@link VmError}; what happens while running
   * (abort, arithmetic error, out of gas, ...) comes back as the result.
   */
  call(target: string, options: CallOptions = {}): CallResult {
    const parts = target.split('::');
    if (parts.length !== 3) throw new VmError('FUNCTION_RESOLUTION_FAILURE', `target ${JSON.stringify(target)} is not address::module::function`);
    const [address, module, name] = parts;
    const fn = this.resolveFunction(address, module, name);
    if (!options.allowPrivate && fn.visibility !== 'Public' && !fn.isEntry) {
      throw new VmError('FUNCTION_RESOLUTION_FAILURE', `${target} is neither public nor entry`);
    }
    const storageId = canonicalAddress(address);
    const typeArgs = (options.typeArgs ?? []).map((t) => (typeof t === 'string' ? this.resolveType(t, storageId) : t));
    return this.run(target, fn, typeArgs, options);
  }

  /**
   * {@link call} of a function already resolved (with {@link resolveFunction}) on type
   * arguments already resolved: for executors that call the same function many times.
   * Visibility is not checked (the caller decided); `options.typeArgs` is ignored.
   */
  callFunction(fn: LoadedFunction, typeArgs: readonly Type[], options: CallOptions = {}): CallResult {
    return this.run(`${fn.module.id}::${fn.name}`, fn, typeArgs, options);
  }

  private run(target: string, fn: LoadedFunction, typeArgs: readonly Type[], options: CallOptions): CallResult {
    if (typeArgs.length !== fn.typeParams.length) {
      throw new VmError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH', `${target} takes ${fn.typeParams.length} type arguments, got ${typeArgs.length}`);
    }
    for (let i = 0; i < fn.typeParams.length; i++) {
      const c = fn.typeParams[i];
      if ((typeArgs[i].abilities & c) !== c) {
        throw new VmError('CONSTRAINT_NOT_SATISFIED', `type argument ${i} (${formatType(typeArgs[i])}) lacks abilities required by ${target}`);
      }
    }
    // The instance caches the instantiated signature; a function that fails to translate
    // fails again inside the `try` below, and is reported as a result.
    let inst: FunctionInstance | undefined;
    try {
      inst = this.runtime.instance(fn, typeArgs);
    } catch {
      inst = undefined;
    }
    const params = inst !== undefined ? inst.paramTypes(this.types) : fn.params.map((p) => this.types.subst(p, typeArgs));
    const args = options.args ?? [];
    if (args.length !== params.length) {
      throw new VmError('NUMBER_OF_ARGUMENTS_MISMATCH', `${target} takes ${params.length} arguments, got ${args.length}`);
    }
    // Values for references live in holders, so that &mut writes can be read back.
    const holders: unknown[][] = [];
    const values = args.map((a, i) => {
      if (a.$kind === 'Raw') return a.value;
      const p = params[i];
      const isRef = p.kind === TypeKind.Reference || p.kind === TypeKind.MutableReference;
      const valueType = isRef ? (p.elem as Type) : p;
      let v: unknown;
      if (a.$kind === 'Bcs') v = this.decodeArg(a.bytes, valueType, i);
      else {
        validateValue(this.types, a.value, valueType, `argument ${i}`);
        // Arguments are the caller's objects: copy them, so aliasing (the same vector
        // passed twice) and later mutation by the caller cannot leak into the call.
        v = copyValue(a.value);
      }
      if (!isRef) return v;
      const holder = [v];
      holders[i] = holder;
      return borrowSlot(holder, 0);
    });
    const state: CallState = {
      gasLeft: options.gasBudget ?? DEFAULT_BUDGET,
      meter: options.meter ?? { instructions: 0 },
      limits: this.limits,
      tracer: options.tracer ?? null,
      touched: new Set(),
      extensions: options.extensions ?? new Map(),
      debug: options.debug ?? ignore,
    };
    const budget = state.gasLeft;
    try {
      const running = inst ?? this.runtime.instance(fn, typeArgs);
      const rets = execute(this.runtime, state, running, values);
      const returns = running.returnTypes(this.types);
      const mutatedReferences: { argIndex: number; value: TypedValue }[] = [];
      for (let i = 0; i < params.length; i++) {
        const p = params[i];
        if (p.kind !== TypeKind.MutableReference) continue;
        const ref = args[i].$kind === 'Raw' ? values[i] : borrowSlot(holders[i], 0);
        mutatedReferences.push({ argIndex: i, value: this.typed(peekRef(ref), p.elem as Type) });
      }
      return { $kind: 'Success', returnValues: rets.map((v, i) => this.typed(v, returns[i])), mutatedReferences, gasUsed: budget - state.gasLeft, modulesTouched: sortedList(state.touched) };
    } catch (caught) {
      // Anything that is not a VmError is a bug of ours: report it as an invariant
      // violation rather than let a bare JS exception escape.
      const e = caught instanceof VmError ? caught : new VmError('UNKNOWN_INVARIANT_VIOLATION_ERROR', `internal error: ${errorMessage(caught)}`);
      const done = { gasUsed: budget - state.gasLeft, modulesTouched: sortedList(state.touched) };
      if (e.code === 'ABORTED' && e.abortCode !== undefined && e.location) {
        return { $kind: 'Aborted', abortCode: e.abortCode, location: e.location, ...done };
      }
      return { $kind: 'Error', code: e.code, message: e.message, subStatus: e.subStatus, location: e.location, ...done };
    }
  }

  private decodeArg(bytes: Uint8Array, t: Type, i: number): unknown {
    try {
      return this.runtime.codec.decode(bytes, t);
    } catch (e) {
      const msg = errorMessage(e);
      throw new VmError('FAILED_TO_DESERIALIZE_ARGUMENT', `argument ${i} is not a valid ${formatType(t)}: ${msg}`);
    }
  }

  /** A value with its type tag and BCS. */
  /** `formatType(t)`, computed once per type. */
  private typeTagOf(t: Type): string {
    let tag = this.typeTags.get(t.id);
    if (tag === undefined) {
      tag = formatType(t);
      this.typeTags.set(t.id, tag);
    }
    return tag;
  }

  typed(value: unknown, type: Type): TypedValue {
    const isRef = type.kind === TypeKind.Reference || type.kind === TypeKind.MutableReference;
    const t = isRef ? (type.elem as Type) : type;
    const v = isRef ? peekRef(value) : value;
    const out: TypedValue = { type: t, typeTag: this.typeTagOf(t), value: v, bcs: this.runtime.codec.encode(v, t) };
    if (isRef) out.reference = value;
    return out;
  }
}

/** The strings of `set`, sorted (a call touches one to a few modules: no sort for one). */
function sortedList(set: ReadonlySet<string>): string[] {
  // Insertion sort: a call touches a few modules, and `Array.prototype.sort` allocates a work area per call.
  const out: string[] = [];
  for (const m of set) {
    let i = out.length;
    while (i > 0 && out[i - 1] > m) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = m;
  }
  return out;
}

/**
 * `Benchmark`: type inhabitation of every public or entry function of the target
 * packages. One instance holds a sandbox session over the framework, the dependencies and
 * the targets, the catalogue and constructor graph of them all, the baseline state, a
 * planner and a Tier B runner; `runTarget` gives one row. Every target runs from the
 * baseline, so a row depends on nothing but its own target: the same rows come out in
 * any order, on any number of workers or machines.
 */
import { type CompiledModule, type MovePackage, moduleName, verifyModule, errorMessage } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { SandboxSession } from '@smi/simulation';
import { type Baseline, buildBaseline } from './baseline.js';
import { Catalogue, type FunctionDecl, isCoreFramework } from './catalogue.js';
import { ConstructorGraph, type GraphStats } from './constructor-graph.js';
import { Planner, resolvedText } from './planner.js';
import type { BenchmarkRow, StaticCall } from './row.js';
import { ERROR_CODES, errorSource, isExpectedLimitation, type StageFailure } from './taxonomy.js';
import { CallIndex } from './call-index.js';
import { hitClassOf } from './hit-class.js';
import { TierBRunner } from './tier-b.js';
import { deref, formatTy } from './types.js';

/** Options of a benchmark (the `smi benchmark-local` flags). */
export interface BenchmarkOptions {
  /** The framework packages (0x1, 0x2, ...). */
  framework: readonly MovePackage[];
  /** Packages loaded as dependencies, not benchmarked (`--corpus`). */
  dependencies?: readonly MovePackage[];
  /** Packages benchmarked (`--target-corpus`). */
  targets: readonly MovePackage[];
  protocolConfig: ProtocolConfig;
  /** Skip Tier B. */
  tierAOnly?: boolean;
  /** Stop after the static checks (A1, A2, type-argument bounds): no synthesis, no execution. */
  staticOnly?: boolean;
  /** Never forge objects from raw BCS. */
  restrictedState?: boolean;
  /** Multi-hop constructor chains (`--use-mm2`, default); `false`: single hop. */
  multiHop?: boolean;
  /** Longest chain (default 5). */
  maxChainDepth?: number;
  /** One PTB per target (`--use-ptb`); otherwise one transaction per call. */
  usePtb?: boolean;
  /** Real signature verification (default); `false`: every verification passes, and rows say so. */
  strictCrypto?: boolean;
  /** Clock time of the baseline (default 1704067200000). */
  clockBaseMs?: bigint;
  /** 32 bytes behind Random 0x8 (default zeros). */
  randomSeed?: Uint8Array | null;
  /** Add the taxonomy's phase, source and limitation flag to failing rows (default `true`). */
  phaseErrors?: boolean;
  /** Only functions whose name matches. */
  functionFilter?: RegExp | null;
  /** Only modules whose name matches. */
  moduleFilter?: RegExp | null;
  /** Benchmark 0x1, 0x2, 0x3 too (skipped by default, as the original). */
  includeFramework?: boolean;
  /** Most Tier B attempts per target (default {@link DEFAULT_MAX_ATTEMPTS}). */
  maxAttempts?: number;
  /** Gas budget of each transaction, MIST (default 5 SUI). */
  gasBudget?: bigint;
  /** The sender of every transaction (default: the environment's, `0xa11ce`). */
  sender?: string;
  /**
   * Who published the packages (their inits run as it; it holds what they gave the
   * publisher and the `UpgradeCap`s). Default: the sender, so the init state's
   * capabilities are usable; a different address is mainnet's case for anyone else.
   */
  publisher?: string;
  /** Add `elapsed_ms` to rows (default `true`; `false` makes the output byte-for-byte reproducible). */
  timings?: boolean;
}

/** A function to benchmark, by position in the run. */
export interface TargetRef {
  /** Position in the whole run (output order). */
  index: number;
  packageId: string;
  module: string;
  name: string;
  defIndex: number;
  /**
   * The newer target package (storage id) with the same original id that has this
   * function too: its row is the one that counts (functions are counted once per
   * original package).
   */
  duplicateOf?: string;
}

/**
 * The public and entry functions of the target packages that the filters keep, in output
 * order: package id, module name, definition order (0x1, 0x2 and 0x3 only with
 * `includeFramework`).
 */
export function selectTargets(catalogue: Catalogue, targetIds: ReadonlySet<string>, options: Pick<BenchmarkOptions, 'includeFramework' | 'moduleFilter' | 'functionFilter'>): TargetRef[] {
  const out: TargetRef[] = [];
  const targets = catalogue.packages.filter((p) => targetIds.has(p.id));
  for (const p of targets) {
    if (options.includeFramework !== true && isCoreFramework(p.id)) continue;
    // Newer target versions of the same package, newest first: the first that has the
    // function is the one that counts.
    const newer = targets.filter((q) => q.originalId === p.originalId && q.version > p.version).sort((a, b) => b.version - a.version || (a.id < b.id ? -1 : 1));
    for (const fn of catalogue.functionsOf(p.id)) {
      if (fn.visibility !== 'Public' && !fn.isEntry) continue;
      if (options.moduleFilter && !options.moduleFilter.test(fn.module)) continue;
      if (options.functionFilter && !options.functionFilter.test(fn.name)) continue;
      const target: TargetRef = { index: out.length, packageId: p.id, module: fn.module, name: fn.name, defIndex: fn.defIndex };
      const counted = newer.find((q) => catalogue.functionsOf(q.id).some((g) => g.module === fn.module && g.name === fn.name && (g.visibility === 'Public' || g.isEntry)));
      if (counted !== undefined) target.duplicateOf = counted.id;
      out.push(target);
    }
  }
  return out;
}

/** Tier B attempts per target unless told otherwise (value profiles, alternatives, sequences). */
export const DEFAULT_MAX_ATTEMPTS = 8;

/** Default clock: 2024-01-01T00:00:00Z, the original's. */
export const DEFAULT_CLOCK_BASE_MS = 1_704_067_200_000n;

/** The benchmark over one set of packages. */
export class Benchmark {
  readonly catalogue: Catalogue;
  readonly graph: ConstructorGraph;
  readonly options: Required<Omit<BenchmarkOptions, 'dependencies' | 'functionFilter' | 'moduleFilter' | 'randomSeed' | 'sender' | 'publisher'>> &
    Pick<BenchmarkOptions, 'functionFilter' | 'moduleFilter' | 'randomSeed' | 'sender' | 'publisher'>;
  /** One planner per target package (its version decides which functions a transaction links). */
  private readonly planners = new Map<string, Planner>();
  private tierB: TierBRunner | null = null;
  private readonly calls: CallIndex;
  private readonly verified = new Map<string, string | null>();
  private readonly targetIds: ReadonlySet<string>;

  private constructor(
    readonly session: SandboxSession,
    readonly baseline: Baseline,
    catalogue: Catalogue,
    options: BenchmarkOptions,
  ) {
    this.catalogue = catalogue;
    this.graph = new ConstructorGraph(catalogue);
    this.calls = new CallIndex(catalogue);
    this.targetIds = new Set(options.targets.map((p) => p.id));
    this.options = {
      framework: options.framework,
      targets: options.targets,
      protocolConfig: options.protocolConfig,
      tierAOnly: options.tierAOnly ?? false,
      staticOnly: options.staticOnly ?? false,
      restrictedState: options.restrictedState ?? false,
      multiHop: options.multiHop ?? true,
      maxChainDepth: options.maxChainDepth ?? 5,
      usePtb: options.usePtb ?? false,
      strictCrypto: options.strictCrypto ?? true,
      clockBaseMs: options.clockBaseMs ?? DEFAULT_CLOCK_BASE_MS,
      randomSeed: options.randomSeed ?? null,
      phaseErrors: options.phaseErrors ?? true,
      functionFilter: options.functionFilter ?? null,
      moduleFilter: options.moduleFilter ?? null,
      includeFramework: options.includeFramework ?? false,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      gasBudget: options.gasBudget ?? 5_000_000_000n,
      timings: options.timings ?? true,
      ...(options.sender !== undefined ? { sender: options.sender } : {}),
      ...(options.publisher !== undefined ? { publisher: options.publisher } : {}),
    };
  }

  /** Load everything, run the inits, and get ready. */
  static async create(options: BenchmarkOptions): Promise<Benchmark> {
    const byId = new Map<string, MovePackage>();
    for (const p of [...options.framework, ...(options.dependencies ?? []), ...options.targets]) byId.set(p.id, p);
    const packages = [...byId.values()];
    const session = SandboxSession.create({
      packages,
      protocolConfig: options.protocolConfig,
      natives: { permissiveCrypto: options.strictCrypto === false },
    });
    const catalogue = new Catalogue(packages);
    const baseline = await buildBaseline(session, catalogue, {
      clockMs: options.clockBaseMs ?? DEFAULT_CLOCK_BASE_MS,
      randomSeed: options.randomSeed ?? null,
      gasBudget: options.gasBudget ?? 5_000_000_000n,
      ...(options.sender !== undefined ? { sender: options.sender } : {}),
      ...(options.publisher !== undefined ? { publisher: options.publisher } : {}),
    });
    return new Benchmark(session, baseline, catalogue, options);
  }

  /** The functions to benchmark, in output order: package id, module name, definition order. */
  targets(): TargetRef[] {
    return selectTargets(this.catalogue, this.targetIds, this.options);
  }

  /** Statistics of the constructor graph (as the original printed them). */
  get graphStats(): GraphStats {
    return this.graph.stats;
  }

  private plannerFor(packageId: string): Planner {
    let planner = this.planners.get(packageId);
    if (planner === undefined) {
      planner = new Planner(this.session.env.vm, this.catalogue, this.graph, this.baseline.inventory, {
        maxChainDepth: this.options.maxChainDepth,
        multiHop: this.options.multiHop,
        restrictedState: this.options.restrictedState,
        sender: this.session.env.sender,
        context: packageId,
      });
      this.planners.set(packageId, planner);
    }
    return planner;
  }

  private get tierBOf(): TierBRunner {
    this.tierB ??= new TierBRunner(this.session, this.baseline, this.catalogue, this.calls, {
      usePtb: this.options.usePtb,
      maxAttempts: this.options.maxAttempts,
      sender: this.session.env.sender,
    });
    return this.tierB;
  }

  /** Why module `fn.module` does not verify, or `null`. */
  private verification(fn: FunctionDecl): string | null {
    const key = `${fn.packageId}::${fn.module}`;
    if (this.verified.has(key)) return this.verified.get(key) ?? null;
    const pkg = this.session.env.vm.packageById(fn.packageId);
    const module = pkg?.modules.find((m) => m.name === fn.module || moduleName(m.module) === fn.module)?.module;
    let problem: string | null = module === undefined ? 'module not found' : null;
    if (module !== undefined && pkg !== undefined) {
      const deps: CompiledModule[] = pkg.modules.map((m) => m.module);
      for (const id of this.session.env.vm.packageIds()) {
        const other = this.session.env.vm.packageById(id);
        if (other === undefined || other.originalId === pkg.originalId || this.catalogue.latestVersionOf(other.originalId) !== id) continue;
        deps.push(...other.modules.map((m) => m.module));
      }
      try {
        verifyModule(module, { dependencies: deps, ignoreMissingDependencies: true });
      } catch (e) {
        problem = errorMessage(e);
      }
    }
    this.verified.set(key, problem);
    return problem;
  }

  /** The row of one target. */
  async runTarget(t: TargetRef): Promise<BenchmarkRow> {
    const started = performance.now();
    const row = await this.row(t);
    if (this.options.timings) row.elapsed_ms = Math.round((performance.now() - started) * 100) / 100;
    return row;
  }

  private async row(t: TargetRef): Promise<BenchmarkRow> {
    const fn = this.catalogue.functionsOf(t.packageId).find((f) => f.module === t.module && f.defIndex === t.defIndex);
    const row: BenchmarkRow = { target_package: t.packageId, target_module: t.module, target_function: t.name, status: 'miss' };
    if (t.duplicateOf !== undefined) row.duplicate_of = t.duplicateOf;
    if (!this.options.strictCrypto) row.permissive_crypto = true;
    if (fn === undefined) return this.failed(row, { stage: 'A1', code: 'E102', reason: `target validation failed: ${t.module}::${t.name} not found` });
    const unverified = this.verification(fn);
    if (unverified !== null) return this.failed(row, { stage: 'A1', code: 'E101', reason: `target validation failed: module ${fn.module} does not verify: ${unverified}` });
    const planned = this.plannerFor(fn.packageId).planTarget(fn, this.options.staticOnly);
    const typeArgs = planned.$kind === 'Plan' ? planned.plan.typeArgs : planned.typeArgs;
    if (typeArgs.length > 0) row.type_args = typeArgs.map((a) => ({ type: formatTy(a.type), reason: a.reason }));
    if (planned.$kind === 'Failure') {
      if (planned.failure.stage === 'A3' || planned.failure.stage === 'A4' || planned.failure.stage === 'A5') {
        row.tier_a_details = { resolved_params: [...planned.resolved], bcs_roundtrip_verified: planned.failure.code !== 'E304', has_object_params: false };
      }
      return this.failed(row, planned.failure);
    }
    const plan = planned.plan;
    if (this.options.staticOnly) {
      row.status = 'static_pass';
      return row;
    }
    row.status = 'tier_a_hit';
    const tierA = { resolved_params: plan.params.map((p) => p.resolved), bcs_roundtrip_verified: true, has_object_params: plan.hasObjectParams };
    row.tier_a_details = tierA;
    if (this.options.tierAOnly) return row;
    const b = await this.tierBOf.run(plan, this.plannerFor(fn.packageId));
    // What Tier B ran: its instantiation and how each argument was obtained.
    if (b.typeArgs.length > 0) {
      const chosen = [plan, ...(plan.alternatives ?? [])].find((p) => p.typeArgs.every((a, i) => formatTy(a.type) === formatTy(b.typeArgs[i]))) ?? plan;
      row.type_args = chosen.typeArgs.map((a) => ({ type: formatTy(a.type), reason: a.reason }));
    }
    tierA.resolved_params = b.args.map((a) => (a.$kind === 'TxContext' ? 'synthesizable:TxContext' : resolvedText(a.source, a.use, deref(a.type))));
    const staticCalls: StaticCall[] = fn.calls
      .filter((c) => !isCoreFramework(c.address))
      .map((c) => ({ target_module: `${c.address}::${c.module}`, function_name: c.name, is_generic: c.typeArgs.length > 0 }));
    row.tier_b_details = {
      execution_success: b.success,
      ...(b.success ? {} : { error: b.reason ?? 'failed' }),
      ...(b.modulesAccessed.length > 0 ? { target_modules_accessed: b.modulesAccessed } : {}),
      ...(staticCalls.length > 0 ? { static_calls: staticCalls } : {}),
      path: this.options.usePtb ? 'ptb' : 'direct',
      attempts: b.attempts,
      value_profile: b.profile,
      ...(b.byteLength !== null ? { byte_length: b.byteLength } : {}),
      ...(b.values.size > 0 ? { learned_values: Object.fromEntries([...b.values].sort(([x], [y]) => (x < y ? -1 : 1))) } : {}),
      checks: b.checks,
      ...(b.undisposable.length > 0 ? { undisposable: b.undisposable } : {}),
      ...(b.sequence.length > 0 ? { sequence: b.sequence } : {}),
      ...(b.consumedBy.length > 0 ? { consumed_by: b.consumedBy } : {}),
      ...(b.coverage === undefined ? {} : { coverage: b.coverage }),
    };
    row.gas_used = b.gasUsed;
    row.provenance = b.provenance;
    row.hit_class = hitClassOf(b.args, b.profile);
    row.transactions = [...this.baseline.requests, ...b.requests];
    if (b.success) {
      row.status = 'tier_b_hit';
      row.created_object_types = b.createdTypes;
      return row;
    }
    if (b.abort !== undefined) row.abort = b.abort;
    return this.failed(row, { stage: b.stage ?? 'B2', code: b.code ?? 'E403', reason: b.reason ?? 'failed' });
  }

  private failed(row: BenchmarkRow, f: StageFailure): BenchmarkRow {
    row.failure_stage = f.stage;
    row.failure_reason = f.reason;
    row.error_code = f.code;
    if (this.options.phaseErrors) {
      row.error_phase = ERROR_CODES[f.code].phase;
      const context = { reason: f.reason, ...(row.provenance === undefined ? {} : { provenance: row.provenance }), ...(row.abort === undefined ? {} : { category: row.abort.category }) };
      row.error_source = errorSource(f.code, context);
      row.is_expected_limitation = isExpectedLimitation(f.code, context);
    }
    return row;
  }
}

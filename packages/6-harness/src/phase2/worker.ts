/**
 * One Phase II package: try each plan an agent gives (normalized, checked for causality, in
 * the original's heuristic variants), keep the best by created target types, and write the
 * original's row (`Phase2ResultKeys`) plus what it left out: the outcome, which types hit and
 * which are missing, the plan that made the best result (so a hit can be replayed), and
 * whether the result is a mock's (never a real inhabitant). Plans come from a
 * {@link PlanSource}, which hears how the previous one failed (a model's retry prompt).
 */
import { canonicalAddress, type MovePackage, errorMessage, SmiError, type SmiErrorOptions, type Json } from '@smi/bytecode';
import { phase2Evaluation } from './evaluation.js';
import type { PlanRun, PlanSimulation } from './plan-sim.js';
import { normalizePlan, type Plan, validateCausality, type CausalityValidation } from '@smi/inhabit';
import { parsePlan } from '@smi/inhabit';
import type { LastFailure } from './prompts.js';
import { staticCreatedTypes } from './static-types.js';
import { scoreInhabitation } from './score.js';

/** The original's heuristic variants, in its order. */
export const VARIANTS = ['base', 'addr_sender', 'ints_0', 'ints_2', 'ints_10', 'ints_100'] as const;
export type VariantName = (typeof VARIANTS)[number];

const INT_KEYS = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'u256']);

function mapArgs(spec: Json, f: (arg: { [k: string]: Json }) => { [k: string]: Json }): Json {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec) || !Array.isArray(spec.calls)) return spec;
  return {
    ...spec,
    calls: spec.calls.map((c) =>
      typeof c === 'object' && c !== null && !Array.isArray(c) && Array.isArray(c.args) ? { ...c, args: c.args.map((a) => (typeof a === 'object' && a !== null && !Array.isArray(a) ? f(a) : a)) } : c,
    ),
  };
}

/** The original's `ptb_variants`: dedup by canonical JSON, at most `max`. */
export function planVariants(spec: Json, sender: string, max: number): { name: VariantName; spec: Json }[] {
  const out: { name: VariantName; spec: Json }[] = [];
  const seen = new Set<string>();
  const add = (name: VariantName, s: Json) => {
    const key = JSON.stringify(s);
    if (seen.has(key) || out.length >= max) return;
    seen.add(key);
    out.push({ name, spec: s });
  };
  add('base', spec);
  add(
    'addr_sender',
    mapArgs(spec, (a) => {
      if ('address' in a) return { address: sender };
      if ('vector_address' in a && Array.isArray(a.vector_address)) return { vector_address: a.vector_address.map(() => sender) };
      return a;
    }),
  );
  for (const n of [0, 2, 10, 100] as const) {
    add(
      `ints_${n}`,
      mapArgs(spec, (a) => {
        const k = Object.keys(a)[0];
        if (INT_KEYS.has(k)) return { [k]: n };
        if (k.startsWith('vector_') && INT_KEYS.has(k.slice(7)) && Array.isArray(a[k])) return { [k]: (a[k] as Json[]).map(() => n) };
        return a;
      }),
    );
  }
  return out;
}

/** A plan an agent gives, or why it gave none this time. */
export type PlanItem = { $kind: 'Plan'; spec: Json } | { $kind: 'NoPlan'; error: string };

/** Where a package's plans come from: asked for one at a time, told how the last one failed. */
export interface PlanSource {
  /** The next plan, or `null` when the agent has no more. */
  next(lastFailure: LastFailure | null): Promise<PlanItem | null>;
}

/** A fixed list of plans (the model-free agents). */
export function listPlans(plans: readonly Json[]): PlanSource {
  let i = 0;
  return { next: async () => (i < plans.length ? { $kind: 'Plan', spec: plans[i++] } : null) };
}

/** A Phase II row, with the original's keys. */
export type Phase2Row = Record<string, unknown> & {
  package_id: string;
  score: { targets: number; created_distinct: number; created_hits: number; missing: number };
};

/** What the package's attempt found (before the row). */
interface Best {
  run: PlanRun;
  variant: VariantName;
  hits: number;
  plan: Plan;
  spec: Json;
}

/** Settings of one package. */
export interface Phase2PackageOptions {
  packageId: string;
  /** Key types to create (Phase I truth). */
  targets: readonly string[];
  /** Where the plans come from (each tried in turn until every target is created). */
  source: PlanSource;
  /** Where the plans run (our simulator, or a node). */
  sim: PlanSimulation;
  mode: 'local' | 'build-only' | 'dry-run' | 'dev-inspect';
  maxVariants: number;
  /** `mock-perfect`: created = targets, no simulation (labelled `synthetic`). */
  perfect?: boolean;
  /** When the package's time is up (`Date.now()` ms). */
  deadline?: number | null;
  /** Told of every simulation (the plan as run, its variant, what it did). */
  onRun?: (spec: Json, variant: VariantName, run: PlanRun, planAttempt: number) => void;
}

/** Whether a run with `hits` target hits is better than the best so far (more hits; as many, but it succeeded). */
export function betterRun(hits: number, run: PlanRun, best: { hits: number; run: PlanRun } | null): boolean {
  return best === null || hits > best.hits || (hits === best.hits && run.ok && !best.run.ok);
}

/** The package's time ran out. */
export class PackageTimeout extends SmiError<'PACKAGE_TIMEOUT'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('PACKAGE_TIMEOUT', message, options);
  }
  override readonly name = 'PackageTimeout';
}

/** What a failed or missing run tells the agent for its next plan. */
function failureOf(run: PlanRun, targets: readonly string[]): LastFailure {
  if (!run.txBuildOk) return { harness_error: run.error ?? 'the plan does not build' };
  if (!run.ok) return { dry_run_effects_error: `${run.effectsError ?? 'error'}: ${run.error ?? ''}`.trim() };
  const s = scoreInhabitation(targets, run.createdTypes);
  return { missing_targets: s.missing_types, created_types: [...new Set(run.createdTypes)].sort() };
}

/** Run a package's plans and make its row. */
export async function phase2Package(o: Phase2PackageOptions): Promise<Phase2Row> {
  const started = performance.now();
  const sender = canonicalAddress(o.sim.options.sender);
  let best: Best | null = null;
  let causality: CausalityValidation = validateCausality({ calls: [] });
  const corrections: string[] = [];
  const histogram: Record<string, number> = {};
  let parseOk = false;
  let lastError: string | null = null;
  let planAttempts = 0;
  let simAttempts = 0;
  let plansGiven = 0;
  let lastFailure: LastFailure | null = null;
  // The original's counters: answers that were no valid plan (schema), valid plans that did not run (semantic).
  let schemaViolations = 0;
  let firstValid: number | null = null;
  let semanticFailures = 0;
  let firstSuccess: number | null = null;
  const allHit = () => best !== null && best.hits >= new Set(o.targets).size && o.targets.length > 0;
  const checkTime = () => {
    if (o.deadline != null && Date.now() >= o.deadline) throw new PackageTimeout('per-package timeout exceeded');
  };
  let timedOut = false;
  if (!o.perfect) {
    try {
      for (;;) {
        checkTime();
        const item = await o.source.next(lastFailure);
        if (item === null) break;
        planAttempts++;
        if (item.$kind === 'NoPlan') {
          schemaViolations++;
          lastError = item.error;
          lastFailure = { harness_error: item.error };
          continue;
        }
        plansGiven++;
        const norm = normalizePlan(item.spec);
        corrections.push(...norm.corrections);
        for (const [k, v] of Object.entries(norm.correctionCounts)) histogram[k] = (histogram[k] ?? 0) + v;
        causality = validateCausality(norm.spec);
        if (!causality.valid) {
          schemaViolations++;
          lastError = `causality: ${causality.errors[0]}`;
          lastFailure = { harness_error: causality.errors.join('; ') };
          continue;
        }
        let attemptBest: PlanRun | null = null;
        let parsed = true;
        for (const variant of planVariants(norm.spec, sender, Math.max(1, o.maxVariants))) {
          checkTime();
          let plan;
          try {
            plan = parsePlan(variant.spec);
            parseOk = true;
          } catch (e) {
            lastError = errorMessage(e);
            lastFailure = { harness_error: lastError };
            parsed = false;
            break;
          }
          const run = await o.sim.run(plan, o.mode === 'build-only');
          simAttempts += Math.max(1, run.attempts);
          o.onRun?.(variant.spec, variant.name, run, planAttempts);
          const hits = scoreInhabitation(o.targets, run.createdTypes).created_hits;
          if (betterRun(hits, run, best)) best = { run, variant: variant.name, hits, plan, spec: variant.spec };
          if (attemptBest === null || (run.ok && !attemptBest.ok)) attemptBest = run;
          if (!run.ok) lastError = run.error;
          if (allHit()) break;
        }
        if (!parsed) schemaViolations++;
        else {
          firstValid ??= planAttempts;
          if (attemptBest?.ok === true) firstSuccess ??= planAttempts;
          else semanticFailures++;
        }
        if (allHit()) break;
        if (attemptBest !== null) lastFailure = failureOf(attemptBest, o.targets);
      }
    } catch (e) {
      if (!(e instanceof PackageTimeout)) throw e;
      timedOut = true;
      lastError = e.message;
    }
  }
  const created = o.perfect ? [...o.targets] : (best?.run.createdTypes ?? []);
  const s = scoreInhabitation(o.targets, created);
  const run = best?.run;
  const ok = o.perfect ? true : run?.ok === true;
  // On a node, a run without checks (dev-inspect, by mode or by fallback) is no dry run.
  const devInspected = !o.perfect && run?.devInspect === true;
  const error = timedOut ? lastError : o.perfect || ok ? null : (lastError ?? (plansGiven === 0 ? 'the agent gave no plan' : null));
  return {
    package_id: o.packageId,
    score: { targets: s.targets, created_distinct: s.created_distinct, created_hits: s.created_hits, missing: s.missing },
    error,
    elapsed_seconds: (performance.now() - started) / 1000,
    timed_out: timedOut,
    created_object_types_list: [...new Set(created)].sort(),
    simulation_mode: o.mode,
    fell_back_to_dev_inspect: run?.fellBackToDevInspect === true,
    ptb_parse_ok: o.perfect ? true : parseOk,
    tx_build_ok: o.perfect ? true : run?.txBuildOk === true,
    dry_run_ok: ok && !devInspected,
    dry_run_exec_ok: ok && !devInspected,
    dry_run_status: o.perfect ? 'success' : (run?.status ?? null),
    dry_run_effects_error: run?.effectsError ?? null,
    dry_run_abort_code: run?.abortCode ?? null,
    dry_run_abort_location: run?.abortLocation ?? null,
    dev_inspect_ok: ok && devInspected,
    dry_run_error: ok ? null : (run?.error ?? null),
    plan_attempts: planAttempts,
    sim_attempts: simAttempts,
    gas_budget_used: run?.gasBudgetUsed ?? null,
    plan_variant: best?.variant ?? null,
    schema_violation_count: schemaViolations,
    schema_violation_attempts_until_first_valid: firstValid === null ? null : firstValid - 1,
    semantic_failure_count: semanticFailures,
    semantic_failure_attempts_until_first_success: firstSuccess === null ? null : firstSuccess - 1,
    formatting_corrections: corrections,
    formatting_corrections_histogram: histogram,
    causality_valid: causality.valid,
    causality_score: causality.causalityScore,
    causality_errors: causality.errors.slice(0, 5),
    created_wrapped_object_types: [...new Set(best?.run.createdWrappedTypes ?? [])].sort(),
    static_created_object_types: best ? staticCreatedTypes(best.plan, new Map(o.sim.options.packages.map((p) => [p.id, p]))) : [],
    hit_types: s.hit_types,
    missing_types: s.missing_types,
    best_plan: best?.spec ?? null,
    synthetic: o.perfect === true,
    ...phase2Evaluation({
      packageId: o.packageId,
      hitTypes: s.hit_types,
      missingTypes: s.missing_types,
      parseOk: o.perfect === true || parseOk,
      txBuildOk: o.perfect === true || run?.txBuildOk === true,
      ranCleanly: o.perfect === true || (ok && !devInspected),
      executed: o.perfect !== true && run?.status != null,
      error: run?.error ?? lastError,
      effectsError: run?.effectsError ?? null,
      abortCode: run?.abortCode ?? null,
      abortLocation: run?.abortLocation ?? null,
      plan: best?.plan ?? null,
      gasUsed: run?.transaction?.effects.gas_summary.net_gas_used ?? null,
      entryFunctions: entryFunctionsOf(o.sim.options.packages.find((p) => canonicalAddress(p.id) === canonicalAddress(o.packageId))),
      synthetic: o.perfect === true,
    }),
  };
}

/** `0x…::module::function` of the entry functions of `pkg`. */
function entryFunctionsOf(pkg: MovePackage | undefined): string[] {
  if (pkg === undefined) return [];
  const out: string[] = [];
  for (const { module: m } of pkg.modules) {
    const name = m.identifiers[m.moduleHandles[m.selfModuleHandleIndex].name];
    for (const d of m.functionDefs) if (d.isEntry) out.push(`${canonicalAddress(pkg.id)}::${name}::${m.identifiers[m.functionHandles[d.function].name]}`);
  }
  return out.sort();
}

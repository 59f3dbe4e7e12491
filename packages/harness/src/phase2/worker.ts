/**
 * One Phase II package: try each plan an agent gives (normalized, checked for causality, in
 * the original's heuristic variants), keep the best by created target types, and write the
 * original's row (`Phase2ResultKeys`) plus what it left out: the outcome, which types hit and
 * which are missing, and whether the result is a mock's (never a real inhabitant).
 */
import { canonicalAddress } from '@smi/bytecode';
import type { LocalSimulation, PlanRun } from './local.js';
import { normalizePlan, type Plan, validateCausality, type CausalityValidation } from './plan.js';
import { parsePlan } from './plan-ptb.js';
import { staticCreatedTypes } from './static-types.js';
import { scoreInhabitation } from './score.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The original's heuristic variants, in its order. */
export const VARIANTS = ['base', 'addr_sender', 'ints_0', 'ints_2', 'ints_10', 'ints_100'] as const;
export type VariantName = (typeof VARIANTS)[number];

const INT_KEYS = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'u256']);

function mapArgs(spec: Json, f: (arg: { [k: string]: Json }) => { [k: string]: Json }): Json {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec) || !Array.isArray(spec.calls)) return spec;
  return {
    ...spec,
    calls: spec.calls.map((c) =>
      typeof c === 'object' && c !== null && !Array.isArray(c) && Array.isArray(c.args)
        ? { ...c, args: c.args.map((a) => (typeof a === 'object' && a !== null && !Array.isArray(a) ? f(a) : a)) }
        : c,
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
}

/** Settings of one package. */
export interface Phase2PackageOptions {
  packageId: string;
  /** Key types to create (Phase I truth). */
  targets: readonly string[];
  /** The plans the agent gives, as JSON (each tried in turn). */
  plans: readonly Json[];
  sim: LocalSimulation;
  mode: 'local' | 'build-only';
  maxVariants: number;
  /** `mock-perfect`: created = targets, no simulation (labelled `synthetic`). */
  perfect?: boolean;
}

/** Run a package's plans and make its row. */
export function phase2Package(o: Phase2PackageOptions): Phase2Row {
  const started = performance.now();
  const sender = canonicalAddress(o.sim.options.sender);
  let best: Best | null = null;
  let causality: CausalityValidation = validateCausality({ calls: [] });
  let corrections: string[] = [];
  let histogram: Record<string, number> = {};
  let parseOk = false;
  let lastError: string | null = null;
  let planAttempts = 0;
  let simAttempts = 0;
  const targetsHit = () => best !== null && best.hits >= new Set(o.targets).size && o.targets.length > 0;
  if (!o.perfect) {
    for (const raw of o.plans) {
      planAttempts++;
      const norm = normalizePlan(raw);
      corrections = norm.corrections;
      histogram = norm.correctionCounts;
      causality = validateCausality(norm.spec);
      if (!causality.valid) {
        lastError = `causality: ${causality.errors[0]}`;
        continue;
      }
      for (const variant of planVariants(norm.spec, sender, Math.max(1, o.maxVariants))) {
        let plan;
        try {
          plan = parsePlan(variant.spec);
          parseOk = true;
        } catch (e) {
          lastError = e instanceof Error ? e.message : String(e);
          break;
        }
        const run = o.sim.run(plan, o.mode === 'build-only');
        simAttempts += Math.max(1, run.attempts);
        const hits = scoreInhabitation(o.targets, run.createdTypes).created_hits;
        if (best === null || hits > best.hits || (hits === best.hits && run.ok && !best.run.ok)) best = { run, variant: variant.name, hits, plan };
        if (!run.ok) lastError = run.error;
        if (targetsHit()) break;
      }
      if (targetsHit()) break;
    }
  }
  const created = o.perfect ? [...o.targets] : (best?.run.createdTypes ?? []);
  const s = scoreInhabitation(o.targets, created);
  const run = best?.run;
  const ok = o.perfect ? true : run?.ok === true;
  const error = o.perfect || ok ? null : (lastError ?? (o.plans.length === 0 ? 'the agent gave no plan' : null));
  return {
    package_id: o.packageId,
    score: { targets: s.targets, created_distinct: s.created_distinct, created_hits: s.created_hits, missing: s.missing },
    error,
    elapsed_seconds: (performance.now() - started) / 1000,
    timed_out: false,
    created_object_types_list: [...new Set(created)].sort(),
    simulation_mode: o.mode,
    fell_back_to_dev_inspect: false,
    ptb_parse_ok: o.perfect ? true : parseOk,
    tx_build_ok: o.perfect ? true : run?.txBuildOk === true,
    dry_run_ok: ok,
    dry_run_exec_ok: ok,
    dry_run_status: o.perfect ? 'success' : (run?.status ?? null),
    dry_run_effects_error: run?.effectsError ?? null,
    dry_run_abort_code: run?.abortCode ?? null,
    dry_run_abort_location: run?.abortLocation ?? null,
    dev_inspect_ok: false,
    dry_run_error: ok ? null : (run?.error ?? null),
    plan_attempts: planAttempts,
    sim_attempts: simAttempts,
    gas_budget_used: run?.gasBudgetUsed ?? null,
    plan_variant: best?.variant ?? null,
    schema_violation_count: 0,
    schema_violation_attempts_until_first_valid: null,
    semantic_failure_count: 0,
    semantic_failure_attempts_until_first_success: null,
    formatting_corrections: corrections,
    formatting_corrections_histogram: histogram,
    causality_valid: causality.valid,
    causality_score: causality.causalityScore,
    causality_errors: causality.errors.slice(0, 5),
    static_created_object_types: best ? staticCreatedTypes(best.plan, new Map(o.sim.options.packages.map((p) => [p.id, p]))) : [],
    hit_types: s.hit_types,
    missing_types: s.missing_types,
    synthetic: o.perfect === true,
  };
}

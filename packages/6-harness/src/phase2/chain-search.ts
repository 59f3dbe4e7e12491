/**
 * `chain-search`: a Phase II agent built on @smi/inhabit, the search `smi benchmark-local`
 * runs. For a package, every public or entry function runs through inhabit's Tier B search
 * (constructor chains, objects the inits shared, the sender's coins, sequences that set
 * state first, values the code compared its inputs with), those that create one of the
 * package's key types first. A hit's transaction becomes the original's plan JSON
 * ({@link planOfRequest}), its objects named by the ids they have in the package's own
 * simulation, and the plans are combined into one transaction greedily (each kept only when
 * the combination still runs and creates more targets): the plans then go through the same
 * normalization, causality check, simulation and scoring as every other agent's.
 *
 * The sender is not the publisher, as on mainnet: what an init gave the publisher is not the
 * sender's, shared objects are. A target type that only the publisher's capabilities reach is
 * found by running the same search as the publisher, and the row says so; `--sender
 * publisher` runs the whole search that way on purpose (an upper bound).
 */
import { canonicalAddress, type MovePackage, errorMessage, type Json } from '@smi/bytecode';
import type { ProtocolConfig } from '@smi/move-vm';
import { Benchmark, type BenchmarkRow, FRAMEWORK_IDS, isSystemObject, normalizePlan, parsePlan, planOfRequest, type TargetRef } from '@smi/inhabit';
import { Creators } from './creators.js';
import type { InventoryItem } from './interface-summary.js';
import type { PlanSimulation } from './plan-sim.js';
import type { LastFailure } from './prompts.js';
import { canonicalBaseType, normalizeTypeString } from './score.js';
import type { PlanItem, PlanSource } from './worker.js';

/** Why chain-search did not create a target type. */
export const MISS_CAUSES = [
  'no_callable_creator',
  'missing_dependency',
  'publisher_only',
  'needs_prior_transaction',
  'synthesized_only',
  'relaxed_only',
  'object_missing',
  'unsupported_plan',
  'not_combined',
  'search_failed',
  'timeout',
] as const;
export type MissCause = (typeof MISS_CAUSES)[number];

/** Settings of the search (shared by every package of a run). */
export interface ChainSearchSettings {
  /** Every package a simulation loads (framework and corpus). */
  loaded: readonly MovePackage[];
  protocolConfig: ProtocolConfig;
  sender: string;
  publisher: string;
  /** Tier B attempts per function (inhabit's default when absent). */
  maxAttempts?: number;
}

/** A hit of one function, as a plan for the package's simulation. */
interface Candidate {
  fn: string;
  calls: Json[];
  /** Target base types its transaction created. */
  targets: string[];
}

/** What the search of one package found. */
export interface ChainSearchFindings {
  candidates: Candidate[];
  functionsTried: number;
  functionsTotal: number;
  hits: number;
  /** Why each target type no candidate creates is missed, and what shows it (a function, an error). */
  causes: Map<string, { cause: MissCause; detail: string }>;
  publisherOnly: string[];
  seconds: number;
}

/**
 * The search of a run's chain-search. Each package gets its own benchmark over the
 * framework, the package and what it links to (their inits run as the publisher): the state
 * its Phase II simulation starts from, so that what the search found exists there too.
 */
export class ChainSearch {
  private readonly byId: ReadonlyMap<string, MovePackage>;

  constructor(readonly settings: ChainSearchSettings) {
    this.byId = new Map(settings.loaded.map((p) => [canonicalAddress(p.id), p]));
  }

  /** `true` when the sender is the publisher (the `--sender publisher` upper bound). */
  get senderIsPublisher(): boolean {
    return canonicalAddress(this.settings.sender) === canonicalAddress(this.settings.publisher);
  }

  /** The benchmark of `pkg` with `sender` sending, and the package's own targets. */
  private async benchFor(pkg: MovePackage, sender: string): Promise<{ bench: Benchmark; refs: TargetRef[]; closure: MovePackage[] }> {
    const closure = new Map<string, MovePackage>();
    const visit = (p: MovePackage): void => {
      if (closure.has(canonicalAddress(p.id))) return;
      closure.set(canonicalAddress(p.id), p);
      for (const dep of Object.values(p.linkageTable)) {
        const d = this.byId.get(canonicalAddress(dep.upgradedId));
        if (d !== undefined) visit(d);
      }
    };
    visit(pkg);
    const id = canonicalAddress(pkg.id);
    const framework = this.settings.loaded.filter((p) => FRAMEWORK_IDS.has(canonicalAddress(p.id)) && canonicalAddress(p.id) !== id);
    const dependencies = [...closure.values()].filter((p) => canonicalAddress(p.id) !== id && !FRAMEWORK_IDS.has(canonicalAddress(p.id)));
    const bench = await Benchmark.create({
      framework,
      dependencies,
      targets: [pkg],
      protocolConfig: this.settings.protocolConfig,
      usePtb: true,
      includeFramework: true,
      timings: false,
      sender,
      publisher: this.settings.publisher,
      ...(this.settings.maxAttempts !== undefined ? { maxAttempts: this.settings.maxAttempts } : {}),
    });
    return { bench, refs: bench.targets().filter((r) => r.packageId === id), closure: [...closure.values()] };
  }

  /** Search package `pkg` for plans that create `targets` (run as `sim` names its objects), until `deadline`. */
  async find(pkg: MovePackage, targetTypes: readonly string[], sim: PlanSimulation, deadline: number | null): Promise<ChainSearchFindings> {
    const started = performance.now();
    const targets = [...new Set(targetTypes.map(canonicalBaseType))].sort();
    const { bench, refs: mine, closure } = await this.benchFor(pkg, this.settings.sender);
    const packers = new Creators(closure, bench.catalogue);
    const own = bench.catalogue.functionsOf(pkg.id);
    const keyOf = (t: string): string => {
      const [addr, module, name] = t.split('::');
      const original = bench.catalogue.packages.find((p) => p.id === canonicalAddress(addr))?.originalId ?? canonicalAddress(addr);
      return `${original}::${module}::${name}`;
    };
    // What can create each target: functions that pack it (or call one that does).
    const creators = new Map(targets.map((t) => [t, packers.of(own, keyOf(t))]));
    // Those first, and those the constructor graph says share, transfer or return one; then the rest.
    const likely = new Set([...creators.values(), ...targets.map((t) => creatorsOf(bench, keyOf(t)))].flatMap((s) => [...s]));
    const order = [...mine.filter((r) => likely.has(`${r.module}::${r.name}`)), ...mine.filter((r) => !likely.has(`${r.module}::${r.name}`))];
    const found: Candidate[] = [];
    const blocked = new Map<string, { cause: MissCause; detail: string }>();
    const note = (t: string, cause: MissCause, detail: string) => {
      if (!blocked.has(t)) blocked.set(t, { cause, detail });
    };
    /** The failure of a function that should have created a target, by type (the first seen). */
    const failures = new Map<string, string>();
    /** Functions that cannot run: a package their module needs is not loaded. */
    const unlinked = new Set<string>();
    const failed: TargetRef[] = [];
    let tried = 0;
    let hits = 0;
    let timedOut = false;
    for (const ref of order) {
      if (deadline !== null && Date.now() >= deadline) {
        timedOut = true;
        break;
      }
      tried++;
      const row = await bench.runTarget(ref);
      if (row.status !== 'tier_b_hit' || row.provenance === 'synthesized' || row.tier_b_details?.checks !== 'strict') failed.push(ref);
      if (row.status !== 'tier_b_hit') {
        if (row.error_source === 'missing_dependency') unlinked.add(`${ref.module}::${ref.name}`);
        for (const [t, fns] of creators) if (fns.has(`${ref.module}::${ref.name}`) && !failures.has(t)) failures.set(t, `${ref.module}::${ref.name}: ${row.failure_reason ?? row.status}`);
        continue;
      }
      hits++;
      // What the hit created, by its effects: the targets a blocked hit would have made.
      const made = targets.filter((t) => (row.created_object_types ?? []).some((c) => canonicalBaseType(c) === t));
      const c = await candidateOf(bench, row, sim, targets, `${ref.module}::${ref.name}`);
      if (c.$kind === 'Ok') found.push(c.candidate);
      else for (const t of made) note(t, c.cause, `${ref.module}::${ref.name}: ${c.detail}`);
    }
    const covered = new Set(found.flatMap((c) => c.targets));
    const publisherOnly: string[] = [];
    const missing = targets.filter((t) => !covered.has(t));
    if (missing.length > 0 && !this.senderIsPublisher && !timedOut) {
      // The same search as the publisher, for the functions that failed: what only its capabilities reach.
      const { bench: pub } = await this.benchFor(pkg, this.settings.publisher);
      for (const ref of failed) {
        if (deadline !== null && Date.now() >= deadline) break;
        const row = await pub.runTarget(ref);
        if (row.status !== 'tier_b_hit' || row.provenance === 'synthesized' || row.tier_b_details?.checks !== 'strict') continue;
        for (const t of missing) if ((row.created_object_types ?? []).some((c) => canonicalBaseType(c) === t) && !publisherOnly.includes(t)) publisherOnly.push(t);
      }
    }
    const causes = new Map<string, { cause: MissCause; detail: string }>();
    for (const t of missing) {
      const fns = [...(creators.get(t) ?? [])];
      if (publisherOnly.includes(t)) causes.set(t, { cause: 'publisher_only', detail: 'created when the publisher sends the transaction' });
      else if (blocked.has(t)) causes.set(t, blocked.get(t) as { cause: MissCause; detail: string });
      else if (timedOut) causes.set(t, { cause: 'timeout', detail: `${tried} of ${mine.length} functions searched` });
      else if (fns.length === 0) causes.set(t, { cause: 'no_callable_creator', detail: 'no public or entry function creates it' });
      else if (fns.every((f) => unlinked.has(f))) causes.set(t, { cause: 'missing_dependency', detail: failures.get(t) ?? `${fns.join(', ')} cannot run` });
      else causes.set(t, { cause: 'search_failed', detail: failures.get(t) ?? `no hit of ${fns.join(', ')} created it` });
    }
    // Most targets first, then the shortest plan.
    found.sort((a, b) => b.targets.length - a.targets.length || a.calls.length - b.calls.length || (a.fn < b.fn ? -1 : a.fn > b.fn ? 1 : 0));
    return { candidates: found, functionsTried: tried, functionsTotal: mine.length, hits, causes, publisherOnly: publisherOnly.sort(), seconds: (performance.now() - started) / 1000 };
  }
}

/** `module::name` of the callable functions that share, freeze, transfer or return a value of datatype `key` (the constructor graph's). */
function creatorsOf(bench: Benchmark, key: string): Set<string> {
  const out = new Set<string>();
  for (const e of bench.graph.setupProducers(key)) out.add(`${e.fn.module}::${e.fn.name}`);
  for (const e of bench.graph.valueProducers(key)) out.add(`${e.fn.module}::${e.fn.name}`);
  return out;
}

/**
 * A hit as a plan on the package's simulation, with the targets it creates there (objects
 * created and wrapped in others count, as Phase II scores them), or why it cannot be one: it
 * needs transactions before its own, forged objects, dev-inspect rules, or an object the
 * simulation lacks. `Blocked` with no cause: it runs but creates no target.
 */
async function candidateOf(
  bench: Benchmark,
  row: BenchmarkRow,
  sim: PlanSimulation,
  targets: readonly string[],
  fn: string,
): Promise<{ $kind: 'Ok'; candidate: Candidate } | { $kind: 'Blocked'; cause: MissCause; detail: string }> {
  if (row.provenance === 'synthesized') return { $kind: 'Blocked', cause: 'synthesized_only', detail: 'its hit stands on a forged object' };
  if (row.tier_b_details?.checks !== 'strict') return { $kind: 'Blocked', cause: 'relaxed_only', detail: 'its hit ran with dev-inspect rules' };
  const own = (row.transactions ?? []).slice(bench.baseline.requests.length);
  if (own.length !== 1) return { $kind: 'Blocked', cause: 'needs_prior_transaction', detail: `its hit takes ${own.length} transactions` };
  const converted = planOfRequest(own[0] as Json, { catalogue: bench.catalogue, env: bench.session.env, objects: bench.baseline.inventory });
  if (converted.$kind !== 'Ok') return { $kind: 'Blocked', cause: 'unsupported_plan', detail: converted.reason };
  const ids = objectMap(converted.objects, sim.inventoryItems());
  if (typeof ids === 'string') return { $kind: 'Blocked', cause: 'object_missing', detail: `the package's simulation has no ${ids}` };
  const calls = JSON.parse(JSON.stringify(converted.plan.calls), (_k, v: Json) => (typeof v === 'string' && ids.has(v) ? ids.get(v) : v)) as Json[];
  let run;
  try {
    run = await sim.run(parsePlan(normalizePlan({ calls }).spec));
  } catch (e) {
    return { $kind: 'Blocked', cause: 'unsupported_plan', detail: errorMessage(e) };
  }
  if (!run.ok) return { $kind: 'Blocked', cause: 'unsupported_plan', detail: `as a plan it fails: ${run.error ?? 'failed'}` };
  const made = targets.filter((t) => run.createdTypes.some((c) => canonicalBaseType(c) === t));
  if (made.length === 0) return { $kind: 'Blocked', cause: 'search_failed', detail: 'it creates no target' };
  return { $kind: 'Ok', candidate: { fn, calls, targets: made } };
}

/**
 * The simulation's id for each object of the search's session: the system objects keep
 * theirs; the others are matched by type and ownership, in order. When one has no match: what it is.
 */
function objectMap(objects: readonly { id: string; typeTag: string; ownership: string }[], items: readonly InventoryItem[]): Map<string, string> | string {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const o of objects) {
    if (isSystemObject(o.id)) continue;
    const type = normalizeTypeString(o.typeTag);
    const match = items.find((i) => !used.has(i.id) && i.owner === o.ownership && normalizeTypeString(i.type) === type);
    if (match === undefined) return `${o.ownership} ${type}`;
    used.add(match.id);
    out.set(o.id, match.id);
  }
  return out;
}

/** `calls` with every result index moved by `offset` (appended after `offset` calls). */
function shifted(calls: readonly Json[], offset: number): Json[] {
  const shift = (a: Json): Json => {
    if (typeof a !== 'object' || a === null || Array.isArray(a)) return a;
    if (typeof a.result === 'number') return { result: a.result + offset };
    if (Array.isArray(a.nested_result) && typeof a.nested_result[0] === 'number') return { nested_result: [a.nested_result[0] + offset, a.nested_result[1]] };
    return a;
  };
  return calls.map((c) => (typeof c === 'object' && c !== null && !Array.isArray(c) && Array.isArray(c.args) ? { ...c, args: c.args.map(shift) } : c));
}

/**
 * The plans of chain-search for one package: each candidate appended to the combination that
 * ran so far, kept when its run succeeded and created more targets, dropped otherwise.
 */
export class ChainSearchPlanner implements PlanSource {
  private findings: ChainSearchFindings | null = null;
  private accepted: Json[] = [];
  private covered = new Set<string>();
  private pending: { calls: Json[]; targets: string[] } | null = null;
  private next_ = 0;
  private combined = 0;

  constructor(
    private readonly search: ChainSearch,
    private readonly pkg: MovePackage,
    private readonly targets: readonly string[],
    private readonly sim: PlanSimulation,
    private readonly deadline: number | null,
  ) {}

  async next(lastFailure: LastFailure | null): Promise<PlanItem | null> {
    if (this.findings === null) this.findings = await this.search.find(this.pkg, this.targets, this.sim, this.deadline);
    if (this.pending !== null && lastFailure !== null && 'missing_targets' in lastFailure) {
      const missing = new Set(lastFailure.missing_targets.map(canonicalBaseType));
      const hit = new Set(this.targets.map(canonicalBaseType).filter((t) => !missing.has(t)));
      if (hit.size > this.covered.size) {
        this.accepted = this.pending.calls;
        this.covered = hit;
        this.combined++;
      }
    }
    this.pending = null;
    const list = this.findings.candidates;
    while (this.next_ < list.length) {
      const c = list[this.next_++];
      if (c.targets.every((t) => this.covered.has(t))) continue;
      const calls = [...this.accepted, ...shifted(c.calls, this.accepted.length)];
      this.pending = { calls, targets: c.targets };
      return { $kind: 'Plan', spec: { calls } };
    }
    return null;
  }

  /** What the row says of the search; `missingTypes`: the targets the row's best plan did not create. */
  rowFields(missingTypes: readonly string[]): Record<string, unknown> {
    const f = this.findings;
    if (f === null) return {};
    const missed: Record<string, MissCause> = {};
    const details: Record<string, string> = {};
    for (const t of [...new Set(missingTypes.map(canonicalBaseType))].sort()) {
      const c = f.causes.get(t) ?? { cause: 'not_combined' as const, detail: 'its plan failed when combined with the others' };
      missed[t] = c.cause;
      details[t] = c.detail;
    }
    return {
      chain_search: {
        functions_tried: f.functionsTried,
        functions_total: f.functionsTotal,
        function_hits: f.hits,
        candidate_plans: f.candidates.length,
        candidates_combined: this.combined,
        sender_is_publisher: this.search.senderIsPublisher,
        publisher_only_types: f.publisherOnly,
        miss_causes: missed,
        miss_details: details,
        search_seconds: Math.round(f.seconds * 1000) / 1000,
      },
    };
  }
}

/**
 * `--agent helper-package`: the seeds' end-to-end pipeline. The model writes a Move helper
 * package (`helper_pkg_v1`: `move_toml`, `files`, `entrypoints`, `assumptions`) that calls the
 * target package (named `target_pkg` in its sources); we compile it offline with our own
 * compiler against the target's bytecode, give compiler (and publish, and run) errors back
 * for up to `--max-repair-rounds` repairs, publish it into the package's simulation, run its
 * entrypoints as transactions and score the target types they created. A helper cannot pack
 * a target struct itself (Move forbids it outside the defining module), so every hit went
 * through the target's own functions.
 *
 * Artifacts per package (the original's names): `interface.json`, `prompt.json`,
 * `llm_response.json`, `helper_pkg/`, `validation_report.json`, and `transactions.json`
 * (the publish and the entrypoint runs, with their effects).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalAddress, errorMessage, type Json } from '@smi/bytecode';
import { compileAndPublish, SimulationEnvironmentError, transactionEffectsJson } from '@smi/simulation';
import { z } from 'zod';
import { extractJsonValue } from '../phase1/extract.js';
import type { PackageContext } from '../run/executor.js';
import { summarizeInterface } from './interface-summary.js';
import type { LocalSimulation } from './local.js';
import type { ModelAgentSettings, PackageView } from './model-agent.js';
import { askModel, type ModelFailure, type Phase2CallRecord, type Phase2ServerSupport } from './model-call.js';
import type { LastFailure } from './prompts.js';
import { type PlanItem, type PlanSource, phase2Package, type Phase2Row } from './worker.js';

/** Settings of the helper-package agent. */
export interface HelperPackageSettings extends ModelAgentSettings {
  artifactsDir: string | null;
}

/** An entrypoint: a function of the helper (`helper_pkg::module::function`) and its arguments as plan arguments. */
const Entrypoint = z.union([
  z
    .string()
    .min(1)
    .transform((target) => ({ target, args: [] as Json[], type_args: [] as string[] })),
  z.object({ target: z.string().min(1), args: z.array(z.json()).default([]), type_args: z.array(z.string()).default([]) }).loose(),
]);

/** `helper_pkg_v1` (the original's JSON schema, as zod). */
export const HelperPackageSchema = z.strictObject({
  move_toml: z.string().min(1),
  files: z.record(z.string(), z.string()).refine((f) => Object.keys(f).length > 0, 'files must hold at least one file'),
  entrypoints: z.array(Entrypoint).default([]),
  assumptions: z.array(z.string()).default([]),
});
export type HelperPackage = z.infer<typeof HelperPackageSchema>;

/** The named address the helper calls the target by. */
export const TARGET_ADDRESS_NAME = 'target_pkg';

/** The instruction (the original's e2e prompt, for our offline compiler). */
export function helperInstruction(packageId: string, interfaceSummary: string, attempts: number): string {
  return (
    'GOAL: Create a Move helper package that demonstrates TYPE INHABITATION of the TARGET PACKAGE.\n' +
    'Your entry functions MUST create or use types defined in the target package (shown below).\n' +
    'Using only stdlib types (vector, option, u64, etc.) does NOT count as success.\n' +
    '\n' +
    'MOVE.TOML SETUP:\n' +
    '- Sui, MoveStdlib, SuiSystem are AUTO-INCLUDED. Do NOT add them.\n' +
    `- The target package is pre-configured as dependency '${TARGET_ADDRESS_NAME}' (use ${TARGET_ADDRESS_NAME}::module::Type).\n` +
    '- A minimal Move.toml only needs: [package], name, edition, and [addresses]\n' +
    '\n' +
    `TARGET PACKAGE TO INHABIT (package_id: ${packageId}):\n` +
    `${interfaceSummary}` +
    '\n\n' +
    'CONSTRAINTS:\n' +
    `- You have ${attempts} attempts total. Build errors will be provided after each attempt.\n` +
    '- Your code will be compiled with the Sui Move compiler (edition 2024)\n' +
    '- Entry functions should be zero-arg (only implicit TxContext allowed); objects they create must be transferred, shared or wrapped so they exist after the transaction\n' +
    '- You MUST use at least one type from the target package - stdlib-only code will fail evaluation\n' +
    '\n' +
    'OUTPUT FORMAT: JSON object with these fields:\n' +
    '- move_toml: STRING containing full Move.toml contents\n' +
    "- files: OBJECT mapping relative paths to file contents (e.g. 'sources/helper.move': '...')\n" +
    "- entrypoints: ARRAY of objects with 'target' field (e.g. 'helper_pkg::helper::my_func')\n" +
    '- assumptions: ARRAY of strings explaining your approach'
  );
}

/** The `[package] name` of a manifest, or `null`. */
function manifestName(toml: string): string | null {
  const m = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/s.exec(toml);
  return m ? m[1] : null;
}

/** One attempt's stages, for `validation_report.json`. */
interface AttemptReport {
  attempt: number;
  stage: 'model' | 'schema' | 'compile' | 'publish' | 'published';
  ok: boolean;
  errors: string[];
  package_id?: string;
  modules?: string[];
  warnings?: string;
}

/** The helper agent's plan source: each published helper yields its entrypoint runs. */
class HelperSource implements PlanSource {
  readonly calls: Phase2CallRecord[] = [];
  readonly prompts: Json[] = [];
  readonly responses: Json[] = [];
  readonly reports: AttemptReport[] = [];
  readonly transactions: Json[] = [];
  failure: ModelFailure | null = null;
  unparseable = 0;
  helper: HelperPackage | null = null;
  private attempt = 0;
  private queue: Json[] = [];
  private feedback: string | null = null;
  private previous: HelperPackage | null = null;

  constructor(
    private readonly ctx: PackageContext,
    private readonly s: HelperPackageSettings,
    private readonly support: Phase2ServerSupport,
    private readonly view: PackageView,
    private readonly sim: LocalSimulation,
  ) {}

  get attempts(): number {
    return this.attempt;
  }

  async next(lastFailure: LastFailure | null): Promise<PlanItem | null> {
    if (this.queue.length > 0) return { $kind: 'Plan', spec: this.queue.shift() as Json };
    if (lastFailure !== null && this.attempt > 0) this.feedback = this.describe(lastFailure);
    const total = 1 + Math.max(0, this.s.maxRepairRounds);
    while (this.failure === null && this.attempt < total) {
      this.attempt++;
      const plans = await this.tryOnce(total);
      if (plans !== null) {
        this.queue = plans.slice(1);
        return { $kind: 'Plan', spec: plans[0] };
      }
    }
    return null;
  }

  private describe(f: LastFailure): string {
    if ('harness_error' in f) return `Running the entrypoints failed: ${f.harness_error}`;
    if ('dry_run_effects_error' in f) return `The entrypoint transaction failed: ${f.dry_run_effects_error}`;
    return `The entrypoints ran but did not create these target types: ${f.missing_targets.join(', ')} (created: ${f.created_types.join(', ') || 'nothing'})`;
  }

  /** Ask, validate, compile and publish; the entrypoint plans, or `null` (with feedback for the next round). */
  private async tryOnce(total: number): Promise<Json[] | null> {
    const instruction = helperInstruction(this.view.packageId, summarizeInterface(this.view.iface, this.s.summaryMode, this.s.maxFunctions), total);
    const prompt: { [k: string]: Json } = {
      schema: 'helper_pkg_v1',
      package_id: this.view.packageId,
      target_key_types: [...this.view.targets],
      current_attempt: this.attempt,
      instruction,
    };
    if (this.attempt > 1) prompt.attempts_remaining = total - this.attempt + 1;
    if (this.previous !== null) prompt.your_previous_response = { move_toml: this.previous.move_toml, files: this.previous.files };
    if (this.feedback !== null) prompt.repair = this.feedback;
    this.prompts.push(prompt);
    const r = await askModel(
      this.ctx,
      this.s.model,
      { system: 'You are a careful assistant. Output only valid JSON.', user: JSON.stringify(prompt, null, 2) },
      this.s.params,
      this.support,
      { purpose: this.attempt === 1 ? 'helper' : 'repair', plan_attempt: this.attempt, call: this.attempt },
      this.calls,
      this.s.epoch,
    );
    if ('failure' in r) {
      this.responses.push({ error: r.failure.error });
      this.reports.push({ attempt: this.attempt, stage: 'model', ok: false, errors: [r.failure.error] });
      this.failure = r.failure;
      return null;
    }
    this.responses.push(r.answer.content);
    const v = extractJsonValue(r.answer.content);
    const parsed = v.$kind === 'ok' ? HelperPackageSchema.safeParse(v.value) : null;
    if (parsed === null || !parsed.success) {
      // Not JSON, or JSON that is not a helper package: the answer cannot be read as one.
      this.unparseable++;
      const why = v.$kind === 'unparseable' ? `not JSON: ${v.reason}` : (parsed?.error.issues ?? []).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
      this.reports.push({ attempt: this.attempt, stage: 'schema', ok: false, errors: [`helper_pkg_v1 schema validation failed: ${why}`] });
      this.feedback = `Return ONLY valid helper_pkg_v1 JSON. Validation error: ${why}`;
      return null;
    }
    const helper = parsed.data;
    this.helper = helper;
    this.previous = helper;
    const files: Record<string, string> = { ...helper.files, 'Move.toml': helper.move_toml };
    let published;
    try {
      published = await compileAndPublish(this.sim.env, {
        files,
        sender: this.sim.options.sender,
        addressNames: { [this.view.packageId]: TARGET_ADDRESS_NAME },
      });
    } catch (e) {
      const compile = e instanceof SimulationEnvironmentError && e.code === 'COMPILATION_ERROR';
      const message = errorMessage(e);
      // The compiler's whole output (every error, with its source lines and notes, as `smi
      // build --json` has it); the message alone names only the first.
      const full = compile && typeof (e as SimulationEnvironmentError).details.diagnostics === 'string' ? (e as SimulationEnvironmentError).details.diagnostics : message;
      const all = full.replace(/\s+$/, '').split('\n');
      const lines = all.length > MAX_DIAGNOSTIC_LINES ? [...all.slice(0, MAX_DIAGNOSTIC_LINES), `... (${all.length - MAX_DIAGNOSTIC_LINES} more lines)`] : all;
      this.reports.push({ attempt: this.attempt, stage: compile ? 'compile' : 'publish', ok: false, errors: lines });
      this.feedback = compile
        ? "The Move code failed to compile. Fix these build errors, then return ONLY helper_pkg_v1 JSON.\nIMPORTANT: Keep what worked (e.g., if Move.toml compiled, don't change it). Only fix the specific errors.\n\nBUILD ERRORS:\n" +
          lines.join('\n')
        : `The package compiled but could not be published: ${lines.join('\n')}`;
      return null;
    }
    const pkgId = canonicalAddress(published.packageId);
    this.transactions.push({
      kind: 'publish',
      package_id: pkgId,
      transaction: { digest: published.transaction.digest, effects: transactionEffectsJson(this.sim.env, published.transaction, true) as unknown as Json },
    });
    this.reports.push({
      attempt: this.attempt,
      stage: 'published',
      ok: true,
      errors: [],
      package_id: pkgId,
      modules: published.modules.map((m) => m.name),
      ...(published.warnings ? { warnings: published.warnings } : {}),
    });
    const own = manifestName(helper.move_toml);
    const calls = helper.entrypoints.map((ep) => {
      const parts = ep.target.split('::');
      const addr = parts.length === 3 && (parts[0] === own || !/^0x/i.test(parts[0])) ? pkgId : parts[0];
      return { target: [addr, ...parts.slice(-2)].join('::'), type_args: ep.type_args, args: ep.args } as Json;
    });
    if (calls.length === 0) {
      this.feedback = 'The package published, but it lists no entrypoints: name the functions to run in "entrypoints".';
      return null;
    }
    // All entrypoints in one transaction first, then each alone (the best counts).
    return calls.length === 1 ? [{ calls }] : [{ calls }, ...calls.map((c) => ({ calls: [c] }))];
  }
}

/** Lines of compiler output a repair prompt carries at most. */
const MAX_DIAGNOSTIC_LINES = 300;

/** The row of the helper-package agent for one package (and its artifacts). */
export async function helperPackageRow(
  ctx: PackageContext,
  s: HelperPackageSettings,
  support: Phase2ServerSupport,
  view: PackageView,
  sim: LocalSimulation,
): Promise<{ row: Phase2Row; calls: Phase2CallRecord[]; failure: ModelFailure | null; unparseableOnly: boolean }> {
  const source = new HelperSource(ctx, s, support, view, sim);
  const row = await phase2Package({
    packageId: view.packageId,
    targets: view.targets,
    source,
    sim,
    mode: 'local',
    maxVariants: 1,
    deadline: ctx.deadline,
    onRun: (spec, _variant, run) =>
      source.transactions.push({
        kind: 'entrypoints',
        plan: spec,
        ok: run.ok,
        error: run.error,
        created_types: run.createdTypes,
        gas_budget_used: run.gasBudgetUsed,
        transaction: (run.transaction as unknown as Json) ?? null,
      }),
  });
  const published = source.reports.filter((r) => r.stage === 'published');
  const lastReport = source.reports.at(-1);
  if (published.length === 0 && lastReport !== undefined && source.failure === null) row.error = `the helper package was never published (${lastReport.stage}): ${lastReport.errors[0] ?? ''}`;
  Object.assign(row, {
    helper_attempts: source.attempts,
    helper_repair_rounds: Math.max(0, source.attempts - 1),
    helper_compiled: published.length > 0,
    helper_package_id: published.at(-1)?.package_id ?? null,
    helper_stages: source.reports.map((r) => `${r.attempt}:${r.stage}${r.ok ? '' : ':failed'}`),
    helper_assumptions: source.helper?.assumptions ?? [],
  });
  if (s.artifactsDir !== null) {
    const dir = path.join(s.artifactsDir, view.packageId);
    mkdirSync(dir, { recursive: true });
    const json = (name: string, v: unknown) => writeFileSync(path.join(dir, name), JSON.stringify(v, null, 2) + '\n');
    json('interface.json', view.iface);
    json('prompt.json', source.prompts);
    json('llm_response.json', source.responses);
    if (source.helper !== null) {
      for (const [file, text] of Object.entries({ 'Move.toml': source.helper.move_toml, ...source.helper.files })) {
        const target = path.resolve(dir, 'helper_pkg', file);
        // A model's file name never writes outside the artifact directory.
        if (!target.startsWith(path.resolve(dir, 'helper_pkg') + path.sep)) continue;
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
    }
    json('validation_report.json', {
      ok: published.length > 0 && row.dry_run_ok === true,
      errors: source.reports.flatMap((r) => r.errors),
      attempts: source.reports,
      entrypoints: source.helper?.entrypoints ?? [],
      score: row.score,
      hit_types: row.hit_types,
      missing_types: row.missing_types,
    });
    json('transactions.json', source.transactions);
  }
  return { row, calls: source.calls, failure: source.failure, unparseableOnly: source.unparseable > 0 && published.length === 0 && source.unparseable === source.attempts };
}

/**
 * The original's evaluation fields of a Phase II row (`evaluation.py`, v0.5.0), which its
 * runner left `null`: `scoring_criteria` (partial credit: the plan parsed, its transaction
 * built, it created a target, it ran cleanly), `failure` (phase, code, message, whether it is
 * an expected limitation, who is at fault), `inhabitation_metrics` (targets created and not,
 * with why), `execution_trace` (the calls of the plan that counts, the abort, gas; the time
 * is the row's `elapsed_seconds`, so the rest of a row is reproducible) and
 * `evaluation_result` (all of them, with the score). Codes are the original's taxonomy
 * (E1xx resolution … E5xx validation); a plan that does not parse has no code (`null`): the
 * taxonomy's build codes are the Move compiler's.
 */
import { abortCategory } from '@smi/inhabit';
import type { Plan } from '@smi/inhabit';

type Phase = 'build' | 'resolution' | 'typecheck' | 'synthesis' | 'execution' | 'validation';
type ErrorSource = 'llm_error' | 'infrastructure_limitation' | 'target_package_limitation' | 'unknown';

/** Abort code the sandbox uses for natives it does not support (the original's E_NOT_SUPPORTED). */
const E_NOT_SUPPORTED = 1000;

/** What the evaluation is made from: the row's outcome and the plan that counts. */
export interface EvaluationInput {
  packageId: string;
  hitTypes: readonly string[];
  missingTypes: readonly string[];
  /** The agent gave a plan that parsed and passed the causality check. */
  parseOk: boolean;
  txBuildOk: boolean;
  /** The plan that counts ran with checks (a dry run, not dev-inspect) and succeeded. */
  ranCleanly: boolean;
  /** A transaction was run at all. */
  executed: boolean;
  error: string | null;
  effectsError: string | null;
  abortCode: number | null;
  abortLocation: string | null;
  plan: Plan | null;
  gasUsed: number | null;
  /** Entry functions of the package. */
  entryFunctions: readonly string[];
  synthetic: boolean;
}

/** The original's `ScoringCriteria.to_dict()`. */
function criteriaOf(c: { compiles: boolean; imports_target: boolean; creates_target_type: boolean; executes_cleanly: boolean }): Record<string, unknown> {
  const score = [c.compiles, c.imports_target, c.creates_target_type, c.executes_cleanly].filter(Boolean).length * 0.25;
  const phase: Phase = c.executes_cleanly ? 'validation' : c.creates_target_type ? 'execution' : c.imports_target ? 'synthesis' : c.compiles ? 'resolution' : 'build';
  return { ...c, score, phase_reached: phase };
}

/** The failure of a row that did not create every target, in the original's taxonomy. */
function failureOf(i: EvaluationInput): Record<string, unknown> | null {
  if (i.missingTypes.length === 0 && i.hitTypes.length > 0) return null;
  const f = (phase: Phase, code: string | null, message: string, source: ErrorSource, expected = false): Record<string, unknown> => ({
    phase,
    code,
    message,
    is_expected_limitation: expected,
    error_source: source,
  });
  const text = i.error ?? '';
  if (!i.parseOk) return f('build', null, text || 'the agent gave no plan that parses', 'llm_error');
  if (!i.txBuildOk) {
    if (/not found|does not exist|no (module|function)/i.test(text)) return f('resolution', /module/i.test(text) ? 'E101' : 'E102', text, 'llm_error');
    if (/not (public|entry)|cannot (directly )?call|NonEntryFunctionInvoked/i.test(text)) return f('resolution', 'E103', text, 'llm_error');
    if (/no object of type|\$smi_placeholder/.test(text)) return f('synthesis', 'E301', text, 'unknown');
    return f('typecheck', 'E201', text, 'llm_error');
  }
  if (!i.executed) return f('execution', 'E401', text || 'the transaction did not run', 'unknown');
  if (i.effectsError !== null || (!i.ranCleanly && i.hitTypes.length === 0)) {
    if (i.abortCode === E_NOT_SUPPORTED || /unsupported native/i.test(text)) return f('execution', 'E404', text, 'infrastructure_limitation', true);
    const inTarget = i.abortLocation !== null && i.abortLocation.toLowerCase().startsWith(i.packageId.toLowerCase());
    if (i.effectsError === 'MoveAbort') return f('execution', inTarget ? 'E403' : 'E402', text, 'unknown');
    if (i.effectsError !== null) return f('execution', 'E401', `${i.effectsError}: ${text}`, 'llm_error');
  }
  return f('validation', 'E501', `the transaction ran but did not create ${i.missingTypes.length} of ${i.missingTypes.length + i.hitTypes.length} target types`, 'unknown');
}

/** The five evaluation fields of a row. */
export function phase2Evaluation(i: EvaluationInput): Record<string, unknown> {
  const targets = i.hitTypes.length + i.missingTypes.length;
  const criteria = criteriaOf({
    compiles: i.parseOk,
    imports_target: i.txBuildOk && (i.plan?.calls.some((c) => c.target.toLowerCase().startsWith(i.packageId.toLowerCase())) ?? false),
    creates_target_type: i.hitTypes.length > 0,
    executes_cleanly: i.ranCleanly,
  });
  const failure = i.synthetic ? null : failureOf(i);
  const called = new Set((i.plan?.calls ?? []).map((c) => c.target.toLowerCase()));
  const metrics: Record<string, unknown> = {
    target_types_total: targets,
    target_types_inhabited: i.hitTypes.length,
    inhabitation_rate: targets === 0 ? 0 : i.hitTypes.length / targets,
    entry_coverage: i.entryFunctions.length === 0 ? 0 : i.entryFunctions.filter((f) => i.ranCleanly && called.has(f.toLowerCase())).length / i.entryFunctions.length,
    target_entry_functions: i.entryFunctions.length,
    entry_functions_called: i.entryFunctions.filter((f) => i.ranCleanly && called.has(f.toLowerCase())).length,
    ...(i.hitTypes.length > 0 ? { inhabited_types: [...i.hitTypes] } : {}),
    ...(i.missingTypes.length > 0 ? { uninhabited_types: i.missingTypes.map((t) => ({ type_name: t, reason: 'unknown' })) } : {}),
  };
  const failedCall = !i.ranCleanly && i.executed ? (i.plan?.calls.length ?? 0) - 1 : -1;
  const trace: Record<string, unknown> = {
    execution_attempted: i.executed,
    ...(i.plan !== null && i.plan.calls.length > 0
      ? {
          functions_called: i.plan.calls.map((c, k) => {
            const [, module, fn] = c.target.split('::');
            // Where the transaction aborted, when the abort names a call of the plan; else the last call.
            const failedHere = i.abortLocation !== null ? i.abortLocation.toLowerCase() === c.target.toLowerCase() : k === failedCall;
            return {
              module,
              function: fn,
              succeeded: !(failedHere && !i.ranCleanly && i.executed),
              ...(c.typeArgs.length > 0 ? { type_args: c.typeArgs } : {}),
              ...(failedHere && !i.ranCleanly && i.error ? { error: i.error } : {}),
            };
          }),
        }
      : {}),
    ...(i.abortCode !== null
      ? {
          abort_info: {
            message: i.error ?? '',
            is_expected: i.abortCode === E_NOT_SUPPORTED,
            category: i.abortCode === E_NOT_SUPPORTED ? 'unsupported_native' : abortCategory(i.error ?? '', i.effectsError === 'MoveAbort' ? 'ContractAbort' : undefined),
            abort_code: i.abortCode,
            ...(i.abortLocation !== null ? { abort_location: i.abortLocation } : {}),
          },
        }
      : {}),
    ...(i.gasUsed !== null ? { gas_used: i.gasUsed } : {}),
  };
  const ok = targets > 0 && i.missingTypes.length === 0 && (i.ranCleanly || i.synthetic);
  const score = ok ? 1 : (criteria.score as number);
  const phaseReached = criteria.phase_reached as string;
  const result: Record<string, unknown> = {
    ok,
    score,
    criteria,
    ...(failure !== null ? { failure } : {}),
    ...(!ok && score > 0 ? { partial_credit_reason: `Reached ${phaseReached} phase before failure` } : {}),
    inhabitation_metrics: metrics,
    execution_trace: trace,
  };
  return { evaluation_result: result, scoring_criteria: criteria, inhabitation_metrics: metrics, execution_trace: trace, failure };
}

/** The original's reasons a type is not inhabited, for chain-search's causes. */
const REASONS: Readonly<Record<string, string>> = { no_callable_creator: 'no_constructor' };

/** `row`'s uninhabited types with the reasons a search found (its cause as `details`). */
export function withUninhabitedReasons(row: Record<string, unknown>, causes: Readonly<Record<string, string>>): void {
  const metrics = row.inhabitation_metrics as { uninhabited_types?: { type_name: string; reason: string; details?: string }[] } | undefined;
  for (const u of metrics?.uninhabited_types ?? []) {
    const cause = Object.entries(causes).find(([t]) => t.toLowerCase() === u.type_name.toLowerCase())?.[1];
    if (cause === undefined) continue;
    u.reason = REASONS[cause] ?? 'unknown';
    u.details = cause;
  }
}

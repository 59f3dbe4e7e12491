/**
 * A package's transcript, as the report's viewer shows it: each model call (what it was
 * for, the prompt, the answer or the tool call, the error), each plan the simulator ran
 * (its variant, what it created, its error or abort), and the outcome (the row's score,
 * the best plan, the transaction's effects). Long texts are cut with a note of how much
 * was left out, so a large run's report stays small; the run directory keeps everything.
 */
import type { PackageResult } from '@smi/harness';

/** One block of a transcript. */
export interface TranscriptStep {
  /** `prompt`, `answer`, `tool_call`, `error`, `simulation`, `outcome`, `plan`, `effects`, `row`. */
  kind: string;
  title: string;
  text: string;
}

/** A package's transcript. */
export interface Transcript {
  package_id: string;
  outcome: string;
  error: string | null;
  steps: TranscriptStep[];
}

/** Longest text kept of one block. */
export const MAX_BLOCK_CHARS = 24_000;

/** The text, or its head and tail when longer than `max` (prompts end with what changed: need_more results, the last failure). */
function cut(text: string, max = MAX_BLOCK_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n\n… (${text.length - 2 * half} characters left out; the run directory's results/ has them all) …\n\n${text.slice(-half)}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pretty = (v: unknown): string => JSON.stringify(v, null, 2);

function usageText(u: unknown): string {
  if (!isRecord(u)) return '';
  return ` · ${String(u.input ?? 0)} in / ${String(u.output ?? 0)} out tokens`;
}

function callSteps(call: Record<string, unknown>, i: number): TranscriptStep[] {
  const purpose = typeof call.purpose === 'string' ? call.purpose : 'answer';
  const attempt = call.plan_attempt ?? call.attempt;
  const head = `call ${i + 1} · ${purpose}${attempt !== undefined ? ` · attempt ${String(attempt)}` : ''}${call.epoch !== undefined && call.epoch !== 0 ? ` · epoch ${String(call.epoch)}` : ''}`;
  const steps: TranscriptStep[] = [];
  if (typeof call.prompt === 'string') steps.push({ kind: 'prompt', title: `${head} · prompt`, text: cut(call.prompt) });
  const cache = typeof call.cache === 'string' ? ` · cache ${call.cache}` : '';
  if (typeof call.response === 'string') steps.push({ kind: 'answer', title: `${head} · answer${cache}${usageText(call.usage)}`, text: cut(call.response) });
  if (Array.isArray(call.tool_calls))
    for (const t of call.tool_calls) if (isRecord(t)) steps.push({ kind: 'tool_call', title: `${head} · tool call ${String(t.name)}`, text: cut(String(t.arguments ?? '')) });
  if (typeof call.error === 'string') steps.push({ kind: 'error', title: `${head} · failed`, text: call.error });
  return steps;
}

function simulationStep(run: Record<string, unknown>, i: number): TranscriptStep {
  const ok = run.ok === true;
  const title = `simulation ${i + 1}${run.plan_attempt !== undefined ? ` · plan ${String(run.plan_attempt)}` : ''}${run.variant ? ` · variant ${String(run.variant)}` : ''} · ${ok ? 'success' : 'failed'}`;
  const lines: string[] = [];
  if (typeof run.error === 'string') lines.push(`error: ${run.error}`);
  if (run.abort_code !== undefined && run.abort_code !== null) lines.push(`abort: code ${String(run.abort_code)} at ${String(run.abort_location ?? '?')}`);
  if (Array.isArray(run.created_types)) lines.push(`created: ${run.created_types.length === 0 ? '(nothing)' : run.created_types.join(', ')}`);
  if (typeof run.hits === 'number') lines.push(`target hits: ${run.hits}`);
  if (run.plan !== undefined) lines.push(`plan:\n${pretty(run.plan)}`);
  return { kind: 'simulation', title, text: cut(lines.join('\n')) };
}

/** The transcript of one package's result. */
export function transcriptOf(result: PackageResult): Transcript {
  const steps: TranscriptStep[] = [];
  const details = result.details ?? {};
  const calls = Array.isArray(details.calls) ? details.calls.filter(isRecord) : [];
  const runs = Array.isArray(details.runs) ? details.runs.filter(isRecord) : [];
  // In the order things happened: each plan attempt's calls, then the simulations of its plan.
  const attemptOf = (r: Record<string, unknown>): number => (typeof r.epoch === 'number' ? r.epoch * 1e6 : 0) + (typeof r.plan_attempt === 'number' ? r.plan_attempt : 0);
  const attempts = [...new Set([...calls.map(attemptOf), ...runs.map(attemptOf)])].sort((a, b) => a - b);
  for (const a of attempts) {
    calls.forEach((c, i) => attemptOf(c) === a && steps.push(...callSteps(c, i)));
    runs.forEach((r, i) => attemptOf(r) === a && steps.push(simulationStep(r, i)));
  }
  if (typeof details.runs_omitted === 'number' && details.runs_omitted > 0)
    steps.push({
      kind: 'simulation',
      title: `${details.runs_omitted} more simulations`,
      text: `not recorded (past the limit of simulations a package keeps; every one that created a target is kept)`,
    });
  const row = result.row;
  if (row.best_plan !== undefined && row.best_plan !== null) steps.push({ kind: 'plan', title: 'best plan', text: cut(pretty(row.best_plan)) });
  if (isRecord(details.transaction)) steps.push({ kind: 'effects', title: 'effects of the best plan', text: cut(pretty(details.transaction)) });
  if (calls.length === 0 && runs.length === 0 && row.best_plan == null)
    steps.push({ kind: 'outcome', title: 'no model calls recorded', text: 'this agent makes no model calls, or the input is a run JSON (a run directory keeps the calls)' });
  const { best_plan: _plan, ...rest } = row;
  steps.push({ kind: 'row', title: 'row (scored result)', text: cut(pretty(rest)) });
  return { package_id: result.package_id, outcome: result.outcome, error: result.error, steps };
}

/**
 * `smi ptb-eval`: does each cached mainnet PTB execute offline? The original's self-healing
 * loop (§9): run the transaction; when it fails because a package or an object is missing,
 * fetch it from the node (with fetching enabled), add it, and run again, up to `maxRetries`
 * times; report each transaction in the original's `PtbEvalReport` JSON shape with its healing
 * actions and error category. Unlike the original, a transaction runs exactly as it did on
 * chain (its objects at the versions it read, its protocol version), healed objects are
 * fetched at the version the transaction read, what was fetched is written back to the cache,
 * and without fetching a missing thing is one failed action, not `maxRetries` useless retries.
 */
import { canonicalAddress, SYSTEM_PACKAGES, errorMessage } from '@smi/bytecode';
import { objectIdOf, suiBcs, type SuiObject } from '@smi/ptb';
import type { SuiDataSource } from '../data-source.js';
import { type FetchedReplay, inputVersions } from './fetch.js';
import { type ReplayOneOptions, replayFetched } from './replay-one.js';

/** A healing action (the original's `HealingAction`). */
export interface HealingAction {
  action_type: 'deploy_package' | 'fetch_object';
  details: string;
  success: boolean;
}

/** One transaction's evaluation (the original's `PtbEvalReport`, plus `effects_match`). */
export interface PtbEvalReport {
  digest: string;
  is_framework_only: boolean;
  command_count: number;
  input_count: number;
  status: 'Success' | 'Failed' | 'Skipped';
  retry_count: number;
  healing_actions?: HealingAction[];
  error?: string;
  error_category?: string;
  /** Status and every object matched the recorded effects (ours). */
  effects_match?: boolean;
}

/** What went wrong, in the original's categories, and what is missing when something is. */
export function errorCategory(error: string): { category: string; missing: { kind: 'package' | 'object'; id: string } | null } {
  const id = /0x[0-9a-fA-F]{64}/.exec(error)?.[0];
  if (/is not loaded|MISSING_DEPENDENCY|MissingDependency|LINKER_ERROR|package .* not found/i.test(error) && id)
    return { category: 'MissingPackage', missing: { kind: 'package', id: canonicalAddress(id) } };
  if (/InputObjectDeleted|does not exist|object .* not found|ObjectNotFound/i.test(error) && id) return { category: 'MissingObject', missing: { kind: 'object', id: canonicalAddress(id) } };
  const abort = /MoveAbort.*?(?:code|with code)\s+(\d+)/.exec(error);
  if (abort) return { category: `Abort(${abort[1]})`, missing: null };
  if (/type ?mismatch|TypeArgumentError|TYPE_MISMATCH/i.test(error)) return { category: 'TypeMismatch', missing: null };
  if (/deserializ/i.test(error)) return { category: 'DeserializationFailed', missing: null };
  if (/shared object.*(lock|congest|cancel)/i.test(error)) return { category: 'SharedObjectLockConflict', missing: null };
  return { category: 'ExecutionError', missing: null };
}

const FRAMEWORK = new Set(['0x1', '0x2', '0x3'].map((a) => canonicalAddress(a)));

/** Options of {@link evaluateTransaction}. */
export interface PtbEvalOptions extends ReplayOneOptions {
  maxRetries: number;
  /** Where missing packages and objects come from (`null`: fetching disabled). */
  fetcher: SuiDataSource | null;
  onHeal?: (action: HealingAction) => void;
}

/** Evaluate one cached transaction; `healed` is the entry with what was fetched, when anything was. */
export async function evaluateTransaction(f: FetchedReplay, o: PtbEvalOptions): Promise<{ report: PtbEvalReport; healed: FetchedReplay | null }> {
  const s = f.snapshot;
  const kind = s.transaction.V1.kind;
  const pt = kind.$kind === 'ProgrammableTransaction' ? kind.ProgrammableTransaction : null;
  const base = {
    digest: s.digest,
    is_framework_only: pt !== null && pt.commands.every((c) => c.$kind !== 'MoveCall' || FRAMEWORK.has(canonicalAddress(c.MoveCall.package))),
    command_count: pt?.commands.length ?? 0,
    input_count: pt?.inputs.length ?? 0,
  };
  if (pt === null)
    return { report: { ...base, status: 'Skipped', retry_count: 0, error: `transaction kind ${kind.$kind} is not a programmable transaction`, error_category: 'ConversionError' }, healed: null };
  const actions: HealingAction[] = [];
  const objects = new Map(s.objects);
  let healedAny = false;
  for (let attempt = 0; ; attempt++) {
    const current: FetchedReplay = { ...f, snapshot: { ...s, objects } };
    const { outcome } = replayFetched(current, o);
    const extra = (): { healing_actions?: HealingAction[] } => (actions.length > 0 ? { healing_actions: actions } : {});
    if (outcome.local_success) {
      return { report: { ...base, status: 'Success', retry_count: attempt, ...extra(), effects_match: outcome.match }, healed: healedAny ? current : null };
    }
    const error = outcome.local_error ?? outcome.error ?? 'failed';
    const { category, missing } = errorCategory(error);
    const fail = (): { report: PtbEvalReport; healed: FetchedReplay | null } => ({
      report: { ...base, status: 'Failed', retry_count: attempt, ...extra(), error, error_category: category },
      healed: healedAny ? current : null,
    });
    if (missing === null || attempt >= o.maxRetries) return fail();
    const action: HealingAction = { action_type: missing.kind === 'package' ? 'deploy_package' : 'fetch_object', details: '', success: false };
    actions.push(action);
    if (o.fetcher === null) {
      action.details = `${missing.kind === 'package' ? 'Failed to deploy' : 'Failed to fetch'} ${missing.id}: fetching is disabled (--enable-fetching)`;
      o.onHeal?.(action);
      return fail();
    }
    if (objects.has(missing.id) || (missing.kind === 'package' && SYSTEM_PACKAGES.has(missing.id) && f.packages.some((p) => p.id === missing.id))) {
      action.details = `${missing.id} is already loaded: the failure is not a missing ${missing.kind}`;
      o.onHeal?.(action);
      return fail();
    }
    try {
      const version = missing.kind === 'object' ? inputVersions(s.transaction, f.effects).get(missing.id) : undefined;
      const fetched = await o.fetcher.getObject(missing.id, version);
      const obj: SuiObject = suiBcs.Object.parse(fetched.bcs);
      objects.set(objectIdOf(obj), obj);
      healedAny = true;
      action.success = true;
      action.details =
        missing.kind === 'package' ? `Deployed ${missing.id} from ${o.fetcher.endpoint}` : `Fetched ${missing.id}${version !== undefined ? ` at version ${version}` : ''} from ${o.fetcher.endpoint}`;
    } catch (e) {
      action.details = `${missing.kind === 'package' ? 'Failed to deploy' : 'Failed to fetch'} ${missing.id}: ${errorMessage(e)}`;
      o.onHeal?.(action);
      return fail();
    }
    o.onHeal?.(action);
  }
}

/** The summary the original printed: totals, framework-only vs third-party, top error categories, healing success. */
export interface PtbEvalSummary {
  total: number;
  success: number;
  failed: number;
  skipped: number;
  framework_only: { total: number; success: number };
  third_party: { total: number; success: number };
  top_error_categories: [string, number][];
  healing: { transactions_healed: number; actions: number; successful_actions: number; success_rate: number };
}

/** Summarize reports. */
export function ptbEvalSummary(reports: readonly PtbEvalReport[]): PtbEvalSummary {
  const cats = new Map<string, number>();
  for (const r of reports) if (r.error_category) cats.set(r.error_category, (cats.get(r.error_category) ?? 0) + 1);
  const actions = reports.flatMap((r) => r.healing_actions ?? []);
  const ok = actions.filter((a) => a.success).length;
  const fw = reports.filter((r) => r.is_framework_only);
  const tp = reports.filter((r) => !r.is_framework_only);
  return {
    total: reports.length,
    success: reports.filter((r) => r.status === 'Success').length,
    failed: reports.filter((r) => r.status === 'Failed').length,
    skipped: reports.filter((r) => r.status === 'Skipped').length,
    framework_only: { total: fw.length, success: fw.filter((r) => r.status === 'Success').length },
    third_party: { total: tp.length, success: tp.filter((r) => r.status === 'Success').length },
    top_error_categories: [...cats].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10),
    healing: {
      transactions_healed: reports.filter((r) => r.status === 'Success' && (r.healing_actions?.some((a) => a.success) ?? false)).length,
      actions: actions.length,
      successful_actions: ok,
      success_rate: actions.length === 0 ? 0 : ok / actions.length,
    },
  };
}

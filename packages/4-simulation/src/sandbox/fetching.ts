/**
 * Fetching on demand (`smi sandbox-exec --enable-fetching`): an asynchronous loop around the
 * synchronous request handling. Try the request; when it fails because a package or an
 * object is missing (or a transaction failed after looking for a dynamic-field child the
 * session does not hold), fetch it from the node with what it needs, put the environment
 * back as it was before the attempt, add what was fetched, and try again — once per fetched
 * thing, with at most {@link MAX_FETCHES} node calls per request.
 *
 * The response lists what was fetched (`fetched`); a fetch that fails ends the request with
 * an error naming what could not be fetched and why (`fetch_error`), the environment as it
 * was before the request apart from what earlier steps fetched. A dynamic-field child the
 * node does not have either is no error: the transaction's own failure is the answer.
 */
import type { SuiDataSource } from '../data-source.js';
import type { SimulationEnvironment } from '../environment.js';
import type { StateSnapshot } from '../state-file.js';
import { errorResponse } from './errors.js';
import { addFetched, type FetchBudget, fetchMissing, type FetchedStep, FetchStepError } from './fetch-missing.js';
import { type Missing, missingKey, missingOf, requestedVersions } from './missing.js';
import { fail, type SandboxFetched, type SandboxResponse } from './protocol.js';
import type { SandboxRequest } from './request.js';

/** Node calls one request may make. */
export const MAX_FETCHES = 25;

/** One try of a request: its response, and what it threw (`null` when it answered). */
export interface Attempt {
  response: SandboxResponse;
  error: unknown;
}

/** What the loop runs on: the session's current environment and one try of a request. */
export interface FetchingTarget {
  readonly env: SimulationEnvironment;
  attempt(req: SandboxRequest): Promise<Attempt>;
}

/** Where to fetch from, and who hears of each fetched thing. */
export interface FetchingOptions {
  fetcher: SuiDataSource;
  /** Node calls per request (default {@link MAX_FETCHES}). */
  maxFetches?: number;
  onFetch?: (fetched: SandboxFetched) => void;
}

function sameState(a: StateSnapshot, b: StateSnapshot): boolean {
  const [c, d] = [a.counters, b.counters];
  if (c.tx !== d.tx || c.system !== d.system || c.created !== d.created || c.randomRound !== d.randomRound) return false;
  if (a.objects.length !== b.objects.length) return false;
  return a.objects.every(([id, o], i) => b.objects[i][0] === id && b.objects[i][1] === o);
}

/** Undo what a failed attempt left (a failed transaction's gas and version bumps, counters). */
function restore(env: SimulationEnvironment, before: StateSnapshot): void {
  if (!sameState(before, env.captureState())) env.importState(before);
}

function withFetched(r: SandboxResponse, fetched: readonly SandboxFetched[]): SandboxResponse {
  return fetched.length === 0 ? r : { ...r, fetched: [...fetched] };
}

function fetchFailure(e: unknown, fetched: readonly SandboxFetched[]): SandboxResponse {
  if (!(e instanceof FetchStepError)) return withFetched(errorResponse(e), fetched);
  return withFetched(fail(e.message, e.category, { fetch_error: { kind: e.kind, id: e.id, code: e.code, message: e.message } }), fetched);
}

/** Try the request, observing the dynamic-field children it looked for and did not find. */
async function tryOnce(target: FetchingTarget, req: SandboxRequest): Promise<{ attempt: Attempt; children: Map<string, string> }> {
  const children = new Map<string, string>();
  const stop = target.env.store.observeChildMisses((parent, child) => {
    if (!children.has(child)) children.set(child, parent);
  });
  try {
    return { attempt: await target.attempt(req), children };
  } finally {
    stop();
  }
}

/** Answer `req`, fetching what it misses. Never throws. */
export async function answerWithFetching(target: FetchingTarget, req: SandboxRequest, options: FetchingOptions): Promise<SandboxResponse> {
  const limit = options.maxFetches ?? MAX_FETCHES;
  const budget: FetchBudget = { left: limit, limit };
  const fetched: SandboxFetched[] = [];
  const tried = new Set<string>();
  const versions = requestedVersions(req);
  for (;;) {
    const env = target.env;
    const before = env.captureState();
    const { attempt, children } = await tryOnce(target, req);
    const candidates: Missing[] = [];
    const primary = missingOf(env, attempt.error, attempt.response, versions);
    if (primary !== null) candidates.push(primary);
    if (!attempt.response.success) for (const [id, parent] of children) candidates.push({ kind: 'child', id, parent });
    let step: FetchedStep | null = null;
    for (const miss of candidates) {
      const key = missingKey(miss);
      if (tried.has(key)) continue;
      tried.add(key);
      try {
        step = await fetchMissing(env, options.fetcher, budget, miss);
      } catch (e) {
        // A child the node does not have either: the transaction's failure stands.
        if (miss.kind === 'child' && e instanceof FetchStepError && e.code === 'NOT_FOUND' && e.id === miss.id) continue;
        restore(env, before);
        return fetchFailure(e, fetched);
      }
      if (step.items.length > 0) break;
      step = null;
    }
    if (step === null) return withFetched(attempt.response, fetched);
    restore(env, before);
    for (const f of addFetched(env, step)) {
      fetched.push(f);
      options.onFetch?.(f);
    }
  }
}

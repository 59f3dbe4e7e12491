/**
 * The sandbox session as Tier B's attempts use it. Every attempt starts from the baseline
 * and every request is deterministic, so the answer to a sequence of requests already
 * sent from the baseline (the same setup transaction before forty targets of one pool) is
 * taken from a cache with the state it left instead of running it again; the state is
 * restored only when a request must really run. The last request can be run again from
 * the state it started from with a tracer watching (a comparison log for a failure, the
 * target's coverage for a success); what the tracer saw is kept with the cached answer.
 */
import type { Json, Tracer } from '@smi/move-vm';
import type { SandboxResponse, SandboxSession, StateSnapshot } from '@smi/simulation';
import { isCoreFramework } from './catalogue.js';

/** Coverage of one function: distinct instructions executed, of all it has. */
export interface Coverage {
  executed: number;
  total: number;
}

/** A request's answer and the state it left. */
interface CachedAnswer {
  id: string;
  response: SandboxResponse;
  snapshot: StateSnapshot;
  accessed: string[];
  /** Instructions the failing command of a failed request ran. */
  steps: number;
  /** What tracers saw when the request ran again, by what they watched. */
  seen?: Map<string, unknown>;
}

/** Cached answers kept (the least recently used go first). */
const CACHE_LIMIT = 2048;

/** A sandbox session with a cache of request sequences from one baseline state. */
export class CachedSession {
  /** Modules (outside 0x1/0x2/0x3) the last request ran code of. */
  accessed: string[] = [];
  /** Instructions the failing command of the last request ran (0 when it did not fail in Move). */
  steps = 0;
  private readonly cache = new Map<string, CachedAnswer>();
  private ids = 0;
  /** The cache id of the requests sent so far in this attempt (`0`: none). */
  private prefix = '0';
  /** The state to restore before the next request that must run, if any. */
  private pending: StateSnapshot | null = null;
  /** The state after the requests sent so far, and before the last one. */
  private prefixSnapshot: StateSnapshot;
  private beforeLast: StateSnapshot | null = null;
  private lastKey = '';
  private lastRequest: Json | null = null;

  constructor(
    readonly session: SandboxSession,
    private readonly baseline: StateSnapshot,
  ) {
    this.prefixSnapshot = baseline;
  }

  /** Start an attempt from the baseline. */
  restart(): void {
    this.prefix = '0';
    this.pending = this.baseline;
    this.prefixSnapshot = this.baseline;
    this.beforeLast = null;
    this.lastRequest = null;
    this.accessed = [];
    this.steps = 0;
  }

  /** Send the next request of the current attempt. */
  async send(request: Json): Promise<SandboxResponse> {
    const key = `${this.prefix}\u0000${JSON.stringify(request)}`;
    this.lastKey = key;
    this.lastRequest = request;
    this.beforeLast = this.prefixSnapshot;
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      // Most recently used last: the cache forgets the least recently used first.
      this.cache.delete(key);
      this.cache.set(key, hit);
      this.prefix = hit.id;
      this.pending = hit.snapshot;
      this.prefixSnapshot = hit.snapshot;
      this.accessed = hit.accessed;
      this.steps = hit.steps;
      return hit.response;
    }
    const env = this.session.env;
    if (this.pending !== null) {
      env.importState(this.pending);
      this.pending = null;
    }
    const before = env.lastOutcome;
    const response = await this.session.handle(request);
    const after = env.lastOutcome;
    const ran = after !== null && after !== before;
    this.accessed = ran ? after.modulesTouched.filter((m) => !isCoreFramework(m.split('::')[0])) : [];
    const failed = typeof response.failed_command_index === 'number' ? response.failed_command_index : -1;
    this.steps = ran ? after.instructions - (after.instructionsAtCommand[failed] ?? 0) : 0;
    if (this.cache.size >= CACHE_LIMIT) {
      for (const k of this.cache.keys()) {
        this.cache.delete(k);
        if (this.cache.size < CACHE_LIMIT * 0.9) break;
      }
    }
    const id = String(++this.ids);
    const snapshot = env.captureState();
    this.cache.set(key, { id, response, snapshot, accessed: this.accessed, steps: this.steps });
    this.prefix = id;
    this.prefixSnapshot = snapshot;
    return response;
  }

  /**
   * Run the last request again from the state it started from with `make()`'s tracer
   * watching, and return `read(tracer)`; kept with the cached answer under `key`, so the
   * same request from the baseline is not traced twice. `undefined` when nothing was sent.
   */
  async traceLast<T extends Tracer, R>(key: string, make: () => T, read: (tracer: T) => R): Promise<R | undefined> {
    const answer = this.cache.get(this.lastKey);
    if (answer?.seen?.has(key)) return answer.seen.get(key) as R;
    if (this.lastRequest === null || this.beforeLast === null) return undefined;
    const env = this.session.env;
    const tracer = make();
    env.importState(this.beforeLast);
    env.tracer = tracer;
    try {
      await this.session.handle(this.lastRequest);
    } finally {
      env.tracer = null;
      this.pending = this.prefixSnapshot;
    }
    const result = read(tracer);
    if (answer !== undefined) (answer.seen ??= new Map()).set(key, result);
    return result;
  }
}

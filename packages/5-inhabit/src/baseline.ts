/**
 * The state every function's Tier B starts from: the clock and randomness set, and the
 * `init` functions of every non-framework package run once, as their publish did (one
 * module at a time, in dependency order, so a module that cannot link does not keep the
 * others from running), and the publisher (the sender, unless told otherwise) holding each
 * package's `UpgradeCap`. It is built from `smi sandbox-exec` requests, recorded, so that
 * a row's transactions begin with them and replay from a fresh session.
 */
import { canonicalAddress, moduleName } from '@smi/bytecode';
import type { Json } from '@smi/move-vm';
import { dependencyOrder } from '@smi/ptb';
import type { SandboxResponse, SandboxSession, StateSnapshot } from '@smi/simulation';
import type { Catalogue } from './catalogue.js';
import { type InventoryObject, inventoryOf } from './inventory.js';

/** Packages that are part of the framework (their state exists from genesis). */
export const FRAMEWORK_IDS: ReadonlySet<string> = new Set(['0x1', '0x2', '0x3', '0xb', '0xdee9'].map((a) => canonicalAddress(a)));

/** Settings of the baseline. */
export interface BaselineOptions {
  /** Clock 0x6 time (ms). */
  clockMs: bigint;
  /** 32 bytes behind Random 0x8, or `null` for the default (zeros). */
  randomSeed: Uint8Array | null;
  /** Gas budget of every transaction (MIST). */
  gasBudget: bigint;
  /** The sender of every transaction (default: the session's). */
  sender?: string;
  /**
   * Who published the packages: their inits run as it, and it gets the `UpgradeCap`s
   * (default: the sender). Objects an init gave the publisher are not the sender's.
   */
  publisher?: string;
}

/** One `init` that ran (or failed). */
export interface InitRun {
  package: string;
  module: string;
  success: boolean;
  error?: string;
  /**
   * Why it failed, as a code: the VM's or sandbox's status at the head of the error
   * (`MISSING_DEPENDENCY`, `LINKER_ERROR`, …), `MOVE_ABORT` for an abort, else the
   * response's category (`ExecutionError`, …).
   */
  error_code?: string;
  created: number;
}

/** The code of a failed init's response (see {@link InitRun.error_code}). */
function initErrorCode(r: SandboxResponse): string {
  const head = /^([A-Z][A-Z0-9_]+):/.exec(r.error ?? '');
  if (head !== null) return head[1];
  if (r.abort_code !== undefined) return 'MOVE_ABORT';
  return r.error_category ?? 'FAILED';
}

/** The baseline: its requests, what the inits did, the state to return to and its objects. */
export interface Baseline {
  requests: readonly Json[];
  inits: readonly InitRun[];
  snapshot: StateSnapshot;
  inventory: readonly InventoryObject[];
}

async function run(session: SandboxSession, requests: Json[], request: Json): Promise<SandboxResponse> {
  requests.push(request);
  return session.handle(request);
}

/**
 * Build the baseline in `session` (a fresh one). The inits of each original package run
 * once, from its lowest loaded version (the one that was published first).
 */
export async function buildBaseline(session: SandboxSession, catalogue: Catalogue, options: BaselineOptions): Promise<Baseline> {
  const requests: Json[] = [];
  const settings: Record<string, Json> = { action: 'configure', gas_budget: options.gasBudget.toString() };
  if (options.sender !== undefined) settings.sender = canonicalAddress(options.sender);
  if (options.randomSeed !== null) settings.random_seed = `0x${Buffer.from(options.randomSeed).toString('hex')}`;
  const configured = await run(session, requests, settings);
  if (!configured.success) throw new Error(`the sandbox could not be configured: ${configured.error ?? ''}`);
  const clock = await run(session, requests, { action: 'set_clock', timestamp_ms: options.clockMs.toString() });
  if (!clock.success) throw new Error(`the clock could not be set: ${clock.error ?? ''}`);
  const first = new Map<string, { id: string; version: number }>();
  for (const p of catalogue.packages) {
    if (FRAMEWORK_IDS.has(p.id) || FRAMEWORK_IDS.has(p.originalId)) continue;
    const cur = first.get(p.originalId);
    if (cur === undefined || p.version < cur.version) first.set(p.originalId, { id: p.id, version: p.version });
  }
  const inits: InitRun[] = [];
  const publisher: Record<string, Json> = options.publisher === undefined ? {} : { sender: canonicalAddress(options.publisher) };
  for (const { id } of [...first.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const pkg = session.env.vm.packageById(id);
    if (pkg === undefined) continue;
    const modules = dependencyOrder(pkg.modules.map((m) => m.module))
      .filter((m) => m.functionDefs.some((d) => m.identifiers[m.functionHandles[d.function].name] === 'init'))
      .map((m) => moduleName(m));
    for (const module of modules) {
      const r = await run(session, requests, { action: 'init_package', package: id, modules: [module], ...publisher });
      const effects = r.effects as { created?: unknown[] } | undefined;
      // A failed init stays among the requests: it counts as a transaction (ids after it
      // derive from the count), so a replay must run it too.
      inits.push({ package: id, module, success: r.success, ...(r.success ? {} : { error: r.error ?? 'failed', error_code: initErrorCode(r) }), created: effects?.created?.length ?? 0 });
    }
    // The publish gave the publisher the package's UpgradeCap (for the newest version, as
    // the upgrades left it).
    const cap = await run(session, requests, { action: 'init_package', package: id, modules: [], upgrade_cap: true, ...publisher });
    if (!cap.success) inits.push({ package: id, module: '(upgrade cap)', success: false, error: cap.error ?? 'failed', error_code: initErrorCode(cap), created: 0 });
  }
  const snapshot = session.env.captureState();
  return { requests, inits, snapshot, inventory: inventoryOf(session.env, catalogue, 'init_state') };
}

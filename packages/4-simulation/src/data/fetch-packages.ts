/**
 * Fetching packages from a node into a folder in the sui-packages layout: packages by id,
 * with their whole linkage closure on request, each answer checked before it is written (it
 * decodes as a package object, it is the package and version asked for, its bytes hash to the
 * object digest the node reports, and every module deserializes), so a corrupted or truncated
 * answer is an error, never a silently bad corpus. Packages already on disk are not fetched
 * again (their linkage is read from disk), so an interrupted fetch resumes where it stopped.
 */
import { canonicalAddress, type MovePackage, SYSTEM_PACKAGES, errorMessage } from '@smi/bytecode';
import { objectDigest, suiBcs, type SuiObject } from '@smi/ptb';
import { type ChainObject, DataSourceError, type SuiDataSource } from '../data-source.js';
import { SimulationEnvironmentError } from '../errors.js';
import { packageFromObject } from '../packages.js';
import { hasPackageDir, storedLinkage, writePackageDir } from './package-dir.js';

/** A package checked against what the node said: its object, and the VM package of it. */
export interface VerifiedPackage {
  object: SuiObject;
  pkg: MovePackage;
  /** The digest the bytes hash to and the node reported (absent: the node reported none). */
  digest?: string;
}

/**
 * Check a node's answer for package `id` (at `version` when given): it decodes as an object,
 * is a package with that id and version, hashes to the digest the node reported, and its
 * modules deserialize. A failed check is INVALID_RESPONSE (the answer is bad) or, for an id
 * that names a Move object, a SimulationEnvironmentError INVALID_REQUEST.
 */
export function verifyPackageAnswer(answer: ChainObject, id: string, endpoint: string, version?: bigint): VerifiedPackage {
  const wanted = canonicalAddress(id);
  const bad = (why: string): never => {
    throw new DataSourceError('INVALID_RESPONSE', `package ${wanted} from ${endpoint}: ${why}`, { endpoint });
  };
  let object: SuiObject;
  try {
    object = suiBcs.Object.parse(answer.bcs);
  } catch (e) {
    return bad(`its ${answer.bcs.length} bytes do not decode as an object (${errorMessage(e)}): corrupted or truncated`);
  }
  if (answer.digest !== undefined && objectDigest(object) !== answer.digest) {
    bad(`its bytes hash to ${objectDigest(object)}, not to the digest the node reported (${answer.digest}): corrupted or truncated`);
  }
  if (object.data.$kind !== 'Package') throw new SimulationEnvironmentError('INVALID_REQUEST', `${wanted} is a Move object, not a package`, { id: wanted });
  const p = object.data.Package;
  if (canonicalAddress(p.id) !== wanted) bad(`the answer is package ${p.id}`);
  if (p.version !== answer.version) bad(`the answer says version ${answer.version}, its package ${p.version}`);
  if (version !== undefined && p.version !== version) bad(`asked for version ${version}, got ${p.version}`);
  let pkg: MovePackage;
  try {
    pkg = packageFromObject(object);
  } catch (e) {
    return bad(`a module does not deserialize (${errorMessage(e)})`);
  }
  return { object, pkg, ...(answer.digest !== undefined ? { digest: answer.digest } : {}) };
}

/** What a fetch did to one package. */
export type FetchPackageEvent =
  | { $kind: 'Fetched'; id: string; version: number; bytes: number; modules: number; done: number; known: number }
  | { $kind: 'Cached'; id: string; done: number; known: number }
  | { $kind: 'Failed'; id: string; code: string; message: string; done: number; known: number };

/** Options of {@link fetchPackages}. */
export interface FetchPackagesOptions {
  /** Also every package the fetched ones link to, transitively (default false). */
  withDeps?: boolean;
  /**
   * Also system packages (0x1, 0x2, 0x3, 0xb, 0xdee9) the linkage names (default false: they
   * are the framework, which `smi fetch framework` gets; asked for by id, they are fetched).
   */
  includeSystem?: boolean;
  /** Packages in flight at once (default 4). */
  concurrency?: number;
  /** Told of every package as it is done. */
  onEvent?: (event: FetchPackageEvent) => void;
  /** Stops taking new packages (those in flight finish). */
  signal?: AbortSignal;
  /** The clock of `fetchedAt` (tests). */
  now?: () => Date;
}

/** What a fetch did. */
export interface FetchPackagesReport {
  endpoint: string;
  out: string;
  fetched: { id: string; version: number; modules: number; bytes: number; digest: string | null }[];
  /** Already on disk: not fetched again. */
  cached: string[];
  /** System packages the linkage names, left to the framework. */
  system: string[];
  failed: { id: string; code: string; message: string }[];
  /** Calls made to the node, and the BCS bytes they returned. */
  requests: number;
  bytes: number;
  seconds: number;
  interrupted: boolean;
}

/** Fetch packages `ids` from `source` into `out` (sui-packages layout). */
export async function fetchPackages(source: SuiDataSource, ids: readonly string[], out: string, options: FetchPackagesOptions = {}): Promise<FetchPackagesReport> {
  const started = performance.now();
  const report: FetchPackagesReport = { endpoint: source.endpoint, out, fetched: [], cached: [], system: [], failed: [], requests: 0, bytes: 0, seconds: 0, interrupted: false };
  const seen = new Set<string>();
  const queue: string[] = [];
  const enqueue = (id: string, asked: boolean): void => {
    const c = canonicalAddress(id);
    if (seen.has(c)) return;
    seen.add(c);
    if (!asked && SYSTEM_PACKAGES.has(c) && options.includeSystem !== true) {
      report.system.push(c);
      return;
    }
    queue.push(c);
  };
  for (const id of ids) enqueue(id, true);
  let done = 0;
  const known = (): number => seen.size - report.system.length;
  const one = async (id: string): Promise<void> => {
    let linked: string[];
    if (hasPackageDir(out, id)) {
      report.cached.push(id);
      linked = options.withDeps ? storedLinkage(out, id) : [];
      options.onEvent?.({ $kind: 'Cached', id, done: ++done, known: known() });
    } else {
      try {
        report.requests++;
        const answer = await source.getObject(id);
        report.bytes += answer.bcs.length;
        const v = verifyPackageAnswer(answer, id, source.endpoint);
        writePackageDir(out, v.object, {
          source: source.endpoint,
          originalId: v.pkg.originalId,
          fetchedAt: (options.now?.() ?? new Date()).toISOString(),
          ...(v.digest !== undefined ? { objectDigest: v.digest } : {}),
        });
        const version = Number(v.pkg.version ?? 0);
        report.fetched.push({ id, version, modules: v.pkg.modules.length, bytes: answer.bcs.length, digest: v.digest ?? null });
        linked = options.withDeps ? Object.values(v.pkg.linkageTable).map((l) => l.upgradedId) : [];
        options.onEvent?.({ $kind: 'Fetched', id, version, bytes: answer.bcs.length, modules: v.pkg.modules.length, done: ++done, known: known() });
      } catch (e) {
        if (!(e instanceof DataSourceError) && !(e instanceof SimulationEnvironmentError)) throw e;
        report.failed.push({ id, code: e.code, message: e.message });
        options.onEvent?.({ $kind: 'Failed', id, code: e.code, message: e.message, done: ++done, known: known() });
        return;
      }
    }
    for (const l of linked) enqueue(l, false);
  };
  const limit = Math.max(1, options.concurrency ?? 4);
  let inFlight = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      if (options.signal?.aborted) report.interrupted = report.interrupted || queue.length > 0;
      else {
        while (inFlight < limit && queue.length > 0) {
          const id = queue.shift() as string;
          inFlight++;
          one(id).then(() => {
            inFlight--;
            pump();
          }, reject);
        }
      }
      if (inFlight === 0) resolve();
    };
    pump();
  });
  report.seconds = (performance.now() - started) / 1000;
  report.system.sort();
  report.cached.sort();
  report.fetched.sort((a, b) => (a.id < b.id ? -1 : 1));
  return report;
}

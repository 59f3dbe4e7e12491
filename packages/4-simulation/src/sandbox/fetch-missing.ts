/**
 * Fetching what a sandbox request misses from a node, as one step that adds all or nothing:
 * a package with its linkage (transitively, skipping what is loaded), or an object with the
 * packages its type names. Each node call counts against the request's fetch budget. A
 * dependency the node does not have is skipped (the VM links lazily: only a call that
 * reaches it fails, naming it); any other failure fails the step with a {@link FetchStepError}.
 */
import { canonicalAddress, type MovePackage, errorMessage, SmiError } from '@smi/bytecode';
import { decodeBcs, objectIdOf, objectTypeTag, type SuiObject, suiBcs } from '@smi/ptb';
import { DataSourceError, type SuiDataSource } from '../data-source.js';
import type { SimulationEnvironment } from '../environment.js';
import { packageFromObject } from '../packages.js';
import { versionOf } from '../store.js';
import type { Missing } from './missing.js';
import type { SandboxErrorCategory, SandboxFetched } from './protocol.js';

/** Why a fetch step failed: `code` is the data source's, `FETCH_LIMIT` or `UNLOADABLE`. */
export class FetchStepError extends SmiError<string> {
  override readonly name = 'FetchStepError';
  /** The response's category: the thing is still missing, unless what came back was unreadable. */
  readonly category: SandboxErrorCategory;

  constructor(
    readonly kind: 'package' | 'object',
    readonly id: string,
    code: string,
    message: string,
    category?: SandboxErrorCategory,
  ) {
    super(code, message);
    this.category = category ?? (code === 'INVALID_RESPONSE' ? 'DeserializationFailed' : kind === 'package' ? 'MissingPackage' : 'MissingObject');
  }
}

/** How many node calls the request may still make. */
export interface FetchBudget {
  left: number;
  readonly limit: number;
}

/** What one step fetched, ready to add (packages already made VM packages). */
export interface FetchedStep {
  items: { id: string; object: SuiObject; pkg: MovePackage | null }[];
}

const ADDRESS = /0x[0-9a-f]{64}/g;

function describe(kind: 'package' | 'object', id: string, version?: bigint): string {
  return `${kind} ${id}${version === undefined ? '' : ` at version ${version}`}`;
}

/** A package is "there" when loaded by storage id, or when a loaded package has it as original id. */
function isKnown(env: SimulationEnvironment, id: string, step: ReadonlyMap<string, unknown>): boolean {
  if (step.has(id) || env.vm.packageById(id) !== undefined) return true;
  return env.vm.packageIds().some((p) => env.vm.packageById(p)?.originalId === id);
}

async function fetchObject(source: SuiDataSource, budget: FetchBudget, kind: 'package' | 'object', id: string, version?: bigint): Promise<SuiObject> {
  const what = describe(kind, id, version);
  if (budget.left <= 0) throw new FetchStepError(kind, id, 'FETCH_LIMIT', `could not fetch ${what}: the request already made ${budget.limit} fetches (the limit)`);
  budget.left -= 1;
  let bytes: Uint8Array;
  try {
    bytes = (await source.getObject(id, version)).bcs;
  } catch (e) {
    if (e instanceof DataSourceError) throw new FetchStepError(kind, id, e.code, `could not fetch ${what} from ${source.endpoint}: ${e.code}: ${e.message}`);
    throw new FetchStepError(kind, id, 'UNAVAILABLE', `could not fetch ${what} from ${source.endpoint}: ${errorMessage(e)}`);
  }
  let o: SuiObject;
  try {
    o = decodeBcs(suiBcs.Object, bytes);
  } catch (e) {
    throw new FetchStepError(kind, id, 'UNLOADABLE', `${what} from ${source.endpoint} is not a Sui object: ${errorMessage(e)}`, 'DeserializationFailed');
  }
  if (objectIdOf(o) !== id) throw new FetchStepError(kind, id, 'UNLOADABLE', `${source.endpoint} answered ${what} with object ${objectIdOf(o)}`);
  return o;
}

function vmPackage(o: SuiObject, id: string): MovePackage {
  try {
    return packageFromObject(o);
  } catch (e) {
    throw new FetchStepError('package', id, 'UNLOADABLE', `package ${id} was fetched but does not load: ${errorMessage(e)}`, 'DeploymentError');
  }
}

/**
 * Fetch the packages `roots` and their linkage into `step` (those neither loaded nor in it).
 * `required`: a root the node does not have fails the step (dependencies never do).
 */
async function fetchPackages(
  env: SimulationEnvironment,
  source: SuiDataSource,
  budget: FetchBudget,
  roots: readonly string[],
  required: boolean,
  step: Map<string, FetchedStep['items'][number]>,
): Promise<void> {
  const queue = roots.map((id) => ({ id, required }));
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (isKnown(env, next.id, step)) continue;
    let o: SuiObject;
    try {
      o = await fetchObject(source, budget, 'package', next.id);
    } catch (e) {
      if (!next.required && e instanceof FetchStepError && e.code === 'NOT_FOUND') continue;
      throw e;
    }
    if (o.data.$kind !== 'Package') {
      if (!next.required) continue;
      throw new FetchStepError('package', next.id, 'UNLOADABLE', `${next.id} is an object of type ${objectTypeTag(o)}, not a package`);
    }
    const pkg = vmPackage(o, next.id);
    step.set(next.id, { id: next.id, object: o, pkg });
    for (const link of Object.values(pkg.linkageTable)) queue.push({ id: canonicalAddress(link.upgradedId), required: false });
  }
}

/** Fetch what `missing` names (and what it needs), adding nothing yet. */
export async function fetchMissing(env: SimulationEnvironment, source: SuiDataSource, budget: FetchBudget, missing: Missing): Promise<FetchedStep> {
  const step = new Map<string, FetchedStep['items'][number]>();
  if (missing.kind === 'package') {
    await fetchPackages(env, source, budget, [missing.id], true, step);
    return { items: [...step.values()] };
  }
  const version = missing.kind === 'object' ? missing.version : undefined;
  const o = await fetchObject(source, budget, 'object', missing.id, version);
  if (o.data.$kind === 'Package') {
    step.set(missing.id, { id: missing.id, object: o, pkg: vmPackage(o, missing.id) });
    const links = Object.values(step.get(missing.id)?.pkg?.linkageTable ?? {}).map((l) => canonicalAddress(l.upgradedId));
    await fetchPackages(env, source, budget, links, false, step);
    return { items: [...step.values()] };
  }
  step.set(missing.id, { id: missing.id, object: o, pkg: null });
  // The packages its type names, so that it decodes and transactions can load it.
  const typeAddresses = [...new Set(objectTypeTag(o).match(ADDRESS) ?? [])];
  await fetchPackages(env, source, budget, typeAddresses, false, step);
  return { items: [...step.values()] };
}

/** Add a fetched step to the environment: packages to the VM and the store, objects to the store. */
export function addFetched(env: SimulationEnvironment, step: FetchedStep): SandboxFetched[] {
  return step.items.map(({ id, object, pkg }) => {
    if (pkg !== null) env.vm.addPackage(pkg);
    env.store.put(id, object);
    return { kind: pkg === null ? 'object' : 'package', id, version: Number(versionOf(object)) };
  });
}

/**
 * What a failed request is missing: the package or object whose absence made it fail, read
 * from the typed error it threw (`SimulationEnvironmentError` `MISSING_OBJECT` / `MISSING_PACKAGE` with
 * their ids; a transaction rejected before execution with `DependentPackageNotFound` /
 * `ObjectNotFound`, the id in its message) or, for the VM's linker (whose message is the only carrier once a transaction
 * turned it into a failure status), from `package 0x… is not loaded`. A package named by its
 * original id is looked up in the loaded packages' linkage tables, so the version they link
 * against is the one asked for.
 */
import { canonicalAddress } from '@smi/bytecode';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import type { SandboxResponse } from './protocol.js';
import type { SandboxRequest } from './request.js';

/** Something a request needs that the session does not hold. */
export type Missing =
  | { kind: 'package'; id: string }
  /** `version`: the one the request named, when it did (otherwise the current one). */
  | { kind: 'object'; id: string; version?: bigint }
  /** A dynamic-field child a transaction looked for at run time. */
  | { kind: 'child'; id: string; parent: string };

/** The message of the VM's linker (`package X is not loaded (needed for module m)`) and of a publish's dependency check. */
const NOT_LOADED = /\b(?:package|dependency) (0x[0-9a-fA-F]{1,64}) is not loaded/;

/** The first full address of a message (upstream's input errors name one id each). */
const ANY_ADDRESS = /0x[0-9a-fA-F]{64}/;

/** A key telling missing things apart (a child and an object of one id are one thing). */
export function missingKey(m: Missing): string {
  return `${m.kind === 'package' ? 'package' : 'object'}:${m.id}`;
}

/** The versions a request names for its objects (`inspect_object.version`, object inputs' `version`). */
export function requestedVersions(req: SandboxRequest): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (req.action === 'inspect_object' && req.params.version !== undefined) out.set(canonicalAddress(req.params.object_id), req.params.version);
  if (req.action === 'execute_ptb') {
    for (const input of req.params.inputs) if (input.type === 'object' && input.version !== undefined) out.set(canonicalAddress(input.object_id), input.version);
  }
  return out;
}

/**
 * The storage id to fetch for a package the VM reports missing by `id` (an original id when a
 * dependency is missing): the newest version a loaded package links against that is not
 * loaded itself, else `id`.
 */
function storageIdFor(env: SimulationEnvironment, id: string): string {
  let best: { id: string; version: number } | null = null;
  for (const pid of env.vm.packageIds()) {
    const link = env.vm.packageById(pid)?.linkageTable[id];
    if (link === undefined || env.vm.packageById(link.upgradedId) !== undefined) continue;
    if (best === null || link.upgradedVersion > best.version) best = { id: canonicalAddress(link.upgradedId), version: link.upgradedVersion };
  }
  return best?.id ?? id;
}

function address(text: string | undefined): string | null {
  if (text === undefined) return null;
  try {
    return canonicalAddress(text);
  } catch {
    return null;
  }
}

/**
 * What the failed attempt misses, or `null` when its failure is of another kind. `error` is
 * what the request threw (`null` when it was answered, e.g. with a transaction's failure).
 */
export function missingOf(env: SimulationEnvironment, error: unknown, response: SandboxResponse, versions: ReadonlyMap<string, bigint>): Missing | null {
  if (response.success) return null;
  if (error instanceof SimulationEnvironmentError) {
    if (error.code === 'MISSING_OBJECT') {
      const id = address(error.details.objectId);
      if (id !== null) {
        const version = versions.get(id);
        return version === undefined ? { kind: 'object', id } : { kind: 'object', id, version };
      }
    }
    if (error.code === 'MISSING_PACKAGE') {
      const id = address(error.details.packageId ?? error.details.address);
      if (id !== null) return { kind: 'package', id: storageIdFor(env, id) };
    }
    // Sui's input checks before execution (`UserInputError`): the code is typed, the id is in the message.
    const inputId = address(ANY_ADDRESS.exec(error.message)?.[0]);
    if (error.details.code === 'DependentPackageNotFound' && inputId !== null) return { kind: 'package', id: storageIdFor(env, inputId) };
    if (error.details.code === 'ObjectNotFound' && inputId !== null) return { kind: 'object', id: inputId };
  }
  const text = error instanceof Error ? error.message : (response.error ?? '');
  const id = address(NOT_LOADED.exec(text)?.[1]);
  return id === null ? null : { kind: 'package', id: storageIdFor(env, id) };
}

/**
 * Objects and system objects: `create_object` / `create_test_object` (typed JSON encoded
 * with the struct's real layout), `inspect_object`, `list_objects`, the Clock
 * (`get_clock`, `set_clock`, through the framework's own prologue) and
 * `get_system_object_info`.
 */
import { canonicalAddress } from '@smi/bytecode';
import { formatType, type Json, TypeKind, valueToJson, zeroValue } from '@smi/move-vm';
import type { OwnerSpec } from '../create-object.js';
import type { SimulationEnvironment } from '../environment.js';
import { SimulationEnvironmentError } from '../errors.js';
import type { ObjectView, OwnerJson } from '../object-view.js';
import { CLOCK_ID, SYSTEM_OBJECTS } from '../system.js';
import { RequestError, type RequestOf } from './request.js';
import { resolveTypeString } from './values.js';

/** An owner parameter (`shared`, `immutable`, an address, `object:<id>`). */
function parseOwner(text: string | undefined, isShared: boolean | undefined): OwnerSpec | undefined {
  if (text === undefined) return isShared ? { $kind: 'Shared' } : undefined;
  if (text === 'shared') return { $kind: 'Shared' };
  if (text === 'immutable') return { $kind: 'Immutable' };
  if (text.startsWith('object:')) return { $kind: 'ObjectOwner', address: canonicalAddress(text.slice(7)) };
  return { $kind: 'AddressOwner', address: canonicalAddress(text) };
}

/** The original's `ownership` word. */
function ownershipOf(o: OwnerJson): string {
  switch (o.$kind) {
    case 'Shared':
      return 'shared';
    case 'Immutable':
      return 'immutable';
    case 'ObjectOwner':
      return 'object_owned';
    default:
      return 'owned';
  }
}

function ownerText(o: OwnerJson): string {
  switch (o.$kind) {
    case 'AddressOwner':
      return `address:${o.address}`;
    case 'ObjectOwner':
      return `object:${o.address}`;
    case 'Shared':
      return 'shared';
    case 'Immutable':
      return 'immutable';
    case 'ConsensusAddressOwner':
      return `consensus:${o.owner}`;
    default:
      return 'unknown';
  }
}

/** What `create_object` and `create_test_object` answer. */
function createdJson(v: ObjectView): Json {
  return {
    object_id: v.id,
    object_type: v.type,
    type: v.type,
    version: Number(v.version),
    digest: v.digest,
    owner: ownerText(v.owner),
    ownership: ownershipOf(v.owner),
    value: v.value,
  };
}

export function createObjectAction(env: SimulationEnvironment, req: RequestOf<'create_object'>): Json {
  const view = env.createObject({
    type: req.object_type,
    fields: req.fields,
    ...(req.object_id !== undefined ? { id: req.object_id } : {}),
    ...(req.owner !== undefined || req.is_shared ? { owner: parseOwner(req.owner, req.is_shared) } : {}),
  });
  return createdJson(view);
}

/**
 * `create_test_object`: an object of `type_tag` holding `value` (the struct as JSON, its
 * `id` optional), or the type's zero value when `value` is left out.
 */
export function createTestObject(env: SimulationEnvironment, req: RequestOf<'create_test_object'>): Json {
  const t = resolveTypeString(env, req.type_tag);
  if (t.kind !== TypeKind.Datatype || t.datatype === null || t.datatype.isEnum) {
    throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `${formatType(t)} is not a struct: only structs with key can be objects`);
  }
  let fields: Record<string, Json>;
  if (req.value === undefined || req.value === null) {
    const zero = valueToJson(env.vm.types, zeroValue(env.vm.types, t), t);
    if (typeof zero !== 'object' || zero === null || Array.isArray(zero)) throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', `${formatType(t)} has no zero value as an object`);
    fields = { ...zero };
    delete fields.id;
  } else if (typeof req.value === 'object' && !Array.isArray(req.value)) {
    fields = req.value;
  } else {
    throw new SimulationEnvironmentError('OBJECT_CREATION_ERROR', 'value must be a JSON object of the struct fields (or left out for the zero value)');
  }
  const view = env.createObject({
    type: req.type_tag,
    fields,
    ...(req.object_id !== undefined ? { id: req.object_id } : {}),
    ...(req.owner !== undefined ? { owner: parseOwner(req.owner, undefined) } : {}),
  });
  return createdJson(view);
}

function viewOrThrow(env: SimulationEnvironment, id: string): ObjectView {
  const v = env.getObject(id);
  if (v === undefined) throw new SimulationEnvironmentError('MISSING_OBJECT', `object ${canonicalAddress(id)} does not exist`, { objectId: canonicalAddress(id) });
  return v;
}

export function inspectObject(env: SimulationEnvironment, id: string): Json {
  const v = viewOrThrow(env, id);
  const bytes = v.bcs === null ? 0 : v.bcs.length / 2;
  return {
    object_id: v.id,
    type: v.type ?? 'package',
    ownership: ownershipOf(v.owner),
    owner: v.owner,
    version: Number(v.version),
    digest: v.digest,
    bcs_bytes_hex: v.bcs ?? '',
    bcs_bytes_len: bytes,
    decoded: v.value,
    storage_rebate: v.storageRebate,
    previous_transaction: v.previousTransaction,
  };
}

export function listObjects(env: SimulationEnvironment, includePackages: boolean): Json {
  const objects = env.listObjects({ movesOnly: !includePackages }).map((v) => ({
    object_id: v.id,
    type: v.type ?? 'package',
    ownership: ownershipOf(v.owner),
    owner: ownerText(v.owner),
    version: Number(v.version),
    digest: v.digest,
    bcs_bytes_len: v.bcs === null ? 0 : v.bcs.length / 2,
  }));
  return { objects, count: objects.length };
}

function clockJson(env: SimulationEnvironment): Record<string, Json> {
  const v = viewOrThrow(env, CLOCK_ID);
  const value = v.value as { timestamp_ms?: string };
  const ms = BigInt(value.timestamp_ms ?? '0');
  const date = ms <= 8_640_000_000_000_000n ? new Date(Number(ms)) : null;
  return {
    clock_object_id: CLOCK_ID,
    timestamp_ms: ms <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(ms) : ms.toString(),
    datetime_approx: date === null ? null : date.toISOString(),
    version: Number(v.version),
  };
}

export function getClock(env: SimulationEnvironment): Json {
  return clockJson(env);
}

export function setClock(env: SimulationEnvironment, ms: bigint): Json {
  env.setClock(ms);
  return { ...clockJson(env), message: `Clock set to ${ms} ms through 0x2::clock::consensus_commit_prologue` };
}

const NAME_ALIASES: Record<string, string> = {
  denylist: 'deny_list',
  system: 'system_state',
  sui_system_state: 'system_state',
  registry: 'coin_registry',
  authenticator: 'authenticator_state',
  accumulator: 'accumulator_root',
};

/** `get_system_object_info`: what a system object is, its fields (from the bytecode) and whether it exists here. */
export function systemObjectInfo(env: SimulationEnvironment, nameOrId: string): Json {
  const all = SYSTEM_OBJECTS;
  const key = nameOrId.trim().toLowerCase();
  let wanted: (typeof all)[number] | undefined;
  if (/^(0x)?[0-9a-f]{1,64}$/.test(key) && key.startsWith('0x')) {
    const id = canonicalAddress(key);
    wanted = all.find((s) => s.id === id);
  } else {
    const name = NAME_ALIASES[key] ?? key;
    wanted = all.find((s) => s.name === name);
  }
  if (wanted === undefined) throw new RequestError(`unknown system object "${nameOrId}" (known: ${all.map((s) => s.name).join(', ')})`);
  let fields: Json[] = [];
  try {
    const d = env.vm.resolveType(wanted.type).datatype;
    fields = d === null ? [] : d.fields().map((f) => ({ name: f.name, type: formatType(f.type) }));
  } catch {
    // The defining package (0x3 for the system state) is not loaded: no fields to show.
  }
  const stored = env.getObject(wanted.id);
  return {
    name: wanted.name,
    id: wanted.id,
    short_id: `0x${wanted.id.slice(2).replace(/^0+/, '') || '0'}`,
    type: wanted.type,
    is_shared: true,
    description: wanted.description,
    fields,
    exists: stored !== undefined,
    ...(stored !== undefined ? { version: Number(stored.version) } : {}),
  };
}

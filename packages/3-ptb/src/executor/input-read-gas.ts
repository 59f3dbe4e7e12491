/**
 * The read of a transaction's input objects, charged before any command runs (upstream
 * `charge_input_objects_legacy`, gas models before 15): the gas-metering size of every
 * input object (gas coins and shared objects included) and of every package the commands
 * name (a call's package and its type arguments' packages, a publish's or upgrade's
 * dependencies, an upgrade's package, a `MakeMoveVec` type's packages), the system
 * packages excepted, at `obj_access_cost_read_per_byte` internal units per byte.
 */
import type { ProtocolConfig } from '@smi/move-vm';
import { normalizeAddress } from '../bcs/codec.js';
import type { SuiObject } from '../bcs/object.js';
import type { Command } from '../bcs/transaction.js';
import { typeTagAddresses } from '../bcs/type-tag.js';
import { objectSizeForGas } from './objects.js';
import { SYSTEM_PACKAGE_ADDRESSES } from './sui-verifier/common.js';
import type { ObjectStore } from './types.js';

/** Upstream `is_system_package`: not charged for. */
const SYSTEM_PACKAGES = new Set(SYSTEM_PACKAGE_ADDRESSES);

/** The packages a transaction's commands load as input objects (upstream `Command::input_objects`). */
export function commandPackages(commands: readonly Command[]): Set<string> {
  const out = new Set<string>();
  // Most commands name the same few packages: normalize each spelling once.
  const spellings = new Map<string, string>();
  const norm = (a: string): string => {
    let n = spellings.get(a);
    if (n === undefined) {
      n = normalizeAddress(a);
      spellings.set(a, n);
    }
    return n;
  };
  for (const c of commands) {
    switch (c.$kind) {
      case 'MoveCall':
        out.add(norm(c.MoveCall.package));
        for (const t of c.MoveCall.typeArguments) for (const a of typeTagAddresses(t)) out.add(norm(a));
        break;
      case 'Publish':
        for (const d of c.Publish.dependencies) out.add(norm(d));
        break;
      case 'Upgrade':
        for (const d of c.Upgrade.dependencies) out.add(norm(d));
        out.add(norm(c.Upgrade.package));
        break;
      case 'MakeMoveVec':
        if (c.MakeMoveVec.type !== null) for (const a of typeTagAddresses(c.MakeMoveVec.type)) out.add(norm(a));
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * Internal gas units for reading the input objects (by id, as they were loaded) and the
 * packages the commands load (`commandPackages`) (`0` when the config has no `obj_access_cost_read_per_byte`).
 */
export function inputReadCharge(cfg: ProtocolConfig, store: ObjectStore, inputs: ReadonlyMap<string, { object: SuiObject }>, packages: ReadonlySet<string>): number {
  const perByte = cfg.optionalInt('obj_access_cost_read_per_byte') ?? 0;
  if (perByte === 0) return 0;
  let bytes = 0;
  const seen = new Set<string>();
  for (const [id, { object }] of inputs) {
    seen.add(normalizeAddress(id));
    bytes += objectSizeForGas(object);
  }
  for (const id of packages) {
    if (SYSTEM_PACKAGES.has(id) || seen.has(id)) continue;
    const o = store.getObject(id);
    if (o !== undefined) bytes += objectSizeForGas(o);
  }
  return bytes * perByte;
}

/**
 * Natives of `0x2::{tx_context, object, transfer, event, address, types,
 * protocol_config, package, accumulator, accumulator_settlement, funds_accumulator}`,
 * after upstream `sui-move-natives` (same checks, abort codes, gas charges in the same
 * order, state kept in the {@link ObjectRuntime}).
 */
import { type Type, TypeKind } from '../../types/runtime-type.js';
import { fieldType, vecKindOf } from '../../values/bcs.js';
import { borrowSlot, copyValue, peekRef } from '../../values/value.js';
import { MoveVector, VecKind } from '../../values/vector.js';
import type { NativeContext, NativeFunction } from '../registry.js';
import { MemoryLimitSubStatus, invariantViolation, memoryLimitError, unsupportedNative } from './errors.js';
import { abort, charge, objectRuntimeSize, runtime } from './native-env.js';
import { type AccumulatorEvent, type ObjectRuntime, type Owner, findObjectRuntime } from './object-runtime.js';
import { deriveObjectId, structTagAbstractSize, structTagOf, typeKey, typeTagAbstractSize, typeTagNodeCount, typeTagOf } from './type-tag.js';
import { abstractSize, argAddress, argBytes, argU64, idAddress } from './values.js';
import { addressOfNumber } from '@smi/bytecode';

const U64_MAX = (1n << 64n) - 1n;
const U256_MAX = (1n << 256n) - 1n;

function contextNative(name: string, key: Parameters<typeof charge>[1], get: (rt: ObjectRuntime) => unknown): NativeFunction {
  return (ctx) => {
    charge(ctx, key);
    return [get(runtime(ctx, `0x2::tx_context::${name}`))];
  };
}

/** `sui::tx_context`. */
export const txContextNatives: Record<string, NativeFunction> = {
  native_sender: contextNative('native_sender', 'tx_context_sender_cost_base', (rt) => rt.tx.sender),
  native_epoch: contextNative('native_epoch', 'tx_context_epoch_cost_base', (rt) => rt.tx.epoch),
  native_epoch_timestamp_ms: contextNative('native_epoch_timestamp_ms', 'tx_context_epoch_timestamp_ms_cost_base', (rt) => rt.tx.epochTimestampMs),
  native_rgp: contextNative('native_rgp', 'tx_context_rgp_cost_base', (rt) => rt.tx.rgp),
  native_gas_price: contextNative('native_gas_price', 'tx_context_gas_price_cost_base', (rt) => rt.tx.gasPrice),
  native_gas_budget: contextNative('native_gas_budget', 'tx_context_gas_budget_cost_base', (rt) => rt.tx.gasBudget),
  native_ids_created: contextNative('native_ids_created', 'tx_context_ids_created_cost_base', (rt) => rt.idsCreated),
  native_sponsor: contextNative('native_sponsor', 'tx_context_sponsor_cost_base', (rt) => MoveVector.fromValues(VecKind.Boxed, rt.tx.sponsor === null ? [] : [rt.tx.sponsor])),
  fresh_id: (ctx) => {
    charge(ctx, 'tx_context_fresh_id_cost_base');
    return [runtime(ctx, '0x2::tx_context::fresh_id').freshId()];
  },
  /** Test-only upstream (`last_created_object_id`): the id `fresh_id` made last; aborts 1 when none. */
  last_created_id: (ctx) => {
    charge(ctx, 'tx_context_derive_id_cost_base');
    const rt = runtime(ctx, '0x2::tx_context::last_created_id');
    if (rt.idsCreated === 0n) abort(1);
    const id = deriveObjectId(rt.tx.digest, rt.idsCreated - 1n);
    rt.newId(id);
    return [id];
  },
  /**
   * Test-only upstream (`tx_context::new`, `increment_epoch_number`, ...): replaces the
   * transaction of a test run (an {@link ObjectRuntime} with `isTest`); elsewhere an invariant
   * violation, as upstream. Older frameworks pass no reference gas price (8 arguments).
   */
  replace: (ctx, _t, args) => {
    charge(ctx, 'tx_context_replace_cost_base');
    const rt = findObjectRuntime(ctx.extensions);
    if (rt === undefined || !rt.isTest) throw invariantViolation('`replace` called on a non testing scenario');
    const [sender, hash, epoch, timestamp, ids, ...rest] = args;
    const [rgp, gasPrice, gasBudget, sponsor] = rest.length === 4 ? rest : [undefined, ...rest];
    const sponsors = (peekRef(sponsor) as MoveVector).toArray();
    rt.replaceTx({
      sender: argAddress(sender),
      digest: argBytes(hash),
      epoch: argU64(epoch),
      epochTimestampMs: argU64(timestamp),
      idsCreated: argU64(ids),
      rgp: rgp === undefined ? rt.tx.rgp : argU64(rgp),
      gasPrice: argU64(gasPrice),
      gasBudget: argU64(gasBudget),
      sponsor: sponsors.length === 0 ? null : argAddress(sponsors[sponsors.length - 1]),
    });
    return [];
  },
  derive_id: (ctx, _t, [hash, n]) => {
    charge(ctx, 'tx_context_derive_id_cost_base');
    const digest = argBytes(hash);
    if (digest.length !== 32) throw invariantViolation(`derive_id: tx_hash must be 32 bytes, got ${digest.length}`);
    const id = deriveObjectId(digest, argU64(n));
    runtime(ctx, '0x2::tx_context::derive_id').newId(id);
    return [id];
  },
};

/** `sui::object`. */
export const objectNatives: Record<string, NativeFunction> = {
  borrow_uid: (ctx, _t, [obj]) => {
    charge(ctx, 'object_borrow_uid_cost_base');
    const s = peekRef(obj);
    if (!Array.isArray(s)) throw invariantViolation('borrow_uid: expected a struct reference');
    return [borrowSlot(s, 0)];
  },
  delete_impl: (ctx, _t, [id]) => {
    charge(ctx, 'object_delete_impl_cost_base');
    runtime(ctx, '0x2::object::delete_impl').deleteId(argAddress(id));
    return [];
  },
  record_new_uid: (ctx, _t, [id]) => {
    charge(ctx, 'object_record_new_uid_cost_base');
    runtime(ctx, '0x2::object::record_new_uid').newId(argAddress(id));
    return [];
  },
  record_new_uid_from_hash: (ctx, _t, [parent, id]) => {
    charge(ctx, 'object_record_new_uid_from_hash_cost_base');
    runtime(ctx, '0x2::object::record_new_uid_from_hash').newIdFromHash(argAddress(parent), argAddress(id));
    return [];
  },
};

function transferTo(ctx: NativeContext, native: string, owner: Owner, t: Type, obj: unknown): ReturnType<ObjectRuntime['transfer']> {
  structTagOf(t);
  return runtime(ctx, native).transfer(owner, t, obj);
}

const PARTY_ALL = 0b1111n;
const PARTY_NONE = 0n;

/** `sui::transfer`. */
export const transferNatives: Record<string, NativeFunction> = {
  transfer_impl: (ctx, [t], [obj, recipient]) => {
    charge(ctx, 'transfer_transfer_internal_cost_base');
    transferTo(ctx, '0x2::transfer::transfer_impl', { $kind: 'AddressOwner', address: argAddress(recipient) }, t, obj);
    return [];
  },
  party_transfer_impl: (ctx, [t], [obj, defaultPermissions, addresses, permissions]) => {
    const rt = runtime(ctx, '0x2::transfer::party_transfer_impl');
    if (!rt.flag('enable_party_transfer')) abort(5);
    charge(ctx, 'transfer_party_transfer_internal_cost_base');
    const perms = (peekRef(permissions) as MoveVector).toArray();
    const addrs = (peekRef(addresses) as MoveVector).toArray();
    if (perms.length !== 1) throw invariantViolation('Party transfer only supports one party member');
    if (perms[0] !== PARTY_ALL || argU64(defaultPermissions) !== PARTY_NONE) {
      throw invariantViolation('Party transfer only supports one party member with all permissions');
    }
    if (addrs.length !== 1) throw invariantViolation('Party transfer only supports one party member');
    transferTo(ctx, '0x2::transfer::party_transfer_impl', { $kind: 'ConsensusAddressOwner', owner: argAddress(addrs[0]), startVersion: 0n }, t, obj);
    return [];
  },
  freeze_object_impl: (ctx, [t], [obj]) => {
    charge(ctx, 'transfer_freeze_object_cost_base');
    transferTo(ctx, '0x2::transfer::freeze_object_impl', { $kind: 'Immutable' }, t, obj);
    return [];
  },
  share_object_impl: (ctx, [t], [obj]) => {
    charge(ctx, 'transfer_share_object_cost_base');
    const r = transferTo(ctx, '0x2::transfer::share_object_impl', { $kind: 'Shared', initialSharedVersion: 0n }, t, obj);
    if (r === 'OwnerChanged') abort(0);
    return [];
  },
  receive_impl: (ctx, [t], [parent, toReceive, version]) => {
    charge(ctx, 'transfer_receive_object_cost_base');
    charge(ctx, 'transfer_receive_object_type_cost_per_byte', t.nodes);
    const rt = runtime(ctx, '0x2::transfer::receive_impl');
    structTagOf(t);
    const r = rt.receiveObject(argAddress(parent), idAddress(toReceive), argU64(version), t, ctx);
    if (r.kind === 'none') abort(3);
    if (r.kind === 'mismatchedType') abort(2);
    charge(ctx, 'transfer_receive_object_cost_per_byte', abstractSize(ctx.types, r.value, t));
    return [r.value];
  },
};

interface StreamRef {
  accumulatorId: string;
  streamId: string;
  headType: Type;
}

function emitImpl(ctx: NativeContext, native: string, t: Type, value: unknown, stream: StreamRef | null): unknown[] {
  charge(ctx, 'event_emit_cost_base');
  const rt = runtime(ctx, native);
  const valueSize = objectRuntimeSize(ctx, value, t);
  charge(ctx, 'event_emit_value_size_derivation_cost_per_byte', valueSize);
  const tagSize = structTagAbstractSize(structTagOf(t));
  charge(ctx, 'event_emit_tag_size_derivation_cost_per_byte', tagSize);
  if (stream !== null) charge(ctx, 'event_emit_auth_stream_cost');
  const headTag = stream === null ? null : typeTagOf(stream.headType);
  const evSize = tagSize + valueSize;
  const max = rt.limits.max_event_emit_size;
  if (evSize > max) throw memoryLimitError(MemoryLimitSubStatus.EVENT_SIZE_LIMIT_EXCEEDED, `Emitting event of size ${evSize} bytes. Limit is ${max} bytes.`);
  rt.addEventSize(evSize);
  charge(ctx, 'event_emit_output_cost_per_byte', evSize);
  const index = rt.emitEvent(t, value, ctx.bcs.encode(value, t));
  if (stream !== null && headTag !== null) {
    rt.emitAccumulatorEvent({ accumulatorId: stream.accumulatorId, action: 'Merge', targetAddress: stream.streamId, targetType: headTag, value: { $kind: 'EventRef', eventIndex: index } });
  }
  return [];
}

/** `sui::event`. */
export const eventNatives: Record<string, NativeFunction> = {
  emit: (ctx, [t], [value]) => emitImpl(ctx, '0x2::event::emit', t, value, null),
  emit_authenticated_impl: (ctx, [headType, t], [accumulatorId, streamId, value]) => {
    if (!runtime(ctx, '0x2::event::emit_authenticated_impl').flag('enable_authenticated_event_streams')) abort(0);
    return emitImpl(ctx, '0x2::event::emit_authenticated_impl', t, value, { accumulatorId: argAddress(accumulatorId), streamId: argAddress(streamId), headType });
  },
  /** Test-only upstream: the number of events emitted so far. */
  num_events: (ctx) => [runtime(ctx, '0x2::event::num_events').emittedEvents().length],
  /** Test-only upstream: copies of the events of type `T` so far. */
  events_by_type: (ctx, [t]) => {
    const key = typeKey(t);
    const matched = runtime(ctx, '0x2::event::events_by_type')
      .emittedEvents()
      .filter((e) => e.typeTag === key);
    return [
      MoveVector.fromValues(
        vecKindOf(t),
        matched.map((e) => copyValue(e.value)),
      ),
    ];
  },
};

/** `sui::address`. */
export const addressNatives: Record<string, NativeFunction> = {
  from_bytes: (ctx, _t, [bytes]) => {
    charge(ctx, 'address_from_bytes_cost_base');
    const b = argBytes(bytes);
    if (b.length !== 32) abort(0);
    let s = '0x';
    for (const x of b) s += x.toString(16).padStart(2, '0');
    return [s];
  },
  to_u256: (ctx, _t, [a]) => {
    charge(ctx, 'address_to_u256_cost_base');
    return [BigInt(argAddress(a))];
  },
  from_u256: (ctx, _t, [n]) => {
    charge(ctx, 'address_from_u256_cost_base');
    const v = peekRef(n) as bigint;
    if (typeof v !== 'bigint' || v < 0n || v > U256_MAX) throw invariantViolation('from_u256: expected a u256');
    return [addressOfNumber(v)];
  },
};

/**
 * Upstream `is_otw_struct`: a struct (not an enum) whose only field is a `bool`, named as
 * its module in upper case, and (with `hardened_otw_check`) not generic.
 */
export function isOneTimeWitnessType(ctx: Pick<NativeContext, 'types'>, t: Type, hardened: boolean): boolean {
  const d = t.datatype;
  if (t.kind !== TypeKind.Datatype || d === null || d.isEnum) return false;
  const fields = d.fields();
  if (fields.length !== 1 || fieldType(ctx.types, t, fields[0].type).kind !== TypeKind.Bool) return false;
  if (d.name !== d.module.replace(/[a-z]/g, (c) => c.toUpperCase())) return false;
  return !hardened || t.typeArgs.length === 0;
}

/** `sui::types`. */
export const typesNatives: Record<string, NativeFunction> = {
  is_one_time_witness: (ctx, [t]) => {
    charge(ctx, 'types_is_one_time_witness_cost_base');
    charge(ctx, 'types_is_one_time_witness_type_cost_per_byte', t.nodes);
    const tag = typeTagOf(t);
    charge(ctx, 'types_is_one_time_witness_type_tag_cost_per_byte', typeTagAbstractSize(tag));
    // upstream reads the VM's `hardened_otw_check`; here the runtime's flag (protocol 135: on)
    const rt = findObjectRuntime(ctx.extensions);
    return [isOneTimeWitnessType(ctx, t, rt === undefined ? true : rt.flag('hardened_otw_check'))];
  },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `sui::protocol_config`. */
export const protocolConfigNatives: Record<string, NativeFunction> = {
  is_feature_enabled: (ctx, _t, [name]) => {
    const rt = runtime(ctx, '0x2::protocol_config::is_feature_enabled');
    const cfg = rt.protocolConfig;
    if (cfg === null) throw unsupportedNative('0x2::protocol_config::is_feature_enabled', 'the ObjectRuntime has no protocolConfig to read feature flags from');
    let flag: string;
    try {
      flag = utf8.decode(argBytes(name));
    } catch {
      return [false];
    }
    return [cfg.flagValue(flag) === true];
  },
};

/** `sui::package`. */
export const packageNatives: Record<string, NativeFunction> = {
  original_package_id_impl: (ctx, _t, [id, version]) => {
    charge(ctx, 'package_original_package_id_impl_cost_base');
    const rt = runtime(ctx, '0x2::package::original_package_id_impl');
    const resolver = rt.packageResolver;
    if (resolver === undefined) throw unsupportedNative('0x2::package::original_package_id_impl', 'the ObjectRuntime has no package resolver (option `packages`)');
    const pkg = resolver(argAddress(id), argU64(version));
    if (pkg === undefined) abort(6);
    charge(ctx, 'package_original_package_id_impl_cost_per_byte', pkg.sizeForGas);
    return [pkg.originalId];
  },
};

function accumulatorEvent(ctx: NativeContext, native: string, action: AccumulatorEvent['action'], t: Type, args: unknown[]): unknown[] {
  charge(ctx, 'event_emit_cost_base');
  const [accumulator, address, amount] = args;
  runtime(ctx, native).emitAccumulatorEvent({
    accumulatorId: argAddress(accumulator),
    action,
    targetAddress: argAddress(address),
    targetType: typeTagOf(t),
    value: { $kind: 'U64', amount: argU64(amount) },
  });
  return [];
}

/** `sui::accumulator`. */
export const accumulatorNatives: Record<string, NativeFunction> = {
  emit_deposit_event: (ctx, [t], args) => accumulatorEvent(ctx, '0x2::accumulator::emit_deposit_event', 'Merge', t, args),
  emit_withdraw_event: (ctx, [t], args) => accumulatorEvent(ctx, '0x2::accumulator::emit_withdraw_event', 'Split', t, args),
};

/** `sui::accumulator_settlement`. */
export const accumulatorSettlementNatives: Record<string, NativeFunction> = {
  record_settlement_sui_conservation: (ctx, _t, [input, output]) => {
    runtime(ctx, '0x2::accumulator_settlement::record_settlement_sui_conservation').recordSettlementSuiConservation(argU64(input), argU64(output));
    return [];
  },
};

function withinTypeBounds(rt: ObjectRuntime, t: Type): boolean {
  const max = rt.limits.max_accumulator_type_nodes;
  return max === undefined || typeTagNodeCount(typeTagOf(t)) <= max;
}

/** `sui::funds_accumulator`. */
export const fundsAccumulatorNatives: Record<string, NativeFunction> = {
  add_to_accumulator_address: (ctx, [t], [accumulator, recipient, value]) => {
    charge(ctx, 'event_emit_cost_base');
    const tag = typeTagOf(t);
    const fields = peekRef(value);
    if (!Array.isArray(fields) || fields.length !== 1 || typeof fields[0] !== 'bigint') {
      throw invariantViolation('Balance should be guaranteed under current implementation');
    }
    const rt = runtime(ctx, '0x2::funds_accumulator::add_to_accumulator_address');
    if (!rt.flag('enable_accumulators')) abort(1);
    if (!withinTypeBounds(rt, t)) abort(4);
    rt.emitAccumulatorEvent({ accumulatorId: argAddress(accumulator), action: 'Merge', targetAddress: argAddress(recipient), targetType: tag, value: { $kind: 'U64', amount: fields[0] } });
    return [];
  },
  withdraw_from_accumulator_address: (ctx, [t], [accumulator, owner, value]) => {
    charge(ctx, 'event_emit_cost_base');
    const tag = typeTagOf(t);
    const amount = peekRef(value);
    if (typeof amount !== 'bigint') throw invariantViolation('withdraw_from_accumulator_address: expected a u256');
    if (amount > U64_MAX) abort(0);
    const rt = runtime(ctx, '0x2::funds_accumulator::withdraw_from_accumulator_address');
    if (!withinTypeBounds(rt, t)) abort(4);
    rt.emitAccumulatorEvent({ accumulatorId: argAddress(accumulator), action: 'Split', targetAddress: argAddress(owner), targetType: tag, value: { $kind: 'U64', amount } });
    return [[amount]];
  },
};

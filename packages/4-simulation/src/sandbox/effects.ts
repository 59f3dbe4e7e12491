/**
 * A transaction's outcome as the protocol reports it: `effects` (created, mutated,
 * unwrapped objects with their real versions, owners and digests; deleted and wrapped ids;
 * digests; gas; decoded return values), `events` (type, BCS, decoded value) and
 * `gas_used`; on failure the category, abort code and failing command as well.
 */
import type { Json } from '@smi/move-vm';
import { formatStructTag, objectTypeTag, type Owner } from '@smi/ptb';
import { decodeValue } from '../call-function.js';
import type { SimulationEnvironment, TransactionOutcome } from '../environment.js';
import { versionOf } from '../store.js';
import { transactionFailure } from './errors.js';
import type { SandboxEffects, SandboxEvent, SandboxObjectEffect, SandboxResponse, SandboxReturnValues } from './protocol.js';

/** The original's owner strings: `address:0x…`, `object:0x…`, `shared`, `immutable`. */
function ownerString(o: Owner): string {
  switch (o.$kind) {
    case 'AddressOwner':
      return `address:${o.AddressOwner}`;
    case 'ObjectOwner':
      return `object:${o.ObjectOwner}`;
    case 'Shared':
      return 'shared';
    case 'Immutable':
      return 'immutable';
    case 'ConsensusAddressOwner':
      return `consensus:${o.ConsensusAddressOwner.owner}`;
    default:
      return 'unknown';
  }
}

function toNumber(n: bigint): number {
  return Number(n);
}

/** What {@link transactionResponse} needs besides the outcome. */
export interface OutcomeContext {
  /** `true` when the environment's transient mock coin paid (it is not reported). */
  mockGas: boolean;
  /** Description of command `i`, for `failed_command_description`. */
  describe: (index: number) => string | undefined;
}

/** The `effects` of an outcome. */
export function effectsJson(env: SimulationEnvironment, outcome: TransactionOutcome, mockGas: boolean): SandboxEffects {
  const entry = (w: TransactionOutcome['written'][number]): SandboxObjectEffect => ({
    id: w.id,
    ...(w.object.data.$kind === 'Move' ? { object_type: objectTypeTag(w.object) } : {}),
    owner: ownerString(w.object.owner),
    version: toNumber(versionOf(w.object)),
    digest: w.digest,
  });
  const written = outcome.written.filter((w) => !(mockGas && w.id === outcome.gasCoin));
  const g = outcome.gasUsed;
  const v2 = outcome.effects.$kind === 'V2' ? outcome.effects.V2 : null;
  const effects: SandboxEffects = {
    status: outcome.status.$kind === 'Success' ? 'success' : 'failure',
    transaction_digest: outcome.digest,
    // Read when the response is (serialized, compared): hashing the effects is left until then.
    get effects_digest(): string {
      return outcome.effectsDigest;
    },
    lamport_version: v2 === null ? 0 : toNumber(v2.lamportVersion),
    created: written.filter((w) => w.kind === 'created').map(entry),
    mutated: written.filter((w) => w.kind === 'mutated').map(entry),
    deleted: [...outcome.deleted],
    wrapped: [...outcome.wrapped],
    unwrapped: written.filter((w) => w.kind === 'unwrapped').map(entry),
    gas_summary: {
      computation_cost: toNumber(g.computationCost),
      storage_cost: toNumber(g.storageCost),
      storage_rebate: toNumber(g.storageRebate),
      non_refundable_storage_fee: toNumber(g.nonRefundableStorageFee),
      net_gas_used: toNumber(g.computationCost + g.storageCost - g.storageRebate),
    },
  };
  if (!mockGas) effects.gas_object = outcome.gasCoin;
  const returns: SandboxReturnValues[] = [];
  outcome.commandResults.forEach((r, i) => {
    if (r.returnValues.length === 0) return;
    const decoded = r.returnValues.map((v) => decodeValue(env, v.type, v.bcs));
    returns.push({
      command_index: i,
      values: decoded.map((d) => d.bcs),
      count: decoded.length,
      types: decoded.map((d) => d.type),
      decoded: decoded.map((d) => d.value),
    });
  });
  if (returns.length > 0) effects.return_values = returns;
  return effects;
}

/** The `events` of an outcome, decoded. */
export function eventsJson(env: SimulationEnvironment, outcome: TransactionOutcome): SandboxEvent[] {
  return outcome.events.map((e, i) => {
    const type = formatStructTag(e.type);
    const decoded = decodeValue(env, type, e.contents);
    return {
      event_type: type,
      data_hex: decoded.bcs,
      sequence: i,
      package_id: e.packageId,
      transaction_module: e.transactionModule,
      sender: e.sender,
      data: decoded.value,
    };
  });
}

/** Gas charged (computation + storage, before the rebate). */
export function gasUsed(outcome: TransactionOutcome): number {
  return toNumber(outcome.gasUsed.computationCost + outcome.gasUsed.storageCost);
}

/**
 * The response for a transaction that ran: on success `effects`, `events`, `gas_used`
 * (and `data` when given); on failure the same plus the failure fields.
 */
export function transactionResponse(env: SimulationEnvironment, outcome: TransactionOutcome, ctx: OutcomeContext, data?: Json): SandboxResponse {
  const body: SandboxResponse = {
    success: true,
    ...(data !== undefined ? { data } : {}),
    effects: effectsJson(env, outcome, ctx.mockGas),
    events: eventsJson(env, outcome),
    gas_used: gasUsed(outcome),
  };
  if (outcome.status.$kind === 'Success') {
    const n = outcome.commandResults.length;
    return n > 0 ? { ...body, commands_succeeded: n } : body;
  }
  return { ...body, ...transactionFailure(outcome.status, ctx.describe) };
}

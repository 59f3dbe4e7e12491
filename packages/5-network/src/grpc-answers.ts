/**
 * What a `sui.rpc.v2` answer must hold, checked with zod after protobuf decoding (every proto3
 * field is optional on the wire, so a node that ignores a read mask path or an older node
 * without a field is caught here, not deep in the simulation).
 */
import { z } from 'zod';
import { failure, zodSummary } from './errors.js';

const bytes = z.instanceof(Uint8Array);
const bcs = z.object({ name: z.string().optional(), value: bytes });
const u64 = z.bigint().nonnegative();
const timestamp = z.object({ seconds: z.bigint(), nanos: z.number().int() });

/** `LedgerService.GetTransaction` with the transaction, effects and events as BCS. */
export const transactionAnswer = z.object({
  transaction: z.object({
    digest: z.string().optional(),
    transaction: z.object({ bcs }),
    effects: z.object({
      bcs,
      unchangedLoadedRuntimeObjects: z.array(z.object({ objectId: z.string(), version: u64 })),
    }),
    events: z.object({ bcs: bcs.optional() }).optional(),
    checkpoint: u64.optional(),
    timestamp: timestamp.optional(),
  }),
});

/** `LedgerService.GetEpoch`. */
export const epochAnswer = z.object({
  epoch: z.object({
    epoch: u64,
    referenceGasPrice: u64,
    start: timestamp,
    protocolConfig: z.object({ protocolVersion: u64 }),
  }),
});

/** `LedgerService.GetEpoch` with the whole protocol config (flags and attributes as set). */
export const protocolConfigAnswer = z.object({
  epoch: z.object({
    epoch: u64,
    protocolConfig: z.object({
      protocolVersion: u64,
      featureFlags: z.record(z.string(), z.boolean()),
      attributes: z.record(z.string(), z.string()),
    }),
  }),
});

/** `LedgerService.GetEpoch` with only the epoch's number and protocol version (a search for a version). */
export const epochVersionAnswer = z.object({
  epoch: z.object({ epoch: u64, protocolConfig: z.object({ protocolVersion: u64 }) }),
});

/** `LedgerService.GetObject` with the object's BCS and digest. */
export const objectAnswer = z.object({
  object: z.object({ objectId: z.string().optional(), version: u64, digest: z.string().optional(), bcs }),
});

/** `LedgerService.GetServiceInfo`. */
export const serviceInfoAnswer = z.object({ checkpointHeight: u64 });

/** `LedgerService.GetCheckpoint` with the transactions' digests. */
export const checkpointAnswer = z.object({
  checkpoint: z.object({
    sequenceNumber: u64.optional(),
    transactions: z.array(z.object({ digest: z.string() })),
  }),
});

/** A page of `StateService.ListOwnedObjects`. */
export const ownedPageAnswer = z.object({
  objects: z.array(z.object({ objectId: z.string(), version: u64, digest: z.string(), objectType: z.string() })),
  nextPageToken: bytes.optional(),
});

/** `TransactionExecutionService.SimulateTransaction`. */
export const simulationAnswer = z.object({
  transaction: z.object({
    effects: z.object({
      bcs,
      changedObjects: z.array(z.object({ objectId: z.string().optional(), idOperation: z.number().int().optional(), objectType: z.string().optional(), outputState: z.number().int().optional() })),
    }),
    events: z.object({ bcs: bcs.optional() }).optional(),
  }),
  commandOutputs: z.array(z.object({ returnValues: z.array(z.object({ value: bcs })) })),
});

/** `schema.parse(answer)`, or INVALID_RESPONSE naming what was asked and what was wrong. */
export function checkAnswer<S extends z.ZodType>(schema: S, answer: unknown, what: string, endpoint: string, rpc: string): z.output<S> {
  const result = schema.safeParse(answer);
  if (!result.success) throw failure('INVALID_RESPONSE', what, endpoint, { reason: `${rpc}: ${zodSummary(result.error.issues)}` });
  return result.data;
}

/** Milliseconds since the epoch of a protobuf `Timestamp`. */
export function timestampMs(t: { seconds: bigint; nanos: number }): bigint {
  return t.seconds * 1000n + BigInt(Math.floor(t.nanos / 1_000_000));
}

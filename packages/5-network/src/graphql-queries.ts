/**
 * The queries `GraphQLDataSource` sends to Sui's GraphQL RPC (schema: `@mysten/sui`'s
 * `src/graphql/generated/schema.graphql`), each with the zod shape of its `data`. Only BCS
 * and the few scalars the interface needs are asked for. Scalars: `UInt53` is a JSON number,
 * `BigInt` a decimal string, `Base64` a string, `DateTime` RFC 3339.
 */
import { z } from 'zod';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');
const uint53 = z.number().int().nonnegative();
const bigintText = z.string().regex(/^\d+$/, 'not a decimal integer');
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not an RFC 3339 date');
const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });
const eventPage = z.object({ pageInfo, nodes: z.array(z.object({ eventBcs: base64.nullable() })) });
const objectChangePage = z.object({
  pageInfo,
  nodes: z.array(
    z.object({
      address: z.string(),
      idCreated: z.boolean().nullable(),
      outputState: z.object({ asMoveObject: z.object({ contents: z.object({ type: z.object({ repr: z.string() }).nullable() }).nullable() }).nullable() }).nullable(),
    }),
  ),
});

export const TRANSACTION_QUERY = `query SmiTransaction($digest: String!, $eventsFirst: Int) {
  transaction(digest: $digest) {
    digest
    transactionBcs
    effects {
      effectsBcs
      timestamp
      checkpoint { sequenceNumber }
      events(first: $eventsFirst) { pageInfo { hasNextPage endCursor } nodes { eventBcs } }
    }
  }
}`;

export const transactionData = z.object({
  transaction: z
    .object({
      digest: z.string(),
      transactionBcs: base64.nullable(),
      effects: z
        .object({
          effectsBcs: base64.nullable(),
          timestamp: dateTime.nullable(),
          checkpoint: z.object({ sequenceNumber: uint53 }).nullable(),
          events: eventPage.nullable(),
        })
        .nullable(),
    })
    .nullable(),
});

export const TRANSACTION_EVENTS_QUERY = `query SmiTransactionEvents($digest: String!, $eventsFirst: Int, $after: String) {
  transaction(digest: $digest) {
    effects {
      events(first: $eventsFirst, after: $after) { pageInfo { hasNextPage endCursor } nodes { eventBcs } }
    }
  }
}`;

export const transactionEventsData = z.object({
  transaction: z.object({ effects: z.object({ events: eventPage.nullable() }).nullable() }).nullable(),
});

export const EPOCH_QUERY = `query SmiEpoch($epochId: UInt53!) {
  epoch(epochId: $epochId) {
    epochId
    referenceGasPrice
    startTimestamp
    protocolConfigs { protocolVersion }
  }
}`;

export const epochData = z.object({
  epoch: z
    .object({
      epochId: uint53,
      referenceGasPrice: bigintText.nullable(),
      startTimestamp: dateTime.nullable(),
      protocolConfigs: z.object({ protocolVersion: uint53 }).nullable(),
    })
    .nullable(),
});

export const OBJECT_QUERY = `query SmiObject($address: SuiAddress!, $version: UInt53) {
  object(address: $address, version: $version) {
    address
    version
    digest
    objectBcs
  }
}`;

export const OBJECT_BOUNDED_QUERY = `query SmiObjectBounded($address: SuiAddress!, $rootVersion: UInt53!) {
  object(address: $address, rootVersion: $rootVersion) {
    address
    version
    digest
    objectBcs
  }
}`;

export const OBJECT_AT_CHECKPOINT_QUERY = `query SmiObjectAtCheckpoint($address: SuiAddress!, $atCheckpoint: UInt53!) {
  object(address: $address, atCheckpoint: $atCheckpoint) {
    address
    version
    digest
    objectBcs
  }
}`;

export const objectData = z.object({
  object: z.object({ address: z.string(), version: uint53.nullable(), digest: z.string().nullable(), objectBcs: base64.nullable() }).nullable(),
});

/** A protocol version's config (`version` null: the current one). */
export const PROTOCOL_CONFIG_QUERY = `query SmiProtocolConfig($version: UInt53) {
  protocolConfigs(version: $version) {
    protocolVersion
    featureFlags { key value }
    configs { key value }
  }
}`;

export const protocolConfigData = z.object({
  protocolConfigs: z
    .object({
      protocolVersion: uint53,
      featureFlags: z.array(z.object({ key: z.string(), value: z.boolean() })),
      configs: z.array(z.object({ key: z.string(), value: z.string().nullable() })),
    })
    .nullable(),
});

/** The page limits of the connections this source pages through (`null`: not paginated there). */
export const SERVICE_LIMITS_QUERY = `query SmiServiceLimits {
  serviceConfig {
    events: maxPageSize(type: "TransactionEffects", field: "events")
    objectChanges: maxPageSize(type: "TransactionEffects", field: "objectChanges")
    checkpointTransactions: maxPageSize(type: "Checkpoint", field: "transactions")
    addressObjects: maxPageSize(type: "Address", field: "objects")
  }
}`;

const limit = z.number().int().positive().nullable();
export const serviceLimitsData = z.object({
  serviceConfig: z.object({ events: limit, objectChanges: limit, checkpointTransactions: limit, addressObjects: limit }),
});

export const LATEST_CHECKPOINT_QUERY = `query SmiLatestCheckpoint {
  checkpoint { sequenceNumber }
}`;

export const latestCheckpointData = z.object({ checkpoint: z.object({ sequenceNumber: uint53 }).nullable() });

export const CHECKPOINT_TRANSACTIONS_QUERY = `query SmiCheckpointTransactions($sequenceNumber: UInt53!, $first: Int, $after: String) {
  checkpoint(sequenceNumber: $sequenceNumber) {
    sequenceNumber
    transactions(first: $first, after: $after) { pageInfo { hasNextPage endCursor } nodes { digest } }
  }
}`;

export const checkpointTransactionsData = z.object({
  checkpoint: z
    .object({
      sequenceNumber: uint53,
      transactions: z.object({ pageInfo, nodes: z.array(z.object({ digest: z.string() })) }).nullable(),
    })
    .nullable(),
});

export const OWNED_OBJECTS_QUERY = `query SmiOwnedObjects($owner: SuiAddress!, $filter: ObjectFilter, $first: Int, $after: String) {
  address(address: $owner) {
    objects(first: $first, after: $after, filter: $filter) {
      pageInfo { hasNextPage endCursor }
      nodes { address version digest contents { type { repr } } }
    }
  }
}`;

export const ownedObjectsData = z.object({
  address: z
    .object({
      objects: z
        .object({
          pageInfo,
          nodes: z.array(
            z.object({
              address: z.string(),
              version: uint53.nullable(),
              digest: z.string().nullable(),
              contents: z.object({ type: z.object({ repr: z.string() }).nullable() }).nullable(),
            }),
          ),
        })
        .nullable(),
    })
    .nullable(),
});

export const SIMULATE_QUERY = `query SmiSimulateTransaction($transaction: JSON!, $checksEnabled: Boolean, $eventsFirst: Int, $eventsAfter: String, $changesFirst: Int, $changesAfter: String) {
  simulateTransaction(transaction: $transaction, checksEnabled: $checksEnabled, doGasSelection: false) {
    effects {
      effectsBcs
      events(first: $eventsFirst, after: $eventsAfter) { pageInfo { hasNextPage endCursor } nodes { eventBcs } }
      objectChanges(first: $changesFirst, after: $changesAfter) {
        pageInfo { hasNextPage endCursor }
        nodes { address idCreated outputState { asMoveObject { contents { type { repr } } } } }
      }
    }
    outputs { returnValues { value { bcs type { repr } } } }
  }
}`;

export const simulateData = z.object({
  simulateTransaction: z.object({
    effects: z.object({ effectsBcs: base64.nullable(), events: eventPage.nullable(), objectChanges: objectChangePage.nullable() }).nullable(),
    outputs: z
      .array(
        z.object({
          returnValues: z.array(z.object({ value: z.object({ bcs: base64.nullable(), type: z.object({ repr: z.string() }).nullable() }).nullable() })).nullable(),
        }),
      )
      .nullable(),
  }),
});

/** Date-time text to milliseconds since the epoch (already checked to parse). */
export function dateTimeMs(text: string): bigint {
  return BigInt(Date.parse(text));
}

/**
 * Where live chain data comes from, as the simulation sees it: a small interface of raw BCS
 * answers (the transaction, its effects, objects at a version, epochs, checkpoints, owned
 * objects, a simulation). Its implementations (gRPC, GraphQL) live in `@smi/network`, so that
 * nothing in the core chain depends on a network client; tests answer it from a loopback
 * server. Every failure is a {@link DataSourceError} with a stable code.
 */
import { SmiError } from '@smi/bytecode';

/** A transaction as a node returns it. */
export interface ChainTransaction {
  /** Base58 digest. */
  digest: string;
  /** BCS of `TransactionData`. */
  transactionBcs: Uint8Array;
  /** BCS of `TransactionEffects` (V1 or V2). */
  effectsBcs: Uint8Array;
  /** BCS of `TransactionEvents`, when the transaction emitted events and the node returned them. */
  eventsBcs: Uint8Array | null;
  checkpoint: bigint | null;
  timestampMs: bigint | null;
  /**
   * Objects read at run time and left unchanged (dynamic-field children), with their versions,
   * when the node reports them (gRPC `unchanged_loaded_runtime_objects`); `null` when unknown:
   * a source that cannot vouch for the list (GraphQL has no such field; the archive and a node
   * serving an old transaction answer an empty one) says `null`, never `[]`.
   */
  unchangedLoadedRuntimeObjects: { id: string; version: bigint }[] | null;
}

/** What an epoch ran with. */
export interface ChainEpoch {
  epoch: bigint;
  protocolVersion: number;
  referenceGasPrice: bigint;
  startTimestampMs: bigint;
}

/** An object (a Move object or a package) as a node returns it. */
export interface ChainObject {
  /** `0x` + 64 hex. */
  id: string;
  version: bigint;
  /** BCS of the whole `Object` (data, owner, previous transaction, storage rebate). */
  bcs: Uint8Array;
  /** The object digest (base58) the node reports, when it does: what `bcs` must hash to. */
  digest?: string;
}

/**
 * A protocol version's configuration as a node serves it: the feature flags and the attributes
 * that are set (an attribute upstream holds as `None` is absent), values as text.
 */
export interface ChainProtocolConfig {
  protocolVersion: number;
  featureFlags: Record<string, boolean>;
  attributes: Record<string, string>;
}

/** An object an address owns. */
export interface OwnedObjectInfo {
  id: string;
  version: bigint;
  digest: string;
  /** Its Move type (`0x…::m::S<…>`). */
  type: string;
}

/** A node's simulation of a transaction (dry run, or dev-inspect without checks). */
export interface ChainSimulation {
  /** BCS of `TransactionEffects`. */
  effectsBcs: Uint8Array;
  eventsBcs: Uint8Array | null;
  /** Per-command return values (BCS with their types), when the node returned them. */
  commandResults: { returnValues: { type: string; bcs: Uint8Array }[] }[] | null;
  /**
   * The objects the transaction created (effects V2 carry no types), with their Move types, as
   * the node reported them (gRPC `effects.changed_objects` with `id_operation` CREATED and
   * `object_type`; GraphQL `objectChanges` with `idCreated` and the output's type); absent or
   * `null` when the source cannot say. Packages are not among them.
   */
  createdObjects?: { id: string; type: string }[] | null;
}

/** Live chain data. */
export interface SuiDataSource {
  /** The endpoint, for messages. */
  readonly endpoint: string;
  getTransaction(digest: string): Promise<ChainTransaction>;
  getEpoch(epoch: bigint): Promise<ChainEpoch>;
  /** An object at `version`, or its current version. Packages too. */
  getObject(id: string, version?: bigint): Promise<ChainObject>;
  /**
   * An object as it was when `checkpoint` was executed (GraphQL `object(atCheckpoint:)`), when
   * the API can say: a system package's version at the time of an old transaction.
   */
  getObjectAtCheckpoint?(id: string, checkpoint: bigint): Promise<ChainObject>;
  /**
   * The latest version of an object at or below `rootVersion` (GraphQL `object(rootVersion:)`):
   * a dynamic-field child as a transaction read it through a root object at that version.
   */
  getObjectBounded?(id: string, rootVersion: bigint): Promise<ChainObject>;
  /**
   * The configuration of protocol `version` (default: the current epoch's), when the API can
   * say: NOT_FOUND for a version the network never ran (or the node has not indexed).
   */
  getProtocolConfig?(version?: number): Promise<ChainProtocolConfig>;
  /** Sequence number of the latest checkpoint. */
  latestCheckpoint(): Promise<bigint>;
  /** Digests of a checkpoint's transactions, in order. */
  checkpointTransactions(sequence: bigint): Promise<string[]>;
  /** Objects `owner` owns (of `type` when given: a full type, or a base type without arguments). */
  listOwnedObjects(owner: string, type?: string): Promise<OwnedObjectInfo[]>;
  /** Run a transaction (BCS `TransactionData`) without executing it; `checks: false` is dev-inspect. */
  simulateTransaction(transactionBcs: Uint8Array, options: { checks: boolean }): Promise<ChainSimulation>;
}

/** How a data source call failed. */
/**
 * How a data source call failed: NOT_FOUND (the source has no such thing), UNAVAILABLE (down or
 * busy: worth another try), RATE_LIMITED (HTTP 429: another try after a wait), INVALID_RESPONSE
 * (the answer is malformed), UNSUPPORTED (the API cannot answer this), REJECTED (the request is
 * wrong or too large: another try gets the same), INTERNAL (the node failed on its side: not
 * retried, reported).
 */
export type DataSourceErrorCode = 'NOT_FOUND' | 'UNAVAILABLE' | 'RATE_LIMITED' | 'INVALID_RESPONSE' | 'UNSUPPORTED' | 'REJECTED' | 'INTERNAL';

/** A failed data source call: what was asked, of which endpoint, and why. */
export class DataSourceError extends SmiError<DataSourceErrorCode> {
  override readonly name = 'DataSourceError';
  constructor(
    code: DataSourceErrorCode,
    message: string,
    readonly details: { endpoint?: string; retryAfterMs?: number; status?: string | number } = {},
  ) {
    super(code, message);
  }

  /** `true` for failures worth another try (the node was down or busy). */
  get retryable(): boolean {
    return this.code === 'UNAVAILABLE' || this.code === 'RATE_LIMITED';
  }
}

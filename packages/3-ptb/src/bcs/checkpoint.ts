/**
 * Checkpoints: summary (certified), contents, and `CheckpointData` (every transaction
 * with its effects, events, input and output objects), as the `.chk` files hold them.
 */
import { Bytes, Digest, U64, decodeBcs, enumType, fixedBytes, option, struct, tuple, vector, type Codec, type Enum } from './codec.js';
import { GasCostSummary, TransactionEffects, TransactionEvents } from './effects.js';
import { SuiObject } from './object.js';
import { Transaction } from './transaction.js';
import { BcsError } from '@smi/move-vm';

/** Variants of {@link CheckpointCommitment}. */
export interface CheckpointCommitmentVariants {
  ECMHLiveObjectSetDigest: { digest: string };
  CheckpointArtifactsDigest: string;
}

/** A commitment carried by a checkpoint. */
export type CheckpointCommitment = Enum<CheckpointCommitmentVariants>;

/** `CheckpointCommitment` codec. */
export const CheckpointCommitment: Codec<CheckpointCommitment> = enumType<CheckpointCommitmentVariants>('CheckpointCommitment', {
  ECMHLiveObjectSetDigest: struct('ECMHLiveObjectSetDigest', { digest: Digest }),
  CheckpointArtifactsDigest: Digest,
});

/** `EndOfEpochData` (serde names are camelCase upstream). */
export interface EndOfEpochData {
  /** (authority public key bytes, voting power). */
  nextEpochCommittee: [Uint8Array, bigint][];
  nextEpochProtocolVersion: bigint;
  epochCommitments: CheckpointCommitment[];
}

/** `EndOfEpochData` codec. */
export const EndOfEpochData: Codec<EndOfEpochData> = struct<EndOfEpochData>(
  'EndOfEpochData',
  { nextEpochCommittee: vector(tuple(Bytes, U64)), nextEpochProtocolVersion: U64, epochCommitments: vector(CheckpointCommitment) },
  { serdeCase: 'camel' },
);

/** `CheckpointSummary`. */
export interface CheckpointSummary {
  epoch: bigint;
  sequenceNumber: bigint;
  networkTotalTransactions: bigint;
  contentDigest: string;
  previousDigest: string | null;
  epochRollingGasCostSummary: GasCostSummary;
  timestampMs: bigint;
  checkpointCommitments: CheckpointCommitment[];
  endOfEpochData: EndOfEpochData | null;
  versionSpecificData: Uint8Array;
}

/** `CheckpointSummary` codec. */
export const CheckpointSummary: Codec<CheckpointSummary> = struct<CheckpointSummary>('CheckpointSummary', {
  epoch: U64,
  sequenceNumber: U64,
  networkTotalTransactions: U64,
  contentDigest: Digest,
  previousDigest: option(Digest),
  epochRollingGasCostSummary: GasCostSummary,
  timestampMs: U64,
  checkpointCommitments: vector(CheckpointCommitment),
  endOfEpochData: option(EndOfEpochData),
  versionSpecificData: Bytes,
});

/** `AuthorityQuorumSignInfo<true>`: aggregated BLS signature and the signers' roaring bitmap. */
export interface AuthorityQuorumSignInfo {
  epoch: bigint;
  signature: Uint8Array;
  signersMap: Uint8Array;
}

/** `AuthorityQuorumSignInfo` codec. */
export const AuthorityQuorumSignInfo: Codec<AuthorityQuorumSignInfo> = struct<AuthorityQuorumSignInfo>('AuthorityQuorumSignInfo', {
  epoch: U64,
  signature: fixedBytes(48),
  signersMap: Bytes,
});

/** A certified checkpoint summary (`Envelope<CheckpointSummary, AuthorityQuorumSignInfo<true>>`). */
export interface CertifiedCheckpointSummary {
  data: CheckpointSummary;
  authSignature: AuthorityQuorumSignInfo;
}

/** `CertifiedCheckpointSummary` codec. */
export const CertifiedCheckpointSummary: Codec<CertifiedCheckpointSummary> = struct<CertifiedCheckpointSummary>('CertifiedCheckpointSummary', {
  data: CheckpointSummary,
  authSignature: AuthorityQuorumSignInfo,
});

/** `ExecutionDigests`: a transaction digest and its effects digest. */
export interface ExecutionDigests {
  transaction: string;
  effects: string;
}

/** `ExecutionDigests` codec. */
export const ExecutionDigests: Codec<ExecutionDigests> = struct<ExecutionDigests>('ExecutionDigests', { transaction: Digest, effects: Digest });

/** `CheckpointTransactionContents` (contents V2). */
export interface CheckpointTransactionContents {
  digest: ExecutionDigests;
  /** (signature, address-alias version). */
  userSignatures: [Uint8Array, bigint | null][];
}

/** Variants of {@link CheckpointContents}. */
export interface CheckpointContentsVariants {
  V1: { transactions: ExecutionDigests[]; userSignatures: Uint8Array[][] };
  V2: { transactions: CheckpointTransactionContents[] };
}

/** The transactions of a checkpoint. */
export type CheckpointContents = Enum<CheckpointContentsVariants>;

/** `CheckpointContents` codec. */
export const CheckpointContents: Codec<CheckpointContents> = enumType<CheckpointContentsVariants>('CheckpointContents', {
  V1: struct('CheckpointContentsV1', { transactions: vector(ExecutionDigests), userSignatures: vector(vector(Bytes)) }),
  V2: struct('CheckpointContentsV2', {
    transactions: vector(
      struct<CheckpointTransactionContents>('CheckpointTransactionContents', {
        digest: ExecutionDigests,
        userSignatures: vector(tuple(Bytes, option(U64))),
      }),
    ),
  }),
});

/** One transaction of a `CheckpointData`. */
export interface CheckpointTransaction {
  transaction: Transaction;
  effects: TransactionEffects;
  events: TransactionEvents | null;
  inputObjects: SuiObject[];
  outputObjects: SuiObject[];
}

/** `CheckpointTransaction` codec. */
export const CheckpointTransaction: Codec<CheckpointTransaction> = struct<CheckpointTransaction>('CheckpointTransaction', {
  transaction: Transaction,
  effects: TransactionEffects,
  events: option(TransactionEvents),
  inputObjects: vector(SuiObject),
  outputObjects: vector(SuiObject),
});

/** `CheckpointData`. */
export interface CheckpointData {
  checkpointSummary: CertifiedCheckpointSummary;
  checkpointContents: CheckpointContents;
  transactions: CheckpointTransaction[];
}

/** `CheckpointData` codec. */
export const CheckpointData: Codec<CheckpointData> = struct<CheckpointData>('CheckpointData', {
  checkpointSummary: CertifiedCheckpointSummary,
  checkpointContents: CheckpointContents,
  transactions: vector(CheckpointTransaction),
});

/** The `(transaction, effects)` digest pairs of checkpoint contents, V1 or V2. */
export function checkpointExecutionDigests(contents: CheckpointContents): ExecutionDigests[] {
  return contents.$kind === 'V1' ? contents.V1.transactions : contents.V2.transactions.map((t) => t.digest);
}

/** Encoding byte of a stored blob whose payload is BCS. */
export const BLOB_ENCODING_BCS = 0x01;

/**
 * Decodes a checkpoint file as the Sui checkpoint store writes it (`.chk`): one encoding
 * byte (`0x01` = BCS), then BCS `CheckpointData`. Throws `BCS_UNSUPPORTED_BLOB` on
 * another encoding byte.
 */
export function decodeCheckpointBlob(bytes: Uint8Array): CheckpointData {
  if (bytes.length === 0 || bytes[0] !== BLOB_ENCODING_BCS) {
    throw new BcsError('BCS_UNSUPPORTED_BLOB', `checkpoint blob encoding byte is ${bytes.length === 0 ? 'missing' : `0x${bytes[0].toString(16)}`}, expected 0x01 (BCS)`);
  }
  return decodeBcs(CheckpointData, bytes.subarray(1));
}

/** A checkpoint file's data and how it was stored. */
export interface CheckpointFile {
  checkpoint: CheckpointData;
  /** `blob`: `0x01` then BCS (the checkpoint store's `.chk`); `bcs`: bare BCS. */
  format: 'blob' | 'bcs';
}

/**
 * Decodes a checkpoint file in either form found in the wild: a blob (`0x01` then BCS,
 * e.g. `20958462.chk`) or bare BCS `CheckpointData` (`20958462.bcs`, `ocs/1137.chk`).
 * A leading `0x01` is read as the blob byte first, then as the first byte of bare BCS.
 */
export function decodeCheckpointFile(bytes: Uint8Array): CheckpointFile {
  if (bytes.length > 0 && bytes[0] === BLOB_ENCODING_BCS) {
    try {
      return { checkpoint: decodeBcs(CheckpointData, bytes.subarray(1)), format: 'blob' };
    } catch (e) {
      try {
        return { checkpoint: decodeBcs(CheckpointData, bytes), format: 'bcs' };
      } catch {
        throw e;
      }
    }
  }
  return { checkpoint: decodeBcs(CheckpointData, bytes), format: 'bcs' };
}

/**
 * `0x3::validator::validate_metadata_bcs`, after upstream `validator.rs` and
 * `ValidatorMetadataV1::verify(metadata_v2 = true)`: the BCS of the Move
 * `ValidatorMetadata` is read as `ValidatorMetadataV1` (any mismatch: `MALFORMED`), then
 * keys and addresses are checked in upstream's order, aborting with its codes:
 * EMetadataInvalidPop 0, Pubkey 1, NetPubkey 2, WorkerPubkey 3, NetAddr 4, P2pAddr 5,
 * PrimaryAddr 6, WorkerAddr 7.
 *
 * - Network and worker keys (Ed25519, `ed25519_consensus::VerificationKey::try_from`):
 *   32 bytes that decompress to a curve point, checked here.
 * - Addresses: multiaddr syntax ({@link parseMultiaddr}); p2p, primary and worker
 *   addresses must also start with `/ip4|ip6|dns/<host>/udp/<port>`.
 * - The protocol key (BLS12-381 min-sig, 96-byte G2) and its proof of possession need
 *   pairing cryptography: they go to a {@link BlsMinSigBackend} (the crypto natives'
 *   BLS12-381 module is meant to provide it). Without one the native fails with
 *   `UNSUPPORTED_NATIVE`, never with a guessed answer.
 */
import type { NativeFunction } from '../registry.js';
import { suiVmError, unsupportedNative } from './errors.js';
import { abort, charge } from './native-env.js';
import { isAnemoAddress, parseMultiaddr } from './multiaddr.js';
import { argBytes } from './values.js';
import { BcsError } from '../../bcs-error.js';

/** The BLS12-381 (min-sig: public keys in G2, signatures in G1) operations the check needs. */
export interface BlsMinSigBackend {
  /** fastcrypto `BLS12381PublicKey::from_bytes`: 96 bytes, a valid compressed G2 point that passes key validation. */
  isValidPublicKey(bytes: Uint8Array): boolean;
  /** fastcrypto `BLS12381Signature::from_bytes`: 48 bytes, a valid compressed G1 point. */
  isValidSignature(bytes: Uint8Array): boolean;
  /** `publicKey.verify(message, signature)`, DST `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`. */
  verify(signature: Uint8Array, publicKey: Uint8Array, message: Uint8Array): boolean;
}

/** Upstream `ValidatorMetadataV1` (the BCS of the Move `ValidatorMetadata`). */
export interface ValidatorMetadataV1 {
  suiAddress: Uint8Array;
  protocolPubkey: Uint8Array;
  networkPubkey: Uint8Array;
  workerPubkey: Uint8Array;
  proofOfPossession: Uint8Array;
  name: string;
  description: string;
  imageUrl: string;
  projectUrl: string;
  netAddress: string;
  p2pAddress: string;
  primaryAddress: string;
  workerAddress: string;
  nextEpochProtocolPubkey: Uint8Array | null;
  nextEpochProofOfPossession: Uint8Array | null;
  nextEpochNetworkPubkey: Uint8Array | null;
  nextEpochWorkerPubkey: Uint8Array | null;
  nextEpochNetAddress: string | null;
  nextEpochP2pAddress: string | null;
  nextEpochPrimaryAddress: string | null;
  nextEpochWorkerAddress: string | null;
  /** `Bag { id, size }`. */
  extraFields: { id: Uint8Array; size: bigint };
}

class Reader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}

  take(n: number): Uint8Array {
    if (this.b.length - this.pos < n) throw new BcsError('BCS_DECODE_FAILED', 'unexpected end of input');
    const out = this.b.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  uleb(): number {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const [x] = this.take(1);
      v += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) {
        if (shift > 0 && x === 0) throw new BcsError('BCS_DECODE_FAILED', 'non-canonical ULEB128');
        if (v > 0xffffffff) throw new BcsError('BCS_DECODE_FAILED', 'ULEB128 overflow');
        return v;
      }
    }
    throw new BcsError('BCS_DECODE_FAILED', 'ULEB128 overflow');
  }

  bytes(): Uint8Array {
    const n = this.uleb();
    if (n > 0x7fffffff) throw new BcsError('BCS_DECODE_FAILED', 'sequence too long');
    return this.take(n);
  }

  string(): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes());
  }

  option<T>(f: () => T): T | null {
    const [tag] = this.take(1);
    if (tag === 0) return null;
    if (tag === 1) return f();
    throw new BcsError('BCS_DECODE_FAILED', `invalid option tag ${tag}`);
  }

  u64(): bigint {
    const b = this.take(8);
    let v = 0n;
    for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return v;
  }
}

/**
 * Decode `ValidatorMetadataV1` from BCS (strict: canonical lengths, UTF-8 strings, option
 * tags 0/1, no trailing bytes); `null` when the bytes do not match.
 */
export function decodeValidatorMetadata(bytes: Uint8Array): ValidatorMetadataV1 | null {
  const r = new Reader(bytes);
  try {
    const m: ValidatorMetadataV1 = {
      suiAddress: r.take(32),
      protocolPubkey: r.bytes(),
      networkPubkey: r.bytes(),
      workerPubkey: r.bytes(),
      proofOfPossession: r.bytes(),
      name: r.string(),
      description: r.string(),
      imageUrl: r.string(),
      projectUrl: r.string(),
      netAddress: r.string(),
      p2pAddress: r.string(),
      primaryAddress: r.string(),
      workerAddress: r.string(),
      nextEpochProtocolPubkey: r.option(() => r.bytes()),
      nextEpochProofOfPossession: r.option(() => r.bytes()),
      nextEpochNetworkPubkey: r.option(() => r.bytes()),
      nextEpochWorkerPubkey: r.option(() => r.bytes()),
      nextEpochNetAddress: r.option(() => r.string()),
      nextEpochP2pAddress: r.option(() => r.string()),
      nextEpochPrimaryAddress: r.option(() => r.string()),
      nextEpochWorkerAddress: r.option(() => r.string()),
      extraFields: { id: r.take(32), size: r.u64() },
    };
    return r.pos === bytes.length ? m : null;
  } catch (e) {
    if (e instanceof BcsError || e instanceof TypeError) return null;
    throw e;
  }
}

const P = (1n << 255n) - 19n;

function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  let x = ((b % P) + P) % P;
  let k = e;
  while (k > 0n) {
    if (k & 1n) r = (r * x) % P;
    x = (x * x) % P;
    k >>= 1n;
  }
  return r;
}

const D = (((-121665n * modPow(121666n, P - 2n)) % P) + P) % P;

/**
 * `ed25519_consensus::VerificationKey::try_from(bytes)`: 32 bytes whose y coordinate (low
 * 255 bits, taken mod p) has an x on the curve, i.e. (y² − 1)/(d·y² + 1) is a square mod p.
 */
export function isValidEd25519PublicKey(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i] & 0x7f : bytes[i]);
  y %= P;
  const y2 = (y * y) % P;
  const u = (y2 - 1n + P) % P;
  const v = (D * y2 + 1n) % P;
  const w = (u * modPow(v, P - 2n)) % P;
  if (w === 0n) return true;
  return modPow(w, (P - 1n) / 2n) === 1n;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The message of a proof of possession: BCS `IntentMessage { intent: (5, 0, 0), value: pubkey ‖ address }` then epoch 0 as u64. */
export function proofOfPossessionMessage(publicKey: Uint8Array, suiAddress: Uint8Array): Uint8Array {
  const msg = new Uint8Array(publicKey.length + suiAddress.length);
  msg.set(publicKey);
  msg.set(suiAddress, publicKey.length);
  const len: number[] = [];
  let n = msg.length;
  while (n >= 0x80) {
    len.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  len.push(n);
  const out = new Uint8Array(3 + len.length + msg.length + 8);
  out.set([5, 0, 0]);
  out.set(len, 3);
  out.set(msg, 3 + len.length);
  return out;
}

const NATIVE = '0x3::validator::validate_metadata_bcs';

/** `true` when `address` is a multiaddr (and, with `anemo`, a UDP address anemo accepts). */
function validAddress(address: string, anemo: boolean): boolean {
  const p = parseMultiaddr(address);
  if (p.kind === 'unsupported') throw unsupportedNative(NATIVE, `multiaddr protocol /${p.protocol} is not decoded offline (in ${JSON.stringify(address)})`);
  return p.kind === 'ok' && (!anemo || isAnemoAddress(p.parts));
}

/**
 * `ValidatorMetadataV1::verify(metadata_v2 = true)`: the abort code of the first failed
 * check, or `null` when the metadata is valid.
 */
export function verifyValidatorMetadata(m: ValidatorMetadataV1, bls: BlsMinSigBackend | undefined): number | null {
  const need = (): BlsMinSigBackend => {
    if (bls === undefined) throw unsupportedNative(NATIVE, 'BLS12-381 key and proof-of-possession checks need a BlsMinSigBackend (registerSuiNatives option `bls`)');
    return bls;
  };
  const verifyPop = (pop: Uint8Array, pk: Uint8Array): boolean => need().isValidPublicKey(pk) && need().verify(pop, pk, proofOfPossessionMessage(pk, m.suiAddress));
  if (!need().isValidPublicKey(m.protocolPubkey)) return 1;
  if (!need().isValidSignature(m.proofOfPossession)) return 0;
  if (!verifyPop(m.proofOfPossession, m.protocolPubkey)) return 0;
  if (!isValidEd25519PublicKey(m.networkPubkey)) return 2;
  if (!isValidEd25519PublicKey(m.workerPubkey)) return 3;
  if (sameBytes(m.workerPubkey, m.networkPubkey)) return 3;
  if (!validAddress(m.netAddress, false)) return 4;
  if (!validAddress(m.p2pAddress, true)) return 5;
  if (!validAddress(m.primaryAddress, true)) return 6;
  if (!validAddress(m.workerAddress, true)) return 7;
  const nextPk = m.nextEpochProtocolPubkey;
  if (nextPk !== null && !need().isValidPublicKey(nextPk)) return 1;
  const nextPop = m.nextEpochProofOfPossession;
  if (nextPop !== null && !need().isValidSignature(nextPop)) return 0;
  if (nextPk !== null && (nextPop === null || !verifyPop(nextPop, nextPk))) return 0;
  const nextNet = m.nextEpochNetworkPubkey;
  if (nextNet !== null && !isValidEd25519PublicKey(nextNet)) return 2;
  const nextWorker = m.nextEpochWorkerPubkey;
  if (nextWorker !== null && !isValidEd25519PublicKey(nextWorker)) return 3;
  if (nextNet !== null && nextWorker !== null && sameBytes(nextNet, nextWorker)) return 3;
  if (nextNet !== null && nextWorker === null && sameBytes(nextNet, m.workerPubkey)) return 2;
  if (nextNet === null && nextWorker !== null && sameBytes(nextWorker, m.networkPubkey)) return 3;
  if (m.nextEpochNetAddress !== null && !validAddress(m.nextEpochNetAddress, false)) return 4;
  if (m.nextEpochP2pAddress !== null && !validAddress(m.nextEpochP2pAddress, true)) return 5;
  if (m.nextEpochPrimaryAddress !== null && !validAddress(m.nextEpochPrimaryAddress, true)) return 6;
  if (m.nextEpochWorkerAddress !== null && !validAddress(m.nextEpochWorkerAddress, true)) return 7;
  return null;
}

/** `sui_system::validator` natives over an optional BLS backend. */
export function validatorNatives(bls: BlsMinSigBackend | undefined): Record<string, NativeFunction> {
  return {
    validate_metadata_bcs: (ctx, _t, [metadata]) => {
      charge(ctx, 'validator_validate_metadata_cost_base');
      const bytes = argBytes(metadata);
      charge(ctx, 'validator_validate_metadata_data_cost_per_byte', bytes.length);
      const m = decodeValidatorMetadata(bytes);
      if (m === null) throw suiVmError('MALFORMED', 'ValidateMetadata Move struct does not match internal ValidateMetadata struct');
      const code = verifyValidatorMetadata(m, bls);
      if (code !== null) abort(code);
      return [];
    },
  };
}

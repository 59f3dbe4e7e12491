/**
 * The validators of a simulated genesis: a few validators with deterministic keys, as
 * upstream's local genesis makes them (`ValidatorGenesisConfigBuilder`, four by default),
 * with every key real so that `validator::new` accepts them:
 *
 * - protocol key: BLS12-381 min-sig, with its proof of possession (upstream
 *   `generate_proof_of_possession`: the key signs `IntentMessage(ProofOfPossession,
 *   pubkey ‖ address)` with epoch 0 appended), which `validate_metadata_bcs` verifies;
 * - network and worker keys: distinct Ed25519 keys;
 * - account: an Ed25519 key, whose Sui address (`blake2b256(0x00 ‖ pubkey)`) is the
 *   validator's address;
 * - addresses: multiaddrs on 127.0.0.1 as upstream's `local_ip_utils` writes them (TCP with
 *   `/http` for the network address, UDP for the anemo ones), distinct ports each;
 * - gas price and commission: upstream's `DEFAULT_VALIDATOR_GAS_PRICE` and
 *   `DEFAULT_COMMISSION_RATE`.
 *
 * The secrets come from public seeds: these validators exist only offline.
 */
import { blsMinSigKeyPair, blsMinSigSign, ed25519PublicKey, proofOfPossessionMessage } from '@smi/move-vm';
import { blake2b256 } from '@smi/ptb';

/** Validators a simulated genesis creates (upstream's local network default). */
export const GENESIS_VALIDATOR_COUNT = 4;
/** Upstream `DEFAULT_VALIDATOR_GAS_PRICE` (MIST). */
export const DEFAULT_VALIDATOR_GAS_PRICE = 1000n;
/** Upstream `DEFAULT_COMMISSION_RATE` (basis points: 2%). */
export const DEFAULT_COMMISSION_RATE = 200n;

/** One genesis validator (upstream `GenesisValidatorMetadata`, keys as bytes). */
export interface GenesisValidator {
  name: string;
  description: string;
  imageUrl: string;
  projectUrl: string;
  /** `0x` + 64 hex. */
  suiAddress: string;
  gasPrice: bigint;
  commissionRate: bigint;
  /** BLS12-381 min-sig public key (96 bytes). */
  protocolPublicKey: Uint8Array;
  /** Signature of the proof-of-possession message (48 bytes). */
  proofOfPossession: Uint8Array;
  /** Ed25519 (32 bytes). */
  networkPublicKey: Uint8Array;
  /** Ed25519 (32 bytes), not the network key. */
  workerPublicKey: Uint8Array;
  networkAddress: string;
  p2pAddress: string;
  primaryAddress: string;
  workerAddress: string;
}

function seed(index: number, role: string): Uint8Array {
  return blake2b256(new TextEncoder().encode(`smi::genesis-validator::${index}::${role}`));
}

/** The Sui address of an Ed25519 public key: `blake2b256(flag 0x00 ‖ pubkey)`. */
export function ed25519Address(publicKey: Uint8Array): string {
  const bytes = new Uint8Array(1 + publicKey.length);
  bytes.set(publicKey, 1);
  return '0x' + Buffer.from(blake2b256(bytes)).toString('hex');
}

function hexBytes(address: string): Uint8Array {
  return Uint8Array.from(Buffer.from(address.slice(2), 'hex'));
}

function makeValidator(index: number): GenesisValidator {
  const suiAddress = ed25519Address(ed25519PublicKey(seed(index, 'account')));
  const protocol = blsMinSigKeyPair(seed(index, 'protocol'));
  const port = 9000 + 10 * index;
  return {
    name: `validator-${index}`,
    description: '',
    imageUrl: '',
    projectUrl: '',
    suiAddress,
    gasPrice: DEFAULT_VALIDATOR_GAS_PRICE,
    commissionRate: DEFAULT_COMMISSION_RATE,
    protocolPublicKey: protocol.publicKey,
    proofOfPossession: blsMinSigSign(protocol.secretKey, proofOfPossessionMessage(protocol.publicKey, hexBytes(suiAddress))),
    networkPublicKey: ed25519PublicKey(seed(index, 'network')),
    workerPublicKey: ed25519PublicKey(seed(index, 'worker')),
    networkAddress: `/ip4/127.0.0.1/tcp/${port}/http`,
    p2pAddress: `/ip4/127.0.0.1/udp/${port + 1}`,
    primaryAddress: `/ip4/127.0.0.1/udp/${port + 2}`,
    workerAddress: `/ip4/127.0.0.1/udp/${port + 3}`,
  };
}

let validators: readonly GenesisValidator[] | null = null;

/**
 * The genesis validators, made once per process (signing the proofs of possession takes a
 * few milliseconds of curve arithmetic each).
 */
export function genesisValidators(): readonly GenesisValidator[] {
  validators ??= Object.freeze(Array.from({ length: GENESIS_VALIDATOR_COUNT }, (_, i) => Object.freeze(makeValidator(i))));
  return validators;
}

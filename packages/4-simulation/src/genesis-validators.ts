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
 * The secrets come from public seeds: these validators exist only offline. The keys are
 * derived once ({@link deriveGenesisValidatorKeys}) and kept here as constants.
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

/** The keys of one genesis validator (hex, without `0x` but for the address). */
export interface GenesisValidatorKeys {
  suiAddress: string;
  protocolPublicKey: string;
  proofOfPossession: string;
  networkPublicKey: string;
  workerPublicKey: string;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/**
 * Derive the keys of validator `index` from its public seeds: the account's Ed25519 key
 * (its Sui address), the BLS protocol key with its proof of possession, the network and
 * worker Ed25519 keys.
 */
export function deriveGenesisValidatorKeys(index: number): GenesisValidatorKeys {
  const suiAddress = ed25519Address(ed25519PublicKey(seed(index, 'account')));
  const protocol = blsMinSigKeyPair(seed(index, 'protocol'));
  return {
    suiAddress,
    protocolPublicKey: hex(protocol.publicKey),
    proofOfPossession: hex(blsMinSigSign(protocol.secretKey, proofOfPossessionMessage(protocol.publicKey, hexBytes(suiAddress)))),
    networkPublicKey: hex(ed25519PublicKey(seed(index, 'network'))),
    workerPublicKey: hex(ed25519PublicKey(seed(index, 'worker'))),
  };
}

/**
 * The keys {@link deriveGenesisValidatorKeys} derives, written out: deriving them costs
 * about 0.3 s of curve arithmetic (a BLS key and a signature per validator, in JS), once per
 * process, which every benchmark worker paid. `test/genesis.test.ts` derives them again and
 * checks they are these.
 */
const GENESIS_VALIDATOR_KEYS: readonly GenesisValidatorKeys[] = [
  {
    suiAddress: '0x24eb4b6fb08428c8717489cd9a682707f98184173198ef61146ba7f7400ae88a',
    protocolPublicKey:
      '98366d3d5bcc7adb30fa6ac40351eab926091a3dbc83917411cec05fd05b2da431ac1007496c1c3548c1c6f6c3574b3110e027117dd36cea23966c6be7d27711773e1c1a0f2c589d76832d80d01c1014c7199e59bea1e6c96fea28f44df6bc2a',
    proofOfPossession: '9742805e702770b073d89a7d9b718532fd58b56ca3274285348c923a97ede49869f5bb1c21aff300bd7110060490f4ee',
    networkPublicKey: 'aaee5fcea8529865aaceda4cef0d0e92dedfd5a681f24fdaf7265f5904a531ed',
    workerPublicKey: '2b99a7a47f86c8b6031e8fb1d36d0df34e2afcec2e5f2cc614e644e200f2461d',
  },
  {
    suiAddress: '0xe8a302794dd1965b7e255a210293f0ee130f92935271d7940be1b1d6f2cc64cf',
    protocolPublicKey:
      'b50a9dd2f1882e878caf2b2f72669be84b13f59b7956934618519011a2f27beea8bdf78726d94565e5476c103a7a4a8d0ec254e0b254a9902d56f9be681afae14c22e1c5481f42b25ad85d38e19d74baa40e4ea6d3be188b03551967df98e335',
    proofOfPossession: 'b6e0fcc063752d44a2fcf312b67ce569b3370cb6ce1a40f12cf858da2d61c565ee057a0b35fb58073397259f51a880a9',
    networkPublicKey: 'f701eeac5413f6431ec311cf38f04aa26a2065bd75d4e7dacfab4a3cdd37fc90',
    workerPublicKey: 'b2e47a0ae0f2df0263174da1de27644ffdea7de6a86b32476a3fc99e61070c7e',
  },
  {
    suiAddress: '0x3430f1115ce5e9b1d1fd86713904b44dccaf4ac2802844c174311018ea9cbf6b',
    protocolPublicKey:
      '8131ce9406159eb37c5e4ea9f6c829d9ff0ab83dfd027d0a538e089d76edb4c0cdb5a0f957d0767a70b2ce7a3d6557ad0104954380e6a99521af668443093e3f98b51827ec6f9b72c7f42c0e7133da1bfd9b689e2cf5c8541f9a1642c860cdc4',
    proofOfPossession: 'a840476c8358c17f6c5b63f1f8d4ede9f90adacb049de5437aa466332997b980efd03202a5a74f5e953e009a74794529',
    networkPublicKey: '0e69aea2151d009cc6deca648031b7513d84c69b9b9934615fea670785ef918d',
    workerPublicKey: '960c4e43b4f3fdfe7baeebfcddd273f05fea98d5642a575f4d273c5d1c5b264a',
  },
  {
    suiAddress: '0x78119851431e607bb4d23a0da78da1fe43aa56d53fccda0ee321350af0e8a334',
    protocolPublicKey:
      '84c33e9c24151a4d1ba9f2473f06ca81a1c0e97b55a32029835c3bcb58b902cdfca8e47790454f9c48cfa80ed7a2dd7115a2ffbee62c24fabd3b5ff88bc09f53651d9c6fbe8132a2543513f1ac2b735c3f916f113fedf60ffaec6dd11c971bf5',
    proofOfPossession: '918cc14a2e5f934248f4ba710f7bf5c9e321ff80f7ff61d8bea2cc05fe84f8f6e823a9b69fd10ac6d9237a8077abc3e3',
    networkPublicKey: 'fce4f01db67d52f3a7215e31c6b8ae07cac8d91916a5c3cc1afaa126d25be383',
    workerPublicKey: 'dd9d09ac7731908d89c64f44449c300f9ad50362902155c9252e69884f7cbba7',
  },
];

function makeValidator(index: number): GenesisValidator {
  const keys = GENESIS_VALIDATOR_KEYS[index];
  const port = 9000 + 10 * index;
  return {
    name: `validator-${index}`,
    description: '',
    imageUrl: '',
    projectUrl: '',
    suiAddress: keys.suiAddress,
    gasPrice: DEFAULT_VALIDATOR_GAS_PRICE,
    commissionRate: DEFAULT_COMMISSION_RATE,
    protocolPublicKey: Uint8Array.from(Buffer.from(keys.protocolPublicKey, 'hex')),
    proofOfPossession: Uint8Array.from(Buffer.from(keys.proofOfPossession, 'hex')),
    networkPublicKey: Uint8Array.from(Buffer.from(keys.networkPublicKey, 'hex')),
    workerPublicKey: Uint8Array.from(Buffer.from(keys.workerPublicKey, 'hex')),
    networkAddress: `/ip4/127.0.0.1/tcp/${port}/http`,
    p2pAddress: `/ip4/127.0.0.1/udp/${port + 1}`,
    primaryAddress: `/ip4/127.0.0.1/udp/${port + 2}`,
    workerAddress: `/ip4/127.0.0.1/udp/${port + 3}`,
  };
}

let validators: readonly GenesisValidator[] | null = null;

/** The genesis validators, made once per process from their keys. */
export function genesisValidators(): readonly GenesisValidator[] {
  validators ??= Object.freeze(Array.from({ length: GENESIS_VALIDATOR_COUNT }, (_, i) => Object.freeze(makeValidator(i))));
  return validators;
}

/**
 * The non-crypto natives of the Sui framework (0x2) and of sui-system (0x3), real, after
 * upstream `sui-move-natives`. Transaction state lives in an {@link ObjectRuntime} the
 * caller installs in each call's `extensions` under {@link OBJECT_RUNTIME_KEY}. The
 * crypto natives (`hash`, `ecdsa_k1`, `bls12381`, `groth16`, ...) come from
 * `registerSuiCrypto` (`./crypto/index.js`).
 */
import type { NativeFunction, NativeRegistry } from '../registry.js';
import { configNatives, dynamicFieldNatives, scratchNatives } from './dynamic-field.js';
import {
  accumulatorNatives,
  accumulatorSettlementNatives,
  addressNatives,
  eventNatives,
  fundsAccumulatorNatives,
  objectNatives,
  packageNatives,
  protocolConfigNatives,
  transferNatives,
  txContextNatives,
  typesNatives,
} from './framework.js';
import { type BlsMinSigBackend, validatorNatives } from './validator.js';

/** Options of {@link registerSuiNatives}. */
export interface SuiNativesOptions {
  /**
   * BLS12-381 min-sig operations for `0x3::validator::validate_metadata_bcs` (protocol
   * key and proof of possession). Without it that native fails with `UNSUPPORTED_NATIVE`.
   */
  bls?: BlsMinSigBackend;
}

/** The natives of this module, by address and module name. */
export function suiNatives(options: SuiNativesOptions = {}): Record<string, Record<string, Record<string, NativeFunction>>> {
  return {
    '0x2': {
      tx_context: txContextNatives,
      object: objectNatives,
      transfer: transferNatives,
      event: eventNatives,
      address: addressNatives,
      types: typesNatives,
      dynamic_field: dynamicFieldNatives,
      config: configNatives,
      scratch: scratchNatives,
      protocol_config: protocolConfigNatives,
      package: packageNatives,
      accumulator: accumulatorNatives,
      accumulator_settlement: accumulatorSettlementNatives,
      funds_accumulator: fundsAccumulatorNatives,
    },
    '0x3': {
      validator: validatorNatives(options.bls),
    },
  };
}

/** Register the non-crypto Sui natives (0x2, 0x3) in `registry` (replacing any already there). */
export function registerSuiNatives(registry: NativeRegistry, options: SuiNativesOptions = {}): NativeRegistry {
  for (const [address, modules] of Object.entries(suiNatives(options))) {
    for (const [module, natives] of Object.entries(modules)) registry.registerModule(address, module, natives);
  }
  return registry;
}

export {
  ObjectRuntime,
  OBJECT_RUNTIME_KEY,
  PROTOCOL_135_OBJECT_RUNTIME_LIMITS,
  PROTOCOL_135_NATIVE_FLAGS,
  findObjectRuntime,
  requireObjectRuntime,
} from './object-runtime.js';
export type {
  AccumulatorEvent,
  ChildObjectProvider,
  EmittedEvent,
  InputObject,
  LoadedChildObject,
  ObjectRuntimeLimits,
  ObjectRuntimeOptions,
  ObjectRuntimeResults,
  ObjectWrite,
  Owner,
  PackageResolver,
  ReceiveResult,
  ReceivingObjectProvider,
  StoredObject,
  TransferResult,
  TxContextData,
  ValueEnv,
} from './object-runtime.js';
export { SEQUENCE_NUMBER_MAX } from './child-store.js';
export { ObjectRuntimeError, MemoryLimitSubStatus } from './errors.js';
export type { ObjectRuntimeErrorCode, SuiStatusCode } from './errors.js';
export { PROTOCOL_135_SUI_NATIVE_COSTS, nativeCost } from './costs.js';
export type { SuiNativeCostKey } from './costs.js';
export {
  typeTagOf,
  structTagOf,
  typeKey,
  formatTypeTag,
  parseSuiTypeTag,
  typeTagBcs,
  structTagBcs,
  hashTypeAndKey,
  deriveObjectAddress,
  deriveObjectId,
  blake2b256,
} from './type-tag.js';
export type { SuiTypeTag, SuiStructTag } from './type-tag.js';
export { isOneTimeWitnessType } from './framework.js';
export { decodeValidatorMetadata, verifyValidatorMetadata, isValidEd25519PublicKey, proofOfPossessionMessage } from './validator.js';
export type { BlsMinSigBackend, ValidatorMetadataV1 } from './validator.js';
export { parseMultiaddr, isAnemoAddress } from './multiaddr.js';
export type { MultiaddrPart, MultiaddrParse } from './multiaddr.js';

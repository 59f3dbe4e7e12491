/**
 * @smi/move-vm: a Move VM that runs real Sui bytecode.
 */
export { MoveVM, DEFAULT_LIMITS } from './vm.js';
export type { MoveVmOptions, CallArg, CallOptions, CallResult, TypedValue } from './vm.js';
export { VmError, NativeAbort, VectorError, CAPTURE_STACKS } from './errors.js';
export type { VmStatusCode, VmLocation, LinkFailure } from './errors.js';
export { BcsError } from './bcs-error.js';
export type { BcsErrorCode } from './bcs-error.js';
export { TypeTable, TypeKind, formatType, primitiveName, isInteger, isReference, integerBits } from './types/runtime-type.js';
export type { Type, TypeKindValue, DatatypeInfo, FieldInfo, VariantInfo, FormatTypeOptions } from './types/runtime-type.js';
export { parseTypeTag, resolveTypeTag } from './types/type-tag.js';
export { checkLayoutNodes, layoutNodeCount, layoutNodeRule } from './types/layout-nodes.js';
export type { LayoutNodeRule } from './types/layout-nodes.js';
export type { TypeTagAst, DatatypeResolver } from './types/type-tag.js';
export { MoveVector, VecKind } from './values/vector.js';
export type { VecKindValue } from './values/vector.js';
export { VariantValue, SlotRef, VecElemRef, copyValue, readRef, peekRef, writeRef, valuesEqual, borrowSlot } from './values/value.js';
export type { StructValue } from './values/value.js';
export { BcsCodec, vecKindOf } from './values/bcs.js';
export { NativeRegistry } from './natives/registry.js';
export type { NativeContext, NativeFunction } from './natives/registry.js';
export { registerMoveStdlib } from './natives/move-stdlib.js';
export { PROTOCOL_135_STDLIB_COSTS, ZERO_STDLIB_COSTS, stdlibNativeCosts } from './natives/stdlib-costs.js';
export type { StdlibNativeCosts } from './natives/stdlib-costs.js';
export type { Tracer, MachineView } from './interpreter/tracer.js';
export type { ExecutionLimits, InstructionMeter } from './interpreter/runtime.js';
export { uniformGasSchedule, staticGasSchedule, defaultGasSchedule } from './gas/schedule.js';
export type { GasSchedule } from './gas/schedule.js';
export { Linker, LoadedModule } from './loader/linker.js';
export type { LoadedFunction, PackageRecord } from './loader/linker.js';
export { FunctionInstance } from './interpreter/instance.js';
export { Op, OP_NAME } from './loader/ops.js';
export { valueFromJson, valueToJson, zeroValue } from './values/json.js';
export type { Json } from './values/json.js';
export { validateValue } from './values/validate.js';
export { executionLimitsFor } from './vm.js';
export {
  ProtocolConfig,
  ProtocolConfigError,
  parseProtocolConfigSnap,
  parseSnapYaml,
  loadProtocolConfig,
  availableProtocolVersions,
  protocolConfigDir,
} from './config/protocol-config.js';
export type { ConfigValue, ConfigScalar, ConfigMap, ProtocolConfigErrorCode, ParseSnapOptions } from './config/protocol-config.js';
export { protocolConfigForChain, type SuiChain } from './config/chain-config.js';
export {
  DEFAULT_VM_LIMITS,
  limitsFromProtocolConfig,
  VM_LIMIT_STATUS,
  VM_STATUS_CODES,
  VECTOR_SUB_STATUS,
  CALL_STACK_SIZE_LIMIT,
  OPERAND_STACK_SIZE_LIMIT,
  TYPE_DEPTH_MAX,
  MAX_TYPE_INSTANTIATION_NODES,
  HISTORICAL_MAX_TYPE_TO_LAYOUT_NODES,
} from './config/vm-limits.js';
export type { VmLimits, VerifierLimits, RuntimeLimitName, LimitStatus, VmStatusName } from './config/vm-limits.js';
export { costTableForGasModelVersion, tierAt, gasModelFeatures, baseInstructionCost, opcodeName } from './gas/cost-tables.js';
export type { TierTable, CostTable, GasModelFeatures, ChargeKind, StaticShape } from './gas/cost-tables.js';
export { abstractMemorySize, legacyValueSize, sizeConfigForGasModel } from './gas/abstract-size.js';
export type { PrimKind, ValueVisitor, ValueView, SizeConfig } from './gas/abstract-size.js';
export { GasMeter, GasError, INTERNAL_UNITS_PER_GAS, UNIT_TEST_GAS_BOUND } from './gas/gas-meter.js';
export type { GasMeterOptions, GasErrorCode } from './gas/gas-meter.js';
export { NativeCostSchedule } from './gas/native-costs.js';
export {
  gasRoundingMode,
  halfDigitsRounding,
  bucketCost,
  roundComputationUnits,
  computationBudgetUnits,
  computationBudgetInternal,
  computationCost,
  objectStorageCost,
  senderRebate,
} from './gas/transaction-gas.js';
export type { GasRoundingMode, ComputationCost } from './gas/transaction-gas.js';
export { UpstreamTraceRecorder } from './tracing/recorder.js';
export type { UpstreamTraceOptions } from './tracing/recorder.js';
export { upstreamOpcodeName } from './tracing/opcodes.js';
export { parseTraceJson, parseTraceLines, stringifyTraceJson } from './tracing/format.js';
export type { TraceRecord, TraceEffect, TraceValue, TraceLocation, TraceFrame, ParsedTrace, TraceJson } from './tracing/format.js';
export {
  registerSuiCrypto,
  suiCryptoNatives,
  cryptoOptionsFromProtocolConfig,
  PROTOCOL_135_CRYPTO_COSTS,
  PROTOCOL_135_CRYPTO_FEATURES,
} from './natives/sui/crypto/index.js';
export type { SuiCryptoOptions, CryptoCostTable, CryptoFeatures } from './natives/sui/crypto/index.js';
export {
  registerSuiNatives,
  suiNatives,
  ObjectRuntime,
  OBJECT_RUNTIME_KEY,
  PROTOCOL_135_OBJECT_RUNTIME_LIMITS,
  PROTOCOL_135_NATIVE_FLAGS,
  findObjectRuntime,
  requireObjectRuntime,
  SEQUENCE_NUMBER_MAX,
  ObjectRuntimeError,
  MemoryLimitSubStatus,
  PROTOCOL_135_SUI_NATIVE_COSTS,
  nativeCost,
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
  isOneTimeWitnessType,
  decodeValidatorMetadata,
  verifyValidatorMetadata,
  isValidEd25519PublicKey,
  proofOfPossessionMessage,
  parseMultiaddr,
  isAnemoAddress,
} from './natives/sui/index.js';
export type {
  SuiNativesOptions,
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
  ObjectRuntimeErrorCode,
  SuiStatusCode,
  SuiNativeCostKey,
  SuiTypeTag,
  SuiStructTag,
  BlsMinSigBackend,
  ValidatorMetadataV1,
  MultiaddrPart,
  MultiaddrParse,
} from './natives/sui/index.js';
export { suiNativeRegistry, blsMinSigBackend } from './natives/sui-registry.js';
export { blake2b256Of } from './natives/sui/crypto/blake2b.js';
export { blsMinSigKeyPair, blsMinSigSign, ed25519PublicKey } from './natives/sui/crypto/keys.js';
export type { BlsMinSigKeyPair } from './natives/sui/crypto/keys.js';
export type { SuiRegistryOptions } from './natives/sui-registry.js';

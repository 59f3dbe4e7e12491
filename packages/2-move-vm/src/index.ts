/**
 * @smi/move-vm: a Move VM that runs real Sui bytecode.
 */
export { MoveVM } from './vm.js';
export type { MoveVmOptions, CallArg, CallOptions, CallResult, TypedValue } from './vm.js';
export { VmError, VectorError, CAPTURE_STACKS } from './errors.js';
export type { VmStatusCode, VmLocation, LinkFailure } from './errors.js';
export { BcsError } from './bcs-error.js';
export type { BcsErrorCode } from './bcs-error.js';
export { TypeTable, TypeKind, formatType, primitiveName, isInteger } from './types/runtime-type.js';
export type { Type, TypeKindValue, DatatypeInfo, FieldInfo, VariantInfo, FormatTypeOptions } from './types/runtime-type.js';
export { parseTypeTag } from './types/type-tag.js';
export { checkLayoutNodes, layoutNodeRule } from './types/layout-nodes.js';
export type { LayoutNodeRule } from './types/layout-nodes.js';
export type { TypeTagAst } from './types/type-tag.js';
export { MoveVector, VecKind } from './values/vector.js';
export type { VecKindValue } from './values/vector.js';
export { VariantValue, SlotRef, VecElemRef, copyValue, readRef, peekRef, borrowSlot } from './values/value.js';
export { BcsCodec, vecKindOf } from './values/bcs.js';
export { NativeRegistry } from './natives/registry.js';
export type { NativeContext, NativeFunction } from './natives/registry.js';
export { PROTOCOL_135_STDLIB_COSTS, ZERO_STDLIB_COSTS, stdlibNativeCosts } from './natives/stdlib-costs.js';
export type { StdlibNativeCosts } from './natives/stdlib-costs.js';
export type { Tracer, MachineView } from './interpreter/tracer.js';
export type { ExecutionLimits, InstructionMeter } from './interpreter/runtime.js';
export { uniformGasSchedule, staticGasSchedule } from './gas/schedule.js';
export type { GasSchedule } from './gas/schedule.js';
export { Linker, LoadedModule } from './loader/linker.js';
export type { LoadedFunction, PackageRecord } from './loader/linker.js';
export { FunctionInstance } from './interpreter/instance.js';
export { Op } from './loader/ops.js';
export { valueFromJson, valueToJson, zeroValue } from './values/json.js';
export type { Json } from './values/json.js';
export {
  ProtocolConfig,
  ProtocolConfigError,
  parseProtocolConfigSnap,
  parseSnapYaml,
  loadProtocolConfig,
  availableProtocolVersions,
} from './config/protocol-config.js';
export type { ConfigValue, ConfigScalar, ConfigMap, ProtocolConfigErrorCode, ParseSnapOptions } from './config/protocol-config.js';
export { protocolConfigForChain, type SuiChain } from './config/chain-config.js';
export type { TierTable, CostTable, GasModelFeatures } from './gas/cost-tables.js';
export type { PrimKind, ValueVisitor, ValueView, SizeConfig } from './gas/abstract-size.js';
export { GasMeter, GasError } from './gas/gas-meter.js';
export type { GasMeterOptions, GasErrorCode } from './gas/gas-meter.js';
export {
  computationBudgetInternal,
  computationCost,
  objectStorageCost,
  senderRebate,
} from './gas/transaction-gas.js';
export type { ComputationCost } from './gas/transaction-gas.js';
export { UpstreamTraceRecorder } from './tracing/recorder.js';
export type { UpstreamTraceOptions } from './tracing/recorder.js';
export { parseTraceJson, parseTraceLines, stringifyTraceJson } from './tracing/format.js';
export type { TraceRecord, TraceEffect, TraceValue, TraceLocation, TraceFrame, ParsedTrace, TraceJson } from './tracing/format.js';
export { cryptoOptionsFromProtocolConfig } from './natives/sui/crypto/index.js';
export type { SuiCryptoOptions, CryptoCostTable, CryptoFeatures } from './natives/sui/crypto/index.js';
export {
  ObjectRuntime,
  OBJECT_RUNTIME_KEY,
  ObjectRuntimeError,
  PROTOCOL_135_SUI_NATIVE_COSTS,
  formatTypeTag,
  parseSuiTypeTag,
  deriveObjectId,
  blake2b256,
  proofOfPossessionMessage,
} from './natives/sui/index.js';
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
  ObjectRuntimeErrorCode,
  SuiNativeCostKey,
  SuiTypeTag,
  BlsMinSigBackend,
} from './natives/sui/index.js';
export { suiNativeRegistry, blsMinSigBackend } from './natives/sui-registry.js';
export { blake2b256Of } from './natives/sui/crypto/blake2b.js';
export { blsMinSigKeyPair, blsMinSigSign, ed25519PublicKey } from './natives/sui/crypto/keys.js';
export type { BlsMinSigKeyPair } from './natives/sui/crypto/keys.js';
export type { SuiRegistryOptions } from './natives/sui-registry.js';

/**
 * @smi/move-vm: a Move VM that runs real Sui bytecode.
 */
export { MoveVM, DEFAULT_LIMITS } from './vm.js';
export type { MoveVmOptions, CallArg, CallOptions, CallResult, TypedValue } from './vm.js';
export { VmError, NativeAbort, VectorError } from './errors.js';
export type { VmStatusCode, VmLocation } from './errors.js';
export { TypeTable, TypeKind, formatType, isInteger, isReference, integerBits } from './types/runtime-type.js';
export type { Type, TypeKindValue, DatatypeInfo, FieldInfo, VariantInfo, FormatTypeOptions } from './types/runtime-type.js';
export { parseTypeTag, resolveTypeTag } from './types/type-tag.js';
export type { TypeTagAst, DatatypeResolver } from './types/type-tag.js';
export { MoveVector, VecKind } from './values/vector.js';
export type { VecKindValue } from './values/vector.js';
export { VariantValue, SlotRef, VecElemRef, copyValue, readRef, peekRef, writeRef, valuesEqual, borrowSlot } from './values/value.js';
export type { StructValue } from './values/value.js';
export { BcsCodec, vecKindOf } from './values/bcs.js';
export { NativeRegistry } from './natives/registry.js';
export type { NativeContext, NativeFunction } from './natives/registry.js';
export { registerMoveStdlib } from './natives/move-stdlib.js';
export type { Tracer, MachineView } from './interpreter/tracer.js';
export type { ExecutionLimits, GasSchedule } from './interpreter/runtime.js';
export { uniformGasSchedule, defaultGasSchedule } from './gas/schedule.js';
export { Linker, LoadedModule } from './loader/linker.js';
export type { LoadedFunction, PackageRecord } from './loader/linker.js';
export { FunctionInstance } from './interpreter/instance.js';
export { Op, OP_NAME } from './interpreter/ops.js';
export { valueFromJson, valueToJson, zeroValue } from './values/json.js';
export type { Json } from './values/json.js';
export { validateValue } from './values/validate.js';

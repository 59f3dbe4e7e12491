/**
 * @smi/bytecode: read, write, describe and build Sui Move bytecode.
 */
export * from './file-format.js';
export {
  MOVE_MAGIC,
  UNPUBLISHABLE_MAGIC,
  VERSION_MIN,
  VERSION_MAX,
  SUI_FLAVOR,
  TableKind,
  SerializedType,
  Limits,
  OPCODE,
  KIND_OF_OPCODE,
  SIMPLE_INSTRUCTION,
  PRIMITIVE_TOKEN,
  isSimpleKind,
} from './opcodes.js';
export { addressFromBytes, addressOfNumber, canonicalAddress, parseAddress, shortAddress, writeAddressBytes } from './util/address.js';
export { BRIDGE_ADDRESS, STD_ADDRESS, SUI_ADDRESS, SUI_SYSTEM_ADDRESS, ZERO_ADDRESS } from './util/address.js';
export { SmiError, isSmiError, errorMessage } from './util/error.js';
export type { SmiErrorOptions } from './util/error.js';
export { pushUleb128, uleb128, writeUleb128 } from './util/uleb.js';
export type { ByteSink } from './util/uleb.js';
export type { Json } from './util/json.js';
export {
  selfHandle,
  moduleName,
  moduleAddress,
  moduleHandleId,
  datatypeName,
  functionName,
  functionHandleOf,
  isSelfHandle,
  abilityNames,
  PRIMITIVE_NAME,
  PRIMITIVE_NAMES,
  isPrimitiveName,
  formatToken,
  renderToken,
} from './module-access.js';
export type { TokenRenderer, PrimitiveName } from './module-access.js';
export { BytecodeError, isBytecodeError } from './errors.js';
export type { BytecodeStatusCode, BytecodeErrorDetails, CodeLocation } from './errors.js';
export { deserializeModule } from './deserializer.js';
export type { DeserializeOptions } from './deserializer.js';
export { serializeModule, addressBytes, ByteWriter } from './serializer.js';
export { checkBounds } from './check-bounds.js';
export {
  parseModuleBundle,
  packageFromBytes,
  loadBundleFile,
  loadSnapshotFile,
  loadPackageDir,
  findPackageDirs,
  PackageError,
} from './package-loader.js';
export type {
  MovePackage,
  PackageModule,
  TypeOrigin,
  LinkageEntry,
  PackageSource,
  PackageErrorCode,
  LoadOptions,
} from './package-loader.js';
export { canonicalJson, compareCodePoints } from './canonical-json.js';
export type { CanonicalJsonLayout, CanonicalJsonOptions } from './canonical-json.js';
export {
  buildInterfaceJson,
  buildModuleInterface,
  renderInterfaceJson,
  toOriginalInterface,
  interfaceSanity,
  interfaceType,
  isInitFunction,
  decodeConstantValue,
} from './interface-json.js';
export type {
  PackageInterface,
  OriginalPackageInterface,
  ModuleInterface,
  OriginalModuleInterface,
  StructInterface,
  FunctionInterface,
  OriginalFunctionInterface,
  EnumInterface,
  EnumVariantInterface,
  ConstantInterface,
  ConstantValue,
  FriendInterface,
  InterfaceType,
  InterfacePrimitiveKind,
  InterfaceField,
  InterfaceDatatypeTypeParam,
  InterfaceFunctionTypeParam,
  InterfaceDatatypeRef,
  InterfaceVisibility,
  AbilityName,
  InterfaceInput,
  InterfaceSanity,
} from './interface-json.js';
export { disassembleModule, disassembleFunction, DisassemblerError } from './disassembler.js';
export type {
  DisassembleOptions,
  DisassemblerErrorCode,
  DisassemblySourceNames,
  FunctionSourceNames,
  DatatypeSourceNames,
} from './disassembler.js';
export {
  generateMoveStubs,
  generateStubManifest,
  generateStubTree,
  stubPackageNames,
  SUI_FRAMEWORK_GIT,
  moveSourceIdentifier,
  tomlDependency,
  tomlKey,
  MOVE_RESERVED_WORDS,
  SYSTEM_PACKAGES,
} from './stubs.js';
export type { MoveStubOptions, StubManifestOptions, StubPackageNames, StubDependencySource, StubTree, StubTreeEntry, StubTreeOptions, StubTreePackage } from './stubs.js';
export { frameworkSourceExtras, stubDeclarationsFingerprint, FRAMEWORK_EXTRAS_SOURCE } from './stub-extras.js';
export type { ModuleSourceExtras } from './stub-extras.js';
export { frameworkMacros } from './stub-macros.js';
/** `std::unit_test`, the test-only stdlib module a test build's `unit_test_poison` links to. */
export { unitTestModule } from './unit-test-module.js';
export type { MacroDeclaration, GeneratedModuleExtras } from './stub-extras-types.js';
export {
  verifyModule,
  verifyPackage,
  verificationErrorFromBytecodeError,
  VerificationError,
  isVerificationError,
  formatVerificationError,
  formatLocation,
  SUI_MAINNET_VERIFIER_LIMITS,
  MOVE_DEFAULT_VERIFIER_LIMITS,
  signatureTokenKey,
  ControlFlowGraph,
  analyzeFunction,
  abilitiesOf,
  instructionEffect,
} from './verifier/index.js';
export type {
  VerifyOptions,
  VerifierLimits,
  VerifierStatusCode,
  VerifierIndexKind,
  VerificationIndex,
  VerificationOffset,
  VerificationLocation,
  VerificationErrorDetails,
  AbstractDomain,
} from './verifier/index.js';

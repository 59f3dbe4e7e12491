/**
 * @smi/simulation: an offline Sui. A `SimulationEnvironment` keeps packages and objects,
 * runs programmable transactions with Sui's rules and commits their effects; state saves
 * to a versioned JSON file; Move source compiles and publishes in one step; mainnet
 * transactions replay from sui-replay snapshots and are compared object by object.
 */
export { SimulationEnvironment, DEFAULT_SENDER, DEFAULT_CLOCK_MS } from './environment.js';
export { EnvTransactionBuilder } from './env-builder.js';
export type { SimulationConfig, SimulationOptions, ExecuteOptions, TransactionOutcome } from './environment.js';
export { PtbBuilder, parseTarget, typeTagOf } from './builder.js';
export type { CommandOutput } from './builder.js';
export { SimulationEnvironmentError } from './errors.js';
export type { SimulationEnvironmentErrorCode } from './errors.js';
export { InMemoryObjectStore, versionOf } from './store.js';
export { objectView, ownerToJson } from './object-view.js';
export type { ObjectView, OwnerJson } from './object-view.js';
export { createObject } from './create-object.js';
export type { CreateObjectSpec, OwnerSpec } from './create-object.js';
export { callFunction, decodeValue } from './call-function.js';
export type { CallOutcome, DecodedValue } from './call-function.js';
export { publishModules, publishDependencies, loadPackage, packageObjectOf, packageFromObject } from './packages.js';
export type { PublishOutcome } from './packages.js';
export { compileAndPublish, compilablePackages } from './compile.js';
export { moveCompilerImportFailed, MOVE_COMPILER_PACKAGE } from './move-compiler.js';
export type { CompileAndPublishOptions, CompileAndPublishOutcome } from './compile.js';
export { encodeState, decodeState, parseStateFile, readStateFile, writeFileAtomic, STATE_FORMAT, STATE_VERSION } from './state-file.js';
export type { StateFile, StateSnapshot } from './state-file.js';
export {
  SYSTEM_OBJECTS,
  SYSTEM_ADDRESS,
  CLOCK_ID,
  RANDOM_ID,
  DENY_LIST_ID,
  COIN_REGISTRY_ID,
  SYSTEM_STATE_ID,
  ACCUMULATOR_ROOT_ID,
  AUTHENTICATOR_STATE_ID,
  BRIDGE_ID,
} from './system.js';
export type { SystemObjectInfo, SystemObjectName } from './system.js';
export { genesisPlan, genesisChainParameters, tokenDistributionSchedule, TOTAL_SUPPLY_MIST, VALIDATOR_LOW_STAKE_THRESHOLD_MIST, BRIDGE_CHAIN_ID_SUI_CUSTOM } from './genesis.js';
export type { GenesisPlan } from './genesis.js';
export { genesisValidators, deriveGenesisValidatorKeys, ed25519Address, GENESIS_VALIDATOR_COUNT, DEFAULT_VALIDATOR_GAS_PRICE, DEFAULT_COMMISSION_RATE } from './genesis-validators.js';
export type { GenesisValidator, GenesisValidatorKeys } from './genesis-validators.js';
export { balanceAccumulatorId, collectSettlements, isBalanceAccumulator } from './accumulators.js';
export type { AccumulatorSettlement } from './accumulators.js';
export { FRAMEWORK_BUNDLES, loadFrameworkDir, fromFixtures, frameworkSnapshotFor, loadCorpus, mergePackages } from './framework.js';
export { smiCacheDir, loadFrameworkFolder, locateFramework, locateProtocolConfig, cachedFrameworkVersions } from './data/locate.js';
export type { DataEnv, FrameworkOrigin, LocatedFramework, LocateFrameworkOptions } from './data/locate.js';
export { fetchPackages, verifyPackageAnswer } from './data/fetch-packages.js';
export type { FetchPackagesOptions, FetchPackagesReport, FetchPackageEvent, VerifiedPackage } from './data/fetch-packages.js';
export { fetchFramework, protocolConfigSnapText, protocolConfigFileName } from './data/fetch-framework.js';
export type { FetchFrameworkEvent, FetchFrameworkReport } from './data/fetch-framework.js';
export { writePackageDir, hasPackageDir, packageDirOf } from './data/package-dir.js';
export type { PackageProvenance } from './data/package-dir.js';
export { parseReplaySnapshot, readReplaySnapshot } from './replay/snapshot.js';
export type { ReplaySnapshot, RecordedEffects, RecordedRef } from './replay/snapshot.js';
export { replaySnapshot } from './replay/replay.js';
export { fetchReplaySnapshot, fetchedFromSnapshot, inputVersions, recordedEffects, NotProgrammableError } from './replay/fetch.js';
export { fetchRuntimeChildren } from './replay/children.js';
export type { FetchedChild, FetchRuntimeChildrenOptions } from './replay/children.js';
export type { FetchReplayOptions, FetchedReplay } from './replay/fetch.js';
export { effectsComparison } from './replay/match-score.js';
export { replayFetched, replayCached } from './replay/replay-one.js';
export type { ReplayOutcome, ReplayOneOptions } from './replay/replay-one.js';
export { replayCachedParallel } from './replay/parallel.js';
export { evaluateTransaction, ptbEvalSummary, errorCategory } from './replay/ptb-eval.js';
export type { PtbEvalReport, PtbEvalSummary, PtbEvalOptions, HealingAction } from './replay/ptb-eval.js';
export type { EffectsComparison } from './replay/match-score.js';
export { TransactionCache, cachedTransactionJson, parseCachedTransaction, fetchedTransactionJson, fetchedReplayJson } from './replay/cache.js';
export type { ReplayReport, ReplayOptions, ObjectComparison, Compared, ChangeKind } from './replay/replay.js';
export {
  SandboxSession,
  SandboxError,
  CheckpointError,
  DEFAULT_CHECKPOINT,
  RequestError as SandboxRequestError,
  parseRequest as parseSandboxRequest,
  describeIssues as describeZodIssues,
  serializeResponse as serializeSandboxResponse,
  responseJson as sandboxResponseJson,
  effectsJson as transactionEffectsJson,
  eventsJson as transactionEventsJson,
  SANDBOX_ACTIONS,
  SANDBOX_ERROR_CATEGORIES,
  MAX_FETCHES as SANDBOX_MAX_FETCHES,
} from './sandbox/index.js';
export type {
  SandboxSessionOptions,
  SandboxAction,
  SandboxRequest,
  SandboxResponse,
  SandboxErrorCategory,
  SandboxEffects,
  SandboxEvent,
  SandboxObjectEffect,
  SandboxReturnValues,
  SandboxFetched,
  SandboxFetchError,
} from './sandbox/index.js';
export { DataSourceError } from './data-source.js';
export type { SuiDataSource, ChainTransaction, ChainEpoch, ChainObject, ChainProtocolConfig, OwnedObjectInfo, ChainSimulation, DataSourceErrorCode } from './data-source.js';

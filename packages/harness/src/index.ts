/**
 * @smi/harness: the LLM benchmark of SMI. Datasets and the original's deterministic
 * sampling; OpenAI-compatible models with retries the harness owns, scripted and replay
 * models; a response cache; token and cost accounting; resumable, checksummed run
 * directories with events, shards and merging; and Phase I (key-struct discovery).
 */
export { BLACKLISTED_IDS, DatasetError, discoverPackages, fnv1a64, samplePackages, parseIdsText, datasetNames, datasetIds, canonicalId, selectPackages } from './dataset.js';
export type { PackageRef, DiscoverySkips, Selection } from './dataset.js';
export { PyFloat, pyFloat, pyFloatRepr, pyDumps, pyDumpsLine, pyChecksum, parsePyJson, PyJsonError, plain } from './py-json.js';
export type { PyJson } from './py-json.js';

export { ModelError, zeroUsage, addUsage } from './model/types.js';
export type { ChatMessage, ResponseFormat, GenerateParams, ModelUsage, CacheStatus, GenerateResult, GenerateOptions, ModelClient, ModelErrorKind, ToolSpec, ToolCall } from './model/types.js';
export { withRetries, backoffMs, sleep, DEFAULT_RETRY } from './model/retry.js';
export type { RetryPolicy, RetryNotice } from './model/retry.js';
export { OpenAiCompatibleModel, OPENROUTER_HEADERS, classifyError, retryAfterMs } from './model/openai-client.js';
export type { OpenAiClientOptions } from './model/openai-client.js';
export { ScriptedModel, ReplayModel, cacheAnswers } from './model/scripted.js';
export type { ScriptedAnswer, AnswerSource } from './model/scripted.js';
export { ResponseCache, CachedModel, cacheKey } from './model/cache.js';
export type { CacheKeyInput, CacheEntry, CacheStats } from './model/cache.js';
export { resolveModelConfig, readDotenv, generateParams, readModelsFile, resolveModelAlias, isReasoningModel, ModelConfigError } from './model/config.js';
export type { ModelConfig, ModelsFile } from './model/config.js';
export { readPriceTable, costOf, paidFor, addCall, addTotals, emptyTotals, PriceTableError } from './accounting.js';
export type { ModelPrice, PriceTable, UsageTotals } from './accounting.js';

export { OUTCOMES, RETRYABLE_OUTCOMES, isFailure } from './run/types.js';
export type { Outcome, PackageResult, PackageUsage, EarlierTry, LedgerEntry, RunStatus, StopReason, Session, RunState } from './run/types.js';
export { specHash, specDifferences, packageContentHash, packageDirHash, gitCommit, harnessVersion, packageVersions } from './run/spec.js';
export type { RunSpec } from './run/spec.js';
export { DiskRunStore, MemoryRunStore, RunStoreError, defaultRunId, safeFileName } from './run/run-store.js';
export type { RunStore } from './run/run-store.js';
export { renderRunJson, parseRunJson, loadRunJson, validateRunJson, checkCompatibility, CheckpointError } from './run/checkpoint.js';
export type { RunJson, RunPhase, LoadOptions } from './run/checkpoint.js';
export { executePackages } from './run/executor.js';
export type { PackageJob, PackageContext, PackageWork, ExecuteOptions, ExecuteOutcome } from './run/executor.js';
export { openRun, runTotals, spendByPackage, SpecMismatchError } from './run/session.js';
export type { OpenedRun, RunTotals } from './run/session.js';
export { parseShard, shardOf, inShard, ShardError } from './run/shard.js';
export type { Shard } from './run/shard.js';
export { mergeRuns, MergeError } from './run/merge.js';
export { runAnswers } from './run/replay.js';
export { compareRuns, comparisonText, CompareError } from './run/compare.js';
export type { ComparedRun, PackageSpend, RunComparison } from './run/compare.js';
export type { RunJsonBuilder, MergeOutcome } from './run/merge.js';

export { PyRandom } from './phase1/py-random.js';
export { PHASE1_AGENTS, isMockAgent, mockPrediction } from './phase1/agents.js';
export type { Phase1Agent, MockAgent } from './phase1/agents.js';
export { scoreKeyTypes, failedScore, microScores, bootstrapInterval, mean } from './phase1/judge.js';
export type { KeyTypeScore } from './phase1/judge.js';
export { extractKeyTypes, extractJsonValue, KEY_TYPES_SCHEMA } from './phase1/extract.js';
export type { Extraction, ParseMode } from './phase1/extract.js';
export { keyTypes, packageInterface, phase1Prompt, structCount, PHASE1_INSTRUCTIONS, PHASE1_SYSTEM, PHASE1_PROMPT_VERSION } from './phase1/truth.js';
export { phase1Package, PHASE1_MAX_ATTEMPTS } from './phase1/worker.js';
export type { StructuredMode, Phase1WorkSettings, ServerSupport } from './phase1/worker.js';
export { phase1RunJson, phase1Aggregate, phase1MergedRunJson, phase1SummaryText } from './phase1/report.js';
export type { Phase1RunInfo } from './phase1/report.js';
export { runPhase1, Phase1Error } from './phase1/run.js';
export type { Phase1Options, Phase1Outcome } from './phase1/run.js';
export { doctorAgent, doctorText, smokeAgent, redactSecret, SMOKE_PROMPT } from './doctor.js';
export type { DoctorReport, Probe } from './doctor.js';

import { phase1MergedRunJson } from './phase1/report.js';
import { phase2MergedRunJson } from './phase2/report.js';
import type { RunJsonBuilder } from './run/merge.js';

/** Run JSON builders by benchmark, for {@link mergeRuns}. */
export const RUN_JSON_BUILDERS: Readonly<Record<string, RunJsonBuilder>> = { phase1: phase1MergedRunJson, phase2: phase2MergedRunJson };

// Phase II (type inhabitation): plans, their simulation and scoring.
// Plans are @smi/inhabit's (the one plan-to-PTB path of the chain); re-exported for the harness's users.
export { normalizePlan, validateCausality, padAddress, PlanError, PURE_KINDS, parsePlan, parseArg, planToPtb } from '@smi/inhabit';
export type { Plan, PlanArg, PlanCall, PureKind, NormalizationResult, CausalityValidation, PlanContext, PlanTxBuilder } from '@smi/inhabit';
export { normalizeTypeString, canonicalBaseType, scoreInhabitation, hitRate } from './phase2/score.js';
export type { InhabitationScore } from './phase2/score.js';
export { LocalSimulation } from './phase2/local.js';
export type { LocalSimulationOptions } from './phase2/local.js';
export type { PlanRun, PlanSimulation } from './phase2/plan-sim.js';
export { NodeSimulation } from './phase2/node.js';
export type { NodeSimulationOptions } from './phase2/node.js';
export { prepareNode, NodeSetupError, DEFAULT_NODE_GAS_PRICE, NODE_INVENTORY_CAP } from './phase2/node-setup.js';
export type { NodeContext, NodeSetupOptions, NodeSimulationMode } from './phase2/node-setup.js';
export { phase2Package, planVariants, listPlans, PackageTimeout, VARIANTS } from './phase2/worker.js';
export type { Phase2Row, Phase2PackageOptions, VariantName, PlanItem, PlanSource } from './phase2/worker.js';
export { baselineCandidates } from './phase2/baseline.js';
export type { BaselineCandidate, ExclusionReason } from './phase2/baseline.js';
export { PHASE2_AGENTS, MODEL_PHASE2_AGENTS, isStaticPhase2Agent, Phase2AgentError, agentPlans, readPlanFile } from './phase2/agents.js';
export type { Phase2Agent, StaticPhase2Agent } from './phase2/agents.js';
export { SUMMARY_MODES, SUMMARY_MAX_FUNCTIONS, summarizeInterface, focusedSummary, resolveRequests, inventorySummary, interfaceTypeString, functionSignature } from './phase2/interface-summary.js';
export type { SummaryMode, InventoryItem, ResolvedRequests } from './phase2/interface-summary.js';
export { PHASE2_SYSTEM, PHASE2_PROMPT_VERSION, NEED_MORE_TOOL, planningPrompt, retryPrompt, templatePrompt } from './phase2/prompts.js';
export type { LastFailure, NeedMoreMode } from './phase2/prompts.js';
export { ProgressivePlanner, TemplatePlanner, DEFAULT_MODEL_AGENT_LIMITS } from './phase2/model-agent.js';
export type { ModelAgentSettings, ModelAgentLimits, PackageView } from './phase2/model-agent.js';
export type { Phase2CallRecord, Phase2ServerSupport, ModelFailure } from './phase2/model-call.js';
export { HelperPackageSchema, TARGET_ADDRESS_NAME, helperInstruction } from './phase2/helper-package.js';
export type { HelperPackage } from './phase2/helper-package.js';
export { passAtK } from './run/pass-at-k.js';
export { runPhase2, Phase2Error, phase2State } from './phase2/run.js';
export { missingDependencies } from './phase2/dependencies.js';
export type { MissingDependencies } from './phase2/dependencies.js';
export type { Phase2Options, Phase2Outcome, Phase2State } from './phase2/run.js';
export { phase2RunJson, phase2MergedRunJson, phase2Aggregate, phase2SummaryText } from './phase2/report.js';
export type { Phase2RunInfo } from './phase2/report.js';
export { phase2Manifest, filterManifest } from './phase2/manifest.js';
export type { Phase2Manifest } from './phase2/manifest.js';
export type { RunControlOptions } from './run/control.js';
export { staticCreatedTypes } from './phase2/static-types.js';
export { ChainSearch, ChainSearchPlanner, MISS_CAUSES } from './phase2/chain-search.js';
export type { ChainSearchSettings, ChainSearchFindings, MissCause } from './phase2/chain-search.js';
export { samplesOf, samplesJsonl, samplesCsv, junitXml, writeSampleFiles } from './run/samples.js';
export type { Sample } from './run/samples.js';

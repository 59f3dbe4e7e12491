/**
 * @smi/harness: the LLM benchmark of SMI. Datasets and the original's deterministic
 * sampling; OpenAI-compatible models with retries the harness owns, scripted and replay
 * models; a response cache; token and cost accounting; resumable, checksummed run
 * directories with events, shards and merging; and Phase I (key-struct discovery).
 */
export { DatasetError, discoverPackages, samplePackages, parseIdsText, datasetIds } from './dataset.js';
export type { PackageRef, DiscoverySkips } from './dataset.js';
export { PyFloat, PyJsonError, plain } from './py-json.js';
export type { PyJson } from './py-json.js';

export { ModelError } from './model/types.js';
export type { ChatMessage, ResponseFormat, GenerateParams, ModelUsage, CacheStatus, GenerateResult, GenerateOptions, ModelClient, ModelErrorKind, ToolSpec, ToolCall } from './model/types.js';
export type { RetryPolicy, RetryNotice } from './model/retry.js';
export { OpenAiCompatibleModel, classifyError } from './model/openai-client.js';
export type { OpenAiClientOptions } from './model/openai-client.js';
export { ScriptedModel, ReplayModel } from './model/scripted.js';
export type { ScriptedAnswer, AnswerSource } from './model/scripted.js';
export { ResponseCache, CachedModel } from './model/cache.js';
export type { CacheKeyInput, CacheEntry, CacheStats } from './model/cache.js';
export { resolveModelConfig, readDotenv, generateParams, readModelsFile, resolveModelAlias, ModelConfigError } from './model/config.js';
export type { ModelConfig, ModelsFile } from './model/config.js';
export { readPriceTable, PriceTableError } from './accounting.js';
export type { ModelPrice, PriceTable } from './accounting.js';

export { OUTCOMES, isFailure } from './run/types.js';
export type { Outcome, PackageResult, PackageUsage, EarlierTry, LedgerEntry, RunStatus, StopReason, Session, RunState } from './run/types.js';
export type { RunSpec } from './run/spec.js';
export { DiskRunStore, MemoryRunStore, RunStoreError, defaultRunId, safeFileName } from './run/run-store.js';
export type { RunStore } from './run/run-store.js';
export { renderRunJson, parseRunJson, loadRunJson, CheckpointError } from './run/checkpoint.js';
export type { RunJson, RunPhase, LoadOptions } from './run/checkpoint.js';
export { executePackages } from './run/executor.js';
export type { PackageJob, PackageContext, PackageWork, ExecuteOptions, ExecuteOutcome } from './run/executor.js';
export { openRun, runTotals, spendByPackage, SpecMismatchError } from './run/session.js';
export type { OpenedRun, RunTotals } from './run/session.js';
export { parseShard, ShardError } from './run/shard.js';
export type { Shard } from './run/shard.js';
export { mergeRuns, MergeError } from './run/merge.js';
export { runAnswers } from './run/replay.js';
export { compareRuns, comparisonText, CompareError } from './run/compare.js';
export type { ComparedRun, PackageSpend, RunComparison } from './run/compare.js';
export type { RunJsonBuilder, MergeOutcome } from './run/merge.js';

export { PHASE1_AGENTS } from './phase1/agents.js';
export type { Phase1Agent } from './phase1/agents.js';
export { mean, scoreKeyTypes } from './phase1/judge.js';
export type { KeyTypeScore } from './phase1/judge.js';
export { extractKeyTypes } from './phase1/extract.js';
export type { Extraction, ParseMode } from './phase1/extract.js';
export { PHASE1_INSTRUCTIONS, keyTypes, packageInterface, phase1Prompt } from './phase1/truth.js';
export type { StructuredMode } from './phase1/worker.js';
export { phase1SummaryText } from './phase1/report.js';
export { runPhase1, Phase1Error } from './phase1/run.js';
export type { Phase1Options, Phase1Outcome } from './phase1/run.js';
export { doctorAgent, doctorText, smokeAgent, redactSecret } from './doctor.js';
export type { DoctorReport, Probe } from './doctor.js';

import { phase1MergedRunJson } from './phase1/report.js';
import { phase2MergedRunJson } from './phase2/report.js';
import type { RunJsonBuilder } from './run/merge.js';

/** Run JSON builders by benchmark, for {@link mergeRuns}. */
export const RUN_JSON_BUILDERS: Readonly<Record<string, RunJsonBuilder>> = { phase1: phase1MergedRunJson, phase2: phase2MergedRunJson };

// Phase II (type inhabitation): plans, their simulation and scoring.
// Plans are @smi/inhabit's (the one plan-to-PTB path of the chain); re-exported for the harness's users.
export { PlanError, PURE_KINDS } from '@smi/inhabit';
export type { Plan, PlanArg, PlanCall, PureKind } from '@smi/inhabit';
export { LocalSimulation } from './phase2/local.js';
export type { LocalSimulationOptions } from './phase2/local.js';
export type { PlanRun, PlanSimulation } from './phase2/plan-sim.js';
export { NodeSimulation } from './phase2/node.js';
export type { NodeSimulationOptions } from './phase2/node.js';
export { prepareNode, NodeSetupError } from './phase2/node-setup.js';
export type { NodeContext, NodeSetupOptions, NodeSimulationMode } from './phase2/node-setup.js';
export { PHASE2_AGENTS, MODEL_PHASE2_AGENTS, Phase2AgentError, readPlanFile } from './phase2/agents.js';
export type { Phase2Agent } from './phase2/agents.js';
export { SUMMARY_MODES } from './phase2/interface-summary.js';
export type { SummaryMode, InventoryItem } from './phase2/interface-summary.js';
export { DEFAULT_MODEL_AGENT_LIMITS } from './phase2/model-agent.js';
export type { ModelAgentLimits } from './phase2/model-agent.js';
export { runPhase2, Phase2Error, phase2State } from './phase2/run.js';
export type { MissingDependencies } from './phase2/dependencies.js';
export type { Phase2Options, Phase2Outcome, Phase2State } from './phase2/run.js';
export { phase2SummaryText } from './phase2/report.js';
export { phase2Manifest, filterManifest } from './phase2/manifest.js';
export type { Phase2Manifest } from './phase2/manifest.js';
export type { RunControlOptions } from './run/control.js';

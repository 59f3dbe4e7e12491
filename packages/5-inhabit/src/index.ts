/**
 * @smi/inhabit: type inhabitation over a corpus of Sui packages. A constructor graph read
 * from the bytecode, values and type arguments that meet their types' constraints, Tier A
 * (static stages A1–A5) and Tier B (real PTBs on the simulation), rows in the original's
 * JSONL schema that replay through `smi sandbox-exec`, and a summary.
 */
export { Benchmark, DEFAULT_CLOCK_BASE_MS, DEFAULT_MAX_ATTEMPTS } from './benchmark.js';
export type { BenchmarkOptions, TargetRef } from './benchmark.js';
export { Catalogue, isCoreFramework } from './catalogue.js';
export type { DatatypeDecl, FunctionDecl, PackageInfo, CallSite, FieldDecl } from './catalogue.js';
export { ConstructorGraph, isCallable } from './constructor-graph.js';
export type { ConstructorEdge, SetupEdge, GraphStats, EdgeKind } from './constructor-graph.js';
export { Planner } from './planner.js';
export type { PlannerOptions, PlanOutcome, TargetPlan, ParamPlan } from './planner.js';
export { buildBaseline, FRAMEWORK_IDS } from './baseline.js';
export type { Baseline, BaselineOptions, InitRun } from './baseline.js';
export { inventoryOf, isSystemObject, tyFromTag, usableObjects } from './inventory.js';
export type { InventoryObject, ObjectOrigin, ObjectOwnership, UsableObject } from './inventory.js';
export { rowLine, rowSortKey } from './row.js';
export type { BenchmarkRow, RowStatus, TierADetails, TierBDetails, StaticCall, AbortInfo, TypeArgJson } from './row.js';
export { ERROR_CODES, STAGE_CODES, ABORT_CATEGORIES, abortCategory, errorSource, isExpectedLimitation } from './taxonomy.js';
export type { Stage, ErrorCode, Phase, ErrorSource, AbortCategory, StageFailure } from './taxonomy.js';
export { pureValue, isPureTy, bcsRoundTrip, VALUE_PROFILES } from './values.js';
export type { ValueProfile } from './values.js';
export { defaultTypeArg, completeTypeArgs } from './type-args.js';
export type { ChosenTypeArg } from './type-args.js';
export { formatTy, tyFromToken, datatypeKey } from './types.js';
export type { Ty, DatatypeTy } from './types.js';
export type { Source, Arg, ParamUse, Provenance } from './sources.js';
export { runBenchmark, runTargets, unfinishedRow } from './runner.js';
export type { RunOptions, RunResult } from './runner.js';
export { SummaryBuilder, summaryText } from './summary.js';
export type { BenchmarkSummary, PackageSummary } from './summary.js';
export { HIT_KINDS } from './hit-class.js';
export { selectTargets } from './benchmark.js';
export { mergeShardRows, isLoadFailureRow, MergeRowsError } from './merge-rows.js';
export { planOfRequest } from './plan-of-request.js';
export type { PlanObject, RequestPlan } from './plan-of-request.js';
export { normalizePlan, validateCausality, padAddress, PlanError, PURE_KINDS } from './plan.js';
export type { Plan, PlanArg, PlanCall, PureKind, PureValue, NormalizationResult, CausalityValidation } from './plan.js';
export { parsePlan, parseArg, planToPtb, planObjectIds } from './plan-ptb.js';
export type { PlanContext, PlanTxBuilder } from './plan-ptb.js';
export { InterfaceIndex } from './interface-index.js';

/**
 * @smi/conformance: the upstream conformance suites run against SMI.
 */
export { emptySummary } from './summary.js';
export type { SuiteSummary, SuiteFailure, SuiteSkip, SuiteOptions } from './summary.js';
export { findTraceCases, runTraceCase, runTraceSuite, canonicalTraceRecord } from './traces.js';
export type { TraceCase, TraceOutcome } from './traces.js';

/**
 * @smi/conformance: the upstream conformance suites run against SMI.
 */
export { emptySummary } from './summary.js';
export type { SuiteSummary, SuiteFailure, SuiteSkip, SuiteOptions } from './summary.js';
export { findTraceCases, runTraceCase, runTraceSuite, canonicalTraceRecord, withUnitTest } from './traces.js';
export type { TraceCase, TraceOutcome, TraceSuiteOptions } from './traces.js';
export { TX_CONTEXT_TEST_SOURCE, TraceFrameworkError, traceFramework, publishedPartDiffers } from './traces-framework.js';
export { agreeingSnapshots, frameworkCalls, snapshotVersions } from './traces-choose.js';
export type { FrameCall } from './traces-choose.js';
export type { TraceFramework, TraceFrameworkErrorCode } from './traces-framework.js';
export { runIrCompilerSuite } from './ir-compiler.js';
export { runIrVmSuite, runIrVmFile, findMvirFiles, snapshotsWithoutIr, compareTaskOutput, parseErrorBlock } from './ir-vm.js';
export type { IrVmSuiteOptions, IrTaskVerdict, IrVmFileRun } from './ir-vm.js';
export { IrVmAdapter, formatVmErrorReport } from './ir-vm-adapter.js';
export type { IrVmOptions, ModuleVerifier, VmErrorReport } from './ir-vm-adapter.js';
export { upstreamTestGasSchedule } from './ir-vm-gas.js';
export { parseRunValue, runValueBcs, signerBcs, formatRunValue, RunValueError } from './ir-vm-values.js';
export type { RunValue, AddressLookup } from './ir-vm-values.js';
export { bytecodeVerifier, reportOfVerificationError } from './ir-vm-verifier.js';
export { runReplaySuite } from './replay.js';
export type { ReplaySuiteOptions } from './replay.js';
export {
  runAdapterSuite,
  runAdapterTestFile,
  findAdapterTests,
  adapterRunnerOptions,
  runAdapterFile,
  parseAdapterFile,
  parsePtbCommands,
  parseValue,
  parseType,
  compareTask,
  expectedOutput,
  AdapterError,
} from './adapter/index.js';
export type { AdapterSuiteOptions, AdapterSuiteSummary, AdapterVerdict, AdapterTaskRun, AdapterRunnerOptions, AdapterErrorCode } from './adapter/index.js';

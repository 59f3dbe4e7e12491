/** The `adapter` suite: upstream's Sui adapter transactional tests on SMI. */
export { runAdapterSuite, runAdapterTestFile, findAdapterTests, adapterRunnerOptions } from './suite.js';
export type { AdapterSuiteOptions, AdapterSuiteSummary, AdapterVerdict, FolderCounts } from './suite.js';
export { runAdapterFile } from './runner.js';
export type { AdapterRunnerOptions, AdapterTaskRun } from './runner.js';
export { parseAdapterFile, parseCommand } from './tasks.js';
export type { AdapterCommand, AdapterTask } from './tasks.js';
export { parsePtbCommands } from './ptb-syntax.js';
export type { ParsedCommand } from './ptb-syntax.js';
export { parseValue, parseType, parseFakeId, pureBytes } from './values.js';
export type { ParsedValue, ParsedType, FakeId } from './values.js';
export { compareTask, expectedOutput } from './compare.js';
export type { TaskComparison, ComparisonCategory } from './compare.js';
export { stabilize } from './display.js';
export { statusDisplay, statusDebug } from './status-text.js';
export { AdapterError } from './errors.js';
export type { AdapterErrorCode } from './errors.js';

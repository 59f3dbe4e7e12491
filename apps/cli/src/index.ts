/** Programmatic entry to the `smi` CLI (used by tests and by scripts that embed it). */
export { runCli, GLOBAL_OPTIONS, MAIN_EXAMPLES } from './main.js';
export type { CliIo } from './io.js';
export { CliError, EXIT, InterruptedError, OutputClosedError, UsageError } from './errors.js';
export type { CommandSpec, Example, FileRole, GlobalArgs, OptionSpec, PositionalSpec } from './command.js';
export { COMMANDS } from './commands/index.js';
export { checkCorpus } from './commands/corpus-check.js';
export type { CorpusCheckSummary, CorpusCheckError } from './commands/corpus-check.js';
export { extractPackage } from './commands/extract.js';

/** Programmatic entry to the `smi` CLI (used by tests and by scripts that embed it). */
export { runCli } from './main.js';
export type { CliIo } from './io.js';
export { UsageError } from './io.js';
export { checkCorpus } from './commands/corpus-check.js';
export type { CorpusCheckSummary, CorpusCheckError } from './commands/corpus-check.js';
export { extractPackage } from './commands/extract.js';
